//! Answers of an endpoint kept on disk, so that a resumed or repeated run sends no query
//! twice. One folder per endpoint and KG version: `<dir>/<endpoint>/<version>/<query>.tsv`,
//! each name a hash (the endpoint's URL is hashed with its credentials masked: a cache never
//! holds a secret). The version is `--kg-snapshot` when given, else the endpoint's triple
//! count and a hash of the first triples it lists: a KG that changes gets a fresh folder.
//!
//! An entry is the TSV the endpoint would send (full term syntax) after one sealing line
//! ([`crate::durable`]):
//!
//! ```text
//! # kgscope answer v1 rows=N bytes=LEN sha256=HEX
//! ?a	?b
//! <http://ex.org/x>	"x"@en
//! ```
//!
//! LEN is the length of the TSV after the first line, HEX the sha256 of the first line up to
//! ` sha256=` and the TSV, N its number of rows. A reader checks all three, and the TSV's
//! variables, before it takes a row: an entry emptied, cut, grown or edited (by hand, a
//! flipped bit, a full disk) is damaged, never served as the endpoint's answer. It is a miss:
//! said in a warning with its path, the query sent again and the entry rewritten. Entries are
//! written durably (synced before and after their rename), so a power loss leaves none half
//! written. The layout's version is part of each entry's name: entries of the unsealed layout
//! before it are never read.

use std::path::{Path, PathBuf};

use oxigraph::sparql::results::{
    QueryResultsFormat, QueryResultsParser, QueryResultsSerializer, SliceQueryResultsParserOutput,
};
use oxigraph::sparql::Variable;
use sha2::{Digest, Sha256};

use crate::kg::Row;

pub struct QueryCache {
    dir: PathBuf,
}

/// The seal's tag before ` rows=N`; `v1` is the layout of an entry.
const TAG: &str = "# kgscope answer v1";

fn hash(text: &str) -> String {
    hex::encode(&Sha256::digest(text.as_bytes())[..12])
}

impl QueryCache {
    /// The cache of the endpoint shown as `shown_url` (credentials masked) at KG `version`.
    pub fn new(root: &Path, shown_url: &str, version: &str) -> Self {
        QueryCache {
            dir: root.join(hash(shown_url)).join(hash(version)),
        }
    }

    fn path(&self, query: &str, vars: &[&str]) -> PathBuf {
        self.dir.join(format!(
            "{}.tsv",
            hash(&format!("{TAG}\n{}\n{query}", vars.join(" ")))
        ))
    }

    /// The rows answered to `query` before, if there is an entry and it is whole. A damaged
    /// entry is a miss, with a warning naming it: the query is sent again and the entry
    /// rewritten.
    pub fn get(&self, query: &str, vars: &[&str]) -> Option<Vec<Row>> {
        let path = self.path(query, vars);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => {
                tracing::warn!(
                    "cannot read the cached answer {}: {e}; asking the endpoint again",
                    path.display()
                );
                return None;
            }
        };
        match read_entry(&bytes, vars) {
            Ok(rows) => Some(rows),
            Err(what) => {
                tracing::warn!(
                    "the cached answer {} is damaged: it {what}; not using it: asking the \
                     endpoint again and rewriting it",
                    path.display()
                );
                None
            }
        }
    }

    /// Keeps `rows` as the answer to `query`. A cache that cannot be written is no error:
    /// the run goes on and the query is sent again next time.
    pub fn put(&self, query: &str, vars: &[&str], rows: &[Row]) {
        if let Err(e) = self.write(query, vars, rows) {
            tracing::warn!(
                "cannot cache an endpoint's answer in {}: {e}",
                self.dir.display()
            );
        }
    }

    fn write(&self, query: &str, vars: &[&str], rows: &[Row]) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let tsv = to_tsv(vars, rows)?;
        let tag = format!("{TAG} rows={}", rows.len());
        crate::durable::write_atomic(&self.path(query, vars), |w| {
            crate::durable::write_sealed(w, &tag, &tsv)
        })
    }
}

/// `rows` as the TSV an endpoint would send for `vars`.
fn to_tsv(vars: &[&str], rows: &[Row]) -> std::io::Result<Vec<u8>> {
    let variables: Vec<Variable> = vars
        .iter()
        .map(|v| Variable::new(*v).map_err(std::io::Error::other))
        .collect::<Result<_, _>>()?;
    let mut w = QueryResultsSerializer::from_format(QueryResultsFormat::Tsv)
        .serialize_solutions_to_writer(Vec::new(), variables.clone())?;
    for row in rows {
        w.serialize(
            variables
                .iter()
                .zip(row)
                .filter_map(|(v, t)| Some((v, t.as_ref()?))),
        )?;
    }
    w.finish()
}

/// The rows of an entry's bytes, once its seal, its row count and its variables are checked;
/// else what is wrong with it ("it ...").
fn read_entry(bytes: &[u8], vars: &[&str]) -> Result<Vec<Row>, String> {
    let (tag, tsv) = crate::durable::unseal(bytes).map_err(|e| e.to_string())?;
    let rows_said: usize = tag
        .strip_prefix(TAG)
        .and_then(|t| t.strip_prefix(" rows="))
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| {
            format!(
                "is sealed as {:?}, not as {TAG:?} with a row count",
                crate::sanitize::line(tag)
            )
        })?;
    let parsed = QueryResultsParser::from_format(QueryResultsFormat::Tsv)
        .for_slice(tsv)
        .map_err(|e| format!("is not an answer in TSV ({e})"))?;
    let SliceQueryResultsParserOutput::Solutions(solutions) = parsed else {
        return Err("holds a yes/no answer, not rows".into());
    };
    let found: Vec<&str> = solutions.variables().iter().map(|v| v.as_str()).collect();
    if found != vars {
        return Err(format!("answers for the variables {found:?}, not {vars:?}"));
    }
    let mut rows = Vec::with_capacity(rows_said.min(1 << 20));
    for (i, s) in solutions.enumerate() {
        let s = s.map_err(|e| format!("has an unreadable row {} ({e})", i + 1))?;
        rows.push(vars.iter().map(|v| s.get(*v).cloned()).collect());
    }
    if rows.len() != rows_said {
        return Err(format!(
            "holds {} rows where its seal says {rows_said}",
            rows.len()
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oxigraph::model::{Literal, NamedNode, Term};

    #[test]
    fn answers_round_trip_with_their_terms_and_unbound_values() {
        let dir = tempfile::tempdir().unwrap();
        let c = QueryCache::new(dir.path(), "http://***@example.org/sparql", "v1");
        let rows: Vec<Row> = vec![
            vec![
                Some(Term::NamedNode(
                    NamedNode::new("http://ex.org/Lima").unwrap(),
                )),
                Some(Term::Literal(
                    Literal::new_language_tagged_literal("Lima\tcity", "es").unwrap(),
                )),
            ],
            vec![
                Some(Term::Literal(Literal::new_typed_literal(
                    "1535-01-18",
                    NamedNode::new("http://www.w3.org/2001/XMLSchema#date").unwrap(),
                ))),
                None,
            ],
        ];
        let q = "SELECT ?a ?b WHERE { ?a ?p ?b }";
        assert_eq!(c.get(q, &["a", "b"]), None);
        c.put(q, &["a", "b"], &rows);
        assert_eq!(c.get(q, &["a", "b"]), Some(rows.clone()));
        // Another query, another KG version or another endpoint: a miss.
        assert_eq!(c.get("SELECT ?a ?b WHERE { ?b ?p ?a }", &["a", "b"]), None);
        let v2 = QueryCache::new(dir.path(), "http://***@example.org/sparql", "v2");
        assert_eq!(v2.get(q, &["a", "b"]), None);
        // The URL is never written in clear.
        for e in walk(dir.path()) {
            assert!(!e.contains("example.org"), "{e}");
        }
    }

    /// What the seal cannot see, the reader checks: a sealed entry (written by hand, or by a
    /// bug) whose rows or variables are not what its first line and its name say is refused.
    #[test]
    fn an_entry_with_another_row_count_or_other_variables_is_refused() {
        let tsv = b"?a\n<http://ex.org/x>\n";
        let sealed = |rows: usize| {
            let mut f = Vec::new();
            crate::durable::write_sealed(&mut f, &format!("{TAG} rows={rows}"), tsv).unwrap();
            f
        };
        assert_eq!(read_entry(&sealed(1), &["a"]).unwrap().len(), 1);
        let e = read_entry(&sealed(2), &["a"]).unwrap_err();
        assert!(e.contains("holds 1 rows where its seal says 2"), "{e}");
        let e = read_entry(&sealed(1), &["b"]).unwrap_err();
        assert!(e.contains("variables"), "{e}");
        let mut other = Vec::new();
        crate::durable::write_sealed(&mut other, "# another file", tsv).unwrap();
        let e = read_entry(&other, &["a"]).unwrap_err();
        assert!(e.contains("not as"), "{e}");
    }

    fn walk(p: &Path) -> Vec<String> {
        let mut out = vec![];
        for e in std::fs::read_dir(p).unwrap() {
            let e = e.unwrap().path();
            out.push(e.display().to_string());
            if e.is_dir() {
                out.extend(walk(&e));
            }
        }
        out
    }
}

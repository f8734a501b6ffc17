//! Answers of an endpoint kept on disk, so that a resumed or repeated run sends no query
//! twice. One folder per endpoint and KG version: `<dir>/<endpoint>/<version>/<query>.tsv`,
//! each name a hash (the endpoint's URL is hashed with its credentials masked: a cache never
//! holds a secret). The version is `--kg-snapshot` when given, else the endpoint's triple
//! count and a hash of the first triples it lists: a KG that changes gets a fresh folder. An
//! answer is the TSV the endpoint would send (full term syntax), written to a temporary file
//! and renamed, so a crash never leaves half an answer to be read back.

use std::io::Write;
use std::path::{Path, PathBuf};

use oxigraph::sparql::results::{
    QueryResultsFormat, QueryResultsParser, QueryResultsSerializer, ReaderQueryResultsParserOutput,
};
use oxigraph::sparql::Variable;
use sha2::{Digest, Sha256};

use crate::kg::Row;

pub struct QueryCache {
    dir: PathBuf,
}

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
            hash(&format!("{}\n{query}", vars.join(" ")))
        ))
    }

    /// The rows answered to `query` before, if any could be read back.
    pub fn get(&self, query: &str, vars: &[&str]) -> Option<Vec<Row>> {
        let file = std::fs::File::open(self.path(query, vars)).ok()?;
        let parsed = QueryResultsParser::from_format(QueryResultsFormat::Tsv)
            .for_reader(std::io::BufReader::new(file))
            .ok()?;
        let ReaderQueryResultsParserOutput::Solutions(solutions) = parsed else {
            return None;
        };
        let mut rows = Vec::new();
        for s in solutions {
            // An unreadable entry is a miss: the query is sent again and the entry rewritten.
            let s = s.ok()?;
            rows.push(vars.iter().map(|v| s.get(*v).cloned()).collect());
        }
        Some(rows)
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
        let variables: Vec<Variable> = vars
            .iter()
            .map(|v| Variable::new(*v).map_err(std::io::Error::other))
            .collect::<Result<_, _>>()?;
        let mut tmp = tempfile::NamedTempFile::new_in(&self.dir)?;
        {
            let out = std::io::BufWriter::new(tmp.as_file_mut());
            let mut w = QueryResultsSerializer::from_format(QueryResultsFormat::Tsv)
                .serialize_solutions_to_writer(out, variables.clone())?;
            for row in rows {
                w.serialize(
                    variables
                        .iter()
                        .zip(row)
                        .filter_map(|(v, t)| Some((v, t.as_ref()?))),
                )?;
            }
            w.finish()?.flush()?;
        }
        tmp.persist(self.path(query, vars)).map_err(|e| e.error)?;
        Ok(())
    }
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

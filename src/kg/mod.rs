//! Knowledge graph access behind one trait.
//!
//! Every source — an RDF file loaded into memory, an on-disk oxigraph store, a remote SPARQL
//! endpoint — answers SPARQL `SELECT` queries, and everything kgscope needs from a KG is written
//! once on top of that primitive. The same assertions therefore hold for all three sources,
//! and a KG too large for this machine can live in any SPARQL engine.

pub mod bounded;
mod build;
pub mod endpoint;
pub mod index;
pub mod index_file;
pub mod info;
pub mod load;
pub mod local;
pub mod neighbourhood;
pub mod profile;
pub mod samples;
pub mod search;
pub mod subgraph;
pub mod vocab;
mod xml_depth;

use std::path::{Path, PathBuf};

pub use index::KgIndex;
pub use info::{EntityInfo, KgStats, RelationInfo};
pub use oxigraph::model::Term;

/// One row of a `SELECT` result, in the order of the query's variables.
pub type Row = Vec<Option<Term>>;

/// What an index is built from, row by row, as the queries of [`KgIndex::build_by_queries`](index::KgIndex::build_by_queries)
/// return them: facts `(s, p, o)`, labels `(s, p, l)`, aliases `(s, l)`, types `(s, t)` and
/// dated qualifiers `(s, p, o, d)`.
#[derive(Default)]
pub struct IndexRows {
    pub facts: Vec<Row>,
    pub labels: Vec<Row>,
    pub aliases: Vec<Row>,
    pub types: Vec<Row>,
    pub qualifiers: Vec<Row>,
}

#[derive(Debug, thiserror::Error)]
pub enum KgError {
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        path: PathBuf,
        line: u64,
        column: u64,
        message: String,
    },
    #[error("{path}: {message}")]
    File { path: PathBuf, message: String },
    #[error("store {path}: {message}")]
    Store { path: PathBuf, message: String },
    #[error("SPARQL endpoint {url}: {message}")]
    Endpoint { url: String, message: String },
    #[error("query failed: {0}")]
    Query(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Invalid(String),
}

pub type Result<T, E = KgError> = std::result::Result<T, E>;

/// A knowledge graph that answers SPARQL queries over the union of its graphs.
pub trait KnowledgeGraph: Send + Sync {
    /// Where the KG comes from, for messages and manifests (a path or a URL).
    fn source(&self) -> String;

    /// Runs a SPARQL `SELECT` and returns its rows in the order of `vars`.
    fn select(&self, query: &str, vars: &[&str]) -> Result<Vec<Row>>;

    /// What the index is built from, read by a scan of the KG's own quads where it can
    /// (`None`: by SPARQL queries).
    fn index_rows(&self) -> Option<Result<index::IndexRows>> {
        None
    }

    /// Every triple whose subject is not a literal, `(s, p, o)`, by a scan where the KG can
    /// do one (`None`: by a query): what a [`profile`] other than the generic one reads.
    fn triples(&self) -> Option<Result<Vec<Row>>> {
        None
    }

    /// Where the index of a store on disk is kept between opens (`None`: built at every open).
    fn index_slot(&self) -> Option<index_file::Slot> {
        None
    }

    /// How the KG is searched by name ([`search`]): its own full-text search where it has
    /// one, else a scan of its labels.
    fn search_dialect(&self) -> search::Dialect {
        search::Dialect::LabelPrefix
    }

    /// Requests sent to a remote endpoint so far (`None` for a local KG).
    fn requests(&self) -> Option<u64> {
        None
    }

    /// Number of triples (quads in all graphs).
    fn triple_count(&self) -> Result<u64> {
        let rows = self.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", &["n"])?;
        Ok(rows
            .first()
            .and_then(|r| r[0].as_ref())
            .and_then(literal_u64)
            .unwrap_or(0))
    }

    /// Whether `(s, p, o)` is in the KG.
    fn contains(&self, s: &Term, p: &Term, o: &Term) -> Result<bool> {
        let q = format!("SELECT (1 AS ?x) WHERE {{ {s} {p} {o} }} LIMIT 1");
        Ok(!self.select(&q, &["x"])?.is_empty())
    }
}

/// Opens `spec`: `sample:NAME` (an embedded sample KG), an `http(s)://` SPARQL endpoint URL, an oxigraph store directory, or an RDF
/// file (loaded into memory; see [`load::RdfFormatKind`] for the accepted extensions).
pub fn open(spec: &str) -> Result<Box<dyn KnowledgeGraph>> {
    if let Some(name) = spec.strip_prefix("sample:") {
        let text = samples::turtle(name).ok_or_else(|| {
            KgError::NotFound(format!(
                "--kg {spec}: no such sample KG; the samples are: {}",
                samples::names()
                    .iter()
                    .map(|n| format!("sample:{n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        return Ok(Box::new(local::LocalKg::from_turtle(text, spec)?));
    }
    if spec.starts_with("http://") || spec.starts_with("https://") {
        // A URL read back from a run's manifest has its credentials masked; the user gives
        // them again with --kg (see `crate::credentials`).
        let url = crate::credentials::restore(spec).map_err(|e| {
            KgError::Invalid(format!("the SPARQL endpoint URL {e}: pass it with --kg"))
        })?;
        return Ok(Box::new(endpoint::SparqlEndpoint::new(&url)?));
    }
    let path = Path::new(spec);
    if path.is_dir() {
        return Ok(Box::new(local::LocalKg::open_dir(path)?));
    }
    if path.is_file() {
        return Ok(Box::new(local::LocalKg::from_files(
            &[path.to_path_buf()],
            false,
        )?));
    }
    Err(KgError::NotFound(format!(
        "--kg {}: no such file or directory, and not an http(s):// SPARQL endpoint URL",
        crate::credentials::redact(spec)
    )))
}

pub(crate) fn literal_u64(t: &Term) -> Option<u64> {
    match t {
        Term::Literal(l) => l.value().parse().ok(),
        _ => None,
    }
}

/// The plain string of an IRI or literal term (no angle brackets or quotes).
pub fn term_str(t: &Term) -> &str {
    match t {
        Term::NamedNode(n) => n.as_str(),
        Term::BlankNode(b) => b.as_str(),
        Term::Literal(l) => l.value(),
        #[allow(unreachable_patterns)]
        _ => "",
    }
}

//! The embedded oxigraph store: an RDF file loaded into memory, or an on-disk store directory.

use std::path::{Path, PathBuf};

use oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxigraph::store::Store;

use super::load::{self, LoadOptions};
use super::{KgError, KnowledgeGraph, Result, Row};

pub struct LocalKg {
    store: Store,
    source: String,
}

impl LocalKg {
    /// Opens an existing store directory read-only, so several readers (and a running
    /// evaluation) can share it.
    pub fn open_dir(path: &Path) -> Result<Self> {
        if !path.join("CURRENT").exists() {
            return Err(KgError::Store {
                path: path.to_path_buf(),
                message: "not an oxigraph store directory (create one with `kgscope kg load FILE --store DIR`)".into(),
            });
        }
        let store = Store::open_read_only(path).map_err(|e| KgError::Store {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Ok(Self {
            store,
            source: path.display().to_string(),
        })
    }

    /// Loads RDF files into a fresh in-memory store.
    pub fn from_files(paths: &[PathBuf], lenient: bool) -> Result<Self> {
        let store = Store::new().map_err(|e| KgError::Query(e.to_string()))?;
        let opts = LoadOptions {
            lenient,
            // A file read for a single command needs no separate validation pass: a syntax
            // error aborts the command and the in-memory store is thrown away.
            validate_first: false,
        };
        load::load_files(&store, paths, &opts, &|_| {})?;
        Ok(Self {
            store,
            source: paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(","),
        })
    }

    /// Loads Turtle text (an embedded sample KG) into a fresh in-memory store.
    pub fn from_turtle(text: &str, source: &str) -> Result<Self> {
        let store = Store::new().map_err(|e| KgError::Query(e.to_string()))?;
        let mut loader = store.bulk_loader();
        loader
            .load_from_slice(oxigraph::io::RdfFormat::Turtle, text.as_bytes())
            .map_err(|e| KgError::Invalid(format!("{source}: {e}")))?;
        loader.commit().map_err(|e| KgError::Query(e.to_string()))?;
        Ok(Self {
            store,
            source: source.to_string(),
        })
    }

    pub fn store(&self) -> &Store {
        &self.store
    }
}

impl KnowledgeGraph for LocalKg {
    fn source(&self) -> String {
        self.source.clone()
    }

    fn select(&self, query: &str, vars: &[&str]) -> Result<Vec<Row>> {
        let mut prepared = SparqlEvaluator::new()
            .parse_query(query)
            .map_err(|e| KgError::Query(format!("{e} in query: {query}")))?;
        // Named graphs of an N-Quads dump count as part of the KG.
        prepared.dataset_mut().set_default_graph_as_union();
        let results = prepared
            .on_store(&self.store)
            .execute()
            .map_err(|e| KgError::Query(e.to_string()))?;
        let QueryResults::Solutions(solutions) = results else {
            return Err(KgError::Query("expected a SELECT query".into()));
        };
        let mut rows = Vec::new();
        for solution in solutions {
            let solution = solution.map_err(|e| KgError::Query(e.to_string()))?;
            rows.push(vars.iter().map(|v| solution.get(*v).cloned()).collect());
        }
        Ok(rows)
    }
}

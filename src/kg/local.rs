//! The embedded oxigraph store: an RDF file loaded into memory, or an on-disk store directory.

use std::path::{Path, PathBuf};

use oxigraph::sparql::{QueryResults, SparqlEvaluator};
use oxigraph::store::Store;

use super::index::IndexRows;
use super::load::{self, LoadOptions};
use super::vocab;
use super::{KgError, KnowledgeGraph, Result, Row, Term};

pub struct LocalKg {
    store: Store,
    source: String,
    /// The store directory, for one opened from disk.
    dir: Option<PathBuf>,
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
            dir: Some(path.to_path_buf()),
        })
    }

    /// Loads RDF files into a fresh in-memory store.
    pub fn from_files(paths: &[PathBuf], lenient: bool) -> Result<Self> {
        let store = Store::new().map_err(|e| KgError::Query(e.to_string()))?;
        let opts = LoadOptions { lenient };
        load::load_files(&store, paths, &opts, &|_| {})?;
        Ok(Self {
            store,
            source: paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(","),
            dir: None,
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
            dir: None,
        })
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    fn scan(&self) -> Result<IndexRows> {
        let meta = vocab::meta_predicates();
        let mut rows = IndexRows::default();
        for quad in self.store.iter() {
            let q = quad.map_err(|e| KgError::Query(e.to_string()))?;
            let s = Term::from(q.subject);
            let p = q.predicate.as_str();
            let o = q.object;
            let literal = matches!(o, Term::Literal(_));
            if vocab::LABELS.contains(&p) && literal {
                rows.labels.push(vec![
                    Some(s.clone()),
                    Some(Term::NamedNode(q.predicate.clone())),
                    Some(o.clone()),
                ]);
            }
            if vocab::ALIASES.contains(&p) && literal {
                rows.aliases.push(vec![Some(s.clone()), Some(o.clone())]);
            }
            if vocab::TYPES.contains(&p) && s.is_named_node() && o.is_named_node() {
                rows.types.push(vec![Some(s.clone()), Some(o.clone())]);
            }
            if s.is_named_node() && !o.is_blank_node() && !meta.contains(&p) {
                rows.facts
                    .push(vec![Some(s), Some(Term::NamedNode(q.predicate)), Some(o)]);
            }
        }
        // Reified statements (rare): found by their rdf:subject, then read whole for dates.
        let err = |e: oxigraph::store::StorageError| KgError::Query(e.to_string());
        let of = |st: &oxigraph::model::NamedOrBlankNode, p: &str| -> Result<Option<Term>> {
            let p = oxigraph::model::NamedNodeRef::new_unchecked(p);
            Ok(
                match self
                    .store
                    .quads_for_pattern(Some(st.as_ref()), Some(p), None, None)
                    .next()
                {
                    Some(q) => Some(q.map_err(err)?.object),
                    None => None,
                },
            )
        };
        let subject = oxigraph::model::NamedNodeRef::new_unchecked(vocab::RDF_SUBJECT);
        let mut seen = std::collections::HashSet::new();
        for q in self
            .store
            .quads_for_pattern(None, Some(subject), None, None)
        {
            let q = q.map_err(err)?;
            if !q.object.is_named_node() || !seen.insert(q.subject.clone()) {
                continue;
            }
            let (Some(p), Some(o)) = (
                of(&q.subject, vocab::RDF_PREDICATE)?,
                of(&q.subject, vocab::RDF_OBJECT)?,
            ) else {
                continue;
            };
            for d in self
                .store
                .quads_for_pattern(Some(q.subject.as_ref()), None, None, None)
            {
                let d = d.map_err(err)?.object;
                if matches!(&d, Term::Literal(l) if vocab::DATES.contains(&l.datatype().as_str())) {
                    rows.qualifiers.push(vec![
                        Some(q.object.clone()),
                        Some(p.clone()),
                        Some(o.clone()),
                        Some(d),
                    ]);
                }
            }
        }
        Ok(rows)
    }
}

impl KnowledgeGraph for LocalKg {
    fn source(&self) -> String {
        self.source.clone()
    }

    /// One pass over the store's quads (every graph), sorted into what the index's queries
    /// would return: no query is parsed, planned or joined.
    fn index_rows(&self) -> Option<Result<IndexRows>> {
        Some(self.scan())
    }

    fn triples(&self) -> Option<Result<Vec<Row>>> {
        Some(
            self.store
                .iter()
                .map(|q| {
                    let q = q.map_err(|e| KgError::Query(e.to_string()))?;
                    Ok(vec![
                        Some(Term::from(q.subject)),
                        Some(Term::NamedNode(q.predicate)),
                        Some(q.object),
                    ])
                })
                .collect(),
        )
    }

    fn index_slot(&self) -> Option<super::index_file::Slot> {
        self.dir
            .as_deref()
            .and_then(super::index_file::Slot::for_store)
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

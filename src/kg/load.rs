//! Reading RDF files (Turtle, N-Triples, N-Quads, TriG, RDF/XML, each optionally gzipped)
//! and bulk-loading them into an oxigraph store.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use oxigraph::io::{RdfFormat, RdfParseError, RdfParser};
use oxigraph::model::Quad;
use oxigraph::store::{StorageError, Store};

use super::{KgError, Result};

/// The RDF syntax of a file, from its extension (`.gz` is looked through).
pub fn detect_format(path: &Path) -> Result<(RdfFormat, bool)> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let (name, gz) = match name.strip_suffix(".gz") {
        Some(stem) => (stem.to_string(), true),
        None => (name, false),
    };
    let ext = name.rsplit('.').next().unwrap_or_default();
    let format = match ext {
        "ttl" | "turtle" => RdfFormat::Turtle,
        "nt" | "ntriples" => RdfFormat::NTriples,
        "nq" | "nquads" => RdfFormat::NQuads,
        "trig" => RdfFormat::TriG,
        "rdf" | "xml" | "owl" => RdfFormat::RdfXml,
        "n3" => RdfFormat::N3,
        _ => {
            return Err(KgError::File {
                path: path.to_path_buf(),
                message: "unknown RDF extension; use .ttl, .nt, .nq, .trig, .rdf/.xml/.owl or .n3, optionally followed by .gz".into(),
            })
        }
    };
    Ok((format, gz))
}

fn open_reader(path: &Path, gz: bool) -> Result<Box<dyn Read + Send>> {
    let file = File::open(path).map_err(|e| KgError::File {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    let file = BufReader::with_capacity(1 << 20, file);
    Ok(if gz {
        Box::new(BufReader::with_capacity(
            1 << 20,
            flate2::read::MultiGzDecoder::new(file),
        ))
    } else {
        Box::new(file)
    })
}

/// Turns a parser error into a message naming `file:line:column` (1-based).
fn parse_error(path: &Path, e: RdfParseError) -> KgError {
    match e {
        RdfParseError::Syntax(s) => {
            let (line, column) = s
                .location()
                .map(|r| (r.start.line + 1, r.start.column + 1))
                .unwrap_or((0, 0));
            KgError::Syntax {
                path: path.to_path_buf(),
                line,
                column,
                message: s.to_string(),
            }
        }
        RdfParseError::Io(io) => KgError::File {
            path: path.to_path_buf(),
            message: io.to_string(),
        },
    }
}

/// Iterates over the quads of one file; with `lenient`, bad statements are skipped and counted
/// (the parsers resume at the next statement) instead of ending the iteration.
pub fn quads(
    path: &Path,
    lenient: bool,
    skipped: Arc<AtomicU64>,
    first_error: Arc<std::sync::Mutex<Option<String>>>,
) -> Result<impl Iterator<Item = Result<Quad>>> {
    let (format, gz) = detect_format(path)?;
    let reader = open_reader(path, gz)?;
    let base = std::path::absolute(path)
        .map(|p| format!("file://{}", p.display()))
        .unwrap_or_else(|_| "file:///".into());
    let parser = RdfParser::from_format(format)
        .with_base_iri(base)
        .map_err(|e| KgError::File {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
    let path = path.to_path_buf();
    let mut failed = false;
    // The parsers may report several errors while recovering from one bad statement; errors
    // on the line of the previous one are counted as the same skipped statement.
    let mut last_error_line = None;
    Ok(parser.for_reader(reader).filter_map(move |r| {
        if failed {
            return None;
        }
        match r {
            Ok(q) => Some(Ok(q)),
            Err(e) => {
                let e = parse_error(&path, e);
                let io = matches!(e, KgError::File { .. });
                if lenient && !io {
                    let line = match &e {
                        KgError::Syntax { line, .. } => Some(*line),
                        _ => None,
                    };
                    if line.is_none() || line != last_error_line {
                        skipped.fetch_add(1, Ordering::Relaxed);
                    }
                    last_error_line = line;
                    let mut first = first_error.lock().unwrap();
                    if first.is_none() {
                        *first = Some(e.to_string());
                    }
                    None
                } else {
                    failed = true;
                    Some(Err(e))
                }
            }
        }
    }))
}

#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Skip bad statements instead of failing.
    pub lenient: bool,
    /// Parse every file completely before writing anything, so a syntax error leaves the
    /// store exactly as it was (the bulk loader writes as it goes).
    pub validate_first: bool,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            lenient: false,
            validate_first: true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Checking,
    Loading,
}

#[derive(Debug, Clone, Copy)]
pub struct Progress {
    pub phase: Phase,
    /// Statements checked or loaded so far.
    pub done: u64,
    /// Total statements, when the checking pass has counted them.
    pub total: Option<u64>,
}

#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct LoadReport {
    pub files: usize,
    /// Statements read from the files (duplicates included).
    pub statements: u64,
    /// Bad statements skipped with `--lenient`.
    pub skipped: u64,
    pub first_skipped_error: Option<String>,
    /// Triples in the store after loading.
    pub store_triples: u64,
}

enum LoadError {
    Kg(KgError),
    Storage(StorageError),
}
impl From<KgError> for LoadError {
    fn from(e: KgError) -> Self {
        Self::Kg(e)
    }
}
impl From<StorageError> for LoadError {
    fn from(e: StorageError) -> Self {
        Self::Storage(e)
    }
}

/// Loads `paths` into `store`, reporting progress through `progress`.
pub fn load_files(
    store: &Store,
    paths: &[PathBuf],
    opts: &LoadOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<LoadReport> {
    let skipped = Arc::new(AtomicU64::new(0));
    let first_error = Arc::new(std::sync::Mutex::new(None));
    let mut total = None;
    if opts.validate_first {
        let mut n = 0u64;
        for path in paths {
            for q in quads(path, opts.lenient, skipped.clone(), first_error.clone())? {
                q?;
                n += 1;
                if n % 100_000 == 0 {
                    progress(Progress {
                        phase: Phase::Checking,
                        done: n,
                        total: None,
                    });
                }
            }
        }
        total = Some(n);
        // The loading pass sees the same bad statements again: count them once.
        skipped.store(0, Ordering::Relaxed);
    }

    let loaded = Arc::new(AtomicU64::new(0));
    let mut statements = 0u64;
    std::thread::scope(|scope| -> Result<()> {
        // The bulk loader's own progress callback must be 'static; poll a counter instead.
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        {
            let (loaded, done) = (loaded.clone(), done.clone());
            scope.spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    progress(Progress {
                        phase: Phase::Loading,
                        done: loaded.load(Ordering::Relaxed),
                        total,
                    });
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
            });
        }
        let counter = loaded.clone();
        let mut loader = store
            .bulk_loader()
            .on_progress(move |n| counter.store(n, Ordering::Relaxed));
        let mut result: std::result::Result<(), LoadError> = Ok(());
        for path in paths {
            let iter = match quads(path, opts.lenient, skipped.clone(), first_error.clone()) {
                Ok(i) => i,
                Err(e) => {
                    result = Err(e.into());
                    break;
                }
            };
            let counted = iter.inspect(|q| {
                if q.is_ok() {
                    statements += 1;
                }
            });
            result = loader.load_ok_quads::<KgError, LoadError>(counted);
            if result.is_err() {
                break;
            }
        }
        let result = result.and_then(|()| loader.commit().map_err(LoadError::from));
        done.store(true, Ordering::Relaxed);
        result.map_err(|e| match e {
            LoadError::Kg(k) => k,
            LoadError::Storage(s) => KgError::Query(format!("store write failed: {s}")),
        })
    })?;
    progress(Progress {
        phase: Phase::Loading,
        done: statements,
        total: Some(statements),
    });
    let store_triples = store.len().map_err(|e| KgError::Query(e.to_string()))? as u64;
    let first_skipped_error = first_error.lock().unwrap().clone();
    Ok(LoadReport {
        files: paths.len(),
        statements,
        skipped: skipped.load(Ordering::Relaxed),
        first_skipped_error,
        store_triples,
    })
}

/// Parses files without storing anything; the baseline of the load benchmark.
pub fn count_statements(paths: &[PathBuf]) -> Result<u64> {
    let mut n = 0;
    for path in paths {
        for q in quads(path, false, Arc::default(), Arc::default())? {
            q?;
            n += 1;
        }
    }
    Ok(n)
}

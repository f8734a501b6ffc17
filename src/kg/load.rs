//! Reading RDF files (Turtle, N-Triples, N-Quads, TriG, RDF/XML, each optionally gzipped)
//! and bulk-loading them into an oxigraph store.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use oxigraph::io::{RdfFormat, RdfParseError, RdfParser};
use oxigraph::model::{GraphName, Quad};
use oxigraph::store::{StorageError, Store};
use oxrdfxml::{RdfXmlParseError, RdfXmlParser};

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

/// oxttl's parsers (Turtle, TriG, N-Triples, N-Quads, N3) hold the statement being read in a
/// buffer of at most this many bytes (oxttl's `MAX_BUFFER_SIZE`); a longer token (a 50 MB
/// literal) ends the parse with an I/O error of kind `OutOfMemory` and no location.
const OXTTL_MAX_BUFFER: u64 = 4096 * 4096;

const TOO_LONG: &str = "a statement here is longer than the parser's limit";

/// Counts the bytes a parser has taken from its reader, to place errors that carry no location.
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The 1-based line and column (in characters, as the other formats count) of byte `offset`
/// of the file's text, found by reading it again; only on the error path.
fn position_at(path: &Path, gz: bool, offset: u64) -> Option<(u64, u64)> {
    let mut reader = open_reader(path, gz).ok()?;
    let (mut line, mut column, mut at) = (1u64, 1u64, 0u64);
    let mut buf = vec![0u8; 1 << 16];
    while at < offset {
        let n = reader.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        for &b in &buf[..n.min((offset - at) as usize)] {
            if b == b'\n' {
                line += 1;
                column = 1;
            } else if b & 0xc0 != 0x80 {
                // Not a UTF-8 continuation byte: a new character starts here.
                column += 1;
            }
        }
        at += n as u64;
    }
    Some((line, column))
}

/// A syntax error at byte `offset` of `path`.
fn syntax_at(path: &Path, gz: bool, offset: u64, message: String) -> KgError {
    match position_at(path, gz, offset) {
        Some((line, column)) => KgError::Syntax {
            path: path.to_path_buf(),
            line,
            column,
            message,
        },
        None => KgError::File {
            path: path.to_path_buf(),
            message,
        },
    }
}

/// Turns an error of the Turtle-family parsers into a message naming `file:line:column`
/// (1-based). `consumed` is how many bytes the parser had read when it failed.
fn parse_error(path: &Path, gz: bool, consumed: u64, e: RdfParseError) -> KgError {
    match e {
        RdfParseError::Syntax(s) => match s.location() {
            Some(r) => KgError::Syntax {
                path: path.to_path_buf(),
                line: r.start.line + 1,
                column: r.start.column + 1,
                message: s.to_string(),
            },
            None => KgError::File {
                path: path.to_path_buf(),
                message: s.to_string(),
            },
        },
        // The buffer was full: it held the statement being read from its start, and that
        // start is where the buffer's first byte came from.
        RdfParseError::Io(io) if io.kind() == std::io::ErrorKind::OutOfMemory => syntax_at(
            path,
            gz,
            consumed.saturating_sub(OXTTL_MAX_BUFFER),
            format!(
                "{TOO_LONG} of {} MiB (a huge literal?): {io}",
                OXTTL_MAX_BUFFER >> 20
            ),
        ),
        RdfParseError::Io(io) => KgError::File {
            path: path.to_path_buf(),
            message: io.to_string(),
        },
    }
}

type QuadIter = Box<dyn Iterator<Item = Result<Quad>> + Send>;

/// Every quad of one file, or the error that stopped the parser, with its position.
fn located_quads(path: &Path) -> Result<QuadIter> {
    let (format, gz) = detect_format(path)?;
    let read = Arc::new(AtomicU64::new(0));
    let reader = Counting {
        inner: open_reader(path, gz)?,
        read: read.clone(),
    };
    let base = std::path::absolute(path)
        .map(|p| format!("file://{}", p.display()))
        .unwrap_or_else(|_| "file:///".into());
    let bad_base = |message: String| KgError::File {
        path: path.to_path_buf(),
        message,
    };
    let owned = path.to_path_buf();
    if format == RdfFormat::RdfXml {
        // oxigraph's RDF/XML errors carry no location (oxrdfio returns `None` for them), but
        // oxrdfxml's own parser knows the byte offset it stopped at.
        // It also ends at the end of its input whatever is still open: the elements are
        // followed alongside, so a file cut short is an error at its end, not a quiet loss.
        let open = Arc::new(std::sync::Mutex::new(
            super::xml_depth::OpenElements::default(),
        ));
        let mut parser = RdfXmlParser::new()
            .with_base_iri(base)
            .map_err(|e| bad_base(e.to_string()))?
            .for_reader(super::xml_depth::Tracked {
                inner: reader,
                open: open.clone(),
            });
        let mut ended = false;
        return Ok(Box::new(std::iter::from_fn(move || {
            if ended {
                return None;
            }
            let Some(next) = parser.next() else {
                ended = true;
                let unfinished = open.lock().ok()?.unfinished()?;
                return Some(Err(syntax_at(
                    &owned,
                    gz,
                    read.load(Ordering::Relaxed),
                    unfinished,
                )));
            };
            Some(match next {
                Ok(t) => Ok(t.in_graph(GraphName::DefaultGraph)),
                Err(RdfXmlParseError::Syntax(e)) => Err(syntax_at(
                    &owned,
                    gz,
                    parser.buffer_position(),
                    e.to_string(),
                )),
                Err(RdfXmlParseError::Io(io)) => Err(KgError::File {
                    path: owned.clone(),
                    message: io.to_string(),
                }),
            })
        })));
    }
    let parser = RdfParser::from_format(format)
        .with_base_iri(base)
        .map_err(|e| bad_base(e.to_string()))?;
    Ok(Box::new(parser.for_reader(reader).map(move |r| {
        r.map_err(|e| parse_error(&owned, gz, read.load(Ordering::Relaxed), e))
    })))
}

/// Iterates over the quads of one file; with `lenient`, bad statements are skipped and counted
/// (the parsers resume at the next statement) instead of ending the iteration.
pub fn quads(
    path: &Path,
    lenient: bool,
    skipped: Arc<AtomicU64>,
    first_error: Arc<std::sync::Mutex<Option<String>>>,
) -> Result<impl Iterator<Item = Result<Quad>>> {
    let parsed = located_quads(path)?;
    let mut failed = false;
    // The parsers may report several errors while recovering from one bad statement; errors
    // on the line of the previous one are counted as the same skipped statement.
    let mut last_error_line = None;
    Ok(parsed.filter_map(move |r| {
        if failed {
            return None;
        }
        match r {
            Ok(q) => Some(Ok(q)),
            Err(e) => {
                // I/O errors, and a statement over the parser's limit, end the parse for good:
                // nothing after them could be read.
                let io = matches!(&e, KgError::File { .. })
                    || matches!(&e, KgError::Syntax { message, .. } if message.starts_with(TOO_LONG));
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

/// How files are loaded. A load is all or nothing without a separate checking pass: the
/// bulk loader writes sorted files beside the store and the store takes them in only at the
/// commit, after the last statement parsed; on an error they are deleted unread.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// Skip bad statements instead of failing.
    pub lenient: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Statements loaded so far.
    pub done: u64,
    /// Total statements, once known (at the end).
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
                        done: loaded.load(Ordering::Relaxed),
                        total: None,
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

/// Removes the `bulk-*.sst` files oxigraph's bulk loader writes into a store directory before
/// it ingests them at commit: a load killed before that leaves them there for ever (13–107 MB
/// each). Call only with the store open read-write, so that RocksDB's lock guarantees no other
/// loader is writing them. Returns how many files and bytes were removed.
pub fn remove_stale_bulk_files(store_dir: &Path) -> std::io::Result<(usize, u64)> {
    let (mut files, mut bytes) = (0, 0);
    for entry in std::fs::read_dir(store_dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("bulk-") && name.ends_with(".sst") && entry.file_type()?.is_file() {
            let len = entry.metadata().map(|m| m.len()).unwrap_or(0);
            std::fs::remove_file(entry.path())?;
            files += 1;
            bytes += len;
        }
    }
    Ok((files, bytes))
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

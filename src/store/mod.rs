//! The run directory: `manifest.json`, `results.jsonl` (one line per answered question) and
//! `labels.jsonl` (hand labels, append-only: judgements and retractions, replayed per annotator),
//! and `writer.lock`, held by the one process that appends to the run.

pub mod jsonl;
pub mod labels;
pub mod lock;
pub mod rundir;

pub use lock::WriterLock;
pub use rundir::RunDir;

/// Writes `bytes` to `path` whole or not at all ([`crate::durable::write_atomic`]), so a
/// crash, a Ctrl-C or a power loss never leaves a half-written output behind.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_atomically_with(path, |w| Ok(std::io::Write::write_all(w, bytes)?))
}

/// [`write_atomically`] for output written piece by piece: `write` fills a temporary file
/// beside `path`, which takes `path`'s place only once `write` succeeded; on an error it is
/// removed, `path` is left as it was, and `write`'s own error is returned.
pub fn write_atomically_with(
    path: &std::path::Path,
    write: impl FnOnce(&mut (dyn std::io::Write + Send)) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    use anyhow::Context;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut failed = None;
    let written = crate::durable::write_atomic(path, |w| {
        write(w).map_err(|e| {
            let io = std::io::Error::other(format!("{e:#}"));
            failed = Some(e);
            io
        })
    });
    match (written, failed) {
        (_, Some(e)) => Err(e),
        (Err(e), None) => Err(e).with_context(|| format!("writing {}", path.display())),
        (Ok(()), None) => Ok(()),
    }
}

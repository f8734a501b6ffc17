//! The run directory: `manifest.json`, `results.jsonl` (one line per answered question) and
//! `labels.jsonl` (hand labels, append-only: judgements and retractions, replayed per annotator),
//! and `writer.lock`, held by the one process that appends to the run.

pub mod jsonl;
pub mod labels;
pub mod lock;
pub mod rundir;

pub use lock::WriterLock;
pub use rundir::RunDir;

/// Writes `bytes` to `path` through a temporary file and a rename, so a crash or Ctrl-C never
/// leaves a half-written output behind.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    write_atomically_with(path, |w| Ok(w.write_all(bytes)?))
}

/// [`write_atomically`] for output written piece by piece: `write` fills a temporary file
/// beside `path`, which takes `path`'s place only once `write` succeeded; on an error it is
/// removed and `path` is left as it was.
pub fn write_atomically_with(
    path: &std::path::Path,
    write: impl FnOnce(&mut (dyn std::io::Write + Send)) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    use anyhow::Context;
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("out"),
        std::process::id()
    ));
    let written = (|| -> anyhow::Result<()> {
        // Created as any file is (the umask decides who may read it).
        let file =
            std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
        let mut out = std::io::BufWriter::new(file);
        write(&mut out)?;
        out.flush()
            .with_context(|| format!("writing {}", tmp.display()))?;
        Ok(())
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}

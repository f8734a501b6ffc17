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
    use anyhow::Context;
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
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}

//! One run on disk: `runs/<run-id>/{manifest.json, results.jsonl, labels.jsonl}`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::jsonl::{self, Appender, JsonlError};
use super::labels::LabelEntry;

pub const MANIFEST: &str = "manifest.json";
pub const RESULTS: &str = "results.jsonl";
pub const LABELS: &str = "labels.jsonl";

/// The version of the run format this build writes, and the newest it may write to. 1: gold
/// answers as strings, verdicts only (no `schema_version` field). 2: typed gold answers and
/// answers, verification stages, the judge's calls, context.
pub const SCHEMA_VERSION: u32 = 2;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Jsonl(#[from] JsonlError),
    #[error(transparent)]
    Lock(#[from] super::lock::LockError),
    #[error("{path}: {message}")]
    Other { path: PathBuf, message: String },
    #[error(
        "{path}: run {run} was written in run format {found} by kgscope {by}; this build writes \
         format {SCHEMA_VERSION} and reads newer ones for reports only. Resuming or labelling it \
         needs a kgscope that writes format {found} or later"
    )]
    NewerSchema {
        path: PathBuf,
        run: String,
        found: u32,
        by: String,
    },
    #[error("no run '{id}' in {dir} (runs there: {known})")]
    NoSuchRun {
        id: String,
        dir: PathBuf,
        known: String,
    },
}

#[derive(Debug, Clone)]
pub struct RunDir {
    pub id: String,
    pub path: PathBuf,
}

/// Current time as RFC 3339 (UTC).
pub fn now() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

impl RunDir {
    /// Hands `each` the first record of each question of the run, in file order, reading
    /// results.jsonl as a stream (none is kept); returns how many. A log is append-only and
    /// kgscope never writes a question twice, but a hand-edited file might: the first counts, as
    /// everywhere. A run of a million answers costs the memory of one.
    pub fn for_each_result(
        &self,
        mut each: impl FnMut(crate::record::ResultRecord),
    ) -> Result<usize, StoreError> {
        use std::hash::BuildHasher;
        // Hashes of the ids seen: 8 bytes a question instead of its id (a collision would need
        // 2^32 questions).
        let hasher = std::collections::hash_map::RandomState::new();
        let mut seen = std::collections::HashSet::new();
        let mut n = 0;
        super::jsonl::Follower::new(&self.results_path()).read_new(
            |_, r: crate::record::ResultRecord| {
                if seen.insert(hasher.hash_one(&r.question.id)) {
                    n += 1;
                    each(r);
                }
            },
        )?;
        Ok(n)
    }

    /// A new run directory with an id made of the time, the task and a short random suffix.
    pub fn create(runs_dir: &Path, task: &str) -> Result<Self, StoreError> {
        let t = time::OffsetDateTime::now_utc();
        let stamp = t
            .format(time::macros::format_description!(
                "[year][month][day]-[hour][minute][second]"
            ))
            .unwrap_or_default();
        let suffix: u16 = rand::random();
        let id = format!("{stamp}-{task}-{suffix:04x}");
        let path = runs_dir.join(&id);
        std::fs::create_dir_all(&path).map_err(|e| StoreError::Other {
            path: path.clone(),
            message: e.to_string(),
        })?;
        Ok(Self { id, path })
    }

    /// An existing run, by id or by path.
    pub fn open(runs_dir: &Path, id: &str) -> Result<Self, StoreError> {
        let direct = Path::new(id);
        let path = if direct.join(MANIFEST).is_file() {
            direct.to_path_buf()
        } else {
            runs_dir.join(id)
        };
        if path.is_dir() && !path.join(MANIFEST).exists() {
            return Err(StoreError::Other {
                path: path.join(MANIFEST),
                message: if path.join(RESULTS).exists() {
                    format!(
                        "no such file, though {RESULTS} is there: without its manifest the run \
                         cannot be read or resumed (restore manifest.json from a backup)"
                    )
                } else {
                    format!(
                        "no such file: {} is not a kgscope run, or one cut off before its \
                         manifest was written (nothing was asked in it)",
                        path.display()
                    )
                },
            });
        }
        if !path.join(MANIFEST).is_file() {
            // Only directories that are runs: a stray folder is no help to someone who typed
            // an id wrong.
            let mut known: Vec<String> = std::fs::read_dir(runs_dir)
                .map(|r| {
                    r.filter_map(|e| e.ok())
                        .filter(|e| e.path().join(MANIFEST).is_file())
                        .map(|e| crate::sanitize::line(&e.file_name().to_string_lossy()))
                        .collect()
                })
                .unwrap_or_default();
            known.sort();
            let known = if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            };
            return Err(StoreError::NoSuchRun {
                id: id.into(),
                dir: runs_dir.to_path_buf(),
                known,
            });
        }
        let id = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| id.to_string());
        Ok(Self { id, path })
    }

    pub fn results_path(&self) -> PathBuf {
        self.path.join(RESULTS)
    }
    pub fn labels_path(&self) -> PathBuf {
        self.path.join(LABELS)
    }

    pub fn write_manifest<T: Serialize>(&self, manifest: &T) -> Result<(), StoreError> {
        self.write_json(MANIFEST, manifest)
    }

    /// Reads the manifest, once. A run written in a newer format than this build's is read
    /// (with a warning) as far as this build understands it; when it cannot be read at all, the
    /// error says which format and kgscope wrote it.
    pub fn read_manifest<T: for<'de> Deserialize<'de>>(&self) -> Result<T, StoreError> {
        let path = self.path.join(MANIFEST);
        let other = |message: String| StoreError::Other {
            path: path.clone(),
            message,
        };
        let text = std::fs::read_to_string(&path).map_err(|e| {
            other(if e.kind() == std::io::ErrorKind::NotFound {
                "no such file".into()
            } else {
                e.to_string()
            })
        })?;
        let newer = self.newer_format(&text).map(|(found, by)| {
            format!(
                "run {} was written in run format {found} by kgscope {by}, newer than this \
                 build's {SCHEMA_VERSION}",
                crate::sanitize::line(&self.id)
            )
        });
        let manifest = serde_json::from_str(&text).map_err(|e| {
            other(match &newer {
                Some(n) => format!("{e} ({n})"),
                None => e.to_string(),
            })
        })?;
        if let Some(newer) = newer {
            tracing::warn!(
                "{newer}: reading it for reports only; what this build does not know is left out"
            );
        }
        Ok(manifest)
    }

    /// The run format and the kgscope version a manifest's text declares, when the format is
    /// newer than [`SCHEMA_VERSION`]; `None` otherwise, and for text that is not JSON (its
    /// own error says so). A manifest without a version is format 1.
    fn newer_format(&self, manifest: &str) -> Option<(u32, String)> {
        let v = serde_json::from_str::<serde_json::Value>(manifest).ok()?;
        let found = v
            .get("schema_version")
            .and_then(|n| n.as_u64())
            .unwrap_or(1);
        if found <= u64::from(SCHEMA_VERSION) {
            return None;
        }
        let by = v.get("tool_version").and_then(|t| t.as_str());
        Some((
            u32::try_from(found).unwrap_or(u32::MAX),
            crate::sanitize::line(by.unwrap_or("(unknown version)")),
        ))
    }

    /// Refuses to write to a run whose manifest declares a newer run format than this build
    /// writes: appending records or labels of the old format to it, or rewriting its manifest
    /// without the fields this build does not know, would damage it.
    pub fn check_writable(&self) -> Result<(), StoreError> {
        let path = self.path.join(MANIFEST);
        let Ok(text) = std::fs::read_to_string(&path) else {
            return Ok(());
        };
        match self.newer_format(&text) {
            None => Ok(()),
            Some((found, by)) => Err(StoreError::NewerSchema {
                path,
                run: crate::sanitize::line(&self.id),
                found,
                by,
            }),
        }
    }

    /// Writes `name` in the run directory whole or not at all, and durably (synced before and
    /// after its rename: [`crate::durable::write_atomic`]), so a reader, a crash or a power
    /// loss never leaves half a file, or an empty one, where a resume reads its state.
    pub fn write_json<T: Serialize>(&self, name: &str, value: &T) -> Result<(), StoreError> {
        let path = self.path.join(name);
        let err = |e: std::io::Error| StoreError::Other {
            path: path.clone(),
            message: e.to_string(),
        };
        let text = serde_json::to_vec_pretty(value).map_err(|e| err(e.into()))?;
        crate::durable::write_atomic(&path, |w| std::io::Write::write_all(w, &text)).map_err(err)
    }

    /// Reads `name` from the run directory; `None` when there is no such file.
    pub fn read_json<T: for<'de> Deserialize<'de>>(
        &self,
        name: &str,
    ) -> Result<Option<T>, StoreError> {
        let path = self.path.join(name);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(StoreError::Other {
                    path,
                    message: e.to_string(),
                })
            }
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| StoreError::Other {
                path,
                message: e.to_string(),
            })
    }

    pub fn read_results<T: for<'de> Deserialize<'de>>(&self) -> Result<Vec<T>, StoreError> {
        Ok(jsonl::read_all(&self.results_path())?)
    }

    /// Takes the run's writer lock: see [`super::lock`].
    pub fn lock_for_writing(&self) -> Result<super::lock::WriterLock, StoreError> {
        self.check_writable()?;
        Ok(super::lock::WriterLock::acquire(&self.path)?)
    }

    /// Who writes this run now, if another process does.
    pub fn writer(&self) -> Option<super::lock::Holder> {
        super::lock::holder(&self.path)
    }

    pub fn results_appender(&self) -> Result<Appender, StoreError> {
        Ok(Appender::open(&self.results_path())?)
    }

    /// Every line of labels.jsonl, in file order (replay them with `LabelBook`).
    pub fn read_labels(&self) -> Result<Vec<LabelEntry>, StoreError> {
        Ok(jsonl::read_all(&self.labels_path())?)
    }

    /// Appends one judgement or retraction and flushes it at once.
    pub fn append_label(&self, entry: impl Into<LabelEntry>) -> Result<(), StoreError> {
        self.check_writable()?;
        let mut a = Appender::open(&self.labels_path())?;
        a.push(&entry.into())?;
        a.sync()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with_manifest(manifest: serde_json::Value) -> (tempfile::TempDir, RunDir) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("r1");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join(MANIFEST), manifest.to_string()).unwrap();
        let run = RunDir::open(tmp.path(), "r1").unwrap();
        (tmp, run)
    }

    #[test]
    fn a_run_of_a_newer_format_is_read_but_never_written() {
        let (_tmp, run) = run_with_manifest(serde_json::json!({
            "schema_version": SCHEMA_VERSION + 1, "tool_version": "9.0.0", "x": 1
        }));
        let err = run.lock_for_writing().unwrap_err().to_string();
        assert!(err.contains("run format 3 by kgscope 9.0.0"), "{err}");
        let label = crate::store::labels::Retraction {
            question_id: "q".into(),
            retract: crate::store::labels::Retract::Clear,
            annotator: "a".into(),
            time: "t".into(),
        };
        assert!(matches!(
            run.append_label(label),
            Err(StoreError::NewerSchema { found: 3, .. })
        ));
        assert!(!run.labels_path().exists() && !run.path.join("writer.lock").exists());
        let read: serde_json::Value = run.read_manifest().unwrap();
        assert_eq!(read["x"], 1);
        // This build's own format, and a manifest without a version (format 1), are written.
        let (_tmp, run) = run_with_manifest(serde_json::json!({"schema_version": SCHEMA_VERSION}));
        assert!(run.lock_for_writing().is_ok());
        let (_tmp, run) = run_with_manifest(serde_json::json!({"run_id": "r1"}));
        assert!(run.check_writable().is_ok());
    }
}

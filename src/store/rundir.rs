//! One run on disk: `runs/<run-id>/{manifest.json, results.jsonl, labels.jsonl}`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::jsonl::{self, Appender, JsonlError};
use super::labels::LabelEntry;

pub const MANIFEST: &str = "manifest.json";
pub const RESULTS: &str = "results.jsonl";
pub const LABELS: &str = "labels.jsonl";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Jsonl(#[from] JsonlError),
    #[error(transparent)]
    Lock(#[from] super::lock::LockError),
    #[error("{path}: {message}")]
    Other { path: PathBuf, message: String },
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
        if !path.join(MANIFEST).is_file() {
            let mut known: Vec<String> = std::fs::read_dir(runs_dir)
                .map(|r| {
                    r.filter_map(|e| e.ok())
                        .map(|e| e.file_name().to_string_lossy().into_owned())
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

    pub fn read_manifest<T: for<'de> Deserialize<'de>>(&self) -> Result<T, StoreError> {
        self.read_json(MANIFEST)?.ok_or_else(|| StoreError::Other {
            path: self.path.join(MANIFEST),
            message: "no such file".into(),
        })
    }

    /// Writes `name` in the run directory whole or not at all (a temporary file renamed over
    /// it), so a reader or a crash never sees half a file.
    pub fn write_json<T: Serialize>(&self, name: &str, value: &T) -> Result<(), StoreError> {
        let path = self.path.join(name);
        let tmp = self.path.join(format!(".{name}.tmp"));
        let err = |e: std::io::Error| StoreError::Other {
            path: path.clone(),
            message: e.to_string(),
        };
        let text = serde_json::to_vec_pretty(value).map_err(|e| err(e.into()))?;
        std::fs::write(&tmp, text).map_err(err)?;
        std::fs::rename(&tmp, &path).map_err(err)
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
        let mut a = Appender::open(&self.labels_path())?;
        a.push(&entry.into())?;
        a.sync()?;
        Ok(())
    }
}

//! Append-only JSON Lines files that survive a crash: a reader ignores a torn last line, and
//! a writer cuts it off before appending, so a `kill -9` mid-write never corrupts a log.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

#[derive(Debug, thiserror::Error)]
pub enum JsonlError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {message}")]
    Corrupt {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> JsonlError + '_ {
    move |source| JsonlError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Reads every complete record. A last line without its newline (a write cut short) is
/// ignored; a bad line anywhere else is an error naming it.
pub fn read_all<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, JsonlError> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(vec![]),
        Err(e) => return Err(io(path)(e)),
    };
    let mut reader = BufReader::new(file);
    let mut out = Vec::new();
    let mut line = String::new();
    let mut n = 0;
    loop {
        line.clear();
        let read = reader.read_line(&mut line).map_err(io(path))?;
        if read == 0 {
            break;
        }
        n += 1;
        if !line.ends_with('\n') {
            break; // torn tail
        }
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str(&line).map_err(|e| JsonlError::Corrupt {
            path: path.to_path_buf(),
            line: n,
            message: e.to_string(),
        })?;
        out.push(record);
    }
    Ok(out)
}

/// An appender that flushes after every batch it is given.
pub struct Appender {
    path: PathBuf,
    out: BufWriter<File>,
}

impl Appender {
    /// Opens `path` for appending, first cutting off a torn last line.
    pub fn open(path: &Path) -> Result<Self, JsonlError> {
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .append(true)
            .open(path)
            .map_err(io(path))?;
        let len = file.metadata().map_err(io(path))?.len();
        if len > 0 {
            // Find the last newline by scanning back from the end in blocks.
            let mut end = len;
            let mut keep = 0;
            let mut buf = vec![0u8; 64 * 1024];
            'scan: while end > 0 {
                let start = end.saturating_sub(buf.len() as u64);
                let chunk = &mut buf[..(end - start) as usize];
                file.seek(SeekFrom::Start(start)).map_err(io(path))?;
                file.read_exact(chunk).map_err(io(path))?;
                if let Some(pos) = chunk.iter().rposition(|b| *b == b'\n') {
                    keep = start + pos as u64 + 1;
                    break 'scan;
                }
                end = start;
            }
            if keep < len {
                file.set_len(keep).map_err(io(path))?;
            }
        }
        Ok(Self {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
        })
    }

    pub fn push<T: Serialize>(&mut self, record: &T) -> Result<(), JsonlError> {
        let path = self.path.clone();
        serde_json::to_writer(&mut self.out, record).map_err(|e| JsonlError::Io {
            path: path.clone(),
            source: e.into(),
        })?;
        self.out.write_all(b"\n").map_err(io(&path))
    }

    /// Hands buffered lines to the OS, so they survive the process being killed.
    pub fn flush(&mut self) -> Result<(), JsonlError> {
        let path = self.path.clone();
        self.out.flush().map_err(io(&path))
    }

    /// Flushes and asks the OS to put the file on disk.
    pub fn sync(&mut self) -> Result<(), JsonlError> {
        self.flush()?;
        let path = self.path.clone();
        self.out.get_ref().sync_data().map_err(io(&path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torn_tail_is_ignored_then_cut() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.jsonl");
        std::fs::write(&p, "{\"a\":1}\n{\"a\":2}\n{\"a\":").unwrap();
        let v: Vec<serde_json::Value> = read_all(&p).unwrap();
        assert_eq!(v.len(), 2);
        let mut w = Appender::open(&p).unwrap();
        w.push(&serde_json::json!({"a": 3})).unwrap();
        w.flush().unwrap();
        assert_eq!(
            std::fs::read_to_string(&p).unwrap(),
            "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n"
        );
    }

    #[test]
    fn corrupt_middle_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.jsonl");
        std::fs::write(&p, "{\"a\":1}\nnot json\n{\"a\":2}\n").unwrap();
        let err = read_all::<serde_json::Value>(&p).unwrap_err().to_string();
        assert!(err.contains("r.jsonl:2:"), "{err}");
    }
}

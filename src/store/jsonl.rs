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
    let mut out = Vec::new();
    Follower::new(path).read_new(|_, r| out.push(r))?;
    Ok(out)
}

/// Reads a log as it grows: each call hands over the records completed since the last call,
/// with the byte offset each starts at, so a reader can keep offsets instead of records.
#[derive(Debug, Clone)]
pub struct Follower {
    path: PathBuf,
    /// Where the first line not yet read starts.
    pos: u64,
    /// Lines read so far, to name a bad one.
    lines: usize,
}

impl Follower {
    pub fn new(path: &Path) -> Self {
        Self {
            path: path.to_path_buf(),
            pos: 0,
            lines: 0,
        }
    }

    /// Where the first line not yet read starts: how far the file has been read.
    pub fn pos(&self) -> u64 {
        self.pos
    }

    /// Calls `each(offset, record)` for every complete line past the last one read, and
    /// returns how many there were. A line without its newline is still being written (or
    /// was cut short): it is left for a later call. A bad line is an error naming it, and
    /// stays unread.
    pub fn read_new<T: DeserializeOwned>(
        &mut self,
        mut each: impl FnMut(u64, T),
    ) -> Result<usize, JsonlError> {
        let path = self.path.clone();
        let mut file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(io(&path)(e)),
        };
        if file.metadata().map_err(io(&path))?.len() <= self.pos {
            return Ok(0);
        }
        file.seek(SeekFrom::Start(self.pos)).map_err(io(&path))?;
        let mut reader = BufReader::new(file);
        let mut line = Vec::new();
        let mut n = 0;
        loop {
            line.clear();
            let read = reader.read_until(b'\n', &mut line).map_err(io(&path))?;
            if read == 0 || line.last() != Some(&b'\n') {
                return Ok(n);
            }
            if !line.iter().all(u8::is_ascii_whitespace) {
                let record = serde_json::from_slice(&line).map_err(|e| JsonlError::Corrupt {
                    path: path.clone(),
                    line: self.lines + 1,
                    message: e.to_string(),
                })?;
                each(self.pos, record);
                n += 1;
            }
            self.lines += 1;
            self.pos += read as u64;
        }
    }
}

/// The record on the line starting at byte `offset` (an offset [`Follower`] handed over).
pub fn read_at<T: DeserializeOwned>(path: &Path, offset: u64) -> Result<T, JsonlError> {
    let mut file = File::open(path).map_err(io(path))?;
    file.seek(SeekFrom::Start(offset)).map_err(io(path))?;
    let mut line = Vec::new();
    BufReader::new(file)
        .read_until(b'\n', &mut line)
        .map_err(io(path))?;
    serde_json::from_slice(&line).map_err(|e| JsonlError::Corrupt {
        path: path.to_path_buf(),
        line: 0,
        message: format!("at byte {offset}: {e}"),
    })
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

    /// Appends one record as a line. A record that cannot be serialised (one refusing a value
    /// no reader could read back) is refused whole: nothing of it reaches the file.
    pub fn push<T: Serialize>(&mut self, record: &T) -> Result<(), JsonlError> {
        let path = self.path.clone();
        let mut line = serde_json::to_vec(record).map_err(|e| JsonlError::Io {
            path: path.clone(),
            source: e.into(),
        })?;
        line.push(b'\n');
        self.out.write_all(&line).map_err(io(&path))
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
    fn a_follower_reads_only_complete_new_lines_with_their_offsets() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.jsonl");
        std::fs::write(&p, "{\"a\":1}\n\n{\"a\":2}\n{\"a\":").unwrap();
        let mut f = Follower::new(&p);
        let mut got: Vec<(u64, serde_json::Value)> = vec![];
        assert_eq!(f.read_new(|o, v| got.push((o, v))).unwrap(), 2);
        assert_eq!(got[1].0, 9);
        // The torn line is completed by the writer: only it is read next time.
        let mut w = OpenOptions::new().append(true).open(&p).unwrap();
        w.write_all(b"3}\n").unwrap();
        assert_eq!(f.read_new(|o, v| got.push((o, v))).unwrap(), 1);
        assert_eq!(got[2], (17, serde_json::json!({"a": 3})));
        assert_eq!(f.read_new(|o, v| got.push((o, v))).unwrap(), 0);
        let again: serde_json::Value = read_at(&p, 9).unwrap();
        assert_eq!(again, serde_json::json!({"a": 2}));
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

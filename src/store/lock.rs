//! One writer per run: an exclusive `flock(2)` on `runs/<id>/writer.lock` while a process
//! appends to the run. The kernel drops the lock when the process exits, however it exits
//! (kill -9 included), so a crash never leaves a stale lock behind; the file's content only says
//! who holds it, for the message a second writer gets.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub const LOCK: &str = "writer.lock";

/// Who writes a run: recorded in the lock file by the process that holds the lock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Holder {
    pub pid: u32,
    #[serde(default)]
    pub host: String,
    /// The command line, e.g. `kgscope run --resume ID`.
    #[serde(default)]
    pub command: String,
    /// RFC 3339.
    #[serde(default)]
    pub since: String,
}

impl Holder {
    fn of_this_process() -> Holder {
        Holder {
            pid: std::process::id(),
            host: hostname(),
            command: masked_command_line(std::env::args()),
            // Whole seconds: this is for a person reading the refusal.
            since: time::OffsetDateTime::now_utc()
                .replace_nanosecond(0)
                .ok()
                .and_then(|t| {
                    t.format(&time::format_description::well_known::Rfc3339)
                        .ok()
                })
                .unwrap_or_default(),
        }
    }

    /// "pid 4242 on host-a (kgscope run --resume X), since 2026-11-23T16:02:11Z"
    pub fn describe(&self) -> String {
        if self.pid == 0 {
            // No record yet (see `read_holder`): the command field says so.
            return self.command.clone();
        }
        let mut s = format!("pid {}", self.pid);
        if !self.host.is_empty() {
            s.push_str(&format!(" on {}", crate::sanitize::line(&self.host)));
        }
        if !self.command.is_empty() {
            // Masked again: a lock file written by an older build holds the raw command line.
            let command = crate::credentials::redact_urls_in(&self.command);
            s.push_str(&format!(" ({})", crate::sanitize::line(&command)));
        }
        if !self.since.is_empty() {
            s.push_str(&format!(", since {}", crate::sanitize::line(&self.since)));
        }
        s
    }
}

/// The command line as the lock file records it: the program's file name, then every argument
/// with the credentials of any URL in it masked (`--base-url http://u:secret@h/v1`,
/// `--base-url=…?api_key=…`, a SPARQL endpoint). The raw command line is never written: the
/// lock file outlives a kill -9 and its content reaches the refusal message and the TUI.
fn masked_command_line(args: impl IntoIterator<Item = String>) -> String {
    let words: Vec<String> = args
        .into_iter()
        .enumerate()
        .map(|(i, a)| {
            if i == 0 {
                Path::new(&a)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or(a)
            } else {
                crate::credentials::redact_urls_in(&a)
            }
        })
        .collect();
    crate::sanitize::line(&words.join(" "))
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "run {run} is being written by another process: {holder}. One process writes a run at a \
         time (a second would ask the same questions again); wait for it to finish, or stop it \
         (Ctrl-C keeps every answer) and resume then"
    )]
    Held { run: String, holder: String },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The lock of one run, held until dropped (or until the process ends).
#[derive(Debug)]
pub struct WriterLock {
    file: File,
    path: PathBuf,
}

impl WriterLock {
    /// Takes the run's lock, or says who holds it.
    pub fn acquire(run_dir: &Path) -> Result<WriterLock, LockError> {
        let path = run_dir.join(LOCK);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        // Not truncated on open: the holder's record must survive a refused attempt.
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        if !lock_with_patience(&file).map_err(io)? {
            return Err(LockError::Held {
                run: run_name(run_dir),
                holder: read_holder(&mut file).describe(),
            });
        }
        let record = serde_json::to_string(&Holder::of_this_process()).unwrap_or_default();
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(record.as_bytes()).map_err(io)?;
        file.flush().map_err(io)?;
        Ok(WriterLock { file, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for WriterLock {
    fn drop(&mut self) {
        // Emptied so a reader racing the unlock does not name a process that has let go; the
        // file itself stays (removing it would let two processes lock two different inodes).
        let _ = self.file.set_len(0);
    }
}

/// Who holds the run's lock now, if anyone: a non-blocking probe that takes and at once drops
/// a shared lock. A process that holds the lock itself sees itself as the holder.
pub fn holder(run_dir: &Path) -> Option<Holder> {
    let path = run_dir.join(LOCK);
    let mut file = File::open(&path).ok()?;
    match try_flock(&file, libc::LOCK_SH) {
        Ok(true) => None, // the probe's lock goes with `file`
        Ok(false) => Some(read_holder(&mut file)),
        Err(_) => None,
    }
}

/// A few tries over a quarter of a second: a reader's probe ([`holder`]) holds a shared lock
/// for microseconds, and must not be mistaken for a writer.
fn lock_with_patience(file: &File) -> std::io::Result<bool> {
    for _ in 0..5 {
        if try_flock(file, libc::LOCK_EX)? {
            return Ok(true);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    Ok(false)
}

fn try_flock(file: &File, kind: libc::c_int) -> std::io::Result<bool> {
    loop {
        // SAFETY: flock(2) on a descriptor this `File` owns; no memory is shared.
        let r = unsafe { libc::flock(file.as_raw_fd(), kind | libc::LOCK_NB) };
        if r == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EWOULDBLOCK) => return Ok(false),
            Some(libc::EINTR) => continue,
            _ => return Err(e),
        }
    }
}

/// The holder's record; a holder that has locked but not yet written it (or a record that
/// cannot be read) is named as such rather than not at all.
fn read_holder(file: &mut File) -> Holder {
    let mut text = String::new();
    let read = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_string(&mut text));
    read.ok()
        .and_then(|_| serde_json::from_str(&text).ok())
        .unwrap_or_else(|| Holder {
            pid: 0,
            host: String::new(),
            command: "a process that has not said who it is yet".into(),
            since: String::new(),
        })
}

fn run_name(run_dir: &Path) -> String {
    run_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| run_dir.display().to_string())
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_and_names_the_holder_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let first = WriterLock::acquire(dir.path()).unwrap();
        // flock locks belong to open file descriptions, so a second open in the same process
        // conflicts exactly as another process would.
        let err = WriterLock::acquire(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains(&format!("pid {}", std::process::id())),
            "{err}"
        );
        let h = holder(dir.path()).expect("held");
        assert_eq!(h.pid, std::process::id());
        drop(first);
        assert_eq!(holder(dir.path()), None);
        let _again = WriterLock::acquire(dir.path()).unwrap();
    }

    #[test]
    fn the_recorded_command_line_masks_every_url_credential() {
        let args = [
            "/usr/local/bin/kgscope",
            "run",
            "--base-url",
            "http://user:sk-live-123@127.0.0.1:9/v1?api_key=sk-q-456",
            "--endpoint=https://h/sparql?token=tok-789",
            "--limit",
            "3",
        ]
        .map(String::from);
        let line = masked_command_line(args);
        for secret in ["sk-live-123", "user:", "sk-q-456", "tok-789"] {
            assert!(!line.contains(secret), "{secret} in {line}");
        }
        assert!(line.starts_with("kgscope run --base-url http://***@127.0.0.1:9/v1?api_key=***"));
        assert!(
            line.contains("--endpoint=https://h/sparql?token=***"),
            "{line}"
        );
        assert!(line.ends_with("--limit 3"), "{line}");
        // A lock file an older build wrote in clear is masked when shown.
        let old = Holder {
            pid: 7,
            host: "h".into(),
            command: "kgscope run --base-url http://u:pw@h/v1".into(),
            since: String::new(),
        };
        assert!(!old.describe().contains("pw"), "{}", old.describe());
    }

    #[test]
    fn no_lock_file_means_no_writer() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(holder(dir.path()), None);
    }
}

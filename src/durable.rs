//! Files kgscope writes and later reads back and trusts: written so that a crash or a power
//! loss leaves the old file or the new one, whole, and sealed so that a file changed since
//! (a flipped bit, a cut, bytes appended, a hand edit) is seen as damaged, never used.
//!
//! Two pieces, used together or apart:
//!
//! - [`write_atomic`]: a temporary file in the target's directory, written, flushed, synced to
//!   the disk, renamed over the target, then the directory synced. Renaming alone is atomic
//!   for readers, but not durable: without the syncs a power loss can leave the new name
//!   pointing at a file whose data never reached the disk (a 0-byte or partial file), or the
//!   old name with neither.
//! - A seal ([`seal`], [`unseal`]): a first line `TAG bytes=N sha256=HEX` before the content,
//!   where N is the content's length and HEX the sha256 of the line up to ` sha256=` (tag and
//!   length), a newline, and the content. A reader checks both before it parses anything and
//!   says what is wrong: cut short, grown, or changed. The header comes first so that a
//!   reader knows from the first bytes what it holds (a text file stays readable with `head`).
//!
//! This module sits at the bottom of the house: std and crates only.

use std::fmt;
use std::io::{self, Write};
use std::path::Path;

use sha2::{Digest, Sha256};

/// Writes `path` whole or not at all, and durably: `write` fills a temporary file beside it
/// (buffered), which is flushed, synced, renamed over `path`, and the directory synced so the
/// rename itself survives a power loss. On any error the temporary file is removed and `path`
/// is left as it was. The directory must exist. A `path` that is no regular file (a device, a
/// pipe) is written to directly.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut (dyn Write + Send)) -> io::Result<()>,
) -> io::Result<()> {
    // A device, a pipe or a socket (`--out /dev/null`, `/dev/stdout`, a FIFO) is written
    // through: renaming a file over it would replace the device itself (as root, /dev/null
    // became a regular file), and a stream has no old content to keep whole.
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
        let mut w = io::BufWriter::new(&mut file);
        write(&mut w)?;
        return w.flush();
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // In the same directory: a rename across file systems is a copy, neither atomic nor cheap.
    // Named after the target, so one left by a killed process says whose it was; removed
    // when dropped unpersisted (an error on the way).
    let name = path
        .file_name()
        .map_or("out".into(), |n| n.to_string_lossy());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    // Created as any file is (0666 less the umask), not tempfile's owner-only 0600: the file
    // replaces one that others may be meant to read (a run's manifest, a shared store's index).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
    {
        let mut w = io::BufWriter::new(tmp.as_file_mut());
        write(&mut w)?;
        w.flush()?;
    }
    // The data on the disk before the name points at it.
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    sync_dir(dir)
}

/// Syncs a directory, so that a rename into it is on the disk. Unix only: elsewhere a
/// directory cannot be opened as a file, and the rename is as durable as the system makes it.
fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// What is wrong with a sealed file: said after its path ("PATH: is cut short: ...").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage(String);

impl fmt::Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Damage {}

/// The longest first line a reader looks for: a seal is a short line, and a damaged file
/// without a newline is not scanned to its end for one.
const MAX_HEADER: usize = 4096;

/// The digest a seal carries: over the header up to ` sha256=` (tag and length), a newline,
/// and the content, so a change to any of them shows.
fn digest(head: &str, content: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(head.as_bytes());
    h.update(b"\n");
    h.update(content);
    hex::encode(h.finalize())
}

/// The seal's first line for `content` under `tag`, newline included: write it, then the
/// content. `tag` names the kind of file and its layout (`kgscope index 3`); it holds no
/// newline.
pub fn seal(tag: &str, content: &[u8]) -> String {
    debug_assert!(!tag.contains('\n'), "a tag is one line");
    let head = format!("{tag} bytes={}", content.len());
    let sha = digest(&head, content);
    format!("{head} sha256={sha}\n")
}

/// Writes `content` sealed under `tag` to `w`: [`seal`]'s line, then the content.
pub fn write_sealed(w: &mut dyn Write, tag: &str, content: &[u8]) -> io::Result<()> {
    w.write_all(seal(tag, content).as_bytes())?;
    w.write_all(content)
}

/// The tag and content of a sealed file's bytes, once its length and digest are checked;
/// else what is wrong with it. The tag is returned unjudged: the caller knows which it takes
/// (another tag, with a good seal, is another kind or format of file, not damage).
pub fn unseal(file: &[u8]) -> Result<(&str, &[u8]), Damage> {
    if file.is_empty() {
        return Err(Damage("is empty".into()));
    }
    let Some(nl) = file.iter().take(MAX_HEADER).position(|&b| b == b'\n') else {
        return Err(Damage(format!(
            "has no seal: no line of kgscope's `... bytes=N sha256=HEX` in its first {} bytes",
            file.len().min(MAX_HEADER)
        )));
    };
    let no_seal =
        || Damage("has no seal: its first line is not kgscope's `... bytes=N sha256=HEX`".into());
    let line = std::str::from_utf8(&file[..nl]).map_err(|_| no_seal())?;
    let content = &file[nl + 1..];
    let (head, sha) = line.rsplit_once(" sha256=").ok_or_else(no_seal)?;
    let (tag, len) = head.rsplit_once(" bytes=").ok_or_else(no_seal)?;
    // Only the digits kgscope writes: `+5` or `05` would parse, but were never written.
    let canonical = !len.is_empty()
        && len.bytes().all(|b| b.is_ascii_digit())
        && (len == "0" || !len.starts_with('0'));
    let len: usize = match len.parse() {
        Ok(n) if canonical => n,
        _ => return Err(no_seal()),
    };
    if content.len() < len {
        return Err(Damage(format!(
            "is cut short: its seal says {len} bytes follow its first line, {} do",
            content.len()
        )));
    }
    if content.len() > len {
        return Err(Damage(format!(
            "has {} bytes after its first line where its seal says {len}: something was \
             added to it",
            content.len()
        )));
    }
    // Compared as written (lowercase hex): a digit changed in the seal is damage too.
    if digest(head, content) != sha {
        return Err(Damage(
            "does not match its sha256: it was changed after kgscope wrote it".into(),
        ));
    }
    Ok((tag, content))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--out` naming a pipe or a device writes through it and leaves it what it was.
    #[cfg(unix)]
    #[test]
    fn a_pipe_is_written_through_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        write_atomic(&fifo, |w| w.write_all(b"through the pipe\n")).unwrap();
        assert_eq!(reader.join().unwrap(), "through the pipe\n");
        let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
        assert!(kind.is_fifo(), "the pipe was replaced by a file");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary left"
        );
    }

    #[test]
    fn a_sealed_file_round_trips_and_every_change_is_damage() {
        let content = b"some content\nwith lines\n";
        let mut file = Vec::new();
        write_sealed(&mut file, "kgscope test 1", content).unwrap();
        assert_eq!(unseal(&file), Ok(("kgscope test 1", &content[..])));
        assert!(file.starts_with(b"kgscope test 1 bytes=24 sha256="));

        let says = |f: &[u8]| unseal(f).unwrap_err().to_string();
        assert!(says(b"").contains("empty"));
        assert!(says(&file[..file.len() - 1]).contains("cut short"));
        let mut grown = file.clone();
        grown.push(b'x');
        assert!(says(&grown).contains("added"));
        // Every single-bit flip, anywhere, is refused.
        for i in 0..file.len() {
            for bit in 0..8 {
                let mut f = file.clone();
                f[i] ^= 1 << bit;
                assert!(unseal(&f).is_err(), "byte {i} bit {bit} accepted");
            }
        }
        assert!(says(b"no seal here\ncontent").contains("no seal"));
        assert!(says(b"t bytes=+0 sha256=x\n").contains("no seal"));
    }

    #[test]
    fn an_empty_content_is_sealed_too() {
        let mut file = Vec::new();
        write_sealed(&mut file, "t", b"").unwrap();
        assert_eq!(unseal(&file), Ok(("t", &b""[..])));
    }

    #[test]
    fn a_durable_write_replaces_whole_or_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        write_atomic(&path, |w| w.write_all(b"old")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        let failed = write_atomic(&path, |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read(&path).unwrap(), b"old", "left as it was");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left behind"
        );
        write_atomic(&path, |w| w.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }
}

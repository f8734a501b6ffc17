//! One writer per run, with real processes: a second `run --resume` is refused while the first
//! writes, the TUI follows such a run read-only, and a writer killed with SIGKILL leaves no
//! stale lock behind.

use crate::common;
use common::Tmux;

use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A loopback OpenAI-compatible server whose first `stalled` requests hang (as a busy server
/// does), and which answers every later one at once.
fn server_stalling_first(stalled: usize) -> String {
    common::scripted_server(move |n| {
        if n < stalled {
            std::thread::sleep(Duration::from_secs(90));
        }
        common::sse_completion(&["True."], 2)
    })
    .0
}

/// `kgscope run` on four statements, one request at a time, as a separate process.
fn start_writer(runs: &Path, base_url: &str) -> Child {
    common::bin()
        .args([
            "run",
            "--kg",
            "sample:countries",
            "--model",
            "openai:fake",
            "--base-url",
            base_url,
            "--limit",
            "4",
            "--concurrency",
            "1",
            // No retry while the test runs: a retry would take a request meant to stall later.
            "--idle-timeout",
            "600",
            "--runs-dir",
        ])
        .arg(runs)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("kgscope run starts")
}

/// Waits until a run under `runs` is locked by `pid`; returns the run's directory.
fn wait_locked_by(runs: &Path, pid: u32) -> PathBuf {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(run) = common::only_run(runs) {
            if kgscope::store::lock::holder(&run).is_some_and(|h| h.pid == pid) {
                return run;
            }
        }
        assert!(
            Instant::now() < deadline,
            "no run under {runs:?} was locked by pid {pid}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn resume(runs: &Path, run: &Path) -> std::process::Output {
    common::bin()
        .args(["run", "--resume"])
        .arg(run.file_name().unwrap())
        .arg("--runs-dir")
        .arg(runs)
        .output()
        .expect("kgscope runs")
}

fn result_lines(run: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(run.join("results.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn kill9(child: &mut Child) {
    child.kill().unwrap(); // SIGKILL on unix
    child.wait().unwrap();
}

#[test]
fn a_second_writer_is_refused_and_a_killed_writer_leaves_no_stale_lock() {
    let base_url = server_stalling_first(1);
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    let mut first = start_writer(runs, &base_url);
    let run = wait_locked_by(runs, first.id());

    let second = resume(runs, &run);
    let err = String::from_utf8_lossy(&second.stderr);
    assert!(
        !second.status.success(),
        "a second writer was let in: {err}"
    );
    assert!(err.contains("being written by another process"), "{err}");
    assert!(err.contains(&format!("pid {}", first.id())), "{err}");
    assert!(
        err.contains("kgscope run"),
        "the holder's command is named: {err}"
    );
    assert!(result_lines(&run).is_empty(), "the refused writer wrote");

    // The kernel drops a killed process's lock: the next writer is let in and finishes the
    // run, each question recorded once.
    kill9(&mut first);
    let third = resume(runs, &run);
    assert!(
        third.status.success(),
        "{}",
        String::from_utf8_lossy(&third.stderr)
    );
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.join("manifest.json")).unwrap()).unwrap();
    let lines = result_lines(&run);
    assert_eq!(lines.len() as u64, manifest["questions"].as_u64().unwrap());
    let ids: std::collections::HashSet<&str> = lines
        .iter()
        .map(|l| l["question"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), lines.len(), "a question was recorded twice");
    assert_eq!(kgscope::store::lock::holder(&run), None);
}

/// The TUI opened on a run another process writes shows it read-only and ignores R; once that
/// writer is killed it offers R, and while the TUI writes, a headless writer is refused.
#[test]
fn the_tui_follows_a_written_run_read_only_until_its_writer_is_gone() {
    // The headless writer's request and the TUI's first request both hang.
    let base_url = server_stalling_first(2);
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    let mut headless = start_writer(runs, &base_url);
    let run = wait_locked_by(runs, headless.id());
    let id = run.file_name().unwrap().to_string_lossy().into_owned();

    let command = format!(
        "{} tui --kg sample:countries --model openai:fake --base-url {base_url} --idle-timeout 600 --run {id} --runs-dir {} --log {}",
        env!("CARGO_BIN_EXE_kgscope"),
        runs.display(),
        tmp.path().join("tui.log").display(),
    );
    let t = Tmux::start(&command);
    t.wait_for("Explore", 30);
    t.keys(&["2"]);
    let s = t.wait_for("Read-only", 10);
    assert!(s.contains(&format!("pid {}", headless.id())), "{s}");
    t.keys(&["R"]);
    std::thread::sleep(Duration::from_millis(500));
    let s = t.screen();
    assert!(
        !s.contains("reopening"),
        "R continued a run another process writes:\n{s}"
    );
    assert!(s.contains("Read-only"), "{s}");

    kill9(&mut headless);
    t.wait_for("R continues it", 10);
    t.keys(&["R"]);
    // The TUI now writes the run (its request hangs): a headless writer is refused, naming it.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let h = kgscope::store::lock::holder(&run);
        if h.as_ref().is_some_and(|h| h.command.contains("tui")) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the TUI never took the run's lock: {h:?}\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let refused = resume(runs, &run);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{err}");
    assert!(
        err.contains("being written by another process") && err.contains("tui --kg"),
        "{err}"
    );
    assert!(result_lines(&run).is_empty());
}

/// A writer started with credentials in `--base-url` records its command line masked: the lock
/// file (also as a kill -9 leaves it), a second writer's refusal and the TUI's read-only banner
/// show `***` where the user, password and key were.
#[test]
fn credentials_on_the_writers_command_line_reach_no_lock_file_refusal_or_banner() {
    const SECRETS: [&str; 3] = ["lock-user", "pw-LOCK-SECRET", "KEY-LOCK-SECRET"];
    let base_url = server_stalling_first(2)
        .replace("http://", &format!("http://{}:{}@", SECRETS[0], SECRETS[1]));
    let full = format!("{base_url}?api_key={}", SECRETS[2]);
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path();
    let mut writer = start_writer(runs, &full);
    let run = wait_locked_by(runs, writer.id());
    let id = run.file_name().unwrap().to_string_lossy().into_owned();
    let no_secret = |what: &str, text: &str| {
        for s in SECRETS {
            assert!(!text.contains(s), "{s} in {what}: {text}");
        }
    };
    let lock = std::fs::read_to_string(run.join("writer.lock")).unwrap();
    no_secret("writer.lock", &lock);
    assert!(lock.contains("--base-url http://***@127.0.0.1"), "{lock}");

    let refused = common::bin()
        .args(["run", "--resume", &id, "--base-url", &full, "--runs-dir"])
        .arg(runs)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("being written by another process"), "{err}");
    no_secret("the refusal", &err);

    let t = Tmux::start(&format!(
        "{} tui --kg sample:countries --model openai:fake --run {id} --runs-dir {} --log {}",
        env!("CARGO_BIN_EXE_kgscope"),
        runs.display(),
        tmp.path().join("tui.log").display(),
    ));
    t.wait_for("Explore", 30);
    t.keys(&["2"]);
    let banner = t.wait_for("Read-only", 10);
    assert!(banner.contains(&format!("pid {}", writer.id())), "{banner}");
    no_secret("the TUI", &banner);
    drop(t);

    // kill -9 leaves the record on disk (only a clean exit empties it): masked all the same.
    kill9(&mut writer);
    let left = std::fs::read_to_string(run.join("writer.lock")).unwrap();
    assert!(left.contains(&format!("\"pid\":{}", writer.id())), "{left}");
    no_secret("writer.lock after kill -9", &left);
    for f in common::walk(runs) {
        no_secret(
            &f.display().to_string(),
            &String::from_utf8_lossy(&std::fs::read(&f).unwrap()),
        );
    }
}

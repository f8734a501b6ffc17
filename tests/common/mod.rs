//! Helpers shared by the integration tests: the real binary, the sample KGs, and real servers
//! started on 127.0.0.1 and stopped when the guard drops.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kgscope"))
}

/// Runs the binary and returns its output; panics with stderr if it could not start.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("kgscope runs")
}

pub fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "kgscope {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn sample_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("sample-kgs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ttl"))
        .collect();
    v.sort();
    assert!(
        v.len() >= 3,
        "expected at least three sample KGs, found {v:?}"
    );
    v
}

pub fn shared(rel: &str) -> PathBuf {
    let p = root().join("../shared").join(rel);
    assert!(
        p.exists(),
        "reference file {} is missing (shared/ must sit beside the repository)",
        p.display()
    );
    p
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Finds a tool installed by `.ci/run` / `tools/setup.sh`: an env var, PATH, then the venv.
pub fn tool(env_var: &str, name: &str) -> PathBuf {
    if let Ok(p) = std::env::var(env_var) {
        return PathBuf::from(p);
    }
    if let Ok(path) = std::env::var("PATH") {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    let venv_dir = std::env::var("KGSCOPE_VENV").unwrap_or_else(|_| {
        format!(
            "{}/.cache/kgscope/venv",
            std::env::var("HOME").unwrap_or_default()
        )
    });
    let venv = Path::new(&venv_dir).join("bin").join(name);
    assert!(
        venv.is_file(),
        "`{name}` not found (set {env_var}, put it on PATH, or run tools/setup.sh which installs it into $KGSCOPE_VENV)"
    );
    venv
}

/// A server process killed on drop with everything it started (a launcher's own server
/// included), so a failing test never leaves a server behind.
pub struct ServerGuard {
    pub child: kgscope::process::GroupChild,
    pub base: String,
}

pub fn wait_http(url: &str, timeout: Duration) {
    let start = Instant::now();
    let client = reqwest::blocking::Client::new();
    while start.elapsed() < timeout {
        if client
            .get(url)
            .send()
            .is_ok_and(|r| r.status().as_u16() < 500)
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{url} did not come up within {timeout:?}");
}

/// `oxigraph serve` (PyPI package `oxigraph`) on a free loopback port, in memory, with the
/// given Turtle file uploaded to its default graph.
pub fn oxigraph_server(turtle: &Path) -> ServerGuard {
    let port = free_port();
    let child = kgscope::process::GroupChild::spawn(
        Command::new(tool("KGSCOPE_OXIGRAPH", "oxigraph"))
            .args([
                "serve",
                "--bind",
                &format!("127.0.0.1:{port}"),
                "--union-default-graph",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    )
    .expect("oxigraph serve starts");
    let base = format!("http://127.0.0.1:{port}");
    let guard = ServerGuard {
        child,
        base: base.clone(),
    };
    wait_http(
        &format!("{base}/query?query=ASK%7B%7D"),
        Duration::from_secs(30),
    );
    let body = std::fs::read(turtle).unwrap();
    let r = reqwest::blocking::Client::new()
        .post(format!("{base}/store?default"))
        .header("Content-Type", "text/turtle")
        .body(body)
        .send()
        .unwrap();
    assert!(
        r.status().is_success(),
        "upload to oxigraph failed: {}",
        r.status()
    );
    guard
}

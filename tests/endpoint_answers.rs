//! What an endpoint sends back is bounded and checked, and never echoes a secret to the
//! terminal: an endless answer stops at the byte cap (in bounded memory), a long one at the
//! row cap; an error page that echoes the request shows no form of the URL's credentials; a
//! body that stalls part way names the timeout; an answer that lacks a selected variable or
//! binds one to a term of the wrong kind is an error naming the query and the endpoint. Each
//! against a real loopback server driven by the real binary (`kgscope questions`).

use crate::common;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The variables a query selects, in order: the `?x` of its first `SELECT … WHERE`.
fn selected(query: &[u8]) -> Vec<String> {
    let q = String::from_utf8_lossy(query);
    let start = q.find("SELECT").map_or(0, |i| i + 6);
    let end = q[start..].find("WHERE").map_or(q.len(), |i| start + i);
    let mut vars: Vec<String> = Vec::new();
    for token in q[start..end].split(|c: char| c.is_whitespace() || "()".contains(c)) {
        if let Some(v) = token.strip_prefix('?') {
            if !vars.iter().any(|x| x == v) {
                vars.push(v.to_string());
            }
        }
    }
    vars
}

/// The TSV header line of an answer to `query`.
fn header(query: &[u8]) -> String {
    let vars: Vec<String> = selected(query).iter().map(|v| format!("?{v}")).collect();
    format!("{}\n", vars.join("\t"))
}

/// One row for `query`'s variables, numbered `n`: IRIs, and a number for a count (`?n`).
fn row(query: &[u8], n: u64) -> String {
    let cells: Vec<String> = selected(query)
        .iter()
        .map(|v| match v.as_str() {
            "n" => n.to_string(),
            _ => format!("<http://example.org/{v}{n}>"),
        })
        .collect();
    format!("{}\n", cells.join("\t"))
}

/// An endpoint that answers every query with `tsv`.
fn answering(tsv: &'static str) -> common::HandlerServer {
    common::body_handler_server(move |_, stream, _, _| {
        let _ = stream.write_all(
            common::http("200 OK", "Content-Type: text/tab-separated-values\r\n", tsv).as_bytes(),
        );
    })
}

fn sparql(server: &common::HandlerServer) -> String {
    server.base.replace("/v1", "/sparql")
}

/// `kgscope questions` on the endpoint `kg`, no answer cache, with `extra` arguments.
fn questions(kg: &str, extra: &[&str]) -> Command {
    let mut c = common::bin();
    c.args(["questions", "--kg", kg, "--limit", "2", "--no-sparql-cache"])
        .args(extra)
        .env_remove("KGSCOPE_SPARQL_CACHE")
        .env_remove("KGSCOPE_SPARQL_MAX_BYTES")
        .env_remove("KGSCOPE_SPARQL_MAX_ROWS")
        .env_remove("KGSCOPE_SPARQL_TIMEOUT");
    c
}

fn text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `c` to its end; returns its exit code, its stderr, and its peak resident memory in
/// bytes (`ru_maxrss` of this very child, by `wait4`).
fn run_measured(c: &mut Command) -> (Option<i32>, String, u64) {
    let mut child = c
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value; `wait4` fills it for the child just spawned.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (code, stderr, usage.ru_maxrss as u64 * 1024)
}

/// An endpoint whose answer to the first query never ends (up to `most` bytes, so that a
/// kgscope that reads on cannot hang the test): kgscope stops reading at the byte cap, says
/// which query and which flag, and its memory stays bounded while the endpoint goes on.
#[test]
fn an_endless_answer_stops_at_the_byte_cap_in_bounded_memory() {
    let most: u64 = 192 << 20;
    let (sent_tx, sent_rx) = mpsc::channel::<u64>();
    let sent_tx = std::sync::Mutex::new(sent_tx);
    let server = common::body_handler_server(move |_, stream, _, body| {
        let mut block = String::new();
        let mut n = 0;
        while block.len() < 1 << 16 {
            block.push_str(&row(body, n));
            n += 1;
        }
        let head = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/tab-separated-values\r\nConnection: close\r\n\r\n{}",
            header(body)
        );
        let mut sent = 0u64;
        if stream.write_all(head.as_bytes()).is_ok() {
            while sent < most && stream.write_all(block.as_bytes()).is_ok() {
                sent += block.len() as u64;
            }
        }
        let _ = sent_tx.lock().unwrap().send(sent);
    });
    let (code, stderr, peak) =
        run_measured(questions(&sparql(&server), &[]).env("KGSCOPE_SPARQL_MAX_BYTES", "8M"));
    assert_eq!(code, Some(1), "{stderr}");
    for want in [
        "passed 8 MiB",
        "--sparql-max-bytes",
        "the query `SELECT ",
        server.base.trim_end_matches("/v1"),
    ] {
        assert!(stderr.contains(want), "{want:?} not in: {stderr}");
    }
    // Reading stopped at the cap: what the endpoint got out before its writes failed is
    // the cap and what the sockets' buffers hold, not the rest of the answer.
    let sent = sent_rx.recv_timeout(Duration::from_secs(30)).unwrap();
    assert!(sent < 64 << 20, "the endpoint sent {sent} bytes");
    // Generous: the cap, the rows parsed from it, and the program itself.
    assert!(peak < 400 << 20, "peak RSS {} MiB", peak >> 20);
}

#[test]
fn an_answer_over_the_row_cap_is_an_error_not_a_short_answer() {
    let server = common::body_handler_server(|_, stream, _, body| {
        let rows: String = (0..5000).map(|n| row(body, n)).collect();
        let _ = stream.write_all(
            common::http(
                "200 OK",
                "Content-Type: text/tab-separated-values\r\n",
                &(header(body) + &rows),
            )
            .as_bytes(),
        );
    });
    let out = questions(&sparql(&server), &["--sparql-max-rows", "1000"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("more than 1000 rows"), "{err}");
    assert!(err.contains("--sparql-max-rows"), "{err}");
    assert!(out.stdout.is_empty(), "no questions from a cut answer");
}

/// An endpoint that answers 500 with the request it got (URL, headers, body) echoed, as a
/// debugging error page does: no form of the URL's credentials reaches the terminal, the
/// log or a file, while the error itself is shown.
#[test]
fn an_error_page_that_echoes_the_request_shows_no_secret() {
    let server = common::body_handler_server(|_, stream, head, body| {
        let echo = format!("Bad request:\n{head}{}", String::from_utf8_lossy(body));
        let _ = stream.write_all(common::http("500 Internal Server Error", "", &echo).as_bytes());
    });
    let url = sparql(&server).replace("http://", "http://alice:S3CRETPW@") + "?api_key=S3CRETKEY";
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("questions.jsonl");
    // With an answer cache, the endpoint's version is asked first (its failure is a WARN line).
    let out = common::bin()
        .args(["questions", "--kg", &url, "--limit", "2"])
        .args(["--sparql-cache", dir.path().join("cache").to_str().unwrap()])
        .args(["--out", out_file.to_str().unwrap()])
        .env_remove("KGSCOPE_SPARQL_CACHE")
        .output()
        .unwrap();
    let all = text(&out);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("HTTP 500"), "the error is shown: {all}");
    assert!(all.contains("Bad request"), "the page is quoted: {all}");
    let heads = server.heads.lock().unwrap().join("");
    assert!(
        heads.contains("Basic YWxpY2U6UzNDUkVUUFc="),
        "sent: {heads}"
    );
    let mut texts = vec![all];
    if dir.path().exists() {
        for f in common::walk(dir.path()) {
            texts.push(String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned());
        }
    }
    for t in &texts {
        for secret in ["S3CRETPW", "S3CRETKEY", "YWxpY2U6UzNDUkVUUFc", "alice:"] {
            assert!(!t.contains(secret), "{secret} in: {t}");
        }
    }
}

/// Rows, then silence: the error names the query's time limit, not a decoding failure.
#[test]
fn a_body_that_stalls_part_way_names_the_timeout() {
    let server = common::body_handler_server(|_, stream, _, body| {
        let start = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/tab-separated-values\r\nConnection: close\r\n\r\n{}{}",
            header(body),
            row(body, 0)
        );
        let _ = stream.write_all(start.as_bytes());
        let _ = stream.flush();
        std::thread::sleep(Duration::from_secs(6));
    });
    let out = questions(&sparql(&server), &["--sparql-timeout", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("timed out after 1 s"), "{err}");
    assert!(err.contains("--sparql-timeout"), "{err}");
    assert!(!err.contains("error decoding response body"), "{err}");
}

/// Answers that are not answers to the query asked: a variable missing from the header, a
/// count that is not a number. Neither is read as "no facts".
#[test]
fn an_answer_lacking_a_variable_or_of_the_wrong_kind_is_named() {
    let server = answering("?x\n<http://example.org/a>\n");
    let out = questions(&sparql(&server), &[]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    // Whichever query comes first (on a sampled endpoint, the property entities' listing).
    assert!(
        err.contains("lacks ?") && err.contains(", which the query selects"),
        "{err}"
    );
    assert!(err.contains("the answer's variables: ?x"), "{err}");
    assert!(err.contains(&sparql(&server)), "{err}");
    assert!(!err.contains("no facts"), "{err}");

    // `--kg-sample` lists the relations with their counts first.
    let server = answering("?p\t?n\n<http://example.org/p>\t\"many\"\n");
    // Under the generic profile (no profile detection first), the relations are listed first.
    let out = questions(
        &sparql(&server),
        &["--kg-sample", "5", "--profile", "generic"],
    )
    .output()
    .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("while listing the KG's relations"), "{err}");
    assert!(
        err.contains("binds ?n to \"many\", but ?n can only be a whole number"),
        "{err}"
    );
    assert!(err.contains(&sparql(&server)), "{err}");
    assert!(!err.contains("no facts"), "{err}");
}

/// The model backend scrubs with the same [`kgscope::credentials::Scrubber`]: a model server
/// whose error page echoes the request (Basic auth of the URL's user:password, the Bearer
/// key, the URL's key) shows none of them either.
#[test]
fn a_model_servers_echo_shows_no_secret_either() {
    let server = common::handler_server(|_, stream, head| {
        let echo = format!("unauthorised request:\n{head}");
        let _ = stream.write_all(common::http("401 Unauthorized", "", &echo).as_bytes());
    });
    let base = server.base.replace("http://", "http://alice:S3CRETPW@") + "?api_key=S3CRETKEY";
    let runs = tempfile::tempdir().unwrap();
    let out = common::bin()
        .args(["run", "--runs-dir", runs.path().to_str().unwrap()])
        .args([
            "--kg",
            "sample:countries",
            "--limit",
            "2",
            "--concurrency",
            "1",
        ])
        .args(["--model", "openai:m", "--base-url", &base])
        .env("OPENAI_API_KEY", "sk-S3CRETBEARER")
        .env_remove("KGSCOPE_BASE_URL")
        .output()
        .unwrap();
    let all = text(&out);
    assert_ne!(out.status.code(), Some(0), "{all}");
    assert!(
        all.contains("unauthorised request"),
        "the page is quoted: {all}"
    );
    let heads = server.heads.lock().unwrap().join("");
    assert!(
        heads.contains("Basic YWxpY2U6UzNDUkVUUFc="),
        "sent: {heads}"
    );
    let mut texts = vec![all];
    for f in common::walk(runs.path()) {
        texts.push(String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned());
    }
    for t in &texts {
        for secret in [
            "S3CRETPW",
            "S3CRETKEY",
            "S3CRETBEARER",
            "YWxpY2U6UzNDUkVUUFc",
        ] {
            assert!(!t.contains(secret), "{secret} in: {t}");
        }
    }
}

//! SPARQL endpoints treated as someone else's server. A Wikidata-shaped endpoint (a real
//! `oxigraph serve` behind a loopback proxy that answers "429 Too Many Requests" with
//! Retry-After and "503 Service Unavailable", as a busy public endpoint does) is asked again
//! after the waits it names, and the run finishes with every question of a run against the
//! endpoint itself; a repeated run sends the endpoint no query again (the cache).

use crate::common;

use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the proxy did with each request: when, and the status it answered.
type Log = Arc<Mutex<Vec<(Instant, u16)>>>;

/// A proxy to `upstream` (an `oxigraph serve` query URL) that answers the 2nd request of
/// every 4 with 429 and `Retry-After: 1`, the 4th with 503 and no Retry-After, and passes
/// the others on.
fn busy_proxy(upstream: String) -> (String, Log) {
    let log: Log = Arc::default();
    let seen = log.clone();
    let server = common::body_handler_server(move |n, stream, _, body| {
        // When the request came, not when its answer went: a forwarded query takes a while.
        let arrived = Instant::now();
        let (status, answer) = match n % 4 {
            1 => (
                429,
                common::http("429 Too Many Requests", "Retry-After: 1\r\n", "slow down"),
            ),
            3 => (503, common::http("503 Service Unavailable", "", "")),
            _ => forward(&upstream, body),
        };
        // Logged before the answer goes: once kgscope has its answer, the log holds it (a
        // test that reads the log right after the run never races the proxy).
        seen.lock().unwrap().push((arrived, status));
        let _ = stream.write_all(answer.as_bytes());
    });
    (server.base.replace("/v1", "/sparql"), log)
}

/// Asks `upstream` the query; returns its status and the HTTP answer to pass back.
fn forward(upstream: &str, body: &[u8]) -> (u16, String) {
    let r = reqwest::blocking::Client::new()
        .post(upstream)
        .header("Content-Type", "application/sparql-query")
        .header("Accept", "text/tab-separated-values")
        .body(body.to_vec())
        .send()
        .unwrap();
    let status = r.status().as_u16();
    let text = r.text().unwrap();
    let answer = common::http(
        &format!("{status} OK"),
        "Content-Type: text/tab-separated-values\r\n",
        &text,
    );
    (status, answer)
}

/// A proxy to `upstream` that passes every query on, logging each.
fn counting_proxy(upstream: String) -> (String, Log) {
    let log: Log = Arc::default();
    let seen = log.clone();
    let server = common::body_handler_server(move |_, stream, _, body| {
        let (status, answer) = forward(&upstream, body);
        // Logged before the answer goes (see `busy_proxy`).
        seen.lock().unwrap().push((Instant::now(), status));
        let _ = stream.write_all(answer.as_bytes());
    });
    (server.base.replace("/v1", "/sparql"), log)
}

/// `kgscope run` of 6 yes/no questions on `kg`, answered by a scripted model server.
fn run(kg: &str, runs: &Path, model: &str, cache: Option<&Path>) -> std::process::Output {
    let mut c: Command = common::bin();
    c.args(["run", "--runs-dir", runs.to_str().unwrap(), "--kg", kg])
        .args(["--task", "yesno", "--limit", "6", "--seed", "7", "--json"])
        .args([
            "--model",
            "openai:m",
            "--base-url",
            model,
            "--concurrency",
            "1",
            // One query at a time: the busy test reads each wait from one request to the next.
            "--sparql-concurrency",
            "1",
        ])
        .env_remove("OPENAI_API_KEY")
        .env_remove("KGSCOPE_SPARQL_RATE")
        .env_remove("KGSCOPE_SPARQL_CACHE");
    match cache {
        Some(dir) => c.args(["--sparql-cache", dir.to_str().unwrap()]),
        None => c.arg("--no-sparql-cache"),
    };
    c.output().unwrap()
}

fn question_ids(runs: &Path) -> Vec<String> {
    let id = common::only_run_id(runs);
    let text = std::fs::read_to_string(runs.join(id).join("results.jsonl")).unwrap();
    let mut ids: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["question"]["id"].to_string()
        })
        .collect();
    ids.sort();
    ids
}

#[test]
fn a_busy_endpoint_is_asked_again_after_its_waits_and_nothing_is_lost() {
    let sparql = common::oxigraph_server(&common::root().join("sample-kgs/countries.ttl"));
    let direct = format!("{}/query", sparql.base);
    let (model, _) = common::scripted_server(|_| common::sse_completion(&["Yes"], 1));

    let plain = tempfile::tempdir().unwrap();
    let out = run(&direct, plain.path(), &model, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = question_ids(plain.path());
    assert_eq!(expected.len(), 6);

    let (proxy, log) = busy_proxy(direct.clone());
    let runs = tempfile::tempdir().unwrap();
    let out = run(&proxy, runs.path(), &model, None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        question_ids(runs.path()),
        expected,
        "the same questions, none lost"
    );
    let mut log = log.lock().unwrap().clone();
    log.sort_by_key(|(t, _)| *t);
    let busy = log.iter().filter(|(_, s)| *s != 200).count();
    assert!(busy >= 2, "{log:?}");
    // After a 429 with Retry-After: 1 the next request waited at least the second asked for;
    // after a 503 without one, at least the first back-off (1 s).
    for w in log.windows(2) {
        if w[0].1 != 200 {
            let gap = w[1].0 - w[0].0;
            assert!(
                gap >= Duration::from_millis(950),
                "{gap:?} after {}",
                w[0].1
            );
        }
    }
}

#[test]
fn a_repeated_run_sends_the_endpoint_no_query_again() {
    let sparql = common::oxigraph_server(&common::root().join("sample-kgs/countries.ttl"));
    let direct = format!("{}/query", sparql.base);
    // Counted through a proxy that never says busy.
    let (proxy, log) = counting_proxy(direct);
    let (model, _) = common::scripted_server(|_| common::sse_completion(&["No"], 1));
    let cache = tempfile::tempdir().unwrap();
    let first = tempfile::tempdir().unwrap();
    let out = run(&proxy, first.path(), &model, Some(cache.path()));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sent_first = log.lock().unwrap().len();
    let again = tempfile::tempdir().unwrap();
    let out = run(&proxy, again.path(), &model, Some(cache.path()));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sent_again = log.lock().unwrap().len() - sent_first;
    // The second run asks only the two version probes (the KG might have changed).
    assert_eq!(sent_again, 2, "first run sent {sent_first}");
    assert!(sent_first > 2);
    assert_eq!(question_ids(first.path()), question_ids(again.path()));
}

/// `kgscope questions` on `kg`, drawing `--kg-sample 8` facts per relation (and `extra`).
fn sampled_questions(kg: &str, task: &str, cache: &Path, extra: &[&str]) -> String {
    let out = common::bin()
        .args([
            "questions",
            "--kg",
            kg,
            "--task",
            task,
            "--limit",
            "100",
            "--seed",
            "3",
        ])
        .args([
            "--kg-sample",
            "8",
            "--sparql-cache",
            cache.to_str().unwrap(),
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A KG drawn from with bounded queries gives the same questions from a local store and from
/// an endpoint serving the same triples, for the same seed; the endpoint is asked a bounded
/// number of queries, and a second run sends none but the version probe.
#[test]
fn a_store_and_its_endpoint_give_the_same_questions_from_a_sample() {
    let ttl = common::root().join("sample-kgs/countries.ttl");
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let load = common::run(&[
        "kg",
        "load",
        ttl.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
    ]);
    assert!(
        load.status.success(),
        "{}",
        String::from_utf8_lossy(&load.stderr)
    );
    let sparql = common::oxigraph_server(&ttl);
    let (endpoint, log) = counting_proxy(format!("{}/query", sparql.base));
    let cache = tempfile::tempdir().unwrap();
    // KGLens walks from a central entity and KG-FPQ edits within 5 hops: the draw reaches
    // out hop by hop, a query for the facts and one for what points in, per hop.
    let peru = "https://kgscope.dev/kg/countries/entity/Peru";
    let tasks: [(&str, &[&str], usize); 5] = [
        ("statement", &[], 20),
        ("yesno", &[], 20),
        ("mcq-wh", &[], 20),
        ("kglens", &["--entity", peru], 20),
        ("kg-fpq", &[], 32),
    ];
    for (task, extra, most) in tasks {
        let before = log.lock().unwrap().len();
        let local = sampled_questions(store.to_str().unwrap(), task, cache.path(), extra);
        let remote = sampled_questions(&endpoint, task, cache.path(), extra);
        assert!(!local.is_empty());
        assert_eq!(
            local, remote,
            "{task}: the store and the endpoint drew differently"
        );
        let sent = log.lock().unwrap().len() - before;
        let questions = local.lines().count();
        eprintln!("{task}: {sent} requests for {questions} questions");
        // The version probe, the relation list, the draws (16 relations a query), then a
        // query per 500 entities for their facts, and for their labels, aliases and types.
        assert!(sent <= most, "{task}: {sent} requests");
    }
    // Asked again: only the version probe goes to the endpoint.
    let before = log.lock().unwrap().len();
    sampled_questions(&endpoint, "statement", cache.path(), &[]);
    assert_eq!(log.lock().unwrap().len() - before, 2);
}

/// Finding entities by name on an endpoint: oxigraph has no free-text index, so its labels and
/// aliases are scanned for the text as a prefix, any case, in one bounded query.
#[test]
fn an_endpoint_is_searched_by_name_in_one_query() {
    let ttl = common::root().join("sample-kgs/countries.ttl");
    let sparql = common::oxigraph_server(&ttl);
    let (endpoint, log) = counting_proxy(format!("{}/query", sparql.base));
    let kg = kgscope::kg::endpoint::SparqlEndpoint::with_limits(
        &endpoint,
        std::time::Duration::from_secs(10),
        kgscope::kg::endpoint::polite::Politeness::for_url(&endpoint),
        None,
    )
    .unwrap();
    use kgscope::kg::KnowledgeGraph;
    assert_eq!(
        kg.search_dialect(),
        kgscope::kg::search::Dialect::LabelPrefix
    );
    let before = log.lock().unwrap().len();
    let found = kgscope::kg::search::search(&kg, "PER", 5).unwrap();
    assert_eq!(log.lock().unwrap().len() - before, 1);
    assert!(
        found.contains(&"https://kgscope.dev/kg/countries/entity/Peru".to_string()),
        "{found:?}"
    );
    assert!(found.len() <= 5);
    assert!(kgscope::kg::search::search(&kg, "  ", 5)
        .unwrap()
        .is_empty());
}

//! A remote SPARQL 1.1 endpoint (QLever, Virtuoso, oxigraph serve, Wikidata, …) over HTTP.
//!
//! Credentials in the URL (userinfo, sent as basic auth, or a key-like query parameter) are
//! used for the requests and masked everywhere the URL is shown or stored. Every request
//! waits its turn under the endpoint's limits and is asked again while the endpoint says it
//! is busy ([`polite`]); every answer is kept on disk and never asked twice ([`cache`]).

pub mod cache;
pub mod polite;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use crate::credentials;

use oxigraph::sparql::results::{
    QueryResultsFormat, QueryResultsParser, ReaderQueryResultsParserOutput,
};

use self::cache::QueryCache;
use self::polite::{Gate, Politeness};
use super::{KgError, KnowledgeGraph, Result, Row};

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

pub struct SparqlEndpoint {
    /// The URL requests go to, credentials included.
    url: String,
    /// The URL with its credentials masked: for messages, `source()` and manifests.
    shown: String,
    client: reqwest::blocking::Client,
    gate: Gate,
    /// Where answers are cached, if anywhere.
    cache_root: Option<PathBuf>,
    /// The cache, once the KG's version is known (at the first query).
    cache: OnceLock<Option<QueryCache>>,
    /// Requests sent so far (answers from the cache are not requests).
    sent: AtomicU64,
    /// The `Server` header of its first answer (which engine it is: how to search it).
    server: OnceLock<Option<String>>,
}

impl SparqlEndpoint {
    /// The endpoint at `url`, with the limits and the cache this process set
    /// ([`polite::set_overrides`]).
    pub fn new(url: &str) -> Result<Self> {
        let limits = Politeness::for_url(url);
        let cache = polite::overrides().cache_dir.clone().flatten();
        Self::with_limits(url, CONNECT_TIMEOUT, limits, cache)
    }

    /// `query` bounds one whole query, from sending it to the last byte of the results.
    pub fn with_timeouts(url: &str, connect: Duration, query: Duration) -> Result<Self> {
        let mut limits = Politeness::for_url(url);
        limits.timeout = query;
        Self::with_limits(url, connect, limits, None)
    }

    pub fn with_limits(
        url: &str,
        connect: Duration,
        limits: Politeness,
        cache_root: Option<PathBuf>,
    ) -> Result<Self> {
        let shown = credentials::redact(url);
        let client = reqwest::blocking::Client::builder()
            .connect_timeout(connect)
            .timeout(limits.timeout)
            .user_agent(limits.user_agent.clone())
            .build()
            .map_err(|e| KgError::Endpoint {
                url: shown.clone(),
                message: credentials::redact_urls_in(&e.to_string()),
            })?;
        Ok(Self {
            url: url.to_string(),
            shown,
            client,
            gate: Gate::new(limits),
            cache_root,
            cache: OnceLock::new(),
            sent: AtomicU64::new(0),
            server: OnceLock::new(),
        })
    }

    /// Requests sent so far.
    pub fn requests(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    fn err(&self, message: impl Into<String>) -> KgError {
        KgError::Endpoint {
            url: self.shown.clone(),
            message: credentials::redact_urls_in(&message.into()),
        }
    }

    /// Says what went wrong sending a query: a timeout is not a server that is down.
    fn send_error(&self, e: &reqwest::Error) -> KgError {
        let detail = e.to_string();
        self.err(if e.is_timeout() && e.is_connect() {
            format!(
                "connecting timed out after {} s ({detail}); is the host reachable?",
                CONNECT_TIMEOUT.as_secs()
            )
        } else if e.is_timeout() {
            format!(
                "the query timed out ({detail}); the endpoint did not answer within the time \
                 limit: it may be overloaded, or the query too heavy for it"
            )
        } else if e.is_connect() {
            format!("{detail} (is the server running and the URL right?)")
        } else {
            detail
        })
    }

    /// The cache, opened at the first query: the KG's version names its folder.
    fn cache(&self) -> Option<&QueryCache> {
        self.cache
            .get_or_init(|| {
                let root = self.cache_root.as_ref()?;
                let version = match &polite::overrides().snapshot {
                    Some(name) => format!("snapshot {name}"),
                    None => self.version()?,
                };
                Some(QueryCache::new(root, &self.shown, &version))
            })
            .as_ref()
    }

    /// The KG's version as the endpoint shows it: its triple count and its first triples. An
    /// endpoint that cannot count (its limits cut the query) is not cached: answers of a KG
    /// whose changes cannot be seen would go stale unnoticed (`--kg-snapshot` names one).
    fn version(&self) -> Option<String> {
        let count = self.send("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", &["n"]);
        let first = self.send(
            "SELECT ?s ?p ?o WHERE { ?s ?p ?o } LIMIT 64",
            &["s", "p", "o"],
        );
        match (count, first) {
            (Ok(n), Ok(rows)) => {
                let text: Vec<String> = n
                    .iter()
                    .chain(&rows)
                    .flatten()
                    .map(|t| t.as_ref().map_or("-".into(), |t| t.to_string()))
                    .collect();
                Some(text.join(" "))
            }
            (Err(e), _) | (_, Err(e)) => {
                tracing::warn!("not caching {}: its version is unknown ({e})", self.shown);
                None
            }
        }
    }

    /// Sends `query`, waiting its turn, and again while the endpoint says it is busy.
    fn send(&self, query: &str, vars: &[&str]) -> Result<Vec<Row>> {
        let limits = self.gate.limits();
        let mut waited = Duration::ZERO;
        for n in 1..=limits.tries.max(1) {
            let permit = self.gate.enter();
            self.sent.fetch_add(1, Ordering::Relaxed);
            // TSV keeps full term syntax (datatypes, languages) and parses faster than JSON.
            let response = self
                .client
                .post(&self.url)
                .header("Content-Type", "application/sparql-query")
                .header("Accept", "text/tab-separated-values")
                .body(query.to_string())
                .send()
                .map_err(|e| self.send_error(&e))?;
            let status = response.status();
            if polite::is_busy(status.as_u16()) {
                let asked = response
                    .headers()
                    .get(reqwest::header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| polite::retry_after(v, SystemTime::now()));
                drop(permit);
                let wait = asked.unwrap_or_else(|| polite::backoff(n));
                if n == limits.tries {
                    return Err(self.err(format!(
                        "the endpoint was still busy (HTTP {status}) after {n} tries over {} s; \
                         try again later, or send fewer requests (--sparql-rate, \
                         --sparql-concurrency)",
                        waited.as_secs()
                    )));
                }
                if wait > limits.max_wait {
                    return Err(self.err(format!(
                        "the endpoint is busy (HTTP {status}) and asks to wait {} s \
                         (Retry-After), longer than kgscope waits ({} s); try again later",
                        wait.as_secs(),
                        limits.max_wait.as_secs()
                    )));
                }
                tracing::info!(
                    "{}: HTTP {status}, asking again in {:.1} s (try {}/{})",
                    self.shown,
                    wait.as_secs_f64(),
                    n + 1,
                    limits.tries
                );
                self.gate.hold_off(wait);
                waited += wait;
                continue;
            }
            if !status.is_success() {
                let body = response.text().unwrap_or_default();
                return Err(self.err(status_message(status, &body)));
            }
            let header = |name: &str| {
                response
                    .headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_string)
            };
            let _ = self.server.set(header("Server"));
            // Virtuoso returns what it found so far when its "anytime" limit strikes, and
            // says so only in a header; it also cuts results at its row limit, saying that
            // limit. Either way the answer is not the whole answer.
            if let Some(state) = header("X-SQL-State") {
                return Err(self.err(format!(
                    "the endpoint's own time limit cut the query and sent partial results \
                     (X-SQL-State: {state}); {NARROW}"
                )));
            }
            let max_rows = header("X-SPARQL-MaxRows").and_then(|v| v.trim().parse::<usize>().ok());
            let rows = self.read_rows(response, vars)?;
            drop(permit);
            if let Some(max) = max_rows.filter(|&m| rows.len() >= m) {
                return Err(self.err(format!(
                    "the endpoint cut the results at its limit of {max} rows \
                     (X-SPARQL-MaxRows); {NARROW}"
                )));
            }
            return Ok(rows);
        }
        unreachable!("the last try returns")
    }

    fn read_rows(&self, response: reqwest::blocking::Response, vars: &[&str]) -> Result<Vec<Row>> {
        let parsed = QueryResultsParser::from_format(QueryResultsFormat::Tsv)
            .for_reader(response)
            .map_err(|e| self.err(format!("unreadable results: {e}")))?;
        let ReaderQueryResultsParserOutput::Solutions(solutions) = parsed else {
            return Err(self.err("expected SELECT results, got a boolean"));
        };
        let mut rows = Vec::new();
        for solution in solutions {
            let solution = solution.map_err(|e| {
                let timed_out = std::error::Error::source(&e)
                    .and_then(|s| s.downcast_ref::<std::io::Error>())
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut)
                    || e.to_string().contains("timed out");
                if timed_out {
                    self.err(format!(
                        "the query timed out while its results were read ({e})"
                    ))
                } else {
                    self.err(format!("unreadable results: {e}"))
                }
            })?;
            rows.push(vars.iter().map(|v| solution.get(*v).cloned()).collect());
        }
        Ok(rows)
    }
}

/// What to do about a query an endpoint's limits cut.
const NARROW: &str = "narrow the run (fewer relations with --relation, a smaller --limit) or \
                      use an endpoint without such limits (your own QLever or oxigraph serve)";

/// An error status in words; a time limit of the endpoint's own is named as one.
fn status_message(status: reqwest::StatusCode, body: &str) -> String {
    let excerpt: String = crate::sanitize::escape(&body.chars().take(300).collect::<String>());
    let lower = body.to_lowercase();
    let timed_out = [
        "timeoutexception",
        "timed out",
        "timeout",
        "time limit",
        "estimated execution time",
    ]
    .iter()
    .any(|w| lower.contains(w));
    if timed_out {
        format!("the endpoint's own time limit cut the query (HTTP {status}: {excerpt}); {NARROW}")
    } else {
        format!("HTTP {status}: {excerpt}")
    }
}

impl KnowledgeGraph for SparqlEndpoint {
    fn source(&self) -> String {
        self.shown.clone()
    }

    fn requests(&self) -> Option<u64> {
        Some(SparqlEndpoint::requests(self))
    }

    /// By its URL (Wikidata) or the engine its answers name; one trivial query asks when no
    /// answer has come from the endpoint itself yet (all from the cache).
    fn search_dialect(&self) -> super::search::Dialect {
        if self.server.get().is_none() {
            let _ = self.send("SELECT (1 AS ?x) WHERE { }", &["x"]);
        }
        super::search::Dialect::for_endpoint(
            &self.url,
            self.server.get().cloned().flatten().as_deref(),
        )
    }

    fn select(&self, query: &str, vars: &[&str]) -> Result<Vec<Row>> {
        if let Some(rows) = self.cache().and_then(|c| c.get(query, vars)) {
            return Ok(rows);
        }
        let rows = self.send(query, vars)?;
        if let Some(c) = self.cache() {
            c.put(query, vars, &rows);
        }
        Ok(rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    /// A server that accepts the connection, reads the query and then says nothing.
    fn stalling_server() -> (String, std::thread::JoinHandle<()>) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!(
            "http://user:pw-stall@{}/sparql",
            listener.local_addr().unwrap()
        );
        let h = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            std::thread::sleep(Duration::from_secs(3));
            let _ = s.write_all(b"");
        });
        (url, h)
    }

    #[test]
    fn a_stalled_endpoint_times_out_and_says_so() {
        let (url, h) = stalling_server();
        let ep = SparqlEndpoint::with_timeouts(&url, CONNECT_TIMEOUT, Duration::from_millis(500))
            .unwrap();
        assert_eq!(
            ep.source(),
            format!("http://***@{}", &url[url.find('@').unwrap() + 1..])
        );
        let err = ep
            .select("SELECT * WHERE { ?s ?p ?o }", &["s"])
            .unwrap_err()
            .to_string();
        assert!(err.contains("timed out"), "{err}");
        assert!(!err.contains("is the server running"), "{err}");
        assert!(!err.contains("pw-stall"), "{err}");
        h.join().unwrap();
    }

    /// A server that answers the requests it gets, in order, with `replies` (whole raw HTTP
    /// responses); returns its URL and when each request arrived.
    fn scripted(
        replies: Vec<String>,
    ) -> (
        String,
        std::sync::Arc<std::sync::Mutex<Vec<std::time::Instant>>>,
    ) {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/sparql", listener.local_addr().unwrap());
        let times = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = times.clone();
        std::thread::spawn(move || {
            for reply in replies {
                let Ok((mut s, _)) = listener.accept() else {
                    return;
                };
                seen.lock().unwrap().push(std::time::Instant::now());
                let mut buf = [0u8; 8192];
                let _ = s.read(&mut buf);
                let _ = s.write_all(reply.as_bytes());
            }
        });
        (url, times)
    }

    fn reply(status: &str, headers: &str, body: &str) -> String {
        format!(
            "HTTP/1.1 {status}\r\nContent-Type: text/tab-separated-values\r\n{headers}\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
    }

    const ROWS: &str = "?s\n<http://ex.org/a>\n<http://ex.org/b>\n";

    /// 503 without Retry-After, then 429 with one: asked again after 1 s, then after the
    /// 1 s the endpoint asked for, and the answer is whole.
    #[test]
    fn a_busy_endpoint_is_asked_again_after_the_wait_it_names() {
        let (url, times) = scripted(vec![
            reply("503 Service Unavailable", "", "busy"),
            reply("429 Too Many Requests", "Retry-After: 1\r\n", "slow down"),
            reply("200 OK", "", ROWS),
        ]);
        let ep = SparqlEndpoint::new(&url).unwrap();
        let rows = ep.select("SELECT ?s WHERE { ?s ?p ?o }", &["s"]).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(ep.requests(), 3);
        let t = times.lock().unwrap();
        assert!(
            t[1] - t[0] >= Duration::from_millis(990),
            "{:?}",
            t[1] - t[0]
        );
        assert!(
            t[2] - t[1] >= Duration::from_millis(990),
            "{:?}",
            t[2] - t[1]
        );
    }

    #[test]
    fn a_wait_longer_than_kgscope_waits_is_refused_at_once() {
        let (url, _) = scripted(vec![reply(
            "429 Too Many Requests",
            "Retry-After: 86400\r\n",
            "",
        )]);
        let ep = SparqlEndpoint::new(&url).unwrap();
        let t = std::time::Instant::now();
        let err = ep
            .select("SELECT ?s WHERE { ?s ?p ?o }", &["s"])
            .unwrap_err()
            .to_string();
        assert!(t.elapsed() < Duration::from_secs(5));
        assert!(err.contains("asks to wait 86400 s"), "{err}");
        assert!(err.contains("try again later"), "{err}");
    }

    /// Results cut by the endpoint's row limit, or its time limit, are an error that says
    /// so, never a silently short answer.
    #[test]
    fn answers_the_endpoints_limits_cut_are_named() {
        let (url, _) = scripted(vec![
            reply("200 OK", "X-SPARQL-MaxRows: 2\r\n", ROWS),
            reply("200 OK", "X-SQL-State: S1TAT\r\n", ROWS),
            reply(
                "500 Internal Server Error",
                "",
                "java.util.concurrent.TimeoutException",
            ),
        ]);
        let ep = SparqlEndpoint::new(&url).unwrap();
        let q = "SELECT ?s WHERE { ?s ?p ?o }";
        let e = ep.select(q, &["s"]).unwrap_err().to_string();
        assert!(e.contains("limit of 2 rows"), "{e}");
        let e = ep.select(q, &["s"]).unwrap_err().to_string();
        assert!(e.contains("partial results"), "{e}");
        let e = ep.select(q, &["s"]).unwrap_err().to_string();
        assert!(e.contains("own time limit cut the query"), "{e}");
        assert!(e.contains("--relation"), "{e}");
    }

    /// With a cache, a query answered once is never sent again, by this endpoint object or
    /// a later one (a resumed run); another KG version asks again.
    #[test]
    fn cached_answers_are_not_asked_twice() {
        let version = |n: usize| {
            [
                reply("200 OK", "", &format!("?n\n{n}\n")),
                reply("200 OK", "", "?s\t?p\t?o\n"),
            ]
        };
        let mut replies = Vec::new();
        replies.extend(version(2));
        replies.push(reply("200 OK", "", ROWS));
        replies.extend(version(2));
        replies.extend(version(3));
        replies.push(reply("200 OK", "", "?s\n<http://ex.org/c>\n"));
        let (url, times) = scripted(replies);
        let dir = tempfile::tempdir().unwrap();
        let open = || {
            SparqlEndpoint::with_limits(
                &url,
                CONNECT_TIMEOUT,
                Politeness::for_url(&url),
                Some(dir.path().to_path_buf()),
            )
            .unwrap()
        };
        let q = "SELECT ?s WHERE { ?s ?p ?o }";
        let first = open();
        assert_eq!(first.select(q, &["s"]).unwrap().len(), 2);
        assert_eq!(first.select(q, &["s"]).unwrap().len(), 2);
        assert_eq!(
            first.requests(),
            3,
            "the version probe, then the query once"
        );
        let again = open();
        assert_eq!(again.select(q, &["s"]).unwrap().len(), 2);
        assert_eq!(again.requests(), 2, "only the version probe");
        let changed = open();
        assert_eq!(changed.select(q, &["s"]).unwrap().len(), 1);
        assert_eq!(times.lock().unwrap().len(), 8);
    }

    #[test]
    fn a_closed_port_says_to_check_the_server() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let ep = SparqlEndpoint::new(&format!("http://127.0.0.1:{port}/sparql")).unwrap();
        let err = ep
            .select("SELECT * WHERE { ?s ?p ?o }", &["s"])
            .unwrap_err()
            .to_string();
        assert!(err.contains("is the server running"), "{err}");
    }
}

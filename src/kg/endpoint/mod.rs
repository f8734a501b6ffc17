//! A remote SPARQL 1.1 endpoint (QLever, Virtuoso, oxigraph serve, Wikidata, …) over HTTP.
//!
//! Credentials in the URL (userinfo, sent as basic auth, or a key-like query parameter) are
//! used for the requests and masked everywhere the URL is shown or stored. Every request
//! waits its turn under the endpoint's limits and is asked again while the endpoint says it
//! is busy ([`polite`]); every answer is kept on disk and never asked twice ([`cache`]).
//!
//! An answer is read as a stream and counted as it arrives: one over the byte or row cap
//! (`--sparql-max-bytes`, `--sparql-max-rows`) stops the reading at once and is an error, as is
//! an answer that lacks a variable the query selects or binds one to a term its slot cannot
//! hold ([`slots`]); a cut or malformed answer is never read as a short one. Every text that
//! came from the server (an error page, an error chain) passes through the one
//! [`credentials::Scrubber`] the model backend uses too, so no form of the URL's credentials
//! is ever shown or logged.

pub mod cache;
pub mod polite;
pub mod slots;

use std::cell::Cell;
use std::io::Read;
use std::path::PathBuf;
use std::rc::Rc;
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
    /// Masks the URL's credentials in whatever the server sends back.
    scrubber: credentials::Scrubber,
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
        let scrubber = credentials::Scrubber::new(url, None);
        let client = reqwest::blocking::Client::builder()
            .connect_timeout(connect)
            .timeout(limits.timeout)
            .user_agent(limits.user_agent.clone())
            .build()
            .map_err(|e| KgError::Endpoint {
                url: shown.clone(),
                message: scrubber.scrub(&e.to_string()),
            })?;
        Ok(Self {
            url: url.to_string(),
            shown,
            scrubber,
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
            message: self.scrubber.scrub(&message.into()),
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
                "the query timed out ({detail}); the endpoint did not answer within {} s \
                 (--sparql-timeout): it may be overloaded, or the query too heavy for it",
                self.gate.limits().timeout.as_secs()
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
                // An error page is read only so far: enough to say what it says, never the
                // whole of an endless one.
                let mut body = Vec::new();
                let _ = response.take(ERROR_PAGE_BYTES).read_to_end(&mut body);
                // Scrubbed whole, before it is cut to an excerpt that could end inside a secret.
                let body = self.scrubber.scrub(&String::from_utf8_lossy(&body));
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
            let rows = self.read_rows(response, query, vars)?;
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

    /// The rows of an answer, read as they arrive under the caps, each checked against the
    /// variables the query selects and the kinds of term their slots hold.
    fn read_rows(
        &self,
        response: reqwest::blocking::Response,
        query: &str,
        vars: &[&str],
    ) -> Result<Vec<Row>> {
        let limits = self.gate.limits();
        let what = purpose(query);
        let stop = Rc::new(Cell::new(Stop::No));
        let body = Capped {
            inner: response,
            read: 0,
            cap: limits.max_bytes,
            stop: stop.clone(),
        };
        // Says why the reading failed: a cap, the time limit, or the answer itself.
        let failed = |e: &dyn std::fmt::Display| {
            self.err(match stop.get() {
                Stop::Cap => format!(
                    "the answer to {what} passed {}, the most kgscope reads of one answer; \
                     reading stopped there. {}",
                    size(limits.max_bytes),
                    raise("--sparql-max-bytes")
                ),
                Stop::TimedOut => format!(
                    "the endpoint stopped sending the answer to {what} part way, and the query \
                     timed out after {} s (--sparql-timeout); it may be overloaded, or the query \
                     too heavy for it",
                    limits.timeout.as_secs()
                ),
                Stop::No => format!("unreadable answer to {what}: {e}"),
            })
        };
        let parsed = QueryResultsParser::from_format(QueryResultsFormat::Tsv)
            .for_reader(body)
            .map_err(|e| failed(&e))?;
        let ReaderQueryResultsParserOutput::Solutions(solutions) = parsed else {
            return Err(self.err(format!(
                "expected the rows of {what}, got a boolean (an ASK answer)"
            )));
        };
        let given: Vec<&str> = solutions.variables().iter().map(|v| v.as_str()).collect();
        if let Some(missing) = vars.iter().find(|v| !given.contains(v)) {
            return Err(self.err(format!(
                "the answer to {what} lacks ?{missing}, which the query selects (the answer's \
                 variables: {}); it is not an answer to this query: is the URL a SPARQL 1.1 \
                 endpoint?",
                if given.is_empty() {
                    "none".to_string()
                } else {
                    given
                        .iter()
                        .map(|v| format!("?{v}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                }
            )));
        }
        let kinds = slots::of_query(query);
        let checks: Vec<(usize, &str, &[slots::Kind])> = vars
            .iter()
            .enumerate()
            .filter_map(|(i, v)| kinds.get(*v).map(|k| (i, *v, k.as_slice())))
            .collect();
        let mut rows = Vec::new();
        for solution in solutions {
            let solution = solution.map_err(|e| failed(&e))?;
            if rows.len() == limits.max_rows {
                return Err(self.err(format!(
                    "the answer to {what} has more than {} rows, the most kgscope reads of one \
                     answer; reading stopped there. {}",
                    limits.max_rows,
                    raise("--sparql-max-rows")
                )));
            }
            let row: Row = vars.iter().map(|v| solution.get(*v).cloned()).collect();
            for &(i, var, kinds) in &checks {
                let Some(term) = &row[i] else { continue };
                if let Some(k) = kinds.iter().find(|k| !k.admits(term)) {
                    let shown: String = term.to_string().chars().take(120).collect();
                    return Err(self.err(format!(
                        "the answer to {what} binds ?{var} to {}, but ?{var} can only be {} in \
                         this query; it is not an answer to this query: is the URL a SPARQL 1.1 \
                         endpoint?",
                        crate::sanitize::escape(&shown),
                        k.needs()
                    )));
                }
            }
            rows.push(row);
        }
        Ok(rows)
    }
}

/// How much of an error page is read.
const ERROR_PAGE_BYTES: u64 = 64 << 10;

/// A query for messages: its own text, cut short (the endpoint is named beside it).
fn purpose(query: &str) -> String {
    let flat = query.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut cut: String = flat.chars().take(100).collect();
    if cut.len() < flat.len() {
        cut.push('…');
    }
    format!("the query `{}`", crate::sanitize::escape(&cut))
}

/// What to do about an answer over a cap.
fn raise(flag: &str) -> String {
    format!(
        "Raise {flag} if the endpoint is right to send this much, or ask for less (a sample: \
         --kg-sample N, fewer relations: --relation)"
    )
}

/// Bytes in words: `256 MiB`, `1000 bytes`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Why reading an answer stopped, seen by the reader itself: the parser's error only says
/// that its input failed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stop {
    No,
    Cap,
    TimedOut,
}

/// An answer's body, counted as it is read: a read that would pass `cap` fails at once.
struct Capped<R> {
    inner: R,
    read: u64,
    cap: u64,
    stop: Rc<Cell<Stop>>,
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // One byte past the cap is enough to know the answer is over it.
        let room = (self.cap + 1).saturating_sub(self.read);
        let want = buf.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want]).inspect_err(|e| {
            if is_timeout(e) {
                self.stop.set(Stop::TimedOut);
            }
        })?;
        self.read += n as u64;
        if self.read > self.cap {
            self.stop.set(Stop::Cap);
            return Err(std::io::Error::other("the answer is over the cap"));
        }
        Ok(n)
    }
}

/// Whether a read failed on the time limit: reqwest's blocking body says "error decoding
/// response body" with the timeout as its cause.
fn is_timeout(e: &std::io::Error) -> bool {
    // An `io::Error`'s `source()` skips the error it wraps: start from that one.
    let mut cur: Option<&(dyn std::error::Error + 'static)> = e
        .get_ref()
        .map(|inner| inner as &(dyn std::error::Error + 'static));
    let mut timed_out = e.kind() == std::io::ErrorKind::TimedOut;
    while let Some(c) = cur {
        timed_out |= c
            .downcast_ref::<reqwest::Error>()
            .is_some_and(|r| r.is_timeout())
            || c.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut);
        cur = c.source();
    }
    timed_out
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

//! A remote SPARQL 1.1 endpoint (QLever, Virtuoso, oxigraph serve, Wikidata, …) over HTTP.
//!
//! Credentials in the URL (userinfo, sent as basic auth, or a key-like query parameter) are
//! used for the requests and masked everywhere the URL is shown or stored.

use std::time::Duration;

use crate::credentials;

use oxigraph::sparql::results::{
    QueryResultsFormat, QueryResultsParser, ReaderQueryResultsParserOutput,
};

use super::{KgError, KnowledgeGraph, Result, Row};

const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const QUERY_TIMEOUT: Duration = Duration::from_secs(600);

pub struct SparqlEndpoint {
    /// The URL requests go to, credentials included.
    url: String,
    /// The URL with its credentials masked: for messages, `source()` and manifests.
    shown: String,
    client: reqwest::blocking::Client,
}

impl SparqlEndpoint {
    pub fn new(url: &str) -> Result<Self> {
        Self::with_timeouts(url, CONNECT_TIMEOUT, QUERY_TIMEOUT)
    }

    /// `query` bounds one whole query, from sending it to the last byte of the results.
    pub fn with_timeouts(url: &str, connect: Duration, query: Duration) -> Result<Self> {
        let shown = credentials::redact(url);
        let client = reqwest::blocking::Client::builder()
            .connect_timeout(connect)
            .timeout(query)
            .user_agent(concat!("kgscope/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| KgError::Endpoint {
                url: shown.clone(),
                message: credentials::redact_urls_in(&e.to_string()),
            })?;
        Ok(Self {
            url: url.to_string(),
            shown,
            client,
        })
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
}

impl KnowledgeGraph for SparqlEndpoint {
    fn source(&self) -> String {
        self.shown.clone()
    }

    fn select(&self, query: &str, vars: &[&str]) -> Result<Vec<Row>> {
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
        if !status.is_success() {
            let body = response.text().unwrap_or_default();
            let excerpt: String =
                crate::sanitize::escape(&body.chars().take(300).collect::<String>());
            return Err(self.err(format!("HTTP {status}: {excerpt}")));
        }
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

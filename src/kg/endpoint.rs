//! A remote SPARQL 1.1 endpoint (QLever, Virtuoso, oxigraph serve, Wikidata, …) over HTTP.

use std::time::Duration;

use oxigraph::sparql::results::{
    QueryResultsFormat, QueryResultsParser, ReaderQueryResultsParserOutput,
};

use super::{KgError, KnowledgeGraph, Result, Row};

pub struct SparqlEndpoint {
    url: String,
    client: reqwest::blocking::Client,
}

impl SparqlEndpoint {
    pub fn new(url: &str) -> Result<Self> {
        let client = reqwest::blocking::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(600))
            .user_agent(concat!("kgscope/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| KgError::Endpoint {
                url: url.into(),
                message: e.to_string(),
            })?;
        Ok(Self {
            url: url.to_string(),
            client,
        })
    }

    fn err(&self, message: impl Into<String>) -> KgError {
        KgError::Endpoint {
            url: self.url.clone(),
            message: message.into(),
        }
    }
}

impl KnowledgeGraph for SparqlEndpoint {
    fn source(&self) -> String {
        self.url.clone()
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
            .map_err(|e| self.err(format!("{e} (is the server running and the URL right?)")))?;
        let status = response.status();
        if !status.is_success() {
            let body = response.text().unwrap_or_default();
            let excerpt: String = body.chars().take(300).collect();
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
            let solution = solution.map_err(|e| self.err(format!("unreadable results: {e}")))?;
            rows.push(vars.iter().map(|v| solution.get(*v).cloned()).collect());
        }
        Ok(rows)
    }
}

//! Finding entities by name in a KG that is not indexed whole (an endpoint or store read as a
//! sample): the KG's own full-text search where it has one, else a scan of its labels and
//! aliases for those that start with the text. Either way one bounded query.
//!
//! - Wikidata's query service: the `wikibase:mwapi` service calling the wiki's `EntitySearch`,
//!   the search box of wikidata.org (labels and aliases, ranked).
//! - Virtuoso (DBpedia): `bif:contains` over the label literals, its free-text index.
//! - Any other engine: `STRSTARTS` over the labels and aliases, case-insensitive, which every
//!   SPARQL 1.1 engine answers (a pass over the labels; a second or two for ten million
//!   triples on oxigraph).

use super::info::sparql_string;
use super::vocab::{self, iri_list};
use super::{term_str, KnowledgeGraph, Result};

/// How a KG is searched by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    WikidataMwapi,
    Virtuoso,
    LabelPrefix,
}

impl Dialect {
    /// The search an endpoint offers, from its URL and the `Server` header of its answers.
    pub fn for_endpoint(url: &str, server: Option<&str>) -> Dialect {
        let host = url
            .split("://")
            .nth(1)
            .and_then(|rest| rest.split(['/', ':', '?']).next())
            .unwrap_or("")
            .to_ascii_lowercase();
        if host == "query.wikidata.org" {
            Dialect::WikidataMwapi
        } else if server.is_some_and(|s| s.to_ascii_lowercase().contains("virtuoso")) {
            Dialect::Virtuoso
        } else {
            Dialect::LabelPrefix
        }
    }

    /// The query for entities named `text`, at most `limit`: `?e` the entity, `?l` a name.
    pub fn query(self, text: &str, limit: usize) -> String {
        let names: Vec<&str> = vocab::LABELS
            .iter()
            .chain(vocab::ALIASES.iter())
            .copied()
            .collect();
        match self {
            Dialect::WikidataMwapi => format!(
                "SELECT ?e ?l WHERE {{ SERVICE wikibase:mwapi {{ \
                 bd:serviceParam wikibase:endpoint \"www.wikidata.org\" ; \
                 wikibase:api \"EntitySearch\" ; mwapi:search {} ; mwapi:language \"en\" . \
                 ?e wikibase:apiOutputItem mwapi:item . }} \
                 OPTIONAL {{ ?e <{}> ?l . FILTER(LANG(?l) = \"en\") }} }} LIMIT {limit}",
                sparql_string(text),
                vocab::LABELS[0]
            ),
            Dialect::Virtuoso => format!(
                "SELECT ?e ?l WHERE {{ VALUES ?p {{ {} }} ?e ?p ?l . \
                 ?l bif:contains {} . FILTER(isIRI(?e)) }} LIMIT {limit}",
                iri_list(&names),
                sparql_string(&virtuoso_words(text))
            ),
            Dialect::LabelPrefix => format!(
                "SELECT ?e ?l WHERE {{ VALUES ?p {{ {} }} ?e ?p ?l . \
                 FILTER(isIRI(?e) && isLiteral(?l) && STRSTARTS(LCASE(STR(?l)), {})) }} LIMIT {limit}",
                iri_list(&names),
                sparql_string(&text.trim().to_lowercase())
            ),
        }
    }
}

/// `text` as a Virtuoso free-text expression: its words, all required, the last one as a
/// prefix when it is long enough for Virtuoso to take a wildcard (4 characters).
fn virtuoso_words(text: &str) -> String {
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let n = words.len();
    words
        .into_iter()
        .enumerate()
        .map(|(i, w)| {
            if i + 1 == n && w.chars().count() >= 4 {
                format!("\"{w}*\"")
            } else {
                format!("\"{w}\"")
            }
        })
        .collect::<Vec<_>>()
        .join(" AND ")
}

/// Entities of `kg` named `text` (at most `limit`, each once, in the order the KG ranked
/// them), by IRI. Empty text finds nothing.
pub fn search(kg: &dyn KnowledgeGraph, text: &str, limit: usize) -> Result<Vec<String>> {
    if text.trim().is_empty() || limit == 0 {
        return Ok(vec![]);
    }
    let rows = kg.select(&kg.search_dialect().query(text, limit), &["e", "l"])?;
    let mut found: Vec<String> = Vec::new();
    for r in rows {
        if let Some(e) = r[0].as_ref().filter(|e| e.is_named_node()) {
            let iri = term_str(e).to_string();
            if !found.contains(&iri) {
                found.push(iri);
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dialect_follows_the_endpoint() {
        assert_eq!(
            Dialect::for_endpoint("https://query.wikidata.org/sparql", None),
            Dialect::WikidataMwapi
        );
        assert_eq!(
            Dialect::for_endpoint(
                "https://dbpedia.org/sparql",
                Some("Virtuoso/08.03.3332 (Linux)")
            ),
            Dialect::Virtuoso
        );
        assert_eq!(
            Dialect::for_endpoint("http://127.0.0.1:7878/query", Some("oxigraph")),
            Dialect::LabelPrefix
        );
    }

    #[test]
    fn text_is_quoted_never_spliced() {
        let hostile = "Fe\" } DROP ALL { \"\\";
        let quoted = sparql_string(hostile);
        // Inside the quotes, every quote is escaped.
        let inner = &quoted[1..quoted.len() - 1];
        let mut escaped = false;
        for c in inner.chars() {
            assert!(escaped || c != '"', "an unescaped quote: {quoted}");
            escaped = !escaped && c == '\\';
        }
        let q = Dialect::WikidataMwapi.query(hostile, 5);
        assert!(q.contains(&quoted), "{q}");
        assert!(q.ends_with("LIMIT 5"), "{q}");
        // The prefix query compares lower-cased names.
        let q = Dialect::LabelPrefix.query(hostile, 5);
        assert!(q.contains(&sparql_string(&hostile.to_lowercase())), "{q}");
        // The standard form parses as one query, the text inside its literal.
        let q = Dialect::LabelPrefix.query(hostile, 5);
        assert!(
            oxigraph::sparql::SparqlEvaluator::new()
                .parse_query(&q)
                .is_ok(),
            "{q}"
        );
        let virtuoso = Dialect::Virtuoso.query(hostile, 5);
        assert!(
            virtuoso.contains(r#"bif:contains "\"Fe\" AND \"DROP\" AND \"ALL\"" ."#),
            "{virtuoso}"
        );
        assert_eq!(
            virtuoso_words("New York-Ci"),
            "\"New\" AND \"York\" AND \"Ci\""
        );
        assert_eq!(virtuoso_words("marie curi"), "\"marie\" AND \"curi*\"");
    }
}

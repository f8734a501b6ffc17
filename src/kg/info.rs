//! What a person asks of a KG: statistics, and everything about one entity.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;

use super::index::KgIndex;
use super::vocab::{self, iri_list};
use super::{term_str, KgError, KnowledgeGraph, Result, Term};

#[derive(Debug, Clone, Serialize)]
pub struct RelationInfo {
    pub iri: String,
    pub label: String,
    pub count: usize,
    pub head_type: Option<String>,
    pub tail_type: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TypeCount {
    pub iri: String,
    pub label: String,
    pub entities: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct KgStats {
    pub source: String,
    pub fingerprint: String,
    pub triples: u64,
    /// Triples that state facts (not labels, aliases, types or descriptions).
    pub facts: usize,
    pub entities: usize,
    pub labelled_entities: usize,
    pub label_coverage: f64,
    pub entities_with_aliases: usize,
    pub typed_entities: usize,
    pub entities_with_dates: usize,
    pub date_coverage: f64,
    pub year_range: Option<(i32, i32)>,
    pub relations: Vec<RelationInfo>,
    pub top_types: Vec<TypeCount>,
}

pub fn relation_infos(index: &KgIndex) -> Vec<RelationInfo> {
    index
        .relations()
        .iter()
        .map(|r| RelationInfo {
            iri: term_str(index.term(r.predicate)).to_string(),
            label: index.label(r.predicate),
            count: r.count,
            head_type: r.head_type.map(|t| index.label(t)),
            tail_type: r.tail_type.map(|t| index.label(t)),
        })
        .collect()
}

pub fn stats(kg: &dyn KnowledgeGraph, index: &KgIndex) -> Result<KgStats> {
    let entities = index.entities();
    let n = entities.len();
    let ratio = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
    let labelled = entities.iter().filter(|e| index.has_label(**e)).count();
    let with_aliases = entities
        .iter()
        .filter(|e| !index.aliases_of(**e).is_empty())
        .count();
    let typed = entities
        .iter()
        .filter(|e| !index.types_of(**e).is_empty())
        .count();
    let dated: Vec<i32> = entities.iter().filter_map(|e| index.year_of(*e)).collect();
    let mut type_counts: HashMap<u32, usize> = HashMap::new();
    for e in entities {
        for t in index.types_of(*e) {
            *type_counts.entry(*t).or_default() += 1;
        }
    }
    let mut top: Vec<(u32, usize)> = type_counts.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Ok(KgStats {
        source: kg.source(),
        fingerprint: index.fingerprint().to_string(),
        triples: kg.triple_count()?,
        facts: index.facts().len(),
        entities: n,
        labelled_entities: labelled,
        label_coverage: ratio(labelled),
        entities_with_aliases: with_aliases,
        typed_entities: typed,
        entities_with_dates: dated.len(),
        date_coverage: ratio(dated.len()),
        year_range: dated
            .iter()
            .min()
            .zip(dated.iter().max())
            .map(|(a, b)| (*a, *b)),
        relations: relation_infos(index),
        top_types: top
            .into_iter()
            .take(15)
            .map(|(t, c)| TypeCount {
                iri: term_str(index.term(t)).to_string(),
                label: index.label(t),
                entities: c,
            })
            .collect(),
    })
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Edge {
    pub predicate: String,
    pub predicate_label: String,
    /// The entity or literal at the other end.
    pub other: String,
    pub other_label: String,
    pub other_is_literal: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct EntityInfo {
    pub iri: String,
    pub label: String,
    pub labels: Vec<String>,
    pub aliases: Vec<String>,
    pub types: Vec<String>,
    /// Date-valued facts: (relation label, value).
    pub dates: Vec<(String, String)>,
    pub years: Vec<i32>,
    pub degree: usize,
    pub outgoing: Vec<Edge>,
    pub incoming: Vec<Edge>,
    /// With `hops = 2`: the edges of each neighbour, keyed by the neighbour's label.
    pub second_hop: BTreeMap<String, Vec<Edge>>,
}

/// A SPARQL string literal holding `s`, every quote and backslash escaped.
pub(crate) fn sparql_string(s: &str) -> String {
    let escaped: String = s
        .chars()
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            '\n' => vec!['\\', 'n'],
            '\r' => vec!['\\', 'r'],
            c => vec![c],
        })
        .collect();
    format!("\"{escaped}\"")
}

/// Finds entities by IRI, or by label or alias (case-insensitive, exact).
pub fn find_entities(kg: &dyn KnowledgeGraph, text: &str) -> Result<Vec<String>> {
    let trimmed = text.trim().trim_start_matches('<').trim_end_matches('>');
    if trimmed.contains("://") || trimmed.starts_with("urn:") {
        let q = format!("SELECT (1 AS ?x) WHERE {{ {{ <{trimmed}> ?p ?o }} UNION {{ ?s ?p <{trimmed}> }} }} LIMIT 1");
        return Ok(if kg.select(&q, &["x"])?.is_empty() {
            vec![]
        } else {
            vec![trimmed.to_string()]
        });
    }
    let names: Vec<&str> = vocab::LABELS
        .iter()
        .chain(vocab::ALIASES.iter())
        .copied()
        .collect();
    let q = format!(
        "SELECT DISTINCT ?e WHERE {{ VALUES ?p {{ {} }} ?e ?p ?l . FILTER(isIRI(?e) && LCASE(STR(?l)) = {}) }}",
        iri_list(&names),
        sparql_string(&text.trim().to_lowercase())
    );
    let mut found: Vec<String> = kg
        .select(&q, &["e"])?
        .into_iter()
        .filter_map(|r| r[0].as_ref().map(|t| term_str(t).to_string()))
        .collect();
    found.sort();
    Ok(found)
}

/// Preferred labels for a set of IRIs, fetched in chunks.
pub fn labels_for(kg: &dyn KnowledgeGraph, iris: &[String]) -> Result<HashMap<String, String>> {
    let mut best: HashMap<String, ((u8, usize), String)> = HashMap::new();
    for chunk in iris.chunks(200) {
        let values: String = chunk.iter().map(|i| format!("<{i}> ")).collect();
        let q = format!(
            "SELECT ?x ?p ?l WHERE {{ VALUES ?x {{ {values} }} VALUES ?p {{ {} }} ?x ?p ?l . FILTER(isLiteral(?l)) }}",
            iri_list(&vocab::LABELS)
        );
        for r in kg.select(&q, &["x", "p", "l"])? {
            let (Some(x), Some(p), Some(l)) = (&r[0], &r[1], &r[2]) else {
                continue;
            };
            let lang = match l {
                Term::Literal(lit) => lit.language(),
                _ => None,
            };
            let rank = super::index::label_rank(term_str(p), lang);
            let text = term_str(l).to_string();
            let e = best
                .entry(term_str(x).to_string())
                .or_insert((rank, text.clone()));
            if (rank, &text) < (e.0, &e.1) {
                *e = (rank, text);
            }
        }
    }
    Ok(best.into_iter().map(|(k, (_, v))| (k, v)).collect())
}

fn edges(
    kg: &dyn KnowledgeGraph,
    iri: &str,
    outgoing: bool,
    limit: usize,
) -> Result<Vec<(Term, Term)>> {
    let q = if outgoing {
        format!("SELECT ?p ?x WHERE {{ <{iri}> ?p ?x }} ORDER BY ?p ?x LIMIT {limit}")
    } else {
        format!("SELECT ?p ?x WHERE {{ ?x ?p <{iri}> }} ORDER BY ?p ?x LIMIT {limit}")
    };
    Ok(kg
        .select(&q, &["p", "x"])?
        .into_iter()
        .filter_map(|r| Some((r[0].clone()?, r[1].clone()?)))
        .collect())
}

fn to_edges(pairs: &[(Term, Term)], labels: &HashMap<String, String>) -> Vec<Edge> {
    let name = |t: &Term| match t {
        Term::NamedNode(n) => labels
            .get(n.as_str())
            .cloned()
            .unwrap_or_else(|| vocab::local_name(n.as_str())),
        t => term_str(t).to_string(),
    };
    pairs
        .iter()
        .filter(|(p, _)| !vocab::is_meta(term_str(p)))
        .map(|(p, x)| Edge {
            predicate: term_str(p).to_string(),
            predicate_label: name(p),
            other: term_str(x).to_string(),
            other_label: name(x),
            other_is_literal: x.is_literal(),
        })
        .collect()
}

/// Everything about one entity, with its 1-hop (and optionally 2-hop) neighbourhood.
pub fn entity_info(kg: &dyn KnowledgeGraph, iri: &str, hops: u8) -> Result<EntityInfo> {
    const EDGE_LIMIT: usize = 2000;
    let out = edges(kg, iri, true, EDGE_LIMIT)?;
    let inc = edges(kg, iri, false, EDGE_LIMIT)?;
    if out.is_empty() && inc.is_empty() {
        return Err(KgError::NotFound(format!("no entity <{iri}> in this KG")));
    }
    let mut labels_list = Vec::new();
    let mut aliases = Vec::new();
    let mut type_iris = Vec::new();
    let mut dates = Vec::new();
    let mut years = Vec::new();
    for (p, x) in &out {
        let p = term_str(p);
        if vocab::LABELS.contains(&p) {
            labels_list.push(term_str(x).to_string());
        } else if vocab::ALIASES.contains(&p) {
            aliases.push(term_str(x).to_string());
        } else if vocab::TYPES.contains(&p) {
            type_iris.push(term_str(x).to_string());
        } else if let Some(y) = super::index::date_year(x) {
            dates.push((p.to_string(), term_str(x).to_string()));
            years.push(y);
        }
    }
    let mut wanted: Vec<String> = vec![iri.to_string()];
    for (p, x) in out.iter().chain(&inc) {
        wanted.push(term_str(p).to_string());
        if x.is_named_node() {
            wanted.push(term_str(x).to_string());
        }
    }
    wanted.sort();
    wanted.dedup();
    let labels = labels_for(kg, &wanted)?;
    let outgoing = to_edges(&out, &labels);
    let incoming = to_edges(&inc, &labels);
    let mut second_hop = BTreeMap::new();
    if hops >= 2 {
        let mut neighbours: Vec<&Edge> = outgoing
            .iter()
            .chain(&incoming)
            .filter(|e| !e.other_is_literal)
            .collect();
        neighbours.sort_by(|a, b| a.other.cmp(&b.other));
        neighbours.dedup_by(|a, b| a.other == b.other);
        for n in neighbours.into_iter().take(200) {
            let pairs: Vec<(Term, Term)> = edges(kg, &n.other, true, 100)?
                .into_iter()
                .filter(|(_, x)| !x.is_literal() && term_str(x) != iri)
                .collect();
            let mut more: Vec<String> = pairs
                .iter()
                .flat_map(|(p, x)| [term_str(p).to_string(), term_str(x).to_string()])
                .collect();
            more.sort();
            more.dedup();
            let l2 = labels_for(kg, &more)?;
            second_hop.insert(n.other_label.clone(), to_edges(&pairs, &l2));
        }
    }
    let types = type_iris
        .iter()
        .map(|t| {
            labels_for(kg, std::slice::from_ref(t))
                .map(|m| m.get(t).cloned().unwrap_or_else(|| vocab::local_name(t)))
        })
        .collect::<Result<Vec<_>>>()?;
    let label = labels
        .get(iri)
        .cloned()
        .unwrap_or_else(|| vocab::local_name(iri));
    let dates = dates
        .into_iter()
        .map(|(p, v)| {
            (
                labels
                    .get(&p)
                    .cloned()
                    .unwrap_or_else(|| vocab::local_name(&p)),
                v,
            )
        })
        .collect();
    labels_list.sort();
    labels_list.dedup();
    aliases.sort();
    aliases.dedup();
    Ok(EntityInfo {
        iri: iri.to_string(),
        label,
        labels: labels_list,
        aliases,
        types,
        dates,
        years,
        degree: outgoing.len() + incoming.len(),
        outgoing,
        incoming,
        second_hop,
    })
}

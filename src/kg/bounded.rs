//! An index of a KG too big to read whole (Wikidata, DBpedia, any large store or endpoint),
//! built from bounded queries only. For each relation, a sample of its facts is drawn in a
//! seeded, engine-independent order (an MD5 of the fact and the seed, not `RAND()`); every
//! entity those facts name is then read with all its facts over the sampled relations (so a
//! negative about it is known false, not merely unseen: [`KgIndex::knows_false`]), and every
//! entity in the result with its labels, aliases, types and dated qualifiers. Nothing is read
//! whole, and the same KG, relations, sample size and seed give the same index (and so the
//! same questions) from a local store and from an endpoint serving it.

use std::collections::BTreeMap;

use oxigraph::model::Term;

use super::index::KgIndex;
use super::vocab::{self, iri_list};
use super::{KgError, KnowledgeGraph, Result, Row};

/// Entities named in one `VALUES` block: requests stay few and each stays small.
const BATCH: usize = 500;

/// Terms in N-Triples order, each once: every list sent is in the same order whatever the
/// order of the rows that named them.
#[derive(Default)]
struct Terms(BTreeMap<String, Term>);

impl Terms {
    fn insert(&mut self, t: Term) {
        self.0.entry(t.to_string()).or_insert(t);
    }

    fn contains(&self, t: &Term) -> bool {
        self.0.contains_key(&t.to_string())
    }

    fn into_vec(self) -> Vec<Term> {
        self.0.into_values().collect()
    }
}

/// What to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    /// Facts drawn per relation.
    pub per_relation: usize,
    /// Relations to draw from (IRIs or local names); empty = every relation.
    pub relations: Vec<String>,
    pub seed: u64,
    /// Entities drawn besides the sample, by IRI (`--entity`; KGLens' central entities).
    pub around: Vec<String>,
    /// Hops the draw reaches out, both ways along the facts: the room KGLens' walks and
    /// KG-FPQ's neighbourhoods are made in. 0 = none.
    pub hops: u8,
    /// Most entities a hop adds.
    pub width: usize,
    /// Whether the reach starts from every entity drawn (KG-FPQ: each fact's subject needs its
    /// neighbourhood) or only from `around` (KGLens' walk starts at its central entities).
    pub reach_from_sample: bool,
}

/// IRIs as the list of a SPARQL `IN (…)`.
fn in_list(iris: &[&str]) -> String {
    iri_list(iris).replace("> <", ">, <")
}

fn values(terms: &[Term]) -> String {
    terms
        .iter()
        .map(Term::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// An error with what its query was for in front: an endpoint's message names the query and
/// the endpoint, this says which step of the draw it was (`while listing the KG's relations`).
fn during(what: &str) -> impl Fn(KgError) -> KgError + '_ {
    move |e| match e {
        KgError::Endpoint { url, message } => KgError::Endpoint {
            url,
            message: format!("while {what}: {message}"),
        },
        other => other,
    }
}

/// The relations of the KG, by IRI, with their fact counts.
fn relations(kg: &dyn KnowledgeGraph) -> Result<Vec<(Term, u64)>> {
    let rows = kg
        .select(
            &format!(
                "SELECT ?p (COUNT(*) AS ?n) WHERE {{ ?s ?p ?o . FILTER(isIRI(?s) && !isBlank(?o) && ?p NOT IN ({})) }} GROUP BY ?p",
                in_list(&vocab::meta_predicates())
            ),
            &["p", "n"],
        )
        .map_err(during("listing the KG's relations"))?;
    let mut out: Vec<(Term, u64)> = rows
        .into_iter()
        .filter_map(|r| {
            let n = r[1].as_ref().and_then(super::literal_u64)?;
            Some((r[0].clone()?, n))
        })
        .collect();
    out.sort_by_cached_key(|(p, _)| p.to_string());
    Ok(out)
}

/// The relations `names` ask for (an IRI, or a local name in any case), or all of them.
fn chosen(all: &[(Term, u64)], names: &[String]) -> Result<Vec<Term>> {
    if names.is_empty() {
        return Ok(all.iter().map(|(p, _)| p.clone()).collect());
    }
    names
        .iter()
        .map(|name| {
            all.iter()
                .map(|(p, _)| p)
                .find(|p| {
                    let iri = super::term_str(p);
                    iri == name || vocab::local_name(iri).eq_ignore_ascii_case(name)
                })
                .cloned()
                .ok_or_else(|| {
                    KgError::NotFound(format!(
                        "no relation {name} in the KG (give its IRI or local name; the KG has {} relations)",
                        all.len()
                    ))
                })
        })
        .collect()
}

/// Runs `query` (with `{}` where a `VALUES` list of terms goes) over `terms` in batches;
/// `what` the query is for, for its errors.
fn batched(
    kg: &dyn KnowledgeGraph,
    what: &str,
    terms: &[Term],
    vars: &[&str],
    query: impl Fn(&str) -> String,
) -> Result<Vec<Row>> {
    let mut out = Vec::new();
    for chunk in terms.chunks(BATCH) {
        out.extend(
            kg.select(&query(&values(chunk)), vars)
                .map_err(during(what))?,
        );
    }
    Ok(out)
}

impl Draw {
    /// What `--kg-sample` asks for: `per_relation` facts of each of `relations` (all when
    /// empty) in the order `seed` gives; `None` when no sample is asked for.
    pub fn of(per_relation: Option<usize>, relations: &[String], seed: u64) -> Option<Draw> {
        per_relation.map(|per_relation| Draw {
            per_relation,
            relations: relations.to_vec(),
            seed,
            around: vec![],
            hops: 0,
            width: 0,
            reach_from_sample: false,
        })
    }

    /// The same draw with `around` drawn too, reaching `hops` out from them (and from every
    /// entity drawn when `from_sample`), at most `width` more entities a hop.
    pub fn reaching(
        mut self,
        around: &[String],
        hops: u8,
        width: usize,
        from_sample: bool,
    ) -> Self {
        self.around = around.to_vec();
        self.hops = hops;
        self.width = width;
        self.reach_from_sample = from_sample;
        self
    }
}

/// Entities a hop adds when the method does not say ([`Draw::width`]): enough for KG-FPQ's
/// same-concept neighbours to be found, few enough that five hops stay a few dozen requests.
pub const HOP_WIDTH: usize = 1000;

/// The first `n` of `terms` in the order `seed` gives them (a SHA-256 of the seed and the
/// term), the same on every machine and whatever the order `terms` came in.
fn first_by_hash(terms: Vec<Term>, seed: u64, n: usize) -> Vec<Term> {
    use sha2::{Digest, Sha256};
    let mut keyed: Vec<([u8; 32], Term)> = terms
        .into_iter()
        .map(|t| {
            let mut h = Sha256::new();
            h.update(seed.to_le_bytes());
            h.update(t.to_string().as_bytes());
            (h.finalize().into(), t)
        })
        .collect();
    keyed.sort_unstable_by_key(|k| k.0);
    keyed.truncate(n);
    keyed.into_iter().map(|(_, t)| t).collect()
}

/// Relations drawn from in one query.
const RELATIONS_PER_QUERY: usize = 16;

/// Labels `(s, p, l)`, aliases `(s, l)` and types `(s, t)` of `terms`, one query a batch.
fn about(kg: &dyn KnowledgeGraph, terms: &[Term]) -> Result<(Vec<Row>, Vec<Row>, Vec<Row>)> {
    let wanted: Vec<&str> = vocab::LABELS
        .iter()
        .chain(&vocab::ALIASES)
        .chain(&vocab::TYPES)
        .copied()
        .collect();
    let what = "reading the labels, aliases and types of the entities drawn";
    let rows = batched(kg, what, terms, &["s", "p", "v"], |v| {
        format!(
            "SELECT ?s ?p ?v WHERE {{ VALUES ?s {{ {v} }} ?s ?p ?v . FILTER(?p IN ({})) }}",
            in_list(&wanted)
        )
    })?;
    let (mut labels, mut aliases, mut types) = (Vec::new(), Vec::new(), Vec::new());
    for r in rows {
        let (Some(s), Some(p), Some(v)) = (&r[0], &r[1], &r[2]) else {
            continue;
        };
        let p_str = super::term_str(p);
        let literal = matches!(v, Term::Literal(_));
        if vocab::LABELS.contains(&p_str) && literal {
            labels.push(r);
        } else if vocab::ALIASES.contains(&p_str) && literal {
            aliases.push(vec![Some(s.clone()), Some(v.clone())]);
        } else if vocab::TYPES.contains(&p_str) && v.is_named_node() {
            types.push(vec![Some(s.clone()), Some(v.clone())]);
        }
    }
    Ok((labels, aliases, types))
}

/// The index of a sample of `kg` as `draw` says.
pub fn build(kg: &dyn KnowledgeGraph, draw: &Draw, progress: &dyn Fn(&str)) -> Result<KgIndex> {
    // Relations named by IRI are taken as they are: listing a big KG's relations with their
    // counts is one heavy query (Wikidata's endpoint cuts it), and not needed then.
    let relations = if !draw.relations.is_empty()
        && draw
            .relations
            .iter()
            .all(|r| r.starts_with("http://") || r.starts_with("https://"))
    {
        draw.relations
            .iter()
            .map(|r| {
                oxigraph::model::NamedNode::new(r.as_str())
                    .map(Term::NamedNode)
                    .map_err(|e| KgError::Invalid(format!("--relation {r}: {e}")))
            })
            .collect::<Result<Vec<Term>>>()?
    } else {
        progress("listing relations");
        let all = relations(kg)?;
        if all.is_empty() {
            return Err(KgError::NotFound(
                "the KG has no facts to ask about (only labels, types or nothing at all)".into(),
            ));
        }
        chosen(&all, &draw.relations)?
    };
    // `FILTER(?p IN (…))` after a subject lookup, not a second `VALUES` block: engines join two
    // `VALUES` blocks as a product of lookups (36 times slower on oxigraph).
    let predicate_list = relations
        .iter()
        .map(Term::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let mut drawn = Terms::default();
    // Several relations' draws to a query: each a sub-select of its own, joined by UNION.
    for (i, chunk) in relations.chunks(RELATIONS_PER_QUERY).enumerate() {
        let what = format!(
            "drawing facts of relations {}-{} of {}",
            i * RELATIONS_PER_QUERY + 1,
            i * RELATIONS_PER_QUERY + chunk.len(),
            relations.len()
        );
        progress(&what);
        let draws: Vec<String> = chunk
            .iter()
            .map(|p| {
                format!(
                    "{{ SELECT ?s ?o WHERE {{ ?s {p} ?o . FILTER(isIRI(?s) && !isBlank(?o)) \
                     BIND(MD5(CONCAT(STR(?s), \" \", STR(?o), \" {seed}\")) AS ?h) }} \
                     ORDER BY ?h STR(?s) STR(?o) LIMIT {n} }}",
                    seed = draw.seed,
                    n = draw.per_relation
                )
            })
            .collect();
        let rows = kg
            .select(
                &format!("SELECT ?s ?o WHERE {{ {} }}", draws.join(" UNION ")),
                &["s", "o"],
            )
            .map_err(during(&what))?;
        for r in rows {
            for t in r.into_iter().flatten() {
                if t.is_named_node() {
                    drawn.insert(t);
                }
            }
        }
    }
    let mut around = Terms::default();
    for e in &draw.around {
        let iri = oxigraph::model::NamedNode::new(e.as_str())
            .map_err(|err| KgError::Invalid(format!("entity {e}: {err}")))?;
        drawn.insert(Term::NamedNode(iri.clone()));
        around.insert(Term::NamedNode(iri));
    }
    let around = around.into_vec();
    // The drawn entities' facts, then hop by hop those of the entities they reach: every
    // entity whose facts are read is closed, so a walk or a neighbourhood inside the index
    // only ever takes real facts, and a negative about any of them is known false.
    let mut closed = Terms::default();
    let mut frontier: Vec<Term> = drawn.into_vec();
    let mut facts: Vec<Row> = Vec::new();
    for hop in 0..=draw.hops {
        let what = if hop == 0 {
            "reading the drawn entities' facts".to_string()
        } else {
            format!(
                "reading the facts of {} entities {hop} hop(s) out",
                frontier.len()
            )
        };
        progress(&what);
        let read = batched(kg, &what, &frontier, &["s", "p", "o"], |v| {
            format!(
                "SELECT ?s ?p ?o WHERE {{ VALUES ?s {{ {v} }} ?s ?p ?o . \
                 FILTER(!isBlank(?o) && ?p IN ({predicate_list})) }}"
            )
        })?;
        frontier.iter().cloned().for_each(|t| closed.insert(t));
        if hop == draw.hops {
            facts.extend(read);
            break;
        }
        // Where the next hop starts: this hop's entities, but at the first only `around`
        // unless the whole sample reaches out.
        let from: Vec<Term> = if hop == 0 && !draw.reach_from_sample {
            around.clone()
        } else {
            frontier
        };
        let starts: std::collections::HashSet<String> = from.iter().map(Term::to_string).collect();
        // Next: what these facts point at, and what points at these entities (a hub's many
        // subjects cut to a seeded few by the engine).
        let mut reached = Terms::default();
        for r in &read {
            let (Some(s), Some(o)) = (&r[0], &r[2]) else {
                continue;
            };
            if o.is_named_node() && !closed.contains(o) && starts.contains(&s.to_string()) {
                reached.insert(o.clone());
            }
        }
        facts.extend(read);
        let what = format!("finding what points at the entities {hop} hop(s) out");
        let pointing = batched(kg, &what, &from, &["s"], |v| {
            format!(
                "SELECT DISTINCT ?s WHERE {{ VALUES ?o {{ {v} }} ?s ?p ?o . \
                 FILTER(isIRI(?s) && ?p IN ({predicate_list})) \
                 BIND(MD5(CONCAT(STR(?s), \" \", STR(?o), \" {seed}\")) AS ?h) }} \
                 ORDER BY ?h STR(?s) STR(?o) LIMIT {width}",
                seed = draw.seed,
                width = draw.width
            )
        })?;
        for s in pointing.into_iter().filter_map(|mut r| r.pop().flatten()) {
            if !closed.contains(&s) {
                reached.insert(s);
            }
        }
        frontier = first_by_hash(reached.into_vec(), draw.seed, draw.width);
        if frontier.is_empty() {
            break;
        }
    }
    let drawn: Vec<Term> = closed.into_vec();
    // Every entity the index will name: the drawn ones and what their facts point at.
    let mut named = Terms::default();
    drawn.iter().cloned().for_each(|t| named.insert(t));
    for r in &facts {
        if let Some(o) = r[2].as_ref().filter(|o| o.is_named_node()) {
            named.insert(o.clone());
        }
    }
    let named: Vec<Term> = named.into_vec();
    progress("reading labels, aliases and types");
    let (mut labels, aliases, types) = about(kg, &named)?;
    // The relations and the types are named too (templates and reports use their labels).
    let mut more = Terms::default();
    relations
        .iter()
        .chain(types.iter().filter_map(|r| r[1].as_ref()))
        .for_each(|t| more.insert(t.clone()));
    labels.extend(about(kg, &more.into_vec())?.0);
    progress("reading date qualifiers");
    let what = "reading date qualifiers";
    let qualifiers = batched(kg, what, &drawn, &["s", "p", "o", "d"], |v| {
        format!(
            "SELECT ?s ?p ?o ?d WHERE {{ VALUES ?s {{ {v} }} ?st <{}> ?s ; <{}> ?p ; <{}> ?o ; ?q ?d . \
             FILTER(isLiteral(?d) && DATATYPE(?d) IN ({})) }}",
            vocab::RDF_SUBJECT,
            vocab::RDF_PREDICATE,
            vocab::RDF_OBJECT,
            in_list(&vocab::DATES)
        )
    })?;
    progress("indexing");
    let mut index = KgIndex::from_rows(facts, labels, aliases, types, qualifiers);
    index.set_closed(&drawn);
    Ok(index)
}

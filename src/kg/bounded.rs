//! An index of a KG too big to read whole (Wikidata, DBpedia, any large store or endpoint),
//! built from bounded queries only. For each relation, a sample of its facts is drawn in a
//! seeded, engine-independent order (an MD5 of the fact and the seed, not `RAND()`); every
//! entity those facts name is then read with all its facts over the sampled relations (so a
//! negative about it is known false, not merely unseen: [`KgIndex::knows_false`]), and every
//! entity in the result with its labels, aliases, types and dated qualifiers. Nothing is read
//! whole, and the same KG, relations, sample size and seed give the same index (and so the
//! same questions) from a local store and from an endpoint serving it.
//!
//! Under a profile other than the generic one ([`super::profile`]) the same steps read what
//! the profile needs about the entities at hand (names in its languages, types and the
//! subclass links between them, Wikibase statements, value nodes and page counters), all by
//! `VALUES` over those entities, and the profile reads the rows as it reads a file's
//! ([`profiled`]).

mod profiled;

use std::collections::{BTreeMap, HashMap};

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

/// The index of a sample of `kg` as `draw` says, read under the profile the command line
/// chose (detected from the data when it named none).
pub fn build(kg: &dyn KnowledgeGraph, draw: &Draw, progress: &dyn Fn(&str)) -> Result<KgIndex> {
    progress("detecting the KG's profile");
    let profile = super::profile::chosen(kg)?;
    build_with(kg, draw, &profile, progress)
}

/// [`build`] under `profile`.
pub fn build_with(
    kg: &dyn KnowledgeGraph,
    draw: &Draw,
    profile: &super::profile::Profile,
    progress: &dyn Fn(&str),
) -> Result<KgIndex> {
    if !profile.is_generic() {
        return profiled::build(kg, draw, profile, progress);
    }
    // Relations named by IRI are taken as they are: listing a big KG's relations with their
    // counts is one heavy query (Wikidata's endpoint cuts it), and not needed then.
    let mut counts: HashMap<String, u64> = HashMap::new();
    let relations = match given_by_iri(&draw.relations)? {
        Some(r) => r,
        None => {
            progress("listing relations");
            let all = relations(kg)?;
            if all.is_empty() {
                return Err(KgError::NotFound(
                    "the KG has no facts to ask about (only labels, types or nothing at all)"
                        .into(),
                ));
            }
            counts.extend(all.iter().map(|(p, n)| (p.to_string(), *n)));
            chosen(&all, &draw.relations)?
        }
    };
    let counted: Vec<(Term, Option<u64>)> = relations
        .iter()
        .map(|p| (p.clone(), counts.get(&p.to_string()).copied()))
        .collect();
    let drawn = drawn_entities(first_draw(kg, &counted, draw, progress)?, &|_| true);
    let (drawn, facts) = reach(
        kg,
        draw,
        drawn,
        &in_filter("p", &relations),
        &|_| true,
        progress,
    )?;
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

/// `--relation`s when every one is an IRI (taken as they are, with no listing of the KG's
/// relations); `None` when any is a name to look up (or none is given).
fn given_by_iri(names: &[String]) -> Result<Option<Vec<Term>>> {
    if names.is_empty()
        || !names
            .iter()
            .all(|r| r.starts_with("http://") || r.starts_with("https://"))
    {
        return Ok(None);
    }
    names
        .iter()
        .map(|r| {
            oxigraph::model::NamedNode::new(r.as_str())
                .map(Term::NamedNode)
                .map_err(|e| KgError::Invalid(format!("--relation {r}: {e}")))
        })
        .collect::<Result<Vec<Term>>>()
        .map(Some)
}

/// `FILTER(?var IN (…))` over `terms` (an empty list: never true). `FILTER(?p IN (…))` after a
/// subject lookup, not a second `VALUES` block: engines join two `VALUES` blocks as a product
/// of lookups (36 times slower on oxigraph).
fn in_filter(var: &str, terms: &[Term]) -> String {
    let list = terms
        .iter()
        .map(Term::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    format!("?{var} IN ({list})")
}

/// The named nodes of the first draw's rows that `is_entity` accepts.
fn drawn_entities(rows: Vec<Row>, is_entity: &dyn Fn(&Term) -> bool) -> Terms {
    let mut drawn = Terms::default();
    for t in rows.into_iter().flatten().flatten() {
        if t.is_named_node() && is_entity(&t) {
            drawn.insert(t);
        }
    }
    drawn
}

/// Relations counted in one query (a `VALUES` list of predicates, each an index lookup).
const COUNTED_PER_QUERY: usize = 50;

/// Facts of a relation up to which its first draw is in the order of a hash of each fact;
/// past it, a seeded offset into the engine's own order (see [`first_draw`]).
pub const HASHED_UP_TO: u64 = 100_000;

/// The first draw: `draw.per_relation` facts of each relation, `(s, o)` rows.
///
/// A relation of up to [`HASHED_UP_TO`] facts is drawn in the order of a hash of each fact and
/// the seed: a spread, uniform sample that every engine and storage reproduces. A bigger one is
/// taken as the engine lists it from its index of the relation (no `ORDER BY`), from an offset
/// the seed gives (a seeded position in `0..=count-n`, bounded by one range count). The
/// trade-off, measured for issue 37 on a 2M-triple `oxigraph serve` (a relation of 200,000
/// facts, 100 drawn, on a loaded 2-core machine): hashing every fact and sorting by the hash
/// took 10.1 s; `ORDER BY ?s ?o`, the order SPARQL defines, 23.4 s (oxigraph compares IRIs
/// by their text, looked up at every comparison, and serves no order from its index); a
/// seeded `OFFSET` into the engine's order 0.02 s, its count 0.09 s. Only the last finishes
/// on a relation the size of Wikidata's (100M facts, cut at 60 s), but it is reproducible
/// only on the same engine and storage (oxigraph's in-memory store and its store on disk list
/// a predicate's facts in different orders), and a window of `n` facts is a run of neighbours
/// in that order rather than `n` facts picked one by one. Same seed, same engine and data:
/// the same sample.
fn first_draw(
    kg: &dyn KnowledgeGraph,
    relations: &[(Term, Option<u64>)],
    draw: &Draw,
    progress: &dyn Fn(&str),
) -> Result<Vec<Row>> {
    // Counts not known from listing the relations: one range count per relation, batched.
    let mut counts: HashMap<String, u64> = relations
        .iter()
        .filter_map(|(p, n)| Some((p.to_string(), (*n)?)))
        .collect();
    let uncounted: Vec<Term> = relations
        .iter()
        .filter(|(p, _)| !counts.contains_key(&p.to_string()))
        .map(|(p, _)| p.clone())
        .collect();
    if !uncounted.is_empty() {
        progress(&format!(
            "counting the facts of {} relations",
            uncounted.len()
        ));
    }
    for chunk in uncounted.chunks(COUNTED_PER_QUERY) {
        // One count of one triple pattern a relation (a range count on an engine that keeps
        // them), not a grouping over every fact.
        let counts_of: Vec<String> = chunk
            .iter()
            .map(|p| format!("{{ SELECT ({p} AS ?p) (COUNT(*) AS ?n) WHERE {{ ?s {p} ?o }} }}"))
            .collect();
        let rows = kg
            .select(
                &format!("SELECT ?p ?n WHERE {{ {} }}", counts_of.join(" UNION ")),
                &["p", "n"],
            )
            .map_err(during("counting the facts of the relations"))?;
        for r in rows {
            if let (Some(p), Some(n)) = (&r[0], r[1].as_ref().and_then(super::literal_u64)) {
                counts.insert(p.to_string(), n);
            }
        }
    }
    // A relation without facts is not drawn from (most of a big KG's declared properties).
    let drawable: Vec<(&Term, u64)> = relations
        .iter()
        .filter_map(|(p, _)| Some((p, *counts.get(&p.to_string())?)))
        .filter(|(_, n)| *n > 0)
        .collect();
    let n = draw.per_relation as u64;
    let mut out = Vec::new();
    // Several relations' draws to a query: each a sub-select of its own, joined by UNION.
    for (i, chunk) in drawable.chunks(RELATIONS_PER_QUERY).enumerate() {
        let what = format!(
            "drawing facts of relations {}-{} of {}",
            i * RELATIONS_PER_QUERY + 1,
            i * RELATIONS_PER_QUERY + chunk.len(),
            drawable.len()
        );
        progress(&what);
        let draws: Vec<String> = chunk
            .iter()
            .map(|(p, count)| {
                if *count <= HASHED_UP_TO {
                    return format!(
                        "{{ SELECT ?s ?o WHERE {{ ?s {p} ?o . FILTER(isIRI(?s) && !isBlank(?o)) \
                         BIND(MD5(CONCAT(STR(?s), \" \", STR(?o), \" {seed}\")) AS ?h) }} \
                         ORDER BY ?h STR(?s) STR(?o) LIMIT {n} }}",
                        seed = draw.seed
                    );
                }
                let offset = seeded_offset(draw.seed, p, count.saturating_sub(n));
                format!(
                    "{{ SELECT ?s ?o WHERE {{ ?s {p} ?o . FILTER(isIRI(?s) && !isBlank(?o)) }} \
                     OFFSET {offset} LIMIT {n} }}"
                )
            })
            .collect();
        out.extend(
            kg.select(
                &format!("SELECT ?s ?o WHERE {{ {} }}", draws.join(" UNION ")),
                &["s", "o"],
            )
            .map_err(during(&what))?,
        );
    }
    Ok(out)
}

/// A position in `0..=last` that `seed` and the relation give, the same on every machine.
fn seeded_offset(seed: u64, relation: &Term, last: u64) -> u64 {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(seed.to_le_bytes());
    h.update(relation.to_string().as_bytes());
    let d = h.finalize();
    let x = u64::from_le_bytes(d[..8].try_into().expect("8 bytes"));
    x % (last + 1)
}

/// The drawn entities' facts over the relations `predicate` filters (an expression on `?p`),
/// then hop by hop those of the entities they reach (those `is_entity` accepts): every entity
/// whose facts are read is closed, so a walk or a neighbourhood inside the index only ever
/// takes real facts, and a negative about any of them is known false. The closed entities,
/// sorted, and the facts read, `(s, p, o)`.
fn reach(
    kg: &dyn KnowledgeGraph,
    draw: &Draw,
    mut drawn: Terms,
    predicate: &str,
    is_entity: &dyn Fn(&Term) -> bool,
    progress: &dyn Fn(&str),
) -> Result<(Vec<Term>, Vec<Row>)> {
    let mut around = Terms::default();
    for e in &draw.around {
        let iri = oxigraph::model::NamedNode::new(e.as_str())
            .map_err(|err| KgError::Invalid(format!("entity {e}: {err}")))?;
        drawn.insert(Term::NamedNode(iri.clone()));
        around.insert(Term::NamedNode(iri));
    }
    let around = around.into_vec();
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
                 FILTER(!isBlank(?o) && {predicate}) }}"
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
            if o.is_named_node()
                && is_entity(o)
                && !closed.contains(o)
                && starts.contains(&s.to_string())
            {
                reached.insert(o.clone());
            }
        }
        facts.extend(read);
        let what = format!("finding what points at the entities {hop} hop(s) out");
        let pointing = batched(kg, &what, &from, &["s"], |v| {
            format!(
                "SELECT DISTINCT ?s WHERE {{ VALUES ?o {{ {v} }} ?s ?p ?o . \
                 FILTER(isIRI(?s) && {predicate}) \
                 BIND(MD5(CONCAT(STR(?s), \" \", STR(?o), \" {seed}\")) AS ?h) }} \
                 ORDER BY ?h STR(?s) STR(?o) LIMIT {width}",
                seed = draw.seed,
                width = draw.width
            )
        })?;
        for s in pointing.into_iter().filter_map(|mut r| r.pop().flatten()) {
            if !closed.contains(&s) && is_entity(&s) {
                reached.insert(s);
            }
        }
        frontier = first_by_hash(reached.into_vec(), draw.seed, draw.width);
        if frontier.is_empty() {
            break;
        }
    }
    Ok((closed.into_vec(), facts))
}

/// Facts drawn per relation from an endpoint when the command names no `--kg-sample`:
/// enough for a run's default 100 questions spread over a few dozen relations, with their
/// negatives, in a few MiB and seconds (an endpoint is never read whole unless asked:
/// `--kg-whole`).
pub const DEFAULT_SAMPLE: usize = 100;

static WHOLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Lets the command read an endpoint whole (`--kg-whole`): process-wide, like the command
/// line it comes from.
pub fn set_whole(whole: bool) {
    WHOLE.store(whole, std::sync::atomic::Ordering::Relaxed);
}

/// Whether the command asked for an endpoint to be read whole.
pub fn whole() -> bool {
    WHOLE.load(std::sync::atomic::Ordering::Relaxed)
}

/// Whether `spec` (a `--kg` value) is a SPARQL endpoint, which is sampled unless read whole is
/// asked for.
pub fn is_endpoint(spec: &str) -> bool {
    spec.starts_with("http://") || spec.starts_with("https://")
}

/// The sentence that says an endpoint is sampled by default, and how to choose otherwise.
pub fn default_sample_note(per_relation: usize) -> String {
    format!(
        "an endpoint is read as a sample of {per_relation} facts per relation (--kg-sample N \
         for another size, --kg-whole to read every triple)"
    )
}

//! What the TUI shows of a KG: searchable names, an entity's card and edges, the facts around
//! a question's triple. Every string is sanitised here, once, so the screens can draw it as is.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher};

use crate::kg::index::{Id, KgIndex};
use crate::sanitize::line;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    Entity,
    Relation,
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub kind: EntryKind,
    pub id: Id,
    /// Sanitised label, with aliases appended so they are searchable too.
    pub text: String,
    pub label: String,
}

/// Everything Explore can search: relations first, then entities.
pub fn entries(index: &KgIndex) -> Vec<Entry> {
    let mut out = Vec::new();
    for r in index.relations() {
        let label = line(&index.label(r.predicate));
        out.push(Entry {
            kind: EntryKind::Relation,
            id: r.predicate,
            text: label.clone(),
            label,
        });
    }
    for &e in index.entities() {
        let label = line(&index.label(e));
        let aliases = index.aliases_of(e);
        let text = if aliases.is_empty() {
            label.clone()
        } else {
            line(&format!("{label} {}", aliases.join(" ")))
        };
        out.push(Entry {
            kind: EntryKind::Entity,
            id: e,
            text,
            label,
        });
    }
    out
}

/// Indices into `entries` matching `query`, best first; all of them for an empty query.
pub fn search(entries: &[Entry], query: &str, matcher: &mut Matcher) -> Vec<usize> {
    if query.trim().is_empty() {
        return (0..entries.len()).collect();
    }
    let pattern = Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart);
    let texts: Vec<(usize, &str)> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (i, e.text.as_str()))
        .collect();
    let mut scored: Vec<(usize, u32)> = texts
        .iter()
        .filter_map(|(i, t)| {
            let mut buf = Vec::new();
            let hay = nucleo_matcher::Utf32Str::new(t, &mut buf);
            pattern.score(hay, matcher).map(|s| (*i, s))
        })
        .collect();
    // Stable on ties so the list does not jump around while typing.
    scored.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.into_iter().map(|(i, _)| i).collect()
}

pub fn new_matcher() -> Matcher {
    Matcher::new(Config::DEFAULT)
}

/// One edge seen from an entity: the relation and the entity (or value) at the other end.
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub relation: String,
    pub other: String,
}

#[derive(Debug, Clone, Default)]
pub struct Card {
    pub iri: String,
    pub label: String,
    pub aliases: Vec<String>,
    pub types: Vec<String>,
    pub year: Option<i32>,
    pub outgoing: Vec<Edge>,
    pub incoming: Vec<Edge>,
    /// With two hops: each outgoing neighbour (by label) and its own outgoing edges.
    pub second_hop: Vec<(String, Vec<Edge>)>,
}

impl Card {
    pub fn degree(&self) -> usize {
        self.outgoing.len() + self.incoming.len()
    }
}

/// The facts whose subject is `e`: one contiguous run, since facts are sorted by subject.
fn outgoing_facts(index: &KgIndex, e: Id) -> &[crate::kg::index::Fact] {
    let facts = index.facts();
    let start = facts.partition_point(|f| f[0] < e);
    let end = facts.partition_point(|f| f[0] <= e);
    &facts[start..end]
}

/// Neighbours shown with two hops; a hub's full second hop would not fit any screen.
const SECOND_HOP_MAX: usize = 12;

pub fn card(index: &KgIndex, e: Id, hops: u8) -> Card {
    let facts = index.facts();
    let edge = |p: Id, o: Id| Edge {
        relation: line(&index.label(p)),
        other: line(&index.label(o)),
    };
    let out_facts = outgoing_facts(index, e);
    let outgoing = out_facts.iter().map(|f| edge(f[1], f[2])).collect();
    let mut second_hop = Vec::new();
    if hops >= 2 {
        let mut seen = std::collections::HashSet::new();
        for f in out_facts {
            let n = f[2];
            let edges: Vec<Edge> = outgoing_facts(index, n)
                .iter()
                .map(|g| edge(g[1], g[2]))
                .collect();
            if n != e && !edges.is_empty() && seen.insert(n) {
                second_hop.push((line(&index.label(n)), edges));
                if second_hop.len() == SECOND_HOP_MAX {
                    break;
                }
            }
        }
    }
    let incoming = facts
        .iter()
        .filter(|f| f[2] == e)
        .map(|f| edge(f[1], f[0]))
        .collect();
    Card {
        iri: line(crate::kg::term_str(index.term(e))),
        label: line(&index.label(e)),
        aliases: index.aliases_of(e).iter().map(|a| line(a)).collect(),
        types: index
            .types_of(e)
            .iter()
            .map(|&t| line(&index.label(t)))
            .collect(),
        year: index.year_of(e),
        outgoing,
        incoming,
        second_hop,
    }
}

/// The card of an entity given by IRI, if the KG knows it.
pub fn card_of_iri(index: &KgIndex, iri: &str) -> Option<Card> {
    index.iri_id(iri).map(|id| card(index, id, 1))
}

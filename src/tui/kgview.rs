//! What the TUI shows of a KG: searchable names, an entity's card and edges, the facts around
//! a question's triple. Every string is sanitised here, once, so the screens can draw it as is.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher};

use crate::kg::index::{Fact, Id, KgIndex};
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
    /// Sanitised label, with the other labels and aliases appended so they are searchable too.
    pub text: String,
    pub label: String,
    /// The other labels, then the aliases, sanitised: what a hit may have matched instead of
    /// the label.
    pub names: Vec<String>,
    /// How many of `names` are labels (the rest are aliases).
    pub other_labels: usize,
}

impl Entry {
    /// Why a hit matched, when not by its label: "alias: Fe", "label: Fer".
    pub fn matched_by(&self, via: u32) -> Option<String> {
        let i = (via as usize).checked_sub(1)?;
        let name = self.names.get(i)?;
        let kind = if i < self.other_labels {
            "label"
        } else {
            "alias"
        };
        Some(format!("{kind}: {name}"))
    }
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
            names: vec![],
            other_labels: 0,
        });
    }
    for &e in index.entities() {
        let label = line(&index.label(e));
        let names: Vec<String> = index
            .other_labels_of(e)
            .iter()
            .chain(index.aliases_of(e))
            .map(|n| line(n))
            .collect();
        let text = if names.is_empty() {
            label.clone()
        } else {
            format!("{label} {}", names.join(" "))
        };
        out.push(Entry {
            kind: EntryKind::Entity,
            id: e,
            text,
            label,
            names,
            other_labels: index.other_labels_of(e).len(),
        });
    }
    out
}

/// Search hits: indices into the entries, best first, and for each which name matched (0 the
/// label, `k` the entry's `names[k - 1]`), so the list can say why a hit is there.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Hits {
    pub entries: Vec<usize>,
    /// Empty for an empty query (every entry, by its label).
    pub via: Vec<u32>,
}

/// Entries matching `query`, best first; all of them for an empty query.
///
/// Ranking: an exact label match first ("iron" finds Iron before Iron-45), then an exact
/// match of another label or an alias ("fe" finds Iron by its alias Fe), then labels and then
/// other names starting with the query, then every other fuzzy match by score. Case is
/// ignored throughout. Ties keep the KG's order, so the list does not jump while typing.
pub fn search(entries: &[Entry], query: &str, matcher: &mut Matcher) -> Hits {
    if query.trim().is_empty() {
        return Hits {
            entries: (0..entries.len()).collect(),
            via: vec![],
        };
    }
    let q = query.trim().to_lowercase();
    let pattern = Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart);
    let mut buf = Vec::new();
    let mut score = |text: &str, matcher: &mut Matcher| {
        pattern.score(nucleo_matcher::Utf32Str::new(text, &mut buf), matcher)
    };
    // (tier, score, index, via)
    let mut scored: Vec<(u8, u32, usize, u32)> = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let Some(s) = score(&e.text, matcher) else {
            continue;
        };
        let label = e.label.to_lowercase();
        let names: Vec<String> = e.names.iter().map(|n| n.to_lowercase()).collect();
        let named = |f: &dyn Fn(&str) -> bool| names.iter().position(|n| f(n));
        let (tier, via) = if label == q {
            (0, 0)
        } else if let Some(k) = named(&|n| n == q) {
            (1, k + 1)
        } else if label.starts_with(&q) {
            (2, 0)
        } else if let Some(k) = named(&|n| n.starts_with(&q)) {
            (3, k + 1)
        } else if label.contains(&q) || score(&e.label, matcher).is_some() {
            (4, 0)
        } else {
            // The name that matches best is the reason (the label did not match at all).
            let best = e
                .names
                .iter()
                .enumerate()
                .filter_map(|(k, n)| score(n, matcher).map(|s| (s, k)))
                .max_by_key(|(s, k)| (*s, std::cmp::Reverse(*k)));
            (4, best.map_or(0, |(_, k)| k + 1))
        };
        scored.push((tier, s, i, via as u32));
    }
    scored.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    Hits {
        entries: scored.iter().map(|h| h.2).collect(),
        via: scored.iter().map(|h| h.3).collect(),
    }
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

fn named_edge(index: &KgIndex, relation: Id, other: Id) -> Edge {
    Edge {
        relation: line(&index.label(relation)),
        other: line(&index.label(other)),
    }
}

/// The facts behind a section, kept as ids: a hub can have 100,000 edges, and naming them all
/// on every frame would make each keypress wait.
#[derive(Clone, Copy)]
enum Facts<'a> {
    /// Facts with the entity as subject: the object is the other end.
    From(&'a [Fact]),
    /// Indices of the facts with the entity as object: the subject is the other end.
    To(&'a [u32]),
}

impl Facts<'_> {
    fn len(self) -> usize {
        match self {
            Facts::From(f) => f.len(),
            Facts::To(ix) => ix.len(),
        }
    }
}

/// A heading and the edges under it, as the card's edge list shows them.
#[derive(Clone)]
pub struct Section<'a> {
    index: &'a KgIndex,
    /// Sanitised.
    pub heading: String,
    facts: Facts<'a>,
}

impl<'a> Section<'a> {
    pub fn len(&self) -> usize {
        self.facts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `→` for edges leaving the entity the section is about, `←` for edges arriving at it.
    pub fn arrow(&self) -> &'static str {
        match self.facts {
            Facts::From(_) => "→",
            Facts::To(_) => "←",
        }
    }

    /// Up to `n` edges from the `skip`th on, named; only these are built.
    pub fn edges(&self, skip: usize, n: usize) -> Vec<Edge> {
        let end = self.len().min(skip.saturating_add(n));
        (skip.min(end)..end).map(|i| self.edge(i)).collect()
    }

    fn edge(&self, i: usize) -> Edge {
        let (relation, other) = match self.facts {
            Facts::From(f) => (f[i][1], f[i][2]),
            Facts::To(ix) => {
                let f = self.index.facts()[ix[i] as usize];
                (f[1], f[0])
            }
        };
        named_edge(self.index, relation, other)
    }
}

/// A line of the card's edge list.
#[derive(Debug, Clone, PartialEq)]
pub enum Row {
    Heading(String),
    /// `number` counts edges from 1 over the whole list, for "edges 41–60 of 312".
    Edge {
        number: usize,
        arrow: &'static str,
        edge: Edge,
    },
}

#[derive(Clone)]
pub struct Card<'a> {
    pub iri: String,
    pub label: String,
    /// Every label: the preferred one (`label`) first, then the others.
    pub labels: Vec<String>,
    pub aliases: Vec<String>,
    pub types: Vec<String>,
    /// The date-valued facts, values as the KG writes them ("inception → 1776-07-04").
    pub dates: Vec<Edge>,
    pub outgoing: Section<'a>,
    pub incoming: Section<'a>,
    /// With two hops: a section per neighbour, with the neighbour's own outgoing edges.
    pub second_hop: Vec<Section<'a>>,
}

impl<'a> Card<'a> {
    pub fn degree(&self) -> usize {
        self.outgoing.len() + self.incoming.len()
    }

    /// The edge list's sections, in the order it shows them.
    pub fn sections(&self) -> impl Iterator<Item = &Section<'a>> {
        [&self.outgoing, &self.incoming]
            .into_iter()
            .chain(&self.second_hop)
    }

    /// Lines of the edge list: one per heading and one per edge.
    pub fn row_count(&self) -> usize {
        self.sections().map(|s| 1 + s.len()).sum()
    }

    /// Edges in the list, over every section.
    pub fn edge_count(&self) -> usize {
        self.sections().map(Section::len).sum()
    }

    /// [`Card::rows`], with the heading of the section line `first` falls in kept on top
    /// ("… (continued)") when that line is one of its edges: scrolled into a section, an edge
    /// is never shown without the heading that says whose it is (a second hop's "via …").
    /// The heading takes the window's last line; the list scrolls to its last line, so every
    /// edge still comes into view.
    pub fn rows_sticky(&self, first: usize, n: usize) -> Vec<Row> {
        let mut line = 0;
        for s in self.sections() {
            if first > line && first <= line + s.len() && n > 1 {
                let mut out = vec![Row::Heading(format!("{} (continued)", s.heading))];
                out.extend(self.rows(first, n - 1));
                return out;
            }
            line += 1 + s.len();
        }
        self.rows(first, n)
    }

    /// Up to `n` lines of the edge list from line `first` on; only these are built.
    pub fn rows(&self, first: usize, n: usize) -> Vec<Row> {
        let end = first.saturating_add(n);
        let mut out = Vec::new();
        // The line of the current section's heading, and the edges before that section.
        let (mut heading, mut before) = (0, 0);
        for s in self.sections() {
            if heading >= end {
                break;
            }
            if heading >= first {
                out.push(Row::Heading(s.heading.clone()));
            }
            // The section's edges are lines heading+1 ..= heading+len.
            let skip = first.saturating_sub(heading + 1);
            let take = end.saturating_sub(heading + 1).saturating_sub(skip);
            for (k, edge) in s.edges(skip, take).into_iter().enumerate() {
                out.push(Row::Edge {
                    number: before + skip + k + 1,
                    arrow: s.arrow(),
                    edge,
                });
            }
            heading += 1 + s.len();
            before += s.len();
        }
        out
    }
}

/// Neighbours shown with two hops; a hub's full second hop would not fit any screen.
const SECOND_HOP_MAX: usize = 12;

/// Up to [`SECOND_HOP_MAX`] neighbours of `e` with edges of their own, each once: the
/// entities it points at and those pointing at it, half each where both have enough.
fn second_hop(index: &KgIndex, e: Id) -> Vec<Section<'_>> {
    let mut seen = std::collections::HashSet::from([e]);
    let targets: Vec<Id> = index
        .facts_from(e)
        .iter()
        .map(|f| f[2])
        .filter(|&n| !index.facts_from(n).is_empty() && seen.insert(n))
        .take(SECOND_HOP_MAX)
        .collect();
    // A subject always has an edge of its own: the one pointing at `e`.
    let sources: Vec<Id> = index
        .facts_to(e)
        .iter()
        .map(|&i| index.facts()[i as usize][0])
        .filter(|&n| seen.insert(n))
        .take(SECOND_HOP_MAX)
        .collect();
    let n_sources = sources
        .len()
        .min(SECOND_HOP_MAX - targets.len().min(SECOND_HOP_MAX / 2));
    let n_targets = targets.len().min(SECOND_HOP_MAX - n_sources);
    let via = |n: Id, how: &str| Section {
        index,
        heading: format!("via {}{how}", line(&index.label(n))),
        facts: Facts::From(index.facts_from(n)),
    };
    targets[..n_targets]
        .iter()
        .map(|&n| via(n, ""))
        .chain(
            sources[..n_sources]
                .iter()
                .map(|&n| via(n, ", which links here")),
        )
        .collect()
}

pub fn card(index: &KgIndex, e: Id, hops: u8) -> Card<'_> {
    let section = |heading: &str, facts| Section {
        index,
        heading: format!("{heading} ({})", Facts::len(facts)),
        facts,
    };
    let label = line(&index.label(e));
    Card {
        iri: line(crate::kg::term_str(index.term(e))),
        labels: std::iter::once(label.clone())
            .chain(index.other_labels_of(e).iter().map(|l| line(l)))
            .collect(),
        label,
        aliases: index.aliases_of(e).iter().map(|a| line(a)).collect(),
        types: index
            .types_of(e)
            .iter()
            .map(|&t| line(&index.label(t)))
            .collect(),
        dates: index
            .dates_of(e)
            .map(|f| named_edge(index, f[1], f[2]))
            .collect(),
        outgoing: section("outgoing", Facts::From(index.facts_from(e))),
        incoming: section("incoming", Facts::To(index.facts_to(e))),
        second_hop: if hops >= 2 {
            second_hop(index, e)
        } else {
            Vec::new()
        },
    }
}

/// The card of an entity given by IRI, if the KG knows it.
pub fn card_of_iri<'a>(index: &'a KgIndex, iri: &str) -> Option<Card<'a>> {
    index.iri_id(iri).map(|id| card(index, id, 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kg::local::LocalKg;

    /// A hub with three outgoing edges, `spokes` entities pointing at it, and a neighbour
    /// ("Region") that has edges of its own.
    fn hub_kg(spokes: usize) -> (KgIndex, Id) {
        let mut ttl = String::from(
            "@prefix ex: <http://example.org/> .\n\
             @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
             @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\
             ex:hub rdfs:label \"Hub\"@en ; ex:founded \"1776-07-04\"^^xsd:date ; ex:partOf ex:region ; ex:twin ex:s00 .\n\
             ex:region rdfs:label \"Region\"@en ; ex:in ex:country .\n",
        );
        for i in 0..spokes {
            ttl.push_str(&format!(
                "ex:s{i:02} rdfs:label \"Spoke {i:02}\"@en ; ex:linksTo ex:hub ; ex:colour ex:red .\n"
            ));
        }
        let kg = LocalKg::from_turtle(&ttl, "test").unwrap();
        let index = KgIndex::build(&kg, &|_| {}).unwrap();
        let hub = index.iri_id("http://example.org/hub").unwrap();
        (index, hub)
    }

    #[test]
    fn exact_label_and_alias_matches_rank_first_and_say_why() {
        let ttl = "@prefix ex: <http://example.org/> .\n\
             @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
             @prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n\
             ex:a rdfs:label \"Iron-45\"@en ; ex:p ex:c .\n\
             ex:b rdfs:label \"Ironwood\"@en ; ex:p ex:c .\n\
             ex:c rdfs:label \"Iron\"@en ; skos:altLabel \"Fe\"@en .\n\
             ex:d rdfs:label \"Felix Iron\"@en ; ex:p ex:c .\n";
        let kg = LocalKg::from_turtle(ttl, "test").unwrap();
        let index = KgIndex::build(&kg, &|_| {}).unwrap();
        let entries = entries(&index);
        let mut m = new_matcher();
        let labels = |h: &Hits| -> Vec<String> {
            h.entries
                .iter()
                .map(|&i| entries[i].label.clone())
                .collect()
        };
        let iron = search(&entries, "iron", &mut m);
        // Exact label, then labels starting with it, then the rest.
        let l = labels(&iron);
        assert_eq!(l[0], "Iron");
        let mut prefixed = l[1..3].to_vec();
        prefixed.sort();
        assert_eq!(prefixed, ["Iron-45", "Ironwood"]);
        assert_eq!(l[3], "Felix Iron");
        assert_eq!(iron.via[0], 0, "matched by its label");
        let fe = search(&entries, "FE", &mut m);
        assert_eq!(
            labels(&fe)[0],
            "Iron",
            "an exact alias beats a label starting with it"
        );
        let why = entries[fe.entries[0]].matched_by(fe.via[0]);
        assert_eq!(why.as_deref(), Some("alias: Fe"));
        assert_eq!(labels(&fe)[1], "Felix Iron");
        assert_eq!(entries[fe.entries[1]].matched_by(fe.via[1]), None);
        assert!(search(&entries, "", &mut m).via.is_empty());
    }

    fn numbers(rows: &[Row]) -> Vec<usize> {
        rows.iter()
            .filter_map(|r| match r {
                Row::Edge { number, .. } => Some(*number),
                Row::Heading(_) => None,
            })
            .collect()
    }

    #[test]
    fn rows_are_built_only_for_the_window_asked_for() {
        let (index, hub) = hub_kg(40);
        let c = card(&index, hub, 1);
        assert_eq!((c.outgoing.len(), c.incoming.len()), (3, 40));
        assert_eq!(c.edge_count(), 43);
        assert_eq!(c.row_count(), 45);
        let top = c.rows(0, 5);
        assert_eq!(top[0], Row::Heading("outgoing (3)".into()));
        assert_eq!(top[4], Row::Heading("incoming (40)".into()));
        assert_eq!(numbers(&top), [1, 2, 3]);
        // Line 10 is the 6th edge of the incoming section: edge number 3 + 6.
        let mid = c.rows(10, 4);
        assert_eq!(mid.len(), 4);
        assert_eq!(numbers(&mid), [9, 10, 11, 12]);
        let Row::Edge { arrow, edge, .. } = &mid[0] else {
            panic!("{mid:?}")
        };
        assert_eq!(*arrow, "←");
        assert_eq!(edge.other, "Spoke 05");
        assert_eq!(numbers(&c.rows(40, 100)), [39, 40, 41, 42, 43]);
        assert!(c.rows(45, 10).is_empty());
    }

    #[test]
    fn a_section_scrolled_into_keeps_its_heading_on_top() {
        let (index, hub) = hub_kg(40);
        let c = card(&index, hub, 1);
        // On a heading: nothing to add.
        assert_eq!(c.rows_sticky(4, 3), c.rows(4, 3));
        // Line 10 is an incoming edge: the incoming heading comes first, then the edges.
        let mid = c.rows_sticky(10, 4);
        assert_eq!(mid[0], Row::Heading("incoming (40) (continued)".into()));
        assert_eq!(numbers(&mid), [9, 10, 11]);
        // The last line scrolled to the top still shows the last edge under its heading.
        let last = c.rows_sticky(c.row_count() - 1, 5);
        assert_eq!(last[0], Row::Heading("incoming (40) (continued)".into()));
        assert_eq!(numbers(&last), [43]);
    }

    #[test]
    fn two_hops_follow_incoming_neighbours_too_capped() {
        let (index, hub) = hub_kg(40);
        let c = card(&index, hub, 2);
        let headings: Vec<&str> = c.second_hop.iter().map(|s| s.heading.as_str()).collect();
        assert_eq!(headings.len(), SECOND_HOP_MAX, "{headings:?}");
        // Both outgoing neighbours with edges, then the incoming ones; s00 is both and shows once.
        assert_eq!(headings[0], "via Region");
        assert_eq!(headings[1], "via Spoke 00");
        assert_eq!(headings[2], "via Spoke 01, which links here");
        assert!(headings[2..]
            .iter()
            .all(|h| h.ends_with(", which links here")));
        let spoke = &c.second_hop[2];
        assert_eq!(spoke.arrow(), "→");
        assert!(spoke
            .edges(0, 10)
            .iter()
            .any(|e| e.relation == "linksTo" && e.other == "Hub"));
        // A small neighbourhood shows every neighbour.
        let (index, hub) = hub_kg(2);
        assert_eq!(card(&index, hub, 2).second_hop.len(), 3);
        assert!(card(&index, hub, 1).second_hop.is_empty());
    }

    #[test]
    fn the_card_has_every_label_and_the_full_dates() {
        let kg = LocalKg::from_turtle(
            "@prefix ex: <http://example.org/> .\n\
             @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
             @prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n\
             @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\
             ex:us rdfs:label \"United States\"@en, \"États-Unis\"@fr ;\n\
             \x20   skos:prefLabel \"United States of America\"@en ; skos:altLabel \"USA\"@en ;\n\
             \x20   ex:inception \"1776-07-04\"^^xsd:date ; ex:capital ex:dc .\n",
            "test",
        )
        .unwrap();
        let index = KgIndex::build(&kg, &|_| {}).unwrap();
        let us = index.iri_id("http://example.org/us").unwrap();
        let c = card(&index, us, 1);
        assert_eq!(c.labels, ["United States", "United States of America"]);
        assert_eq!(c.aliases, ["USA"]);
        assert_eq!(
            c.dates,
            [Edge {
                relation: "inception".into(),
                other: "1776-07-04".into()
            }]
        );
        // The other labels are searchable too.
        let entries = entries(&index);
        let hits = search(&entries, "of America", &mut new_matcher());
        assert_eq!(entries[hits.entries[0]].id, us);
        let why = entries[hits.entries[0]].matched_by(hits.via[0]);
        assert_eq!(why.as_deref(), Some("label: United States of America"));
    }
}

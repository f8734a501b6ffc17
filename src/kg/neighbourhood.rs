//! Bounded breadth-first search over a KG index's facts, for KG-FPQ's "neighbour of the
//! subject within H hops" (KG-FPQ, Zhu et al., 2024, §3.1).
//!
//! A fact `s → o` links `s` and `o` both ways: the paper counts hops between entities in the
//! KG, whatever the direction of the edges ("Liverpool is a 1-hop neighbor of John Lennon").
//! Only entity nodes (IRIs, blank nodes) are walked through; a literal is never a neighbour,
//! otherwise two people born in the same year would be two hops apart. The facts are the
//! index's, so labels, types and aliases never link anything: two cities are not neighbours
//! because both are of type "city".
//!
//! Each node is expanded once, and nodes at the last hop are never expanded, so a hub (a
//! continent with fifty countries) costs its degree once per search, not once per path.

use std::collections::{HashMap, VecDeque};

use super::index::{Fact, Id, KgIndex};

/// Whether `id` is a node the search walks through (IRIs and blank nodes, never literals).
pub fn is_entity_node(index: &KgIndex, id: Id) -> bool {
    !matches!(index.term(id), super::Term::Literal(_))
}

/// The entity neighbours of `e` through one fact, each with the fact that links them, in fact
/// order: outgoing facts first, then incoming ones.
fn links<'a>(index: &'a KgIndex, e: Id) -> impl Iterator<Item = (Id, &'a Fact)> + 'a {
    let out = index
        .facts_from(e)
        .iter()
        .filter(move |f| is_entity_node(index, f[2]))
        .map(|f| (f[2], f));
    // Incoming facts have an IRI subject by construction of the index.
    let incoming = index.facts_to(e).iter().map(move |&i| {
        let f = &index.facts()[i as usize];
        (f[0], f)
    });
    out.chain(incoming)
}

/// The hop distance from `start` of every entity within `max_hops` of it, `start` itself at 0.
/// A literal `start` has no neighbours (it is still at 0).
pub fn hops_from(index: &KgIndex, start: Id, max_hops: u8) -> HashMap<Id, u8> {
    let mut dist: HashMap<Id, u8> = HashMap::new();
    dist.insert(start, 0);
    if !is_entity_node(index, start) {
        return dist;
    }
    let mut queue = VecDeque::from([start]);
    while let Some(e) = queue.pop_front() {
        let d = dist[&e];
        if d >= max_hops {
            // BFS order: every node left in the queue is at max_hops too.
            break;
        }
        for (n, _) in links(index, e) {
            if let std::collections::hash_map::Entry::Vacant(v) = dist.entry(n) {
                v.insert(d + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

/// The facts of one shortest path from `from` to `to` of at most `max_hops` facts, in walking
/// order (each fact as stored, so a fact walked backwards has `to`'s side as its subject);
/// `Some(vec![])` when `from == to`, `None` when `to` is farther or not an entity. The path is
/// the first BFS finds, expanding links in fact order, so it is the same on every call.
pub fn path(index: &KgIndex, from: Id, to: Id, max_hops: u8) -> Option<Vec<Fact>> {
    if from == to {
        return Some(Vec::new());
    }
    if !is_entity_node(index, from) || !is_entity_node(index, to) {
        return None;
    }
    // node -> (hops, the node it was reached from, the fact that links them)
    let mut seen: HashMap<Id, (u8, Id, Fact)> = HashMap::new();
    seen.insert(from, (0, from, [from; 3]));
    let mut queue = VecDeque::from([from]);
    while let Some(e) = queue.pop_front() {
        let d = seen[&e].0;
        if d >= max_hops {
            break;
        }
        for (n, f) in links(index, e) {
            if seen.contains_key(&n) {
                continue;
            }
            seen.insert(n, (d + 1, e, *f));
            if n == to {
                let mut facts = Vec::with_capacity(usize::from(d) + 1);
                let mut at = to;
                while at != from {
                    let (_, prev, fact) = seen[&at];
                    facts.push(fact);
                    at = prev;
                }
                facts.reverse();
                return Some(facts);
            }
            queue.push_back(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kg::local::LocalKg;

    /// a → b → c → d → e → f → g, h → c (incoming), b has a literal, and x is unconnected.
    fn chain() -> KgIndex {
        let kg = LocalKg::from_turtle(
            "@prefix ex: <http://example.org/> .\n\
             @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n\
             ex:a ex:p ex:b . ex:b ex:p ex:c . ex:c ex:p ex:d . ex:d ex:p ex:e .\n\
             ex:e ex:p ex:f . ex:f ex:p ex:g . ex:h ex:q ex:c .\n\
             ex:b ex:year \"1900\" . ex:x ex:year \"1900\" .\n\
             ex:a rdf:type ex:T . ex:x rdf:type ex:T .\n",
            "test",
        )
        .unwrap();
        KgIndex::build(&kg, &|_| {}).unwrap()
    }

    fn id(index: &KgIndex, name: &str) -> Id {
        index
            .iri_id(&format!("http://example.org/{name}"))
            .unwrap_or_else(|| panic!("no {name}"))
    }

    #[test]
    fn hops_go_both_ways_and_stop_at_the_bound() {
        let ix = chain();
        let hops = hops_from(&ix, id(&ix, "c"), 2);
        let at = |n: &str| hops.get(&id(&ix, n)).copied();
        assert_eq!(at("c"), Some(0));
        assert_eq!(at("b"), Some(1));
        assert_eq!(at("d"), Some(1));
        // An incoming fact links too.
        assert_eq!(at("h"), Some(1));
        assert_eq!(at("a"), Some(2));
        assert_eq!(at("e"), Some(2));
        assert_eq!(at("f"), None);
        assert_eq!(hops.len(), 6, "{hops:?}");
        let far = hops_from(&ix, id(&ix, "a"), 5);
        assert_eq!(far.get(&id(&ix, "f")), Some(&5));
        assert_eq!(far.get(&id(&ix, "g")), None);
    }

    #[test]
    fn literals_and_types_link_nothing() {
        let ix = chain();
        // b and x share the literal "1900" and a and x the type T: neither makes a path.
        let hops = hops_from(&ix, id(&ix, "x"), 5);
        assert_eq!(hops.len(), 1, "{hops:?}");
        assert!(hops_from(&ix, id(&ix, "b"), 5)
            .keys()
            .all(|n| is_entity_node(&ix, *n)));
        assert_eq!(path(&ix, id(&ix, "b"), id(&ix, "x"), 5), None);
    }

    #[test]
    fn a_path_is_the_facts_of_a_shortest_walk() {
        let ix = chain();
        let (a, h) = (id(&ix, "a"), id(&ix, "h"));
        let p = path(&ix, a, h, 5).unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(p[0][0], a);
        // The last fact is h → c, walked backwards.
        assert_eq!(p[2], [h, id(&ix, "q"), id(&ix, "c")]);
        assert!(p.iter().all(|f| ix.contains(f)));
        assert_eq!(path(&ix, a, h, 2), None);
        assert_eq!(path(&ix, a, a, 0), Some(vec![]));
        // Every entity's path length is its hop count.
        for (n, d) in hops_from(&ix, a, 5) {
            assert_eq!(path(&ix, a, n, 5).map(|p| p.len()), Some(usize::from(d)));
        }
    }
}

//! The subgraph a KGLens run evaluates (Zheng et al., 2024, §4.1 and appendix 6.1): random walks
//! of k steps, forward (entity → its objects) and backward (entity ← its subjects), from
//! central entities the user chose, with predicates filtered by an exclusion list and, as the
//! paper does, optionally without entities that have no alias. With no central entity, every
//! fact that passes the filters.
//!
//! The paper's walk is a pair of queries per step over the whole frontier, each in random order
//! with a LIMIT. Ours is the same on the index: per step and direction, the frontier's facts in
//! a seeded order, at most `width` of them. An entity reached at step i is the frontier of
//! step i + 1; literals end a walk.

use std::collections::{BTreeSet, HashSet};

use oxigraph::model::Term;

use super::index::{Fact, Id, KgIndex};
use crate::sampling;

/// How the subgraph is grown.
#[derive(Debug, Clone)]
pub struct Walk {
    /// Central entities; none = the whole KG.
    pub centres: Vec<Id>,
    /// Steps forward and backward from the centres (the paper: 3).
    pub steps: usize,
    /// Most facts taken per step and direction.
    pub width: usize,
    /// Predicates never taken.
    pub excluded: Vec<Id>,
    /// Leave out facts whose subject, or whose object when it is an entity, has no alias.
    pub require_aliases: bool,
    pub seed: u64,
}

/// The facts (indices into [`KgIndex::facts`], sorted) of the subgraph, each passing `keep`
/// (the caller's rule for facts that can be asked at all) and the walk's filters.
pub fn collect(index: &KgIndex, walk: &Walk, keep: impl Fn(usize) -> bool) -> Vec<usize> {
    let excluded: HashSet<Id> = walk.excluded.iter().copied().collect();
    let aliased = |e: Id| !index.aliases_of(e).is_empty();
    let is_entity = |e: Id| matches!(index.term(e), Term::NamedNode(_) | Term::BlankNode(_));
    let allowed = |i: usize| {
        let f: &Fact = &index.facts()[i];
        !excluded.contains(&f[1])
            && (!walk.require_aliases || (aliased(f[0]) && (!is_entity(f[2]) || aliased(f[2]))))
            && keep(i)
    };
    if walk.centres.is_empty() {
        return (0..index.facts().len()).filter(|&i| allowed(i)).collect();
    }
    let mut taken = BTreeSet::new();
    let mut seen: HashSet<Id> = walk.centres.iter().copied().collect();
    let mut frontier: Vec<Id> = walk.centres.clone();
    frontier.sort_unstable();
    frontier.dedup();
    for step in 0..walk.steps {
        let mut next = Vec::new();
        for forward in [true, false] {
            let mut candidates: Vec<usize> = Vec::new();
            for &e in &frontier {
                if forward {
                    let start = index.facts().partition_point(|f| f[0] < e);
                    let n = index.facts_from(e).len();
                    candidates.extend(start..start + n);
                } else {
                    candidates.extend(index.facts_to(e).iter().map(|&i| i as usize));
                }
            }
            candidates.retain(|&i| !taken.contains(&i) && allowed(i));
            candidates.sort_unstable();
            candidates.dedup();
            let key = format!("walk:{step}:{forward}");
            let picked = sampling::uniform(
                &candidates,
                walk.width,
                &mut sampling::item_rng(walk.seed, &key),
            );
            for i in picked {
                taken.insert(i);
                let f = index.facts()[i];
                let reached = if forward { f[2] } else { f[0] };
                if is_entity(reached) && seen.insert(reached) {
                    next.push(reached);
                }
            }
        }
        next.sort_unstable();
        frontier = next;
        if frontier.is_empty() {
            break;
        }
    }
    taken.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> KgIndex {
        // A chain a → b → c → d → e, a side branch x → b, and f unconnected; "b" has no alias.
        let kg = crate::kg::local::LocalKg::from_turtle(
            "@prefix ex: <http://example.org/> .\n\
             @prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n\
             ex:a ex:next ex:b ; skos:altLabel \"A\" . ex:b ex:next ex:c .\n\
             ex:c ex:next ex:d ; skos:altLabel \"C\" . ex:d ex:next ex:e ; skos:altLabel \"D\" .\n\
             ex:e skos:altLabel \"E\" . ex:x ex:side ex:b ; skos:altLabel \"X\" .\n\
             ex:f ex:next ex:g ; ex:year 1990 .\n",
            "test",
        )
        .unwrap();
        KgIndex::build(&kg, &|_| {}).unwrap()
    }

    fn names(ix: &KgIndex, facts: &[usize]) -> Vec<String> {
        facts
            .iter()
            .map(|&i| {
                let f = ix.facts()[i];
                format!("{}-{}", ix.label(f[0]), ix.label(f[2]))
            })
            .collect()
    }

    fn walk(ix: &KgIndex, centre: &str, steps: usize) -> Walk {
        Walk {
            centres: vec![ix.iri_id(&format!("http://example.org/{centre}")).unwrap()],
            steps,
            width: 100,
            excluded: vec![],
            require_aliases: false,
            seed: 1,
        }
    }

    #[test]
    fn walks_go_k_steps_both_ways() {
        let ix = index();
        // From c: step 1 forward c-d, backward b-c; step 2 from {b, d}: d-e, a-b and x-b.
        let mut got = names(&ix, &collect(&ix, &walk(&ix, "c", 2), |_| true));
        got.sort();
        assert_eq!(got, ["a-b", "b-c", "c-d", "d-e", "x-b"]);
        let got = names(&ix, &collect(&ix, &walk(&ix, "c", 1), |_| true));
        assert_eq!(got.len(), 2, "{got:?}");
        // f's facts are never reached from c.
        let all = collect(&ix, &walk(&ix, "c", 9), |_| true);
        assert_eq!(all.len(), 5);
    }

    #[test]
    fn filters_and_the_whole_kg() {
        let ix = index();
        let mut w = walk(&ix, "c", 2);
        w.excluded = vec![ix.iri_id("http://example.org/side").unwrap()];
        assert!(!names(&ix, &collect(&ix, &w, |_| true)).contains(&"x-b".to_string()));
        // Without aliases, b's facts go, and with them the walk's only way to a and x.
        w.require_aliases = true;
        let mut got = names(&ix, &collect(&ix, &w, |_| true));
        got.sort();
        assert_eq!(got, ["c-d", "d-e"]);
        // No centre: every fact (the year literal included), filtered by `keep`.
        w.centres.clear();
        w.require_aliases = false;
        w.excluded.clear();
        assert_eq!(collect(&ix, &w, |_| true).len(), ix.facts().len());
        assert_eq!(collect(&ix, &w, |i| i == 0), [0]);
    }

    #[test]
    fn the_width_caps_each_step_and_the_seed_picks() {
        let ix = index();
        let mut w = walk(&ix, "b", 1);
        // b: forward b-c, backward a-b and x-b; width 1 keeps one of each direction.
        w.width = 1;
        let one = collect(&ix, &w, |_| true);
        assert_eq!(one.len(), 2);
        assert_eq!(one, collect(&ix, &w, |_| true), "seeded");
    }
}

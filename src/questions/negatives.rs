//! GraphEval negatives: replace exactly one of head, relation or tail with a random one from
//! the KG, so that the corrupted triple is not a KG triple.
//!
//! The paper does not check that a corruption is really false; kgscope does (METHODS.md §1):
//! a draw that lands on a KG triple, on the original, or on a negative already made for this
//! positive is thrown away and drawn again, with a fresh uniform choice of position.

use std::collections::HashSet;

use rand::Rng;

use super::Corruption;
use crate::kg::index::{Fact, KgIndex};
use crate::sampling::SeededRng;

/// Draws per negative before giving up on it (a tiny or near-complete KG may have none).
const ATTEMPTS: usize = 64;

pub fn corrupt(
    index: &KgIndex,
    fact: &Fact,
    k: usize,
    rng: &mut SeededRng,
) -> Vec<(Fact, Corruption)> {
    let entities = index.entities();
    let relations = index.relations();
    let objects = index.objects();
    let mut made: Vec<(Fact, Corruption)> = Vec::with_capacity(k);
    let mut seen: HashSet<Fact> = HashSet::new();
    for _ in 0..k {
        for _ in 0..ATTEMPTS {
            let mut f = *fact;
            // Uniformly which position (METHODS.md §1).
            let position = match rng.random_range(0..3) {
                0 if !entities.is_empty() => {
                    f[0] = entities[rng.random_range(0..entities.len())];
                    Corruption::Head
                }
                1 if !relations.is_empty() => {
                    f[1] = relations[rng.random_range(0..relations.len())].predicate;
                    Corruption::Relation
                }
                2 if !objects.is_empty() => {
                    f[2] = objects[rng.random_range(0..objects.len())];
                    Corruption::Tail
                }
                _ => continue,
            };
            if f != *fact && !index.contains(&f) && seen.insert(f) {
                made.push((f, position));
                break;
            }
        }
    }
    made
}

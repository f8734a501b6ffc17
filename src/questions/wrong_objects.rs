//! Wrong objects for a fact, shared by the formats that ask about one (KGLens' "No" questions,
//! Luo et al.'s false statements, distractors and antifactual contexts).

use std::collections::HashMap;

use crate::kg::index::{Fact, Id, KgIndex};

/// Wrong objects for facts: a relation's objects that are not the subject's objects for it,
/// and do not share a name with one ("Kingston" for Jamaica when Norfolk Island's Kingston is
/// drawn would read as right), nor one a reader rejects without the asked knowledge
/// ([`super::fair`]). Names are worked out once per relation.
pub struct WrongObjects<'a> {
    index: &'a KgIndex,
    names: HashMap<Id, Vec<String>>,
    /// Leave out the wrong objects [`super::fair`] finds unfair (`--negatives-from fair`);
    /// `typed` keeps the draw of the runs made before, so that they resume with their own
    /// questions.
    fair: bool,
}

impl<'a> WrongObjects<'a> {
    pub fn new(index: &'a KgIndex) -> Self {
        Self::drawn(index, super::NegativesFrom::Fair)
    }

    /// Wrong objects as `from` draws them: fair ones only, or any of the relation's.
    pub fn drawn(index: &'a KgIndex, from: super::NegativesFrom) -> Self {
        Self {
            index,
            names: HashMap::new(),
            fair: from == super::NegativesFrom::Fair,
        }
    }

    /// The relation's wrong objects for `fact`'s subject, in id order: never the subject itself
    /// ("Guatemala shares a land border with Guatemala" is false, but no question).
    pub fn of(&mut self, fact: &Fact) -> Vec<Id> {
        let ix = self.index;
        let truths = ix.objects_of(fact[0], fact[1]);
        let objects = ix.objects_of_predicate(fact[1]);
        let names = self.names.entry(fact[1]).or_insert_with(|| {
            objects
                .iter()
                .map(|o| ix.label(*o).to_lowercase())
                .collect()
        });
        let true_names: Vec<&String> = truths
            .iter()
            .filter_map(|t| objects.binary_search(t).ok().map(|i| &names[i]))
            .collect();
        objects
            .iter()
            .zip(names.iter())
            .filter(|(o, name)| {
                **o != fact[0]
                    && truths.binary_search(o).is_err()
                    && !true_names.contains(name)
                    && (!self.fair || super::fair::unfair_object(ix, fact, **o).is_none())
            })
            .map(|(o, _)| *o)
            .collect()
    }
}

/// A wrong object for `fact` drawn from `pool` with `rng`; when that one was asked already
/// about the same subject and relation (two true facts of a subject, two neighbours, drawing
/// the same wrong one: one question twice), the next one in the pool not asked yet. Records
/// the one returned in `asked`; `None` when the pool is empty or all of it was asked.
pub fn draw_fresh(
    pool: &[Id],
    fact: &Fact,
    rng: &mut crate::sampling::SeededRng,
    asked: &mut std::collections::HashSet<Fact>,
) -> Option<Id> {
    use rand::Rng;
    if pool.is_empty() {
        return None;
    }
    let start = rng.random_range(0..pool.len());
    let o = (0..pool.len())
        .map(|k| pool[(start + k) % pool.len()])
        .find(|&o| !asked.contains(&[fact[0], fact[1], o]))?;
    asked.insert([fact[0], fact[1], o]);
    Some(o)
}

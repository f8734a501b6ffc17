//! GraphEval negatives: replace exactly one of head, relation or tail of a true triple so that
//! the result is false (GraphEval, Liu et al., 2024).
//!
//! Two ways to draw the replacement:
//! - `typed` (the default): a replacement has the kind of what it replaces, so a model cannot
//!   reject the statement by type alone ("Guinea is Uruguay." tests nothing). A head is
//!   replaced by an entity of the head's type; a tail by an object the same relation has
//!   elsewhere (KGLens' C − T), or else by an entity of the tail's type; a relation by one
//!   whose domain and range, as seen in the KG, take both ends. The position is drawn
//!   uniformly over the positions that can be filled.
//! - `random`: the paper's behaviour, for reproducing its numbers: a uniformly random
//!   entity, relation or object, the position uniformly over the three.
//!
//! The paper does not check that a corruption is really false; kgscope does, both ways: a draw
//! that lands on a KG triple, on the original, on a negative already made for this positive, on
//! a triple whose subject is its object ("Austria shares a land border with Austria."), or on
//! one whose words are those of a true fact ("Gibraltar is Gibraltar." when two relations share
//! a template and two entities a label) is thrown away and drawn again.

use std::collections::{HashMap, HashSet};

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::signature::Signatures;
use super::{Corruption, Renderer};
use crate::kg::index::{Fact, Id, KgIndex};
use crate::sampling::SeededRng;

/// Where a negative's replacement comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum NegativesFrom {
    /// Of the same type as what it replaces, and false for the asked knowledge: never the other
    /// value of a two-valued split, another group's, a later era's, a subject that never has the
    /// relation or whose name gives its own answer away ([`super::fair`]).
    #[default]
    Fair,
    /// Of the same type as what it replaces (a relation: one that fits both ends), as kgscope
    /// drew them before `fair`: runs made with it resume with the same questions.
    Typed,
    /// Uniformly from every entity, relation or object (GraphEval's paper).
    Random,
}

impl NegativesFrom {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Fair => "fair",
            Self::Typed => "typed",
            Self::Random => "random",
        }
    }
}

/// Random draws per position before the candidates are checked one by one.
const ATTEMPTS: usize = 64;
/// Most candidates checked one by one when every random draw failed; beyond that the position
/// counts as not fillable (in practice only tiny or near-complete pools get there).
const EXHAUSTIVE: usize = 20_000;

pub struct Corrupter<'a> {
    r: &'a Renderer<'a>,
    from: NegativesFrom,
    sigs: Signatures,
    /// Subjects by lower-cased label: the only facts whose words can equal a negative's.
    by_label: HashMap<String, Vec<Id>>,
    /// Pairs of relations found to be near-synonyms or not ([`super::fair::near_synonyms`]).
    synonyms: std::cell::RefCell<HashMap<(Id, Id), bool>>,
}

impl<'a> Corrupter<'a> {
    pub fn new(r: &'a Renderer<'a>, from: NegativesFrom) -> Self {
        let index = r.index;
        let mut by_label: HashMap<String, Vec<Id>> = HashMap::new();
        let mut last = None;
        for f in index.facts() {
            if last != Some(f[0]) {
                by_label
                    .entry(index.label(f[0]).to_lowercase())
                    .or_default()
                    .push(f[0]);
                last = Some(f[0]);
            }
        }
        Self {
            r,
            from,
            sigs: Signatures::build(index),
            by_label,
            synonyms: Default::default(),
        }
    }

    pub fn signatures(&self) -> &Signatures {
        &self.sigs
    }

    /// Whether `f`'s statement reads exactly like a true fact's (case aside).
    pub fn true_in_words(&self, f: &Fact) -> bool {
        let ix = self.r.index;
        let Some(same_subjects) = self.by_label.get(&ix.label(f[0]).to_lowercase()) else {
            return false;
        };
        let object = ix.label(f[2]).to_lowercase();
        let mut text: Option<String> = None;
        for &s in same_subjects {
            for g in ix.facts_from(s) {
                if g != f && ix.label(g[2]).to_lowercase() == object {
                    let text = text.get_or_insert_with(|| self.r.statement(f).to_lowercase());
                    if self.r.statement(g).to_lowercase() == *text {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn acceptable(&self, fact: &Fact, f: &Fact, seen: &HashSet<Fact>) -> bool {
        f != fact
            && self.r.index.knows_false(f)
            && !seen.contains(f)
            && !self.names_itself(f)
            && !self.true_in_words(f)
            // GraphEval's random draw is kept as it was, to repeat earlier runs.
            // Only `fair` applies the checks: `typed` and GraphEval's random draw are kept as
            // they were, to repeat earlier runs.
            && (self.from != NegativesFrom::Fair || self.fair(fact, f))
    }

    /// Whether the negative `f` of `fact` is false for the asked knowledge, not for another
    /// reason ([`super::fair`]); a replaced subject also answers the relation elsewhere when
    /// enough subjects do ("Germany holds the largest reserves of Meitnerium" is false
    /// because no one mines it, not because of where it is mined).
    fn fair(&self, fact: &Fact, f: &Fact) -> bool {
        let ix = self.r.index;
        // A subject whose name gives its own answer to the (new) relation makes the claim
        // plainly false ("The home city of the Milwaukee Bucks is San Francisco", "The IOC code
        // of Bhutan is BTN" beside its BHU).
        let gives_own = || {
            ix.objects_of(f[0], f[1])
                .into_iter()
                .any(|o| super::grammar::names_answer(ix, f[0], o))
        };
        if (f[0] != fact[0] || f[1] != fact[1]) && gives_own() {
            return false;
        }
        if f[0] != fact[0] {
            let answers_elsewhere = || ix.facts_from(f[0]).iter().any(|g| g[1] == f[1]);
            let subjects = self.sigs.of(f[1]).map_or(0, |s| s.subjects.len());
            super::fair::unfair_subject(ix, fact, f[0]).is_none()
                && (subjects < MANY_SUBJECTS || answers_elsewhere())
        } else if f[2] != fact[2] && f[1] == fact[1] {
            super::fair::unfair_object(ix, fact, f[2]).is_none()
        } else if f[1] != fact[1] {
            // A relation swapped for one that states the same value for most subjects (a
            // franchise's founding and its first season) makes a claim the world does not
            // tell from the true one.
            let key = (fact[1].min(f[1]), fact[1].max(f[1]));
            let near = *self
                .synonyms
                .borrow_mut()
                .entry(key)
                .or_insert_with(|| super::fair::near_synonyms(ix, key.0, key.1));
            !near
        } else {
            true
        }
    }

    /// "Austria shares a land border with Austria.": false, but by reading, not knowledge.
    fn names_itself(&self, f: &Fact) -> bool {
        let ix = self.r.index;
        f[0] == f[2] || ix.label(f[0]).to_lowercase() == ix.label(f[2]).to_lowercase()
    }

    /// Up to `k` distinct negatives of `fact`.
    pub fn corrupt(&self, fact: &Fact, k: usize, rng: &mut SeededRng) -> Vec<(Fact, Corruption)> {
        let mut made: Vec<(Fact, Corruption)> = Vec::with_capacity(k);
        let mut seen: HashSet<Fact> = HashSet::new();
        for _ in 0..k {
            let negative = match self.from {
                NegativesFrom::Fair | NegativesFrom::Typed => self.typed(fact, rng, &seen),
                NegativesFrom::Random => self.random(fact, rng, &seen),
            };
            if let Some((f, how)) = negative {
                seen.insert(f);
                made.push((f, how));
            }
        }
        made
    }

    /// The positions a typed negative of `fact` can fill (in Head, Relation, Tail order).
    pub fn fillable(&self, fact: &Fact) -> Vec<Corruption> {
        let seen = HashSet::new();
        [Corruption::Head, Corruption::Relation, Corruption::Tail]
            .into_iter()
            .filter(|&pos| {
                let pool = self.pool(fact, pos);
                pool.all(self.r.index)
                    .iter()
                    .take(EXHAUSTIVE)
                    .any(|&c| self.acceptable(fact, &with(fact, pos, c), &seen))
            })
            .collect()
    }

    fn typed(
        &self,
        fact: &Fact,
        rng: &mut SeededRng,
        seen: &HashSet<Fact>,
    ) -> Option<(Fact, Corruption)> {
        let mut open: Vec<Corruption> = [Corruption::Head, Corruption::Relation, Corruption::Tail]
            .into_iter()
            .filter(|&pos| !self.pool(fact, pos).is_empty(self.r.index))
            .collect();
        // Uniform over the positions that turn out fillable: an unfillable one drawn is
        // dropped and the draw repeated among the rest.
        while !open.is_empty() {
            let pos = open[rng.random_range(0..open.len())];
            let pool = self.pool(fact, pos);
            let ok = |c: Id| self.acceptable(fact, &with(fact, pos, c), seen);
            for _ in 0..ATTEMPTS {
                if let Some(c) = pool.draw(self.r.index, rng) {
                    if ok(c) {
                        return Some((with(fact, pos, c), pos));
                    }
                }
            }
            let valid: Vec<Id> = pool
                .all(self.r.index)
                .into_iter()
                .take(EXHAUSTIVE)
                .filter(|&c| ok(c))
                .collect();
            if !valid.is_empty() {
                let c = valid[rng.random_range(0..valid.len())];
                return Some((with(fact, pos, c), pos));
            }
            open.retain(|p| *p != pos);
        }
        None
    }

    /// GraphEval's draw, kept as it was so `--negatives-from random` repeats earlier runs.
    fn random(
        &self,
        fact: &Fact,
        rng: &mut SeededRng,
        seen: &HashSet<Fact>,
    ) -> Option<(Fact, Corruption)> {
        let index = self.r.index;
        let (entities, relations, objects) = (index.entities(), index.relations(), index.objects());
        for _ in 0..ATTEMPTS {
            let mut f = *fact;
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
            if self.acceptable(fact, &f, seen) {
                return Some((f, position));
            }
        }
        None
    }

    fn pool(&self, fact: &Fact, pos: Corruption) -> Pool<'_> {
        let index = self.r.index;
        match pos {
            Corruption::Head => {
                let types = types_with_others(index, fact[0]);
                if !types.is_empty() {
                    Pool::Members(types)
                } else if index.types_of(fact[0]).is_empty() {
                    // An untyped head: the relation's other subjects are its kind.
                    Pool::Slice(self.sigs.of(fact[1]).map_or(&[], |s| &s.subjects))
                } else {
                    Pool::Slice(&[])
                }
            }
            Corruption::Relation => Pool::Owned(self.sigs.fitting_relations(index, fact)),
            Corruption::Tail => {
                let truths = index.objects_of(fact[0], fact[1]);
                let others = Pool::Except(index.objects_of_predicate(fact[1]), truths);
                if !others.is_empty(index) {
                    others
                } else {
                    Pool::Members(types_with_others(index, fact[2]))
                }
            }
        }
    }
}

/// The types of `e` that have another member to replace it with.
/// Subjects a relation needs before a replaced subject must answer it too.
const MANY_SUBJECTS: usize = 4;

fn types_with_others(index: &KgIndex, e: Id) -> Vec<Id> {
    index
        .types_of(e)
        .iter()
        .copied()
        .filter(|t| index.members_of(*t).len() > 1)
        .collect()
}

fn with(fact: &Fact, pos: Corruption, c: Id) -> Fact {
    let mut f = *fact;
    f[match pos {
        Corruption::Head => 0,
        Corruption::Relation => 1,
        Corruption::Tail => 2,
    }] = c;
    f
}

/// Candidates for one position, drawn from without building the whole list.
enum Pool<'a> {
    /// Entities of any of these types (a type drawn uniformly, then a member).
    Members(Vec<Id>),
    Slice(&'a [Id]),
    Owned(Vec<Id>),
    /// The first list minus the second (both sorted): KGLens' C − T.
    Except(&'a [Id], Vec<Id>),
}

impl Pool<'_> {
    fn is_empty(&self, index: &KgIndex) -> bool {
        match self {
            Pool::Members(types) => types.iter().all(|t| index.members_of(*t).is_empty()),
            Pool::Slice(s) => s.is_empty(),
            Pool::Owned(v) => v.is_empty(),
            Pool::Except(all, not) => all.iter().all(|o| not.binary_search(o).is_ok()),
        }
    }

    fn draw(&self, index: &KgIndex, rng: &mut SeededRng) -> Option<Id> {
        let pick = |s: &[Id], rng: &mut SeededRng| {
            (!s.is_empty()).then(|| s[rng.random_range(0..s.len())])
        };
        match self {
            Pool::Members(types) => {
                let t = pick(types, rng)?;
                pick(index.members_of(t), rng)
            }
            Pool::Slice(s) => pick(s, rng),
            Pool::Owned(v) => pick(v, rng),
            Pool::Except(all, not) => pick(all, rng).filter(|o| not.binary_search(o).is_err()),
        }
    }

    fn all(&self, index: &KgIndex) -> Vec<Id> {
        match self {
            Pool::Members(types) => {
                let mut v: Vec<Id> = types
                    .iter()
                    .flat_map(|t| index.members_of(*t))
                    .copied()
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            }
            Pool::Slice(s) => s.to_vec(),
            Pool::Owned(v) => v.clone(),
            Pool::Except(all, not) => all
                .iter()
                .copied()
                .filter(|o| not.binary_search(o).is_err())
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::questions::TemplateSet;

    fn with_kg(ttl: &str, check: impl Fn(&Renderer<'_>, &KgIndex)) {
        let kg = crate::kg::local::LocalKg::from_turtle(ttl, "test").unwrap();
        let index = KgIndex::build(&kg, &|_| {}).unwrap();
        let templates = TemplateSet::default();
        let r = Renderer {
            index: &index,
            templates: &templates,
            seed: 1,
        };
        check(&r, &index);
    }

    const PREFIXES: &str = "@prefix ex: <http://example.org/> .\n\
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n";

    #[test]
    fn typed_negatives_fill_only_positions_of_the_right_kind() {
        let ttl = format!(
            "{PREFIXES}ex:a a ex:C ; ex:p ex:x . ex:b a ex:C ; ex:p ex:y .\n\
             ex:x a ex:D . ex:y a ex:D . ex:z a ex:E . ex:y ex:q ex:z .\n"
        );
        with_kg(&ttl, |r, index| {
            let c = Corrupter::new(r, NegativesFrom::Fair);
            let id = |l: &str| index.iri_id(&format!("http://example.org/{l}")).unwrap();
            let fact = [id("a"), id("p"), id("x")];
            assert_eq!(c.fillable(&fact), [Corruption::Head, Corruption::Tail]);
            let mut seen = HashSet::new();
            for seed in 0..50 {
                let negs = c.corrupt(&fact, 1, &mut crate::sampling::rng(seed));
                let (f, how) = negs[0];
                assert!(!index.contains(&f));
                match how {
                    Corruption::Head => assert_eq!(f, [id("b"), id("p"), id("x")]),
                    Corruption::Tail => assert_eq!(f, [id("a"), id("p"), id("y")]),
                    Corruption::Relation => panic!("no relation takes a C and a D but p"),
                }
                seen.insert(how);
            }
            assert_eq!(seen.len(), 2, "both fillable positions are drawn");
            // Random replacements know no types: a relation or a z turns up.
            let random = Corrupter::new(r, NegativesFrom::Random);
            let kinds: HashSet<Corruption> = (0..50)
                .flat_map(|s| random.corrupt(&fact, 1, &mut crate::sampling::rng(s)))
                .map(|(_, how)| how)
                .collect();
            assert!(kinds.contains(&Corruption::Relation));
        });
    }

    #[test]
    fn a_negative_never_makes_its_subject_its_object() {
        let ttl = format!(
            "{PREFIXES}ex:a a ex:Country ; ex:border ex:b . ex:b a ex:Country ; ex:border ex:a .\n\
             ex:c a ex:Country ; ex:border ex:d . ex:d a ex:Country .\n"
        );
        with_kg(&ttl, |r, index| {
            let c = Corrupter::new(r, NegativesFrom::Fair);
            let id = |l: &str| index.iri_id(&format!("http://example.org/{l}")).unwrap();
            let fact = [id("a"), id("border"), id("b")];
            // Tails: a (a borders a) and d; heads: c and d, not b (b borders b).
            for seed in 0..40 {
                for (f, _) in c.corrupt(&fact, 3, &mut crate::sampling::rng(seed)) {
                    assert_ne!(f[0], f[2], "{f:?}");
                }
            }
        });
    }

    #[test]
    fn no_negative_when_every_replacement_is_true_in_the_kg_or_in_words() {
        // Complete: every typed replacement of (a, p, x) is a KG triple.
        let ttl = format!(
            "{PREFIXES}ex:a a ex:C ; ex:p ex:x, ex:y . ex:b a ex:C ; ex:p ex:x, ex:y .\n\
             ex:x a ex:D . ex:y a ex:D .\n"
        );
        with_kg(&ttl, |r, index| {
            let c = Corrupter::new(r, NegativesFrom::Fair);
            let fact = index.facts()[0];
            assert!(c.fillable(&fact).is_empty());
            assert!(c.corrupt(&fact, 2, &mut crate::sampling::rng(3)).is_empty());
        });
        // Two capitals called Kingston: "The capital of Jamaica is Kingston." with Norfolk
        // Island's Kingston is false as a triple and true in words.
        let ttl = format!(
            "{PREFIXES}ex:jam a ex:Country ; rdfs:label \"Jamaica\" ; ex:capital ex:k1 .\n\
             ex:nfk a ex:Country ; rdfs:label \"Norfolk Island\" ; ex:capital ex:k2 .\n\
             ex:k1 a ex:City ; rdfs:label \"Kingston\" . ex:k2 a ex:City ; rdfs:label \"Kingston\" .\n"
        );
        with_kg(&ttl, |r, index| {
            let c = Corrupter::new(r, NegativesFrom::Fair);
            let id = |l: &str| index.iri_id(&format!("http://example.org/{l}")).unwrap();
            let swapped = [id("jam"), id("capital"), id("k2")];
            assert!(!index.contains(&swapped));
            assert!(c.true_in_words(&swapped));
            assert!(!c.true_in_words(&[id("k1"), id("capital"), id("jam")]));
            assert!(c.fillable(&[id("jam"), id("capital"), id("k1")]).is_empty());
        });
    }
}

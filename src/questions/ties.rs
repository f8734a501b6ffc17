//! Entities the KG ties to each other so closely that one may stand for the other: a fact
//! between them under a relation that is not symmetric ("Caribbean" is part of the region
//! "Americas"; a city is located in its state). A reader may count either as the answer: a
//! multiple-choice question never offers the one beside the other, and a short answer naming
//! the one for the other is left to the judge.
//!
//! Symmetric relations ("shares a land border with") tie peers, not a place to the place
//! around it, so they do not count; which relations are symmetric is read from the facts.

use std::collections::HashMap;

use crate::kg::index::{Id, KgIndex};

pub struct Ties<'a> {
    index: &'a KgIndex,
    symmetric: HashMap<Id, bool>,
}

impl<'a> Ties<'a> {
    pub fn new(index: &'a KgIndex) -> Self {
        Self {
            index,
            symmetric: HashMap::new(),
        }
    }

    /// Whether most of `p`'s facts also hold the other way round.
    fn is_symmetric(&mut self, p: Id) -> bool {
        let ix = self.index;
        *self.symmetric.entry(p).or_insert_with(|| {
            let facts = ix.facts_of_predicate(p);
            let both = facts
                .iter()
                .filter(|&&i| {
                    let [s, _, o] = ix.facts()[i];
                    ix.contains(&[o, p, s])
                })
                .count();
            2 * both >= facts.len().max(1)
        })
    }

    /// Whether a fact of a relation that is not symmetric links `a` and `b`, either way.
    pub fn tied(&mut self, a: Id, b: Id) -> bool {
        !self.ties(a, b).is_empty()
    }

    /// The relations, none symmetric, of the facts that link `a` and `b`, either way.
    pub fn ties(&mut self, a: Id, b: Id) -> Vec<Id> {
        if a == b {
            return Vec::new();
        }
        let ix = self.index;
        let links: Vec<Id> = ix
            .facts_from(a)
            .iter()
            .filter(|f| f[2] == b)
            .chain(ix.facts_from(b).iter().filter(|f| f[2] == a))
            .map(|f| f[1])
            .collect();
        links
            .into_iter()
            .filter(|&p| !self.is_symmetric(p))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_of_ties_but_borders_do_not() {
        let kg = crate::kg::local::LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> .
            ex:Caribbean ex:partOf ex:Americas .
            ex:Cuba ex:region ex:Americas ; ex:subregion ex:Caribbean .
            ex:France ex:borders ex:Spain . ex:Spain ex:borders ex:France ."#,
            "test",
        )
        .unwrap();
        let ix = KgIndex::build(&kg, &|_| {}).unwrap();
        let id = |n: &str| ix.iri_id(&format!("http://ex.org/{n}")).unwrap();
        let mut ties = Ties::new(&ix);
        assert!(ties.tied(id("Caribbean"), id("Americas")));
        assert!(ties.tied(id("Americas"), id("Caribbean")));
        assert!(!ties.tied(id("France"), id("Spain")), "a border ties peers");
        assert!(!ties.tied(id("Cuba"), id("Spain")));
    }
}

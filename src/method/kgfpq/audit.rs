//! KG-FPQ's part of `kgscope audit`: what a reader finds wrong with a false premise, checked
//! on every false-premise question of a set (issue 24). A false premise should test what a
//! model knows about the subject, so the audit counts the premises that test something else:
//!
//! - a schema or reification node put in the premise ("Is the crystal structure of Bismuth
//!   point in time?");
//! - a premise the KG itself states true, under the edited relation or another one whose
//!   objects are of the same type ("Is it true that Malawi is a sovereign state?");
//! - an object of a kind the KG never relates to the replaced object's kind ("won by the
//!   franchise now known as the Ron Bonham");
//! - a question whose text another question of the set already has.
//!
//! The rules are the generator's own ([`super::edits`]), so a set made now has none of them.

use serde::Serialize;

use super::edits::{premise_stated, Meta, SlotKinds};
use crate::kg::index::{Fact, Id, KgIndex};
use crate::questions::audit::Check;
use crate::questions::Question;

/// Examples kept per finding.
const EXAMPLES: usize = 5;

#[derive(Debug, Default, Serialize)]
pub struct FpqAudit {
    /// False-premise questions in the set.
    pub negatives: usize,
    /// Those whose subject, relation, edited and true objects were all found in the KG.
    pub checked: usize,
    /// A schema or reification node as the relation or the edited object.
    pub meta: usize,
    /// The edited premise is a KG fact, or stated for the subject under a relation with
    /// objects of the same type.
    pub true_premise: usize,
    /// The edited object is of a kind the KG never relates to the true object's kind.
    pub slot_misfit: usize,
    pub examples: Vec<(&'static str, Vec<String>)>,
}

impl FpqAudit {
    fn note(&mut self, what: &'static str, text: &str) {
        match self.examples.iter_mut().find(|(w, _)| *w == what) {
            Some((_, list)) if list.len() < EXAMPLES => list.push(text.to_string()),
            Some(_) => {}
            None => self.examples.push((what, vec![text.to_string()])),
        }
    }

    /// The findings as the common audit prints them; none for a set without KG-FPQ questions.
    pub fn checks(&self) -> Vec<Check> {
        if self.negatives == 0 {
            return Vec::new();
        }
        let examples = |what: &str| {
            self.examples
                .iter()
                .find(|(w, _)| *w == what)
                .map(|(_, l)| l.clone())
                .unwrap_or_default()
        };
        let of = self.checked;
        vec![
            Check::new(
                "KG-FPQ premises checked",
                self.checked,
                self.negatives,
                vec![],
            ),
            Check::new(META, self.meta, of, examples(META)),
            Check::new(TRUE, self.true_premise, of, examples(TRUE)),
            Check::new(SLOT, self.slot_misfit, of, examples(SLOT)),
        ]
    }
}

const META: &str = "KG-FPQ meta property in an edit";
const TRUE: &str = "KG-FPQ premise the KG states true";
const SLOT: &str = "KG-FPQ object of a sort the slot does not take";

/// The term of a question's IRI field: an entity's IRI names exactly one term.
fn iri(index: &KgIndex, value: &str) -> Option<Id> {
    index.iri_id(value)
}

/// Checks every KG-FPQ false-premise question of `questions` against `index`. Questions of
/// other methods are left alone; repeated prompts are the common audit's ([`crate::questions::audit`]).
pub fn audit(index: &KgIndex, questions: &[Question]) -> FpqAudit {
    let meta = Meta::new(index);
    let slots = SlotKinds::new(index);
    let mut a = FpqAudit::default();
    for q in questions {
        let Some(premise) = &q.premise else {
            continue;
        };
        if premise.edit.is_none() {
            continue;
        }
        a.negatives += 1;
        let ends = (
            iri(index, &q.subject),
            iri(index, &q.predicate),
            iri(index, &q.object),
            q.true_object.as_deref().and_then(|o| iri(index, o)),
        );
        let (Some(s), Some(p), Some(c), Some(o)) = ends else {
            continue;
        };
        a.checked += 1;
        let fact: Fact = [s, p, o];
        if meta.is_meta(index, c) || index.relation(p).is_none() {
            a.meta += 1;
            a.note(META, &q.prompt);
        }
        if premise_stated(index, fact, c) {
            a.true_premise += 1;
            a.note(TRUE, &q.prompt);
        }
        if !slots.fits(index, s, o, c) {
            a.slot_misfit += 1;
            a.note(SLOT, &q.prompt);
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::question::{Edit, FpqFormat, PremiseMeta};
    use crate::kg::local::LocalKg;

    /// A country with two status relations sharing one type of values, a team and a player,
    /// and a property declared but used only on reified statements.
    const KG: &str = "@prefix ex: <http://example.org/> .\n\
        @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n\
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
        @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\
        ex:un a rdf:Property ; rdfs:label \"UN status\" .\n\
        ex:when a rdf:Property ; rdfs:label \"point in time\" .\n\
        ex:mw a ex:Country ; rdfs:label \"Malawi\" ; ex:un ex:member ; ex:sov ex:sovereign ;\n\
        \x20   ex:capital ex:lilongwe .\n\
        ex:fr a ex:Country ; rdfs:label \"France\" ; ex:un ex:member ; ex:sov ex:sovereign ;\n\
        \x20   ex:capital ex:paris .\n\
        ex:gu a ex:Country ; rdfs:label \"Guam\" ; ex:un ex:nonmember ; ex:sov ex:dependent .\n\
        ex:member a ex:Status ; rdfs:label \"a UN member\" .\n\
        ex:nonmember a ex:Status ; rdfs:label \"not a UN member\" .\n\
        ex:sovereign a ex:Status ; rdfs:label \"a sovereign state\" .\n\
        ex:dependent a ex:Status ; rdfs:label \"a dependent territory\" .\n\
        ex:lilongwe a ex:City ; rdfs:label \"Lilongwe\" .\n\
        ex:paris a ex:City ; rdfs:label \"Paris\" .\n\
        ex:bob a ex:Player ; rdfs:label \"Bob\" ; ex:team ex:celtics .\n\
        ex:celtics a ex:Team ; rdfs:label \"Celtics\" .\n\
        [] a rdf:Statement ; rdf:subject ex:mw ; rdf:predicate ex:un ; rdf:object ex:member ;\n\
        \x20   ex:when \"1964\"^^xsd:gYear .\n";

    fn index() -> KgIndex {
        let kg = LocalKg::from_turtle(KG, "test").unwrap();
        KgIndex::build(&kg, &|_| {}).unwrap()
    }

    fn fpq(prompt: &str, s: &str, p: &str, edited: &str, true_o: &str) -> Question {
        let ex = |n: &str| format!("http://example.org/{n}");
        let mut q = crate::questions::tests_support::question();
        q.prompt = prompt.into();
        q.subject = ex(s);
        q.predicate = ex(p);
        q.object = ex(edited);
        q.true_object = Some(ex(true_o));
        q.premise = Some(PremiseMeta {
            edit: Some(Edit::Nsc),
            hops: None,
            format: FpqFormat::Discriminative,
            tpq_id: "t".into(),
            written: None,
        });
        q
    }

    #[test]
    fn each_finding_is_counted_on_its_own_question() {
        let ix = index();
        let qs = vec![
            // Fine: another capital, a city, not Malawi's.
            fpq(
                "Is Paris the capital of Malawi?",
                "mw",
                "capital",
                "paris",
                "lilongwe",
            ),
            // The KG says Malawi is sovereign (its other status relation).
            fpq(
                "Is Malawi a sovereign state?",
                "mw",
                "un",
                "sovereign",
                "member",
            ),
            // Same text again.
            fpq(
                "Is Malawi a sovereign state?",
                "mw",
                "un",
                "sovereign",
                "member",
            ),
            // A qualifier property as the object.
            fpq("Is Malawi point in time?", "mw", "un", "when", "member"),
            // A player for a capital: countries never have players as objects.
            fpq(
                "Is Bob the capital of Malawi?",
                "mw",
                "capital",
                "bob",
                "lilongwe",
            ),
        ];
        let a = audit(&ix, &qs);
        assert_eq!(a.negatives, 5);
        assert_eq!(a.checked, 5, "every premise is found, the meta node too");
        assert_eq!(a.true_premise, 2);
        assert_eq!(a.meta, 1);
        // The meta node and the player are of no kind a country has as an object.
        assert_eq!(a.slot_misfit, 2);
        let checks = a.checks();
        assert_eq!(checks.len(), 4);
    }

    #[test]
    fn a_set_without_false_premises_has_no_findings() {
        let ix = index();
        let mut q = fpq(
            "Is Paris the capital of France?",
            "fr",
            "capital",
            "paris",
            "paris",
        );
        q.premise.as_mut().unwrap().edit = None;
        let a = audit(&ix, &[q]);
        assert_eq!((a.negatives, a.checked), (0, 0));
        assert!(a.checks().is_empty());
    }
}

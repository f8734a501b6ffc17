//! The multiple-choice part of `kgscope audit` (issue 24): each question's options checked by
//! the rules its generator draws them by ([`super::options`]), so a set made before them shows
//! what they remove and a set made after shows none.

use std::collections::HashMap;

use serde::Serialize;

use super::options::{self, Flaw};
use super::ties::Ties;
use super::Question;
use crate::kg::index::{Fact, Id, KgIndex};

/// Counts of multiple-choice questions with each fault (a question counts once per fault).
#[derive(Debug, Default, Serialize)]
pub struct OptionAudit {
    /// Multiple-choice questions read.
    pub questions: usize,
    /// A distractor whose name contains the answer's or is contained in it.
    pub overlapping: usize,
    /// A distractor the KG ties to the answer (a part of it, or what it is part of).
    pub tied: usize,
    /// A distractor the KG gives the subject for the relation, or a namesake of an entity
    /// the KG states for the subject: a second right option.
    pub stated: usize,
    /// A number within rounding or tolerance of the answer.
    pub too_close: usize,
    /// Options that match the subject's name unequally by their letters: the answer found by
    /// matching a code or a demonym to the name, or a distractor that names the subject.
    pub matched: usize,
    /// A number written to another precision than the answer (a whole number among decimals).
    pub other_form: usize,
    /// Not four distinct options with the right one among them.
    pub malformed: usize,
    /// Questions with more than one right option: overlapping, tied or stated distractors,
    /// or the same option twice.
    pub several_right: usize,
}

/// Options per question: the answer and three distractors.
const OPTIONS: usize = 4;

/// Audits the multiple-choice questions among `questions`; `fact_of` finds a question's
/// triple in the KG, and `note` keeps an example of a fault.
pub fn audit(
    index: &KgIndex,
    questions: &[Question],
    fact_of: &dyn Fn(&Question) -> Option<Fact>,
    note: &mut dyn FnMut(&'static str, &str),
) -> OptionAudit {
    let mut a = OptionAudit::default();
    let mut ties = Ties::new(index);
    // Per relation, its objects by label: an option is shown by its label only.
    let mut by_label: HashMap<Id, HashMap<String, Id>> = HashMap::new();
    let names_of = |o: Id| -> Vec<String> {
        std::iter::once(index.label(o))
            .chain(index.aliases_of(o).iter().cloned())
            .collect()
    };
    for q in questions {
        let Some((options, correct)) = q.gold.choice() else {
            continue;
        };
        a.questions += 1;
        let shown = || format!("{} [{}]", q.prompt, options.join(" | "));
        let distinct = options
            .iter()
            .enumerate()
            .all(|(i, a)| options[i + 1..].iter().all(|b| !options::same(a, b)));
        if options.len() != OPTIONS || correct >= options.len() || !distinct {
            a.malformed += 1;
            note("malformed options", &shown());
            if correct >= options.len() {
                continue;
            }
        }
        let fact = fact_of(q);
        let ids = fact.map(|[_, p, _]| {
            by_label.entry(p).or_insert_with(|| {
                index
                    .objects_of_predicate(p)
                    .iter()
                    .map(|&o| (index.label(o), o))
                    .collect()
            })
        });
        let id_of = |text: &str| ids.as_ref().and_then(|m| m.get(text).copied());
        let answer_text = &options[correct];
        let answer_id = fact.map(|f| f[2]).or_else(|| id_of(answer_text));
        // The answer as shown, with its aliases when the KG's object is the one shown.
        let mut answer = vec![answer_text.clone()];
        if let Some(o) = answer_id.filter(|&o| index.label(o) == *answer_text) {
            answer.extend(index.aliases_of(o).iter().cloned());
        }
        let truths = fact.map_or_else(Vec::new, |[s, p, _]| index.objects_of(s, p));
        // Entities the KG states for the subject under any relation, by name.
        let subject_objects: Vec<(Id, String)> = fact.map_or_else(Vec::new, |[s, _, _]| {
            index
                .facts_from(s)
                .iter()
                .filter(|f| matches!(index.term(f[2]), crate::kg::Term::NamedNode(_)))
                .map(|f| (f[2], index.label(f[2])))
                .collect()
        });
        let mut found: Vec<Flaw> = Vec::new();
        let mut stated = !distinct;
        for (i, text) in options.iter().enumerate() {
            if i == correct {
                continue;
            }
            let id = id_of(text);
            // A namesake of an entity the KG states for the subject.
            if id.is_some_and(|o| {
                subject_objects
                    .iter()
                    .any(|(e, name)| *e != o && options::same(name, text))
            }) {
                stated = true;
            }
            let names = id.map_or_else(|| vec![text.clone()], names_of);
            if let Some(flaw) = options::text_flaw(&q.subject_label, &answer, &names) {
                found.push(flaw);
            }
            if let (Some(o), Some(ans)) = (id, answer_id) {
                if ties.tied(o, ans) {
                    found.push(Flaw::Tied);
                }
                if truths.contains(&o) {
                    stated = true;
                }
            }
        }
        let mut count = |flaw: Flaw, n: &mut usize| {
            if found.contains(&flaw) {
                *n += 1;
                note(flaw.describe(), &shown());
            }
        };
        count(Flaw::Overlaps, &mut a.overlapping);
        count(Flaw::Tied, &mut a.tied);
        count(Flaw::TooClose, &mut a.too_close);
        count(Flaw::Matched, &mut a.matched);
        count(Flaw::Form, &mut a.other_form);
        if stated {
            a.stated += 1;
            note(
                "option named like what the KG states for the subject",
                &shown(),
            );
        }
        if stated || found.contains(&Flaw::Overlaps) || found.contains(&Flaw::Tied) {
            a.several_right += 1;
        }
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kg::local::LocalKg;
    use crate::questions::{tests_support, Gold};

    #[test]
    fn counts_each_fault_of_the_options() {
        let kg = LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> .
            ex:England ex:partOf ex:Great_Britain .
            ex:Neon ex:place ex:England . ex:Argon ex:place ex:Great_Britain .
            ex:Radium ex:place ex:France . ex:Gallium ex:place ex:Italy ."#,
            "test",
        )
        .unwrap();
        let ix = KgIndex::build(&kg, &|_| {}).unwrap();
        let id = |n: &str| ix.iri_id(&format!("http://ex.org/{n}")).unwrap();
        let fact = [id("Neon"), id("place"), id("England")];
        let mut q = tests_support::question();
        q.subject_label = "Neon".into();
        let ask = |options: &[&str], correct: usize| {
            let mut q = q.clone();
            q.gold = Gold::Choice {
                options: options.iter().map(|s| s.to_string()).collect(),
                correct,
            };
            q
        };
        let qs = vec![
            ask(&["France", "England", "Great Britain", "Italy"], 1),
            ask(&["France", "England", "Italy", "Nepal"], 1),
            ask(&["IQ", "BA", "ML", "England"], 3),
            ask(&["France", "England", "France", "Italy"], 1),
            ask(&["1802.15", "1800.15", "24.56", "234.3"], 1),
            ask(&["Englandia", "England"], 1),
        ];
        let mut notes = 0;
        let a = audit(&ix, &qs, &|_| Some(fact), &mut |_, _| notes += 1);
        assert_eq!(a.questions, 6);
        assert_eq!(a.tied, 1, "Great Britain is what England is part of");
        assert_eq!(a.matched, 0, "codes that match nothing of 'Neon'");
        assert_eq!(a.malformed, 2, "an option twice; two options");
        assert_eq!(a.too_close, 1);
        assert_eq!(a.several_right, 2, "tied; the same option twice");
        assert!(notes > 0);
        let iraq = {
            let mut q = ask(&["BA", "BH", "ML", "IQ"], 3);
            q.subject_label = "Iraq".into();
            q
        };
        let a = audit(&ix, &[iraq], &|_| None, &mut |_, _| {});
        assert_eq!(a.matched, 1, "IQ is found by Iraq's letters");
    }
}

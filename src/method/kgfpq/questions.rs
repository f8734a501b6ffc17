//! KG-FPQ's questions (Zhu et al., 2024): for a true fact (s, p, o), the
//! true-premise yes/no question (TPQ) and, for each edit that finds a replacement o', a
//! discriminative yes/no FPQ about (s, p, o') (right answer: No) and a generative Wh-FPQ that
//! presupposes (s, p, o') (right answer: one that rejects or corrects the premise).
//!
//! Wording: the yes/no questions are the relation's yes/no template, so they are per relation;
//! the generative question asks for the reason behind the relation's statement of the false
//! fact ("What is the reason that the capital of France is Lyon?"), the form of the paper's own
//! example ("What was the reason behind Walt Disney's citizenship in the Nepal?"), built from
//! the relation's statement template. The subject carries no alias: KG-FPQ's questions name
//! the entities as the KG does.

use super::edits::Editor;
use crate::kg::index::Fact;
use crate::questions::{FpqFormat, Gold, PremiseMeta, Question, Renderer, Task};
use crate::sampling;

pub use crate::core::question::FpqOptions;

/// The id of the true-premise question about `fact`: what its false premises point back to.
pub fn tpq_id(r: &Renderer<'_>, fact: &Fact) -> String {
    r.id(fact, Task::KgFpq, "discriminative", "TPQ")
}

/// The true-premise question about `fact`.
pub fn tpq(r: &Renderer<'_>, fact: &Fact) -> Question {
    let mut q = r.base(fact, Task::KgFpq);
    q.id = tpq_id(r, fact);
    q.prompt = r.yesno(fact, &q.subject_label);
    q.gold = Gold::yes();
    q.positive_id = q.id.clone();
    q.premise = Some(PremiseMeta {
        edit: None,
        hops: None,
        format: FpqFormat::Discriminative,
        tpq_id: q.id.clone(),
        written: None,
    });
    q
}

/// The false-premise questions about `fact`, one per edit that finds a replacement and
/// format; returns them and how many edits found none.
pub fn fpqs(
    r: &Renderer<'_>,
    editor: &mut Editor<'_>,
    fact: &Fact,
    opts: &FpqOptions,
) -> (Vec<Question>, usize) {
    let tpq_id = tpq_id(r, fact);
    let truth = r.statement(fact);
    let true_fact = r.base(fact, Task::KgFpq);
    let mut out = Vec::new();
    let mut missing = 0;
    for &edit in &opts.edits {
        // One draw per (fact, edit), whatever else is asked: the same seed gives the same o'.
        let mut rng = sampling::item_rng(r.seed, &format!("{tpq_id}:{}", edit.as_str()));
        let Some(edited) = editor.edit(fact, edit, &mut rng) else {
            missing += 1;
            continue;
        };
        let mut false_fact = *fact;
        false_fact[2] = edited.object;
        let premise = r.statement(&false_fact);
        for &format in &opts.formats {
            let mut q = r.base(&false_fact, Task::KgFpq);
            // Grouped by the true fact, as every method's negatives are.
            q.year = true_fact.year;
            q.true_object = Some(true_fact.object.clone());
            q.id = r.id(
                &false_fact,
                Task::KgFpq,
                format.as_str(),
                &format!("{}:{tpq_id}", edit.as_str()),
            );
            match format {
                FpqFormat::Discriminative => {
                    q.prompt = r.yesno(&false_fact, &q.subject_label);
                    q.gold = Gold::no();
                }
                FpqFormat::Generative => {
                    q.prompt = reason_question(&premise);
                    q.gold = Gold::Premise {
                        premise: premise.clone(),
                        truth: truth.clone(),
                    };
                }
            }
            q.negative = Some(crate::questions::Corruption::Tail);
            q.positive_id = q.id.clone();
            q.premise = Some(PremiseMeta {
                edit: Some(edit),
                hops: edited.hops,
                format,
                tpq_id: tpq_id.clone(),
                written: None,
            });
            out.push(q);
        }
    }
    (out, missing)
}

/// "What is the reason that the capital of France is Lyon?" from "The capital of France is
/// Lyon.": a Wh-question that takes the statement for granted.
pub fn reason_question(statement: &str) -> String {
    let s = statement.trim().trim_end_matches('.');
    let mut chars = s.chars();
    // Lower-case the first letter unless it starts a name ("The" → "the", "Paris" stays).
    let body = match chars.next() {
        Some(c) if s.starts_with("The ") || s.starts_with("A ") || s.starts_with("An ") => {
            c.to_lowercase().collect::<String>() + chars.as_str()
        }
        _ => s.to_string(),
    };
    format!("What is the reason that {body}?")
}

/// The candidates KG-FPQ can ask about: facts whose object is an entity (an edit replaces
/// the object by another entity; a literal has no concept or neighbourhood).
pub fn askable(index: &crate::kg::KgIndex, candidates: &[usize]) -> Vec<usize> {
    candidates
        .iter()
        .copied()
        .filter(|&i| crate::kg::neighbourhood::is_entity_node(index, index.facts()[i][2]))
        .collect()
}

/// `kgscope questions --task kg-fpq`: for each drawn fact, its TPQ and every FPQ (no gate:
/// nothing has been answered).
pub fn generate(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &crate::questions::GenerateOptions,
    fpq: &FpqOptions,
) -> (Vec<Question>, usize) {
    let picked =
        crate::questions::draw_facts(r.index, candidates, opts.limit, opts.sampling, opts.seed);
    let mut editor = Editor::new(r.index, fpq.max_hops);
    let mut out = Vec::new();
    let mut missing = 0;
    for fi in picked {
        let fact = r.index.facts()[fi];
        out.push(tpq(r, &fact));
        let (qs, m) = fpqs(r, &mut editor, &fact, fpq);
        out.extend(qs);
        missing += m;
    }
    (out, missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reason_question_takes_the_statement_for_granted() {
        assert_eq!(
            reason_question("The capital of France is Lyon."),
            "What is the reason that the capital of France is Lyon?"
        );
        assert_eq!(
            reason_question("Paris is the capital of Peru."),
            "What is the reason that Paris is the capital of Peru?"
        );
    }
}

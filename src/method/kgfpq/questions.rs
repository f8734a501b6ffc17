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

use std::collections::BTreeMap;

use super::edits::{Edit, Editor, NoEdit};
use crate::kg::index::Fact;
use crate::questions::{templates, FpqFormat, Gold, PremiseMeta, Question, Renderer, Task};
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
    q.prompt = r.yesno(
        fact,
        &crate::questions::names::shown(r.index, fact[0], fact[1]),
    );
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

/// Facts with no false premise, per edit and reason: what a run reports so that a set smaller
/// than six edits per fact says why.
pub type Unmade = BTreeMap<(Edit, NoEdit), usize>;

/// The lines that explain [`Unmade`], one per edit and reason, most frequent first.
pub fn explain(unmade: &Unmade, max_hops: u8) -> Vec<(String, usize)> {
    let mut lines: Vec<(String, usize)> = unmade
        .iter()
        .map(|((edit, why), n)| {
            (
                format!("{}: {}", edit.as_str(), why.describe(max_hops, *edit)),
                *n,
            )
        })
        .collect();
    lines.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    lines
}

/// The false-premise questions about `fact`, one per edit that finds a replacement and
/// format; returns them, and records in `unmade` each edit that found none and why.
pub fn fpqs(
    r: &Renderer<'_>,
    editor: &mut Editor<'_>,
    fact: &Fact,
    opts: &FpqOptions,
    unmade: &mut Unmade,
) -> Vec<Question> {
    let tpq_id = tpq_id(r, fact);
    let truth = r.statement(fact);
    let true_fact = r.base(fact, Task::KgFpq);
    let mut out = Vec::new();
    for &edit in &opts.edits {
        // One draw per (fact, edit), whatever else is asked: the same seed gives the same o'.
        let mut rng = sampling::item_rng(r.seed, &format!("{tpq_id}:{}", edit.as_str()));
        let edited = match editor.try_edit(fact, edit, &mut rng) {
            Ok(e) => e,
            Err(why) => {
                *unmade.entry((edit, why)).or_default() += 1;
                continue;
            }
        };
        let mut false_fact = *fact;
        false_fact[2] = edited.object;
        let premise = r.statement(&false_fact);
        let template = templates::template_for(r.index, r.templates, &false_fact);
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
                    let head = crate::questions::names::shown(r.index, fact[0], fact[1]);
                    q.prompt = r.yesno(&false_fact, &head);
                    q.gold = Gold::no();
                }
                FpqFormat::Generative => {
                    q.prompt = reason_question(&premise, &template.statement);
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
    out
}

/// "What is the reason that the capital of France is Lyon?" from "The capital of France is
/// Lyon.": a Wh-question that takes the statement for granted, built from the statement's
/// template (`template`) so that its words are cased as inside a sentence. An opening phrase
/// of the template set off by a comma ("In the Goldschmidt classification, {head} is ...")
/// moves to the end, where a clause after "that" reads naturally; a name keeps its capital.
pub fn reason_question(statement: &str, template: &str) -> String {
    let s = without_full_stop(statement);
    let template = template.trim_start();
    if template.starts_with('{') {
        // The sentence opens with a label: only an article the slot put before it is the
        // template's word ("The Boston Celtics" → "the Boston Celtics").
        for article in ["The ", "A ", "An "] {
            if let Some(rest) = s.strip_prefix(article) {
                return format!("What is the reason that {}{rest}?", article.to_lowercase());
            }
        }
        return format!("What is the reason that {s}?");
    }
    let opening = template.split('{').next().unwrap_or("").trim_end();
    if let Some(phrase) = opening.strip_suffix(',').filter(|p| s.starts_with(p)) {
        let rest = s[phrase.len()..].trim_start_matches(',').trim();
        return format!("What is the reason that {rest} {}?", lower_word(phrase));
    }
    format!("What is the reason that {}?", lower_word(s))
}

/// The sentence without its full stop, unless that stop also ends an abbreviation the
/// sentence closes on ("Washington, D.C.": the value absorbed the template's stop), which
/// keeps it before the question mark.
fn without_full_stop(statement: &str) -> &str {
    let s = statement.trim();
    let Some(rest) = s.strip_suffix('.') else {
        return s;
    };
    let last = rest.rsplit(char::is_whitespace).next().unwrap_or("");
    let abbreviation = last.contains('.') && last.chars().all(|c| c.is_alphabetic() || c == '.');
    if abbreviation {
        s
    } else {
        rest.trim_end()
    }
}

/// Lower-cases the first word when it is an ordinary capitalised word ("In", "The"), not an
/// acronym or a word with capitals inside ("NBA", "iOS").
fn lower_word(s: &str) -> String {
    let first = s.split_whitespace().next().unwrap_or("");
    let mut chars = first.chars();
    let ordinary = chars.next().is_some_and(char::is_uppercase) && chars.all(char::is_lowercase);
    if !ordinary {
        return s.to_string();
    }
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_lowercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
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
/// nothing has been answered); with the edits that found no candidate, per edit and reason.
pub fn generate(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &crate::questions::GenerateOptions,
    fpq: &FpqOptions,
) -> (Vec<Question>, Unmade) {
    let picked =
        crate::questions::draw_facts(r.index, candidates, opts.limit, opts.sampling, opts.seed);
    let mut editor = Editor::new(r.index, fpq.max_hops).with_templates(r.templates);
    let facts: Vec<Fact> = picked.iter().map(|&fi| r.index.facts()[fi]).collect();
    // The true premises first: no false one may read like another fact's true one.
    for f in &facts {
        editor.reserve(f);
    }
    let mut out = Vec::new();
    let mut unmade = Unmade::new();
    for fact in &facts {
        out.push(tpq(r, fact));
        out.extend(fpqs(r, &mut editor, fact, fpq, &mut unmade));
    }
    (out, unmade)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reason_question_takes_the_statement_for_granted() {
        assert_eq!(
            reason_question(
                "The capital of France is Lyon.",
                "The capital of {head} is {tail}."
            ),
            "What is the reason that the capital of France is Lyon?"
        );
        assert_eq!(
            reason_question(
                "Paris is the capital of Peru.",
                "{tail} is the capital of {head}."
            ),
            "What is the reason that Paris is the capital of Peru?"
        );
        // An article the head slot added is the template's word; a name keeps its capital.
        assert_eq!(
            reason_question(
                "The Boston Celtics are based in Ohio.",
                "{head} are based in {tail}."
            ),
            "What is the reason that the Boston Celtics are based in Ohio?"
        );
        assert_eq!(
            reason_question("NBA teams play in Ohio.", "NBA teams play in {tail}."),
            "What is the reason that NBA teams play in Ohio?"
        );
        // A value that ends in an abbreviation keeps its stop; a number does not.
        assert_eq!(
            reason_question(
                "The home city of the Golden State Valkyries is Washington, D.C.",
                "The home city of {head} is {tail}."
            ),
            "What is the reason that the home city of the Golden State Valkyries is \
             Washington, D.C.?"
        );
        assert_eq!(
            reason_question(
                "The density of Gold is 19.3.",
                "The density of {head} is {tail}."
            ),
            "What is the reason that the density of Gold is 19.3?"
        );
    }

    #[test]
    fn an_opening_phrase_of_the_template_moves_to_the_end() {
        assert_eq!(
            reason_question(
                "In the Goldschmidt classification, Bismuth is classed as siderophile.",
                "In the Goldschmidt classification, {head} is classed as {tail}."
            ),
            "What is the reason that Bismuth is classed as siderophile in the Goldschmidt \
             classification?"
        );
    }
}

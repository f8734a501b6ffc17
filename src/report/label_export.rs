//! Hand labels as judge training data: each label joined with its question and response,
//! in the shape a judge learns from ([`LabelFormat`]). `kgscope labels export` and the TUI's
//! export key both write what [`examples`] makes, so a file is the same from either.

use std::collections::HashMap;

use serde_json::json;

pub use crate::core::label_format::LabelFormat;
use crate::run::{Manifest, ResultRecord};
use crate::store::labels::{Label, LabelBook, LabelVerdict};
use crate::verify::OutcomeKind;

/// What the person says the answer was: `None` when the label blames the question or the KG,
/// which makes it no example of judging an answer.
pub fn truth(label: LabelVerdict) -> Option<OutcomeKind> {
    match label {
        LabelVerdict::Right => Some(OutcomeKind::Correct),
        LabelVerdict::Wrong => Some(OutcomeKind::Incorrect),
        LabelVerdict::Abstained => Some(OutcomeKind::Abstained),
        LabelVerdict::BadQuestion | LabelVerdict::KgWrong => None,
    }
}

const FPQ_INSTRUCTION: &str =
    "Judge whether the answer to the question is correct. Reply Yes or No.";
const FPQ_MISLED_INSTRUCTION: &str = "The question rests on a false premise. Judge whether the \
     answer was misled by it, answering as if the premise were true. Reply Yes or No.";

/// The label an export takes for one question; for a majority, who voted for its verdict
/// out of how many annotators.
pub struct Chosen<'a> {
    pub label: &'a Label,
    pub votes: Option<(Vec<&'a str>, usize)>,
}

/// The output lines of one label: none when it gives no training example in this format,
/// one per asked fact for KGHaluBench's fact judge, else one.
pub fn lines_for(
    format: LabelFormat,
    m: &Manifest,
    r: &ResultRecord,
    c: &Chosen,
) -> Vec<serde_json::Value> {
    match format {
        LabelFormat::HaluFactJudge => halu_facts(r, c.label),
        _ => line_for(format, m, r, c).into_iter().collect(),
    }
}

/// KGHaluBench fact-judge examples from one labelled compound answer (see
/// [`LabelFormat::HaluFactJudge`]).
fn halu_facts(r: &ResultRecord, l: &Label) -> Vec<serde_json::Value> {
    use crate::core::compound::{FactVerdict, Judged};
    let q = &r.question;
    let facts = q.gold.facts();
    let Some(check) = r.attempts.first().and_then(|a| a.compound.as_ref()) else {
        return vec![];
    };
    // Facts are checked only in an answer about the entity.
    if !matches!(check.judged, Judged::Aligned { .. }) {
        return vec![];
    }
    let Some(truth) = truth(l.label) else {
        return vec![];
    };
    let word = |v: FactVerdict| match v {
        FactVerdict::Stated => "YES",
        FactVerdict::Contradicted => "NO",
        FactVerdict::NotMentioned => "UNCLEAR",
    };
    let response = r.response();
    facts
        .iter()
        .filter_map(|f| {
            let chain = check
                .facts
                .iter()
                .find(|c| c.relation == f.relation)
                .and_then(|c| c.verdict);
            let (output, source) = match truth {
                OutcomeKind::Correct => ("YES", "annotator: every fact stated"),
                _ if truth == r.outcome => (word(chain?), "chain, outcome confirmed by annotator"),
                _ => return None,
            };
            let p = crate::method::kghalubench::judge::prompt(&f.sentence, response);
            Some(json!({
                "instruction": p.instruction,
                "input": p.input,
                "output": output,
                "relation": f.relation,
                "source": source,
                "question_id": q.id,
            }))
        })
        .collect()
}

/// One output line, or `None` when the label gives no training example in this format. The
/// jsonl line names its run, model and KG, so exports of several runs merge into one set.
pub fn line_for(
    format: LabelFormat,
    m: &Manifest,
    r: &ResultRecord,
    c: &Chosen,
) -> Option<serde_json::Value> {
    let q = &r.question;
    let l = c.label;
    match format {
        LabelFormat::HaluFactJudge => None,
        LabelFormat::Jsonl => {
            let mut v = json!({
                "run_id": m.run_id,
                "model": m.model_id,
                "kg": m.kg_source,
                "kg_fingerprint": m.kg_fingerprint,
                "question_id": q.id,
                "task": q.task,
                "prompt": q.prompt,
                // The gold answer in words ("true", "no", "B) Lima"), as the judge sees it.
                "gold": crate::method::of(q.task).gold_text(q),
                // The triple the model was asked about: for a negative, the corrupted one,
                // and which part of the true fact was replaced.
                "subject": q.subject,
                "predicate": q.predicate,
                "object": q.object,
                "subject_label": q.subject_label,
                "object_label": q.object_label,
                "replaced": q.negative,
                "relation": q.relation,
                "response": r.response(),
                "verdict": r.verdict,
                "outcome": r.outcome,
                "label": l.label,
                "error_type": l.error_type,
                "note": l.note,
                "annotator": l.annotator,
                "time": l.time,
                // Always there, null unless --majority: files of both kinds have one key set,
                // which `datasets` needs to load them together.
                "votes": null,
            });
            // A KGHaluBench answer: every stage of its chain, with each fact's verdict.
            if let Some(check) = r.attempts.first().and_then(|a| a.compound.as_ref()) {
                v["compound"] = json!(check);
            }
            if let Some((voters, of)) = &c.votes {
                v["annotator"] = json!("majority");
                v["votes"] = json!({"for": voters, "of": of, "carried_by": l.annotator});
            }
            Some(v)
        }
        LabelFormat::Grapheval => {
            let label = match truth(l.label)? {
                OutcomeKind::Correct => "correct",
                OutcomeKind::Incorrect => "incorrect",
                OutcomeKind::Abstained => "idk",
                OutcomeKind::Invalid => return None,
            };
            Some(json!({"statement": q.prompt, "response": r.response(), "label": label}))
        }
        LabelFormat::FpqJudge if q.premise.is_some() => {
            // A KG-FPQ run: only false-premise questions make examples, each with the
            // annotator's yes/no on "misled by the premise" (a wrong answer went along with it;
            // a right one rejected or corrected it; declining is not being misled).
            let premise = q.premise.as_ref()?;
            premise.edit?;
            let misled = match truth(l.label)? {
                OutcomeKind::Incorrect => "Yes",
                OutcomeKind::Correct | OutcomeKind::Abstained => "No",
                OutcomeKind::Invalid => return None,
            };
            let false_premise = match q.gold.premise() {
                Some((premise, _)) => premise.to_string(),
                None => format!("{} · {} · {}", q.subject_label, q.relation, q.object_label),
            };
            Some(json!({
                "instruction": FPQ_MISLED_INSTRUCTION,
                "input": format!(
                    "Question: {}\nFalse premise: {false_premise}\nAnswer: {}",
                    q.prompt,
                    r.response()
                ),
                "output": misled,
                "edit": premise.edit,
                "format": premise.format,
            }))
        }
        LabelFormat::FpqJudge => {
            let output = match truth(l.label)? {
                OutcomeKind::Correct => "Yes",
                OutcomeKind::Incorrect | OutcomeKind::Abstained => "No",
                OutcomeKind::Invalid => return None,
            };
            Some(json!({
                "instruction": FPQ_INSTRUCTION,
                "input": format!("Question: {}\nAnswer: {}", q.prompt, r.response()),
                "output": output,
            }))
        }
    }
}

/// What an export made of a run's labels: its lines in results order, each with the record
/// it came from, and what it left out.
pub struct Examples<'a> {
    pub lines: Vec<(serde_json::Value, &'a ResultRecord)>,
    /// Labels that give no example in this format (they blame the question or the KG, ...).
    pub skipped: usize,
    /// Questions whose annotators are tied (with a majority export).
    pub ties: usize,
    /// Labelled questions the run has no answer to.
    pub unknown: usize,
}

/// The label each question of `records` has for an export: `annotator`'s, or (`None`) the
/// verdict most annotators gave it. The first record of each question is taken, as `report`
/// takes it, in results order, so an export of the same labels is the same file every time.
pub struct ChosenLabels<'a> {
    pub labels: Vec<(&'a ResultRecord, Chosen<'a>)>,
    /// Questions whose annotators are tied (with a majority export).
    pub ties: usize,
    /// Labelled questions the run has no answer to.
    pub unknown: usize,
}

pub fn chosen<'a>(
    records: &'a [ResultRecord],
    book: &'a LabelBook,
    annotator: Option<&str>,
) -> ChosenLabels<'a> {
    let mut by_id: HashMap<&str, &ResultRecord> = HashMap::with_capacity(records.len());
    let mut out = ChosenLabels {
        labels: Vec::new(),
        ties: 0,
        unknown: 0,
    };
    for r in records {
        let qid = r.question.id.as_str();
        if by_id.contains_key(qid) {
            continue;
        }
        by_id.insert(qid, r);
        let chosen = match annotator {
            Some(name) => book
                .get(qid, name)
                .map(|label| Chosen { label, votes: None }),
            None => match book.majority(qid) {
                None => None,
                Some(Err(_)) => {
                    out.ties += 1;
                    None
                }
                Some(Ok(m)) => Some(Chosen {
                    label: m.label,
                    votes: Some((m.voters, m.of)),
                }),
            },
        };
        if let Some(chosen) = chosen {
            out.labels.push((r, chosen));
        }
    }
    out.unknown = book
        .questions()
        .iter()
        .filter(|q| !by_id.contains_key(**q))
        .count();
    out
}

/// The examples of `records`' labels in `format`, of the labels [`chosen`] takes.
pub fn examples<'a>(
    format: LabelFormat,
    manifest: &Manifest,
    records: &'a [ResultRecord],
    book: &'a LabelBook,
    annotator: Option<&str>,
) -> Examples<'a> {
    let chosen = chosen(records, book, annotator);
    let mut out = Examples {
        lines: Vec::new(),
        skipped: 0,
        ties: chosen.ties,
        unknown: chosen.unknown,
    };
    for (r, c) in chosen.labels {
        let made = lines_for(format, manifest, r, &c);
        if made.is_empty() {
            out.skipped += 1;
        }
        out.lines.extend(made.into_iter().map(|v| (v, r)));
    }
    out
}

/// The lines as a JSON Lines file, terminal-safe (it may be printed).
pub fn to_jsonl(lines: &[(serde_json::Value, &ResultRecord)]) -> serde_json::Result<Vec<u8>> {
    let mut out = Vec::new();
    for (v, _) in lines {
        crate::sanitize::write_json(&mut out, v)?;
        out.push(b'\n');
    }
    Ok(out)
}

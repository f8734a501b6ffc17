//! Hand labels as reviewed-set lines (tests/data/reviewed/): each labelled question as a
//! question line (`KG.jsonl`) and a verdict line (`KG.verdicts.jsonl`), so a team's own
//! reviewing in the TUI grows the set that `audit` and the reviewer are measured on.
//!
//! A label that judges the answer (right, wrong, abstained) found nothing wrong with the
//! question: accepted, cause null. "Bad question" and "KG wrong" reject it with their cause.

use serde::Serialize;

use crate::core::question::{Corruption, Task};
use crate::core::question_cause::QuestionCause;
use crate::questions::Question;
use crate::run::{Manifest, ResultRecord};
use crate::store::labels::{Label, LabelBook};

use super::label_export::chosen;

/// The KG's name as the set names it: a sample KG by its name ("sample:nba" is "nba"), a
/// file by its name without the extension.
pub fn kg_name(source: &str) -> String {
    if let Some(name) = source.strip_prefix("sample:") {
        return name.to_string();
    }
    let path = std::path::Path::new(source);
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| source.to_string())
}

/// The answer key in the set's words: TRUE/FALSE, the options with the right one between
/// stars, the accepted answers with their aliases, a premise and its truth, or the facts.
pub fn gold_line(q: &Question) -> String {
    let accepted = |a: &crate::questions::Accepted| {
        // A surveyed count, a temperature or a density is read as stated by any figure within
        // the spread of its sources: the reader of the set sees the key as wide as it is.
        let spread = match &a.value {
            crate::core::gold::ValueKind::Quantity { unit } => {
                crate::verify::numbers::spread(&a.label, unit.as_deref())
            }
            _ => None,
        }
        .map_or(String::new(), |s| {
            format!(" (or any figure within {}%)", (1000.0 * s).round() / 10.0)
        });
        if a.aliases.is_empty() {
            format!("{}{spread}", a.label)
        } else {
            format!("{}{spread} (aliases: {})", a.label, a.aliases.join(", "))
        }
    };
    let gold = &q.gold;
    if let Some(value) = gold.bool_value() {
        return if value { "TRUE" } else { "FALSE" }.into();
    }
    if let Some((options, correct)) = gold.choice() {
        let shown: Vec<String> = options
            .iter()
            .enumerate()
            .map(|(i, o)| {
                if i == correct {
                    format!("*{o}*")
                } else {
                    o.clone()
                }
            })
            .collect();
        return format!("options: {}", shown.join(" | "));
    }
    if let Some((premise, truth)) = gold.premise() {
        return format!("FALSE PREMISE: {premise} || truth: {truth}");
    }
    if !gold.facts().is_empty() {
        let shown: Vec<String> = gold
            .facts()
            .iter()
            .map(|f| {
                let values: Vec<&str> = f.accepted.iter().map(|a| a.label.as_str()).collect();
                format!("{} = {}", f.relation, values.join(", "))
            })
            .collect();
        return format!("facts: {}", shown.join(" ; "));
    }
    let shown: Vec<String> = gold.accepted().iter().map(accepted).collect();
    format!("accepted: {}", shown.join(" ; "))
}

/// "subject · relation · object" of the triple asked (a negative's corrupted one); a compound
/// question names every relation it asks.
fn asked_triple(q: &Question) -> String {
    let relation = match q.gold.facts() {
        [] => q.relation.clone(),
        facts => facts
            .iter()
            .map(|f| f.relation.as_str())
            .collect::<Vec<_>>()
            .join("; "),
    };
    format!("{} · {relation} · {}", q.subject_label, q.object_label)
}

/// A question as the set holds it, its keys in the set's order.
#[derive(Debug, Clone, Serialize)]
pub struct QuestionLine {
    pub id: String,
    pub kg: String,
    pub task: Task,
    pub prompt: String,
    pub gold: String,
    pub asked_triple: String,
    pub negative: Option<Corruption>,
    pub aliases: Vec<String>,
    /// KG-FPQ's questions say which edit made a false premise (null for a true one), as the
    /// set's KG-FPQ lines do; other methods' lines have no such key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub premise_edit: Option<Option<&'static str>>,
}

/// A reader's verdict on a question, its keys in the set's order.
#[derive(Debug, Clone, Serialize)]
pub struct VerdictLine {
    pub id: String,
    pub kg: String,
    pub task: Task,
    /// "accept" or "reject".
    pub verdict: &'static str,
    pub cause: Option<QuestionCause>,
    pub note: String,
}

pub fn question_line(kg: &str, q: &Question) -> QuestionLine {
    QuestionLine {
        id: q.id.clone(),
        kg: kg.to_string(),
        task: q.task,
        prompt: q.prompt.clone(),
        gold: gold_line(q),
        asked_triple: asked_triple(q),
        negative: q.negative,
        aliases: q.subject_aliases.clone(),
        premise_edit: q.premise.as_ref().map(|p| p.edit.map(|e| e.as_str())),
    }
}

/// The label as a reader's verdict on the question.
pub fn verdict_line(kg: &str, q: &Question, l: &Label) -> VerdictLine {
    let (verdict, cause, note) = if l.label.rejects_question() {
        (
            "reject",
            l.cause.or(l.label.implied_cause()),
            l.note.clone().unwrap_or_default(),
        )
    } else {
        // The note of an answer's label is about the answer, not the question.
        ("accept", None, String::new())
    };
    VerdictLine {
        id: q.id.clone(),
        kg: kg.to_string(),
        task: q.task,
        verdict,
        cause,
        note,
    }
}

/// A run's labels as reviewed-set lines, in results order.
pub struct Reviewed {
    pub kg: String,
    /// One pair per labelled question.
    pub lines: Vec<(QuestionLine, VerdictLine)>,
    pub rejected: usize,
    /// Rejections without a cause (labelled before the TUI asked for one).
    pub without_cause: usize,
    pub ties: usize,
    pub unknown: usize,
}

/// `annotator`'s labels of the run, or (`None`) the verdict most annotators gave each question.
pub fn reviewed(
    manifest: &Manifest,
    records: &[ResultRecord],
    book: &LabelBook,
    annotator: Option<&str>,
) -> Reviewed {
    let kg = kg_name(&manifest.kg_source);
    let chosen = chosen(records, book, annotator);
    let mut out = Reviewed {
        kg,
        lines: Vec::new(),
        rejected: 0,
        without_cause: 0,
        ties: chosen.ties,
        unknown: chosen.unknown,
    };
    for (r, c) in chosen.labels {
        let q = &r.question;
        let verdict = verdict_line(&out.kg, q, c.label);
        if verdict.verdict == "reject" {
            out.rejected += 1;
            out.without_cause += usize::from(verdict.cause.is_none());
        }
        out.lines.push((question_line(&out.kg, q), verdict));
    }
    out
}

/// One JSON object on one line in the set's spelling: ", " and ": " between items, text
/// unescaped (the set is read by people as much as by programs).
pub fn to_line<T: Serialize>(v: &T) -> String {
    struct Spaced;
    impl serde_json::ser::Formatter for Spaced {
        fn begin_array_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first {
                Ok(())
            } else {
                w.write_all(b", ")
            }
        }
        fn begin_object_key<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> std::io::Result<()> {
            if first {
                Ok(())
            } else {
                w.write_all(b", ")
            }
        }
        fn begin_object_value<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
        ) -> std::io::Result<()> {
            w.write_all(b": ")
        }
    }
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Spaced);
    v.serialize(&mut ser).expect("a line serialises");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// The id of a line of either file.
fn id_of(line: &str) -> Result<String, String> {
    #[derive(serde::Deserialize)]
    struct Id {
        id: String,
    }
    serde_json::from_str::<Id>(line)
        .map(|i| i.id)
        .map_err(|e| format!("a line without an id ({e})"))
}

/// The set's two files (their lines) merged with `new` (id, question line, verdict line): a
/// question exported again replaces its earlier lines in place, the others follow, and lines
/// already there are kept as they were written. Errors when the files are not pairs in the
/// same order, as the set needs them.
pub fn merge(
    old_questions: &[String],
    old_verdicts: &[String],
    new: &[(String, String, String)],
) -> Result<Vec<(String, String)>, String> {
    if old_questions.len() != old_verdicts.len() {
        return Err(format!(
            "{} question line(s) but {} verdict line(s)",
            old_questions.len(),
            old_verdicts.len()
        ));
    }
    let mut ids = Vec::with_capacity(old_questions.len() + new.len());
    let mut out: Vec<(String, String)> = Vec::with_capacity(ids.capacity());
    for (i, (q, v)) in old_questions.iter().zip(old_verdicts).enumerate() {
        let (qi, vi) = (id_of(q)?, id_of(v)?);
        if qi != vi {
            return Err(format!("line {}: question {qi} but verdict of {vi}", i + 1));
        }
        ids.push(qi);
        out.push((q.clone(), v.clone()));
    }
    for (id, q, v) in new {
        match ids.iter().position(|i| i == id) {
            Some(at) => out[at] = (q.clone(), v.clone()),
            None => {
                ids.push(id.clone());
                out.push((q.clone(), v.clone()));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_kgs_are_named_as_the_set_names_them() {
        assert_eq!(kg_name("sample:wikidata-countries"), "wikidata-countries");
        assert_eq!(kg_name("/data/kgs/my-kg.nt"), "my-kg");
    }

    #[test]
    fn an_export_again_replaces_its_lines_and_keeps_the_others() {
        let line = |id: &str, what: &str| format!("{{\"id\": \"{id}\", \"what\": \"{what}\"}}");
        let pair = |id: &str, v: &str| (id.to_string(), line(id, "q"), line(id, v));
        let old_q = vec![line("a", "q"), line("b", "q")];
        let old_v = vec![line("a", "accept"), line("b", "accept")];
        let merged = merge(&old_q, &old_v, &[pair("b", "reject"), pair("c", "accept")]).unwrap();
        let verdicts: Vec<&str> = merged.iter().map(|(_, v)| v.as_str()).collect();
        assert_eq!(
            verdicts,
            [
                line("a", "accept"),
                line("b", "reject"),
                line("c", "accept")
            ]
        );
        assert!(merge(&old_q, &old_v[..1], &[]).is_err());
        assert!(merge(&old_q, &[old_v[1].clone(), old_v[0].clone()], &[]).is_err());
    }

    #[test]
    fn lines_are_spelt_as_the_set_spells_them() {
        let v = serde_json::json!({"a": [1, 2], "b": null});
        assert_eq!(to_line(&v), r#"{"a": [1, 2], "b": null}"#);
        assert_eq!(to_line(&"Curaçao"), "\"Curaçao\"");
    }
}

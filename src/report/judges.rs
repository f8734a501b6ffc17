//! The verifiers of a run against its hand labels, from its records: what each verifier made
//! of each answer ([`observe`]), the annotators' majority as the comparison takes it
//! ([`hand`]), and the figures of [`crate::metrics::judges`] as a report section ([`blocks`],
//! [`text`]). The TUI's Judge screen draws the same figures.

use std::fmt::Write;

use crate::core::verdict::JudgeClass;
use crate::metrics::judges::{self, Agreement, Hand, JudgeReport, Observation, Verifier};
use crate::report::doc::Block;
use crate::run::ResultRecord;
use crate::sanitize::line as clean;
use crate::store::labels::{LabelBook, LabelVerdict};
use crate::verify::{self, Verdict};

/// At most this many answers are queued to label next.
pub const QUEUE_MAX: usize = 50;

/// What the report says when a run has no hand labels.
pub const NO_LABELS: &str = "no hand labels yet: label in the TUI's Judge view";

/// What each verifier made of one record's answer.
///
/// - The rules: every attempt's response read again by the method's rules and voted as the
///   run votes, whenever something was generated (not in a `--via-judge` run, nor for a
///   KGHaluBench question, whose chain is not the rules alone). Unsure when any attempt's
///   reading was.
/// - The LLM judge: the outcomes it decided, voted over its attempts.
/// - The trained judge: its probabilities averaged over its attempts; the most probable class.
/// - Recorded: the record's own outcome (before any hand label).
pub fn observe(r: &ResultRecord) -> Observation {
    let q = &r.question;
    let truth = q.gold.truth();
    let class_of =
        |verdicts: &[Verdict]| JudgeClass::of_outcome(verify::judge(verify::vote(verdicts), truth));
    let mut calls = [None; 4];
    let mut rules_unsure = false;
    let generated = r.attempts.iter().any(|a| !a.response.is_empty());
    // A compound answer's reading is its chain's, which the rules alone do not give again.
    if generated && q.gold.facts().is_empty() {
        let method = crate::method::of(q.task);
        let readings: Vec<verify::Reading> = r
            .attempts
            .iter()
            .map(|a| method.read(q, &a.response))
            .collect();
        rules_unsure = readings.iter().any(|x| !x.confident);
        let verdicts: Vec<Verdict> = readings.iter().map(|x| x.verdict).collect();
        calls[Verifier::Rules.index()] = Some(class_of(&verdicts));
    }
    let judged: Vec<Verdict> = r
        .attempts
        .iter()
        .filter_map(|a| a.judge.as_ref()?.outcome)
        .map(|o| verify::claim_for(o, truth))
        .collect();
    if !judged.is_empty() {
        calls[Verifier::LlmJudge.index()] = Some(class_of(&judged));
    }
    let trained: Vec<[f32; 3]> = r
        .attempts
        .iter()
        .filter_map(|a| Some(a.trained.as_ref()?.probs))
        .collect();
    let mut trained_top = None;
    if !trained.is_empty() {
        let mut mean = [0f32; 3];
        for p in &trained {
            for (m, x) in mean.iter_mut().zip(p) {
                *m += x / trained.len() as f32;
            }
        }
        let class = JudgeClass::argmax(&mean);
        trained_top = Some(mean[class.index()]);
        calls[Verifier::Trained.index()] = Some(Some(class));
    }
    calls[Verifier::Recorded.index()] = Some(JudgeClass::of_outcome(r.outcome));
    Observation {
        question_id: q.id.clone(),
        calls,
        rules_unsure,
        trained_top,
    }
}

/// The annotators' majority on a question as the comparison takes it: right, wrong and
/// abstained are classes; bad question and KG wrong, and ties, are left out.
pub fn hand(book: &LabelBook, question_id: &str) -> Hand {
    match book.majority(question_id) {
        None => Hand::Unlabelled,
        Some(Err(_)) => Hand::Tied,
        Some(Ok(m)) => m
            .label
            .label
            .class()
            .map_or(Hand::Uncomparable, Hand::Class),
    }
}

/// The hand label a class stands for (what an annotator would have pressed).
pub fn label_of(c: JudgeClass) -> LabelVerdict {
    match c {
        JudgeClass::Correct => LabelVerdict::Right,
        JudgeClass::Incorrect => LabelVerdict::Wrong,
        JudgeClass::Idk => LabelVerdict::Abstained,
    }
}

/// Every verifier of `records` against the labels in `book`, and up to [`QUEUE_MAX`] answers
/// to label next.
pub fn of(records: &[ResultRecord], book: &LabelBook) -> JudgeReport {
    let observations: Vec<Observation> = records.iter().map(observe).collect();
    judges::compare(&observations, |q| hand(book, q), QUEUE_MAX)
}

/// "0.368", or "–" when undefined.
pub fn num(x: Option<f64>) -> String {
    x.map_or_else(|| "–".into(), |x| format!("{x:.3}"))
}

/// The hand labels in one sentence: how many compare, how many are left out and why.
pub fn labels_line(r: &JudgeReport) -> String {
    let l = &r.labels;
    if l.labelled() == 0 {
        return format!("{NO_LABELS}.");
    }
    format!(
        "{} of {} answers hand-labelled right, wrong or abstained (the majority of their \
         annotators); {} labelled bad question or KG wrong and {} tied are left out; {} unlabelled.",
        l.comparable, r.answers, l.uncomparable, l.tied, l.unlabelled
    )
}

/// The rules' unsure flag against the labels, in one sentence; `None` without rules or labels.
pub fn unsure_line(r: &JudgeReport) -> Option<String> {
    let u = r.rules_unsure?;
    if u.unsure.n + u.confident.n == 0 {
        return None;
    }
    let part = |x: judges::RightOf| match x.n {
        0 => "none labelled".to_string(),
        n => format!("{} of {n} right ({})", x.right, num(x.share())),
    };
    Some(format!(
        "The rules, where unsure: {}; where sure: {}.",
        part(u.unsure),
        part(u.confident)
    ))
}

const SUMMARY_HEADER: [&str; 9] = [
    "verifier",
    "answers",
    "n",
    "agreement",
    "kappa",
    "macro F1",
    "F1 correct",
    "F1 incorrect",
    "F1 idk",
];

fn summary_row(a: &Agreement) -> Vec<String> {
    let mut row = vec![
        a.verifier.name().to_string(),
        a.answers.to_string(),
        a.n.to_string(),
        num(a.agreement),
        num(a.kappa),
        num(a.macro_f1),
    ];
    row.extend(a.classes.iter().map(|c| num(c.f1)));
    row
}

/// A verifier's confusion matrix as rows: the hand label, then the verifier's count in each
/// class.
fn matrix_rows(a: &Agreement) -> Vec<Vec<String>> {
    JudgeClass::ALL
        .iter()
        .map(|h| {
            let mut row = vec![h.name().to_string()];
            row.extend(a.matrix[h.index()].iter().map(|k| k.to_string()));
            row
        })
        .collect()
}

fn matrix_header(a: &Agreement) -> Vec<String> {
    let mut h = vec![format!("hand label \\ {}", a.verifier.name())];
    h.extend(JudgeClass::ALL.iter().map(|c| c.name().to_string()));
    h
}

/// What a verifier read no class from, when there was any.
fn unread_line(a: &Agreement) -> Option<String> {
    (a.unread > 0).then(|| {
        format!(
            "{}: {} hand-labelled answers read as unreadable are not in the matrix.",
            a.verifier.name(),
            a.unread
        )
    })
}

/// The report's section on the verifiers; empty when the run has no hand labels and one
/// verifier only ([`JudgeReport::shown`]). `labels_read` is false under `--no-labels`, which
/// the section then says.
pub fn blocks(r: &JudgeReport, labels_read: bool) -> Vec<Block> {
    if !r.shown() {
        return vec![];
    }
    let mut b = vec![Block::Heading(2, "Verifiers against hand labels".into())];
    if labels_read {
        b.push(Block::Para(labels_line(r)));
    } else {
        b.push(Block::Para(
            "Hand labels were not read (--no-labels): the verifiers are set against each other only."
                .into(),
        ));
    }
    b.push(Block::Table {
        header: SUMMARY_HEADER.map(String::from).to_vec(),
        rows: r.verifiers.iter().map(summary_row).collect(),
        numeric: true,
    });
    for a in r.verifiers.iter().filter(|a| a.n > 0) {
        b.push(Block::Table {
            header: matrix_header(a),
            rows: matrix_rows(a),
            numeric: true,
        });
        if let Some(l) = unread_line(a) {
            b.push(Block::Para(l));
        }
    }
    if let Some(l) = unsure_line(r) {
        b.push(Block::Para(l));
    }
    if !r.queue.is_empty() {
        b.push(Block::Para(format!(
            "Label next: {} of {} unlabelled answers the verifiers disagree on or are unsure of.",
            r.queue.len(),
            r.queue_candidates
        )));
        b.push(Block::Table {
            header: vec!["question id".into(), "why".into()],
            rows: r
                .queue
                .iter()
                .map(|q| vec![q.question_id.clone(), q.why.clone()])
                .collect(),
            numeric: false,
        });
    }
    b
}

/// Columns padded to their widest cell, the first left-aligned, the rest right-aligned.
fn text_table(out: &mut String, indent: &str, header: &[String], rows: &[Vec<String>]) {
    let cells = |r: &[String]| r.iter().map(|c| clean(c)).collect::<Vec<String>>();
    let all: Vec<Vec<String>> = std::iter::once(cells(header))
        .chain(rows.iter().map(|r| cells(r)))
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            all.iter()
                .map(|r| r.get(i).map_or(0, |c| c.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for r in &all {
        let mut line = indent.to_string();
        for (i, (c, w)) in r.iter().zip(&widths).enumerate() {
            if i == 0 {
                let _ = write!(line, "{c:<w$}");
            } else {
                let _ = write!(line, "  {c:>w$}");
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// The section for the terminal report; empty when [`blocks`] would be.
pub fn text(r: &JudgeReport, labels_read: bool) -> String {
    let mut out = String::new();
    for b in blocks(r, labels_read) {
        match b {
            Block::Heading(_, t) => {
                let _ = writeln!(out, "\n{}:", t.to_lowercase());
            }
            Block::Para(t) => {
                let _ = writeln!(out, "{}", clean(&t));
            }
            Block::Table { header, rows, .. } => text_table(&mut out, "  ", &header, &rows),
            Block::Figure { caption, .. } => {
                let _ = writeln!(out, "{}", clean(&caption));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::questions::Gold;
    use crate::record::{Attempt, JudgeCall, TrainedCall};
    use crate::store::labels::{Label, LabelEntry};
    use crate::verify::OutcomeKind;

    fn statement(id: &str, truth: bool) -> crate::questions::Question {
        let mut q = crate::questions::tests_support::question();
        q.id = id.into();
        q.positive_id = id.into();
        q.gold = Gold::Bool { value: truth };
        q
    }

    fn attempt(response: &str, verdict: Verdict) -> Attempt {
        Attempt {
            response: response.into(),
            verdict,
            answer: None,
            rule: "test".into(),
            stage: Default::default(),
            judge: None,
            compound: None,
            trained: None,
            likelihood: None,
            prompt_tokens: 0,
            completion_tokens: 0,
            first_token_ms: 0,
            total_ms: 0,
            finish_reason: "stop".into(),
        }
    }

    fn record(q: crate::questions::Question, attempts: Vec<Attempt>) -> ResultRecord {
        crate::run::engine::verify_record(q, attempts)
    }

    fn label(q: &str, who: &str, v: LabelVerdict) -> LabelEntry {
        LabelEntry::Label(Label {
            question_id: q.into(),
            label: v,
            error_type: None,
            note: None,
            cause: None,
            annotator: who.into(),
            time: "2026-01-01T00:00:00Z".into(),
        })
    }

    #[test]
    fn each_verifier_is_read_from_the_record() {
        // A true statement answered "False.": the rules read it as incorrect (sure); the
        // judge, asked anyway, called it correct, and the run recorded the judge's call.
        let mut a = attempt("False.", Verdict::True);
        a.stage = crate::verify::Stage::Judge;
        a.judge = Some(JudgeCall {
            model: "judge".into(),
            output: "CORRECT".into(),
            outcome: Some(OutcomeKind::Correct),
            reason: "--judge-all".into(),
        });
        let o = observe(&record(statement("q1", true), vec![a]));
        assert_eq!(o.call(Verifier::Rules), Some(Some(JudgeClass::Incorrect)));
        assert!(!o.rules_unsure);
        assert_eq!(o.call(Verifier::LlmJudge), Some(Some(JudgeClass::Correct)));
        assert_eq!(o.call(Verifier::Trained), None);
        assert_eq!(o.call(Verifier::Recorded), Some(Some(JudgeClass::Correct)));
        assert!(o.disagreement());

        // A --via-judge record: nothing generated, so no rules; the trained judge's mean.
        let mut t = attempt("", Verdict::Idk);
        t.stage = crate::verify::Stage::Trained;
        t.trained = Some(TrainedCall {
            judge: "j".into(),
            probs: [0.3, 0.25, 0.45],
        });
        let o = observe(&record(statement("q2", false), vec![t]));
        assert_eq!(o.call(Verifier::Rules), None);
        assert_eq!(o.call(Verifier::Trained), Some(Some(JudgeClass::Idk)));
        assert!((o.trained_top.unwrap() - 0.45).abs() < 1e-6);
        assert!(!o.disagreement());

        // An unreadable answer: the rules read no class.
        let o = observe(&record(
            statement("q3", true),
            vec![attempt("Bananas are yellow.", Verdict::Invalid)],
        ));
        assert_eq!(o.call(Verifier::Recorded), Some(None));
    }

    #[test]
    fn majority_labels_become_classes_and_the_rest_is_left_out() {
        let book = LabelBook::from_entries([
            label("a", "ann", LabelVerdict::Right),
            label("b", "ann", LabelVerdict::KgWrong),
            label("c", "ann", LabelVerdict::Wrong),
            label("c", "bob", LabelVerdict::Right),
            label("d", "ann", LabelVerdict::Abstained),
            label("d", "bob", LabelVerdict::Abstained),
            label("d", "cy", LabelVerdict::Wrong),
        ]);
        assert_eq!(hand(&book, "a"), Hand::Class(JudgeClass::Correct));
        assert_eq!(hand(&book, "b"), Hand::Uncomparable);
        assert_eq!(hand(&book, "c"), Hand::Tied);
        assert_eq!(hand(&book, "d"), Hand::Class(JudgeClass::Idk));
        assert_eq!(hand(&book, "e"), Hand::Unlabelled);
    }

    #[test]
    fn the_section_says_when_there_are_no_labels_and_is_left_out_when_idle() {
        // One verifier (the rules; recorded is theirs) and no labels: nothing to say.
        let records = vec![
            record(statement("q1", true), vec![attempt("True.", Verdict::True)]),
            record(
                statement("q2", false),
                vec![attempt("True.", Verdict::True)],
            ),
        ];
        let r = of(&records, &LabelBook::default());
        assert!(!r.shown());
        assert!(blocks(&r, true).is_empty());
        assert_eq!(text(&r, true), "");
        // With a judge on one answer, two verifiers: the section, saying there are no labels.
        let mut judged = records.clone();
        judged[1].attempts[0].judge = Some(JudgeCall {
            model: "judge".into(),
            output: "CORRECT".into(),
            outcome: Some(OutcomeKind::Correct),
            reason: "the rules were not confident".into(),
        });
        let r = of(&judged, &LabelBook::default());
        assert!(r.shown());
        let t = text(&r, true);
        assert!(t.contains(NO_LABELS), "{t}");
        assert!(t.contains("LLM judge"), "{t}");
        assert!(t.contains("rules: incorrect · LLM judge: correct"), "{t}");
        // With labels: the matrix and kappa. q1 right (rules: correct), q2 wrong (rules:
        // incorrect): perfect agreement on two classes, kappa 1.
        let book = LabelBook::from_entries([
            label("q1", "ann", LabelVerdict::Right),
            label("q2", "ann", LabelVerdict::Wrong),
        ]);
        let r = of(&records, &book);
        assert!(r.shown());
        let a = r.agreement(Verifier::Rules).unwrap();
        assert_eq!(a.kappa, Some(1.0));
        let md = crate::report::doc::markdown(&blocks(&r, true));
        assert!(md.contains("| rules | 2 | 2 | 1.000 | 1.000 |"), "{md}");
        assert!(md.contains("hand label \\\\ rules"), "{md}");
        assert!(!md.contains(NO_LABELS), "{md}");
    }
}

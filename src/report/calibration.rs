//! How well a run's confidences match its accuracy, overall and per relation: the expected
//! calibration error of the answers that carry a confidence (token probabilities when the
//! answers were chosen by likelihood, self-consistency when they were asked several times).

use serde::Serialize;

use super::doc::Block;
use super::loaded::LoadedRun;
use crate::metrics::calibration::{self, Calibration};
use crate::run::ResultRecord;

/// Bins of the reliability diagram and of every ECE in reports.
pub const BINS: usize = 10;

/// A relation's ECE is shown when it has at least this many answers with a confidence.
const MIN_PER_RELATION: u64 = 5;

/// One answer with a confidence: the point the reliability diagram bins.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Confident {
    pub relation: String,
    /// The model's probability of its answer.
    pub p: f64,
    pub correct: bool,
}

/// The answer's confidence, for the reliability diagram: the probability the model gave the
/// chosen option when the answer was chosen by likelihood, else its self-consistency (the
/// share of the question's attempts that gave the majority's verdict). A question asked once
/// and answered by generation carries none.
pub fn confidence(r: &ResultRecord) -> Option<f64> {
    if let [a] = r.attempts.as_slice() {
        if let Some(l) = &a.likelihood {
            return Some(l.answer().1);
        }
    }
    (r.attempts.len() >= 2).then(|| {
        let agree = r.attempts.iter().filter(|a| a.verdict == r.verdict).count();
        agree as f64 / r.attempts.len() as f64
    })
}

/// The record's point, if it has a confidence.
pub fn point(r: &ResultRecord) -> Option<Confident> {
    Some(Confident {
        relation: r.question.relation.clone(),
        p: confidence(r)?,
        correct: r.outcome == crate::verify::OutcomeKind::Correct,
    })
}

/// What the confidences are: in a few words (figure titles), and in full (reports).
fn sources(run: &LoadedRun) -> (&'static str, &'static str) {
    if run.manifest.config.scoring.is_generate() {
        (
            "self-consistency",
            "self-consistency over repeated attempts",
        )
    } else {
        (
            "token probabilities",
            "token probabilities of the answers chosen by likelihood",
        )
    }
}

/// What the confidences are, in a few words (figure titles).
pub fn source_name(run: &LoadedRun) -> &'static str {
    sources(run).0
}

fn source(run: &LoadedRun) -> &'static str {
    sources(run).1
}

/// The whole run's calibration and each relation's with enough answers.
pub fn of(run: &LoadedRun) -> Option<(Calibration, Vec<(String, Calibration)>)> {
    let all = calibration::of(run.confidences.iter().map(|c| (c.p, c.correct)), BINS)?;
    // One pass: a run may hold a million answers.
    let mut by_relation: std::collections::BTreeMap<&str, Vec<(f64, bool)>> = Default::default();
    for c in &run.confidences {
        by_relation
            .entry(c.relation.as_str())
            .or_default()
            .push((c.p, c.correct));
    }
    let per = by_relation
        .into_iter()
        .filter_map(|(rel, items)| {
            let c = calibration::of(items, BINS)?;
            (c.n >= MIN_PER_RELATION).then(|| (rel.to_string(), c))
        })
        .collect();
    Some((all, per))
}

fn mean_confidence(c: &Calibration) -> f64 {
    c.bins
        .iter()
        .map(|b| b.confidence * b.n as f64)
        .sum::<f64>()
        / c.n.max(1) as f64
}

fn accuracy(c: &Calibration) -> f64 {
    c.bins
        .iter()
        .map(|b| b.accuracy.value * b.n as f64)
        .sum::<f64>()
        / c.n.max(1) as f64
}

fn row(name: &str, c: &Calibration) -> Vec<String> {
    vec![
        name.to_string(),
        c.n.to_string(),
        format!("{:.3}", mean_confidence(c)),
        format!("{:.3}", accuracy(c)),
        format!("{:.3}", c.ece),
    ]
}

const HEADER: [&str; 5] = ["relation", "n", "mean confidence", "accuracy", "ECE"];

/// The report's calibration section (none when no answer has a confidence).
pub fn blocks(run: &LoadedRun) -> Vec<Block> {
    let Some((all, per)) = of(run) else {
        return vec![];
    };
    let mut rows = vec![row("all", &all)];
    rows.extend(per.iter().map(|(r, c)| row(r, c)));
    vec![
        Block::Heading(2, "Calibration".into()),
        Block::Para(format!(
            "Confidence: {}. Expected calibration error over {BINS} equal-width bins; a \
             relation is listed with at least {MIN_PER_RELATION} answers.",
            source(run)
        )),
        Block::Table {
            header: HEADER.map(String::from).to_vec(),
            rows,
            numeric: true,
        },
    ]
}

/// The calibration section of the text report.
pub fn text(run: &LoadedRun) -> String {
    let Some((all, per)) = of(run) else {
        return String::new();
    };
    let mut out = format!(
        "\ncalibration ({}): ECE {:.3} over {} answers, mean confidence {:.3}, accuracy {:.3}\n",
        source(run),
        all.ece,
        all.n,
        mean_confidence(&all),
        accuracy(&all)
    );
    if !per.is_empty() {
        out.push_str(&format!(
            "{:<34} {:>5} {:>10} {:>9} {:>7}\n",
            "relation", "n", "confidence", "accuracy", "ECE"
        ));
        for (r, c) in &per {
            out.push_str(&format!(
                "{:<34} {:>5} {:>10.3} {:>9.3} {:>7.3}\n",
                crate::sanitize::escape(r),
                c.n,
                mean_confidence(c),
                accuracy(c),
                c.ece
            ));
        }
    }
    out
}

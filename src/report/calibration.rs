//! How well a run's confidences match its accuracy, overall and per relation: the expected
//! calibration error of the answers that carry a confidence (token probabilities when the
//! answers were chosen by likelihood, self-consistency when they were asked several times).

use super::doc::Block;
use super::loaded::LoadedRun;
use crate::metrics::calibration::{self, Calibration};

/// Bins of the reliability diagram and of every ECE in reports.
pub const BINS: usize = 10;

/// A relation's ECE is shown when it has at least this many answers with a confidence.
const MIN_PER_RELATION: u64 = 5;

pub use super::confidence::{confidence, point, Confident};

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

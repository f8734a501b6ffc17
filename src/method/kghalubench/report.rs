//! What `kgscope report` adds for a KGHaluBench run: how the verification chain decided (the
//! answers each filter stopped, the facts each stage of the fact check decided, where the
//! descriptions came from), the metrics per band, and the spread over the run's assessments
//! (the paper reports the mean of 10 runs of 150 questions).

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use crate::core::compound::{FactStage, Judged, FACTS_PER_QUESTION};
use crate::metrics::{GroupStats, Metric, Snapshot};
use crate::record::ResultRecord;
use crate::sanitize::line as clean;

/// Counts of the chain's decisions over a run's answers.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ChainCounts {
    pub answers: u64,
    pub abstained: u64,
    pub breadth: u64,
    pub aligned: u64,
    /// Facts decided by each stage of the fact check (aligned answers only), by stage name.
    pub facts_by_stage: BTreeMap<String, u64>,
    /// Facts never checked: their answer abstained or was a breadth hallucination.
    pub facts_not_checked: u64,
    pub facts_stated: u64,
    /// Questions whose description the KG states (the rest were rendered from facts).
    pub descriptions_from_kg: u64,
}

impl ChainCounts {
    pub fn add(&mut self, r: &ResultRecord) {
        let Some(check) = r.attempts.first().and_then(|a| a.compound.as_ref()) else {
            return;
        };
        self.answers += 1;
        if r.question
            .compound
            .as_ref()
            .is_some_and(|m| m.description_from_kg)
        {
            self.descriptions_from_kg += 1;
        }
        match check.judged {
            Judged::Abstained => self.abstained += 1,
            Judged::Breadth => self.breadth += 1,
            Judged::Aligned { .. } => self.aligned += 1,
        }
        if !matches!(check.judged, Judged::Aligned { .. }) {
            self.facts_not_checked += u64::from(FACTS_PER_QUESTION);
        }
        for f in &check.facts {
            *self
                .facts_by_stage
                .entry(f.stage.as_str().to_string())
                .or_default() += 1;
            self.facts_stated += u64::from(f.is_stated());
        }
    }
}

/// Mean and sample standard deviation; the deviation is `None` for fewer than two values.
fn mean_sd(values: &[f64]) -> Option<(f64, Option<f64>)> {
    if values.is_empty() {
        return None;
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let sd = (values.len() > 1)
        .then(|| (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt());
    Some((mean, sd))
}

/// The metrics of each assessment (`--repeats`), in order.
pub fn assessments(s: &Snapshot) -> Vec<(String, GroupStats)> {
    let mut v: Vec<(String, GroupStats)> = s
        .by_facet
        .get("assessment")
        .map(|m| m.iter().map(|(k, g)| (k.clone(), g.clone())).collect())
        .unwrap_or_default();
    v.sort_by_key(|(k, _)| k.parse::<u64>().unwrap_or(u64::MAX));
    v
}

fn pct(m: Metric, g: &GroupStats) -> String {
    m.of(g)
        .map_or("     -".into(), |r| format!("{:5.1}%", 100.0 * r.value))
}

/// What the chain decided, in three sentences: answers per filter, facts per stage, and where
/// the descriptions came from.
pub fn chain_lines(c: &ChainCounts) -> Vec<String> {
    let stages: Vec<String> = FactStage::ALL
        .iter()
        .map(|st| {
            format!(
                "{} {}",
                st.as_str(),
                c.facts_by_stage.get(st.as_str()).copied().unwrap_or(0)
            )
        })
        .collect();
    vec![
        format!(
            "KGHaluBench chain: {} answers: {} abstained, {} breadth hallucinations, {} aligned",
            c.answers, c.abstained, c.breadth, c.aligned
        ),
        format!(
            "facts decided by: {}; not checked (abstained or breadth) {}; stated {}",
            stages.join(", "),
            c.facts_not_checked,
            c.facts_stated
        ),
        format!(
            "descriptions: {} from the KG, {} rendered from the entity's facts",
            c.descriptions_from_kg,
            c.answers - c.descriptions_from_kg
        ),
    ]
}

/// The KGHaluBench section, 80 columns; empty when the run has no compound answer.
pub fn text(s: &Snapshot, c: &ChainCounts) -> String {
    let mut out = String::new();
    if c.answers == 0 {
        return out;
    }
    out.push('\n');
    for line in chain_lines(c) {
        let _ = writeln!(out, "{line}");
    }
    let metrics = [
        Metric::PointAccuracy,
        Metric::WeightedAccuracy,
        Metric::BreadthRate,
        Metric::DepthRate,
    ];
    let header = |out: &mut String, title: &str| {
        let _ = writeln!(
            out,
            "\n{title:<22} {:>5}  {:>7} {:>8} {:>8} {:>8}",
            "n", "points", "weighted", "breadth", "depth"
        );
    };
    if let Some(bands) = s.by_facet.get("band") {
        header(&mut out, "band");
        for (band, g) in bands {
            let cells: Vec<String> = metrics.iter().map(|m| pct(*m, g)).collect();
            let _ = writeln!(
                out,
                "{} {:>5}  {:>7} {:>8} {:>8} {:>8}",
                crate::display_width::pad(&clean(band), 22),
                g.n,
                cells[0],
                cells[1],
                cells[2],
                cells[3]
            );
        }
    }
    let runs = assessments(s);
    if runs.len() > 1 {
        header(&mut out, "assessment");
        let mut per_metric: Vec<Vec<f64>> = vec![vec![]; metrics.len()];
        for (name, g) in &runs {
            let cells: Vec<String> = metrics.iter().map(|m| pct(*m, g)).collect();
            for (i, m) in metrics.iter().enumerate() {
                if let Some(r) = m.of(g) {
                    per_metric[i].push(r.value);
                }
            }
            let _ = writeln!(
                out,
                "{} {:>5}  {:>7} {:>8} {:>8} {:>8}",
                crate::display_width::pad(&clean(name), 22),
                g.n,
                cells[0],
                cells[1],
                cells[2],
                cells[3]
            );
        }
        let spread: Vec<String> = per_metric
            .iter()
            .zip(metrics)
            .map(|(v, m)| match mean_sd(v) {
                Some((mean, Some(sd))) => {
                    format!("{} {:.1}% ± {:.1}", m.name(), 100.0 * mean, 100.0 * sd)
                }
                Some((mean, None)) => format!("{} {:.1}%", m.name(), 100.0 * mean),
                None => format!("{} -", m.name()),
            })
            .collect();
        let _ = writeln!(
            out,
            "mean ± sd over {} assessments: {}",
            runs.len(),
            spread.join("; ")
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_sample_deviation() {
        let (m, sd) = mean_sd(&[0.2, 0.4, 0.6]).unwrap();
        assert!((m - 0.4).abs() < 1e-12);
        assert!((sd.unwrap() - 0.2).abs() < 1e-12);
        assert_eq!(mean_sd(&[0.5]), Some((0.5, None)));
        assert_eq!(mean_sd(&[]), None);
    }
}

//! The metrics a run can show, by name, and the sums a method's outcomes feed. Which ones a
//! run shows, and in what order, is its method's choice (`Method::metrics`); how each is read
//! from a group's stats is the metrics layer's (`metrics::metric`).

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Correctness,
    Truthfulness,
    Informativeness,
    Accuracy,
    AbstainRate,
    InvalidRate,
    WinRate,
    ZeroSense,
    Precision,
    Recall,
    F1,
    /// KGHaluBench: points / (3 × questions).
    PointAccuracy,
    /// KGHaluBench: the point accuracy × D / D̄.
    WeightedAccuracy,
    /// KGHaluBench's breadth hallucination rate: breadth hallucinations / answers that did not
    /// abstain.
    BreadthRate,
    /// KGHaluBench's depth hallucination rate: wrong facts / facts asked in aligned answers.
    DepthRate,
}

impl Metric {
    pub const ALL: [Metric; 15] = [
        Metric::Correctness,
        Metric::Truthfulness,
        Metric::Informativeness,
        Metric::Accuracy,
        Metric::AbstainRate,
        Metric::InvalidRate,
        Metric::WinRate,
        Metric::ZeroSense,
        Metric::Precision,
        Metric::Recall,
        Metric::F1,
        Metric::PointAccuracy,
        Metric::WeightedAccuracy,
        Metric::BreadthRate,
        Metric::DepthRate,
    ];

    /// A metric by its name as shown, or with hyphens for spaces ("abstain-rate", "f1").
    pub fn parse(name: &str) -> Option<Metric> {
        let want = name.trim().to_lowercase().replace('-', " ");
        Self::ALL
            .into_iter()
            .find(|m| m.name().to_lowercase() == want)
    }

    /// The rates every method has, from its outcome counts.
    pub const OUTCOME_RATES: [Metric; 3] =
        [Metric::Accuracy, Metric::AbstainRate, Metric::InvalidRate];

    /// What a summary lists for a method whose metrics are `own`: the outcome rates, then the
    /// method's own in its order.
    pub fn summary_of(own: &[Metric]) -> Vec<Metric> {
        let outcome = Self::OUTCOME_RATES;
        outcome
            .iter()
            .chain(own.iter().filter(|m| !outcome.contains(m)))
            .copied()
            .collect()
    }

    /// The method's headline: its first own metric that is not an outcome rate (GraphEval
    /// correctness, KGLens win rate, Luo et al.'s F1).
    pub fn headline_of(own: &[Metric]) -> Option<Metric> {
        own.iter()
            .copied()
            .find(|m| !Self::OUTCOME_RATES.contains(m))
    }

    pub fn name(self) -> &'static str {
        match self {
            Metric::Correctness => "correctness",
            Metric::Truthfulness => "truthfulness",
            Metric::Informativeness => "informativeness",
            Metric::Accuracy => "accuracy",
            Metric::AbstainRate => "abstain rate",
            Metric::InvalidRate => "invalid rate",
            Metric::WinRate => "win rate",
            Metric::ZeroSense => "zero-sense rate",
            Metric::Precision => "precision",
            Metric::Recall => "recall",
            Metric::F1 => "F1",
            Metric::PointAccuracy => "point accuracy",
            Metric::WeightedAccuracy => "weighted accuracy",
            Metric::BreadthRate => "breadth rate",
            Metric::DepthRate => "depth rate",
        }
    }
    /// What the metric's n counts: the unit its value and its interval are computed over
    /// (`metrics::Metric::n_of`), said beside every n that is shown with them.
    pub fn unit(self) -> &'static str {
        match self {
            // GraphEval scores a true statement together with its false variants: one fact.
            Metric::Correctness | Metric::Truthfulness | Metric::Informativeness => "facts",
            Metric::Accuracy
            | Metric::AbstainRate
            | Metric::InvalidRate
            | Metric::Recall
            | Metric::F1 => "answers",
            Metric::Precision | Metric::BreadthRate => "answers that did not abstain",
            Metric::WinRate | Metric::ZeroSense => "edges",
            Metric::PointAccuracy | Metric::WeightedAccuracy => "facts asked",
            Metric::DepthRate => "facts of aligned answers",
        }
    }
    /// Where the value sits on the colour scale, 1 being good.
    pub fn goodness(self, v: f64) -> f64 {
        match self {
            Metric::AbstainRate
            | Metric::InvalidRate
            | Metric::ZeroSense
            | Metric::BreadthRate
            | Metric::DepthRate => 1.0 - v,
            _ => v,
        }
    }
}

/// Which sums a method's outcomes feed besides the outcome counts every method has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scoring {
    /// GraphEval: a positive and its negatives are scored together as one triple.
    Triples,
    /// KGLens: outcomes are tallied per (subject, predicate, object) edge.
    Edges,
    /// Outcome counts only (accuracy, P/R/F1).
    Outcomes,
    /// KGHaluBench: points per answer, breadth and depth hallucination; a relation's group
    /// counts the facts asked about it.
    Compound,
}

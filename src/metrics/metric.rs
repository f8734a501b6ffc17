//! How each metric (`core::metric::Metric`) is read from a group's stats, with its interval.

use super::aggregate::GroupStats;
use super::counts::Counts;
use super::interval::Rate;
pub use crate::core::metric::Metric;

impl Metric {
    /// The metric's value in a group, with its interval; `None` when the group has no data
    /// for it.
    pub fn of(self, g: &GroupStats) -> Option<Rate> {
        match self {
            Metric::Correctness => g.grapheval.as_ref().map(|s| s.correctness),
            Metric::Truthfulness => g.grapheval.as_ref().map(|s| s.truthfulness),
            Metric::Informativeness => g.grapheval.as_ref().map(|s| s.informativeness),
            Metric::Accuracy => g.accuracy,
            Metric::AbstainRate => g.abstain_rate,
            Metric::InvalidRate => g.invalid_rate,
            Metric::WinRate => g.yesno.as_ref().map(|s| s.win_rate),
            Metric::ZeroSense => g.yesno.as_ref().map(|s| s.zero_sense_rate),
            Metric::Precision => precision(&g.counts),
            // R = C / (C + I + A + Inv): the accuracy (see `Counts::recall`).
            Metric::Recall => g.accuracy,
            Metric::F1 => f1(&g.counts),
            Metric::PointAccuracy => g.halu.as_ref().map(|h| h.accuracy),
            Metric::WeightedAccuracy => g.halu.as_ref().map(|h| h.weighted_accuracy),
            Metric::BreadthRate => g.halu.as_ref().and_then(|h| h.breadth_rate),
            Metric::DepthRate => g.halu.as_ref().and_then(|h| h.depth_rate),
        }
    }
}

impl Metric {
    /// How many units ([`Metric::unit`]) the metric's value and interval in a group are
    /// computed from: a statement run's correctness from its facts (a true statement with its
    /// false variants), not from its statements. Every n shown beside a value is this one, so
    /// an interval never comes from another n than the one it is shown with. `None` when the
    /// group has no data for the metric.
    pub fn n_of(self, g: &GroupStats) -> Option<u64> {
        match self {
            Metric::Correctness | Metric::Truthfulness | Metric::Informativeness => {
                g.grapheval.as_ref().map(|s| s.triples)
            }
            Metric::Accuracy
            | Metric::AbstainRate
            | Metric::InvalidRate
            | Metric::Recall
            | Metric::F1 => Some(g.counts.total()),
            Metric::Precision => Some(g.counts.correct + g.counts.incorrect + g.counts.invalid),
            Metric::WinRate | Metric::ZeroSense => g.yesno.as_ref().map(|s| s.edges),
            Metric::PointAccuracy | Metric::WeightedAccuracy => {
                g.halu.as_ref().map(|h| h.sums.facts_asked())
            }
            Metric::BreadthRate => g.halu.as_ref().map(|h| h.sums.not_abstained()),
            Metric::DepthRate => g.halu.as_ref().map(|h| h.sums.aligned_facts()),
        }
    }
}

/// Precision with its Wilson interval: C out of the answers that did not abstain.
fn precision(c: &Counts) -> Option<Rate> {
    Rate::new(
        c.correct as f64,
        (c.correct + c.incorrect + c.invalid) as f64,
    )
}

/// F1 from summed counts. Its interval is the F1 of the precision and recall intervals' lower
/// ends and of their upper ends: F1 grows with both, so the true value lies between whenever
/// P and R lie in theirs (conservative: P and R are correlated, so the real interval is
/// narrower).
fn f1(c: &Counts) -> Option<Rate> {
    let p = precision(c)?;
    let r = Rate::new(c.correct as f64, c.total() as f64)?;
    let f = |p: f64, r: f64| {
        if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        }
    };
    Some(Rate {
        value: c.f1()?,
        lo: f(p.lo, r.lo),
        hi: f(p.hi, r.hi),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{Aggregates, Scored, Scoring};
    use crate::verify::{OutcomeKind, Verdict};

    /// Hand-computed: C 6, I 2, A 1, Inv 1.
    /// P = 6 / (6 + 2 + 1) = 2/3 (Inv counted with I), R = 6 / 10 = 0.6,
    /// F1 = 2 · (2/3) · 0.6 / (2/3 + 0.6) = 12/19.
    #[test]
    fn precision_recall_f1_from_a_group() {
        let mut agg = Aggregates::new();
        let outcomes = [
            (OutcomeKind::Correct, 6),
            (OutcomeKind::Incorrect, 2),
            (OutcomeKind::Abstained, 1),
            (OutcomeKind::Invalid, 1),
        ];
        let mut n = 0;
        for (o, k) in outcomes {
            for _ in 0..k {
                n += 1;
                agg.add(&Scored {
                    question_id: format!("q{n}"),
                    scoring: Scoring::Outcomes,
                    positive_id: format!("q{n}"),
                    expected_members: 1,
                    is_positive: true,
                    verdict: Verdict::True,
                    outcome: o,
                    relation: "r".into(),
                    head_type: "-".into(),
                    tail_type: "-".into(),
                    year: None,
                    edge_key: None,
                    facets: vec![],
                    compound: None,
                });
            }
        }
        let g = agg.snapshot().overall;
        let p = Metric::Precision.of(&g).unwrap();
        let r = Metric::Recall.of(&g).unwrap();
        let f = Metric::F1.of(&g).unwrap();
        assert!((p.value - 2.0 / 3.0).abs() < 1e-12);
        assert!((r.value - 0.6).abs() < 1e-12);
        assert!((f.value - 12.0 / 19.0).abs() < 1e-12);
        assert!(f.lo < f.value && f.value < f.hi, "{f:?}");
        assert!(p.lo < p.value && p.value < p.hi);
    }
}

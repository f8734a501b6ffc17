//! What the heatmaps and the Errors list group and filter by.

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Correctness,
    Truthfulness,
    Informativeness,
    Accuracy,
    AbstainRate,
}

impl Metric {
    pub const ALL: [Metric; 5] = [
        Metric::Correctness,
        Metric::Truthfulness,
        Metric::Informativeness,
        Metric::Accuracy,
        Metric::AbstainRate,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Metric::Correctness => "correctness",
            Metric::Truthfulness => "truthfulness",
            Metric::Informativeness => "informativeness",
            Metric::Accuracy => "accuracy",
            Metric::AbstainRate => "abstain rate",
        }
    }
    pub fn of(self, g: &GroupStats) -> Option<Rate> {
        match self {
            Metric::Correctness => g.grapheval.as_ref().map(|s| s.correctness),
            Metric::Truthfulness => g.grapheval.as_ref().map(|s| s.truthfulness),
            Metric::Informativeness => g.grapheval.as_ref().map(|s| s.informativeness),
            Metric::Accuracy => g.accuracy,
            Metric::AbstainRate => g.abstain_rate,
        }
    }
    /// Where the value sits on the colour scale, 1 being good.
    pub fn goodness(self, v: f64) -> f64 {
        match self {
            Metric::AbstainRate => 1.0 - v,
            _ => v,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeatView {
    Relation,
    HeadTail,
    Year,
}

impl HeatView {
    pub fn name(self) -> &'static str {
        match self {
            HeatView::Relation => "by relation",
            HeatView::HeadTail => "head type × tail type",
            HeatView::Year => "by year",
        }
    }
}

/// The group a heatmap cell stands for; also the Errors screen's filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    Relation(String),
    HeadTail(String, String),
    Year(i32),
}

impl Cell {
    pub fn describe(&self) -> String {
        match self {
            Cell::Relation(r) => format!("relation {}", crate::sanitize::line(r)),
            Cell::HeadTail(h, t) => format!(
                "{} → {}",
                crate::sanitize::line(h),
                crate::sanitize::line(t)
            ),
            Cell::Year(y) => format!("year {y}"),
        }
    }
}

/// Which non-correct outcomes the Errors list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindFilter {
    AllErrors,
    Only(OutcomeKind),
}

impl KindFilter {
    pub fn name(self) -> &'static str {
        match self {
            KindFilter::AllErrors => "incorrect+abstained+invalid",
            KindFilter::Only(OutcomeKind::Incorrect) => "incorrect",
            KindFilter::Only(OutcomeKind::Abstained) => "abstained",
            KindFilter::Only(OutcomeKind::Invalid) => "invalid",
            KindFilter::Only(OutcomeKind::Correct) => "correct",
        }
    }
    pub(super) fn next(self) -> Self {
        match self {
            KindFilter::AllErrors => KindFilter::Only(OutcomeKind::Incorrect),
            KindFilter::Only(OutcomeKind::Incorrect) => KindFilter::Only(OutcomeKind::Abstained),
            KindFilter::Only(OutcomeKind::Abstained) => KindFilter::Only(OutcomeKind::Invalid),
            _ => KindFilter::AllErrors,
        }
    }
    pub(super) fn keeps(self, o: OutcomeKind) -> bool {
        match self {
            KindFilter::AllErrors => o != OutcomeKind::Correct,
            KindFilter::Only(k) => o == k,
        }
    }
}

/// The order of the Errors list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortBy {
    /// As answered.
    #[default]
    Run,
    Relation,
    Outcome,
}

impl SortBy {
    pub fn name(self) -> &'static str {
        match self {
            SortBy::Run => "run order",
            SortBy::Relation => "relation",
            SortBy::Outcome => "outcome",
        }
    }
    pub(super) fn next(self) -> Self {
        match self {
            SortBy::Run => SortBy::Relation,
            SortBy::Relation => SortBy::Outcome,
            SortBy::Outcome => SortBy::Run,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_filter_cycles_through_the_error_kinds() {
        let mut k = KindFilter::AllErrors;
        assert!(!k.keeps(OutcomeKind::Correct));
        assert!(k.keeps(OutcomeKind::Invalid));
        let mut seen = vec![];
        for _ in 0..4 {
            k = k.next();
            seen.push(k.name());
        }
        assert_eq!(
            seen,
            [
                "incorrect",
                "abstained",
                "invalid",
                "incorrect+abstained+invalid"
            ]
        );
    }

    #[test]
    fn abstaining_less_is_better_on_the_colour_scale() {
        assert_eq!(Metric::AbstainRate.goodness(0.2), 0.8);
        assert_eq!(Metric::Accuracy.goodness(0.2), 0.2);
    }
}

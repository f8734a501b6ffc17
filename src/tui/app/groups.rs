//! What the heatmaps and the Errors list group and filter by.

use super::*;

pub use crate::report::grid::{rankable, Cell, HeatSort, HeatView, RANKABLE_WIDTH};

/// Which outcomes the Errors list shows: by default the non-correct ones; `o` also reaches
/// the correct answers and every answer, so annotators can label correct answers too (a
/// judge's hand labels need both kinds, or its agreement on "right" is never measured).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindFilter {
    AllErrors,
    Only(OutcomeKind),
    AllAnswers,
}

impl KindFilter {
    pub fn name(self) -> &'static str {
        match self {
            KindFilter::AllErrors => "incorrect+abstained+invalid",
            KindFilter::Only(OutcomeKind::Incorrect) => "incorrect",
            KindFilter::Only(OutcomeKind::Abstained) => "abstained",
            KindFilter::Only(OutcomeKind::Invalid) => "invalid",
            KindFilter::Only(OutcomeKind::Correct) => "correct",
            KindFilter::AllAnswers => "all answers",
        }
    }
    /// What the listed answers are called where they are counted ("3 of 40 correct answers
    /// labelled"): a count says what it counts.
    pub fn noun(self) -> &'static str {
        match self {
            KindFilter::AllErrors => "errors",
            KindFilter::Only(OutcomeKind::Incorrect) => "incorrect answers",
            KindFilter::Only(OutcomeKind::Abstained) => "abstentions",
            KindFilter::Only(OutcomeKind::Invalid) => "invalid answers",
            KindFilter::Only(OutcomeKind::Correct) => "correct answers",
            KindFilter::AllAnswers => "answers",
        }
    }
    pub(super) fn next(self) -> Self {
        match self {
            KindFilter::AllErrors => KindFilter::Only(OutcomeKind::Incorrect),
            KindFilter::Only(OutcomeKind::Incorrect) => KindFilter::Only(OutcomeKind::Abstained),
            KindFilter::Only(OutcomeKind::Abstained) => KindFilter::Only(OutcomeKind::Invalid),
            KindFilter::Only(OutcomeKind::Invalid) => KindFilter::Only(OutcomeKind::Correct),
            KindFilter::Only(OutcomeKind::Correct) => KindFilter::AllAnswers,
            KindFilter::AllAnswers => KindFilter::AllErrors,
        }
    }
    pub(super) fn keeps(self, o: OutcomeKind) -> bool {
        match self {
            KindFilter::AllErrors => o != OutcomeKind::Correct,
            KindFilter::Only(k) => o == k,
            KindFilter::AllAnswers => true,
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
    fn outcome_filter_cycles_through_the_error_kinds_then_correct_and_all() {
        let mut k = KindFilter::AllErrors;
        assert!(!k.keeps(OutcomeKind::Correct));
        assert!(k.keeps(OutcomeKind::Invalid));
        let mut seen = vec![];
        for _ in 0..6 {
            k = k.next();
            seen.push(k.name());
        }
        assert_eq!(
            seen,
            [
                "incorrect",
                "abstained",
                "invalid",
                "correct",
                "all answers",
                "incorrect+abstained+invalid"
            ]
        );
        assert!(KindFilter::Only(OutcomeKind::Correct).keeps(OutcomeKind::Correct));
        assert!(!KindFilter::Only(OutcomeKind::Correct).keeps(OutcomeKind::Invalid));
        assert!(KindFilter::AllAnswers.keeps(OutcomeKind::Correct));
        assert!(KindFilter::AllAnswers.keeps(OutcomeKind::Abstained));
    }

    #[test]
    fn abstaining_less_is_better_on_the_colour_scale() {
        assert_eq!(Metric::AbstainRate.goodness(0.2), 0.8);
        assert_eq!(Metric::ZeroSense.goodness(0.2), 0.8);
        assert_eq!(Metric::Accuracy.goodness(0.2), 0.2);
    }

    #[test]
    fn a_yes_no_run_offers_its_own_metrics() {
        let yn = crate::method::of(Task::Yesno).metrics();
        assert_eq!(yn[0], Metric::Accuracy);
        assert!(yn.contains(&Metric::WinRate) && yn.contains(&Metric::ZeroSense));
        assert!(yn.contains(&Metric::InvalidRate));
        assert!(!yn.contains(&Metric::Correctness));
        assert_eq!(
            crate::method::of(Task::Statement).metrics()[0],
            Metric::Correctness
        );
    }
}

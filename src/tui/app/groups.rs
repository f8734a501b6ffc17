//! What the heatmaps and the Errors list group and filter by.

use super::*;

/// A 95% interval wider than this spans over half the scale: such a cell cannot be told
/// apart from most others, so it is marked and ranked after the cells that can.
pub const RANKABLE_WIDTH: f64 = 0.5;

/// Whether a rate's interval is narrow enough to rank it against others.
pub fn rankable(r: &Rate) -> bool {
    r.hi - r.lo <= RANKABLE_WIDTH
}

/// The order of the heatmap's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HeatSort {
    /// By name (years in order).
    #[default]
    Name,
    /// Worst first on the metric's scale; rows whose interval is too wide to rank come after
    /// the rankable ones, and rows without a value last.
    Value,
    /// Largest groups first.
    Count,
}

impl HeatSort {
    pub fn name(self) -> &'static str {
        match self {
            HeatSort::Name => "name",
            HeatSort::Value => "value, worst first",
            HeatSort::Count => "n, largest first",
        }
    }
    pub(super) fn next(self) -> Self {
        match self {
            HeatSort::Name => HeatSort::Value,
            HeatSort::Value => HeatSort::Count,
            HeatSort::Count => HeatSort::Name,
        }
    }
}

/// Row order for `sort`: each row's metric value and size (for the head × tail view, the
/// head type's over all tails). Stable, so ties keep the name order.
pub fn sort_rows(rows: &[(Option<Rate>, u64)], metric: Metric, sort: HeatSort) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    match sort {
        HeatSort::Name => {}
        HeatSort::Count => order.sort_by_key(|&i| std::cmp::Reverse(rows[i].1)),
        HeatSort::Value => order.sort_by(|&a, &b| {
            // (tier, goodness): rankable 0, too wide 1, no value 2.
            let key = |i: usize| match rows[i].0 {
                Some(r) if rankable(&r) => (0, metric.goodness(r.value)),
                Some(r) => (1, metric.goodness(r.value)),
                None => (2, 0.0),
            };
            let (ka, kb) = (key(a), key(b));
            ka.0.cmp(&kb.0)
                .then(ka.1.total_cmp(&kb.1))
                .then(rows[b].1.cmp(&rows[a].1))
        }),
    }
    order
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeatView {
    Relation,
    HeadTail,
    Year,
    /// One of the method's pairs of facets ([`FACET_MAPS`]: KG-FPQ's edit × hop and edit ×
    /// relation), by its index there.
    Facets(usize),
}

/// The facet pairs drawn as heatmaps when a run has them, rows × columns.
pub const FACET_MAPS: &[&str] = &["edit × hop", "edit × relation", "edit × format"];

impl HeatView {
    pub fn name(self) -> &'static str {
        match self {
            HeatView::Relation => "by relation",
            HeatView::HeadTail => "head type × tail type",
            HeatView::Year => "by year",
            HeatView::Facets(i) => FACET_MAPS.get(i).copied().unwrap_or("facets"),
        }
    }

    /// Whether the view is a grid of rows × columns (its cells name both).
    pub fn is_grid(self) -> bool {
        matches!(self, HeatView::HeadTail | HeatView::Facets(_))
    }
}

/// The group a heatmap cell stands for; also the Errors screen's filter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    Relation(String),
    HeadTail(String, String),
    /// The years `from..=to` (one year, or a bin of sparse years).
    Years(i32, i32),
    /// A cell of a facet-pair map: `pair` is "a × b", `row` a value of a, `col` one of b.
    Facets {
        pair: String,
        row: String,
        col: String,
    },
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
            Cell::Years(a, b) if a == b => format!("year {a}"),
            Cell::Years(a, b) => format!("years {}", super::binning::label(*a, *b)),
            Cell::Facets { pair, row, col } => {
                let (a, b) = pair.split_once(" × ").unwrap_or((pair.as_str(), ""));
                format!(
                    "{a} {} × {b} {}",
                    crate::sanitize::line(row),
                    crate::sanitize::line(col)
                )
            }
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

    fn r(successes: f64, n: f64) -> Option<Rate> {
        Rate::new(successes, n)
    }

    #[test]
    fn value_sort_puts_the_worst_rankable_rows_first() {
        let rows = [
            (r(9.0, 10.0), 10),    // 0.9, narrow
            (r(1.0, 2.0), 2),      // 0.5, too wide to rank
            (r(20.0, 100.0), 100), // 0.2, narrow
            (None, 3),             // no value
            (r(40.0, 100.0), 100), // 0.4, narrow
            (r(0.0, 1.0), 1),      // 0.0 but n=1: too wide
        ];
        assert!(!rankable(&rows[1].0.unwrap()) && !rankable(&rows[5].0.unwrap()));
        assert_eq!(
            sort_rows(&rows, Metric::Accuracy, HeatSort::Value),
            [2, 4, 0, 5, 1, 3]
        );
        // Abstaining: high is bad, so the highest rate comes first.
        assert_eq!(
            sort_rows(&rows, Metric::AbstainRate, HeatSort::Value),
            [0, 4, 2, 1, 5, 3]
        );
        assert_eq!(
            sort_rows(&rows, Metric::Accuracy, HeatSort::Count),
            [2, 4, 0, 3, 1, 5]
        );
        assert_eq!(
            sort_rows(&rows, Metric::Accuracy, HeatSort::Name),
            [0, 1, 2, 3, 4, 5]
        );
    }
}

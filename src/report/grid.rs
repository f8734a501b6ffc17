//! The heatmaps of a run as grids of groups: rows, columns and each cell's stats, in the
//! order chosen. The TUI's Heatmaps screen draws them as text, `kgscope plot` as figures, so a
//! figure always shows the cells the screen shows.

use crate::metrics::{GroupStats, Metric, Rate, Snapshot};

use super::binning;

/// A 95% interval wider than this spans over half the scale: such a cell cannot be told
/// apart from most others, so it is marked and ranked after the cells that can.
pub const RANKABLE_WIDTH: f64 = 0.5;

/// Whether a rate's interval is narrow enough to rank it against others.
pub fn rankable(r: &Rate) -> bool {
    r.hi - r.lo <= RANKABLE_WIDTH
}

/// The fewest answers a cell needs to be rankable whatever they are: the smallest `n` whose
/// every outcome (`k` of `n` right) has a Wilson interval within [`RANKABLE_WIDTH`]. The
/// widest is at half right, so with 95% intervals this is 12 (11 answers, 5 right, span
/// 0.51). Derived rather than written down, so it follows the width and the interval.
pub fn min_rankable_n() -> u64 {
    (1..=10_000u64)
        .find(|&n| (0..=n).all(|k| Rate::new(k as f64, n as f64).is_some_and(|r| rankable(&r))))
        .unwrap_or(10_000)
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
    pub fn next(self) -> Self {
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
    /// One of the methods' pairs of facets ([`FACET_MAPS`]: KG-FPQ's edit × hop and edit ×
    /// relation, KGHaluBench's band × entity type), by its index there.
    Facets(usize),
}

/// The facet pairs drawn as heatmaps when a run has them, rows × columns.
pub const FACET_MAPS: &[&str] = &[
    "edit × hop",
    "edit × relation",
    "edit × format",
    "band × entity type",
];

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

    /// The views a snapshot has, in the order the TUI's `v` visits them: the three group
    /// views, then the facet maps the run has.
    pub fn all_of(s: &Snapshot) -> Vec<HeatView> {
        let facet_maps = (0..FACET_MAPS.len()).map(HeatView::Facets);
        // The relation view is always there (the home view, even of an empty run); the others
        // only with groups: a KG without dates has no year view to land on.
        [HeatView::Relation, HeatView::HeadTail, HeatView::Year]
            .into_iter()
            .chain(facet_maps)
            .filter(|v| *v == HeatView::Relation || v.has_groups(s))
            .collect()
    }

    /// Whether the run has groups for this view.
    pub fn has_groups(self, s: &Snapshot) -> bool {
        match self {
            HeatView::Relation => !s.by_relation.is_empty(),
            HeatView::HeadTail => !s.by_head_tail.is_empty(),
            HeatView::Year => !s.by_year.is_empty(),
            HeatView::Facets(i) => FACET_MAPS
                .get(i)
                .is_some_and(|p| s.by_facet_pair.contains_key(*p)),
        }
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
            Cell::Years(a, b) => format!("years {}", binning::label(*a, *b)),
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

/// A group map's groups as a list, in name order (a report table's or a bar chart's rows).
pub fn listed(m: &std::collections::BTreeMap<String, GroupStats>) -> Vec<(String, GroupStats)> {
    m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// One heatmap view: rows in display order, columns, and each cell's stats.
#[derive(Debug, Clone)]
pub struct HeatGrid {
    /// Row names as shown (a type, a relation, a year or a bin of years).
    pub rows: Vec<String>,
    /// Column names: the tail types of the head × tail view, one unnamed column otherwise.
    pub cols: Vec<String>,
    /// `stats[row][col]`.
    pub stats: Vec<Vec<Option<GroupStats>>>,
    /// The group each row stands for (the head type in the head × tail view).
    keys: Vec<RowKey>,
    /// Years per row in the year view (1 when no binning was needed).
    pub year_width: i32,
}

#[derive(Debug, Clone)]
enum RowKey {
    Name(String),
    Years(i32, i32),
    /// A row of a facet-pair map ("a × b", the row's value of a).
    Facet(String, String),
}

impl HeatGrid {
    pub fn cell(&self, row: usize, col: usize) -> Option<Cell> {
        Some(match (self.keys.get(row)?, self.cols.get(col)?) {
            (RowKey::Years(a, b), _) => Cell::Years(*a, *b),
            (RowKey::Facet(pair, r), c) => Cell::Facets {
                pair: pair.clone(),
                row: r.clone(),
                col: c.clone(),
            },
            (RowKey::Name(r), c) if c.is_empty() => Cell::Relation(r.clone()),
            (RowKey::Name(h), t) => Cell::HeadTail(h.clone(), t.clone()),
        })
    }

    /// The rows of a one-column view (relation, year) with their stats, in order; rows
    /// without stats left out.
    pub fn into_list(self) -> Vec<(String, GroupStats)> {
        self.rows
            .into_iter()
            .zip(self.stats)
            .filter_map(|(r, mut cells)| cells.pop().flatten().map(|st| (r, st)))
            .collect()
    }

    /// Whether any cell has a value of `metric`. A view without one is all "–": `kgscope plot`
    /// refuses to draw it and the demo does not show it, both by this test.
    pub fn has_value(&self, metric: Metric) -> bool {
        self.stats
            .iter()
            .flatten()
            .flatten()
            .any(|st| metric.of(st).is_some())
    }

    /// The cells whose value of `metric` is narrow enough to rank ([`rankable`]).
    pub fn rankable_cells(&self, metric: Metric) -> usize {
        self.stats
            .iter()
            .flatten()
            .flatten()
            .filter_map(|st| metric.of(st))
            .filter(rankable)
            .count()
    }

    /// No rows: the view of no run.
    pub fn empty() -> HeatGrid {
        HeatGrid {
            rows: vec![],
            cols: vec![String::new()],
            stats: vec![],
            keys: vec![],
            year_width: 1,
        }
    }

    /// The grid of `view` from a snapshot, rows sorted by `sort` on `metric`. A few hundred
    /// groups at most: built on demand, never kept in step with a run.
    pub fn build(s: &Snapshot, view: HeatView, metric: Metric, sort: HeatSort) -> HeatGrid {
        let mut g = HeatGrid::empty();
        // Each row's value and size, for sorting.
        let mut sort_by: Vec<(Option<Rate>, u64)> = vec![];
        let mut push = |g: &mut HeatGrid,
                        name: String,
                        key: RowKey,
                        cells: Vec<Option<GroupStats>>,
                        whole: Option<&GroupStats>| {
            sort_by.push((
                whole.and_then(|w| metric.of(w)),
                whole.map_or(0, |w| metric.n_of(w).unwrap_or(0)),
            ));
            g.rows.push(name);
            g.keys.push(key);
            g.stats.push(cells);
        };
        match view {
            HeatView::Relation => {
                for (r, st) in &s.by_relation {
                    push(
                        &mut g,
                        r.clone(),
                        RowKey::Name(r.clone()),
                        vec![Some(st.clone())],
                        Some(st),
                    );
                }
            }
            HeatView::Year => {
                g.year_width = binning::width(s.by_year.iter().map(|(y, st)| (*y, st.n)));
                for (a, b) in binning::bins(s.by_year.keys().copied(), g.year_width) {
                    let st = GroupStats::combine(s.by_year.range(a..=b).map(|(_, st)| st));
                    push(
                        &mut g,
                        binning::label(a, b),
                        RowKey::Years(a, b),
                        vec![st.clone()],
                        st.as_ref(),
                    );
                }
            }
            HeatView::HeadTail => {
                let mut cols: Vec<String> = s
                    .by_head_tail
                    .values()
                    .flat_map(|m| m.keys().cloned())
                    .collect();
                cols.sort();
                cols.dedup();
                for (h, tails) in &s.by_head_tail {
                    let cells = cols.iter().map(|c| tails.get(c).cloned()).collect();
                    push(
                        &mut g,
                        h.clone(),
                        RowKey::Name(h.clone()),
                        cells,
                        s.by_head_type.get(h),
                    );
                }
                g.cols = cols;
            }
            HeatView::Facets(i) => {
                let pair = FACET_MAPS.get(i).copied().unwrap_or_default();
                let (a, _) = pair.split_once(" × ").unwrap_or((pair, ""));
                if let Some(rows) = s.by_facet_pair.get(pair) {
                    let mut cols: Vec<String> =
                        rows.values().flat_map(|m| m.keys().cloned()).collect();
                    cols.sort_by_key(|c| natural(c));
                    cols.dedup();
                    for (r, by_col) in rows {
                        let cells = cols.iter().map(|c| by_col.get(c).cloned()).collect();
                        let whole = s.by_facet.get(a).and_then(|m| m.get(r));
                        push(
                            &mut g,
                            r.clone(),
                            RowKey::Facet(pair.to_string(), r.clone()),
                            cells,
                            whole,
                        );
                    }
                    g.cols = cols;
                }
            }
        }
        // Name order is the reader's: case-insensitive, numbers by value ("2" before "10");
        // years stay in time order.
        if !matches!(view, HeatView::Year) {
            let mut by_name: Vec<usize> = (0..g.rows.len()).collect();
            by_name.sort_by_key(|&i| name_key(&g.rows[i]));
            sort_by = by_name.iter().map(|&i| sort_by[i]).collect();
            g.rows = by_name.iter().map(|&i| g.rows[i].clone()).collect();
            g.keys = by_name.iter().map(|&i| g.keys[i].clone()).collect();
            g.stats = by_name.iter().map(|&i| g.stats[i].clone()).collect();
        }
        let order = sort_rows(&sort_by, metric, sort);
        g.rows = order.iter().map(|&i| g.rows[i].clone()).collect();
        g.keys = order.iter().map(|&i| g.keys[i].clone()).collect();
        g.stats = order.iter().map(|&i| g.stats[i].clone()).collect();
        g
    }
}

/// The key of name order: [`natural`] without regard to case ("angola" beside "Angola", not
/// after "Zambia"), then the name itself so that order is total.
pub fn name_key(s: &str) -> ((u8, u64, String), String) {
    (natural(&s.to_lowercase()), s.to_string())
}

/// Sort key that puts "2" before "10" and "-" last: hop counts and edit codes read in order.
fn natural(s: &str) -> (u8, u64, String) {
    match s.parse::<u64>() {
        Ok(n) => (0, n, String::new()),
        Err(_) if s == "-" => (2, 0, String::new()),
        Err(_) => (1, 0, s.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 38 §10: sorting by name put "Zambia" before "angola" (byte order).
    #[test]
    fn name_order_ignores_case_and_reads_numbers_by_value() {
        let mut names = ["Zambia", "angola", "Brazil", "10", "2", "-", "Angola"];
        names.sort_by_key(|n| name_key(n));
        assert_eq!(
            names,
            ["2", "10", "Angola", "angola", "Brazil", "Zambia", "-"]
        );
    }

    #[test]
    fn views_without_groups_are_not_offered() {
        let empty = crate::report::snapshot_of(&[]);
        assert_eq!(HeatView::all_of(&empty), [HeatView::Relation]);
        assert!(!HeatView::Year.has_groups(&empty));
    }

    fn r(successes: f64, n: f64) -> Option<Rate> {
        Rate::new(successes, n)
    }

    #[test]
    fn twelve_answers_rank_whatever_they_are_and_eleven_may_not() {
        let n = min_rankable_n();
        assert_eq!(n, 12);
        for k in 0..=n {
            assert!(rankable(&r(k as f64, n as f64).unwrap()), "{k} of {n}");
        }
        let fewer = n - 1;
        assert!(
            (0..=fewer).any(|k| !rankable(&r(k as f64, fewer as f64).unwrap())),
            "{fewer} answers always rank: the minimum is too high"
        );
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

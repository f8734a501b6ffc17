//! Heatmaps' grid (rows, columns, each cell's group), its order and keys.

use super::why::Why;
use super::*;

/// One heatmap view as drawn: rows in display order, columns, and each cell's stats.
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

#[derive(Clone)]
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
}

impl App {
    /// The current heatmap view, sorted as chosen. Built on demand from the snapshot: a few
    /// hundred groups at most, and no copy to keep in step with the run.
    pub fn heat_grid(&self) -> HeatGrid {
        let mut g = HeatGrid {
            rows: vec![],
            cols: vec![String::new()],
            stats: vec![],
            keys: vec![],
            year_width: 1,
        };
        let Some(d) = &self.data else { return g };
        let s = &d.snapshot;
        // Each row's value and size, for sorting.
        let mut sort_by: Vec<(Option<Rate>, u64)> = vec![];
        let metric = self.heat.metric;
        let mut push = |g: &mut HeatGrid,
                        name: String,
                        key: RowKey,
                        cells: Vec<Option<GroupStats>>,
                        whole: Option<&GroupStats>| {
            sort_by.push((whole.and_then(|w| metric.of(w)), whole.map_or(0, |w| w.n)));
            g.rows.push(name);
            g.keys.push(key);
            g.stats.push(cells);
        };
        match self.heat.view {
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
                let pair = groups::FACET_MAPS.get(i).copied().unwrap_or_default();
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
        let order = groups::sort_rows(&sort_by, metric, self.heat.sort);
        g.rows = order.iter().map(|&i| g.rows[i].clone()).collect();
        g.keys = order.iter().map(|&i| g.keys[i].clone()).collect();
        g.stats = order.iter().map(|&i| g.stats[i].clone()).collect();
        g
    }

    /// The "why" splits of the selected cell, and what it is.
    pub fn heat_why(&self) -> Option<(Cell, Why)> {
        self.heat_why_in(&self.heat_grid())
    }

    /// [`Self::heat_why`] on a grid the caller has built already (the screen draws both).
    pub fn heat_why_in(&self, grid: &HeatGrid) -> Option<(Cell, Why)> {
        let d = self.data.as_ref()?;
        let cell = grid.cell(self.heat.row, self.heat.col)?;
        let w = match &cell {
            Cell::Relation(r) => d.why.by_relation.get(r).copied(),
            Cell::HeadTail(h, t) => d.why.by_head_tail.get(&(h.clone(), t.clone())).copied(),
            Cell::Years(a, b) => Some(d.why.years(*a, *b)),
            // The "why" splits are kept per relation, types and year only.
            Cell::Facets { .. } => None,
        };
        Some((cell, w.unwrap_or_default()))
    }

    /// The metrics `m` cycles through for the open run's task.
    pub fn heat_metrics(&self) -> &'static [Metric] {
        let task = self
            .data
            .as_ref()
            .map_or(Task::Statement, |d| d.manifest.config.task);
        crate::method::of(task).metrics()
    }

    pub(super) fn heat_key(&mut self, k: KeyEvent) {
        let g = self.heat_grid();
        let (rows, cols) = (g.rows.len(), g.cols.len());
        match k.code {
            KeyCode::Char('m') => {
                let all = self.heat_metrics();
                let i = all.iter().position(|m| *m == self.heat.metric);
                self.heat.metric = all[i.map_or(0, |i| (i + 1) % all.len())];
            }
            KeyCode::Char('s') => {
                self.heat.sort = self.heat.sort.next();
                self.heat.row = 0;
            }
            KeyCode::Char('v') => {
                // The facet maps follow the three views when the run has them.
                let facet_maps = self.data.as_ref().map_or(0, |d| {
                    groups::FACET_MAPS
                        .iter()
                        .take_while(|p| d.snapshot.by_facet_pair.contains_key(**p))
                        .count()
                });
                self.heat.view = match self.heat.view {
                    HeatView::Relation => HeatView::HeadTail,
                    HeatView::HeadTail => HeatView::Year,
                    HeatView::Year if facet_maps > 0 => HeatView::Facets(0),
                    HeatView::Facets(i) if i + 1 < facet_maps => HeatView::Facets(i + 1),
                    HeatView::Year | HeatView::Facets(_) => HeatView::Relation,
                };
                self.heat.row = 0;
                self.heat.col = 0;
            }
            KeyCode::Down | KeyCode::Char('j') => self.heat.row = step(self.heat.row, 1, rows),
            KeyCode::Up | KeyCode::Char('k') => self.heat.row = step(self.heat.row, -1, rows),
            KeyCode::Right | KeyCode::Char('l') => self.heat.col = step(self.heat.col, 1, cols),
            KeyCode::Left | KeyCode::Char('h') => self.heat.col = step(self.heat.col, -1, cols),
            KeyCode::Enter => {
                if let Some(c) = g.cell(self.heat.row, self.heat.col) {
                    self.status = format!("errors of {}", c.describe());
                    self.errors.cell = Some(c);
                    self.errors.selected = 0;
                    self.screen = Screen::Errors;
                }
            }
            _ => {}
        }
    }
}

/// Sort key that puts "2" before "10" and "-" last: hop counts and edit codes read in order.
fn natural(s: &str) -> (u8, u64, String) {
    match s.parse::<u64>() {
        Ok(n) => (0, n, String::new()),
        Err(_) if s == "-" => (2, 0, String::new()),
        Err(_) => (1, 0, s.to_string()),
    }
}

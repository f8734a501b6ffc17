//! Heatmaps' grid (rows, columns, each cell's group), its order and keys.

use super::why::Why;
use super::*;

pub use crate::report::grid::HeatGrid;

impl App {
    /// The current heatmap view, sorted as chosen. Built on demand from the snapshot: a few
    /// hundred groups at most, and no copy to keep in step with the run.
    pub fn heat_grid(&self) -> HeatGrid {
        let h = &self.heat;
        self.data.as_ref().map_or_else(HeatGrid::empty, |d| {
            HeatGrid::build(&d.snapshot, h.view, h.metric, h.sort)
        })
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
        let Some(action) = keymap::bound(Scope::On(Screen::Heatmaps), k.code) else {
            return;
        };
        match action {
            Action::NextMetric => {
                let all = self.heat_metrics();
                let i = all.iter().position(|m| *m == self.heat.metric);
                self.heat.metric = all[i.map_or(0, |i| (i + 1) % all.len())];
            }
            Action::NextSort => {
                self.heat.sort = self.heat.sort.next();
                self.heat.row = 0;
            }
            Action::NextView => {
                // The views in order: the three group views, then the facet maps the run has.
                let all = self.data.as_ref().map_or_else(
                    || vec![HeatView::Relation, HeatView::HeadTail, HeatView::Year],
                    |d| HeatView::all_of(&d.snapshot),
                );
                let i = all.iter().position(|v| *v == self.heat.view);
                self.heat.view = all[i.map_or(0, |i| (i + 1) % all.len())];
                self.heat.row = 0;
                self.heat.col = 0;
            }
            Action::Down => self.heat.row = step(self.heat.row, 1, rows),
            Action::Up => self.heat.row = step(self.heat.row, -1, rows),
            Action::Right => self.heat.col = step(self.heat.col, 1, cols),
            Action::Left => self.heat.col = step(self.heat.col, -1, cols),
            Action::Open => {
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

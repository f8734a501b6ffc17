//! Heatmaps' axes, cells and keys.

use super::*;

impl App {
    /// Row and column keys of the current heatmap view.
    pub fn heat_axes(&self) -> (Vec<String>, Vec<String>) {
        let Some(d) = &self.data else {
            return (vec![], vec![]);
        };
        let s = &d.snapshot;
        match self.heat.view {
            HeatView::Relation => (s.by_relation.keys().cloned().collect(), vec![String::new()]),
            HeatView::Year => (
                s.by_year.keys().map(|y| y.to_string()).collect(),
                vec![String::new()],
            ),
            HeatView::HeadTail => {
                let mut cols: Vec<String> = s
                    .by_head_tail
                    .values()
                    .flat_map(|m| m.keys().cloned())
                    .collect();
                cols.sort();
                cols.dedup();
                (s.by_head_tail.keys().cloned().collect(), cols)
            }
        }
    }

    pub fn heat_stats(&self, row: &str, col: &str) -> Option<&GroupStats> {
        let s = &self.data.as_ref()?.snapshot;
        match self.heat.view {
            HeatView::Relation => s.by_relation.get(row),
            HeatView::Year => s.by_year.get(&row.parse().ok()?),
            HeatView::HeadTail => s.by_head_tail.get(row)?.get(col),
        }
    }

    pub(super) fn heat_cell(&self) -> Option<Cell> {
        let (rows, cols) = self.heat_axes();
        let r = rows.get(self.heat.row)?;
        let c = cols.get(self.heat.col)?;
        Some(match self.heat.view {
            HeatView::Relation => Cell::Relation(r.clone()),
            HeatView::Year => Cell::Year(r.parse().ok()?),
            HeatView::HeadTail => Cell::HeadTail(r.clone(), c.clone()),
        })
    }

    pub(super) fn heat_key(&mut self, k: KeyEvent) {
        let (rows, cols) = self.heat_axes();
        match k.code {
            KeyCode::Char('m') => {
                let i = Metric::ALL
                    .iter()
                    .position(|m| *m == self.heat.metric)
                    .unwrap_or(0);
                self.heat.metric = Metric::ALL[(i + 1) % Metric::ALL.len()];
            }
            KeyCode::Char('v') => {
                self.heat.view = match self.heat.view {
                    HeatView::Relation => HeatView::HeadTail,
                    HeatView::HeadTail => HeatView::Year,
                    HeatView::Year => HeatView::Relation,
                };
                self.heat.row = 0;
                self.heat.col = 0;
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.heat.row = step(self.heat.row, 1, rows.len())
            }
            KeyCode::Up | KeyCode::Char('k') => self.heat.row = step(self.heat.row, -1, rows.len()),
            KeyCode::Right | KeyCode::Char('l') => {
                self.heat.col = step(self.heat.col, 1, cols.len())
            }
            KeyCode::Left | KeyCode::Char('h') => {
                self.heat.col = step(self.heat.col, -1, cols.len())
            }
            KeyCode::Enter => {
                if let Some(c) = self.heat_cell() {
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

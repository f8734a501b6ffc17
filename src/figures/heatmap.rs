//! The heatmap figure: the TUI's Heatmaps view, one panel per run. Each cell is coloured by
//! how good its value is on the metric's scale and shows the value, its 95% interval and n;
//! cells whose interval is too wide to rank carry a "?" as on the screen.

use plotters::prelude::*;

use super::canvas::{self, ink_on, scale, Anchor, Canvas, INK, MARGIN, MUTED, R, TITLE_H};
use super::Panel;
use crate::metrics::Metric;
use crate::report::grid::{rankable, HeatGrid, RANKABLE_WIDTH};

/// A heatmap: one panel per run.
#[derive(Debug, Clone)]
pub struct Heatmap {
    pub metric: Metric,
    /// The corner's text: what rows and columns are.
    pub corner: String,
    pub panels: Vec<Panel<HeatGrid>>,
}

const ROW_H: i32 = 38;
const GRID_CELL_W: i32 = 116;
const LIST_CELL_W: i32 = 210;
const PANEL_TITLE_H: i32 = 26;
const HEADER_H: i32 = 26;
const LEGEND_H: i32 = 60;
const GAP: i32 = 28;

struct Layout {
    label_w: i32,
    cell_w: i32,
    header_h: i32,
    panel_w: i32,
    rows: i32,
}

impl Heatmap {
    fn layout(&self) -> Layout {
        let Heatmap { panels, corner, .. } = self;
        let grid = panels
            .iter()
            .any(|p| p.data.cols.iter().any(|c| !c.is_empty()));
        let longest = panels
            .iter()
            .flat_map(|p| p.data.rows.iter())
            .map(|r| r.chars().count())
            .chain([corner.chars().count()])
            .max()
            .unwrap_or(8);
        // About 7.5 px a character at 13 px; longer names are cut with an ellipsis.
        let label_w = ((longest as f64 * 7.5) as i32 + 14).clamp(90, 280);
        let cell_w = if grid { GRID_CELL_W } else { LIST_CELL_W };
        let cols = panels.iter().map(|p| p.data.cols.len()).max().unwrap_or(1) as i32;
        Layout {
            label_w,
            cell_w,
            header_h: if grid { HEADER_H } else { 0 },
            panel_w: label_w + cols * cell_w,
            rows: panels.iter().map(|p| p.data.rows.len()).max().unwrap_or(0) as i32,
        }
    }

    pub fn size(&self) -> (u32, u32) {
        let l = self.layout();
        let k = self.panels.len().max(1) as i32;
        let w = 2 * MARGIN + k * l.panel_w + (k - 1) * GAP;
        let h = TITLE_H + PANEL_TITLE_H + l.header_h + l.rows.max(1) * ROW_H + LEGEND_H + MARGIN;
        (w.max(900) as u32, h as u32)
    }

    pub fn draw<DB: DrawingBackend>(&self, c: &Canvas<DB>) -> R {
        let Heatmap {
            metric,
            corner,
            panels,
        } = self;
        let l = self.layout();
        for (pi, panel) in panels.iter().enumerate() {
            let x0 = MARGIN + pi as i32 * (l.panel_w + GAP);
            let mut y = TITLE_H;
            let t = c.fit(&panel.title, 14.0, true, l.panel_w as u32);
            c.text(
                &t,
                (x0, y + PANEL_TITLE_H / 2),
                14.0,
                true,
                Anchor::Left,
                INK,
            )?;
            y += PANEL_TITLE_H;
            let g = &panel.data;
            if l.header_h > 0 {
                let corner = c.fit(corner, 12.0, false, l.label_w as u32 - 8);
                c.text(
                    &corner,
                    (x0, y + HEADER_H / 2),
                    12.0,
                    false,
                    Anchor::Left,
                    MUTED,
                )?;
                for (ci, col) in g.cols.iter().enumerate() {
                    let cx = x0 + l.label_w + ci as i32 * l.cell_w + l.cell_w / 2;
                    let name = c.fit(col, 12.0, false, l.cell_w as u32 - 8);
                    c.text(
                        &name,
                        (cx, y + HEADER_H / 2),
                        12.0,
                        false,
                        Anchor::Centre,
                        MUTED,
                    )?;
                }
                y += HEADER_H;
            }
            if g.rows.is_empty() {
                c.text(
                    "no groups",
                    (x0, y + ROW_H / 2),
                    13.0,
                    false,
                    Anchor::Left,
                    MUTED,
                )?;
            }
            for (ri, row) in g.rows.iter().enumerate() {
                let ry = y + ri as i32 * ROW_H;
                let name = c.fit(row, 13.0, false, l.label_w as u32 - 10);
                c.text(&name, (x0, ry + ROW_H / 2), 13.0, false, Anchor::Left, INK)?;
                for (ci, stats) in g.stats[ri].iter().enumerate() {
                    let cx0 = x0 + l.label_w + ci as i32 * l.cell_w;
                    let (a, b) = ((cx0 + 1, ry + 1), (cx0 + l.cell_w - 1, ry + ROW_H - 1));
                    // The n of the metric's unit, the one its interval is computed from.
                    let rate = stats
                        .as_ref()
                        .and_then(|s| metric.of(s).map(|r| (r, metric.n_of(s).unwrap_or(0))));
                    let Some((r, n)) = rate else {
                        c.fill(a, b, canvas::EMPTY)?;
                        let mid = (cx0 + l.cell_w / 2, ry + ROW_H / 2);
                        c.text("–", mid, 13.0, false, Anchor::Centre, MUTED)?;
                        continue;
                    };
                    let bg = scale(metric.goodness(r.value));
                    c.fill(a, b, bg)?;
                    let ink = ink_on(bg);
                    let mark = if rankable(&r) { "" } else { "?" };
                    let mid = cx0 + l.cell_w / 2;
                    let v = format!("{}{mark}", canvas::value(r.value));
                    c.text(&v, (mid, ry + 12), 14.0, true, Anchor::Centre, ink)?;
                    let detail = c.fit(
                        &format!("[{}–{}] n={n}", canvas::value(r.lo), canvas::value(r.hi)),
                        11.0,
                        false,
                        l.cell_w as u32 - 6,
                    );
                    c.text(&detail, (mid, ry + 28), 11.0, false, Anchor::Centre, ink)?;
                }
            }
        }
        // The scale, once for all panels: which end is good depends on the metric.
        let ly = TITLE_H + PANEL_TITLE_H + l.header_h + l.rows.max(1) * ROW_H + 14;
        let (worse, better) = if metric.goodness(0.0) > metric.goodness(1.0) {
            ("1.00 (worse)", "0.00 (better)")
        } else {
            ("0.00 (worse)", "1.00 (better)")
        };
        c.scale_bar((MARGIN, ly), 260, worse, better)?;
        c.text(
        &format!(
            "{} · [95% Wilson interval] n = {} · ? = interval wider than {RANKABLE_WIDTH}, too wide to rank · – = no answers",
            metric.name(),
            metric.unit()
        ),
        (MARGIN + 280, ly + 6),
        12.0,
        false,
        Anchor::Left,
        MUTED,
    )
    }
}

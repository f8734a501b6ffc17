//! KGLens' per-predicate dot view: each predicate's zero-sense rate (the share of its edges
//! the model failed on in every form it was asked) with its 95% interval; the dot's area is the
//! predicate's share of examined edges, its colour the rate on the shared scale.

use plotters::prelude::*;

use super::canvas::{self, scale, Anchor, Canvas, INK, MARGIN, MUTED, R, TITLE_H};
use super::Panel;
use crate::report::kglens::EdgeGroup;

/// KGLens' dot view: one panel per run, a dot per predicate.
#[derive(Debug, Clone)]
pub struct Dots {
    pub panels: Vec<Panel<Vec<EdgeGroup>>>,
}

const PANEL_W: i32 = 620;
const ROW_H: i32 = 30;
const PANEL_TITLE_H: i32 = 26;
const AXIS_H: i32 = 22;
const GAP: i32 = 28;
const LABEL_W: i32 = 190;
const VALUE_W: i32 = 130;

impl Dots {
    fn rows(&self) -> i32 {
        self.panels
            .iter()
            .map(|p| p.data.len())
            .max()
            .unwrap_or(0)
            .max(1) as i32
    }

    pub fn size(&self) -> (u32, u32) {
        let k = self.panels.len().max(1) as i32;
        let w = 2 * MARGIN + k * PANEL_W + (k - 1) * GAP;
        let h = TITLE_H + PANEL_TITLE_H + AXIS_H + self.rows() * ROW_H + 36 + MARGIN;
        (w as u32, h as u32)
    }

    pub fn draw<DB: DrawingBackend>(&self, c: &Canvas<DB>) -> R {
        let panels = &self.panels;
        let bottom = TITLE_H + PANEL_TITLE_H + AXIS_H + self.rows() * ROW_H;
        for (pi, panel) in panels.iter().enumerate() {
            let left = MARGIN + pi as i32 * (PANEL_W + GAP);
            let (x0, x1) = (left + LABEL_W, left + PANEL_W - VALUE_W);
            let px = |v: f64| x0 + ((x1 - x0) as f64 * v.clamp(0.0, 1.0)).round() as i32;
            let t = c.fit(&panel.title, 14.0, true, PANEL_W as u32);
            c.text(
                &t,
                (left, TITLE_H + PANEL_TITLE_H / 2),
                14.0,
                true,
                Anchor::Left,
                INK,
            )?;
            let y = TITLE_H + PANEL_TITLE_H;
            c.x_axis(&px, y + AXIS_H, bottom)?;
            if panel.data.is_empty() {
                c.text(
                    "no edges examined",
                    (left, y + AXIS_H + ROW_H / 2),
                    13.0,
                    false,
                    Anchor::Left,
                    MUTED,
                )?;
            }
            for (i, g) in panel.data.iter().enumerate() {
                let cy = y + AXIS_H + i as i32 * ROW_H + ROW_H / 2;
                let name = c.fit(&g.name, 13.0, false, LABEL_W as u32 - 10);
                c.text(&name, (left, cy), 13.0, false, Anchor::Left, INK)?;
                c.whisker_h(px(g.zero_sense_lo), px(g.zero_sense_hi), cy, MUTED)?;
                // Area proportional to the share: radius ∝ √share, 3 to 13 px.
                let r = 3 + (10.0 * g.share.sqrt()).round() as i32;
                c.circle(
                    (px(g.zero_sense_rate), cy),
                    r,
                    scale(1.0 - g.zero_sense_rate),
                    INK,
                )?;
                let text = format!(
                    "{} · {} edges ({:.0}%)",
                    canvas::value(g.zero_sense_rate),
                    g.edges,
                    100.0 * g.share
                );
                c.text(&text, (x1 + 16, cy), 11.0, false, Anchor::Left, INK)?;
            }
        }
        c.text(
        "x: zero-sense rate (edges failed in every form asked), whiskers 95% Wilson intervals; dot area: share of examined edges",
        (MARGIN, bottom + 18),
        12.0,
        false,
        Anchor::Left,
        MUTED,
    )
    }
}

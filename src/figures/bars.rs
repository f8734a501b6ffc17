//! Bars: the metric per group with its 95% interval as a whisker; with several runs, one bar
//! per run in each group, in the legend's order and colours.

use plotters::prelude::*;

use super::canvas::{self, series as colour, Anchor, Canvas, GRID, INK, MARGIN, MUTED, R, TITLE_H};
use super::{BarValue, Series};
use crate::metrics::Metric;

/// The metric per group, one bar per run in each group.
#[derive(Debug, Clone)]
pub struct Bars {
    pub metric: Metric,
    pub groups: Vec<String>,
    /// Per run, each group's value (in `groups`' order) and size.
    pub series: Vec<Series<Vec<BarValue>>>,
}

const WIDTH: i32 = 980;
const BAR_H: i32 = 14;
const BAR_STEP: i32 = 20;
const LEGEND_H: i32 = 26;
const AXIS_H: i32 = 22;
/// Room right of the plot for the value and n.
const VALUE_W: i32 = 150;

fn label_w(groups: &[String]) -> i32 {
    let longest = groups.iter().map(|g| g.chars().count()).max().unwrap_or(8);
    ((longest as f64 * 7.5) as i32 + 14).clamp(90, 300)
}

fn row_h(k: usize) -> i32 {
    (k as i32 * BAR_STEP + 12).max(30)
}

impl Bars {
    pub fn size(&self) -> (u32, u32) {
        let Bars { groups, series, .. } = self;
        let legend = if series.len() > 1 { LEGEND_H } else { 0 };
        let h = TITLE_H
            + legend
            + AXIS_H
            + groups.len().max(1) as i32 * row_h(series.len())
            + 30
            + MARGIN;
        (WIDTH as u32, h as u32)
    }

    pub fn draw<DB: DrawingBackend>(&self, c: &Canvas<DB>) -> R {
        let Bars {
            metric,
            groups,
            series,
        } = self;
        let k = series.len();
        let mut y = TITLE_H;
        if k > 1 {
            let mut x = MARGIN;
            for (i, s) in series.iter().enumerate() {
                c.fill((x, y + 6), (x + 14, y + 20), colour(i, k))?;
                let name = c.fit(&s.name, 13.0, false, 360);
                c.text(&name, (x + 20, y + 13), 13.0, false, Anchor::Left, INK)?;
                x += 20 + c.width(&name, 13.0, false) as i32 + 24;
            }
            y += LEGEND_H;
        }
        let lw = label_w(groups);
        let (x0, x1) = (MARGIN + lw, WIDTH - MARGIN - VALUE_W);
        let px = |v: f64| x0 + ((x1 - x0) as f64 * v.clamp(0.0, 1.0)).round() as i32;
        let rh = row_h(k);
        let bottom = y + AXIS_H + groups.len().max(1) as i32 * rh;
        c.x_axis(&px, y + AXIS_H, bottom)?;
        y += AXIS_H;
        for (gi, group) in groups.iter().enumerate() {
            let ry = y + gi as i32 * rh;
            if gi > 0 {
                c.line(vec![(MARGIN, ry), (x1, ry)], GRID, 1)?;
            }
            let name = c.fit(group, 13.0, false, lw as u32 - 10);
            c.text(&name, (MARGIN, ry + rh / 2), 13.0, false, Anchor::Left, INK)?;
            for (si, s) in series.iter().enumerate() {
                let cy = ry + 6 + si as i32 * BAR_STEP + BAR_H / 2;
                match s.data[gi] {
                    (Some(r), n) => {
                        c.fill(
                            (px(0.0), cy - BAR_H / 2),
                            (px(r.value), cy + BAR_H / 2),
                            colour(si, k),
                        )?;
                        c.whisker_h(px(r.lo), px(r.hi), cy, INK)?;
                        let text = format!("{} n={n}", canvas::value(r.value));
                        c.text(
                            &text,
                            (px(r.hi.max(r.value)) + 8, cy),
                            12.0,
                            false,
                            Anchor::Left,
                            INK,
                        )?;
                    }
                    (None, _) => {
                        c.text(
                            "no answers",
                            (px(0.0) + 4, cy),
                            12.0,
                            false,
                            Anchor::Left,
                            MUTED,
                        )?;
                    }
                }
            }
        }
        c.text(
            &format!(
                "{}; whiskers: 95% Wilson intervals; n = {}",
                metric.name(),
                metric.unit()
            ),
            (MARGIN, bottom + 16),
            12.0,
            false,
            Anchor::Left,
            MUTED,
        )
    }
}

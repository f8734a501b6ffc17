//! The reliability diagram: per confidence bin, the accuracy of the answers in it (with its
//! 95% interval) against their mean confidence; the diagonal is perfect calibration. Each run
//! is one line with its own colour and marker shape, its ECE in the legend.

use plotters::prelude::*;

use super::canvas::{series as colour, Anchor, Canvas, GRID, INK, MARGIN, MUTED, R, TITLE_H};
use super::Series;
use crate::metrics::calibration::Calibration;

/// The reliability diagram: one line per run.
#[derive(Debug, Clone)]
pub struct Reliability {
    pub series: Vec<Series<Calibration>>,
    /// What the confidence is, for the x axis ("the chosen option's probability").
    pub confidence: String,
    /// Which answers carry one, for the legend ("answers asked more than once").
    pub answers: String,
}

const PLOT: i32 = 520;
const LEFT: i32 = 70;
const LEGEND_W: i32 = 360;

impl Reliability {
    pub fn size(&self) -> (u32, u32) {
        let w = MARGIN + LEFT + PLOT + 30 + LEGEND_W + MARGIN;
        let h = TITLE_H + 20 + PLOT + 60 + MARGIN;
        (w as u32, h as u32)
    }

    pub fn draw<DB: DrawingBackend>(&self, c: &Canvas<DB>) -> R {
        let series = &self.series;
        let (x0, y1) = (MARGIN + LEFT, TITLE_H + 20 + PLOT);
        let (x1, y0) = (x0 + PLOT, y1 - PLOT);
        let px = |v: f64| x0 + (PLOT as f64 * v.clamp(0.0, 1.0)).round() as i32;
        let py = |v: f64| y1 - (PLOT as f64 * v.clamp(0.0, 1.0)).round() as i32;
        for i in 0..=5 {
            let t = i as f64 / 5.0;
            c.line(vec![(px(t), y0), (px(t), y1)], GRID, 1)?;
            c.line(vec![(x0, py(t)), (x1, py(t))], GRID, 1)?;
            c.text(
                &format!("{t:.1}"),
                (px(t), y1 + 14),
                11.0,
                false,
                Anchor::Centre,
                MUTED,
            )?;
            c.text(
                &format!("{t:.1}"),
                (x0 - 8, py(t)),
                11.0,
                false,
                Anchor::Right,
                MUTED,
            )?;
        }
        c.outline((x0, y0), (x1, y1), MUTED)?;
        c.line(vec![(px(0.0), py(0.0)), (px(1.0), py(1.0))], MUTED, 1)?;
        c.text(
            &format!("confidence ({})", self.confidence),
            ((x0 + x1) / 2, y1 + 36),
            12.0,
            false,
            Anchor::Centre,
            INK,
        )?;
        c.text(
            "accuracy",
            (MARGIN, y0 - 10),
            12.0,
            false,
            Anchor::Left,
            INK,
        )?;
        let k = series.len();
        for (si, s) in series.iter().enumerate() {
            let col = colour(si, k);
            let points: Vec<(i32, i32)> = s
                .data
                .bins
                .iter()
                .map(|b| (px(b.confidence), py(b.accuracy.value)))
                .collect();
            c.line(points.clone(), col, 2)?;
            for (b, p) in s.data.bins.iter().zip(&points) {
                c.whisker_v(p.0, py(b.accuracy.lo), py(b.accuracy.hi), col)?;
                c.marker(si, *p, 5, col)?;
                c.text(
                    &format!("n={}", b.n),
                    (p.0 + 8, p.1 - 10),
                    11.0,
                    false,
                    Anchor::Left,
                    col,
                )?;
            }
            let ly = y0 + 10 + si as i32 * 44;
            let lx = x1 + 30;
            c.marker(si, (lx + 6, ly), 5, col)?;
            let name = c.fit(&s.name, 13.0, true, LEGEND_W as u32 - 24);
            c.text(&name, (lx + 20, ly), 13.0, true, Anchor::Left, INK)?;
            let detail = format!("ECE {:.3} · n={} {}", s.data.ece, s.data.n, self.answers);
            c.text(
                &detail,
                (lx + 20, ly + 18),
                12.0,
                false,
                Anchor::Left,
                MUTED,
            )?;
        }
        c.text(
            "diagonal: perfect calibration · whiskers: 95% Wilson intervals",
            (x1 + 30, y1 - 8),
            12.0,
            false,
            Anchor::Left,
            MUTED,
        )
    }
}

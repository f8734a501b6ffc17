//! Drawing primitives over any plotters backend, in pixels: text in the bundled font, boxes,
//! lines, markers, and the colour scales every figure shares.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The typeface every figure uses, bundled so figures do not depend on installed fonts.
pub const FAMILY: &str = "sans-serif";

pub type R<T = ()> = anyhow::Result<T>;

/// A drawing error as an `anyhow` error (plotters' error type is generic over the backend).
pub fn d<T, E: std::fmt::Debug>(r: Result<T, E>) -> R<T> {
    r.map_err(|e| anyhow::anyhow!("drawing the figure failed: {e:?}"))
}

/// The bundled DejaVu Sans, regular and bold.
pub const REGULAR_FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
pub const BOLD_FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold.ttf");

/// Registers the bundled DejaVu Sans as the figures' sans-serif, once per process.
pub fn register_fonts() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // Both are fixed files of this repository: a failure is a broken build, not input.
        for (style, bytes) in [
            (FontStyle::Normal, REGULAR_FONT),
            (FontStyle::Bold, BOLD_FONT),
        ] {
            assert!(
                plotters::style::register_font(FAMILY, style, bytes).is_ok(),
                "the bundled font does not load"
            );
        }
    });
}

pub const INK: RGBColor = RGBColor(33, 33, 33);
pub const MUTED: RGBColor = RGBColor(110, 110, 110);
pub const GRID: RGBColor = RGBColor(221, 221, 221);
pub const EMPTY: RGBColor = RGBColor(242, 242, 242);

/// Viridis at `t` in [0, 1]: perceptually uniform, its lightness rises monotonically (so it
/// reads in greyscale), and it stays distinct under the common colour-vision deficiencies.
pub fn scale(t: f64) -> RGBColor {
    ViridisRGB.get_color(t.clamp(0.0, 1.0) as f32)
}

/// The colour of the `i`-th of `n` series: evenly spaced on viridis, stopping short of its
/// palest yellow (too faint on white), so series differ in lightness as well as hue.
pub fn series(i: usize, n: usize) -> RGBColor {
    if n <= 1 {
        return scale(0.3);
    }
    scale(0.85 * i as f64 / (n - 1) as f64)
}

/// Ink that reads on `bg`: white on dark fills, black on light ones.
pub fn ink_on(bg: RGBColor) -> RGBColor {
    let RGBColor(r, g, b) = bg;
    let luma = 0.2126 * r as f64 + 0.7152 * g as f64 + 0.0722 * b as f64;
    if luma < 140.0 {
        WHITE
    } else {
        BLACK
    }
}

/// Where a text's anchor point sits on the text.
#[derive(Clone, Copy)]
pub enum Anchor {
    Left,
    Centre,
    Right,
}

pub struct Canvas<'a, DB: DrawingBackend> {
    pub area: &'a DrawingArea<DB, Shift>,
}

impl<DB: DrawingBackend> Canvas<'_, DB> {
    fn style(size: f64, bold: bool) -> FontDesc<'static> {
        let style = if bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        FontDesc::new(FontFamily::Name(FAMILY), size, style)
    }

    /// Text with its vertical centre at `y`. KG and model text is cleaned of control
    /// characters first; the SVG backend escapes what XML needs.
    pub fn text(
        &self,
        s: &str,
        (x, y): (i32, i32),
        size: f64,
        bold: bool,
        anchor: Anchor,
        colour: RGBColor,
    ) -> R {
        let h = match anchor {
            Anchor::Left => HPos::Left,
            Anchor::Centre => HPos::Center,
            Anchor::Right => HPos::Right,
        };
        let clean = crate::sanitize::line(s);
        let style = TextStyle::from(Self::style(size, bold))
            .color(&colour)
            .pos(Pos::new(h, VPos::Center));
        d(self.area.draw(&Text::new(clean, (x, y), style)))
    }

    /// Width in pixels of `s` as [`Self::text`] draws it.
    pub fn width(&self, s: &str, size: f64, bold: bool) -> u32 {
        self.area
            .estimate_text_size(
                &crate::sanitize::line(s),
                &TextStyle::from(Self::style(size, bold)),
            )
            .map_or(s.chars().count() as u32 * size as u32 / 2, |(w, _)| w)
    }

    /// `s` cut to `max` pixels, with an ellipsis when cut.
    pub fn fit(&self, s: &str, size: f64, bold: bool, max: u32) -> String {
        let s = crate::sanitize::line(s);
        if self.width(&s, size, bold) <= max {
            return s;
        }
        let chars: Vec<char> = s.chars().collect();
        let (mut lo, mut hi) = (0, chars.len());
        // The longest prefix that fits with its ellipsis.
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            let t: String = chars[..mid].iter().chain(['…'].iter()).collect();
            if self.width(&t, size, bold) <= max {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        chars[..lo].iter().chain(['…'].iter()).collect()
    }

    pub fn fill(&self, (x0, y0): (i32, i32), (x1, y1): (i32, i32), colour: RGBColor) -> R {
        d(self
            .area
            .draw(&Rectangle::new([(x0, y0), (x1, y1)], colour.filled())))
    }

    pub fn outline(&self, (x0, y0): (i32, i32), (x1, y1): (i32, i32), colour: RGBColor) -> R {
        d(self.area.draw(&Rectangle::new(
            [(x0, y0), (x1, y1)],
            colour.stroke_width(1),
        )))
    }

    pub fn line(&self, points: Vec<(i32, i32)>, colour: RGBColor, width: u32) -> R {
        d(self
            .area
            .draw(&PathElement::new(points, colour.stroke_width(width))))
    }

    /// A horizontal 95% interval: a line from `lo` to `hi` with end caps.
    pub fn whisker_h(&self, lo: i32, hi: i32, y: i32, colour: RGBColor) -> R {
        // A white halo keeps the whisker visible over a dark bar.
        self.line(vec![(lo, y), (hi, y)], WHITE, 4)?;
        self.line(vec![(lo, y), (hi, y)], colour, 2)?;
        self.line(vec![(lo, y - 4), (lo, y + 4)], colour, 2)?;
        self.line(vec![(hi, y - 4), (hi, y + 4)], colour, 2)
    }

    /// A vertical 95% interval.
    pub fn whisker_v(&self, x: i32, lo: i32, hi: i32, colour: RGBColor) -> R {
        self.line(vec![(x, lo), (x, hi)], colour, 2)?;
        self.line(vec![(x - 4, lo), (x + 4, lo)], colour, 2)?;
        self.line(vec![(x - 4, hi), (x + 4, hi)], colour, 2)
    }

    /// Marker `i` of a series: circle, triangle, square, diamond, … — shapes as well as
    /// colours, so series stay apart in greyscale.
    pub fn marker(&self, i: usize, (x, y): (i32, i32), r: i32, colour: RGBColor) -> R {
        let style = colour.filled();
        match i % 4 {
            0 => d(self.area.draw(&Circle::new((x, y), r, style))),
            1 => d(self.area.draw(&Polygon::new(
                vec![(x, y - r - 1), (x - r - 1, y + r), (x + r + 1, y + r)],
                style,
            ))),
            2 => d(self
                .area
                .draw(&Rectangle::new([(x - r, y - r), (x + r, y + r)], style))),
            _ => d(self.area.draw(&Polygon::new(
                vec![
                    (x, y - r - 2),
                    (x + r + 2, y),
                    (x, y + r + 2),
                    (x - r - 2, y),
                ],
                style,
            ))),
        }
    }

    pub fn circle(&self, (x, y): (i32, i32), r: i32, fill: RGBColor, edge: RGBColor) -> R {
        d(self.area.draw(&Circle::new((x, y), r, fill.filled())))?;
        d(self
            .area
            .draw(&Circle::new((x, y), r, edge.stroke_width(1))))
    }

    /// A horizontal 0–1 axis: ticks at quarters labelled above `top`, grid lines down to
    /// `bottom`; `px` maps a value to its x.
    pub fn x_axis(&self, px: &dyn Fn(f64) -> i32, top: i32, bottom: i32) -> R {
        for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
            self.line(vec![(px(t), top - 4), (px(t), bottom)], GRID, 1)?;
            let label = format!("{t:.2}");
            self.text(
                &label,
                (px(t), top - 13),
                11.0,
                false,
                Anchor::Centre,
                MUTED,
            )?;
        }
        Ok(())
    }

    /// The title block: a bold title and a muted subtitle under it.
    pub fn title(&self, title: &str, subtitle: &str, width: u32) -> R {
        let max = width.saturating_sub(2 * MARGIN as u32);
        let t = self.fit(title, 20.0, true, max);
        self.text(&t, (MARGIN, 22), 20.0, true, Anchor::Left, INK)?;
        let s = self.fit(subtitle, 13.0, false, max);
        self.text(&s, (MARGIN, 46), 13.0, false, Anchor::Left, MUTED)
    }

    /// A horizontal colour bar for the metric scale, "worse" to "better", at `(x, y)`.
    pub fn scale_bar(&self, (x, y): (i32, i32), w: i32, left: &str, right: &str) -> R {
        let steps = 64;
        for i in 0..steps {
            let x0 = x + w * i / steps;
            let x1 = x + w * (i + 1) / steps;
            self.fill((x0, y), (x1, y + 12), scale(i as f64 / (steps - 1) as f64))?;
        }
        self.outline((x, y), (x + w, y + 12), MUTED)?;
        self.text(left, (x, y + 24), 12.0, false, Anchor::Left, MUTED)?;
        self.text(right, (x + w, y + 24), 12.0, false, Anchor::Right, MUTED)
    }
}

/// Outer margin of every figure, in pixels.
pub const MARGIN: i32 = 20;
/// Height of the title block.
pub const TITLE_H: i32 = 64;

/// "0.73" or "73%": how a rate reads in a cell or next to a bar.
pub fn value(v: f64) -> String {
    format!("{v:.2}")
}

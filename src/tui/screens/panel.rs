//! Draws what a method shows beyond the shared views ([`crate::core::panel`]): its lines
//! become styled terminal lines, every text sanitised (it comes from the KG or the model).

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use crate::core::panel::{Mark, PanelLine};
use crate::sanitize::line;
use crate::tui::theme::Theme;

/// A panel's lines for an area `width` cells wide; field keys are padded to `key_width`.
pub fn lines(t: &Theme, panel: &[PanelLine], width: usize, key_width: usize) -> Vec<Line<'static>> {
    let style = |m: Mark| match m {
        Mark::Plain => Style::default().fg(t.fg),
        Mark::Accent => Style::default().fg(t.accent),
        Mark::Alarm => Style::default().fg(t.incorrect),
        Mark::Dim => t.dim(),
    };
    panel
        .iter()
        .map(|l| match l {
            PanelLine::Title { text, note } => Line::from(vec![
                Span::styled(line(text), t.title()),
                Span::styled(line(note), t.dim()),
            ]),
            PanelLine::Field {
                key,
                value,
                note,
                mark,
            } => Line::from(vec![
                Span::styled(crate::display_width::pad(&line(key), key_width), t.dim()),
                Span::styled(line(value), style(*mark)),
                Span::styled(line(note), t.dim()),
            ]),
            PanelLine::Text { text, mark } => Line::from(Span::styled(line(text), style(*mark))),
            PanelLine::Curve { name, now, values } => {
                // One column per point, the newest ones when they do not all fit.
                let room = width.saturating_sub(12).max(1);
                let recent = &values[values.len().saturating_sub(room)..];
                Line::from(vec![
                    Span::styled(format!("{:<6}{now:>5.2} ", line(name)), t.dim()),
                    Span::styled(
                        recent.iter().map(|&v| spark(v)).collect::<String>(),
                        Style::default().fg(t.accent),
                    ),
                ])
            }
        })
        .collect()
}

/// A rate in [0, 1] as one of eight bar heights.
fn spark(x: f64) -> char {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    BARS[((x.clamp(0.0, 1.0) * 7.0).round()) as usize]
}

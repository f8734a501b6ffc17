//! The small drawing parts the screens share: the titled block around a pane, the box an
//! overlay goes in, a rate as the screens write it. They sit below the screens and the frame
//! that calls the screens (`ui`), so a screen never reaches up into what draws it.

use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::{Block, Borders};

use super::app::App;

/// A bordered block titled in the theme's style.
pub fn block<'a>(app: &App, title: &'a str) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(format!(" {title} "), app.theme.title()))
        .border_style(app.theme.dim())
}

/// "0.73 [0.61, 0.83]" or "–".
pub fn rate(r: Option<crate::metrics::Rate>) -> String {
    match r {
        Some(r) => format!("{:.2} [{:.2}, {:.2}]", r.value, r.lo, r.hi),
        None => "–".into(),
    }
}

/// A `w` × `h` box in the middle of `area` (both no larger than it): where overlays go.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let (w, h) = (w.min(area.width), h.min(area.height));
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

//! The demo's round finding: the line that tells the round's story, in a box over the last
//! screen, large enough to read from across a room and never cut (it wraps).

use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::tui::app::demo_finding::Finding;
use crate::tui::app::App;
use crate::tui::widgets::centered;
use crate::tui::wrap::wrap;

pub fn draw(f: &mut Frame, app: &App, finding: &Finding, round: usize, area: Rect) {
    let t = &app.theme;
    // Centred with a margin where there is room for one; else edge to edge, so no sliver of
    // the screen below shows at its sides.
    let w = if area.width >= 94 { 90 } else { area.width };
    let inner = w.saturating_sub(4);
    let mut lines = vec![Line::from(Span::styled(
        finding.headline.clone(),
        t.title().add_modifier(Modifier::BOLD),
    ))];
    for m in &finding.more {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::raw(m.clone())));
    }
    let lines = wrap(&lines, inner);
    let h = (lines.len() as u16 + 4).min(area.height);
    let r = centered(area, w, h);
    let frame = Block::default()
        .borders(Borders::ALL)
        .title(Span::styled(
            format!(" round {} · what it found ", round + 1),
            t.title(),
        ))
        .border_style(ratatui::style::Style::default().fg(t.accent));
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .style(t.base())
            .block(frame.padding(ratatui::widgets::Padding::uniform(1))),
        r,
    );
}

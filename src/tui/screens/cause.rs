//! The cause picker, drawn over Inspect or Judge while a "bad question" label waits for its
//! cause: each cause's key, name and meaning, from the engine's one list of causes.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

use crate::core::question_cause::QuestionCause;
use crate::display_width::fit;
use crate::tui::app::{cause, App};
use crate::tui::widgets::block;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let name_w = QuestionCause::ALL
        .iter()
        .map(|c| crate::display_width::width(c.name()))
        .max()
        .unwrap_or(0);
    let w = area.width.saturating_sub(2).min(78);
    let inner = w.saturating_sub(2) as usize;
    let mut lines: Vec<Line> = QuestionCause::ALL
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let head = format!(" {} ", cause::key_of(i));
            let name = format!("{:<name_w$}  ", c.name());
            let room = inner.saturating_sub(head.len() + name_w + 2);
            Line::from(vec![
                Span::styled(head, Style::default().fg(t.accent)),
                Span::raw(name),
                Span::styled(fit(c.meaning(), room), t.dim()),
            ])
        })
        .collect();
    // Inspect saves a note written before the label with it; Judge has no notes.
    let on_inspect = app
        .inspect
        .asking_cause
        .is_some_and(|a| a.from == crate::tui::app::Screen::Inspect);
    let hint = if on_inspect {
        " Esc labels nothing · a note written first (n) is saved with it"
    } else {
        " Esc labels nothing"
    };
    lines.push(Line::from(Span::styled(fit(hint, inner), t.dim())));
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = crate::tui::widgets::centered(area, w, h);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .style(t.base())
            .block(block(app, "Why is the question bad?")),
        r,
    );
}

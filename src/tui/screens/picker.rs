//! The run picker (`O`), drawn over any screen: the runs of the runs directory, newest first,
//! two lines each (id and state; model, KG, method and answers of planned), the open one
//! marked.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;

use crate::display_width::fit;
use crate::sanitize::line;
use crate::tui::app::{App, RunPicker};
use crate::tui::keymap::{self, Action, Mode};
use crate::tui::widgets::block;

pub fn draw(f: &mut Frame, app: &App, p: &RunPicker, area: Rect) {
    let t = &app.theme;
    let w = area.width.saturating_sub(4).min(110);
    // Two lines a run, the border, and the hint.
    let h = (p.runs.len().max(1) as u16 * 2 + 3).min(area.height.saturating_sub(2));
    let r = crate::tui::widgets::centered(area, w, h);
    f.render_widget(Clear, r);
    let hint = format!(
        "{} · {}",
        keymap::hint(Mode::RunPicker, Action::Down),
        keymap::hint(Mode::RunPicker, Action::Accept)
    );
    let title = format!(
        "Open a run of {} · {hint}",
        line(&app.runs_dir.display().to_string())
    );
    let frame = block(app, &title);
    let inner = r.width.saturating_sub(4) as usize;
    if let Some(e) = &p.error {
        f.render_widget(
            Paragraph::new(line(e))
                .wrap(Wrap { trim: true })
                .block(frame),
            r,
        );
        return;
    }
    if p.runs.is_empty() {
        f.render_widget(
            Paragraph::new("No runs yet: start one from Explore (r) or with `kgscope run`.")
                .wrap(Wrap { trim: true })
                .block(frame),
            r,
        );
        return;
    }
    let open = app.data.as_ref().map(|d| d.run.id.as_str());
    let items: Vec<ListItem> = p
        .runs
        .iter()
        .zip(&p.answered)
        .map(|(run, answered)| {
            let mark = if Some(run.id.as_str()) == open {
                "▸ "
            } else {
                "  "
            };
            let state = if run.finished {
                "finished"
            } else {
                "not finished"
            };
            let answered = answered.map_or("…".to_string(), |n| n.to_string());
            let head = fit(&format!("{mark}{} · {state}", line(&run.id)), inner);
            let detail = fit(
                &format!(
                    "    {} · {} · {} · {answered} of {} answered",
                    line(&run.model),
                    line(&run.kg),
                    line(&run.method),
                    run.questions
                ),
                inner,
            );
            ListItem::new(vec![
                Line::from(head),
                Line::from(Span::styled(detail, t.dim())),
            ])
        })
        .collect();
    let list = List::new(items)
        .block(frame)
        .style(t.base())
        .highlight_style(t.selected());
    let mut state = ListState::default().with_selected(Some(p.cursor));
    f.render_stateful_widget(list, r, &mut state);
}

//! Errors: the incorrect, abstained and invalid outcomes, filtered by outcome and by the
//! heatmap cell they came from.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{List, ListItem, ListState, Paragraph};
use ratatui::Frame;

use super::heatmaps::fit;
use crate::sanitize::line;
use crate::tui::app::{label_summary, App, KindFilter};
use crate::tui::ui::block;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let Some(d) = &app.data else {
        f.render_widget(
            Paragraph::new("No run open: start one from Explore (r) or open one with --run.")
                .block(block(app, "Errors")),
            area,
        );
        return;
    };
    let list = app.error_indices();
    let mut title = format!(
        "Errors: {} {}",
        list.len(),
        app.errors.kind.unwrap_or(KindFilter::AllErrors).name()
    );
    if let Some(c) = &app.errors.cell {
        title.push_str(&format!(" · {}", c.describe()));
    }
    if let Some(l) = app.errors.label {
        title.push_str(&format!(" · {}", line(&l.describe(&app.annotator))));
    }
    title.push_str(&format!(
        " · sorted by {} · o l s x Enter",
        app.errors.sort.name()
    ));
    let w = area.width.saturating_sub(4) as usize;
    let prompt_w = w.saturating_sub(11 + 22 + 16 + 14).max(10);
    // Only the rows in view are built, so a list of 100,000 errors costs what a page costs.
    let height = area.height.saturating_sub(2) as usize;
    let first = (app.errors.selected + 1).saturating_sub(height.max(1));
    let items: Vec<ListItem> = list
        .iter()
        .skip(first)
        .take(height)
        .map(|&i| {
            let e = &d.errors[i];
            // Only the rows in view are read back from disk.
            let (label, prompt, response) = match d.record(i) {
                Ok(r) => (
                    // Yours, else whose there is ("ann: wrong").
                    d.labels
                        .get(&r.question.id, &app.annotator)
                        .map(label_summary)
                        .or_else(|| {
                            let l = d.labels.of(&r.question.id).next()?;
                            Some(format!("{}: {}", line(&l.annotator), label_summary(l)))
                        })
                        .unwrap_or_default(),
                    line(&r.question.prompt),
                    line(r.response()),
                ),
                Err(why) => (String::new(), line(&why), String::new()),
            };
            ListItem::new(Line::from(vec![
                Span::styled(
                    format!("{:<11}", format!("{:?}", e.outcome).to_lowercase()),
                    t.outcome(e.outcome),
                ),
                Span::raw(format!("{:<22}", fit(&line(d.relation(e)), 21))),
                Span::raw(format!("{:<w$}", fit(&prompt, prompt_w - 1), w = prompt_w)),
                Span::styled(format!("{:<16}", fit(&response, 15)), t.dim()),
                Span::styled(fit(&label, 14), t.title()),
            ]))
        })
        .collect();
    let mut state = ListState::default()
        .with_selected((!list.is_empty()).then_some(app.errors.selected - first));
    f.render_stateful_widget(
        List::new(items)
            .block(block(app, &title))
            .highlight_style(t.selected()),
        area,
        &mut state,
    );
}

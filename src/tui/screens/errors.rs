//! Errors: the incorrect, abstained and invalid outcomes, filtered by outcome and by the
//! heatmap cell they came from, in columns sized to the terminal.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{List, ListItem, ListState, Paragraph};
use ratatui::Frame;

use crate::display_width::fit;
use crate::sanitize::line;
use crate::tui::app::{label_summary, App, KindFilter};
use crate::tui::ui::block;

/// Widths of the columns outcome, gold, relation, prompt, response and label for a list
/// `width` columns wide (inside its borders). Outcome and gold are short words; the relation,
/// the response and the label grow with the terminal up to what they usually need; the prompt,
/// the longest text, takes the rest.
pub fn columns(width: usize) -> [usize; 6] {
    let (outcome, gold) = (10, 6);
    let rest = width.saturating_sub(outcome + gold);
    let relation = (rest / 5).clamp(8, 24);
    let response = (rest / 5).clamp(8, 32);
    let label = (rest / 7).clamp(6, 22);
    let prompt = rest.saturating_sub(relation + response + label).max(10);
    [outcome, gold, relation, prompt, response, label]
}

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
    let frame = block(app, &title);
    let inner = frame.inner(area);
    f.render_widget(frame, area);
    let [header, rows] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(inner);
    let widths = columns(inner.width as usize);
    let cell = crate::display_width::cell;
    let names = ["outcome", "gold", "relation", "prompt", "answer", "label"];
    f.render_widget(
        Paragraph::new(Line::from(
            names
                .iter()
                .zip(widths)
                .map(|(n, w)| Span::styled(cell(n, w), t.dim()))
                .collect::<Vec<_>>(),
        )),
        header,
    );
    // Only the rows in view are built, so a list of 100,000 errors costs what a page costs.
    let height = rows.height as usize;
    let first = (app.errors.selected + 1).saturating_sub(height.max(1));
    let [ow, gw, rw, pw, aw, lw] = widths;
    let items: Vec<ListItem> = list
        .iter()
        .skip(first)
        .take(height)
        .map(|&i| {
            let e = &d.rows[i];
            // Only the rows in view were read back from disk (`App::prepare_view`).
            let (label, gold, prompt, response) =
                match d.prepared(i).unwrap_or_else(|| Err("…".into())) {
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
                        line(&crate::method::of(r.question.task).gold_text(&r.question)),
                        line(&r.question.prompt),
                        // Models often answer with a leading space (the prompt ends before it).
                        line(r.response().trim_start()),
                    ),
                    Err(why) => (String::new(), String::new(), line(&why), String::new()),
                };
            ListItem::new(Line::from(vec![
                Span::styled(
                    cell(&format!("{:?}", e.outcome).to_lowercase(), ow),
                    t.outcome(e.outcome),
                ),
                Span::raw(cell(&gold, gw)),
                Span::raw(cell(&line(d.relation(e)), rw)),
                Span::raw(cell(&prompt, pw)),
                Span::styled(cell(&response, aw), t.dim()),
                Span::styled(fit(&label, lw), t.title()),
            ]))
        })
        .collect();
    app.hits.borrow_mut().list = Some(crate::tui::app::ListHit {
        screen: crate::tui::app::Screen::Errors,
        rows,
        first,
        len: list.len(),
    });
    let mut state = ListState::default()
        .with_selected((!list.is_empty()).then_some(app.errors.selected - first));
    f.render_stateful_widget(
        List::new(items).highlight_style(t.selected()),
        rows,
        &mut state,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fill_the_width_and_the_prompt_takes_the_rest() {
        for w in [78, 120, 198, 400] {
            let c = columns(w);
            assert_eq!(c.iter().sum::<usize>(), w, "{w}: {c:?}");
        }
        assert_eq!(columns(78), [10, 6, 12, 30, 12, 8]);
        // Wide terminals give the relation, the answer and the label what they need, and the
        // prompt everything else.
        let wide = columns(198);
        assert_eq!(wide[2], 24);
        assert_eq!(wide[4], 32);
        assert!(wide[3] > 100, "{wide:?}");
    }
}

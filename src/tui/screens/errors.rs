//! Errors: the incorrect, abstained and invalid outcomes, filtered by outcome and by the
//! heatmap cell they came from, in columns sized to the terminal.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{List, ListItem, ListState, Paragraph};
use ratatui::Frame;

use crate::display_width::fit;
use crate::sanitize::line;
use crate::tui::app::{label_summary, App, KindFilter};
use crate::tui::widgets::block;

use super::answer_card;

/// Widths of the columns outcome, gold, relation, prompt, response and label for a list
/// `width` columns wide (inside its borders); the label column only when the run has labels
/// (an empty column would take the gold's room). The gold, the relation, the response and
/// the label grow with the terminal up to what they usually need; the prompt, the longest
/// text, takes the rest. The selected answer is shown whole under the list.
pub fn columns(width: usize, labels: bool) -> [usize; 6] {
    let outcome = 10;
    let rest = width.saturating_sub(outcome);
    let gold = (rest / 6).clamp(8, 24);
    let relation = (rest / 6).clamp(8, 24);
    let response = (rest / 5).clamp(8, 32);
    let label = if labels { (rest / 8).clamp(6, 22) } else { 0 };
    let prompt = rest
        .saturating_sub(gold + relation + response + label)
        .max(10);
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
    let label_of = |qid: &str| {
        // Yours, else whose there is ("ann: wrong").
        d.labels
            .get(qid, &app.annotator)
            .map(label_summary)
            .or_else(|| {
                let l = d.labels.of(qid).next()?;
                Some(format!("{}: {}", line(&l.annotator), label_summary(l)))
            })
    };
    let card = list
        .get(app.errors.selected)
        .and_then(|&i| d.prepared(i))
        .and_then(Result::ok)
        .map(|r| answer_card::Card::of(&r, label_of(&r.question.id)));
    let (card_lines, card_height) =
        answer_card::layout(card.as_ref(), area.width, f.area().height, t);
    let [area, card_area] =
        Layout::vertical([Constraint::Min(5), Constraint::Length(card_height)]).areas(area);
    let frame = block(app, &title);
    let inner = frame.inner(area);
    f.render_widget(frame, area);
    let [header, rows] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(inner);
    let labelled = !d.labels.annotators().is_empty();
    let widths = columns(inner.width as usize, labelled);
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
                        label_of(&r.question.id).unwrap_or_default(),
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
    answer_card::draw(f, app, card_lines, "The answer", card_area);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_fill_the_width_and_the_prompt_takes_the_rest() {
        for w in [78, 120, 198, 400] {
            for labels in [false, true] {
                let c = columns(w, labels);
                assert_eq!(c.iter().sum::<usize>(), w, "{w}: {c:?}");
                assert_eq!(c[5] > 0, labels, "{w}: {c:?}");
            }
        }
        // The gold gets a word's room at 80 columns, more at 120.
        assert!(columns(78, true)[1] >= 8);
        assert!(columns(118, false)[1] >= 18, "{:?}", columns(118, false));
        // Wide terminals give the relation, the answer and the label what they need, and the
        // prompt everything else.
        let wide = columns(198, true);
        assert_eq!(wide[2], 24);
        assert_eq!(wide[4], 32);
        assert!(wide[3] > 70, "{wide:?}");
    }
}

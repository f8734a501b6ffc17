//! Judge: each verifier of the open run (the rules, the LLM judge, the trained judge, what
//! was recorded) against the hand labels: a line of figures each (n, agreement, Cohen's
//! kappa, F1 per class, macro F1), their confusion matrices side by side, how often the rules
//! are right when unsure; then the answers to label next, labelled here with Inspect's keys.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;

use crate::core::verdict::JudgeClass;
use crate::display_width::fit;
use crate::metrics::judges::{Agreement, JudgeReport, Verifier};
use crate::report::judges::{num, unsure_line};
use crate::sanitize::line;
use crate::tui::app::{App, Screen};
use crate::tui::widgets::block;

use super::answer_card;

/// The fewest rows (borders included) the "label next" list keeps on a short terminal.
const LIST_LEAST: u16 = 5;

/// A matrix's columns: the class names, then three counts.
const MATRIX_LABEL: usize = 10;
const MATRIX_CELL: usize = 4;
const MATRIX_WIDTH: usize = MATRIX_LABEL + 3 * MATRIX_CELL;
const MATRIX_GAP: usize = 3;
// Three matrices (the rules, the LLM judge, what was recorded) fit 80 columns side by side.
const _: () = assert!(3 * MATRIX_WIDTH + 2 * MATRIX_GAP <= 78);

fn short(v: Verifier) -> &'static str {
    match v {
        Verifier::Rules => "rules",
        Verifier::LlmJudge => "LLM judge",
        Verifier::Trained => "trained",
        Verifier::Recorded => "recorded",
    }
}

fn abbrev(c: JudgeClass) -> &'static str {
    match c {
        JudgeClass::Correct => "cor",
        JudgeClass::Incorrect => "inc",
        JudgeClass::Idk => "idk",
    }
}

/// The hand labels in a line: how many are compared, and how many are not.
fn labels_line(r: &JudgeReport) -> String {
    let l = &r.labels;
    if l.labelled() == 0 {
        return "no hand labels yet: label the answers queued below (r w a b g)".into();
    }
    format!(
        "labels: {} compared · {} bad question or KG wrong · {} tied · {} of {} unlabelled",
        l.comparable, l.uncomparable, l.tied, l.unlabelled, r.answers
    )
}

const SUMMARY: [(&str, usize); 8] = [
    ("verifier", 14),
    ("n", 6),
    ("agreement", 11),
    ("kappa", 8),
    ("F1 cor", 8),
    ("F1 inc", 8),
    ("F1 idk", 8),
    ("macro F1", 10),
];

fn summary_line(cells: &[String]) -> String {
    let mut s = String::new();
    for (i, (c, (_, w))) in cells.iter().zip(SUMMARY).enumerate() {
        if i == 0 {
            s.push_str(&crate::display_width::cell(c, w));
        } else {
            s.push_str(&format!("{c:>w$}"));
        }
    }
    s
}

fn summary_row(a: &Agreement) -> String {
    let n = if a.unread > 0 {
        format!("{}+{}?", a.n, a.unread)
    } else {
        a.n.to_string()
    };
    let mut cells = vec![
        a.verifier.name().to_string(),
        n,
        num(a.agreement),
        num(a.kappa),
    ];
    cells.extend(a.classes.iter().map(|c| num(c.f1)));
    cells.push(num(a.macro_f1));
    summary_line(&cells)
}

/// One matrix as four lines: the verifier and its classes, then a line per hand label.
fn matrix(a: &Agreement) -> [String; 4] {
    let mut out: [String; 4] = Default::default();
    out[0] = format!(
        "{:<MATRIX_LABEL$}",
        fit(short(a.verifier), MATRIX_LABEL - 1)
    );
    for c in JudgeClass::ALL {
        out[0].push_str(&format!("{:>MATRIX_CELL$}", abbrev(c)));
    }
    for h in JudgeClass::ALL {
        let s = &mut out[1 + h.index()];
        s.push_str(&format!("{:<MATRIX_LABEL$}", h.name()));
        for k in a.matrix[h.index()] {
            s.push_str(&format!("{k:>MATRIX_CELL$}"));
        }
    }
    out
}

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let say = |f: &mut Frame, text: String| {
        f.render_widget(
            Paragraph::new(line(&text))
                .wrap(Wrap { trim: true })
                .block(block(app, "Judge")),
            area,
        )
    };
    let Some(d) = &app.data else {
        say(
            f,
            "No run open: start one from Explore (r) or open one with --run.".into(),
        );
        return;
    };
    if let Some(e) = &app.judge.error {
        say(f, format!("The run's answers could not be read: {e}"));
        return;
    }
    let Some(j) = app.judged() else {
        say(
            f,
            "Reading what the verifiers made of the run's answers…".into(),
        );
        return;
    };
    let r = &j.report;
    let width = area.width.saturating_sub(2) as usize;
    let mut lines = vec![Line::from(fit(&labels_line(r), width))];
    let header: Vec<String> = SUMMARY.iter().map(|(h, _)| h.to_string()).collect();
    lines.push(Line::from(Span::styled(summary_line(&header), t.dim())));
    for a in &r.verifiers {
        lines.push(Line::from(fit(&summary_row(a), width)));
    }
    if let Some(u) = unsure_line(r) {
        lines.push(Line::from(fit(&u, width)));
    }
    let mut matrices = vec![Line::from(Span::styled(
        fit(
            "confusion: rows the hand label (majority), columns the verifier's class",
            width,
        ),
        t.dim(),
    ))];
    let per_row = ((width + MATRIX_GAP) / (MATRIX_WIDTH + MATRIX_GAP)).max(1);
    for group in r.verifiers.chunks(per_row) {
        let drawn: Vec<[String; 4]> = group.iter().map(matrix).collect();
        for i in 0..4 {
            let cells: Vec<&str> = drawn.iter().map(|m| m[i].as_str()).collect();
            let text = cells.join(&" ".repeat(MATRIX_GAP));
            let style = if i == 0 { t.title() } else { t.base() };
            matrices.push(Line::from(Span::styled(fit(&text, width), style)));
        }
    }
    // The answer to label comes before the matrices: on a short terminal they give way to
    // the queue and its answer card.
    let selected = app.judge.selected.min(r.queue.len().saturating_sub(1));
    let card = j
        .offsets
        .get(selected)
        .and_then(|&o| d.prepared_at(o))
        .and_then(Result::ok)
        .map(|rec| {
            let label = d
                .labels
                .get(&rec.question.id, &app.annotator)
                .map(crate::tui::app::label_summary);
            answer_card::Card::of(&rec, label)
        });
    let (card_lines, card_height) = if r.queue.is_empty() {
        (Vec::new(), 0)
    } else {
        answer_card::layout(card.as_ref(), area.width, f.area().height, t)
    };
    let room = area.height.saturating_sub(card_height + LIST_LEAST + 2);
    if lines.len() + matrices.len() <= room as usize {
        lines.extend(matrices);
    } else {
        lines.push(Line::from(Span::styled(
            fit(
                "confusion matrices: on a taller terminal, or in `kgscope report RUN`",
                width,
            ),
            t.dim(),
        )));
    }
    let top_height = lines.len() as u16 + 2;
    let [top, bottom, card_area] = Layout::vertical([
        Constraint::Length(top_height),
        Constraint::Min(3),
        Constraint::Length(card_height),
    ])
    .areas(area);
    f.render_widget(
        Paragraph::new(lines).block(block(app, "Judge: the verifiers against hand labels")),
        top,
    );

    if r.queue.is_empty() {
        f.render_widget(
            Paragraph::new(
                "Nothing to label next: on every unlabelled answer the verifiers agree and \
                 none was unsure.",
            )
            .wrap(Wrap { trim: true })
            .block(block(app, "Label next")),
            bottom,
        );
        return;
    }
    let title = format!(
        "Label next: {} of {} · r w a b g label · Enter inspects",
        r.queue.len(),
        r.queue_candidates
    );
    let frame = block(app, &title);
    let rows = frame.inner(bottom);
    f.render_widget(frame, bottom);
    let height = rows.height as usize;
    let first = (selected + 1).saturating_sub(height.max(1));
    // The reasons as wide as the widest in view needs, up to three fifths of the width.
    let widest = r.queue[first..]
        .iter()
        .take(height)
        .map(|q| crate::display_width::width(&line(&q.why)))
        .max()
        .unwrap_or(0);
    let why_width = widest.min(rows.width as usize * 3 / 5).max(16);
    let rest = (rows.width as usize).saturating_sub(why_width + 2);
    let items: Vec<ListItem> = r
        .queue
        .iter()
        .zip(&j.offsets)
        .skip(first)
        .take(height)
        .map(|(q, &offset)| {
            // Only the queue was read back from disk (`App::prepare_view`).
            let prompt = match d.prepared_at(offset) {
                Some(Ok(rec)) => line(&rec.question.prompt),
                Some(Err(why)) => line(&why),
                None => "…".into(),
            };
            ListItem::new(Line::from(vec![
                Span::styled(
                    format!("{}  ", crate::display_width::pad(&line(&q.why), why_width)),
                    t.title(),
                ),
                Span::raw(fit(&prompt, rest)),
            ]))
        })
        .collect();
    app.hits.borrow_mut().list = Some(crate::tui::app::ListHit {
        screen: Screen::Judge,
        rows,
        first,
        len: r.queue.len(),
    });
    let mut state = ListState::default().with_selected(Some(selected - first));
    f.render_stateful_widget(
        List::new(items).highlight_style(t.selected()),
        rows,
        &mut state,
    );
    answer_card::draw(f, app, card_lines, "The answer to label", card_area);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matrix_and_a_summary_line_fit_their_columns() {
        let mut a = Agreement {
            verifier: Verifier::LlmJudge,
            answers: 9,
            n: 8,
            unread: 1,
            matrix: [[3, 1, 0], [1, 1, 0], [1, 0, 1]],
            agreement: Some(0.625),
            kappa: Some(7.0 / 19.0),
            classes: vec![],
            macro_f1: None,
        };
        let m = matrix(&a);
        assert_eq!(m[0], "LLM judge  cor inc idk");
        assert_eq!(m[2], "incorrect    1   1   0");
        assert!(m.iter().all(|l| l.chars().count() == MATRIX_WIDTH));
        a.classes = JudgeClass::ALL
            .iter()
            .map(|&class| crate::metrics::judges::ClassScore {
                class,
                support: 1,
                predicted: 1,
                precision: None,
                recall: None,
                f1: Some(0.5),
            })
            .collect();
        a.macro_f1 = Some(0.5);
        let s = summary_row(&a);
        assert_eq!(
            s,
            "LLM judge       8+1?      0.625   0.368   0.500   0.500   0.500     0.500"
        );
        let widths: usize = SUMMARY.iter().map(|(_, w)| w).sum();
        assert_eq!(s.chars().count(), widths);
        assert!(widths <= 78, "the figures fit 80 columns");
    }
}

//! Live: the progress of the run going on, its metric cards, and the questions streaming by.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Gauge, Paragraph, Wrap};
use ratatui::Frame;

use crate::metrics::{Metric, Rate};
use crate::sanitize::line;
use crate::tui::app::App;
use crate::tui::keymap::{self, Action, Mode};
use crate::tui::widgets::block;
use crate::verify::OutcomeKind;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let judge = weak_judge(app);
    let [head, cards, judged, chance, stream] = Layout::vertical([
        Constraint::Length(4),
        Constraint::Length(5),
        // Two lines (it wraps on 80 columns) when a weak judge decides verdicts.
        Constraint::Length(if judge.is_some() { 2 } else { 0 }),
        // One line for the answers, two more (it wraps on 80 columns) for a warning.
        Constraint::Length(match shown(app) {
            Some(d) if d.chance.near_chance() => 3,
            // A mixed run (closed and open answers) says both: two lines on 80 columns.
            Some(d) if d.chance.n > 0 && d.chance.open.n > 0 => 2,
            Some(d) if d.chance.answered() > 0 => 1,
            _ => 0,
        }),
        Constraint::Min(3),
    ])
    .areas(area);
    let live = &app.live;
    let refused = live.active && !live.prepared && live.finished.is_some();
    if refused {
        // Refused before it began (nothing to ask, a model that would not load): the reason
        // and its advice whole, where the gauge and the cards would be.
        f.render_widget(
            Paragraph::new(live.status.as_str())
                .style(Style::default().fg(t.incorrect))
                .wrap(Wrap { trim: true }),
            head.union(cards),
        );
    } else if live.active {
        let done = live.already_done as u64 + live.answered;
        // The gauge fills to what the run asks: planned questions its plan left out (a
        // gate) are not waited for.
        let total = live.to_ask().max(1) as u64;
        let end = live.ended.unwrap_or_else(std::time::Instant::now);
        let secs = live
            .started
            .map(|s| end.duration_since(s).as_secs_f64())
            .unwrap_or(0.0)
            .max(1e-3);
        let qps = live.answered as f64 / secs;
        let eta = if qps > 0.0 && live.finished.is_none() {
            format!("{:.0}s", (total as f64 - done as f64).max(0.0) / qps)
        } else {
            "–".into()
        };
        let state = match (live.finished, live.paused) {
            (Some(true), _) => "cancelled",
            (Some(false), _) => "finished",
            (None, true) => "paused",
            (None, false) => "running",
        };
        let [g, info] =
            Layout::vertical([Constraint::Length(2), Constraint::Length(2)]).areas(head);
        f.render_widget(
            Gauge::default()
                .gauge_style(Style::default().fg(t.accent))
                .ratio((done as f64 / total as f64).min(1.0))
                .label(format!("{} · {state}", live.progress())),
            g,
        );
        let mut lines = vec![Line::from(format!(
            "{qps:.1} questions/s · {:.1} tokens/s · ETA {eta} · {} failed · {} retried · {}",
            live.completion_tokens as f64 / secs,
            live.failed,
            live.retries,
            live.status
        ))];
        // A failure outranks a retry: it loses a question, a retry only time.
        if !live.last_error.is_empty() {
            lines.push(Line::from(Span::styled(
                format!("last error: {}", live.last_error),
                Style::default().fg(t.incorrect),
            )));
        } else if !live.last_retry.is_empty() {
            lines.push(Line::from(Span::styled(
                format!("last {}", live.last_retry),
                t.dim(),
            )));
        }
        f.render_widget(Paragraph::new(lines), info);
    } else {
        let writer = shown(app).and_then(|d| d.writer.as_ref());
        let msg = if let Some(w) = writer {
            format!(
                "Read-only: another process writes this run ({}). Its answers appear as they are \
                 written; R is offered once it stops.",
                w.describe()
            )
        } else if app.can_continue() {
            "This run is unfinished: R continues it. Explore → r starts a new one.".into()
        } else if shown(app).is_some() {
            "Browsing a recorded run: no evaluation is going. Explore → r starts a new one.".into()
        } else {
            "No run yet. In Explore, select a relation or an entity and press r.".into()
        };
        f.render_widget(
            Paragraph::new(msg).style(t.dim()).wrap(Wrap { trim: true }),
            head,
        );
    }
    if !refused {
        draw_cards(f, app, cards);
    }
    if let Some(j) = &judge {
        f.render_widget(
            Paragraph::new(Span::styled(j.clone(), Style::default().fg(t.incorrect)))
                .wrap(Wrap { trim: true }),
            judged,
        );
    }
    if let Some(d) = shown(app) {
        draw_chance(f, app, &d.chance, chance);
    }
    let stream = match &live.plan {
        // A staged run shows what its plan has to say beside the questions.
        Some(event) if stream.width >= 60 => {
            let [left, right] =
                Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
                    .areas(stream);
            draw_panel(f, app, &event.panel, right);
            left
        }
        _ => stream,
    };
    let h = stream.height.saturating_sub(2) as usize;
    let room = stream.width.saturating_sub(2) as usize;
    let row = |outcome: Option<OutcomeKind>, prompt: String, text: String| {
        let style = outcome.map_or(Style::default().fg(t.fg), |o| t.outcome(o));
        let mark = match outcome {
            None => "…",
            Some(OutcomeKind::Correct) => "✓",
            Some(OutcomeKind::Incorrect) => "✗",
            Some(OutcomeKind::Abstained) => "?",
            Some(OutcomeKind::Invalid) => "!",
        };
        // Models often answer with a leading space (the prompt ends before it).
        let (prompt, answer) = fit_row(&prompt, text.trim_start(), room.saturating_sub(5));
        Line::from(vec![
            Span::styled(format!("{mark} "), style),
            Span::raw(prompt),
            Span::styled(" ⇒ ", t.dim()),
            Span::styled(answer, style),
        ])
    };
    // A run this window drives streams its tokens; otherwise the latest answers on disk (a
    // recorded run, or one another process is writing) are shown.
    let (title, lines): (&str, Vec<Line>) = match shown(app) {
        Some(d) if !live.active => (
            "Latest answers",
            d.latest(h)
                .map(|r| {
                    row(
                        Some(r.outcome),
                        line(&r.question.prompt),
                        line(r.response()),
                    )
                })
                .collect(),
        ),
        _ => (
            "Questions",
            live.rows
                .iter()
                .rev()
                .take(h)
                .rev()
                .map(|r| row(r.outcome, r.prompt.clone(), r.text.clone()))
                .collect(),
        ),
    };
    f.render_widget(Paragraph::new(lines).block(block(app, title)), stream);
    if live.active && live.finished.is_none() && live.confirm_cancel {
        draw_confirm_cancel(f, app, area);
    }
}

/// What a staged method shows between batches (KGLens: the iteration counter, the
/// convergence curves, the edges the sampler believes weakest).
fn draw_panel(f: &mut Frame, app: &App, p: &crate::core::panel::Panel, area: Rect) {
    let width = area.width.saturating_sub(2) as usize;
    let lines = super::panel::lines(&app.theme, &p.lines, width, 10);
    f.render_widget(Paragraph::new(lines).block(block(app, &p.title)), area);
}

/// "Cancel the run?" with what cancelling keeps and how to go on afterwards.
fn draw_confirm_cancel(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let id = app
        .data
        .as_ref()
        .map_or("ID".to_string(), |d| line(&d.run.id));
    let question = if app.live.quit_asked {
        "Quit? The run is cancelled first."
    } else {
        "Cancel the run?"
    };
    let lines = vec![
        Line::from(Span::styled(question, t.title())),
        Line::from("The questions in flight are dropped; every answer so far is saved."),
        Line::from(format!("Continue it later: kgscope run --resume {id}")),
        Line::from(format!(
            "or kgscope tui --run {id} --model … and R in Live."
        )),
        Line::from(""),
        Line::from(Span::styled(
            format!(
                "{} · any other key lets it go on",
                keymap::hint(Mode::ConfirmCancel, Action::ConfirmCancel)
            ),
            Style::default().fg(t.accent),
        )),
    ];
    let w = (lines.iter().map(Line::width).max().unwrap_or(0) as u16 + 4).min(area.width);
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = crate::tui::widgets::centered(area, w, h);
    f.render_widget(ratatui::widgets::Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .style(t.base())
            .wrap(ratatui::widgets::Wrap { trim: false })
            .block(block(app, "Cancel")),
        r,
    );
}

fn draw_cards(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    // A new run being prepared (its KG read, its questions made, its model loaded).
    if app.live.active && !app.live.prepared && app.live.finished.is_none() {
        f.render_widget(
            Paragraph::new(Span::styled(
                "the run's metrics appear here once its first answers are in",
                t.dim(),
            ))
            .block(block(app, "Metrics")),
            area,
        );
        return;
    }
    let Some(d) = shown(app) else {
        f.render_widget(Paragraph::new("").block(block(app, "Metrics")), area);
        return;
    };
    let o = &d.snapshot.overall;
    // The outcome rates every method has, then the method's own (GraphEval's three, KGLens'
    // edge rates, Luo et al.'s F1, precision and recall).
    let own = crate::method::of(d.manifest.config.task).metrics();
    let cards: Vec<(&str, Option<Rate>)> = Metric::summary_of(own)
        .into_iter()
        .map(|m| (m.name(), m.of(o)))
        .collect();
    let n = cards.len() as u32;
    let areas = Layout::horizontal(vec![Constraint::Ratio(1, n); cards.len()]).split(area);
    for ((name, r), a) in cards.iter().zip(areas.iter()) {
        let name = card_title(name, a.width.saturating_sub(4) as usize);
        let value = r.map_or("–".into(), |r| format!("{:.3}", r.value));
        let interval = r.map_or(String::new(), |r| format!("{:.2}–{:.2}", r.lo, r.hi));
        f.render_widget(
            Paragraph::new(vec![
                Line::from(Span::styled(value, t.title())),
                Line::from(Span::styled(interval, t.dim())),
                Line::from(Span::styled(format!("n={}", o.n), t.dim())),
            ])
            .block(block(app, name)),
            *a,
        );
    }
}

/// What the model answered and the chance baseline; in the incorrect colour, with the
/// warning, when the results are near chance (a model answering "yes" to everything).
pub fn draw_chance(f: &mut Frame, app: &App, c: &crate::metrics::chance::Chance, area: Rect) {
    let t = &app.theme;
    let first = c.summary_line();
    let mut lines = vec![Line::from(Span::styled(line(&first), t.dim()))];
    if let Some(w) = c.warning_line() {
        lines.push(Line::from(Span::styled(
            format!("⚠ {}", line(&w)),
            Style::default().fg(t.incorrect),
        )));
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}

/// A question and its answer on one line of `room` columns: the answer is what Live is
/// watched for, so a long question is cut (with …) before it is, and the answer keeps at least
/// half the line (all of it when the question leaves more).
fn fit_row(prompt: &str, answer: &str, room: usize) -> (String, String) {
    use crate::display_width::{fit, width};
    let (pw, aw) = (width(prompt), width(answer));
    if pw + aw <= room {
        return (prompt.to_string(), answer.to_string());
    }
    let answer_w = aw.min((room / 2).max(room.saturating_sub(pw)));
    (fit(prompt, room - answer_w), fit(answer, answer_w))
}

/// A card's title in `room` columns: the metric's name, or its short form on a narrow
/// terminal (six cards share 80 columns).
fn card_title(name: &str, room: usize) -> &str {
    if crate::display_width::width(name) <= room {
        return name;
    }
    match name {
        "accuracy" => "acc",
        "abstain rate" => "abstain",
        "invalid rate" => "invalid",
        "correctness" => "correct",
        "truthfulness" => "truthful",
        "informativeness" => "inform",
        "win rate" => "win",
        "zero-sense rate" => "0-sense",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_question_is_cut_and_its_answer_kept() {
        use crate::display_width::width;
        let long = "Is it true that the official language of the Republic of Fiji, an island \
                    country in Melanesia in the South Pacific, is Fiji Hindi?";
        let (p, a) = fit_row(long, "Yes, the statement is true.", 60);
        assert_eq!(a, "Yes, the statement is true.");
        assert!(p.ends_with('…') && long.starts_with(p.trim_end_matches('…')));
        assert_eq!(width(&p) + width(&a), 60);
        // Short enough: both whole.
        assert_eq!(fit_row("Q?", "A.", 60), ("Q?".into(), "A.".into()));
        // A long answer too: each keeps half.
        let (p, a) = fit_row(long, long, 40);
        assert_eq!((width(&p), width(&a)), (20, 20));
        // A short question leaves the answer the rest.
        let (p, a) = fit_row("Capital of Fiji?", long, 40);
        assert_eq!(p, "Capital of Fiji?");
        assert_eq!(width(&a), 24);
    }

    #[test]
    fn card_titles_shorten_only_when_they_do_not_fit() {
        assert_eq!(card_title("informativeness", 20), "informativeness");
        // 80 columns: six cards of 13, 9 columns for the title inside the corners and spaces.
        for name in [
            "accuracy",
            "abstain rate",
            "invalid rate",
            "correctness",
            "truthfulness",
            "informativeness",
            "win rate",
            "zero-sense rate",
        ] {
            assert!(card_title(name, 9).chars().count() <= 9, "{name}");
        }
    }
}

/// The flag on a run whose verdicts a weak judge decided ([`crate::backends::worth`]): the
/// metrics above it are the judge's as much as the model's.
/// The run Live shows: the one being driven once it is prepared, else the one opened. A run
/// being started shows no other run's cards or answers as its own.
fn shown(app: &App) -> Option<&crate::tui::app::RunData> {
    app.data
        .as_ref()
        .filter(|_| !app.live.active || app.live.prepared)
}

fn weak_judge(app: &App) -> Option<String> {
    let d = shown(app)?;
    let judge = d.manifest.config.judge.as_ref()?;
    let caveat = crate::backends::worth::judge_caveat(judge)?;
    let name = match judge {
        crate::backends::spec::ModelSpec::Llama { path } => path
            .file_name()
            .map_or_else(|| judge.describe(), |f| f.to_string_lossy().into_owned()),
        _ => judge.describe(),
    };
    Some(format!("⚠ verdicts decided by {}, {caveat}", line(&name)))
}

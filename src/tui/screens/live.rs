//! Live: the progress of the run going on, its metric cards, and the questions streaming by.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Gauge, Paragraph, Wrap};
use ratatui::Frame;

use crate::metrics::Rate;
use crate::questions::Task;
use crate::sanitize::line;
use crate::tui::app::App;
use crate::tui::ui::block;
use crate::verify::OutcomeKind;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let [head, cards, stream] = Layout::vertical([
        Constraint::Length(4),
        Constraint::Length(5),
        Constraint::Min(3),
    ])
    .areas(area);
    let live = &app.live;
    if live.active {
        let done = live.already_done as u64 + live.answered;
        let total = live.total.max(1) as u64;
        let end = live.ended.unwrap_or_else(std::time::Instant::now);
        let secs = live
            .started
            .map(|s| end.duration_since(s).as_secs_f64())
            .unwrap_or(0.0)
            .max(1e-3);
        let qps = live.answered as f64 / secs;
        let eta = if qps > 0.0 && live.finished.is_none() {
            format!("{:.0}s", (live.total as f64 - done as f64).max(0.0) / qps)
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
                .label(format!("{done} / {} · {state}", live.total)),
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
        let writer = app.data.as_ref().and_then(|d| d.writer.as_ref());
        let msg = if let Some(w) = writer {
            format!(
                "Read-only: another process writes this run ({}). Its answers appear as they are \
                 written; R is offered once it stops.",
                w.describe()
            )
        } else if app.can_continue() {
            "This run is unfinished: R continues it. Explore → r starts a new one.".into()
        } else if app.data.is_some() {
            "Browsing a recorded run: no evaluation is going. Explore → r starts a new one.".into()
        } else {
            "No run yet. In Explore, select a relation or an entity and press r.".into()
        };
        f.render_widget(
            Paragraph::new(msg).style(t.dim()).wrap(Wrap { trim: true }),
            head,
        );
    }
    draw_cards(f, app, cards);
    let h = stream.height.saturating_sub(2) as usize;
    let row = |outcome: Option<OutcomeKind>, prompt: String, text: String| {
        let style = outcome.map_or(Style::default().fg(t.fg), |o| t.outcome(o));
        let mark = match outcome {
            None => "…",
            Some(OutcomeKind::Correct) => "✓",
            Some(OutcomeKind::Incorrect) => "✗",
            Some(OutcomeKind::Abstained) => "?",
            Some(OutcomeKind::Invalid) => "!",
        };
        Line::from(vec![
            Span::styled(format!("{mark} "), style),
            Span::raw(prompt),
            Span::styled(" ⇒ ", t.dim()),
            // Models often answer with a leading space (the prompt ends before it).
            Span::styled(text.trim_start().to_string(), style),
        ])
    };
    // A run this window drives streams its tokens; otherwise the latest answers on disk (a
    // recorded run, or one another process is writing) are shown.
    let (title, lines): (&str, Vec<Line>) = match &app.data {
        Some(d) if !live.active => (
            "Latest answers",
            d.latest(h)
                .iter()
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
}

fn draw_cards(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let Some(d) = &app.data else {
        f.render_widget(Paragraph::new("").block(block(app, "Metrics")), area);
        return;
    };
    let o = &d.snapshot.overall;
    let mut cards: Vec<(&str, Option<Rate>)> = vec![
        ("accuracy", o.accuracy),
        ("abstain rate", o.abstain_rate),
        ("invalid rate", o.invalid_rate),
    ];
    // Each task's own method: GraphEval's three scores for statements, KGLens' edge rates for
    // yes/no questions (the other method's cards would only ever say "–").
    match d.manifest.config.task {
        Task::Statement => {
            let ge = o.grapheval.as_ref();
            cards.push(("correctness", ge.map(|g| g.correctness)));
            cards.push(("truthfulness", ge.map(|g| g.truthfulness)));
            cards.push(("informativeness", ge.map(|g| g.informativeness)));
        }
        Task::Yesno => {
            let yn = o.yesno.as_ref();
            cards.push(("win rate", yn.map(|y| y.win_rate)));
            cards.push(("zero-sense rate", yn.map(|y| y.zero_sense_rate)));
        }
    }
    let n = cards.len() as u32;
    let areas = Layout::horizontal(vec![Constraint::Ratio(1, n); cards.len()]).split(area);
    for ((name, r), a) in cards.iter().zip(areas.iter()) {
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

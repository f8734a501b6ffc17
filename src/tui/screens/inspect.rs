//! Inspect: one outcome in full, the KG facts around its triple, and hand labelling.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use crate::questions::{Corruption, Question};
use crate::sanitize::{clean, line};
use crate::tui::app::{label_summary, App};
use crate::tui::keymap::{self, Action, Mode};
use crate::tui::kgview;
use crate::tui::widgets::block;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let read = app
        .data
        .as_ref()
        .zip(app.inspect.current)
        .map(|(d, i)| d.prepared(i).unwrap_or_else(|| Err("not read yet".into())));
    let r = match read {
        Some(Ok(r)) => r,
        Some(Err(e)) => {
            let why = format!("Could not read this outcome back from results.jsonl: {e}");
            f.render_widget(
                Paragraph::new(line(&why))
                    .wrap(Wrap { trim: false })
                    .block(block(app, "Inspect")),
                area,
            );
            return;
        }
        None => {
            f.render_widget(
                Paragraph::new(
                    "Nothing to inspect: pick an outcome in Errors (Enter), or n for the first error.",
                )
                .block(block(app, "Inspect")),
                area,
            );
            return;
        }
    };
    let note_h = if app.inspect.note.is_some() { 5 } else { 0 };
    let [top, labelling, note] = Layout::vertical([
        Constraint::Min(8),
        Constraint::Length(7),
        Constraint::Length(note_h),
    ])
    .areas(area);
    let [detail, side] =
        Layout::horizontal([Constraint::Percentage(58), Constraint::Percentage(42)]).areas(top);
    let q = &r.question;
    let key = |k: &str| Span::styled(format!("{k:<10}"), t.dim());
    let mut lines = Vec::new();
    if app.inspect.show_prompt {
        // What the engine handed the backend (rebuilt by the code that built it); the
        // backend wraps it in the model's chat template or its completion layout.
        let p = crate::method::of(q.task).prompt(q);
        lines.push(Line::from(Span::styled(
            "prompt as sent (v folds)",
            t.title(),
        )));
        lines.push(Line::from(key("instruction")));
        lines.push(Line::from(format!("  {}", line(&p.instruction))));
        for (i, shot) in p.shots.iter().enumerate() {
            lines.push(Line::from(vec![
                key(&format!("example {}", i + 1)),
                Span::raw(format!("{} ⇒ {}", line(&shot.input), line(&shot.output))),
            ]));
        }
        lines.push(Line::from(vec![key("input"), Span::raw(line(&p.input))]));
    } else {
        if let Some(c) = &q.context {
            lines.push(Line::from(vec![key("context"), Span::raw(line(c))]));
        }
        lines.push(Line::from(vec![key("prompt"), Span::raw(line(&q.prompt))]));
    }
    let method = crate::method::of(q.task);
    if let Some((options, correct)) = q.gold.choice() {
        for (i, o) in options.iter().enumerate() {
            let letter = crate::questions::gold::choice_letter(i);
            let mark = if i == correct { "  ← gold" } else { "" };
            lines.push(Line::from(vec![
                key(if i == 0 { "options" } else { "" }),
                Span::raw(format!("{letter}) {}{mark}", line(o))),
            ]));
        }
    }
    let decided = r.stage();
    lines.extend([
        Line::from(vec![
            key("gold"),
            Span::raw(format!(
                "{} ({})",
                line(&method.gold_text(q)),
                match q.negative {
                    Some(part) => format!("negative: {} replaced", corruption_name(part)),
                    None => "true fact".into(),
                }
            )),
        ]),
        Line::from(vec![
            key("verdict"),
            Span::raw(format!("{} → ", line(&r.answer().describe()))),
            Span::styled(
                format!("{:?}", r.outcome).to_lowercase(),
                t.outcome(r.outcome),
            ),
            Span::styled(format!(" · {}", decided.name()), t.dim()),
        ]),
        asked_line(app, q, key("asked")),
        Line::from(vec![
            key("aliases"),
            Span::raw(if q.subject_aliases.is_empty() {
                "-".to_string()
            } else {
                line(&q.subject_aliases.join(" | "))
            }),
        ]),
    ]);
    let own = crate::method::of(q.task).drill_down(q, app.index.as_deref());
    lines.extend(super::panel::lines(t, &own, 0, 10));
    // A KGHaluBench answer: each stage of its chain, each fact with its verdict.
    if let Some(c) = r.attempts.first().and_then(|a| a.compound.as_ref()) {
        lines.extend(super::panel::lines(t, &c.panel(), 0, 10));
    }
    lines.push(Line::from(Span::styled("response", t.title())));
    for l in clean(r.response(), true).lines() {
        lines.push(Line::from(format!("  {l}")));
    }
    if let Some(j) = r.attempts.first().and_then(|a| a.judge.as_ref()) {
        let said = j
            .outcome
            .map_or("unreadable: the rules decided".to_string(), |o| {
                format!("{o:?}").to_lowercase()
            });
        lines.push(Line::from(vec![
            key("judge"),
            Span::raw(format!("{} → {said}", line(j.output.trim()))),
            Span::styled(
                format!("  ({}; {})", line(&j.model), line(&j.reason)),
                t.dim(),
            ),
        ]));
    }
    if r.attempts.len() > 1 {
        lines.push(Line::from(Span::styled(
            format!("({} attempts; the first is shown)", r.attempts.len()),
            t.dim(),
        )));
    }
    lines.push(Line::from(Span::styled("verifier trace", t.title())));
    for l in clean(&r.trace, true).lines() {
        lines.push(Line::from(format!("  {l}")));
    }
    let errors = app.error_indices();
    let pos = errors
        .iter()
        .position(|&i| Some(i) == app.inspect.current)
        .map_or(String::new(), |p| {
            format!(" {} of {} {}", p + 1, errors.len(), app.listed_noun())
        });
    let title = format!("Inspect{pos} · n/p · v prompt");
    let frame = block(app, &title);
    // Wrapped here, not by `Wrap`: KG aliases in complex scripts must not cross the border.
    let lines = crate::tui::wrap::wrap(&lines, frame.inner(detail).width);
    f.render_widget(
        Paragraph::new(lines)
            .scroll((app.inspect.scroll, 0))
            .block(frame),
        detail,
    );
    draw_labels(f, app, labelling);
    if let Some(ta) = &app.inspect.note {
        let [hint, text] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(note);
        f.render_widget(
            Paragraph::new(format!(
                "note ({}):",
                keymap::hint(Mode::Note, Action::Accept)
            ))
            .style(t.title()),
            hint,
        );
        f.render_widget(ta, text);
    }
    draw_facts(f, app, side, q);
}

/// The triple the model was asked about (for a negative, the corrupted one), the part
/// that was replaced in the accent colour.
fn asked_line<'a>(app: &App, q: &Question, key: Span<'a>) -> Line<'a> {
    let replaced = |part| {
        if q.negative == Some(part) {
            Style::default().fg(app.theme.accent)
        } else {
            Style::default()
        }
    };
    // For a relation negative, `relation` still names the true fact's relation (it groups
    // the metrics); the asked one is the predicate.
    let relation = if q.negative == Some(Corruption::Relation) {
        app.index
            .as_deref()
            .and_then(|i| i.iri_id(&q.predicate).map(|id| i.label(id)))
            .unwrap_or_else(|| crate::kg::vocab::local_name(&q.predicate))
    } else {
        q.relation.clone()
    };
    // A compound question asks several facts of its entity: each is named, not only the
    // first one's object (which `object_label` holds).
    let facts = q.gold.facts();
    if !facts.is_empty() {
        let mut spans = vec![key, Span::raw(line(&q.subject_label))];
        for f in facts {
            // A relation with many objects (borders) names its first and counts the rest, so
            // every fact fits the line.
            let first = f.accepted.first().map_or("", |a| a.label.as_str());
            let more = match f.accepted.len() {
                0 | 1 => String::new(),
                n => format!(" (+{})", n - 1),
            };
            spans.push(Span::raw(" · "));
            spans.push(Span::raw(line(&format!("{} {first}{more}", f.relation))));
        }
        return Line::from(spans);
    }
    Line::from(vec![
        key,
        Span::styled(line(&q.subject_label), replaced(Corruption::Head)),
        Span::raw(" · "),
        Span::styled(line(&relation), replaced(Corruption::Relation)),
        Span::raw(" · "),
        Span::styled(line(&q.object_label), replaced(Corruption::Tail)),
    ])
}

fn corruption_name(c: Corruption) -> &'static str {
    match c {
        Corruption::Head => "subject",
        Corruption::Relation => "relation",
        Corruption::Tail => "object",
    }
}

/// The label pane: this annotator's label, the others', progress, and the keys.
fn draw_labels(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let who = line(&app.annotator);
    let mine = match (app.inspected_label(), app.draft_note()) {
        (Some(l), _) => {
            let note = l
                .note
                .as_deref()
                .map(|n| format!(" · note: {}", line(n)))
                .unwrap_or_default();
            format!("{}{note}", label_summary(l))
        }
        (None, Some(draft)) => format!("not labelled · note to save with it: {}", line(draft)),
        (None, None) => "not labelled".into(),
    };
    let others = app.others_labels();
    let others = if others.is_empty() {
        "none".to_string()
    } else {
        others
            .iter()
            .map(|l| format!("{}: {}", line(&l.annotator), label_summary(l)))
            .collect::<Vec<_>>()
            .join(" · ")
    };
    let (done, of) = app.label_progress();
    let title = format!(
        "Label · {done} of {of} {} labelled by {who}",
        app.listed_noun()
    );
    let key = |k: &str| Span::styled(format!("{k:<7}"), t.dim());
    f.render_widget(
        Paragraph::new(vec![
            Line::from(vec![key("yours"), Span::styled(mine, t.title())]),
            Line::from(vec![key("others"), Span::raw(others)]),
            Line::from(Span::styled(
                "r right · w wrong · a abstained · b bad question · g KG wrong",
                t.dim(),
            )),
            Line::from(Span::styled(
                "wrong as: f factual · o obsolete · s contradiction · i inconsistent · x other",
                t.dim(),
            )),
            Line::from(Span::styled(
                "e note · u undo · c clear yours · N next unlabelled · j/k move",
                t.dim(),
            )),
        ])
        .block(block(app, &title)),
        area,
    );
}

/// The subject's and the object's edges, the question's relation highlighted. Only the
/// lines in view are named: an object such as a continent can have thousands of edges.
fn draw_facts(f: &mut Frame, app: &App, area: Rect, q: &Question) {
    let t = &app.theme;
    let Some(index) = app.index.as_deref() else {
        f.render_widget(
            Paragraph::new("The KG is not loaded, so its facts cannot be shown.")
                .wrap(Wrap { trim: false })
                .block(block(app, "KG facts")),
            area,
        );
        return;
    };
    let ends = [("subject", &q.subject), ("object", &q.object)]
        .map(|(role, iri)| (role, iri, kgview::card_of_iri(index, iri)));
    // Each end is a title line, then its card's edge list (headings and edges).
    let block_len = |c: &Option<kgview::Card>| 1 + c.as_ref().map_or(0, |c| c.row_count());
    let total: usize = ends.iter().map(|(_, _, c)| block_len(c)).sum();
    let height = area.height.saturating_sub(2) as usize;
    let first = app
        .inspect
        .facts_scroll
        .min(total.saturating_sub(height.max(1)));
    let end = first + height;
    let relation = line(&q.relation);
    let mut lines = Vec::new();
    let mut at = 0;
    for (role, iri, card) in &ends {
        if at >= first && at < end {
            let name = match card {
                Some(c) => Span::styled(c.label.clone(), t.title()),
                None => Span::raw(format!("{} (a value, no edges)", line(iri))),
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{role} "), t.dim()),
                name,
            ]));
        }
        at += 1;
        if let Some(c) = card {
            let skip = first.saturating_sub(at);
            let take = end.saturating_sub(at).saturating_sub(skip);
            for row in c.rows(skip, take) {
                lines.push(match row {
                    kgview::Row::Heading(h) => Line::from(Span::styled(format!(" {h}"), t.dim())),
                    kgview::Row::Edge { arrow, edge, .. } => {
                        let style = if edge.relation == relation {
                            Style::default().fg(t.accent)
                        } else {
                            Style::default()
                        };
                        Line::from(Span::styled(
                            format!("  {} {arrow} {}", edge.relation, edge.other),
                            style,
                        ))
                    }
                });
            }
            at += c.row_count();
        }
    }
    let title = if total > height {
        format!(
            "KG facts {}–{} of {total} lines · J/K",
            first + 1,
            (first + height).min(total)
        )
    } else {
        "KG facts".to_string()
    };
    f.render_widget(Paragraph::new(lines).block(block(app, &title)), area);
}

//! Explore: fuzzy search over the KG's entities and relations, and the selected entity's card.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, List, ListItem, ListState, Paragraph};
use ratatui::Frame;

use crate::tui::app::App;
use crate::tui::keymap::{self, Action, Mode};
use crate::tui::kgview::{Card, EntryKind, Row};
use crate::tui::widgets::block;
use crate::tui::wrap::wrap;
use crate::verify::OutcomeKind;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    if app.index.is_none() {
        f.render_widget(
            Paragraph::new("No KG loaded (see the status line for why).")
                .block(block(app, "Explore")),
            area,
        );
        return;
    }
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(38), Constraint::Percentage(62)]).areas(area);
    let [search, list] = Layout::vertical([Constraint::Length(3), Constraint::Min(1)]).areas(left);
    let cursor = if app.explore.searching { "▏" } else { "" };
    let prompt = if app.explore.query.is_empty() && !app.explore.searching {
        Span::styled("/ to search", t.dim())
    } else {
        Span::raw(format!(
            "{}{cursor}",
            crate::sanitize::line(&app.explore.query)
        ))
    };
    // While typing, the field's frame says which keys edit it (from the keymap).
    let title = if app.explore.searching {
        format!("Search · {}", keymap::hint(Mode::Search, Action::EndSearch))
    } else {
        "Search".to_string()
    };
    f.render_widget(
        Paragraph::new(Line::from(prompt)).block(block(app, &title)),
        search,
    );
    // Only the rows in view are built: a KG can have millions of entities.
    let height = list.height.saturating_sub(2) as usize;
    let first = (app.explore.selected + 1).saturating_sub(height.max(1));
    let items: Vec<ListItem> = app
        .explore
        .matches
        .iter()
        .skip(first)
        .take(height)
        .enumerate()
        .map(|(k, &i)| {
            let e = &app.entries[i];
            let why = app
                .explore
                .via
                .get(first + k)
                .and_then(|&v| e.matched_by(v))
                .map(|w| Span::styled(format!("  {w}"), t.dim()));
            let mark = if app.explore.marked.contains(&i) {
                Span::styled("●", Style::default().fg(t.accent))
            } else {
                Span::raw(" ")
            };
            let tag = match e.kind {
                EntryKind::Relation => Span::styled("rel ", Style::default().fg(t.accent)),
                EntryKind::Entity => Span::styled("    ", t.dim()),
            };
            let mut spans = vec![mark, tag, Span::raw(e.label.clone())];
            spans.extend(why);
            ListItem::new(Line::from(spans))
        })
        .collect();
    let mut title = format!("{} matches", app.explore.matches.len());
    if app.draw.is_some() {
        title.push_str(" in the sample");
        if app.explore.searching && !app.explore.query.trim().is_empty() {
            title.push_str(" · Enter searches the whole KG");
        }
    }
    if app.searching() {
        title.push_str(" · searching…");
    }
    if !app.explore.marked.is_empty() {
        title.push_str(&format!(
            " · {} marked (u clears)",
            app.explore.marked.len()
        ));
    }
    // The rows sit inside the list's border.
    app.hits.borrow_mut().list = Some(crate::tui::app::ListHit {
        screen: crate::tui::app::Screen::Explore,
        rows: list.inner(ratatui::layout::Margin::new(1, 1)),
        first,
        len: app.explore.matches.len(),
    });
    let mut state = ListState::default()
        .with_selected((!app.explore.matches.is_empty()).then_some(app.explore.selected - first));
    f.render_stateful_widget(
        List::new(items)
            .block(block(app, &title))
            .highlight_style(t.selected()),
        list,
        &mut state,
    );
    if app.explore.touched || app.data.is_some() {
        draw_detail(f, app, right);
    } else {
        draw_welcome(f, app, right);
    }
    if let Some(d) = &app.explore.dialog {
        draw_dialog(f, app, d, area);
    }
}

/// The new-run dialog, sized to what it says: the scope (wrapped when many entries are
/// marked), the model, the task, the limit and the run's other settings. "Enter starts" sits
/// in the frame itself, so no content can push it out of sight.
fn draw_dialog(f: &mut Frame, app: &App, d: &crate::tui::app::RunDialog, area: Rect) {
    let t = &app.theme;
    let what = run_scope(&app.run_targets());
    let cfg = app.dialog_config();
    let kv = |k: &str, v: String, hint: &str| {
        Line::from(vec![
            Span::styled(format!("{k:<10}"), t.dim()),
            Span::raw(v),
            Span::styled(hint.to_string(), t.dim()),
        ])
    };
    let mut lines = vec![Line::from(format!("Run on {what}")), Line::from("")];
    if let Some(c) = &cfg {
        lines.push(kv("model", crate::sanitize::line(&c.model.describe()), ""));
    }
    let method = crate::method::of(d.task);
    lines.push(kv(
        "task",
        d.task.as_str().to_string(),
        &format!("   {}", keymap::hint(Mode::RunDialog, Action::NextTask)),
    ));
    lines.push(kv("", crate::sanitize::line(method.describe()), ""));
    if method.takes_context() {
        let context = d.context.map_or("none", |k| k.as_str());
        lines.push(kv(
            "context",
            context.to_string(),
            &format!("   {}", keymap::hint(Mode::RunDialog, Action::NextContext)),
        ));
    }
    // Which judge and writer the run will have, named as `kgscope run --judge/--writer` takes
    // them; for the methods that use them only.
    let helper = |i: usize, none: &str| match app.helper_choices().get(i) {
        Some(Some(_)) => app.helper_name(i),
        _ => none.to_string(),
    };
    if method.has_open_answers() {
        lines.push(kv(
            "judge",
            helper(d.judge, "none: the rules alone read the answers"),
            &format!("   {}", keymap::hint(Mode::RunDialog, Action::NextJudge)),
        ));
        // What the judge is worth, before it decides anything: measured against the hand
        // labels where the open run was judged by it (the Judge view's figures), else what
        // its size and kind say.
        let chosen = app.helper_choices().get(d.judge).cloned().flatten();
        if let Some(m) = chosen.as_ref().and_then(|j| measured_judge(app, j)) {
            lines.push(Line::from(Span::raw(format!("  {m}"))));
        } else if let Some(caveat) = chosen
            .as_ref()
            .and_then(crate::backends::worth::judge_caveat)
        {
            lines.push(Line::from(Span::styled(
                format!("  ⚠ {caveat}"),
                Style::default().fg(t.incorrect),
            )));
        }
    }
    if method.takes_fpq_settings() {
        lines.push(kv(
            "writer",
            helper(
                d.writer,
                "none: generative questions keep the template's words",
            ),
            &format!("   {}", keymap::hint(Mode::RunDialog, Action::NextWriter)),
        ));
    }
    match &d.facts {
        Ok(p) => {
            lines.push(kv(
                "facts",
                format!("{} match · {} askable", p.matching, p.askable),
                "",
            ));
            for s in &p.skipped {
                let eg = s
                    .example
                    .as_deref()
                    .map(|e| format!(" (e.g. {e})"))
                    .unwrap_or_default();
                lines.push(kv(
                    "",
                    crate::sanitize::line(&format!("{} skipped, {}{eg}", s.facts, s.why)),
                    "",
                ));
            }
        }
        Err(e) if !e.is_empty() => lines.push(Line::from(Span::styled(
            crate::sanitize::line(e),
            Style::default().fg(t.incorrect),
        ))),
        Err(_) => {}
    }
    // What the run would ask, by the run's own generation: never a promise the run breaks.
    match d.makes.as_ref().map(|m| &m.1) {
        Some(Ok(m)) => {
            let counted_up_to = crate::tui::app::MAKES_COUNTED_UP_TO;
            let n = if m.questions >= counted_up_to && d.limit > counted_up_to {
                format!("at least {}", m.questions)
            } else {
                m.questions.to_string()
            };
            let what = if m.staged {
                format!("up to {n} questions, decided batch by batch")
            } else if m.questions == 1 {
                "1 question".to_string()
            } else {
                format!("{n} questions")
            };
            lines.push(kv("asks", what, ""));
        }
        Some(Err(e)) => lines.push(Line::from(Span::styled(
            crate::sanitize::line(e),
            Style::default().fg(t.incorrect),
        ))),
        None => {}
    }
    let cursor = if d.typed { "▏" } else { "" };
    lines.push(kv(
        "limit",
        format!("{}{cursor}", d.limit),
        &format!("   {}", keymap::hint(Mode::RunDialog, Action::LimitUp)),
    ));
    if let Some(c) = &cfg {
        if method.takes_negatives() {
            let negatives = format!("{} per fact, {}", c.negatives, c.negatives_from.as_str());
            lines.push(kv("negatives", negatives, ""));
        }
        let own = c.method_settings();
        lines.extend(super::panel::lines(t, &own, 0, 10));
        lines.push(kv(
            "seed",
            format!("{} · repeats {}", c.seed, c.repeats),
            "   (kgscope run: --seed, --repeats)",
        ));
    }
    let widest = lines.iter().map(Line::width).max().unwrap_or(0) as u16;
    let w = (widest + 4)
        .clamp(50, area.width.saturating_sub(4).max(50))
        .min(area.width);
    // Wrapped here, not by `Wrap`: the scope names entities, in any script.
    let lines = wrap(&lines, w.saturating_sub(2));
    let h = (lines.len().min(u16::MAX as usize) as u16 + 2).min(area.height);
    let r = crate::tui::widgets::centered(area, w, h);
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .style(t.base())
            .block(block(app, "New run").title_bottom(Span::styled(
                format!(" {} ", keymap::hint(Mode::RunDialog, Action::Accept)),
                Style::default().fg(t.accent),
            ))),
        r,
    );
}

/// The first screen's right pane: what kgscope is, what is loaded, and what to press first.
/// The instruction-tuned model the welcome pane suggests instead of the bundled base model
/// (a name `kgscope model fetch` knows: a test holds it in the registry).
pub const BETTER_MODEL: &str = "qwen2.5-coder-0.5b-instruct";

fn draw_welcome(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let index = app.index.as_deref().expect("checked by draw");
    let key = |k: &str| Span::styled(format!("  {k:<8}"), Style::default().fg(t.accent));
    let name = |k: &str| Span::styled(format!("{k:<7}"), t.dim());
    let model = match &app.model {
        Some(m) => crate::sanitize::line(&m.describe()),
        None => "none: browsing only (start kgscope with --model default to run)".into(),
    };
    // Each line with what it is worth on a short terminal: the intro goes first, then the
    // blank lines; the keys and the note on the bundled model always stay (at 80×24 the pane
    // has 20 rows of 48 columns, too few for all of it).
    const KEEP: u8 = u8::MAX;
    const INTRO: u8 = 0;
    const BLANK: u8 = 1;
    let command = |c: String| Line::from(Span::styled(c, Style::default().fg(t.accent)));
    let lines: Vec<(u8, Line)> = vec![
        (
            KEEP,
            Line::from(Span::styled(
                "kgscope measures what a language model knows",
                t.title(),
            )),
        ),
        (
            INTRO,
            Line::from(
                "It turns the facts of a knowledge graph into questions, asks a model, checks \
                 each answer against the graph, and shows where the model is right and wrong, \
                 and why.",
            ),
        ),
        (BLANK, Line::from("")),
        (
            KEEP,
            Line::from(vec![
                name("KG"),
                Span::styled(app.kg_name.clone(), t.title()),
                Span::raw(format!(
                    " · {} entities · {} relations · {} facts{}",
                    index.entities().len(),
                    index.relations().len(),
                    index.facts().len(),
                    // The profile the KG is read with, when it is not kgscope's own
                    // vocabulary (the samples' screens stay as they were).
                    if index.profile().is_generic() {
                        String::new()
                    } else {
                        format!(
                            " · read as {}",
                            crate::sanitize::line(&index.profile().summary())
                        )
                    }
                )),
            ]),
        ),
        (KEEP, Line::from(vec![name("model"), Span::raw(model)])),
        (BLANK, Line::from("")),
        (KEEP, Line::from(Span::styled("Start here", t.title()))),
        (
            KEEP,
            Line::from(vec![
                key("↑↓"),
                Span::raw("pick a relation (they come first)"),
            ]),
        ),
        (
            KEEP,
            Line::from(vec![
                key("r"),
                Span::raw("ask the model, then watch Live (2)"),
            ]),
        ),
        (
            KEEP,
            Line::from(vec![
                key("Space"),
                Span::raw("mark several to run together"),
            ]),
        ),
        (
            KEEP,
            Line::from(vec![key("/"), Span::raw("search by name or alias")]),
        ),
        (KEEP, Line::from(vec![key("?"), Span::raw("every key")])),
        (BLANK, Line::from("")),
        (KEEP, Line::from(Span::styled("A better model", t.title()))),
        (
            KEEP,
            Line::from(format!(
                "The bundled {} is a smoke test: its scores sit near chance. For \
                 better results:",
                crate::models::registry::DEFAULT_NAME
            )),
        ),
        // Unindented: the fetch command is 47 columns, and must not wrap in the 48 it has.
        (KEEP, command(format!("kgscope model fetch {BETTER_MODEL}"))),
        (KEEP, command(format!("kgscope --model {BETTER_MODEL}"))),
        (
            KEEP,
            Line::from(Span::styled(
                "or --model FILE.gguf, or --model openai:NAME --base-url URL",
                t.dim(),
            )),
        ),
    ];
    let inner = block(app, "Welcome").inner(area);
    let lines = fit_lines(lines, inner.width, inner.height, &[INTRO, BLANK]);
    f.render_widget(Paragraph::new(lines).block(block(app, "Welcome")), area);
}

/// `lines` wrapped to `width` columns, without as many of the lines ranked `dropped[0]`, then
/// `dropped[1]`, … (the last first) as it takes to fit `height` rows.
fn fit_lines(
    mut lines: Vec<(u8, Line<'_>)>,
    width: u16,
    height: u16,
    dropped: &[u8],
) -> Vec<Line<'static>> {
    let wrapped = |ls: &[(u8, Line)]| {
        let plain: Vec<Line> = ls.iter().map(|(_, l)| l.clone()).collect();
        wrap(&plain, width)
    };
    for rank in dropped {
        while wrapped(&lines).len() > height as usize {
            let Some(last) = lines.iter().rposition(|(r, _)| r == rank) else {
                break;
            };
            lines.remove(last);
        }
    }
    wrapped(&lines)
}

fn draw_detail(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let Some(e) = app.selected_entry() else {
        f.render_widget(
            Paragraph::new("Nothing matches.").block(block(app, "")),
            area,
        );
        return;
    };
    let key = |k: &str| Span::styled(format!("{k:<9}"), t.dim());
    let mut lines: Vec<Line> = Vec::new();
    if e.kind == EntryKind::Relation {
        let index = app.index.as_deref().expect("checked by draw");
        if let Some(r) = index.relation(e.id) {
            let ty = |x: Option<u32>| {
                x.map_or("-".to_string(), |x| crate::sanitize::line(&index.label(x)))
            };
            lines.push(Line::from(vec![
                key("relation"),
                Span::styled(e.label.clone(), t.title()),
            ]));
            lines.push(Line::from(vec![
                key("facts"),
                Span::raw(r.count.to_string()),
            ]));
            lines.push(Line::from(vec![key("head"), Span::raw(ty(r.head_type))]));
            lines.push(Line::from(vec![key("tail"), Span::raw(ty(r.tail_type))]));
            lines.push(Line::from(""));
            lines.push(Line::from(Span::styled(
                "r runs questions on this relation · Space marks it to run several together",
                t.dim(),
            )));
        }
        f.render_widget(Paragraph::new(lines).block(block(app, "Relation")), area);
        return;
    }
    let Some(c) = app.selected_card() else { return };
    let join = |v: &[String]| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(" | ")
        }
    };
    let dates: Vec<String> = c
        .dates
        .iter()
        .map(|d| format!("{} {}", d.relation, d.other))
        .collect();
    lines.push(Line::from(vec![
        key("entity"),
        Span::styled(c.label.clone(), t.title()),
    ]));
    lines.push(Line::from(vec![
        key("iri"),
        Span::styled(c.iri.clone(), t.dim()),
    ]));
    lines.push(Line::from(vec![key("labels"), Span::raw(join(&c.labels))]));
    lines.push(Line::from(vec![
        key("aliases"),
        Span::raw(join(&c.aliases)),
    ]));
    lines.push(Line::from(vec![key("types"), Span::raw(join(&c.types))]));
    lines.push(Line::from(vec![key("dates"), Span::raw(join(&dates))]));
    lines.push(Line::from(vec![
        key("degree"),
        Span::raw(format!(
            "{} ({} out, {} in)",
            c.degree(),
            c.outgoing.len(),
            c.incoming.len()
        )),
    ]));
    if let Some(d) = &app.data {
        let iri = crate::kg::term_str(app.index.as_deref().expect("checked").term(e.id));
        let mut spans = vec![key("asked")];
        let mut n = 0;
        let counts = d.by_entity.get(iri).copied().unwrap_or_default();
        for (kind, k) in [
            (OutcomeKind::Correct, counts.correct),
            (OutcomeKind::Incorrect, counts.incorrect),
            (OutcomeKind::Abstained, counts.abstained),
            (OutcomeKind::Invalid, counts.invalid),
        ] {
            n += k;
            spans.push(Span::styled(
                format!("{k} {kind:?}  ").to_lowercase(),
                t.outcome(kind),
            ));
        }
        if n > 0 {
            lines.push(Line::from(spans));
        }
    }
    // The card takes what its wrapped lines need, up to half the pane; the edges the rest.
    // Wrapped here, not by `Wrap`: aliases in complex scripts must not cross the border.
    let lines = wrap(&lines, area.width.saturating_sub(2));
    let card_height = (lines.len().min(u16::MAX as usize) as u16 + 2)
        .min(area.height / 2)
        .max(3);
    let [top, bottom] =
        Layout::vertical([Constraint::Length(card_height), Constraint::Min(3)]).areas(area);
    let title = if app.explore.hops == 2 {
        "Entity · 2 hops (h: 1 hop)"
    } else {
        "Entity · 1 hop (h: 2 hops)"
    };
    f.render_widget(Paragraph::new(lines).block(block(app, title)), top);
    draw_edges(f, app, &c, bottom);
}

/// The card's edge list from line `app.explore.scroll` on, one line per edge (cut at the
/// pane's edge, not wrapped, so a line scrolled is a line moved), the heading of the section
/// scrolled into kept on top; only the lines in view are built, as a hub can have 100,000
/// edges.
fn draw_edges(f: &mut Frame, app: &App, c: &Card, area: Rect) {
    let t = &app.theme;
    let height = area.height.saturating_sub(2) as usize;
    let rows = c.rows_sticky(app.explore.scroll, height);
    let numbers: Vec<usize> = rows
        .iter()
        .filter_map(|r| match r {
            Row::Edge { number, .. } => Some(*number),
            Row::Heading(_) => None,
        })
        .collect();
    let title = edges_title(numbers.first(), numbers.last(), c.edge_count());
    let lines: Vec<Line> = rows
        .into_iter()
        .map(|r| match r {
            Row::Heading(h) => Line::from(Span::styled(h, t.title())),
            Row::Edge { arrow, edge, .. } => {
                Line::from(format!("  {} {arrow} {}", edge.relation, edge.other))
            }
        })
        .collect();
    f.render_widget(Paragraph::new(lines).block(block(app, &title)), area);
}

/// Where the edge list is: "edges 41–60 of 312 · J/K scroll", or "edges: all 12" when the
/// whole list is in view.
fn edges_title(first: Option<&usize>, last: Option<&usize>, total: usize) -> String {
    match (first, last) {
        _ if total == 0 => "edges: none".into(),
        (Some(1), Some(&b)) if b == total => format!("edges: all {total}"),
        (Some(a), Some(b)) => format!("edges {a}–{b} of {total} · J/K scroll"),
        _ => format!("{total} edges · J/K scroll"),
    }
}

/// "relation capital", "the neighbourhood of France", or for marked entries "relations
/// capital, currency around France".
fn run_scope(targets: &[&crate::tui::kgview::Entry]) -> String {
    let names = |kind| {
        targets
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| e.label.as_str())
            .collect::<Vec<_>>()
    };
    let (relations, entities) = (names(EntryKind::Relation), names(EntryKind::Entity));
    let plural = |n: usize, one: &str, many: &str| if n == 1 { one } else { many }.to_string();
    match (relations.len(), entities.len()) {
        (0, 0) => String::new(),
        (r, 0) => format!(
            "{} {}",
            plural(r, "relation", "relations"),
            relations.join(", ")
        ),
        (0, e) => format!(
            "the {} of {}",
            plural(e, "neighbourhood", "neighbourhoods"),
            entities.join(", ")
        ),
        (r, _) => format!(
            "{} {} around {}",
            plural(r, "relation", "relations"),
            relations.join(", "),
            entities.join(", ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_lines_drops_ranked_lines_the_last_first_and_only_as_needed() {
        let text = |ls: &[Line]| {
            ls.iter()
                .map(|l| {
                    l.spans
                        .iter()
                        .map(|s| s.content.as_ref())
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
        };
        let lines = || -> Vec<(u8, Line)> {
            vec![
                (9, Line::from("title")),
                (0, Line::from("an intro long enough to take two rows")),
                (1, Line::from("")),
                (9, Line::from("keys")),
                (1, Line::from("")),
                (9, Line::from("note")),
            ]
        };
        assert_eq!(text(&fit_lines(lines(), 20, 7, &[0, 1])).len(), 7);
        assert_eq!(
            text(&fit_lines(lines(), 20, 4, &[0, 1])),
            ["title", "", "keys", "note"]
        );
        assert_eq!(
            text(&fit_lines(lines(), 20, 3, &[0, 1])),
            ["title", "keys", "note"]
        );
    }

    #[test]
    fn the_suggested_model_can_be_fetched() {
        let m = crate::models::registry::find(BETTER_MODEL).expect("a model kgscope can fetch");
        assert_ne!(m.name, crate::models::registry::DEFAULT_NAME);
    }

    #[test]
    fn the_edges_title_says_where_the_view_is() {
        assert_eq!(
            edges_title(Some(&41), Some(&60), 312),
            "edges 41–60 of 312 · J/K scroll"
        );
        assert_eq!(edges_title(Some(&1), Some(&12), 12), "edges: all 12");
        assert_eq!(edges_title(None, None, 0), "edges: none");
        assert_eq!(edges_title(None, None, 5), "5 edges · J/K scroll");
    }
}

/// How the LLM judge `judge` agreed with the hand labels of the open run, when that run was
/// judged by it and has labels the Judge view has compared.
fn measured_judge(app: &App, judge: &crate::run::ModelSpec) -> Option<String> {
    let d = app.data.as_ref()?;
    if d.manifest.config.judge.as_ref() != Some(judge) {
        return None;
    }
    let j = app.judged()?;
    let a = j
        .report
        .verifiers
        .iter()
        .find(|a| a.verifier == crate::metrics::judges::Verifier::LlmJudge && a.n > 0)?;
    let agreed: usize = (0..3).map(|k| a.matrix[k][k]).sum();
    let kappa = a
        .kappa
        .map_or_else(|| "κ undefined".to_string(), |k| format!("κ {k:.2}"));
    Some(format!(
        "measured on the open run: agrees with the hand labels on {agreed} of {} answers ({kappa})",
        a.n
    ))
}

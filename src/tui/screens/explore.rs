//! Explore: fuzzy search over the KG's entities and relations, and the selected entity's card.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;

use crate::tui::app::App;
use crate::tui::kgview::EntryKind;
use crate::tui::ui::block;
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
    f.render_widget(
        Paragraph::new(Line::from(prompt)).block(block(app, "Search")),
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
        .map(|&i| {
            let e = &app.entries[i];
            let tag = match e.kind {
                EntryKind::Relation => Span::styled("rel ", Style::default().fg(t.accent)),
                EntryKind::Entity => Span::styled("    ", t.dim()),
            };
            ListItem::new(Line::from(vec![tag, Span::raw(e.label.clone())]))
        })
        .collect();
    let title = format!("{} matches", app.explore.matches.len());
    let mut state = ListState::default()
        .with_selected((!app.explore.matches.is_empty()).then_some(app.explore.selected - first));
    f.render_stateful_widget(
        List::new(items)
            .block(block(app, &title))
            .highlight_style(t.selected()),
        list,
        &mut state,
    );
    draw_detail(f, app, right);
    if let Some(d) = &app.explore.dialog {
        let what = app
            .selected_entry()
            .map(|e| match e.kind {
                EntryKind::Relation => format!("relation {}", e.label),
                EntryKind::Entity => format!("the neighbourhood of {}", e.label),
            })
            .unwrap_or_default();
        let r = Rect {
            x: area.x + area.width / 2 - 30,
            y: area.y + area.height / 2 - 4,
            width: 60,
            height: 8,
        };
        f.render_widget(Clear, r);
        f.render_widget(
            Paragraph::new(vec![
                Line::from(format!("Run on {what}")),
                Line::from(""),
                Line::from(format!("task   {}    (t toggles)", d.task.as_str())),
                Line::from(format!("limit  {}    (+/- by 10)", d.limit)),
                Line::from(""),
                Line::from(Span::styled("Enter starts · Esc cancels", t.dim())),
            ])
            .style(t.base())
            .wrap(Wrap { trim: false })
            .block(block(app, "New run")),
            r,
        );
    }
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
                "r runs questions on this relation",
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
    lines.push(Line::from(vec![
        key("entity"),
        Span::styled(c.label.clone(), t.title()),
    ]));
    lines.push(Line::from(vec![
        key("iri"),
        Span::styled(c.iri.clone(), t.dim()),
    ]));
    lines.push(Line::from(vec![
        key("aliases"),
        Span::raw(join(&c.aliases)),
    ]));
    lines.push(Line::from(vec![key("types"), Span::raw(join(&c.types))]));
    lines.push(Line::from(vec![
        key("year"),
        Span::raw(c.year.map_or("-".into(), |y| y.to_string())),
    ]));
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
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("outgoing", t.title())));
    for ed in &c.outgoing {
        lines.push(Line::from(format!("  {} → {}", ed.relation, ed.other)));
    }
    lines.push(Line::from(Span::styled("incoming", t.title())));
    for ed in &c.incoming {
        lines.push(Line::from(format!("  {} ← {}", ed.relation, ed.other)));
    }
    for (n, edges) in &c.second_hop {
        lines.push(Line::from(Span::styled(format!("via {n}"), t.title())));
        for ed in edges {
            lines.push(Line::from(format!("  {} → {}", ed.relation, ed.other)));
        }
    }
    let title = if app.explore.hops == 2 {
        "Entity · 2 hops (h: 1 hop)"
    } else {
        "Entity · 1 hop (h: 2 hops)"
    };
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block(app, title)),
        area,
    );
}

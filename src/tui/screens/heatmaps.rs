//! Heatmaps: one metric by relation, by head type × tail type, or by year; each cell shows the
//! value and the group's size, coloured on the theme's scale.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::sanitize::line;
use crate::tui::app::{App, HeatView};
use crate::tui::ui::block;

const CELL: usize = 14;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let [legend, map] = Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(area);
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(format!(" {} ", app.heat.metric.name()), t.title()),
            Span::raw(format!("{} ", app.heat.view.name())),
            Span::styled("· m metric · v view · Enter errors of the cell", t.dim()),
        ])),
        legend,
    );
    let title = format!("{} {}", app.heat.metric.name(), app.heat.view.name());
    if app.data.is_none() {
        f.render_widget(
            Paragraph::new("No run open: start one from Explore (r) or open one with --run.")
                .block(block(app, &title)),
            map,
        );
        return;
    }
    let (rows, cols) = app.heat_axes();
    let inner_h = map.height.saturating_sub(3) as usize;
    let label_w = match app.heat.view {
        HeatView::HeadTail => 18,
        _ => 34,
    };
    // Columns scroll like rows: the cursor's column stays in view.
    let visible_cols =
        ((map.width.saturating_sub(2) as usize).saturating_sub(label_w) / CELL).max(1);
    let first_col = (app.heat.col + 1).saturating_sub(visible_cols);
    let mut lines = Vec::new();
    if app.heat.view == HeatView::HeadTail {
        let mut head = vec![Span::styled(
            format!("{:<label_w$}", "head \\ tail"),
            t.dim(),
        )];
        for c in cols.iter().skip(first_col).take(visible_cols) {
            head.push(Span::styled(
                format!("{:<CELL$}", fit(&line(c), CELL - 1)),
                t.dim(),
            ));
        }
        lines.push(Line::from(head));
    }
    if rows.is_empty() {
        lines.push(Line::from(Span::styled("no groups yet", t.dim())));
    }
    let offset = app.heat.row.saturating_sub(inner_h.saturating_sub(1));
    for (ri, r) in rows.iter().enumerate().skip(offset).take(inner_h) {
        let name_style = if ri == app.heat.row {
            t.title()
        } else {
            Style::default()
        };
        let mut spans = vec![Span::styled(
            format!("{:<label_w$}", fit(&line(r), label_w - 1)),
            name_style,
        )];
        for (ci, c) in cols.iter().enumerate().skip(first_col).take(visible_cols) {
            let stats = app.heat_stats(r, c);
            let rate = stats.and_then(|g| app.heat.metric.of(g));
            let (text, style) = match (stats, rate) {
                (Some(g), Some(v)) => (
                    format!("{:.2} n={}", v.value, g.n),
                    Style::default()
                        .bg(t.scale_color(app.heat.metric.goodness(v.value)))
                        .fg(t.scale_fg),
                ),
                (Some(g), None) => (format!("  – n={}", g.n), t.dim()),
                (None, _) => ("  ·".to_string(), t.dim()),
            };
            let style = if ri == app.heat.row && ci == app.heat.col {
                style.add_modifier(Modifier::REVERSED | Modifier::BOLD)
            } else {
                style
            };
            spans.push(Span::styled(format!("{:<w$}", text, w = CELL - 1), style));
            spans.push(Span::raw(" "));
        }
        lines.push(Line::from(spans));
    }
    f.render_widget(Paragraph::new(lines).block(block(app, &title)), map);
}

/// Cuts `s` to at most `w` characters, marking the cut.
pub fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(w.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

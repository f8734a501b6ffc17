//! Drawing: the frame around every screen (tabs, status line, help overlay, size check).
//! Render functions only read the app.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::app::{App, Screen};
use super::keymap;
use super::screens;
use super::widgets::centered;

pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;
/// The most lines the status message takes from the screen before it is cut.
const STATUS_LINES: usize = 4;

pub fn draw(f: &mut Frame, app: &App) {
    draw_frame(f, app);
    // After everything is drawn: which cells a cluster covers is known only now.
    super::hidden_cells::expose(f.buffer_mut());
}

fn draw_frame(f: &mut Frame, app: &App) {
    let area = f.area();
    let t = &app.theme;
    f.render_widget(Block::default().style(t.base()), area);
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = Paragraph::new(vec![
            Line::from(Span::styled("terminal too small", t.title())),
            Line::from(format!(
                "kgscope needs at least {MIN_WIDTH}×{MIN_HEIGHT}; this one is {}×{}.",
                area.width, area.height
            )),
            Line::from("Enlarge the window, or press q to quit."),
        ])
        .wrap(Wrap { trim: true });
        f.render_widget(msg, area);
        return;
    }
    // The status message wraps rather than being cut (it may hold a path or advice): the
    // body gives up the lines it needs, up to STATUS_LINES.
    let hint = keymap::footer();
    let hint_width = crate::display_width::width(&hint) as u16 + 1;
    let message = crate::tui::wrap::wrap(
        &[Line::from(crate::sanitize::line(&app.status))],
        area.width.saturating_sub(hint_width).max(1),
    );
    let status_height = message.len().clamp(1, STATUS_LINES) as u16;
    let [tabs, body, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(status_height),
    ])
    .areas(area);
    draw_tabs(f, app, tabs);
    // What the screen records of its list replaces the last frame's.
    app.hits.borrow_mut().list = None;
    match app.screen {
        Screen::Explore => screens::explore::draw(f, app, body),
        Screen::Live => screens::live::draw(f, app, body),
        Screen::Heatmaps => screens::heatmaps::draw(f, app, body),
        Screen::Errors => screens::errors::draw(f, app, body),
        Screen::Inspect => screens::inspect::draw(f, app, body),
        Screen::Compare => screens::compare::draw(f, app, body),
        Screen::Judge => screens::judge::draw(f, app, body),
    }
    let [left, right] =
        Layout::horizontal([Constraint::Min(1), Constraint::Length(hint_width)]).areas(status);
    let right = Rect {
        y: right.bottom().saturating_sub(1),
        height: 1,
        ..right
    };
    f.render_widget(Paragraph::new(message).style(t.dim()), left);
    f.render_widget(
        Paragraph::new(hint)
            .style(t.dim())
            .alignment(ratatui::layout::Alignment::Right),
        right,
    );
    if let Some((round, finding)) = app.demo.as_ref().and_then(|d| d.finding()) {
        screens::finding::draw(f, app, finding, round, body);
    }
    if let Some(p) = &app.picker {
        screens::picker::draw(f, app, p, body);
    }
    if app.inspect.asking_cause.is_some() {
        screens::cause::draw(f, app, body);
    }
    if app.help {
        draw_help(f, app, area);
    }
}

/// The columns the KG and run need after the tabs before the tabs give up their right padding.
const TAB_CONTEXT_MIN: usize = 12;

fn draw_tabs(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let mut spans = vec![Span::styled(" kgscope ", t.title())];
    let mut x = area.x + spans[0].width() as u16;
    let mut tabs = Vec::new();
    // Tabs padded on both sides, unless that leaves the run's name too little room (an
    // 80-column terminal): then on the left only.
    let padded: usize = Screen::ALL
        .iter()
        .enumerate()
        .map(|(i, s)| crate::display_width::width(&format!(" {} {} ", i + 1, s.title())))
        .sum();
    let compact = spans[0].width() + padded + TAB_CONTEXT_MIN > area.width as usize;
    for (i, s) in Screen::ALL.iter().enumerate() {
        let style = if *s == app.screen {
            t.selected().fg(t.accent)
        } else {
            Style::default().fg(t.fg)
        };
        let text = if compact {
            format!(" {} {}", i + 1, s.title())
        } else {
            format!(" {} {} ", i + 1, s.title())
        };
        let tab = Span::styled(text, style);
        let w = (tab.width() as u16).min(area.right().saturating_sub(x));
        tabs.push((Rect::new(x, area.y, w, 1), *s));
        x = x.saturating_add(tab.width() as u16);
        spans.push(tab);
    }
    app.hits.borrow_mut().tabs = tabs;
    let used: usize = spans.iter().map(Span::width).sum();
    let room = (area.width as usize).saturating_sub(used);
    spans.push(Span::styled(header_context(app, room), t.dim()));
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

/// The KG and run after the tabs, cut to the `room` left (with a mark where cut) rather than
/// clipped mid-word at the terminal's edge.
fn header_context(app: &App, room: usize) -> String {
    let kg = crate::sanitize::line(&app.kg_name);
    let full = match &app.data {
        Some(d) => format!("  {kg} · run {}", crate::sanitize::line(&d.run.id)),
        None => format!("  {kg}"),
    };
    crate::display_width::fit(&full, room)
}

/// The help overlay's width where the terminal has room around it: its longest line, the
/// scope, keys and what they do (9 + 16 + 51 columns), inside the border.
const HELP_WIDTH: u16 = 78;

fn draw_help(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    // Drawn from the keymap: what the help says is what the keys do.
    let mut lines = Vec::new();
    let mut last = None;
    for row in keymap::ROWS {
        let name = if last == Some(row.scope) {
            ""
        } else {
            row.scope.name()
        };
        last = Some(row.scope);
        lines.push(Line::from(vec![
            Span::styled(format!(" {name:<9}"), t.title()),
            Span::styled(format!("{:<16}", row.keys), Style::default().fg(t.accent)),
            Span::raw(row.what),
        ]));
    }
    let h = (lines.len() as u16 + 2).min(area.height);
    // A margin of a column or two would leave slivers of the screen below at the sides (a
    // border glyph, half a word): on a narrow terminal the overlay takes the whole width.
    let w = if area.width >= HELP_WIDTH + 4 {
        HELP_WIDTH
    } else {
        area.width
    };
    let r = centered(area, w, h);
    let mut frame = Block::default()
        .borders(Borders::ALL)
        .title(" keys ")
        .border_style(Style::default().fg(t.accent));
    if let Some(log) = &app.log {
        let log = crate::sanitize::line(&log.display().to_string());
        frame = frame.title_bottom(Span::styled(format!(" log: {log} "), t.dim()));
    }
    f.render_widget(Clear, r);
    f.render_widget(Paragraph::new(lines).style(t.base()).block(frame), r);
}

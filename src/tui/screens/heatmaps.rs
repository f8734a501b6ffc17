//! Heatmaps: one metric by relation, by head type × tail type, or by year; each cell shows the
//! value, its 95% interval (as much of it as the cell's width allows) and the group's size,
//! coloured on the theme's scale. Below the map, why the selected cell scores as it does.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::display_width::{cell, fit, pad, width};
use crate::metrics::{Counts, GroupStats, Metric, Rate};
use crate::sanitize::line;
use crate::tui::app::why::{self, answer_name, Why, ANSWERS, PARTS};
use crate::tui::app::{rankable, App, HeatGrid, HeatView, RANKABLE_WIDTH};
use crate::tui::widgets::block;
use crate::verify::OutcomeKind;

/// Narrowest cell: "0.73? n=12".
const MIN_CELL: usize = 10;
/// Widest cell: the value, the whole interval and n, with a little air.
const MAX_CELL: usize = 26;
/// Lines of the "why" panel, borders included.
const WHY_H: u16 = 7;
/// Width of the "why" panel's row names.
const NAME_W: usize = 11;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let [legend, map, why_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        // One more line for a multiple-choice run's option letters.
        Constraint::Length(match &app.data {
            Some(d) if d.why.overall.lettered() > 0 => WHY_H + 1,
            Some(_) => WHY_H,
            None => 0,
        }),
    ])
    .areas(area);
    let mut head = vec![
        Span::styled(format!(" {} ", app.heat.metric.name()), t.title()),
        Span::raw(format!("{} ", app.heat.view.name())),
        Span::styled(format!("· sorted by {} ", app.heat.sort.name()), t.dim()),
    ];
    let used: usize = head.iter().map(|s| s.width()).sum();
    let keys = "· s sort · m metric · v view · Enter errors";
    if used + width(keys) <= legend.width as usize {
        head.push(Span::styled(keys, t.dim()));
    }
    f.render_widget(Paragraph::new(Line::from(head)), legend);
    let title = format!("{} {}", app.heat.metric.name(), app.heat.view.name());
    if app.data.is_none() {
        f.render_widget(
            Paragraph::new("No run open: start one from Explore (r) or open one with --run.")
                .block(block(app, &title)),
            map,
        );
        return;
    }
    let g = app.heat_grid();
    let inner_w = map.width.saturating_sub(2) as usize;
    let inner_h = map.height.saturating_sub(2) as usize;
    let mut longest = g.rows.iter().map(|r| width(&line(r))).max().unwrap_or(0) + 1;
    if let HeatView::Facets(_) = app.heat.view {
        // The corner names both facets ("edit \\ hop"): the row labels make room for it.
        longest = longest.max(width(app.heat.view.name()) + 1);
    }
    let grid = app.heat.view.is_grid().then(|| {
        let label_w = longest.clamp(8, 20).min(inner_w / 3);
        let heads: Vec<String> = g.cols.iter().map(|c| line(c)).collect();
        let cells: Vec<(usize, usize)> = (0..g.cols.len())
            .map(|ci| {
                g.stats.iter().fold((3, 3), |(full, short), row| {
                    let Some(st) = row[ci].as_ref() else {
                        return (full, short);
                    };
                    let rate = app.heat.metric.of(st);
                    let n = app.heat.metric.n_of(st).unwrap_or(0);
                    (
                        full.max(width(&cell_text(rate, n, usize::MAX))),
                        short.max(width(&cell_text(rate, n, MIN_CELL - 1))),
                    )
                })
            })
            .collect();
        grid_columns(inner_w, label_w, longest, &heads, &cells)
    });
    let (label_w, cell_w) = match &grid {
        Some(gc) => (gc.label_w, gc.uniform),
        None => {
            let label_w = longest.clamp(12, 40).min(inner_w * 2 / 5);
            (label_w, inner_w.saturating_sub(label_w).min(MAX_CELL))
        }
    };
    // Each column's width: the grid's own, one column of `cell_w` otherwise.
    let col_w = |ci: usize| grid.as_ref().map_or(cell_w, |gc| gc.width(ci));
    // The dot view's dot takes two columns before the cell.
    let dot_w = if shows_dots(app) { 2 } else { 0 };
    let bar_w = match app.heat.view {
        v if v.is_grid() => 0,
        _ => inner_w
            .saturating_sub(label_w + cell_w + 1 + dot_w)
            .min(MAX_BAR),
    };
    // Columns scroll like rows: the cursor's column stays in view.
    let visible_cols = match &grid {
        Some(gc) if gc.widths.is_some() => g.cols.len(),
        _ => (inner_w.saturating_sub(label_w) / cell_w.max(1)).max(1),
    };
    let first_col = (app.heat.col + 1).saturating_sub(visible_cols);
    let mut lines = Vec::new();
    let mut body_h = inner_h;
    if app.heat.view.is_grid() {
        let corner = match app.heat.view {
            HeatView::Facets(_) => fit(
                &app.heat.view.name().replace(" × ", " \\ "),
                label_w.saturating_sub(1),
            ),
            _ => "head \\ tail".to_string(),
        };
        // A column's name on two lines where one would cut it, cut only when two do not do.
        let rows = grid.as_ref().map_or(1, |gc| gc.head_lines);
        for k in 0..rows {
            let corner = if k + 1 == rows { corner.as_str() } else { "" };
            let mut head = vec![Span::styled(pad(corner, label_w), t.dim())];
            for (ci, c) in g.cols.iter().enumerate().skip(first_col).take(visible_cols) {
                let w = col_w(ci);
                let parts = head_lines(&line(c), w.saturating_sub(1), rows);
                let part = parts.get(k).map_or("", String::as_str);
                head.push(Span::styled(cell(part, w), t.dim()));
            }
            lines.push(Line::from(head));
            body_h = body_h.saturating_sub(1);
        }
    }
    if g.rows.is_empty() {
        lines.push(Line::from(Span::styled("no groups yet", t.dim())));
    }
    let offset = app.heat.row.saturating_sub(body_h.saturating_sub(1));
    for (ri, r) in g.rows.iter().enumerate().skip(offset).take(body_h) {
        let name_style = if ri == app.heat.row {
            t.title()
        } else {
            Style::default()
        };
        let mut spans = vec![Span::styled(cell(&line(r), label_w), name_style)];
        for (ci, stats) in g.stats[ri]
            .iter()
            .enumerate()
            .skip(first_col)
            .take(visible_cols)
        {
            let rate = stats.as_ref().and_then(|s| app.heat.metric.of(s));
            // KGLens' per-predicate dot view: with an edge metric, a dot whose size is the
            // group's share of the examined edges, coloured like its cell.
            if let (Some(share), Some(v)) = (edge_share(app, stats.as_ref()), rate) {
                spans.push(Span::styled(
                    format!("{} ", dot(share)),
                    Style::default().fg(t.scale_color(app.heat.metric.goodness(v.value))),
                ));
            }
            let cell_w = col_w(ci);
            let text = match stats {
                // The n the value and its interval are computed from (a statement run's
                // correctness: its facts, not its statements).
                Some(s) => cell_text(
                    rate,
                    app.heat.metric.n_of(s).unwrap_or(0),
                    cell_w.saturating_sub(1),
                ),
                None => "  ·".to_string(),
            };
            let style = match rate {
                Some(v) => Style::default()
                    .bg(t.scale_color(app.heat.metric.goodness(v.value)))
                    .fg(t.scale_fg),
                None => t.dim(),
            };
            let style = if ri == app.heat.row && ci == app.heat.col {
                style.add_modifier(Modifier::REVERSED | Modifier::BOLD)
            } else {
                style
            };
            spans.push(Span::styled(
                format!("{:<w$}", text, w = cell_w.saturating_sub(1)),
                style,
            ));
            spans.push(Span::raw(" "));
            // One column of cells leaves room to draw the interval on a 0–1 scale, so rows
            // can be compared by eye: overlapping bars do not rank.
            if let (Some(r), true) = (rate, bar_w >= MIN_BAR) {
                spans.push(Span::styled(interval_bar(r, bar_w), t.dim()));
            }
        }
        lines.push(Line::from(spans));
    }
    let mut frame = block(app, &title);
    // What `?` and n mean, and the years' bins: the long form where it fits, else the short
    // one, so the unit n counts is never cut.
    let unit = app.heat.metric.unit();
    let years = (g.year_width > 1 && app.heat.view == HeatView::Year)
        .then(|| format!(" · years binned by {}", g.year_width));
    let years = years.as_deref().unwrap_or("");
    let legend = [
        format!(
            " ? = 95% interval wider than {RANKABLE_WIDTH}: too wide to rank · n = {unit}{years} "
        ),
        format!(" ? = too wide to rank · n = {unit}{years} "),
    ]
    .into_iter()
    .find(|l| width(l) + 2 <= map.width as usize)
    .unwrap_or_else(|| format!(" n = {unit}{years} "));
    frame = frame.title_bottom(Span::styled(legend, t.dim()));
    f.render_widget(Paragraph::new(lines).block(frame), map);
    draw_why(f, app, &g, why_area);
}

/// How a grid view's columns share the width.
struct GridColumns {
    label_w: usize,
    /// Each column's width when every column fits side by side; `None`: the columns scroll,
    /// all `uniform` wide.
    widths: Option<Vec<usize>>,
    uniform: usize,
    /// Lines the column names take (1 or 2).
    head_lines: usize,
}

impl GridColumns {
    fn width(&self, col: usize) -> usize {
        self.widths
            .as_ref()
            .and_then(|w| w.get(col).copied())
            .unwrap_or(self.uniform)
    }
}

/// The widest a column grows for its name.
const MAX_HEAD_CELL: usize = 32;

/// Lays out a grid's columns in `inner_w`: each as wide as its name and its widest cell
/// (`cells`: the widths of its cells' full and shortest texts), names on one line, else on
/// two, else the cells' shortest texts beside names on two lines; room left over widens the
/// row labels up to `longest`. Only when not even that fits do the columns scroll at one
/// width, and names are cut. A column's name is thus never cut while there is room for it.
fn grid_columns(
    inner_w: usize,
    label_w: usize,
    longest: usize,
    heads: &[String],
    cells: &[(usize, usize)],
) -> GridColumns {
    let room = inner_w.saturating_sub(label_w);
    let clamp = |w: usize| w.clamp(MIN_CELL, MAX_HEAD_CELL);
    let one: Vec<usize> = heads.iter().map(|h| width(h) + 1).collect();
    let two: Vec<usize> = heads.iter().map(|h| two_line_width(h) + 1).collect();
    let tries: [(Vec<usize>, usize); 3] = [
        (
            cells
                .iter()
                .zip(&one)
                .map(|(c, h)| clamp(c.0.max(*h)))
                .collect(),
            1,
        ),
        (
            cells
                .iter()
                .zip(&two)
                .map(|(c, h)| clamp(c.0.max(*h)))
                .collect(),
            2,
        ),
        (
            cells
                .iter()
                .zip(&two)
                .map(|(c, h)| clamp((c.1 + 1).max(*h)))
                .collect(),
            2,
        ),
    ];
    for (mut widths, head_lines) in tries {
        let used: usize = widths.iter().sum();
        if used > room {
            continue;
        }
        // Room left: first the row labels' full names, then wider cells (more of the
        // interval), never wider than a cell's longest text needs.
        let mut left = room - used;
        let grow = longest.saturating_sub(label_w).min(left);
        left -= grow;
        // A column at a time, so they widen evenly.
        while left > 0 {
            let mut grew = false;
            for ((w, c), h) in widths.iter_mut().zip(cells).zip(&one) {
                if left > 0 && *w < (c.0 + 1).max(*h).min(MAX_HEAD_CELL) {
                    *w += 1;
                    left -= 1;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        // Widened enough, every name fits on one line again.
        let head_lines = if widths.iter().zip(&one).all(|(w, h)| h <= w) {
            1
        } else {
            head_lines
        };
        return GridColumns {
            label_w: label_w + grow,
            widths: Some(widths),
            uniform: MIN_CELL,
            head_lines,
        };
    }
    let per = room / heads.len().max(1);
    GridColumns {
        label_w,
        widths: None,
        uniform: per.clamp(MIN_CELL, MAX_CELL),
        head_lines: 2,
    }
}

/// `text` greedily wrapped by words into lines of `w` columns.
fn word_lines(text: &str, w: usize) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    let mut cur = String::new();
    for word in text.split_whitespace() {
        let joined = if cur.is_empty() {
            word.to_string()
        } else {
            format!("{cur} {word}")
        };
        if width(&joined) <= w || cur.is_empty() {
            cur = joined;
        } else {
            out.push(std::mem::take(&mut cur));
            cur = word.to_string();
        }
    }
    if !cur.is_empty() || out.is_empty() {
        out.push(cur);
    }
    out
}

/// The narrowest width at which `text` wraps by words onto two lines.
fn two_line_width(text: &str) -> usize {
    let full = width(text);
    (full.div_ceil(2)..=full)
        .find(|&w| {
            let l = word_lines(text, w);
            l.len() <= 2 && l.iter().all(|x| width(x) <= w)
        })
        .unwrap_or(full)
}

/// A column name in `rows` lines of `w` columns: wrapped by words, the last line cut (with a
/// mark) only when the name does not fit.
fn head_lines(text: &str, w: usize, rows: usize) -> Vec<String> {
    if rows <= 1 || width(text) <= w {
        return vec![fit(text, w)];
    }
    let mut l = word_lines(text, w);
    if l.len() > rows {
        let rest = l[rows - 1..].join(" ");
        l.truncate(rows - 1);
        l.push(rest);
    }
    l.into_iter().map(|x| fit(&x, w)).collect()
}

/// Whether rows carry KGLens' dots: an edge metric, one column of cells (the head × tail
/// grid keeps its columns aligned instead).
fn shows_dots(app: &App) -> bool {
    matches!(app.heat.metric, Metric::WinRate | Metric::ZeroSense) && !app.heat.view.is_grid()
}

/// A group's share of the run's examined edges, when rows carry dots.
fn edge_share(app: &App, stats: Option<&GroupStats>) -> Option<f64> {
    if !shows_dots(app) {
        return None;
    }
    let all = app.data.as_ref()?.snapshot.overall.yesno.as_ref()?.edges;
    let mine = stats?.yesno.as_ref()?.edges;
    Some(mine as f64 / all.max(1) as f64)
}

/// A share in [0, 1] as a dot of four sizes (a quarter or more is the largest).
fn dot(share: f64) -> char {
    match share {
        s if s >= 0.25 => '⬤',
        s if s >= 0.10 => '●',
        s if s >= 0.03 => '•',
        _ => '·',
    }
}

/// What a heatmap cell says in `w` columns: the value, marked `?` when its interval is too
/// wide to rank, then as much of the interval as fits, then the group's size.
pub fn cell_text(rate: Option<Rate>, n: u64, w: usize) -> String {
    let Some(r) = rate else {
        return format!("  – n={n}");
    };
    let mark = if rankable(&r) { "" } else { "?" };
    let short = |x: f64| {
        let s = format!("{x:.2}");
        s.strip_prefix('0').map(str::to_string).unwrap_or(s)
    };
    let candidates = [
        format!("{:.2}{mark} [{:.2},{:.2}] n={n}", r.value, r.lo, r.hi),
        format!("{:.2}{mark} {}–{} n={n}", r.value, short(r.lo), short(r.hi)),
        format!("{:.2}{mark} n={n}", r.value),
    ];
    let last = candidates[2].clone();
    candidates
        .into_iter()
        .find(|c| width(c) <= w)
        .unwrap_or_else(|| fit(&last, w))
}

/// The narrowest interval bar worth drawing, and the widest (wider says nothing more).
const MIN_BAR: usize = 20;
const MAX_BAR: usize = 60;

/// A rate's 95% interval on a 0–1 scale `w` columns wide: `━` over the interval, `●` at the
/// value, `·` elsewhere; `|` marks 0.5 where nothing else is drawn.
pub fn interval_bar(r: Rate, w: usize) -> String {
    let w = w.max(2);
    let at = |x: f64| ((x.clamp(0.0, 1.0) * (w - 1) as f64).round()) as usize;
    let (lo, hi, v, mid) = (at(r.lo), at(r.hi), at(r.value), at(0.5));
    (0..w)
        .map(|i| match i {
            _ if i == v => '●',
            _ if (lo..=hi).contains(&i) => '━',
            _ if i == mid => '|',
            _ => '·',
        })
        .collect()
}

/// One split's line: its size, accuracy with interval, and outcome counts.
fn split_line<'a>(app: &App, name: &str, c: &Counts) -> Line<'a> {
    let t = &app.theme;
    let mut spans = vec![Span::styled(format!(" {name:<NAME_W$}"), t.dim())];
    let acc = why::accuracy(c);
    spans.push(Span::raw(format!("n={:<5}", c.total())));
    match acc {
        Some(r) => spans.push(Span::styled(
            format!("accuracy {:<19}", crate::tui::widgets::rate(Some(r))),
            Style::default().fg(t.scale_color(r.value)),
        )),
        None => spans.push(Span::styled(format!("{:<28}", "accuracy –"), t.dim())),
    }
    // Short names: the line must fit 80 columns.
    for (kind, name, k) in [
        (OutcomeKind::Correct, "ok", c.correct),
        (OutcomeKind::Incorrect, "wrong", c.incorrect),
        (OutcomeKind::Abstained, "abst", c.abstained),
        (OutcomeKind::Invalid, "inv", c.invalid),
    ] {
        spans.push(Span::styled(format!("{k} {name}  "), t.outcome(kind)));
    }
    Line::from(spans)
}

/// Why the selected cell scores as it does: accuracy on true and on false statements, on each
/// kind of negative, and what the model answered, with a warning for a model answering by
/// habit (a yes-sayer scores well on true statements and must not look good for it).
fn draw_why(f: &mut Frame, app: &App, g: &HeatGrid, area: Rect) {
    if area.height == 0 {
        return;
    }
    let t = &app.theme;
    let Some((cell, w)) = app.heat_why_in(g) else {
        f.render_widget(
            Paragraph::new(Span::styled("no cell selected", t.dim())).block(block(app, "Why")),
            area,
        );
        return;
    };
    let (yes, no) = app.data.as_ref().map_or(("true", "false"), |d| {
        crate::method::of(d.manifest.config.task).truth_words()
    });
    let n = w.n();
    let title = format!(
        "Why: {} · {n} answer{}",
        cell.describe(),
        crate::core::panel::plural(n as usize)
    );
    let (gold_t, gold_f) = (format!("gold {yes}"), format!("gold {no}"));
    let mut lines = vec![
        split_line(app, &gold_t, &w.by_gold[0]),
        split_line(app, &gold_f, &w.by_gold[1]),
    ];
    let mut parts = vec![Span::styled(format!(" {:<NAME_W$}", "replaced"), t.dim())];
    for (p, c) in PARTS.iter().zip(&w.by_part) {
        if c.total() == 0 {
            continue;
        }
        let acc = why::accuracy(c).map_or("–".into(), |r| format!("{:.2}", r.value));
        if parts.len() > 1 {
            parts.push(Span::styled(" · ", t.dim()));
        }
        parts.push(Span::raw(format!(
            "{} acc {acc} n={}",
            format!("{p:?}").to_lowercase(),
            c.total()
        )));
    }
    if parts.len() == 1 {
        parts.push(Span::styled("no negatives in this group", t.dim()));
    }
    lines.push(Line::from(parts));
    lines.push(answers_line(app, &w, (yes, no), area.width));
    if w.lettered() > 0 {
        lines.push(letters_line(app, &w));
    }
    // A group too small to tell still shows the habit when the whole run has it.
    let overall = app.data.as_ref().map(|d| d.why.overall).unwrap_or_default();
    let habit = match (w.dominant_answer(), overall.dominant_answer()) {
        (Some(h), _) => Some((h, "of questions")),
        (None, Some(h)) => Some((h, "of the run's questions")),
        (None, None) => None,
    };
    if let Some(((v, share), of)) = habit {
        lines.push(Line::from(Span::styled(
            format!(
                " ⚠ says \"{}\" to {:.0}% {of}: judge it by the gold split",
                answer_name(v, (yes, no)),
                share * 100.0
            ),
            t.outcome(OutcomeKind::Incorrect),
        )));
    }
    // Multiple choice: the same habit shows as one option letter, whatever the options.
    let letter_habit = match (w.dominant_letter(), overall.dominant_letter()) {
        (Some(h), _) => Some((h, "of questions")),
        (None, Some(h)) => Some((h, "of the run's questions")),
        (None, None) => None,
    };
    if let Some(((l, share), of)) = letter_habit {
        let options = app
            .data
            .as_ref()
            .and_then(|d| d.chance.baseline.as_ref().map(|b| b.describe()))
            .map_or(String::new(), |b| format!("; chance is {b}"));
        lines.push(Line::from(Span::styled(
            format!(
                " ⚠ picks option {l} for {:.0}% {of}: its accuracy is near chance{options}",
                share * 100.0
            ),
            t.outcome(OutcomeKind::Incorrect),
        )));
    }
    f.render_widget(Paragraph::new(lines).block(block(app, &title)), area);
}

/// The answer distribution as counts, shares and a bar: one glance shows a yes-sayer.
fn answers_line<'a>(
    app: &App,
    w: &Why,
    words: (&'static str, &'static str),
    width: u16,
) -> Line<'a> {
    let t = &app.theme;
    let mut spans = vec![Span::styled(format!(" {:<NAME_W$}", "answers"), t.dim())];
    if w.closed() == 0 && w.open > 0 {
        // Open answers are no classes to count: say what they are instead.
        spans.push(Span::raw(format!(
            "{} open answers: not one of a fixed set, so no distribution",
            w.open
        )));
        return Line::from(spans);
    }
    let n = w.closed().max(1) as f64;
    const GLYPHS: [char; 4] = ['█', '▓', '░', '·'];
    // The bar only where there is room beside the numbers (not at 80 columns).
    if width >= 100 {
        const BAR: usize = 20;
        let mut bar = String::new();
        for (g, k) in GLYPHS.iter().zip(&w.answers) {
            let cells = ((*k as f64 / n) * BAR as f64).round() as usize;
            bar.extend(std::iter::repeat_n(*g, cells));
        }
        spans.push(Span::styled(
            format!("{:<w$} ", fit(&bar, BAR), w = BAR),
            Style::default().fg(t.accent),
        ));
    }
    for (g, (v, k)) in GLYPHS.iter().zip(ANSWERS.iter().zip(&w.answers)) {
        spans.push(Span::raw(format!(
            "{g} {} {:.0}% ({k})  ",
            answer_name(*v, words),
            *k as f64 / n * 100.0
        )));
    }
    Line::from(spans)
}

/// The option letters a multiple-choice group was answered with, by count and share.
fn letters_line<'a>(app: &App, w: &Why) -> Line<'a> {
    let t = &app.theme;
    let n = w.n().max(1) as f64;
    let mut spans = vec![Span::styled(format!(" {:<NAME_W$}", "options"), t.dim())];
    for (i, k) in w.letters.iter().enumerate() {
        if *k == 0 {
            continue;
        }
        spans.push(Span::raw(format!(
            "{} {:.0}% ({k})  ",
            crate::core::gold::choice_letter(i),
            *k as f64 / n * 100.0
        )));
    }
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_shows_as_much_of_its_interval_as_fits() {
        let r = Rate::new(8.0, 10.0);
        assert_eq!(cell_text(r, 10, 30), "0.80 [0.49,0.94] n=10");
        assert_eq!(cell_text(r, 10, 17), "0.80 .49–.94 n=10");
        assert_eq!(cell_text(r, 10, 12), "0.80 n=10");
        assert_eq!(cell_text(r, 10, 6), "0.80 …");
        // One answer: the interval is too wide to rank, and says so.
        assert_eq!(
            cell_text(Rate::new(1.0, 1.0), 1, 30),
            "1.00? [0.21,1.00] n=1"
        );
        assert_eq!(cell_text(Rate::new(1.0, 1.0), 1, 9), "1.00? n=1");
        assert_eq!(cell_text(None, 4, 20), "  – n=4");
    }

    #[test]
    fn the_interval_bar_spans_the_interval_and_marks_the_value() {
        let r = Rate {
            value: 0.5,
            lo: 0.25,
            hi: 0.75,
        };
        assert_eq!(interval_bar(r, 9), "··━━●━━··");
        let low = Rate {
            value: 0.0,
            lo: 0.0,
            hi: 0.25,
        };
        assert_eq!(interval_bar(low, 9), "●━━·|····");
    }
}

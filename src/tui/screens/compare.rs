//! Compare: the runs of the runs directory on the left (marked ones numbered A, B, …; A is the
//! baseline), and on the right the marked runs side by side on their common questions: the
//! metrics, then accuracy per group with each run's difference from A and McNemar's p.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;

use crate::compare::render::letter;
use crate::display_width::fit;
use crate::sanitize::line;
use crate::tui::app::compare::GROUPINGS;
use crate::tui::app::App;
use crate::tui::widgets::{block, rate};

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let c = &app.compare;
    // Below 100 columns the list gives the comparison the room its intervals need.
    let list_width = if area.width < 100 {
        Constraint::Length(24)
    } else {
        Constraint::Percentage(34)
    };
    let [left, right] = Layout::horizontal([list_width, Constraint::Min(1)]).areas(area);
    let inner = left.width.saturating_sub(4) as usize;
    let items: Vec<ListItem> = c
        .runs
        .iter()
        .map(|r| {
            let mark = match c.marked.iter().position(|m| *m == r.id) {
                Some(i) => format!("[{}] ", letter(i)),
                None => "[ ] ".into(),
            };
            let head = fit(&format!("{mark}{}", line(&r.id)), inner);
            let detail = fit(
                &format!(
                    // The model first: runs of one method and KG differ by it.
                    "    {} · {} · T={} · {} q · {}",
                    // Both shown already sanitised (`Manifest::model_shown`, `kg_shown`).
                    r.model,
                    r.method,
                    r.temperature,
                    r.questions,
                    r.kg
                ),
                inner,
            );
            ListItem::new(vec![
                Line::from(head),
                Line::from(Span::styled(detail, t.dim())),
            ])
        })
        .collect();
    let title = format!("Runs in {}", line(&app.runs_dir.display().to_string()));
    if let Some(e) = &c.list_error {
        f.render_widget(
            Paragraph::new(line(e))
                .wrap(Wrap { trim: true })
                .block(block(app, &title)),
            left,
        );
    } else if items.is_empty() {
        f.render_widget(
            Paragraph::new("No runs yet: start one from Explore (r) or with `kgscope run`.")
                .wrap(Wrap { trim: true })
                .block(block(app, &title)),
            left,
        );
    } else {
        let list = List::new(items)
            .block(block(app, &title))
            .highlight_style(t.selected());
        let mut state = ListState::default().with_selected(Some(c.cursor));
        f.render_stateful_widget(list, left, &mut state);
    }
    let title = format!("Comparison by {} (g)", GROUPINGS[c.grouping]);
    let body: Vec<Line> = match &c.result {
        None if app.compare_loading() => vec![Line::from(Span::styled(
            "reading the marked runs…",
            t.dim(),
        ))],
        None => vec![
            Line::from("Mark two runs or more with Space: the first marked (A) is the baseline."),
            Line::from(Span::styled(
                "Runs are compared on the questions they share (same id); P saves the figure.",
                t.dim(),
            )),
        ],
        Some(Err(e)) => vec![Line::from(Span::styled(
            line(e),
            t.outcome(crate::verify::OutcomeKind::Incorrect),
        ))],
        Some(Ok(cmp)) => {
            let w = right.width.saturating_sub(2) as usize;
            let mut lines = vec![Line::from(fit(
                &format!(
                    "{} common questions ({}); McNemar exact below 25 discordant pairs, else χ²",
                    cmp.common,
                    cmp.runs
                        .iter()
                        .enumerate()
                        .map(|(i, r)| format!("{}: {} of {}", letter(i), cmp.common, r.answered))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                w,
            ))];
            for (i, r) in cmp.runs.iter().enumerate() {
                lines.push(Line::from(Span::styled(
                    fit(&format!("{} = {} · {}", letter(i), r.name, r.id), w),
                    t.dim(),
                )));
                // What it answered and the baseline; the warning (in the incorrect colour)
                // when its results are near chance. Wrapped, not cut: the warning's point
                // (the accuracy against chance) is at its end.
                let answers = r.chance.summary_line();
                let warning = r.chance.warning_line().map(|w| {
                    let style = t.outcome(crate::verify::OutcomeKind::Incorrect);
                    (format!("⚠ {w}"), style)
                });
                for (text, style) in std::iter::once((answers, t.dim())).chain(warning) {
                    let said = Line::from(Span::styled(line(&text), style));
                    lines.extend(crate::tui::wrap::wrap_hanging(said, w as u16, 4, 6));
                }
            }
            // Every run's interval whole: in the short form ("0.50 [.25,.75]") when the long
            // one would not fit.
            let runs = cmp.runs.len().max(1);
            let compact = 16 + runs * 20 > w;
            for m in &cmp.metrics {
                let mut s = crate::display_width::cell(&m.metric, 16);
                for v in &m.values {
                    if compact {
                        s.push_str(&format!("{:<16}", short_rate(*v)));
                    } else {
                        s.push_str(&format!("{:<20}", rate(*v)));
                    }
                }
                lines.push(Line::from(fit(&s, w)));
            }
            lines.push(Line::from(""));
            // The group names give way first, down to 10 columns, then the differences
            // take their short form.
            let per_run = if compact { 7 + 18 + 6 } else { 7 + 24 + 8 };
            let name_w = w
                .saturating_sub(5 + 2 + 7 + (runs - 1) * per_run)
                .clamp(10, 24);
            let mut head = format!(
                "{}{:>5}  {:<7}",
                crate::display_width::cell(&cmp.grouping, name_w),
                "n",
                "A"
            );
            let (diff_w, p_w) = if compact { (18, 6) } else { (24, 8) };
            for i in 1..cmp.runs.len() {
                head.push_str(&format!(
                    "{:<7}{:<diff_w$}{:<p_w$}",
                    letter(i),
                    format!("{}−A [95%]", letter(i)),
                    "p"
                ));
            }
            lines.push(Line::from(Span::styled(fit(head.trim_end(), w), t.title())));
            for g in cmp.groups.iter().skip(c.scroll) {
                let acc = |r: Option<crate::metrics::Rate>| {
                    r.map_or("–".into(), |r| format!("{:.2}", r.value))
                };
                let mut s = format!(
                    "{}{:>5}  {:<7}",
                    crate::display_width::cell(&line(&g.group), name_w),
                    g.n,
                    acc(g.accuracy[0])
                );
                let mut style = Style::default();
                for (i, v) in g.vs_baseline.iter().enumerate() {
                    let d = v.difference.map_or("–".into(), |d| {
                        if compact {
                            format!(
                                "{:+.2} [{},{}]",
                                d.value,
                                short(d.lo, true),
                                short(d.hi, true)
                            )
                        } else {
                            format!("{:+.2} [{:+.2},{:+.2}]", d.value, d.lo, d.hi)
                        }
                    });
                    let p = if compact {
                        short(v.mcnemar.p, false)
                    } else {
                        format!("{:.3}", v.mcnemar.p)
                    };
                    s.push_str(&format!(
                        "{:<7}{:<diff_w$}{:<p_w$}",
                        acc(g.accuracy[i + 1]),
                        d,
                        p
                    ));
                    if v.mcnemar.p < 0.05 {
                        style = t.title();
                    }
                }
                lines.push(Line::from(Span::styled(fit(s.trim_end(), w), style)));
            }
            lines
        }
    };
    // Error messages wrap; the table's lines are cut to width already.
    f.render_widget(
        Paragraph::new(body)
            .wrap(Wrap { trim: false })
            .block(block(app, &title)),
        right,
    );
}

/// `x` (in [-1, 1]) in two decimals without the leading zero ("0.25" → ".25", "-0.37" →
/// "-.37"; "+.37" with `sign`), for intervals on a narrow terminal; "1.00" stays.
fn short(x: f64, sign: bool) -> String {
    let s = if sign {
        format!("{x:+.2}")
    } else {
        format!("{x:.2}")
    };
    s.replacen("0.", ".", 1)
}

/// [`rate`] in the short form: "0.50 [.25,.75]".
fn short_rate(r: Option<crate::metrics::Rate>) -> String {
    match r {
        Some(r) => format!(
            "{:.2} [{},{}]",
            r.value,
            short(r.lo, false),
            short(r.hi, false)
        ),
        None => "–".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_numbers_drop_only_the_leading_zero() {
        assert_eq!(short(0.25, false), ".25");
        assert_eq!(short(-0.37, true), "-.37");
        assert_eq!(short(0.37, true), "+.37");
        assert_eq!(short(1.0, false), "1.00");
        assert_eq!(short(-1.0, true), "-1.00");
    }
}

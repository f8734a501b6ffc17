//! The answer an annotator is about to label, whole enough to judge: its question, the model's
//! response and the gold answer, each wrapped under its name. Errors and the Judge view show
//! it under their lists, so `r`/`w` are never pressed on a cut line.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::record::ResultRecord;
use crate::sanitize::line;
use crate::tui::app::App;
use crate::tui::theme::Theme;
use crate::tui::widgets::block;
use crate::tui::wrap::wrap_hanging;

/// The names' column: "question " and a space.
const KEY: u16 = 10;

/// The rows (borders included) the card takes on a screen `height` rows high: six lines on
/// an 80×24 terminal (a question, a response of three lines and a gold answer at 80 columns),
/// eight from 34 rows.
pub fn height(height: u16) -> u16 {
    if height >= 34 {
        10
    } else {
        8
    }
}

/// `card` laid out for an area `width` columns wide on a screen `screen_height` rows high: its
/// lines (cut to fit [`height`]) and the rows it takes with its borders, at least five.
pub fn layout(
    card: Option<&Card>,
    width: u16,
    screen_height: u16,
    t: &Theme,
) -> (Vec<Line<'static>>, u16) {
    let most = height(screen_height);
    let lines = match card {
        Some(c) => c.lines(width.saturating_sub(2), most as usize - 2, t.dim()),
        None => vec![Line::from(Span::styled("nothing selected", t.dim()))],
    };
    let rows = (lines.len() as u16 + 2).clamp(5, most);
    (lines, rows)
}

/// What the card shows of one answer.
pub struct Card {
    fields: Vec<(&'static str, String)>,
}

impl Card {
    /// The card of `rec`, with `label` (the annotator's, or someone's) when there is one.
    pub fn of(rec: &ResultRecord, label: Option<String>) -> Card {
        let gold = crate::method::of(rec.question.task).gold_text(&rec.question);
        let mut fields = vec![
            ("question", line(&rec.question.prompt)),
            // Models often answer with a leading space (the prompt ends before it).
            ("response", line(rec.response().trim_start())),
            ("gold", line(&gold)),
        ];
        if let Some(l) = label {
            fields.push(("label", line(&l)));
        }
        Card { fields }
    }

    /// The card as at most `rows` lines `width` columns wide, the names in a column of their
    /// own: every field gets a line, then the response, the question and the gold get more in
    /// turn while rows are left; a field cut short ends in "…".
    pub fn lines(&self, width: u16, rows: usize, name_style: Style) -> Vec<Line<'static>> {
        // Wrapped one column short, so the "…" of a cut field always has its column.
        let wrapped: Vec<Vec<Line<'static>>> = self
            .fields
            .iter()
            .map(|(_, text)| {
                wrap_hanging(Line::from(text.clone()), width.saturating_sub(1), KEY, KEY)
            })
            .collect();
        let mut shown = vec![1usize; wrapped.len()];
        let mut left = rows.saturating_sub(wrapped.len());
        // The response first: it is what is judged against the gold.
        const ORDER: [usize; 3] = [1, 0, 2];
        while left > 0 {
            let before = left;
            for k in ORDER {
                if left > 0 && shown[k] < wrapped[k].len() {
                    shown[k] += 1;
                    left -= 1;
                }
            }
            if left == before {
                break;
            }
        }
        let mut out = Vec::new();
        for (((name, _), rows), &n) in self.fields.iter().zip(wrapped).zip(&shown) {
            let cut = rows.len() > n;
            let mut rows: Vec<Line<'static>> = rows.into_iter().take(n).collect();
            if rows.is_empty() {
                rows.push(Line::default());
            }
            // The first row's indent becomes the field's name.
            let first = &mut rows[0].spans;
            if !first.is_empty() {
                first.remove(0);
            }
            first.insert(
                0,
                Span::styled(format!("{name:<w$}", w = KEY as usize), name_style),
            );
            if cut {
                if let Some(last) = rows.last_mut() {
                    last.spans.push(Span::raw("…"));
                }
            }
            out.extend(rows);
        }
        out.truncate(rows);
        out
    }
}

/// Draws a card's lines (from [`layout`]) in `area`, framed and titled `title`.
pub fn draw(f: &mut Frame, app: &App, lines: Vec<Line<'static>>, title: &str, area: Rect) {
    let frame = block(app, title);
    let inner = frame.inner(area);
    f.render_widget(frame, area);
    f.render_widget(Paragraph::new(lines), inner);
}

//! Word wrapping by grapheme clusters and their display widths, for panes that show KG and
//! model text.
//!
//! ratatui's own wrapping (`Wrap`) checks a line's width before it adds a cluster, so a
//! two-column cluster ("जी", "東") that starts in a line's last column ends one column past
//! it: onto the pane's border, which a terminal then shows as the cluster's second half. Lines
//! wrapped here never pass `width`, and are drawn without `Wrap`.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;

use crate::display_width::grapheme_width;

/// A grapheme cluster with its style and width.
struct Piece<'a> {
    text: &'a str,
    style: Style,
    width: usize,
}

/// `lines` wrapped to at most `width` columns each: greedily by words (a space where a line
/// breaks is dropped), a word longer than a line broken between clusters. Leading spaces stay,
/// as an indent.
pub fn wrap(lines: &[Line<'_>], width: u16) -> Vec<Line<'static>> {
    let width = width.max(1) as usize;
    let mut out = Vec::new();
    for line in lines {
        let pieces: Vec<Piece> = line
            .spans
            .iter()
            .flat_map(|s| {
                let style = line.style.patch(s.style);
                s.content.graphemes(true).map(move |g| Piece {
                    text: g,
                    style,
                    width: grapheme_width(g),
                })
            })
            .filter(|p| p.width <= width)
            .collect();
        let mut rows: Vec<Vec<&Piece>> = vec![vec![]];
        let mut used = 0;
        // A new row; the spaces the last one ended with are where it broke, not drawn.
        let new_row = |rows: &mut Vec<Vec<&Piece>>| {
            let last = rows.last_mut().unwrap();
            while last
                .last()
                .is_some_and(|p| p.text.chars().all(char::is_whitespace))
            {
                last.pop();
            }
            rows.push(vec![]);
        };
        let mut i = 0;
        while i < pieces.len() {
            let space = pieces[i].text.chars().all(char::is_whitespace);
            // The run of spaces or of non-spaces starting at i.
            let end = (i..pieces.len())
                .find(|&j| pieces[j].text.chars().all(char::is_whitespace) != space)
                .unwrap_or(pieces.len());
            let run_w: usize = pieces[i..end].iter().map(|p| p.width).sum();
            let at_start = used == 0;
            if used + run_w <= width {
                rows.last_mut().unwrap().extend(&pieces[i..end]);
                used += run_w;
            } else if space {
                // The spaces a line breaks at are not drawn.
                if !at_start {
                    new_row(&mut rows);
                    used = 0;
                }
            } else {
                if run_w <= width && !at_start {
                    new_row(&mut rows);
                    used = 0;
                }
                // A word longer than a line is cut between clusters.
                for p in &pieces[i..end] {
                    if used + p.width > width {
                        new_row(&mut rows);
                        used = 0;
                    }
                    rows.last_mut().unwrap().push(p);
                    used += p.width;
                }
            }
            i = end;
        }
        out.extend(rows.into_iter().map(|row| {
            // Neighbouring clusters of one style make one span.
            let mut spans: Vec<Span<'static>> = Vec::new();
            for p in row {
                match spans.last_mut() {
                    Some(s) if s.style == p.style => s.content.to_mut().push_str(p.text),
                    _ => spans.push(Span::styled(p.text.to_string(), p.style)),
                }
            }
            Line::from(spans)
        }));
    }
    out
}

/// `line` (its text without indent) wrapped as [`wrap`] does, with a hanging indent: its first
/// row after `first` spaces, the rows it wraps onto after `rest`, none past `width`.
pub fn wrap_hanging(line: Line<'_>, width: u16, first: u16, rest: u16) -> Vec<Line<'static>> {
    let indent = first.max(rest);
    let mut rows = wrap(&[line], width.saturating_sub(indent).max(1));
    for (k, row) in rows.iter_mut().enumerate() {
        let pad = if k == 0 { first } else { rest };
        row.spans.insert(0, Span::raw(" ".repeat(pad as usize)));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::display_width::width;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::Color;
    use ratatui::widgets::{Paragraph, Widget, Wrap};

    fn text(l: &Line) -> String {
        l.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    const ALIASES: &str = "aliases   FIJ | FJ | FJI | Fijī Gaṇarājya | Matanitu Tugalala o \
                           Viti | Matanitu ko Viti | Republic of Fiji | Viti | फिजी | रिपब्लिक \
                           ऑफ फीजी";

    #[test]
    fn a_hanging_indent_indents_the_rows_a_line_wraps_onto() {
        let rows = wrap_hanging(Line::from(ALIASES), 30, 4, 6);
        assert!(rows.len() > 2);
        for (k, l) in rows.iter().enumerate() {
            let s = text(l);
            assert!(width(&s) <= 30, "{s:?}");
            let lead = s.len() - s.trim_start().len();
            assert_eq!(lead, if k == 0 { 4 } else { 6 }, "{s:?}");
        }
    }

    #[test]
    fn no_line_passes_the_width_and_no_text_is_lost() {
        let words: String = ALIASES.split_whitespace().collect();
        for w in 4..60 {
            let lines = wrap(&[Line::from(ALIASES)], w);
            for l in &lines {
                assert!(width(&text(l)) <= w as usize, "{:?} in {w}", text(l));
            }
            let back: String = lines.iter().map(text).collect::<String>();
            let back: String = back.split_whitespace().collect();
            assert_eq!(back, words, "at {w}");
        }
    }

    /// ratatui's `Wrap` puts a two-column cluster one column past the line at some widths
    /// (the reason this module exists); this wrap never does.
    #[test]
    fn where_ratatuis_wrap_overflows_this_one_does_not() {
        let mut overflowed = 0;
        for w in 10..60u16 {
            let area = Rect::new(0, 0, w + 1, 20);
            let mut buf = Buffer::empty(area);
            // A wall in the column after the line's last, as a border is.
            for y in 0..20 {
                buf[(w, y)].set_symbol("│");
            }
            let inner = Rect::new(0, 0, w, 20);
            Paragraph::new(ALIASES)
                .wrap(Wrap { trim: false })
                .render(inner, &mut buf);
            let over = |buf: &Buffer| {
                (0..20).any(|y| crate::display_width::width(buf[(w - 1, y)].symbol()) > 1)
            };
            overflowed += usize::from(over(&buf));
            let mut buf = Buffer::empty(area);
            Paragraph::new(wrap(&[Line::from(ALIASES)], w)).render(inner, &mut buf);
            assert!(!over(&buf), "a cluster crosses column {w}");
        }
        assert!(
            overflowed > 0,
            "ratatui's Wrap was fixed: this module may go"
        );
    }

    #[test]
    fn styles_and_indents_are_kept() {
        let red = Style::default().fg(Color::Red);
        let l = Line::from(vec![
            Span::raw("  key  "),
            Span::styled("a long red value", red),
        ]);
        let lines = wrap(&[l], 12);
        assert_eq!(
            lines.iter().map(text).collect::<Vec<_>>(),
            ["  key  a", "long red", "value"]
        );
        assert_eq!(lines[1].spans, [Span::styled("long red", red)]);
        // A word longer than the line is cut between clusters.
        let lines = wrap(&[Line::from("रिपब्लिकऑफफीजी")], 4);
        assert!(lines.iter().all(|l| width(&text(l)) <= 4));
        assert_eq!(text(&lines[0]), "रिप");
    }
}

//! Cells a cluster of several code points covers, made visible to the next frame's diff.
//!
//! ratatui puts a grapheme cluster in one cell and leaves the cells its width covers blank
//! and never sends them: a wide CJK character fills them itself, and writing over half of it
//! clears the other half. A cluster such as "फि" (a consonant and its vowel sign) is not one
//! wide character to the terminal: most terminals (xterm, VTE, tmux, …) give each code point
//! of it its own column by `wcwidth`, so the vowel sign sits in the covered cell. When the
//! next frame puts a blank there, the diff sees blank against blank and sends nothing, and
//! the vowel sign stays on screen: stray marks on the next screen, beside or over a border.
//! Marking the covered cells with an empty symbol (which no blank equals) makes the diff send
//! them whenever they stop being covered, and costs nothing while they are.

use ratatui::buffer::Buffer;

/// Marks every cell covered by a cluster of several code points in `buf` (a finished frame).
pub fn expose(buf: &mut Buffer) {
    let area = buf.area;
    for y in area.top()..area.bottom() {
        let mut x = area.left();
        while x < area.right() {
            let symbol = buf[(x, y)].symbol();
            let w = crate::display_width::width(symbol).max(1) as u16;
            // Emoji with a presentation selector are one wide glyph, which ratatui's diff
            // already handles.
            let composed = symbol.chars().nth(1).is_some() && !symbol.contains('\u{fe0f}');
            if w > 1 && composed {
                for covered in x + 1..(x + w).min(area.right()) {
                    buf[(covered, y)].set_symbol("");
                }
            }
            x += w;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    #[test]
    fn covered_cells_of_composed_clusters_are_marked_and_others_left() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 1));
        buf.set_string(0, 0, "फिa東b ब्लि", Style::default());
        expose(&mut buf);
        let cells: Vec<&str> = (0..12).map(|x| buf[(x, 0)].symbol()).collect();
        assert_eq!(
            cells,
            ["फि", "", "a", "東", " ", "b", " ", "ब्लि", "", "", " ", " "]
        );
    }

    /// The next frame's diff sends the cells a cluster covered once they hold a blank.
    #[test]
    fn the_next_frame_clears_what_a_cluster_covered() {
        let area = Rect::new(0, 0, 6, 1);
        let mut before = Buffer::empty(area);
        before.set_string(0, 0, "फिजी", Style::default());
        expose(&mut before);
        let mut after = Buffer::empty(area);
        after.set_string(0, 0, "a", Style::default());
        let sent: Vec<u16> = before.diff(&after).iter().map(|(x, _, _)| *x).collect();
        // Cells 0 and 2 change symbol; 1 and 3 held the vowel signs and must be blanked
        // (without the marks, blank against blank, they would not be sent).
        assert_eq!(sent, [0, 1, 2, 3]);
    }
}

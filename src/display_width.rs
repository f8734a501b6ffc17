//! Text measured in terminal columns. A reader sees grapheme clusters (a consonant with its
//! vowel signs and virama, a letter with its accents, a wide CJK character), and a terminal
//! gives each its display width; bytes (`len`) and code points (`chars().count()`) count
//! combining marks as columns and wide characters as one, so text laid out by them spills
//! past a column or falls short of it, and a cut between code points leaves a mark without
//! its letter. Widths are those ratatui lays text out by (`unicode-width` on each cluster),
//! so what is measured here is what a frame draws.

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// The columns one grapheme cluster takes; a control character takes none (screens never
/// draw one: [`crate::sanitize::clean`] drops them first).
pub fn grapheme_width(g: &str) -> usize {
    if g.chars().any(char::is_control) {
        0
    } else {
        g.width()
    }
}

/// The columns `s` takes on one line.
pub fn width(s: &str) -> usize {
    s.graphemes(true).map(grapheme_width).sum()
}

/// `s` in at most `w` columns: whole when it fits, else its longest prefix of whole clusters
/// that leaves room for `…`, then `…`.
pub fn fit(s: &str, w: usize) -> String {
    if width(s) <= w {
        return s.to_string();
    }
    let room = w.saturating_sub(1);
    let mut out = String::new();
    let mut used = 0;
    for g in s.graphemes(true) {
        let gw = grapheme_width(g);
        if used + gw > room {
            break;
        }
        used += gw;
        out.push_str(g);
    }
    if w > 0 {
        out.push('…');
    }
    out
}

/// `s` cut as [`fit`] cuts it and padded with spaces to exactly `w` columns: a table cell.
pub fn pad(s: &str, w: usize) -> String {
    let mut out = fit(s, w);
    let used = width(&out);
    out.extend(std::iter::repeat_n(' ', w.saturating_sub(used)));
    out
}

/// A table column `w` wide: `s` cut to `w - 1` columns, so a space always parts it from the
/// next column, and padded to `w`.
pub fn cell(s: &str, w: usize) -> String {
    pad(&fit(s, w.saturating_sub(1)), w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fiji's Devanagari aliases in sample:countries: vowel signs that take a column of their
    /// own and a virama that takes none and binds two consonants into one cluster.
    const FIJI: &str = "फिजी";
    const REPUBLIC: &str = "रिपब्लिक ऑफ फीजी";

    #[test]
    fn widths_count_columns_not_code_points() {
        assert_eq!(width("Fiji"), 4);
        assert_eq!(width(FIJI), 4);
        // 16 code points; the virama (U+094D) takes no column.
        assert_eq!(REPUBLIC.chars().count(), 16);
        assert_eq!(width(REPUBLIC), 15);
        // A combining accent takes no column, a CJK character two.
        assert_eq!(width("Fije\u{301}"), 4);
        assert_eq!(width("東京"), 4);
        assert_eq!(width("a\u{1b}b"), 2);
    }

    #[test]
    fn fit_cuts_between_clusters_within_the_columns() {
        assert_eq!(fit(FIJI, 4), FIJI);
        // Never a virama or a vowel sign without its consonant: every cut is at a cluster's end.
        let ends: Vec<usize> = std::iter::once(0)
            .chain(REPUBLIC.grapheme_indices(true).map(|(i, g)| i + g.len()))
            .collect();
        for w in 0..=16 {
            let f = fit(REPUBLIC, w);
            assert!(width(&f) <= w, "{f:?} in {w}");
            let kept = f.trim_end_matches('…');
            assert!(
                REPUBLIC.starts_with(kept) && ends.contains(&kept.len()),
                "{f:?}"
            );
        }
        // "ब्लि" is one cluster of three columns: it goes whole or not at all.
        assert_eq!(fit(REPUBLIC, 6), "रिप…");
        assert_eq!(fit(REPUBLIC, 7), "रिपब्लि…");
        assert_eq!(fit("東京都", 4), "東…");
        assert_eq!(fit("abc", 0), "");
    }

    #[test]
    fn pad_fills_exactly_the_columns() {
        for s in [FIJI, REPUBLIC, "東京都", "Fije\u{301}", "x"] {
            for w in 1..12 {
                assert_eq!(width(&pad(s, w)), w, "{s:?} in {w}");
            }
        }
        assert_eq!(pad("e\u{301}", 3), "e\u{301}  ");
        assert_eq!(cell("फिजी", 4), "फि… ");
        assert_eq!(cell("फिजी", 6), "फिजी  ");
    }
}

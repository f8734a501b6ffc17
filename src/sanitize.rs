//! Text from a KG or a model is data: it must never drive the terminal.

/// Removes ANSI escape sequences and control characters (keeping `\n` and `\t` when
/// `keep_newlines` is set), so a KG label or a model answer cannot move the cursor,
/// change colours, set the window title or ring the bell.
pub fn clean(text: &str, keep_newlines: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => skip_escape(&mut chars),
            // C1 control introducer for CSI: treat like ESC [.
            '\u{9b}' => skip_csi(&mut chars),
            '\n' | '\t' if keep_newlines => out.push(c),
            '\n' | '\t' | '\r' => out.push(' '),
            c if c.is_control() => {}
            // Bidi overrides can visually reorder a line; drop them.
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {}
            c => out.push(c),
        }
    }
    out
}

/// One line of text for a table cell or a status line.
pub fn line(text: &str) -> String {
    clean(text, false)
}

fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match chars.peek().copied() {
        Some('[') => {
            chars.next();
            skip_csi(chars);
        }
        // OSC, DCS, SOS, PM, APC: run until BEL or ST (ESC \).
        Some(']') | Some('P') | Some('X') | Some('^') | Some('_') => {
            chars.next();
            while let Some(c) = chars.next() {
                if c == '\u{7}' {
                    break;
                }
                if c == '\u{1b}' {
                    if chars.peek() == Some(&'\\') {
                        chars.next();
                    }
                    break;
                }
            }
        }
        // Two-character sequences such as ESC c (reset) or ESC 7.
        Some(_) => {
            chars.next();
        }
        None => {}
    }
}

fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    // Parameters and intermediates, then one final byte in 0x40..=0x7e.
    for c in chars.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_csi_osc_and_controls() {
        let evil = "Par\u{1b}[2J\u{1b}[31mis\u{1b}]0;pwned\u{7} \u{7}ok\u{1b}c\r\n";
        assert_eq!(line(evil), "Paris ok  ");
        assert_eq!(clean("a\nb\u{0}", true), "a\nb");
    }

    #[test]
    fn keeps_unicode_text() {
        assert_eq!(line("Zürich – 東京"), "Zürich – 東京");
    }
}

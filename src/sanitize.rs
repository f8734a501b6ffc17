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

/// Code points that change how a terminal shows what follows without being visible
/// themselves: C1 controls (U+0080–U+009F; U+009B alone starts an escape sequence on some
/// terminals) and the bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069),
/// which can make a line read differently from what it says.
pub fn is_invisible_control(c: char) -> bool {
    matches!(c, '\u{80}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Text for a terminal that keeps every character's identity: controls other than `\n` and
/// `\t` (escape sequences included) and the code points of [`is_invisible_control`] are
/// written as `\u{..}`, so a reader sees that they were there and the terminal does not obey
/// them. For messages and logs; [`clean`] drops them instead, for screens.
pub fn escape(text: &str) -> String {
    escape_where(text, |c| {
        (c.is_control() && c != '\n' && c != '\t') || is_invisible_control(c)
    })
}

/// `text` with every character for which `escaped` holds written as `\u{..}`.
pub fn escape_where(text: &str, escaped: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if escaped(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// serde_json's formatter, plus `\uXXXX` escapes for DEL and the code points of
/// [`is_invisible_control`]: the JSON stays equal to serde_json's (a parser reads the same
/// strings back) but no longer drives a terminal that shows it. serde_json already escapes
/// C0 controls.
struct TerminalSafe<F>(F);

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for TerminalSafe<F> {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            if c == '\u{7f}' || is_invisible_control(c) {
                self.0.write_string_fragment(w, &fragment[start..i])?;
                write!(w, "\\u{:04x}", c as u32)?;
                start = i + c.len_utf8();
            }
        }
        self.0.write_string_fragment(w, &fragment[start..])
    }

    // Everything else is the wrapped formatter's (compact or pretty layout).
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Writes `value` as one line of JSON (compact) that is safe to show on a terminal.
pub fn write_json<W: std::io::Write, T: serde::Serialize + ?Sized>(
    w: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut ser =
        serde_json::Serializer::with_formatter(w, TerminalSafe(serde_json::ser::CompactFormatter));
    value.serialize(&mut ser)
}

/// `value` as pretty JSON that is safe to show on a terminal.
pub fn json_pretty<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(
        &mut buf,
        TerminalSafe(serde_json::ser::PrettyFormatter::new()),
    );
    value.serialize(&mut ser)?;
    Ok(String::from_utf8(buf).expect("serde_json writes UTF-8"))
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
    fn escape_shows_controls_and_bidi_instead_of_obeying_them() {
        let evil = "a\u{1b}[31mb\u{9b}c\u{202e}d\u{2066}e\r\nf\tg\u{85}";
        assert_eq!(
            escape(evil),
            "a\\u{1b}[31mb\\u{9b}c\\u{202e}d\\u{2066}e\\u{d}\nf\tg\\u{85}"
        );
        assert_eq!(escape("Zürich – 東京"), "Zürich – 東京");
        // Screens drop the same code points.
        assert_eq!(line("c\u{202e}d\u{85}e\u{2069}"), "cde");
    }

    #[test]
    fn json_escapes_c1_and_bidi_and_stays_lossless() {
        let v = serde_json::json!({"label": "x\u{202e}y\u{9b}2J\u{7f}\u{1b}z\u{2069} – 東京"});
        let mut compact = Vec::new();
        write_json(&mut compact, &v).unwrap();
        let compact = String::from_utf8(compact).unwrap();
        assert_eq!(
            compact,
            r#"{"label":"x\u202ey\u009b2J\u007f\u001bz\u2069 – 東京"}"#
        );
        let pretty = json_pretty(&v).unwrap();
        for text in [&compact, &pretty] {
            assert!(!text
                .chars()
                .any(|c| c.is_control() && c != '\n' || is_invisible_control(c)));
            let back: serde_json::Value = serde_json::from_str(text).unwrap();
            assert_eq!(back, v, "lossless");
        }
    }

    #[test]
    fn keeps_unicode_text() {
        assert_eq!(line("Zürich – 東京"), "Zürich – 東京");
    }
}

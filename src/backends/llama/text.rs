//! Turning sampled tokens into text: incremental UTF-8 decoding and stop-string handling.

/// Decodes a byte stream into UTF-8 text piece by piece. Bytes of a character split across two
/// tokens are buffered until the character is complete; invalid bytes become U+FFFD.
#[derive(Debug, Default)]
pub(crate) struct Utf8Decoder {
    pending: Vec<u8>,
}

impl Utf8Decoder {
    /// Adds bytes and returns all text that is complete so far.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let mut out = String::new();
        loop {
            match std::str::from_utf8(&self.pending) {
                Ok(s) => {
                    out.push_str(s);
                    self.pending.clear();
                    return out;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    // SAFETY-free: `valid_up_to` bytes are valid UTF-8 by definition.
                    out.push_str(std::str::from_utf8(&self.pending[..valid]).unwrap_or_default());
                    match e.error_len() {
                        // An incomplete character at the end: keep it for the next token.
                        None => {
                            self.pending.drain(..valid);
                            return out;
                        }
                        Some(bad) => {
                            out.push(char::REPLACEMENT_CHARACTER);
                            self.pending.drain(..valid + bad);
                        }
                    }
                }
            }
        }
    }

    /// Returns whatever is still buffered (an incomplete character at the very end becomes
    /// U+FFFD) and empties the buffer.
    pub(crate) fn finish(&mut self) -> String {
        let out = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        out
    }
}

/// What [`StopText::push`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Scan {
    /// No stop string yet: this text may be emitted (possibly empty: a tail that could be the
    /// start of a stop string is held back).
    Emit(String),
    /// A stop string was completed: emit this last text and stop. The stop string and anything
    /// after it are dropped from the final text.
    Stop(String),
}

/// Accumulates generated text, detects stop strings and decides how much text is safe to emit.
#[derive(Debug)]
pub(crate) struct StopText {
    stops: Vec<String>,
    text: String,
    /// Bytes of `text` already handed out.
    emitted: usize,
}

impl StopText {
    pub(crate) fn new(stops: &[String]) -> Self {
        Self {
            stops: stops.iter().filter(|s| !s.is_empty()).cloned().collect(),
            text: String::new(),
            emitted: 0,
        }
    }

    /// Appends a decoded piece and returns what may be emitted now.
    pub(crate) fn push(&mut self, piece: &str) -> Scan {
        self.text.push_str(piece);
        // A stop string can only begin in the part not emitted yet: anything emitted was not
        // the start of a stop string (the held-back tail covers every such start).
        let region = &self.text[self.emitted..];
        let hit = self
            .stops
            .iter()
            .filter_map(|s| region.find(s.as_str()))
            .min();
        if let Some(at) = hit {
            let cut = self.emitted + at;
            let out = self.text[self.emitted..cut].to_string();
            self.text.truncate(cut);
            self.emitted = cut;
            return Scan::Stop(out);
        }
        let end = self.text.len() - self.held_len();
        let out = self.text[self.emitted..end].to_string();
        self.emitted = end;
        Scan::Emit(out)
    }

    /// Emits the held-back tail (generation ended without completing a stop string).
    pub(crate) fn finish(&mut self) -> String {
        let out = self.text[self.emitted..].to_string();
        self.emitted = self.text.len();
        out
    }

    /// The whole text so far (without any stop string).
    pub(crate) fn text(&self) -> &str {
        &self.text
    }

    /// Length of the longest suffix of the unemitted text that is a proper prefix of a stop
    /// string.
    fn held_len(&self) -> usize {
        let avail = self.text.len() - self.emitted;
        let mut best = 0;
        for stop in &self.stops {
            for k in (1..stop.len().min(avail + 1)).rev() {
                if k <= best {
                    break;
                }
                if stop.is_char_boundary(k) && self.text.ends_with(&stop[..k]) {
                    best = k;
                    break;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_split_across_pieces() {
        let mut d = Utf8Decoder::default();
        let bytes = "é€😀".as_bytes();
        let mut out = String::new();
        for b in bytes {
            out.push_str(&d.push(std::slice::from_ref(b)));
        }
        out.push_str(&d.finish());
        assert_eq!(out, "é€😀");
    }

    #[test]
    fn utf8_invalid_bytes_are_replaced() {
        let mut d = Utf8Decoder::default();
        assert_eq!(d.push(b"a\xffb"), "a\u{FFFD}b");
        assert_eq!(d.push(b"\xe2\x82"), "");
        assert_eq!(d.finish(), "\u{FFFD}");
    }

    fn run(stops: &[&str], pieces: &[&str]) -> (Vec<String>, String, bool) {
        let stops: Vec<String> = stops.iter().map(|s| s.to_string()).collect();
        let mut s = StopText::new(&stops);
        let mut out = Vec::new();
        for p in pieces {
            match s.push(p) {
                Scan::Emit(e) => out.push(e),
                Scan::Stop(e) => {
                    out.push(e);
                    return (out, s.text().to_string(), true);
                }
            }
        }
        out.push(s.finish());
        (out, s.text().to_string(), false)
    }

    #[test]
    fn stop_split_over_pieces_is_held_back() {
        let (out, text, stopped) = run(&["\n\n"], &[" Yes", "\n", "\nInput"]);
        assert!(stopped);
        assert_eq!(text, " Yes");
        assert_eq!(out.concat(), " Yes");
        // The single newline was never emitted.
        assert_eq!(out, vec![" Yes", "", ""]);
    }

    #[test]
    fn held_tail_is_released_when_not_a_stop() {
        let (out, text, stopped) = run(&["\n\n"], &["a", "\n", "b"]);
        assert!(!stopped);
        assert_eq!(text, "a\nb");
        assert_eq!(out, vec!["a", "", "\nb", ""]);
    }

    #[test]
    fn earliest_stop_wins_and_tail_flushes() {
        let (out, text, stopped) = run(&["END", "N"], &["xxEN", "D"]);
        assert!(stopped);
        assert_eq!(text, "xxE");
        assert_eq!(out.concat(), "xxE");
        let (out, text, stopped) = run(&["abc"], &["zab"]);
        assert!(!stopped);
        assert_eq!(text, "zab");
        assert_eq!(out, vec!["z", "ab"]);
    }

    #[test]
    fn no_stops_emits_everything() {
        let (out, text, _) = run(&[""], &["a", "b"]);
        assert_eq!(out, vec!["a", "b", ""]);
        assert_eq!(text, "ab");
    }
}

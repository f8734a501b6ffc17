//! A small incremental parser for `text/event-stream` (Server-Sent Events).
//!
//! Bytes are fed as they arrive from the network, in pieces of any size: a line, a field name or a
//! UTF-8 character may be split between two pieces. Lines end with LF, CRLF or a lone CR (a CR at
//! the very end of a piece waits for the next piece to see whether an LF follows). Lines starting
//! with `:` are comments. Only the `data` and `event` fields are kept; `id` and `retry` matter for
//! browser reconnection, which an API client does not do.

/// One dispatched event: the joined `data:` lines (joined with `\n`) and the `event:` name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    pub event: Option<String>,
    pub data: String,
}

#[derive(Debug, Default)]
pub struct SseParser {
    /// Bytes of the current, unfinished line.
    line: Vec<u8>,
    /// The previous piece ended with CR: an LF at the start of the next piece belongs to it.
    after_cr: bool,
    /// Data of the event being assembled.
    data: Vec<u8>,
    /// A `data` field was seen for this event (its value may be empty).
    has_data: bool,
    event: Option<String>,
}

impl SseParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds the next piece of the stream; returns the events it completed, in order.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        let mut rest = bytes;
        if self.after_cr {
            self.after_cr = false;
            if let Some(b'\n') = rest.first() {
                rest = &rest[1..];
            }
        }
        while !rest.is_empty() {
            match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
                None => {
                    self.line.extend_from_slice(rest);
                    break;
                }
                Some(i) => {
                    self.line.extend_from_slice(&rest[..i]);
                    let terminator = rest[i];
                    rest = &rest[i + 1..];
                    if terminator == b'\r' {
                        match rest.first() {
                            Some(b'\n') => rest = &rest[1..],
                            Some(_) => {}
                            None => self.after_cr = true,
                        }
                    }
                    let line = std::mem::take(&mut self.line);
                    self.process_line(&line, &mut out);
                }
            }
        }
        out
    }

    /// The stream ended: a last line without terminator and an event without the closing blank
    /// line are still delivered (some servers omit the final blank line).
    pub fn finish(&mut self) -> Option<SseEvent> {
        let mut out = Vec::new();
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.process_line(&line, &mut out);
        }
        self.process_line(b"", &mut out);
        out.pop()
    }

    fn process_line(&mut self, line: &[u8], out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            if self.has_data {
                out.push(SseEvent {
                    event: self.event.take(),
                    data: String::from_utf8_lossy(&self.data).into_owned(),
                });
            }
            self.data.clear();
            self.has_data = false;
            self.event = None;
            return;
        }
        if line[0] == b':' {
            return; // comment
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(i) => {
                let value = &line[i + 1..];
                (&line[..i], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        match field {
            b"data" => {
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            b"event" => self.event = Some(String::from_utf8_lossy(value).into_owned()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_in_pieces(input: &[u8], piece: usize) -> Vec<SseEvent> {
        let mut p = SseParser::new();
        let mut out = Vec::new();
        for chunk in input.chunks(piece) {
            out.extend(p.feed(chunk));
        }
        out.extend(p.finish());
        out
    }

    fn data(events: &[SseEvent]) -> Vec<&str> {
        events.iter().map(|e| e.data.as_str()).collect()
    }

    #[test]
    fn any_split_gives_the_same_events() {
        let input =
            ": keep-alive\r\n\r\ndata: {\"a\":\"h\u{e9}llo \u{65e5}\u{672c} \u{1f600}\"}\r\n\r\n\
                     event: x\ndata:no-space\n\ndata: one\rdata: two\r\rdata: [DONE]\n\n"
                .as_bytes();
        let want = vec![
            "{\"a\":\"h\u{e9}llo \u{65e5}\u{672c} \u{1f600}\"}",
            "no-space",
            "one\ntwo",
            "[DONE]",
        ];
        for piece in 1..=input.len() {
            let events = parse_in_pieces(input, piece);
            assert_eq!(data(&events), want, "piece size {piece}");
            assert_eq!(events[1].event.as_deref(), Some("x"));
            assert_eq!(events[0].event, None);
        }
    }

    #[test]
    fn empty_data_lines_and_missing_final_blank_line() {
        let events = parse_in_pieces(b"data:\ndata:\n\nid: 3\nretry: 5\n\ndata: last", 3);
        assert_eq!(data(&events), vec!["\n", "last"]);
    }

    #[test]
    fn crlf_split_between_pieces_is_one_line_end() {
        let mut p = SseParser::new();
        assert!(p.feed(b"data: a\r").is_empty());
        assert!(p.feed(b"\ndata: b\r").is_empty());
        let ev = p.feed(b"\n\r\n");
        assert_eq!(data(&ev), vec!["a\nb"]);
        assert_eq!(p.finish(), None);
    }
}

//! Which XML elements are still open at the end of an RDF/XML file.
//!
//! oxrdfxml stops at the end of its input without checking that every element was closed, so
//! a file cut short (inside an element, or missing only `</rdf:RDF>`) parses "fine" and loses
//! whatever followed the cut without a word. [`OpenElements`] follows the bytes the parser
//! reads, through [`Tracked`], and says at the end which elements were never closed. It reads
//! tags only (start, end and empty tags, comments, CDATA, processing instructions, the
//! DOCTYPE and its internal subset, quoted attribute values): whether the XML is otherwise
//! well formed is the parser's business.

use std::io::Read;
use std::sync::{Arc, Mutex};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Text,
    /// Just after `<`.
    Open,
    /// In a start tag's name (collected), then among its attributes.
    StartName,
    StartAttrs {
        quote: Option<u8>,
        slash: bool,
    },
    /// In an end tag, up to `>`.
    End,
    /// After `<!`: which construct follows is told by the next bytes (kept in `bang`).
    Bang,
    /// Inside `<!-- … -->`, `<![CDATA[ … ]]>`, `<? … ?>`: `matched` bytes of the terminator
    /// seen.
    Until {
        term: &'static [u8],
        matched: usize,
    },
    /// Inside `<!DOCTYPE …>` (or another declaration): brackets of the internal subset and
    /// quotes nest.
    Decl {
        brackets: u32,
        quote: Option<u8>,
    },
}

/// The elements open so far, fed byte by byte.
#[derive(Debug)]
pub struct OpenElements {
    state: State,
    /// Names of the open elements, outermost first.
    stack: Vec<String>,
    name: Vec<u8>,
    bang: Vec<u8>,
}

impl Default for OpenElements {
    fn default() -> Self {
        Self {
            state: State::Text,
            stack: vec![],
            name: vec![],
            bang: vec![],
        }
    }
}

impl OpenElements {
    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }

    fn byte(&mut self, b: u8) {
        self.state = match self.state {
            State::Text if b == b'<' => State::Open,
            State::Text => State::Text,
            State::Open => match b {
                b'/' => State::End,
                b'?' => State::Until {
                    term: b"?>",
                    matched: 0,
                },
                b'!' => {
                    self.bang.clear();
                    State::Bang
                }
                _ => {
                    self.name.clear();
                    self.name.push(b);
                    State::StartName
                }
            },
            State::StartName => match b {
                b'>' => self.start_tag_closed(false),
                b'/' => State::StartAttrs {
                    quote: None,
                    slash: true,
                },
                b if b.is_ascii_whitespace() => State::StartAttrs {
                    quote: None,
                    slash: false,
                },
                _ => {
                    // Names are short; a runaway one is cut, not grown without bound.
                    if self.name.len() < 256 {
                        self.name.push(b);
                    }
                    State::StartName
                }
            },
            State::StartAttrs {
                quote: Some(q),
                slash,
            } => State::StartAttrs {
                quote: (b != q).then_some(q),
                slash,
            },
            State::StartAttrs { quote: None, slash } => match b {
                b'>' => self.start_tag_closed(slash),
                b'"' | b'\'' => State::StartAttrs {
                    quote: Some(b),
                    slash: false,
                },
                b'/' => State::StartAttrs {
                    quote: None,
                    slash: true,
                },
                b if b.is_ascii_whitespace() => State::StartAttrs { quote: None, slash },
                _ => State::StartAttrs {
                    quote: None,
                    slash: false,
                },
            },
            State::End if b == b'>' => {
                self.stack.pop();
                State::Text
            }
            State::End => State::End,
            State::Bang => {
                self.bang.push(b);
                if self.bang == b"--" {
                    State::Until {
                        term: b"-->",
                        matched: 0,
                    }
                } else if self.bang == b"[CDATA[" {
                    State::Until {
                        term: b"]]>",
                        matched: 0,
                    }
                } else if b"--".starts_with(&self.bang) || b"[CDATA[".starts_with(&self.bang) {
                    State::Bang
                } else {
                    // A declaration: its bytes so far hold no bracket or quote that matters
                    // (they start with neither `--` nor `[CDATA[`), except the last one.
                    self.decl(Decl::default(), b)
                }
            }
            State::Until { term, matched } => {
                let matched = if b == term[matched] {
                    matched + 1
                } else if matched == 2 && term[0] == term[1] && b == term[0] {
                    // `]]]>`: a third `]` keeps the last two as the terminator's start.
                    2
                } else if b == term[0] {
                    1
                } else {
                    0
                };
                if matched == term.len() {
                    State::Text
                } else {
                    State::Until { term, matched }
                }
            }
            State::Decl { brackets, quote } => self.decl(Decl { brackets, quote }, b),
        };
    }

    fn decl(&mut self, d: Decl, b: u8) -> State {
        let Decl { brackets, quote } = d;
        match (quote, b) {
            (Some(q), b) => State::Decl {
                brackets,
                quote: (b != q).then_some(q),
            },
            (None, b'"' | b'\'') => State::Decl {
                brackets,
                quote: Some(b),
            },
            (None, b'[') => State::Decl {
                brackets: brackets + 1,
                quote,
            },
            (None, b']') => State::Decl {
                brackets: brackets.saturating_sub(1),
                quote,
            },
            (None, b'>') if brackets == 0 => State::Text,
            _ => State::Decl { brackets, quote },
        }
    }

    fn start_tag_closed(&mut self, empty: bool) -> State {
        if !empty {
            self.stack
                .push(String::from_utf8_lossy(&self.name).into_owned());
        }
        State::Text
    }

    /// What is unfinished at the end of the input: `None` when every element was closed and
    /// no tag was cut.
    pub fn unfinished(&self) -> Option<String> {
        let cut = match self.state {
            State::Text => None,
            State::Until { term, .. } if term == b"-->" => Some("inside a comment"),
            State::Until { term, .. } if term == b"]]>" => Some("inside a CDATA section"),
            State::Until { .. } => Some("inside a processing instruction"),
            State::Decl { .. } | State::Bang => Some("inside a declaration"),
            _ => Some("inside a tag"),
        };
        let open = self.stack.last().map(|inner| {
            let more = self.stack.len() - 1;
            format!(
                "before </{}>{}",
                crate::sanitize::line(inner),
                match more {
                    0 => String::new(),
                    1 => " and 1 more closing tag".into(),
                    n => format!(" and {n} more closing tags"),
                }
            )
        });
        match (cut, open) {
            (None, None) => None,
            (cut, open) => Some(format!(
                "the file ends {}: it was cut short, and what followed is missing",
                [cut.map(String::from), open]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
}

#[derive(Default)]
struct Decl {
    brackets: u32,
    quote: Option<u8>,
}

/// A reader that shows every byte it hands out to an [`OpenElements`].
pub struct Tracked<R> {
    pub inner: R,
    pub open: Arc<Mutex<OpenElements>>,
}

impl<R: Read> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Ok(mut open) = self.open.lock() {
            open.feed(&buf[..n]);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unfinished(xml: &str) -> Option<String> {
        let mut o = OpenElements::default();
        o.feed(xml.as_bytes());
        o.unfinished()
    }

    const WHOLE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE rdf:RDF [ <!ENTITY ex "http://example.org/"> <!ENTITY q 'a > b [c]'> ]>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/">
  <!-- a comment with <tags> and "quotes' -->
  <rdf:Description rdf:about="http://example.org/a?x=1>2">
    <ex:name xml:lang='en'>A &amp; <![CDATA[ <not-a-tag> ]]]></ex:name>
    <ex:knows rdf:resource="http://example.org/b"/>
    <ex:empty rdf:resource="x" />
    <?pi <inside> ?>
  </rdf:Description>
</rdf:RDF>
"#;

    #[test]
    fn a_whole_file_leaves_nothing_open() {
        assert_eq!(unfinished(WHOLE), None);
        // Fed in pieces of any size: the same.
        for size in [1, 2, 3, 7, 64] {
            let mut o = OpenElements::default();
            for chunk in WHOLE.as_bytes().chunks(size) {
                o.feed(chunk);
            }
            assert_eq!(o.unfinished(), None, "chunks of {size}");
        }
    }

    #[test]
    fn every_cut_of_a_file_is_seen() {
        // From inside the root element's start tag on (a cut in the prolog leaves no element
        // at all, and so no statement to lose).
        let end = WHOLE.trim_end().len();
        for cut in WHOLE.find("<rdf:RDF").unwrap() + 2..end {
            if !WHOLE.is_char_boundary(cut) {
                continue;
            }
            let said = unfinished(&WHOLE[..cut]);
            assert!(said.is_some(), "cut at {cut} unseen: {:?}", &WHOLE[..cut]);
        }
    }

    #[test]
    fn the_message_names_the_innermost_open_element() {
        let without_root = WHOLE.trim_end().trim_end_matches("</rdf:RDF>");
        assert_eq!(
            unfinished(without_root).unwrap(),
            "the file ends before </rdf:RDF>: it was cut short, and what followed is missing"
        );
        let mid = &WHOLE[..WHOLE.find("A &amp;").unwrap()];
        assert_eq!(
            unfinished(mid).unwrap(),
            "the file ends before </ex:name> and 2 more closing tags: it was cut short, and what \
             followed is missing"
        );
        let in_tag = &WHOLE[..WHOLE.find("rdf:resource=\"http://example.org/b").unwrap()];
        assert!(unfinished(in_tag)
            .unwrap()
            .starts_with("the file ends inside a tag, before </rdf:Description>"));
    }
}

//! What a method has to show beyond the views every method shares (KGLens' sampler between
//! iterations, a KG-FPQ question's premise, a staged method's settings), in terms any front end
//! draws: lines of text with a role, no terminal types. The TUI draws them; the text is
//! sanitised where it is drawn, as all KG and model text is.

/// A titled box of lines (Live's side panel).
#[derive(Debug, Clone, PartialEq)]
pub struct Panel {
    pub title: String,
    pub lines: Vec<PanelLine>,
}

/// How a line's text stands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mark {
    #[default]
    Plain,
    /// Drawn in the accent colour: what the line is about.
    Accent,
    /// Drawn in the colour of wrong answers: where the model is weak.
    Alarm,
    /// Drawn dim: an explanation.
    Dim,
}

/// One line of a panel or of a drill-down.
#[derive(Debug, Clone, PartialEq)]
pub enum PanelLine {
    /// A headline, and a dim note after it.
    Title { text: String, note: String },
    /// A key and its value, as the drill-down's other fields are drawn; `note` follows dim.
    Field {
        key: String,
        value: String,
        note: String,
        mark: Mark,
    },
    /// A line of text.
    Text { text: String, mark: Mark },
    /// A series of rates in [0, 1], oldest first, drawn as a sparkline after its name and its
    /// latest value (as many of the newest points as fit).
    Curve {
        name: String,
        now: f64,
        values: Vec<f64>,
    },
}

impl PanelLine {
    pub fn field(key: impl Into<String>, value: impl Into<String>) -> Self {
        PanelLine::Field {
            key: key.into(),
            value: value.into(),
            note: String::new(),
            mark: Mark::Plain,
        }
    }

    /// The same field with a note after its value.
    pub fn noted(self, note: impl Into<String>) -> Self {
        match self {
            PanelLine::Field {
                key, value, mark, ..
            } => PanelLine::Field {
                key,
                value,
                note: note.into(),
                mark,
            },
            other => other,
        }
    }

    /// The same line drawn with `mark`.
    pub fn marked(self, mark: Mark) -> Self {
        match self {
            PanelLine::Field {
                key, value, note, ..
            } => PanelLine::Field {
                key,
                value,
                note,
                mark,
            },
            PanelLine::Text { text, .. } => PanelLine::Text { text, mark },
            other => other,
        }
    }

    pub fn text(text: impl Into<String>) -> Self {
        PanelLine::Text {
            text: text.into(),
            mark: Mark::Plain,
        }
    }
}

/// "s" after a count other than one.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

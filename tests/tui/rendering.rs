//! Rendering (issue 26 §5): complex scripts within their borders and gone from the next
//! screen, the answer kept on Live's long questions, the welcome pane's note whole at 80×24.

use super::*;
use kgscope::tui::app::LiveRow;
use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::{Buffer, Cell as BufCell};
use ratatui::layout::{Position, Size};
use unicode_width::UnicodeWidthChar;

/// A terminal that lays text out as xterm, VTE and tmux do: every code point takes its own
/// `wcwidth` columns (a zero-width one joins the cell before it), whatever cluster it was sent
/// in, and the cursor moves only when the next cell sent is not the one after the last (as
/// ratatui's crossterm backend moves it). What ends up on its grid is what a user sees.
struct CodepointTerminal {
    size: Size,
    grid: Vec<Vec<String>>,
    last: Option<(u16, u16)>,
    cursor: (u16, u16),
}

impl CodepointTerminal {
    fn new(w: u16, h: u16) -> Self {
        Self {
            size: Size::new(w, h),
            grid: vec![vec![" ".to_string(); w as usize]; h as usize],
            last: None,
            cursor: (0, 0),
        }
    }

    /// Writes one column's text at the cursor: a wide character's second column is "".
    fn put(&mut self, c: char) {
        let (x, y) = (self.cursor.0 as usize, self.cursor.1 as usize);
        let w = c.width().unwrap_or(0);
        let row = &mut self.grid[y];
        if w == 0 {
            if x > 0 {
                row[x - 1].push(c);
            }
            return;
        }
        for col in x..(x + w).min(row.len()) {
            // Writing over half of a wide character blanks its other half.
            if row[col].is_empty() && col > 0 {
                row[col - 1] = " ".into();
            }
            if col + 1 < row.len() && row[col + 1].is_empty() {
                row[col + 1] = " ".into();
            }
        }
        if x < row.len() {
            row[x] = c.to_string();
            if w == 2 && x + 1 < row.len() {
                row[x + 1] = String::new();
            }
        }
        self.cursor.0 = (x + w).min(row.len() - 1) as u16;
    }

    /// Row `y` as a user reads it.
    fn row(&self, y: u16) -> String {
        self.grid[y as usize].concat()
    }

    fn cell(&self, x: u16, y: u16) -> &str {
        &self.grid[y as usize][x as usize]
    }
}

impl Backend for CodepointTerminal {
    type Error = std::convert::Infallible;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a BufCell)>,
    {
        for (x, y, cell) in content {
            if self.last != Some((x.wrapping_sub(1), y)) {
                self.cursor = (x, y);
            }
            for c in cell.symbol().chars() {
                self.put(c);
            }
            self.last = Some((x, y));
        }
        Ok(())
    }
    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        Ok(Position::new(self.cursor.0, self.cursor.1))
    }
    fn set_cursor_position<P: Into<Position>>(&mut self, p: P) -> Result<(), Self::Error> {
        let p = p.into();
        self.cursor = (p.x, p.y);
        self.last = None;
        Ok(())
    }
    fn clear(&mut self) -> Result<(), Self::Error> {
        for row in &mut self.grid {
            row.iter_mut().for_each(|c| *c = " ".into());
        }
        Ok(())
    }
    fn clear_region(&mut self, _: ClearType) -> Result<(), Self::Error> {
        self.clear()
    }
    fn size(&self) -> Result<Size, Self::Error> {
        Ok(self.size)
    }
    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        Ok(WindowSize {
            columns_rows: self.size,
            pixels: Size::new(0, 0),
        })
    }
    fn flush(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Row `y` of a frame as ratatui means it: each cell's symbol, the cells a wide one covers
/// left out.
fn frame_row(buf: &Buffer, y: u16) -> String {
    let mut out = String::new();
    let mut x = 0;
    while x < buf.area.width {
        let s = buf[(x, y)].symbol();
        out.push_str(s);
        x += (kgscope::display_width::width(s) as u16).max(1);
    }
    out
}

/// Draws `app` onto the terminal (after preparing the view, as the event loop does) and
/// checks that what the terminal shows is the frame, row by row; returns the frame.
fn draw_on(term: &mut Terminal<CodepointTerminal>, app: &App) -> Buffer {
    app.prepare_view();
    let frame = term.draw(|f| ui::draw(f, app)).unwrap().buffer.clone();
    for y in 0..frame.area.height {
        assert_eq!(
            term.backend().row(y),
            frame_row(&frame, y),
            "row {y} on the terminal differs from the frame"
        );
    }
    frame
}

const FIJI: &str = "https://kgscope.dev/kg/countries/entity/Fiji";

/// A run of statements about Fiji, whose aliases include "फिजी" and "रिपब्लिक ऑफ फीजी"
/// (vowel signs with a column of their own, a virama joining two consonants), open in
/// Inspect on an error about Fiji.
fn fiji_in_inspect(dir: &Path) -> App {
    let model = ModelSpec::Llama {
        path: PathBuf::from("no-model.gguf"),
    };
    let mut cfg = RunConfig::new("sample:countries", model, Task::Statement, 16);
    cfg.entities = vec![FIJI.into()];
    let run = fixture_of(cfg, dir, usize::MAX);
    let mut app = open_app(dir, &run);
    key(&mut app, KeyCode::Char('5'));
    let errors = app.error_indices().len();
    for _ in 0..errors {
        if app.inspected().unwrap().question.subject == FIJI {
            break;
        }
        key(&mut app, KeyCode::Char('n'));
    }
    let q = app.inspected().unwrap().question.clone();
    assert_eq!(q.subject, FIJI, "an error about Fiji is inspected");
    assert!(q.subject_aliases.iter().any(|a| a == "रिपब्लिक ऑफ फीजी"));
    app
}

/// The Inspect pane's frame: its top row and its left and right border columns.
fn inspect_frame(frame: &Buffer) -> (u16, u16, u16, u16) {
    let row = frame_row(frame, 1);
    assert!(row.starts_with("┌ Inspect"), "{row}");
    let right = (1..frame.area.width)
        .find(|&x| frame[(x, 1)].symbol() == "┐")
        .expect("the Inspect pane's corner");
    let bottom = (2..frame.area.height)
        .find(|&y| frame[(0, y)].symbol() == "└")
        .expect("the Inspect pane's bottom");
    (0, right, 1, bottom)
}

#[test]
fn a_devanagari_alias_in_inspect_stays_within_its_border() {
    let tmp = tempfile::tempdir().unwrap();
    let app = fiji_in_inspect(tmp.path());
    // Widths that put the aliases' clusters at every column near the border.
    for w in 80..=124 {
        let mut term = Terminal::new(CodepointTerminal::new(w, 30)).unwrap();
        let frame = draw_on(&mut term, &app);
        let (left, right, top, bottom) = inspect_frame(&frame);
        let shown = term.backend();
        let mut text = String::new();
        for y in top + 1..bottom {
            assert_eq!(shown.cell(left, y), "│", "left border, row {y} at {w}");
            assert_eq!(shown.cell(right, y), "│", "right border, row {y} at {w}");
            // Nothing spills into the next pane: its left border is the next column.
            assert_eq!(shown.cell(right + 1, y), "│", "next pane, row {y} at {w}");
            text.push_str(&shown.grid[y as usize][left as usize + 1..right as usize].concat());
        }
        for alias in ["फिजी", "रिपब्लिक ऑफ फीजी", "Fijī Gaṇarājya"]
        {
            let joined: String = text.split_whitespace().collect();
            let alias: String = alias.split_whitespace().collect();
            assert!(joined.contains(&alias), "{alias} at {w}: {text}");
        }
    }
}

/// Leaving Inspect (and moving between errors in it) leaves nothing of the aliases on the
/// terminal: the vowel signs a cluster's covered cells showed are blanked by the next frame.
#[test]
fn leaving_inspect_leaves_no_stray_marks() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = fiji_in_inspect(tmp.path());
    let devanagari = |s: &str| s.chars().any(|c| ('\u{900}'..='\u{97f}').contains(&c));
    for (w, next) in [(100, '4'), (100, '2'), (90, '1'), (120, '3')] {
        let mut term = Terminal::new(CodepointTerminal::new(w, 30)).unwrap();
        key(&mut app, KeyCode::Char('5'));
        let frame = draw_on(&mut term, &app);
        assert!(
            (0..30).any(|y| devanagari(&frame_row(&frame, y))),
            "the aliases are shown"
        );
        key(&mut app, KeyCode::Char(next));
        // draw_on checks every row against the new frame, which has no Devanagari.
        let frame = draw_on(&mut term, &app);
        let shown: String = (0..30).map(|y| term.backend().row(y)).collect();
        assert!(
            !devanagari(&shown) && !(0..30).any(|y| devanagari(&frame_row(&frame, y))),
            "stray marks after {next}:\n{}",
            (0..30)
                .map(|y| term.backend().row(y) + "\n")
                .collect::<String>()
        );
    }
}

/// Live on a very long question: the question is cut with …, the answer stays whole.
#[test]
fn live_cuts_a_long_question_and_keeps_the_answer() {
    let mut app = App::new(Theme::named("dark").unwrap(), "sample:countries", None);
    app.live.active = true;
    let long = format!(
        "Is the following statement true? {} The official language of Fiji is Fiji Hindi.",
        "Fiji, officially the Republic of Fiji, is an island country in Melanesia. ".repeat(4)
    );
    app.live.rows.push_back(LiveRow {
        qid: "q1".into(),
        prompt: long.clone(),
        text: " Yes, the statement is true.".into(),
        outcome: Some(OutcomeKind::Correct),
    });
    key(&mut app, KeyCode::Char('2'));
    for w in [80, 100, 160] {
        let s = render(&app, w, 24);
        let row = s
            .lines()
            .find(|l| l.contains("✓ Is the following"))
            .unwrap_or_else(|| panic!("the question's row at {w}:\n{s}"));
        assert!(row.contains("… ⇒ Yes, the statement is true."), "{row}");
        assert!(!row.contains("Fiji Hindi."), "the question is cut: {row}");
    }
}

/// The welcome pane at the smallest terminal kgscope draws: the note that the bundled model
/// is a smoke test and the commands for a better one, whole, each command on one line.
#[test]
fn the_welcome_note_and_its_commands_are_whole_at_80x24() {
    use kgscope::tui::screens::explore::BETTER_MODEL;
    let tmp = tempfile::tempdir().unwrap();
    for model in [None, Some("default".to_string())] {
        let app = build_app(&Options {
            kg: "sample:countries".into(),
            model: model.clone(),
            runs_dir: tmp.path().to_path_buf(),
            theme: "dark".into(),
            api_key_env: "OPENAI_API_KEY".into(),
            ..Default::default()
        })
        .unwrap();
        let s = render(&app, 80, 24);
        let pane: Vec<String> = s
            .lines()
            .map(|l| {
                let start = l.find("│").map_or(0, |i| i + "│".len());
                let rest = &l[start..];
                let rest = rest.find("│").map_or(rest, |i| &rest[i + "│".len()..]);
                rest.trim_end_matches(['│', ' '])
                    .trim_start_matches('│')
                    .to_string()
            })
            .collect();
        let text = pane.join(" ");
        let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        for want in [
            format!(
                "The bundled {} is a smoke test",
                kgscope::models::registry::DEFAULT_NAME
            ),
            "--model openai:NAME --base-url URL".to_string(),
        ] {
            assert!(
                words(&text).contains(&want),
                "{want:?} with {model:?}:\n{s}"
            );
        }
        for cmd in [
            format!("kgscope model fetch {BETTER_MODEL}"),
            format!("kgscope --model {BETTER_MODEL}"),
        ] {
            assert!(
                pane.iter().any(|l| l.trim() == cmd),
                "{cmd:?} whole on one line with {model:?}:\n{s}"
            );
        }
    }
}

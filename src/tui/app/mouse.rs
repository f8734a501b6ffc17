//! The mouse: tabs, rows, the wheel.

use super::*;
use ratatui::layout::Rect;

/// Where the last frame drew what the mouse can click: each tab, and the rows of the list
/// on screen (with how far it was scrolled). `ui::draw` records it as it lays the frame out,
/// so a click is tested against what the user sees, never against a copy of the layout.
#[derive(Debug, Clone, Default)]
pub struct Hits {
    pub tabs: Vec<(Rect, Screen)>,
    pub list: Option<ListHit>,
}

/// A list as drawn: the rectangle of its rows, the index of the first row shown, and how
/// many items it has.
#[derive(Debug, Clone, Copy)]
pub struct ListHit {
    pub screen: Screen,
    pub rows: Rect,
    pub first: usize,
    pub len: usize,
}

impl Hits {
    /// The tab drawn at (`x`, `y`).
    pub fn tab_at(&self, x: u16, y: u16) -> Option<Screen> {
        let p = ratatui::layout::Position { x, y };
        self.tabs.iter().find(|(r, _)| r.contains(p)).map(|t| t.1)
    }

    /// The item of `screen`'s list drawn at (`x`, `y`).
    pub fn row_at(&self, screen: Screen, x: u16, y: u16) -> Option<usize> {
        let l = self.list.filter(|l| l.screen == screen)?;
        if !l.rows.contains(ratatui::layout::Position { x, y }) {
            return None;
        }
        let i = l.first + (y - l.rows.y) as usize;
        (i < l.len).then_some(i)
    }
}

impl App {
    /// Mouse: the wheel moves the selection, a click picks a tab or a row (a click on the
    /// selected error opens it), where the last frame drew them.
    pub fn on_mouse(&mut self, m: MouseEvent) {
        if self.demo.is_some() && matches!(m.kind, MouseEventKind::Down(_)) {
            self.stop_demo();
            return;
        }
        if self.help || self.typing() || self.explore.dialog.is_some() || self.demo.is_some() {
            return;
        }
        let arrow = |code| KeyEvent::new(code, KeyModifiers::NONE);
        match m.kind {
            MouseEventKind::ScrollDown => self.on_key(arrow(KeyCode::Down)),
            MouseEventKind::ScrollUp => self.on_key(arrow(KeyCode::Up)),
            MouseEventKind::Down(MouseButton::Left) => {
                let hits = self.hits.borrow().clone();
                if let Some(s) = hits.tab_at(m.column, m.row) {
                    self.go_to(s);
                    return;
                }
                let Some(i) = hits.row_at(self.screen, m.column, m.row) else {
                    return;
                };
                match self.screen {
                    Screen::Explore => self.select_explore(i),
                    Screen::Errors if i == self.errors.selected => {
                        self.on_key(arrow(KeyCode::Enter))
                    }
                    Screen::Errors => self.errors.selected = i,
                    Screen::Judge => self.judge.selected = i,
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_click_finds_the_tab_and_the_row_drawn_there() {
        let hits = Hits {
            tabs: vec![
                (Rect::new(9, 0, 11, 1), Screen::Explore),
                (Rect::new(20, 0, 8, 1), Screen::Live),
            ],
            list: Some(ListHit {
                screen: Screen::Errors,
                rows: Rect::new(1, 5, 40, 10),
                first: 5,
                len: 8,
            }),
        };
        assert_eq!(hits.tab_at(8, 0), None);
        assert_eq!(hits.tab_at(9, 0), Some(Screen::Explore));
        assert_eq!(hits.tab_at(19, 0), Some(Screen::Explore));
        assert_eq!(hits.tab_at(20, 0), Some(Screen::Live));
        assert_eq!(hits.tab_at(9, 1), None);
        // The list starts at line 5, scrolled past 5 items: line 5 is item 5.
        assert_eq!(hits.row_at(Screen::Errors, 3, 5), Some(5));
        assert_eq!(hits.row_at(Screen::Errors, 3, 7), Some(7));
        assert_eq!(
            hits.row_at(Screen::Errors, 3, 8),
            None,
            "past the end of the list"
        );
        assert_eq!(hits.row_at(Screen::Errors, 3, 4), None, "above the list");
        assert_eq!(hits.row_at(Screen::Errors, 41, 6), None, "beside the list");
        assert_eq!(
            hits.row_at(Screen::Explore, 3, 6),
            None,
            "another screen's list"
        );
    }
}

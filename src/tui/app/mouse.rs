//! The mouse: tabs, rows, the wheel.

use super::*;

/// Width of the " kgscope " title before the tabs, as `ui` draws it.
pub(super) const TABS_START: u16 = 9;

/// The tab drawn at column `x` of the top line.
pub fn tab_at(x: u16) -> Option<Screen> {
    let mut start = TABS_START;
    for s in Screen::ALL {
        let w = s.title().len() as u16 + 4;
        if (start..start + w).contains(&x) {
            return Some(s);
        }
        start += w;
    }
    None
}

/// The list row at screen line `row`, for a list whose first line is `top`, `height` lines
/// tall, scrolled as ratatui scrolls a fresh list state to keep `selected` in view.
pub(super) fn list_row(
    row: u16,
    top: u16,
    height: u16,
    selected: usize,
    len: usize,
) -> Option<usize> {
    if row < top || row >= top + height {
        return None;
    }
    let first = (selected + 1).saturating_sub(height as usize);
    let i = first + (row - top) as usize;
    (i < len).then_some(i)
}

impl App {
    /// Mouse: the wheel moves the selection, a click picks a tab or a row (a click on the
    /// selected error opens it). `size` is the terminal's, to find the lists' rows.
    pub fn on_mouse(&mut self, m: MouseEvent, size: (u16, u16)) {
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
                if m.row == 0 {
                    if let Some(s) = tab_at(m.column) {
                        self.go_to(s);
                    }
                    return;
                }
                let (w, h) = size;
                // Body = the lines between the tab bar and the status line.
                let body_h = h.saturating_sub(2);
                match self.screen {
                    Screen::Explore if m.column < w * 38 / 100 => {
                        // Search box (3 lines), then the list's border.
                        if let Some(i) = list_row(
                            m.row,
                            5,
                            body_h.saturating_sub(5),
                            self.explore.selected,
                            self.explore.matches.len(),
                        ) {
                            self.select_explore(i);
                        }
                    }
                    Screen::Errors => {
                        let len = self.error_indices().len();
                        // The list's border, then its column names.
                        let top = 3;
                        if let Some(i) = list_row(
                            m.row,
                            top,
                            body_h.saturating_sub(3),
                            self.errors.selected,
                            len,
                        ) {
                            if i == self.errors.selected {
                                self.on_key(arrow(KeyCode::Enter));
                            } else {
                                self.errors.selected = i;
                            }
                        }
                    }
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
    fn tabs_are_found_where_ui_draws_them() {
        // " kgscope " then " 1 Explore " (11 wide) then " 2 Live ".
        assert_eq!(tab_at(8), None);
        assert_eq!(tab_at(9), Some(Screen::Explore));
        assert_eq!(tab_at(19), Some(Screen::Explore));
        assert_eq!(tab_at(20), Some(Screen::Live));
        assert_eq!(tab_at(200), None);
    }

    #[test]
    fn list_rows_follow_the_scrolled_view() {
        assert_eq!(list_row(5, 5, 10, 0, 3), Some(0));
        assert_eq!(list_row(8, 5, 10, 0, 3), None, "past the end of the list");
        assert_eq!(list_row(4, 5, 10, 0, 3), None, "above the list");
        // Selected row 14 of a 10-line view: the view starts at 5.
        assert_eq!(list_row(5, 5, 10, 14, 100), Some(5));
        assert_eq!(list_row(14, 5, 10, 14, 100), Some(14));
    }
}

//! The screens the TUI switches between, in the order of their tabs. A leaf: the keymap
//! scopes its keys by screen and the app tracks which one is shown, so this sits below both.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Explore,
    Live,
    Heatmaps,
    Errors,
    Inspect,
    Compare,
    /// Each verifier against the hand labels, and the answers to label next.
    Judge,
}

impl Screen {
    pub const ALL: [Screen; 7] = [
        Screen::Explore,
        Screen::Live,
        Screen::Heatmaps,
        Screen::Errors,
        Screen::Inspect,
        Screen::Compare,
        Screen::Judge,
    ];
    pub fn title(self) -> &'static str {
        match self {
            Screen::Explore => "Explore",
            Screen::Live => "Live",
            Screen::Heatmaps => "Heatmaps",
            Screen::Errors => "Errors",
            Screen::Inspect => "Inspect",
            Screen::Compare => "Compare",
            Screen::Judge => "Judge",
        }
    }
    /// Its place in [`Screen::ALL`]: its tab, and the digit that opens it, less one.
    pub(super) fn index(self) -> usize {
        Screen::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }
}

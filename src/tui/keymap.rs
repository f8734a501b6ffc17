//! Every key of the TUI, in one table: which key does what on which screen, and the help
//! line that says so. The screens ask [`bound`] what a key means and handle the [`Action`];
//! the help overlay is drawn from [`ROWS`]; a test holds that every action has a key and every
//! key is named on its help line. (television's `keymap.rs` + `action.rs` is the model.)
//!
//! The modes that take keys before the screens do (Explore's run dialog and search field, the
//! note editor in Inspect, Live's "cancel?") have their keys in [`MODES`]; their boxes say
//! them from there. In the search field and the note editor any key no row binds is text.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::tabs::Screen;
use crate::store::labels::{ErrorType, LabelVerdict};

/// Where a key works: on every screen, on one, or on every screen that labels an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    Anywhere,
    On(Screen),
    /// The hand-labelling keys: one set, on Inspect and Judge alike.
    Labelling,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::Anywhere => "Anywhere",
            Scope::On(s) => s.title(),
            Scope::Labelling => "Labels",
        }
    }

    /// Whether this scope's keys work in `on`: its own, and the labelling keys on the
    /// screens that label ([`LABELLING`]).
    pub fn reaches(self, on: Scope) -> bool {
        self == on
            || (self == Scope::Labelling && matches!(on, Scope::On(s) if LABELLING.contains(&s)))
    }
}

/// The screens the labelling keys work on.
pub const LABELLING: [Screen; 2] = [Screen::Inspect, Screen::Judge];

/// What a key asks for. Movement is shared by the screens that list things.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    Help,
    /// Screen number n (0-based).
    Screen(u8),
    NextScreen,
    PreviousScreen,
    SaveFigure,
    /// The run picker: open another run of the runs directory.
    OpenRun,
    /// Write the open run's labels as judge training data.
    ExportLabels,
    Down,
    Up,
    Left,
    Right,
    PageDown,
    PageUp,
    /// Explore: start typing a search.
    Search,
    /// Explore: one or two hops.
    Hops,
    /// Explore: scroll the edges; Inspect: scroll the KG facts.
    ScrollFactsDown,
    ScrollFactsUp,
    /// Explore: mark the selection; Compare: mark the run.
    Mark,
    UnmarkAll,
    /// Explore: the run dialog.
    Run,
    PauseResume,
    Cancel,
    Continue,
    NextMetric,
    NextSort,
    NextView,
    /// Heatmaps: the cell's errors; Errors, Judge: inspect the selection.
    Open,
    FilterOutcome,
    FilterLabels,
    ClearFilters,
    NextError,
    PreviousError,
    NextUnlabelled,
    TogglePrompt,
    Judge(LabelVerdict),
    WrongAs(ErrorType),
    Note,
    Undo,
    ClearLabels,
    NextGrouping,
    Reload,
    // The modes' own.
    NextTask,
    PreviousTask,
    NextContext,
    /// The run dialog: the next judge, the next question writer.
    NextJudge,
    NextWriter,
    LimitUp,
    LimitDown,
    Digit(u8),
    DeleteBack,
    /// Enter: start the run, save the note.
    Accept,
    /// Esc: close the dialog, discard the note.
    Dismiss,
    ClearSearch,
    EndSearch,
    /// Ends the search (Enter) and, on a sample of the KG, looks the text up in the whole KG;
    /// the matches pane says so on a sample.
    SearchKg,
    ConfirmCancel,
}

/// A state that takes keys before the screen does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    RunDialog,
    /// The run picker (`O`).
    RunPicker,
    Search,
    Note,
    ConfirmCancel,
}

/// One hint of a mode's box: the keys as it names them, what they do, and the bindings (a
/// key with the modifiers it needs: Ctrl-U is not `u`, which a search field takes as text).
pub struct ModeRow {
    pub mode: Mode,
    pub keys: &'static str,
    pub what: &'static str,
    pub bindings: &'static [(KeyCode, KeyModifiers, Action)],
}

/// One line of the help: the keys as it names them, what they do, and the bindings it
/// documents.
pub struct Row {
    pub scope: Scope,
    pub keys: &'static str,
    pub what: &'static str,
    pub bindings: &'static [(KeyCode, Action)],
}

use Action as A;
use KeyCode as K;

const fn on(s: Screen) -> Scope {
    Scope::On(s)
}

/// The keys, screen by screen, in the order the help shows them. Every screen's lines must
/// fit the smallest terminal (80×24) together: 22 lines, so some lines say two or three things.
pub const ROWS: &[Row] = &[
    Row {
        scope: Scope::Anywhere,
        keys: "1-7 Tab  P  X",
        what: "screens (S-Tab back) · save figure · export labels",
        bindings: &[
            (K::Char('1'), A::Screen(0)),
            (K::Char('2'), A::Screen(1)),
            (K::Char('3'), A::Screen(2)),
            (K::Char('4'), A::Screen(3)),
            (K::Char('5'), A::Screen(4)),
            (K::Char('6'), A::Screen(5)),
            (K::Char('7'), A::Screen(6)),
            (K::Tab, A::NextScreen),
            (K::BackTab, A::PreviousScreen),
            (K::Char('P'), A::SaveFigure),
            (K::Char('X'), A::ExportLabels),
        ],
    },
    Row {
        scope: Scope::Anywhere,
        keys: "?  O  q  Ctrl-C",
        what: "this help (any key closes it) · open a run · quit",
        bindings: &[
            (K::Char('?'), A::Help),
            (K::Char('O'), A::OpenRun),
            (K::Char('q'), A::Quit),
        ],
    },
    Row {
        scope: on(Screen::Explore),
        keys: "/  Ctrl-U",
        what: "search names (Enter/Esc ends) · clear the search",
        bindings: &[(K::Char('/'), A::Search)],
    },
    Row {
        scope: on(Screen::Explore),
        keys: "↑↓ j k PgUp/Dn",
        what: "select",
        bindings: &[
            (K::Down, A::Down),
            (K::Char('j'), A::Down),
            (K::Up, A::Up),
            (K::Char('k'), A::Up),
            (K::PageDown, A::PageDown),
            (K::PageUp, A::PageUp),
        ],
    },
    Row {
        scope: on(Screen::Explore),
        keys: "h  J K",
        what: "one or two hops · scroll the edges down / up",
        bindings: &[
            (K::Char('h'), A::Hops),
            (K::Char('J'), A::ScrollFactsDown),
            (K::Char('K'), A::ScrollFactsUp),
        ],
    },
    Row {
        scope: on(Screen::Explore),
        keys: "r  Space  u",
        what: "run (t task, type a limit) · mark it · unmark all",
        bindings: &[
            (K::Char('r'), A::Run),
            (K::Char(' '), A::Mark),
            (K::Char('u'), A::UnmarkAll),
        ],
    },
    Row {
        scope: on(Screen::Live),
        keys: "p Space  c  R",
        what: "pause/resume · cancel (asks) · continue a --run",
        bindings: &[
            (K::Char('p'), A::PauseResume),
            (K::Char(' '), A::PauseResume),
            (K::Char('c'), A::Cancel),
            (K::Char('R'), A::Continue),
        ],
    },
    Row {
        scope: on(Screen::Heatmaps),
        keys: "m  s  v",
        what: "next metric · sort: name, value, n · next view",
        bindings: &[
            (K::Char('m'), A::NextMetric),
            (K::Char('s'), A::NextSort),
            (K::Char('v'), A::NextView),
        ],
    },
    Row {
        scope: on(Screen::Heatmaps),
        keys: "↑↓←→ h j k l",
        what: "move",
        bindings: &[
            (K::Down, A::Down),
            (K::Char('j'), A::Down),
            (K::Up, A::Up),
            (K::Char('k'), A::Up),
            (K::Right, A::Right),
            (K::Char('l'), A::Right),
            (K::Left, A::Left),
            (K::Char('h'), A::Left),
        ],
    },
    Row {
        scope: on(Screen::Heatmaps),
        keys: "Enter",
        what: "errors of this cell",
        bindings: &[(K::Enter, A::Open)],
    },
    Row {
        scope: on(Screen::Errors),
        keys: "↑↓ j k PgUp/Dn",
        what: "select",
        bindings: &[
            (K::Down, A::Down),
            (K::Char('j'), A::Down),
            (K::Up, A::Up),
            (K::Char('k'), A::Up),
            (K::PageDown, A::PageDown),
            (K::PageUp, A::PageUp),
        ],
    },
    Row {
        scope: on(Screen::Errors),
        keys: "o  l  x  s",
        what: "filter: outcome · your labels · clear all · sort",
        bindings: &[
            (K::Char('o'), A::FilterOutcome),
            (K::Char('l'), A::FilterLabels),
            (K::Char('x'), A::ClearFilters),
            (K::Char('s'), A::NextSort),
        ],
    },
    Row {
        scope: on(Screen::Errors),
        keys: "Enter",
        what: "inspect",
        bindings: &[(K::Enter, A::Open)],
    },
    // Inspect: no labelling key moves, and no moving key labels (the labelling keys are
    // under Labelling, below).
    Row {
        scope: on(Screen::Inspect),
        keys: "n p j k ↑↓  N",
        what: "next/previous answer · next you have not labelled",
        bindings: &[
            (K::Char('n'), A::NextError),
            (K::Char('j'), A::NextError),
            (K::Down, A::NextError),
            (K::Char('p'), A::PreviousError),
            (K::Char('k'), A::PreviousError),
            (K::Up, A::PreviousError),
            (K::Char('N'), A::NextUnlabelled),
        ],
    },
    Row {
        scope: on(Screen::Inspect),
        keys: "PgUp/Dn J K  v",
        what: "scroll detail · scroll facts · unfold the prompt",
        bindings: &[
            (K::PageDown, A::PageDown),
            (K::PageUp, A::PageUp),
            (K::Char('J'), A::ScrollFactsDown),
            (K::Char('K'), A::ScrollFactsUp),
            (K::Char('v'), A::TogglePrompt),
        ],
    },
    Row {
        scope: on(Screen::Inspect),
        keys: "e  u  c",
        what: "note · undo your latest label · clear yours",
        bindings: &[
            (K::Char('e'), A::Note),
            (K::Char('u'), A::Undo),
            (K::Char('c'), A::ClearLabels),
        ],
    },
    Row {
        scope: on(Screen::Compare),
        keys: "↑↓ j k  Space",
        what: "select · mark (the first marked is the baseline)",
        bindings: &[
            (K::Down, A::Down),
            (K::Char('j'), A::Down),
            (K::Up, A::Up),
            (K::Char('k'), A::Up),
            (K::Char(' '), A::Mark),
        ],
    },
    Row {
        scope: on(Screen::Compare),
        keys: "g  r  PgUp/Dn",
        what: "grouping · read the runs again · scroll",
        bindings: &[
            (K::Char('g'), A::NextGrouping),
            (K::Char('r'), A::Reload),
            (K::PageDown, A::PageDown),
            (K::PageUp, A::PageUp),
        ],
    },
    Row {
        scope: on(Screen::Judge),
        keys: "↑↓ j k  Enter",
        what: "select an answer · inspect it · label it (below)",
        bindings: &[
            (K::Down, A::Down),
            (K::Char('j'), A::Down),
            (K::Up, A::Up),
            (K::Char('k'), A::Up),
            (K::Enter, A::Open),
        ],
    },
    // Labelling, on Inspect and Judge: no labelling key moves, and no moving key labels.
    Row {
        scope: Scope::Labelling,
        keys: "r w a b g",
        what: "right, wrong, abstained, bad question, KG wrong",
        bindings: &[
            (K::Char('r'), A::Judge(LabelVerdict::Right)),
            (K::Char('w'), A::Judge(LabelVerdict::Wrong)),
            (K::Char('a'), A::Judge(LabelVerdict::Abstained)),
            (K::Char('b'), A::Judge(LabelVerdict::BadQuestion)),
            (K::Char('g'), A::Judge(LabelVerdict::KgWrong)),
        ],
    },
    Row {
        scope: Scope::Labelling,
        keys: "f o s",
        what: "wrong as: factual error, obsolete, contradiction",
        bindings: &[
            (K::Char('f'), A::WrongAs(ErrorType::FactualError)),
            (K::Char('o'), A::WrongAs(ErrorType::ObsoleteKnowledge)),
            (K::Char('s'), A::WrongAs(ErrorType::SelfContradiction)),
        ],
    },
    Row {
        scope: Scope::Labelling,
        keys: "i x",
        what: "wrong as: inconsistent response, other",
        bindings: &[
            (K::Char('i'), A::WrongAs(ErrorType::InconsistentResponse)),
            (K::Char('x'), A::WrongAs(ErrorType::Other)),
        ],
    },
];

const NO: KeyModifiers = KeyModifiers::NONE;

/// The modes' keys. Each box draws its hints from here ([`hint`]).
pub const MODES: &[ModeRow] = &[
    ModeRow {
        mode: Mode::RunDialog,
        keys: "t / T",
        what: "next / previous",
        bindings: &[
            (K::Char('t'), NO, A::NextTask),
            (K::Char('T'), NO, A::PreviousTask),
        ],
    },
    ModeRow {
        mode: Mode::RunDialog,
        keys: "c",
        what: "cycles",
        bindings: &[(K::Char('c'), NO, A::NextContext)],
    },
    ModeRow {
        mode: Mode::RunDialog,
        keys: "j",
        what: "changes",
        bindings: &[(K::Char('j'), NO, A::NextJudge)],
    },
    ModeRow {
        mode: Mode::RunDialog,
        keys: "w",
        what: "changes",
        bindings: &[(K::Char('w'), NO, A::NextWriter)],
    },
    ModeRow {
        mode: Mode::RunDialog,
        keys: "0-9 Backspace + - ←→↑↓",
        what: "type it, or change it by 10",
        bindings: &[
            (K::Char('0'), NO, A::Digit(0)),
            (K::Char('1'), NO, A::Digit(1)),
            (K::Char('2'), NO, A::Digit(2)),
            (K::Char('3'), NO, A::Digit(3)),
            (K::Char('4'), NO, A::Digit(4)),
            (K::Char('5'), NO, A::Digit(5)),
            (K::Char('6'), NO, A::Digit(6)),
            (K::Char('7'), NO, A::Digit(7)),
            (K::Char('8'), NO, A::Digit(8)),
            (K::Char('9'), NO, A::Digit(9)),
            (K::Backspace, NO, A::DeleteBack),
            (K::Char('+'), NO, A::LimitUp),
            (K::Right, NO, A::LimitUp),
            (K::Up, NO, A::LimitUp),
            (K::Char('-'), NO, A::LimitDown),
            (K::Left, NO, A::LimitDown),
            (K::Down, NO, A::LimitDown),
        ],
    },
    ModeRow {
        mode: Mode::RunDialog,
        keys: "Enter  Esc",
        what: "starts · cancels",
        bindings: &[(K::Enter, NO, A::Accept), (K::Esc, NO, A::Dismiss)],
    },
    ModeRow {
        mode: Mode::RunPicker,
        keys: "↑↓ j k PgUp/Dn",
        what: "select",
        bindings: &[
            (K::Down, NO, A::Down),
            (K::Char('j'), NO, A::Down),
            (K::Up, NO, A::Up),
            (K::Char('k'), NO, A::Up),
            (K::PageDown, NO, A::PageDown),
            (K::PageUp, NO, A::PageUp),
        ],
    },
    ModeRow {
        mode: Mode::RunPicker,
        keys: "Enter  Esc",
        what: "opens · closes",
        bindings: &[(K::Enter, NO, A::Accept), (K::Esc, NO, A::Dismiss)],
    },
    ModeRow {
        mode: Mode::Search,
        keys: "Enter/Esc  Backspace  Ctrl-U  ↑↓",
        what: "ends · erases · clears · select",
        bindings: &[
            (K::Enter, NO, A::SearchKg),
            (K::Esc, NO, A::EndSearch),
            (K::Char('u'), KeyModifiers::CONTROL, A::ClearSearch),
            (K::Backspace, NO, A::DeleteBack),
            (K::Down, NO, A::Down),
            (K::Up, NO, A::Up),
        ],
    },
    ModeRow {
        mode: Mode::Note,
        keys: "Enter  Esc",
        what: "saves · discards",
        bindings: &[(K::Enter, NO, A::Accept), (K::Esc, NO, A::Dismiss)],
    },
    ModeRow {
        mode: Mode::ConfirmCancel,
        keys: "y",
        what: "cancels",
        bindings: &[(K::Char('y'), NO, A::ConfirmCancel)],
    },
];

/// What a key does in `mode`. A binding without modifiers takes the key without Ctrl and Alt
/// (Shift is how a terminal sends `T`); one with them needs them.
pub fn in_mode(mode: Mode, k: &KeyEvent) -> Option<Action> {
    let held = k.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
    MODES
        .iter()
        .filter(|r| r.mode == mode)
        .flat_map(|r| r.bindings)
        .find(|(code, mods, _)| *code == k.code && held == *mods)
        .map(|b| b.2)
}

/// The hint a mode's box shows for `action`, from the row that binds it: each key with what
/// it does when the row names as many keys as things ("Enter starts · Esc cancels"), else the
/// keys, then what they do ("t / T: next / previous").
pub fn hint(mode: Mode, action: Action) -> String {
    let Some(r) = MODES
        .iter()
        .find(|r| r.mode == mode && r.bindings.iter().any(|b| b.2 == action))
    else {
        return String::new();
    };
    let keys: Vec<&str> = r.keys.split_whitespace().collect();
    let whats: Vec<&str> = r.what.split(" · ").collect();
    if keys.len() == whats.len() {
        keys.iter()
            .zip(&whats)
            .map(|(k, w)| format!("{k} {w}"))
            .collect::<Vec<_>>()
            .join(" · ")
    } else {
        format!("{}: {}", r.keys, r.what)
    }
}

/// What `code` does in `scope` alone (with the labelling keys, on a screen that labels).
pub fn bound(scope: Scope, code: KeyCode) -> Option<Action> {
    ROWS.iter()
        .filter(|r| r.scope.reaches(scope))
        .flat_map(|r| r.bindings)
        .find(|(k, _)| *k == code)
        .map(|(_, a)| *a)
}

/// The key bound to `action` anywhere, as a person types it.
fn key_of(action: Action) -> Option<String> {
    ROWS.iter()
        .filter(|r| r.scope == Scope::Anywhere)
        .flat_map(|r| r.bindings)
        .find(|(_, a)| *a == action)
        .map(|(k, _)| k.to_string())
}

/// The status line's hint, from the keymap: "? keys · O runs · q quit".
pub fn footer() -> String {
    let key = |a| key_of(a).unwrap_or_default();
    format!(
        "{} keys · {} runs · {} quit",
        key(Action::Help),
        key(Action::OpenRun),
        key(Action::Quit)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a help line (`keys`, `what`) names a key: `PgUp/Dn` names both page keys, `1-6`
    /// the digits between, `Ctrl-U` the key with Control.
    fn named(keys: &str, what: &str, code: KeyCode, mods: KeyModifiers) -> bool {
        if mods.contains(KeyModifiers::CONTROL) {
            return keys.contains(&format!("Ctrl-{}", code.to_string().to_uppercase()));
        }
        let name = match code {
            K::Down => "↓",
            K::Up => "↑",
            K::Left => "←",
            K::Right => "→",
            K::PageDown => "Dn",
            K::PageUp => "PgUp",
            K::Enter => "Enter",
            K::Esc => "Esc",
            K::Backspace => "Backspace",
            K::Tab => "Tab",
            K::BackTab => return what.contains("S-Tab"),
            K::Char(' ') => "Space",
            K::Char(c) => {
                // A single key is a word of its own; a range `a-b` names those between.
                return keys.split_whitespace().any(|w| {
                    w == c.to_string()
                        || w.split_once('-').is_some_and(|(a, b)| {
                            let (a, b) = (a.chars().next(), b.chars().next());
                            a.zip(b).is_some_and(|(a, b)| a <= c && c <= b && a != b)
                        })
                });
            }
            _ => return false,
        };
        keys.contains(name)
    }

    /// Every action has a key on some screen.
    #[test]
    fn every_action_has_a_key() {
        let all: Vec<Action> = ROWS.iter().flat_map(|r| r.bindings).map(|b| b.1).collect();
        let mut expected = vec![
            A::Quit,
            A::Help,
            A::NextScreen,
            A::PreviousScreen,
            A::SaveFigure,
            A::OpenRun,
            A::ExportLabels,
            A::Down,
            A::Up,
            A::Left,
            A::Right,
            A::PageDown,
            A::PageUp,
            A::Search,
            A::Hops,
            A::ScrollFactsDown,
            A::ScrollFactsUp,
            A::Mark,
            A::UnmarkAll,
            A::Run,
            A::PauseResume,
            A::Cancel,
            A::Continue,
            A::NextMetric,
            A::NextSort,
            A::NextView,
            A::Open,
            A::FilterOutcome,
            A::FilterLabels,
            A::ClearFilters,
            A::NextError,
            A::PreviousError,
            A::NextUnlabelled,
            A::TogglePrompt,
            A::Note,
            A::Undo,
            A::ClearLabels,
            A::NextGrouping,
            A::Reload,
        ];
        expected.extend((0..Screen::ALL.len() as u8).map(A::Screen));
        expected.extend(LabelVerdict::ALL.iter().map(|v| A::Judge(*v)));
        expected.extend(
            [
                ErrorType::FactualError,
                ErrorType::ObsoleteKnowledge,
                ErrorType::SelfContradiction,
                ErrorType::InconsistentResponse,
                ErrorType::Other,
            ]
            .map(A::WrongAs),
        );
        for a in expected {
            assert!(all.contains(&a), "{a:?} has no key");
        }
    }

    /// The help fits the smallest terminal (80×24: 22 rows of 76 columns in the box), and
    /// the labelling keys label on Inspect and Judge alone.
    #[test]
    fn the_help_fits_80_by_24_and_the_labelling_keys_work_where_answers_are_labelled() {
        assert!(ROWS.len() <= 22, "{} help rows", ROWS.len());
        for r in ROWS {
            assert!(r.scope.name().chars().count() <= 8, "{:?}", r.scope.name());
            assert!(r.keys.chars().count() <= 16, "{:?} is too long", r.keys);
            assert!(r.what.chars().count() <= 50, "{:?} is too long", r.what);
        }
        for s in LABELLING {
            let right = bound(Scope::On(s), K::Char('r'));
            assert_eq!(right, Some(A::Judge(LabelVerdict::Right)), "{s:?}");
            let other = bound(Scope::On(s), K::Char('x'));
            assert_eq!(other, Some(A::WrongAs(ErrorType::Other)), "{s:?}");
        }
        assert_eq!(bound(Scope::On(Screen::Judge), K::Enter), Some(A::Open));
        assert_eq!(bound(Scope::On(Screen::Errors), K::Char('r')), None);
        assert_eq!(
            bound(Scope::On(Screen::Compare), K::Char('r')),
            Some(A::Reload)
        );
    }

    /// Every mode's key is named on its hint, and no key means two things in one mode.
    #[test]
    fn every_mode_key_is_in_its_hint_once() {
        for r in MODES {
            for (code, mods, a) in r.bindings {
                assert!(
                    named(r.keys, r.what, *code, *mods),
                    "{code:?} ({a:?}) not named in {:?}",
                    r.keys
                );
            }
        }
        for mode in [
            Mode::RunDialog,
            Mode::RunPicker,
            Mode::Search,
            Mode::Note,
            Mode::ConfirmCancel,
        ] {
            let keys: Vec<(KeyCode, KeyModifiers)> = MODES
                .iter()
                .filter(|r| r.mode == mode)
                .flat_map(|r| r.bindings)
                .map(|b| (b.0, b.1))
                .collect();
            for (i, k) in keys.iter().enumerate() {
                assert!(!keys[..i].contains(k), "{k:?} twice in {mode:?}");
            }
        }
        // Shift is how `T` arrives; Ctrl is not `u`.
        let t = KeyEvent::new(K::Char('T'), KeyModifiers::SHIFT);
        assert_eq!(in_mode(Mode::RunDialog, &t), Some(A::PreviousTask));
        let u = KeyEvent::new(K::Char('u'), KeyModifiers::NONE);
        assert_eq!(in_mode(Mode::Search, &u), None);
        let ctrl_u = KeyEvent::new(K::Char('u'), KeyModifiers::CONTROL);
        assert_eq!(in_mode(Mode::Search, &ctrl_u), Some(A::ClearSearch));
        assert_eq!(hint(Mode::RunDialog, A::NextTask), "t / T: next / previous");
        assert_eq!(hint(Mode::RunDialog, A::NextJudge), "j changes");
        let j = KeyEvent::new(K::Char('j'), KeyModifiers::NONE);
        assert_eq!(in_mode(Mode::RunDialog, &j), Some(A::NextJudge));
        let w = KeyEvent::new(K::Char('w'), KeyModifiers::NONE);
        assert_eq!(in_mode(Mode::RunDialog, &w), Some(A::NextWriter));
        assert_eq!(
            hint(Mode::RunDialog, A::Accept),
            "Enter starts · Esc cancels"
        );
        assert_eq!(hint(Mode::Note, A::Dismiss), "Enter saves · Esc discards");
        assert_eq!(hint(Mode::RunPicker, A::Accept), "Enter opens · Esc closes");
        // The picker and the export are keys of every screen, named in the footer or help.
        assert_eq!(bound(Scope::Anywhere, K::Char('O')), Some(A::OpenRun));
        assert_eq!(bound(Scope::Anywhere, K::Char('X')), Some(A::ExportLabels));
        assert!(footer().contains("O runs"), "{}", footer());
    }

    /// Every bound key is named on its help line, and no key means two things in one place.
    #[test]
    fn every_key_is_in_the_help_once() {
        for r in ROWS {
            for (code, a) in r.bindings {
                assert!(
                    named(r.keys, r.what, *code, KeyModifiers::NONE),
                    "{code:?} ({a:?}) not named in {:?}",
                    r.keys
                );
            }
        }
        let scopes = std::iter::once(Scope::Anywhere).chain(Screen::ALL.map(Scope::On));
        for scope in scopes {
            let keys: Vec<KeyCode> = ROWS
                .iter()
                .filter(|r| r.scope.reaches(scope) || r.scope == Scope::Anywhere)
                .flat_map(|r| r.bindings)
                .map(|b| b.0)
                .collect();
            for (i, k) in keys.iter().enumerate() {
                assert!(!keys[..i].contains(k), "{k:?} twice in {}", scope.name());
            }
        }
    }
}

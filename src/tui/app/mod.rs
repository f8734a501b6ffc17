//! The TUI's state and how keys and run events change it. Nothing here draws or reads the
//! terminal, so every screen's behaviour can be tested by feeding keys and events.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui_textarea::TextArea;

use super::keymap::{self, Action, Mode, Scope};
use super::kgview::{self, Card, Entry, EntryKind};
use super::theme::Theme;
use crate::kg::index::KgIndex;
pub use crate::metrics::Metric;
use crate::questions::{Question, Task};
use crate::run::{ResultRecord, RunEvent};
use crate::store::labels::{
    self, ErrorType, Label, LabelEntry, LabelVerdict, QuestionCause, Retract, Retraction,
};
use crate::verify::OutcomeKind;

pub mod cause;
pub mod compare;
pub mod demo;
pub mod demo_finding;
pub mod demo_size;
mod errors;
mod explore;
mod export;
mod figure;
mod groups;
mod heatmaps;
mod inspect;
mod judge;
mod live;
mod mouse;
mod picker;
mod rundata;
pub mod why;

pub use errors::LabelFilter;
pub use export::export_path;
pub use groups::{rankable, Cell, HeatSort, HeatView, KindFilter, SortBy, RANKABLE_WIDTH};
pub use heatmaps::HeatGrid;
pub use judge::{JudgeView, Judged};
pub use mouse::{Hits, ListHit};
pub use picker::RunPicker;
pub use rundata::{AnswerRow, RunData};

// Below the app, so that the keymap and the runner need not reach up into it; still the app's
// own words (`App::screen`, `Command::StartRun`), so named here too.
pub use super::request::RunRequest;
pub use super::tabs::Screen;

/// What the event loop must do on the app's behalf (the app itself never spawns anything).
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    StartRun(RunRequest),
    /// A run as [`Command::StartRun`], with another model than the session's (the demo's
    /// second model).
    StartRunWith(RunRequest, crate::run::ModelSpec),
    /// Continue the interrupted run in this directory.
    Continue(std::path::PathBuf),
    Pause,
    Resume,
    Cancel,
}

/// One question in Live's stream.
#[derive(Debug, Clone)]
pub struct LiveRow {
    pub qid: String,
    pub prompt: String,
    pub text: String,
    pub outcome: Option<OutcomeKind>,
}

const LIVE_ROWS: usize = 200;
/// About a frame's worth of fuzzy matching on one core (labels and aliases).
const SEARCH_INLINE_BELOW: usize = 20_000;
const LIVE_TEXT_MAX: usize = 400;

#[derive(Default)]
pub struct Live {
    pub active: bool,
    /// The run being driven has its directory and questions: until then `App::data` is still
    /// the run shown before, which Live must not show as this one's.
    pub prepared: bool,
    pub status: String,
    pub total: usize,
    pub already_done: usize,
    pub answered: u64,
    pub failed: u64,
    pub last_error: String,
    /// Requests sent again after a 429 or 5xx, and the latest reason.
    pub retries: u64,
    pub last_retry: String,
    /// Streamed pieces of answers (what makes Live's text move).
    pub tokens: u64,
    /// Completion tokens of the answered questions, as the backend counted them.
    pub completion_tokens: u64,
    pub started: Option<Instant>,
    /// When the run finished, so rates stop decaying once it is over.
    pub ended: Option<Instant>,
    pub finished: Option<bool>,
    pub paused: bool,
    /// `c` was pressed: Live asks before cancelling.
    pub confirm_cancel: bool,
    /// `q` was pressed while the run goes on: the same question, and `y` quits after
    /// cancelling (quitting drops the questions in flight just as cancelling does).
    pub quit_asked: bool,
    pub rows: VecDeque<LiveRow>,
    pub prompts: HashMap<String, String>,
    /// A staged run's latest batch, as its plan shows it (KGLens: the iteration counter, the
    /// convergence curves and the edges the sampler now believes weakest).
    pub plan: Option<Box<crate::method::plan::PlanEvent>>,
    /// The iteration being asked now.
    pub iteration: Option<u32>,
    /// Planned questions the run's plan decided not to ask, and why (KG-FPQ's gate).
    pub not_asked: Vec<crate::core::not_asked::NotAsked>,
}

impl Live {
    /// The questions the run will ask: the planned total less those its plan left out.
    pub fn to_ask(&self) -> usize {
        crate::core::not_asked::to_ask(self.total, &self.not_asked)
    }

    /// Progress as shown: "40 / 100", or "12 asked; 92 not asked because …" once the plan
    /// has left questions out.
    pub fn progress(&self) -> String {
        let done = self.already_done as u64 + self.answered;
        crate::core::not_asked::describe(done, &self.not_asked)
            .unwrap_or_else(|| format!("{done} / {}", self.total))
    }
}

pub struct RunDialog {
    pub task: Task,
    /// Context before each question, for the methods that take one.
    pub context: Option<crate::questions::ContextKind>,
    pub limit: usize,
    /// The judge and the question writer, each an index into [`App::helper_choices`].
    pub judge: usize,
    pub writer: usize,
    /// Whether a digit was typed: the first digit replaces the proposed limit, the next ones
    /// append to it.
    pub typed: bool,
    /// The facts the scope matches, those a question can be made from and those skipped, as
    /// the question generator counts them when the dialog opens; the error when none can.
    pub facts: Result<FactsPreview, String>,
    /// What a run of the dialog's method, limit and context would ask, by the generation the
    /// run does (`None` until counted): the questions, or the run's own refusal.
    pub makes: Option<(MakesKey, Result<crate::run::session::Makes, String>)>,
}

/// What [`RunDialog::makes`] was counted for: counted again when one of these changes.
pub type MakesKey = (Task, usize, Option<crate::questions::ContextKind>);

/// The most questions the dialog makes to count them: a larger limit is counted up to here and
/// shown as "at least" (a keystroke must not generate millions of questions).
pub const MAKES_COUNTED_UP_TO: usize = 2000;

impl RunDialog {
    /// The method a new dialog proposes (the demo's, which shows the defaults).
    pub fn default_task() -> Task {
        Task::Statement
    }
}

/// What the run dialog says of its scope's facts.
#[derive(Debug, Clone, PartialEq)]
pub struct FactsPreview {
    pub matching: usize,
    pub askable: usize,
    pub skipped: Vec<crate::questions::Skipped>,
}

#[derive(Default)]
pub struct Explore {
    pub query: String,
    pub searching: bool,
    pub matches: Vec<usize>,
    /// Which name each match matched by (see [`kgview::Hits`]); empty when all match by label.
    pub via: Vec<u32>,
    pub selected: usize,
    pub dialog: Option<RunDialog>,
    /// 1: the entity's own edges; 2: also its neighbours' edges.
    pub hops: u8,
    /// Lines of the selected entity's edge list scrolled past; back to 0 when the selection
    /// or the hops change.
    pub scroll: usize,
    /// Entries marked with Space (indices into the entries, in marking order): a run covers
    /// them all instead of the selection alone.
    pub marked: Vec<usize>,
    /// Whether a key has reached Explore yet: until then its right pane welcomes the user
    /// (what kgscope is, what is loaded, what to press first).
    pub touched: bool,
    /// What the run dialog was set to last (this session's, else the state file's): the next
    /// dialog opens with it.
    pub last: Option<super::state::DialogChoice>,
}

pub struct Heat {
    pub view: HeatView,
    pub metric: Metric,
    pub sort: HeatSort,
    pub row: usize,
    pub col: usize,
}

#[derive(Default)]
pub struct Errors {
    pub cell: Option<Cell>,
    pub kind: Option<KindFilter>,
    pub sort: SortBy,
    /// Which of the current annotator's labels the list keeps.
    pub label: Option<LabelFilter>,
    pub selected: usize,
}

#[derive(Default)]
pub struct Inspect {
    /// Index into the run's answer rows.
    pub current: Option<usize>,
    pub note: Option<TextArea<'static>>,
    /// The cause picker, while a "bad question" label waits for its cause.
    pub asking_cause: Option<cause::CauseAsk>,
    /// Lines scrolled down in the detail pane, for responses and traces longer than it.
    pub scroll: u16,
    /// Lines scrolled down in the KG facts pane (a hub object has thousands of edges).
    pub facts_scroll: usize,
    /// A note written for an error before labelling it: the error row and the text, saved
    /// with the label the annotator then gives that error.
    pub draft: Option<(usize, String)>,
    /// Whether the whole prompt as sent (instruction, examples, input) is unfolded.
    pub show_prompt: bool,
}

pub struct App {
    pub screen: Screen,
    pub theme: Theme,
    pub quit: bool,
    pub help: bool,
    pub status: String,
    pub kg_name: String,
    /// Facts drawn per relation when the KG is too big to read whole (`--kg-sample`): what
    /// Explore shows, and what runs started here draw from.
    pub kg_sample: Option<usize>,
    /// How Explore's sample was drawn (`None`: the KG is indexed whole); a search of the
    /// whole KG adds what it finds to it.
    pub draw: Option<crate::kg::bounded::Draw>,
    kg_search: super::jobs::Latest<Result<Option<explore::Found>, String>>,
    pub index: Option<Arc<KgIndex>>,
    pub entries: Arc<Vec<Entry>>,
    matcher: nucleo_matcher::Matcher,
    /// Searches through more entries than this run in the background (a key never waits on
    /// them); fewer are searched at once, which takes less than a frame.
    pub search_inline_below: usize,
    search: super::jobs::Latest<kgview::Hits>,
    /// A run's figure being saved (`P`).
    figure: super::jobs::Latest<Result<std::path::PathBuf, String>>,
    /// The open run's labels being exported (`X`): the shape, and how it went.
    export_job: super::jobs::Latest<(crate::report::label_export::LabelFormat, export::Exported)>,
    /// The run picker (`O`), while it is open.
    pub picker: Option<RunPicker>,
    /// The KG of a run opened from the picker, being indexed.
    kg_load: super::jobs::Latest<picker::KgLoad>,
    pub explore: Explore,
    pub data: Option<RunData>,
    /// Who labels in this window: every label key writes in this name, and progress, the
    /// label filter, undo and clear are about this annotator's labels only.
    pub annotator: String,
    pub live: Live,
    pub heat: Heat,
    pub errors: Errors,
    pub inspect: Inspect,
    /// Whether a model is configured, so Explore may start runs.
    pub can_run: bool,
    /// The model runs started here use, as the new-run dialog names it.
    pub model: Option<crate::run::ModelSpec>,
    /// The models given to `kgscope tui --judge` and `--writer`: the run dialog offers them
    /// as judge and question writer, beside none and the run's own model.
    pub judge_given: Option<crate::run::ModelSpec>,
    pub writer_given: Option<crate::run::ModelSpec>,
    /// Where the TUI remembers the run dialog's choices between sessions (`None`: nowhere,
    /// as in tests and the demo's own runs).
    pub state_path: Option<std::path::PathBuf>,
    /// Where `tracing` writes while the TUI owns the screen.
    pub log: Option<std::path::PathBuf>,
    pub commands: Vec<Command>,
    /// `kgscope demo`: the app drives itself until a key is pressed.
    pub demo: Option<demo::Demo>,
    /// Where runs are kept: the Compare screen lists them, figures of comparisons go there.
    pub runs_dir: std::path::PathBuf,
    pub compare: compare::CompareView,
    pub judge: JudgeView,
    /// Where the last frame drew the tabs and the list, for the mouse (`ui::draw` fills it).
    pub hits: std::cell::RefCell<mouse::Hits>,
    /// The Errors list as last filtered and sorted, and what it was made from.
    errors_memo: std::cell::RefCell<Option<(errors::ErrorsKey, Arc<Vec<usize>>)>>,
    unfiltered_memo: std::cell::RefCell<Option<(errors::ErrorsKey, Arc<Vec<usize>>)>>,
}

impl App {
    pub fn new(theme: Theme, kg_name: &str, index: Option<Arc<KgIndex>>) -> App {
        let entries = Arc::new(index.as_deref().map(kgview::entries).unwrap_or_default());
        let mut app = App {
            screen: Screen::Explore,
            theme,
            quit: false,
            help: false,
            status: String::new(),
            kg_name: crate::sanitize::line(kg_name),
            kg_sample: None,
            draw: None,
            kg_search: Default::default(),
            index,
            entries,
            matcher: kgview::new_matcher(),
            search_inline_below: SEARCH_INLINE_BELOW,
            search: Default::default(),
            figure: Default::default(),
            export_job: Default::default(),
            picker: None,
            kg_load: Default::default(),
            explore: Explore {
                hops: 1,
                ..Explore::default()
            },
            data: None,
            annotator: labels::annotator(),
            live: Live::default(),
            heat: Heat {
                view: HeatView::Relation,
                metric: Metric::Correctness,
                sort: HeatSort::Name,
                row: 0,
                col: 0,
            },
            errors: Errors::default(),
            inspect: Inspect::default(),
            can_run: false,
            model: None,
            judge_given: None,
            writer_given: None,
            state_path: None,
            log: None,
            commands: Vec::new(),
            demo: None,
            runs_dir: std::path::PathBuf::from("runs"),
            compare: compare::CompareView::default(),
            judge: JudgeView::default(),
            hits: Default::default(),
            errors_memo: Default::default(),
            unfiltered_memo: Default::default(),
        };
        app.refresh_matches();
        app
    }

    /// Opens a recorded run to browse and label.
    pub fn open_run(&mut self, data: RunData) {
        // A message about the run shown before (or the dialog that started this one) ends
        // with it.
        self.status.clear();
        self.heat.metric = crate::method::of(data.manifest.config.task).figure_metric();
        // A view the last run had may have no groups in this one (no years in a KG without
        // dates): Heatmaps then opens on the relations, not on "no groups yet".
        if !self.heat.view.has_groups(&data.snapshot) {
            self.heat.view = crate::report::grid::HeatView::Relation;
            (self.heat.row, self.heat.col) = (0, 0);
        }
        if let Some(why) = &data.labels_error {
            self.status = format!("labels not loaded: {why}");
        }
        self.data = Some(data);
        self.judge = JudgeView::default();
        self.resume_labelling();
    }

    // ---- Keys ----------------------------------------------------------------------------

    /// Whether keys go to a text field, so that `q`, digits and `?` are text, not commands.
    pub fn typing(&self) -> bool {
        (self.screen == Screen::Explore && self.explore.searching) || self.inspect.note.is_some()
    }

    pub fn on_key(&mut self, k: KeyEvent) {
        if k.kind == KeyEventKind::Release {
            return;
        }
        if k.modifiers.contains(KeyModifiers::CONTROL) && k.code == KeyCode::Char('c') {
            self.quit = true;
            return;
        }
        if self.demo.is_some() {
            self.stop_demo();
            return;
        }
        self.dispatch_key(k);
    }

    /// A key as the screens take it (the demo presses keys through here too).
    fn dispatch_key(&mut self, k: KeyEvent) {
        if self.help {
            self.help = false;
            return;
        }
        if self.picker.is_some() {
            self.picker_key(k);
            return;
        }
        // The cause picker takes the next key, whatever the screen: a digit picks, Esc
        // cancels, and no key falls through to record or move anything else.
        if self.inspect.asking_cause.is_some() {
            self.cause_key(k);
            return;
        }
        // Live's "cancel the run?" takes the next key, whatever it is.
        let asking = self.live.confirm_cancel && self.screen == Screen::Live;
        if !self.typing() && self.explore.dialog.is_none() && !asking {
            if let Some(a) = keymap::bound(Scope::Anywhere, k.code) {
                let n = Screen::ALL.len();
                match a {
                    Action::Quit if self.run_goes_on() => {
                        self.go_to(Screen::Live);
                        self.live.confirm_cancel = true;
                        self.live.quit_asked = true;
                    }
                    Action::Quit => self.quit = true,
                    Action::Help => self.help = true,
                    Action::Screen(i) => self.go_to(Screen::ALL[i as usize % n]),
                    Action::NextScreen => self.go_to(Screen::ALL[(self.screen.index() + 1) % n]),
                    Action::PreviousScreen => {
                        self.go_to(Screen::ALL[(self.screen.index() + n - 1) % n])
                    }
                    Action::SaveFigure => self.save_figure(),
                    Action::OpenRun => self.open_picker(),
                    Action::ExportLabels => self.export_labels(),
                    _ => {}
                }
                return;
            }
        }
        match self.screen {
            Screen::Explore => self.explore_key(k),
            Screen::Live => self.live_key(k),
            Screen::Heatmaps => self.heat_key(k),
            Screen::Errors => self.errors_key(k),
            Screen::Inspect => self.inspect_key(k),
            Screen::Compare => self.compare_key(k),
            Screen::Judge => self.judge_key(k),
        }
    }

    /// Whether a run started here is still asking (quitting would drop its questions in
    /// flight).
    pub fn run_goes_on(&self) -> bool {
        self.live.active && self.live.finished.is_none()
    }

    /// Switches screens; Compare lists the runs directory afresh on the way in, Judge reads
    /// what the verifiers made of the run's answers the first time.
    pub fn go_to(&mut self, s: Screen) {
        if s == Screen::Compare && self.screen != Screen::Compare {
            self.refresh_compare();
        }
        self.screen = s;
        if s == Screen::Judge {
            self.start_judging();
        }
    }
}

/// A label as screens and the status line name it: "wrong / factual error", "bad question /
/// give-away".
pub fn label_summary(l: &Label) -> String {
    match (l.error_type, l.cause) {
        (Some(t), _) => format!("{} / {}", l.label.name(), t.name()),
        (None, Some(c)) => format!("{} / {}", l.label.name(), c.name()),
        (None, None) => l.label.name().to_string(),
    }
}

/// Moves a cursor by `by` within `0..n`, clamped.
fn step(cur: usize, by: isize, n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    (cur as isize + by).clamp(0, n as isize - 1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_clamp() {
        assert_eq!(step(0, -1, 5), 0);
        assert_eq!(step(4, 1, 5), 4);
        assert_eq!(step(2, 10, 5), 4);
        assert_eq!(step(3, 1, 0), 0);
    }
}

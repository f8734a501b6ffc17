//! `kgscope demo`: the TUI drives itself, for a booth or a talk. Each round marks a few
//! relations in Explore, starts a short run, watches it in Live, ranks the relations in
//! Heatmaps (worst first, each view in turn), opens the worst cell's errors and inspects two
//! of them; then, with a second model, it asks that model the same questions and shows Compare,
//! the two runs side by side. Each round ends on its finding, in words ([`super::demo_finding`]):
//! a model that says "true" to everything, the widest gap between the two models, the worst
//! relation. The next round takes the next relations. It presses the same keys a person
//! would, so what it shows is what a person gets. Any key stops it and hands the TUI over.
//!
//! Each screen stays as long as it takes to read: a step that only moves on (marking, the
//! dialog) the shortest time, a screen of findings longer the more it lists, the round's
//! finding longest. The model stays loaded between rounds (the TUI's runner keeps it).
//!
//! What it shows is decided from the data: a round's relations and limit are sized so that
//! their cells rank ([`super::demo_size`]), and a view or screen with nothing to show (a year
//! view of a KG without dates, a cell without errors) is passed over at once, not shown empty.

use std::time::{Duration, Instant};

use super::*;

/// How the demo goes: the run's size and how long each screen stays.
#[derive(Debug, Clone)]
pub struct DemoOptions {
    /// Questions per round; `None`: sized from the KG so each marked relation's cell ranks
    /// ([`super::demo_size::round_size`]).
    pub limit: Option<usize>,
    /// Relations marked per round.
    pub relations: usize,
    /// The shortest a step stays: one that only moves on (marking relations, the dialog).
    pub step: Duration,
    /// The shortest a screen of findings stays (Live's final cards, a heatmap, the errors,
    /// an answer inspected, Compare).
    pub read: Duration,
    /// Added to [`Self::read`] for each line of findings the screen lists (a heatmap's
    /// rows, the errors), up to [`READ_CAP`] times `read`.
    pub per_line: Duration,
    /// How long the round's finding stays, at least.
    pub finding: Duration,
    /// The longest a round's run may take before the demo moves on without it.
    pub run_timeout: Duration,
    /// A second model asked the round's questions too, the round ending on Compare: the first
    /// run is the baseline. `None`: rounds end on Inspect.
    pub second: Option<crate::run::ModelSpec>,
}

impl Default for DemoOptions {
    fn default() -> Self {
        DemoOptions::paced(Duration::from_secs(4))
    }
}

/// A screen of findings stays at most this many times [`DemoOptions::read`].
pub const READ_CAP: u32 = 3;

impl DemoOptions {
    /// The default demo with every pause scaled from `step`, the shortest: a screen of
    /// findings at least twice as long, a line of findings a tenth of it more, the round's
    /// finding three times as long (4 s steps: 8 s to read a heatmap, 12 s for the finding).
    pub fn paced(step: Duration) -> Self {
        DemoOptions {
            limit: None,
            relations: 4,
            step,
            read: step * 2,
            per_line: step / 10,
            finding: step * 3,
            run_timeout: Duration::from_secs(600),
            second: None,
        }
    }

    /// How long a screen listing `lines` findings stays.
    pub fn read_for(&self, lines: usize) -> Duration {
        let lines = u32::try_from(lines).unwrap_or(u32::MAX);
        (self.read + self.per_line.saturating_mul(lines))
            .min(self.read * READ_CAP)
            .max(self.step)
    }
}

/// The steps of one round, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DemoStep {
    /// Explore: clear the search and the marks, mark this round's relations.
    Mark,
    /// Open the new-run dialog and type the limit.
    Dialog,
    /// Start the run: Live.
    Start,
    /// Wait for the run to end.
    Watch,
    /// Heatmaps by relation, worst first.
    Heatmap,
    /// The head × tail view, then the year view.
    HeadTail,
    Years,
    /// Back to relations: Enter on the worst one opens its errors.
    Errors,
    /// Enter: inspect the first error.
    Inspect,
    /// n: the next one.
    NextError,
    /// The same questions to the second model: Live again.
    Second,
    /// Wait for the second run to end.
    WatchSecond,
    /// Compare: the round's two runs marked, the first as the baseline.
    Compare,
    /// The round's finding, in words, over the last screen.
    Finding,
}

impl DemoStep {
    /// Steps taken only with a second model.
    fn needs_second(self) -> bool {
        matches!(
            self,
            DemoStep::Second | DemoStep::WatchSecond | DemoStep::Compare
        )
    }
}

const ROUND: [DemoStep; 14] = [
    DemoStep::Mark,
    DemoStep::Dialog,
    DemoStep::Start,
    DemoStep::Watch,
    DemoStep::Heatmap,
    DemoStep::HeadTail,
    DemoStep::Years,
    DemoStep::Errors,
    DemoStep::Inspect,
    DemoStep::NextError,
    DemoStep::Second,
    DemoStep::WatchSecond,
    DemoStep::Compare,
    DemoStep::Finding,
];

pub struct Demo {
    pub options: DemoOptions,
    pub round: usize,
    step: usize,
    next_at: Instant,
    watch_since: Option<Instant>,
    /// The round's run request as the dialog made it, for the second model.
    request: Option<RunRequest>,
    /// The round's first run, the comparison's baseline.
    first_run: Option<String>,
    /// The round's limit, as [`DemoOptions::limit`] or the KG decided it.
    round_limit: usize,
    /// The answer habits of the round's runs, taken as each ended.
    habits: Vec<demo_finding::Habit>,
    /// The round's finding and the round (from 0), on screen from the end of the round to
    /// the next one.
    finding: Option<(usize, demo_finding::Finding)>,
    /// The step last shown and how long it stays.
    shown: Option<(DemoStep, Duration)>,
}

impl Demo {
    /// The step the demo takes next.
    pub fn step(&self) -> DemoStep {
        ROUND[self.step]
    }

    /// The round's finding and the round (from 0), once the round has come to it.
    pub fn finding(&self) -> Option<(usize, &demo_finding::Finding)> {
        self.finding.as_ref().map(|(r, f)| (*r, f))
    }

    /// The step last shown and how long it stays on screen.
    pub fn shown(&self) -> Option<(DemoStep, Duration)> {
        self.shown
    }

    /// Moves on a step, to the next round after the last.
    fn advance(&mut self) {
        self.step += 1;
        if self.step == ROUND.len() {
            self.step = 0;
            self.round += 1;
        }
    }

    /// Passes over the second model's steps when there is none.
    fn skip_unused(&mut self) {
        while self.options.second.is_none() && self.step().needs_second() {
            self.advance();
        }
    }
}

impl App {
    /// Starts the demo; the first step comes at once.
    pub fn start_demo(&mut self, options: DemoOptions, now: Instant) {
        self.demo = Some(Demo {
            options,
            round: 0,
            step: 0,
            next_at: now,
            watch_since: None,
            request: None,
            first_run: None,
            round_limit: 0,
            habits: vec![],
            finding: None,
            shown: None,
        });
        self.status = DEMO_STATUS.into();
    }

    /// A key from the user ends the demo; the TUI is theirs from here.
    pub(super) fn stop_demo(&mut self) {
        self.demo = None;
        self.explore.dialog = None;
        self.status = "demo stopped: the TUI is yours (? shows every key, q quits)".into();
    }

    /// Takes the demo's next step when its time has come. Called once per frame. A step with
    /// nothing to show is passed over and the next one taken at once, so no pause is spent on
    /// an empty screen.
    pub fn demo_tick(&mut self, now: Instant) {
        // Mark, Dialog and Start always act, so a round ends before this bound.
        for _ in 0..=ROUND.len() {
            if !self.demo_step(now) {
                return;
            }
        }
    }

    /// One step of [`Self::demo_tick`]; `true` when it was passed over for having nothing to
    /// show.
    fn demo_step(&mut self, now: Instant) -> bool {
        let Some(demo) = self.demo.as_mut() else {
            return false;
        };
        if now < demo.next_at {
            return false;
        }
        demo.skip_unused();
        let step = demo.step();
        let (round, relations) = (demo.round, demo.options.relations);
        let press = |app: &mut App, code: KeyCode| app.dispatch_key(KeyEvent::from(code));
        let mut advance = true;
        let mut nothing = false;
        match step {
            DemoStep::Mark => {
                self.screen = Screen::Explore;
                self.explore.query.clear();
                self.refresh_matches();
                self.explore.marked.clear();
                let d = self.demo.as_mut().expect("checked");
                d.habits.clear();
                d.finding = None;
                let n = self.relation_count();
                let size = self.index.as_deref().map(|ix| {
                    // The run dialog's method, which the demo leaves at its default.
                    let task = RunDialog::default_task();
                    super::demo_size::round_size(ix, task, relations, round)
                });
                let Some(size) = size.filter(|s| n > 0 && !s.relations.is_empty()) else {
                    self.status = "demo: this KG has no relations to ask about".into();
                    self.demo = None;
                    return false;
                };
                for &r in size.relations.iter().filter(|&&r| r < n) {
                    self.select_explore(r);
                    press(self, KeyCode::Char(' '));
                }
                let d = self.demo.as_mut().expect("checked");
                d.round_limit = d.options.limit.unwrap_or(size.limit);
            }
            DemoStep::Dialog => {
                let limit = self.demo.as_ref().map_or(0, |d| d.round_limit);
                press(self, KeyCode::Char('r'));
                for c in limit.to_string().chars() {
                    press(self, KeyCode::Char(c));
                }
            }
            DemoStep::Start => {
                press(self, KeyCode::Enter);
                let request = match self.commands.last() {
                    Some(Command::StartRun(req)) => Some(req.clone()),
                    _ => None,
                };
                let d = self.demo.as_mut().expect("checked");
                d.request = request;
                d.first_run = None;
            }
            DemoStep::Watch | DemoStep::WatchSecond => {
                advance = self.run_over(now);
                if advance {
                    let habit = self.data.as_ref().and_then(demo_finding::habit);
                    let first = self.data.as_ref().map(|d| d.run.id.clone());
                    let d = self.demo.as_mut().expect("checked");
                    d.habits.extend(habit);
                    if step == DemoStep::Watch {
                        d.first_run = first;
                    }
                }
            }
            DemoStep::Second => {
                let d = self.demo.as_ref().expect("checked");
                if let (Some(req), Some(model)) = (d.request.clone(), d.options.second.clone()) {
                    self.commands.push(Command::StartRunWith(req, model));
                    self.live = Live {
                        active: true,
                        status: "preparing the run with the second model".into(),
                        ..Live::default()
                    };
                    self.screen = Screen::Live;
                }
            }
            DemoStep::Compare => {
                let first = self.demo.as_ref().and_then(|d| d.first_run.clone());
                let second = self.data.as_ref().map(|d| d.run.id.clone());
                match (first, second) {
                    (Some(a), Some(b)) if a != b => {
                        self.go_to(Screen::Compare);
                        self.compare_runs(vec![a, b]);
                    }
                    // The second run did not start (Live says why): no comparison this round.
                    _ => {}
                }
            }
            DemoStep::Heatmap | DemoStep::HeadTail | DemoStep::Years => {
                let view = match step {
                    DemoStep::Heatmap => HeatView::Relation,
                    DemoStep::HeadTail => HeatView::HeadTail,
                    _ => HeatView::Year,
                };
                nothing = !self.show_heat_view(view);
            }
            DemoStep::Errors => {
                // The worst relation that has errors: a cell without any has nothing to open.
                self.show_heat_view(HeatView::Relation);
                let rows = self.heat_grid().rows.len();
                let with_errors = (0..rows).find(|&row| {
                    let cell = self.heat_grid().cell(row, 0);
                    self.errors.cell = cell;
                    !self.error_indices().is_empty()
                });
                match with_errors {
                    Some(row) => {
                        self.heat.row = row;
                        press(self, KeyCode::Enter);
                    }
                    None => {
                        self.heat.row = 0;
                        self.errors.cell = None;
                        nothing = true;
                    }
                }
            }
            DemoStep::Inspect => {
                nothing = self.screen != Screen::Errors || self.error_indices().is_empty();
                if !nothing {
                    press(self, KeyCode::Enter);
                }
            }
            DemoStep::NextError => {
                // The next error only when there is one.
                nothing = self.screen != Screen::Inspect || self.error_indices().len() < 2;
                if !nothing {
                    press(self, KeyCode::Char('n'));
                }
            }
            DemoStep::Finding => {
                // Compare's gap only when this round ended on Compare (not a past round's).
                let comparison = match (&self.screen, &self.compare.result) {
                    (Screen::Compare, Some(Ok(c))) => Some(c),
                    _ => None,
                };
                let d = self.demo.as_ref().expect("checked");
                let finding = demo_finding::round_finding(
                    &d.habits,
                    comparison,
                    self.data.as_ref(),
                    self.heat.metric,
                );
                nothing = finding.is_none();
                self.demo.as_mut().expect("checked").finding = finding.map(|f| (round, f));
            }
        }
        let Some(d) = self.demo.as_mut() else {
            return false;
        };
        if nothing {
            d.advance();
            return true;
        }
        if !advance {
            // Look again in a moment: the run's end is not timed.
            d.next_at = now + Duration::from_millis(200);
            return false;
        }
        let dwell = self.dwell(step);
        // In the log, so a presenter (and `tools/capture-demo.sh`) can time each step.
        tracing::info!(round, step = ?step, dwell_ms = dwell.as_millis() as u64, "demo step");
        let d = self.demo.as_mut().expect("checked");
        d.next_at = now + dwell;
        d.shown = Some((step, dwell));
        d.advance();
        self.status = DEMO_STATUS.into();
        false
    }

    /// How long the screen `step` left stays: the shortest pause for a step that only moves
    /// on, longer for a screen of findings the more lines it lists, longest for the finding.
    fn dwell(&self, step: DemoStep) -> Duration {
        let Some(d) = self.demo.as_ref() else {
            return Duration::ZERO;
        };
        let o = &d.options;
        // Lines of findings: beyond a screenful nobody reads them in the time anyway.
        let lines = match step {
            DemoStep::Mark | DemoStep::Dialog | DemoStep::Start | DemoStep::Second => {
                return o.step
            }
            // Live's final cards and answer line.
            DemoStep::Watch | DemoStep::WatchSecond => 8,
            DemoStep::Heatmap | DemoStep::HeadTail | DemoStep::Years => {
                let g = self.heat_grid();
                g.rows.len() * g.cols.len().clamp(1, 4)
            }
            DemoStep::Errors => self.error_indices().len(),
            // An answer: its question, response, gold, verdict and trace.
            DemoStep::Inspect | DemoStep::NextError => 12,
            DemoStep::Compare => match &self.compare.result {
                Some(Ok(c)) => c.groups.len() + c.metrics.len(),
                _ => 8,
            },
            DemoStep::Finding => {
                let words: usize = d
                    .finding
                    .iter()
                    .flat_map(|(_, f)| f.lines())
                    .map(|l| l.split_whitespace().count())
                    .sum();
                // A long finding longer: a line's worth of time per word.
                return o.finding.max(o.per_line.saturating_mul(words as u32));
            }
        };
        o.read_for(lines.min(30))
    }

    /// Heatmaps in `view`, worst first, when it has a value in some cell (the test
    /// `kgscope plot` refuses an empty figure by); `false`, and the screen left as it was,
    /// when it has none.
    fn show_heat_view(&mut self, view: HeatView) -> bool {
        let was = (self.heat.view, self.heat.sort);
        self.heat.view = view;
        self.heat.sort = HeatSort::Value;
        if !self.heat_grid().has_value(self.heat.metric) {
            (self.heat.view, self.heat.sort) = was;
            return false;
        }
        self.screen = Screen::Heatmaps;
        self.heat.row = 0;
        self.heat.col = 0;
        true
    }

    /// Whether the run being watched is over, or has taken longer than the demo waits.
    fn run_over(&mut self, now: Instant) -> bool {
        let d = self.demo.as_mut().expect("checked");
        let since = *d.watch_since.get_or_insert(now);
        let over = self.live.finished.is_some() || !self.live.active;
        let advance = over || now.duration_since(since) >= d.options.run_timeout;
        if advance {
            d.watch_since = None;
        }
        advance
    }

    /// Relations come first among the entries (see [`kgview::entries`]).
    fn relation_count(&self) -> usize {
        self.entries
            .iter()
            .take_while(|e| e.kind == EntryKind::Relation)
            .count()
    }
}

const DEMO_STATUS: &str = "demo: kgscope drives itself · any key stops it";

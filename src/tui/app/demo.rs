//! `kgscope demo`: the TUI drives itself, for a booth or a talk. Each round marks a few
//! relations in Explore, starts a short run, watches it in Live, ranks the relations in
//! Heatmaps (worst first, each view in turn), opens the worst cell's errors and inspects two
//! of them; then, with a second model, it asks that model the same questions and ends the round
//! on Compare, the two runs side by side. The next round takes the next relations. It presses
//! the same keys a person would, so what it shows is what a person gets. Any key stops it and
//! hands the TUI over.

use std::time::{Duration, Instant};

use super::*;

/// How the demo goes: the run's size and the pause between steps.
#[derive(Debug, Clone)]
pub struct DemoOptions {
    /// Questions per round.
    pub limit: usize,
    /// Relations marked per round.
    pub relations: usize,
    /// Pause after each step, so an audience can read the screen.
    pub step: Duration,
    /// The longest a round's run may take before the demo moves on without it.
    pub run_timeout: Duration,
    /// A second model asked the round's questions too, the round ending on Compare: the first
    /// run is the baseline. `None`: rounds end on Inspect.
    pub second: Option<crate::run::ModelSpec>,
}

impl Default for DemoOptions {
    fn default() -> Self {
        DemoOptions {
            limit: 24,
            relations: 4,
            step: Duration::from_secs(3),
            run_timeout: Duration::from_secs(600),
            second: None,
        }
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

const ROUND: [DemoStep; 13] = [
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
}

impl Demo {
    /// The step the demo takes next.
    pub fn step(&self) -> DemoStep {
        ROUND[self.step]
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
        });
        self.status = DEMO_STATUS.into();
    }

    /// A key from the user ends the demo; the TUI is theirs from here.
    pub(super) fn stop_demo(&mut self) {
        self.demo = None;
        self.explore.dialog = None;
        self.status = "demo stopped: the TUI is yours (? shows every key, q quits)".into();
    }

    /// Takes the demo's next step when its time has come. Called once per frame.
    pub fn demo_tick(&mut self, now: Instant) {
        let Some(demo) = self.demo.as_mut() else {
            return;
        };
        if now < demo.next_at {
            return;
        }
        demo.skip_unused();
        let step = demo.step();
        let (pause, round, relations, limit) = (
            demo.options.step,
            demo.round,
            demo.options.relations,
            demo.options.limit,
        );
        let press = |app: &mut App, code: KeyCode| app.dispatch_key(KeyEvent::from(code));
        let mut advance = true;
        match step {
            DemoStep::Mark => {
                self.screen = Screen::Explore;
                self.explore.query.clear();
                self.refresh_matches();
                self.explore.marked.clear();
                let n = self.relation_count();
                if n == 0 {
                    self.status = "demo: this KG has no relations to ask about".into();
                    self.demo = None;
                    return;
                }
                // Each round the next relations, wrapping around.
                let take = relations.min(n);
                let first = (round * take) % n;
                for k in 0..take {
                    self.select_explore((first + k) % n);
                    press(self, KeyCode::Char(' '));
                }
            }
            DemoStep::Dialog => {
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
                if advance && step == DemoStep::Watch {
                    let first = self.data.as_ref().map(|d| d.run.id.clone());
                    self.demo.as_mut().expect("checked").first_run = first;
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
            DemoStep::Heatmap => {
                self.screen = Screen::Heatmaps;
                self.heat.view = HeatView::Relation;
                self.heat.sort = HeatSort::Value;
                self.heat.row = 0;
                self.heat.col = 0;
            }
            DemoStep::HeadTail | DemoStep::Years => press(self, KeyCode::Char('v')),
            DemoStep::Errors => {
                press(self, KeyCode::Char('v'));
                press(self, KeyCode::Enter);
            }
            DemoStep::Inspect => press(self, KeyCode::Enter),
            DemoStep::NextError => press(self, KeyCode::Char('n')),
        }
        let Some(d) = self.demo.as_mut() else { return };
        if !advance {
            // Look again in a moment: the run's end is not timed.
            d.next_at = now + Duration::from_millis(200);
            return;
        }
        d.next_at = now + pause;
        d.advance();
        self.status = DEMO_STATUS.into();
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

//! `kgscope demo`: the TUI drives itself, for a booth or a talk. Each round marks a few
//! relations in Explore, starts a short run, watches it in Live, ranks the relations in
//! Heatmaps (worst first, each view in turn), opens the worst cell's errors and inspects two
//! of them; then the next round takes the next relations. It presses the same keys a person
//! would, so what it shows is what a person gets. Any key stops it and hands the TUI over.

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
}

impl Default for DemoOptions {
    fn default() -> Self {
        DemoOptions {
            limit: 24,
            relations: 4,
            step: Duration::from_secs(3),
            run_timeout: Duration::from_secs(600),
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
}

const ROUND: [DemoStep; 10] = [
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
];

pub struct Demo {
    pub options: DemoOptions,
    pub round: usize,
    step: usize,
    next_at: Instant,
    watch_since: Option<Instant>,
}

impl Demo {
    /// The step the demo takes next.
    pub fn step(&self) -> DemoStep {
        ROUND[self.step]
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
        let Some(demo) = &self.demo else { return };
        if now < demo.next_at {
            return;
        }
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
            DemoStep::Start => press(self, KeyCode::Enter),
            DemoStep::Watch => {
                let d = self.demo.as_mut().expect("checked");
                let since = *d.watch_since.get_or_insert(now);
                let over = self.live.finished.is_some() || !self.live.active;
                advance = over || now.duration_since(since) >= d.options.run_timeout;
                if advance {
                    d.watch_since = None;
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
        d.step += 1;
        if d.step == ROUND.len() {
            d.step = 0;
            d.round += 1;
        }
        self.status = DEMO_STATUS.into();
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

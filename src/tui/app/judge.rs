//! The Judge screen's state: each verifier of the open run against the hand labels, and the
//! queue of answers to label next, labelled here with the keys Inspect labels with.
//!
//! What the verifiers made of each answer is read once, the first time the screen is shown
//! (at once for a small run, on a thread of its own for a big one), and kept up to date as
//! answers come in ([`RunData::judged`]). The figures are made from it again whenever the
//! labels or the answers change, never once per frame.

use std::cell::RefCell;

use super::rundata::ObservedRead;
use super::*;
use crate::metrics::judges::JudgeReport;

/// The figures as drawn, and the offset of each queued answer's line (to read it back, and
/// to find its error row).
#[derive(Debug)]
pub struct Judged {
    pub report: JudgeReport,
    pub offsets: Vec<u64>,
}

/// What the figures are made from: the run, how many answers were observed, and the labels.
type JudgeKey = (String, usize, u64);

pub struct JudgeView {
    /// The selected answer of the queue.
    pub selected: usize,
    /// The read of the answers before the screen was first shown, for a big run; with the
    /// id of the run it reads.
    loading: crate::tui::jobs::Latest<(String, ObservedRead)>,
    /// Why the answers could not be read.
    pub error: Option<String>,
    memo: RefCell<Option<(JudgeKey, Arc<Judged>)>>,
    /// Runs whose results.jsonl is smaller than this are read at once.
    pub inline_below_bytes: u64,
}

impl Default for JudgeView {
    fn default() -> Self {
        Self {
            selected: 0,
            loading: Default::default(),
            error: None,
            memo: RefCell::new(None),
            inline_below_bytes: 4 << 20,
        }
    }
}

impl App {
    /// Starts reading what the verifiers made of the open run's answers, unless that is
    /// done, going on, or failed (the error shows until the run is opened again).
    pub(super) fn start_judging(&mut self) {
        let Some(d) = &mut self.data else { return };
        if d.judged.is_some() || d.observing_pending() || self.judge.error.is_some() {
            return;
        }
        let run = d.run.id.clone();
        let small = d.results_bytes() < self.judge.inline_below_bytes;
        let read = d.observing();
        if small {
            self.judge.loading = Default::default();
            let result = read();
            self.take_observed(run, result);
        } else {
            self.judge.loading.request(move || (run, read()));
        }
    }

    fn take_observed(&mut self, run: String, result: ObservedRead) {
        let Some(d) = &mut self.data else { return };
        if d.run.id != run {
            return;
        }
        if let Err(e) = d.observed(result) {
            self.judge.error = Some(e);
        }
    }

    /// Once per frame: takes a finished read, and starts one for a screen put on Judge
    /// without [`App::go_to`] (a run opened or started while it was shown).
    pub fn poll_judge(&mut self) {
        if let Some((run, result)) = self.judge.loading.take() {
            self.take_observed(run, result);
        }
        if self.screen == Screen::Judge {
            self.start_judging();
        }
    }

    /// Whether the answers are still being read.
    pub fn judge_loading(&self) -> bool {
        self.judge.loading.pending()
    }

    /// Waits for the answers being read (tests).
    pub fn wait_for_judge(&mut self) {
        if let Some((run, result)) = self.judge.loading.wait(std::time::Duration::from_secs(60)) {
            self.take_observed(run, result);
        }
    }

    /// The figures of the open run, made again when its answers or labels changed; `None`
    /// until the answers are read.
    pub fn judged(&self) -> Option<Arc<Judged>> {
        let d = self.data.as_ref()?;
        let rows = d.judged.as_ref()?;
        let key = (d.run.id.clone(), rows.len(), d.labels_seen);
        if let Some((k, j)) = &*self.judge.memo.borrow() {
            if *k == key {
                return Some(j.clone());
            }
        }
        let report = crate::metrics::judges::compare(
            rows.iter().map(|(_, o)| o),
            |q| crate::report::judges::hand(&d.labels, q),
            crate::report::judges::QUEUE_MAX,
        );
        let queued: HashMap<&str, usize> = report
            .queue
            .iter()
            .enumerate()
            .map(|(i, q)| (q.question_id.as_str(), i))
            .collect();
        let mut offsets = vec![0; report.queue.len()];
        for (offset, o) in rows {
            if let Some(&i) = queued.get(o.question_id.as_str()) {
                offsets[i] = *offset;
            }
        }
        let j = Arc::new(Judged { report, offsets });
        *self.judge.memo.borrow_mut() = Some((key, j.clone()));
        Some(j)
    }

    /// Reads back, before a frame, the queued answers the screen lists.
    pub(super) fn prepare_judge(&self) {
        if let (Some(d), Some(j)) = (&self.data, self.judged()) {
            d.prepare_at(j.offsets.iter().copied());
        }
    }

    pub(super) fn judge_key(&mut self, k: KeyEvent) {
        let Some(action) = keymap::bound(Scope::On(Screen::Judge), k.code) else {
            return;
        };
        let n = self.judged().map_or(0, |j| j.report.queue.len());
        // Labels given on Inspect may have shortened the queue since.
        self.judge.selected = self.judge.selected.min(n.saturating_sub(1));
        match action {
            Action::Down => self.judge.selected = step(self.judge.selected, 1, n),
            Action::Up => self.judge.selected = step(self.judge.selected, -1, n),
            Action::Open => self.inspect_queued(),
            // A bad question asks why first, as in Inspect.
            Action::Judge(LabelVerdict::BadQuestion) if self.queued().is_some() => {
                self.ask_cause(LabelVerdict::BadQuestion)
            }
            Action::Judge(v) => self.label_queued(v, None, v.implied_cause()),
            // An error type says what kind of wrong: one key for both, as in Inspect.
            Action::WrongAs(t) => self.label_queued(LabelVerdict::Wrong, Some(t), None),
            _ => {}
        }
    }

    /// The selected answer of the queue: its question id, and its answer row.
    fn queued(&self) -> Option<(String, Option<usize>)> {
        let j = self.judged()?;
        let item = j.report.queue.get(self.judge.selected)?;
        let row = self.data.as_ref()?.row_at(j.offsets[self.judge.selected]);
        Some((item.question_id.clone(), row))
    }

    /// Enter: Inspect on the selected answer. One recorded correct is not in the default
    /// (errors only) list, so the list then shows every answer, and n/p walk on from it.
    fn inspect_queued(&mut self) {
        match self.queued() {
            None => self.status = "nothing queued to inspect".into(),
            Some((_, Some(row))) => {
                let outcome = self.data.as_ref().map(|d| d.rows[row].outcome);
                let kind = self.errors.kind.unwrap_or(KindFilter::AllErrors);
                if outcome.is_some_and(|o| !kind.keeps(o)) {
                    self.errors.kind = Some(KindFilter::AllAnswers);
                    self.status = "recorded correct: Errors and Inspect now list all answers \
                                   (o on Errors changes it)"
                        .into();
                }
                self.show(Some(row));
                self.screen = Screen::Inspect;
            }
            Some((_, None)) => self.status = "not an answer of this run's log".into(),
        }
    }

    /// Labels the selected answer of the queue as Inspect labels (the same keys, the same
    /// line in labels.jsonl); it leaves the queue, and the selection stays where it was,
    /// on the next one.
    pub(super) fn label_queued(
        &mut self,
        verdict: LabelVerdict,
        error_type: Option<ErrorType>,
        cause: Option<QuestionCause>,
    ) {
        let Some((qid, row)) = self.queued() else {
            self.status = "nothing queued to label".into();
            return;
        };
        let Some(summary) = self.write_label(qid, row, verdict, error_type, cause, None) else {
            return;
        };
        let (left, labelled) = self.judged().map_or((0, 0), |j| {
            (j.report.queue.len(), j.report.labels.labelled())
        });
        self.judge.selected = self.judge.selected.min(left.saturating_sub(1));
        self.status = format!(
            "saved {summary} · {labelled} answer{} hand-labelled · {left} queued",
            crate::core::panel::plural(labelled)
        );
    }
}

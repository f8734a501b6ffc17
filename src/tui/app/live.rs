//! Live: run events folded into the state, and pause / cancel.

use super::*;

impl App {
    /// Whether the open run is unfinished, nothing is running here and no other process
    /// writes it, so R may continue it.
    pub fn can_continue(&self) -> bool {
        let idle = !self.live.active || self.live.finished.is_some();
        idle && self.can_run
            && self.data.as_ref().is_some_and(|d| {
                d.writer.is_none()
                    && d.manifest.finished_at.is_none()
                    && d.tally.answered < d.manifest.questions as u64
            })
    }

    pub(super) fn live_key(&mut self, k: KeyEvent) {
        let action = keymap::bound(Scope::On(Screen::Live), k.code);
        if action == Some(Action::Continue) && self.can_continue() {
            let path = self.data.as_ref().expect("checked").run.path.clone();
            self.commands.push(Command::Continue(path));
            self.live = Live {
                active: true,
                status: "reopening the run".into(),
                ..Live::default()
            };
            return;
        }
        if !self.live.active || self.live.finished.is_some() {
            return;
        }
        if self.live.confirm_cancel {
            self.live.confirm_cancel = false;
            let quit = std::mem::take(&mut self.live.quit_asked);
            if keymap::in_mode(Mode::ConfirmCancel, &k) == Some(Action::ConfirmCancel) {
                self.commands.push(Command::Cancel);
                self.live.status = "cancelling: in-flight questions are dropped".into();
                self.quit = quit;
            } else if quit {
                self.status = "not quitting: the run goes on".into();
            } else {
                self.status = "not cancelled: the run goes on".into();
            }
            return;
        }
        match action {
            Some(Action::PauseResume) => {
                self.live.paused = !self.live.paused;
                self.commands.push(if self.live.paused {
                    Command::Pause
                } else {
                    Command::Resume
                });
            }
            // Cancelling drops the questions in flight: asked first, with how to go on.
            Some(Action::Cancel) => self.live.confirm_cancel = true,
            _ => {}
        }
    }

    /// The run being driven from the TUI now has its directory and questions.
    pub fn run_prepared(&mut self, data: RunData, questions: &[Question]) {
        self.live.prompts = questions
            .iter()
            .map(|q| (q.id.clone(), crate::sanitize::line(&q.prompt)))
            .collect();
        self.live.status = format!("run {}", data.run.id);
        self.live.prepared = true;
        self.errors = Errors::default();
        self.open_run(data);
        self.inspect.current = None;
    }

    pub fn run_failed(&mut self, message: &str) {
        let what = if self.live.prepared {
            "the run stopped"
        } else {
            "the run did not start"
        };
        self.live.status = format!("{what}: {}", crate::sanitize::line(message));
        self.live.finished = Some(true);
        self.live.ended = Some(Instant::now());
        self.status = self.live.status.clone();
    }

    pub fn live_status(&mut self, message: &str) {
        self.live.status = crate::sanitize::line(message);
    }

    pub fn on_run_event(&mut self, ev: RunEvent) {
        let live = &mut self.live;
        match ev {
            RunEvent::Started {
                total,
                already_done,
            } => {
                live.total = total;
                live.already_done = already_done;
                live.started = Some(Instant::now());
            }
            RunEvent::Asked { qid, repeat } => {
                if repeat == 0 {
                    let prompt = live.prompts.get(&qid).cloned().unwrap_or_default();
                    if live.rows.len() == LIVE_ROWS {
                        live.rows.pop_front();
                    }
                    live.rows.push_back(LiveRow {
                        qid,
                        prompt,
                        text: String::new(),
                        outcome: None,
                    });
                }
            }
            RunEvent::Token { qid, text } => {
                live.tokens += 1;
                if let Some(row) = live.rows.iter_mut().rev().find(|r| r.qid == qid) {
                    if row.text.len() < LIVE_TEXT_MAX {
                        row.text.push_str(&crate::sanitize::line(&text));
                    }
                }
            }
            RunEvent::Answered(r) => {
                live.answered += 1;
                live.completion_tokens += r.completion_tokens();
                if let Some(row) = live.rows.iter_mut().rev().find(|x| x.qid == r.question.id) {
                    row.outcome = Some(r.outcome);
                    row.text = crate::sanitize::line(r.response());
                }
                // The aggregates and the Errors list follow results.jsonl (see `tick`).
            }
            RunEvent::Retry {
                qid,
                attempt,
                reason,
            } => {
                live.retries += 1;
                live.last_retry = crate::sanitize::line(&format!("retry {attempt}: {reason}"));
                // What the failed attempt streamed is void.
                if let Some(row) = live.rows.iter_mut().rev().find(|r| r.qid == qid) {
                    row.text.clear();
                }
            }
            RunEvent::Failed { error, .. } => {
                live.failed += 1;
                live.last_error = crate::sanitize::line(&error);
            }
            RunEvent::Batch {
                iteration,
                questions,
            } => {
                live.iteration = Some(iteration);
                for q in questions {
                    live.prompts.insert(q.id, crate::sanitize::line(&q.prompt));
                }
            }
            RunEvent::BatchDone(event) => live.plan = Some(event),
            RunEvent::NotAsked(n) => live.not_asked = n,
            RunEvent::Finished { cancelled } => {
                live.finished = Some(cancelled);
                live.ended = Some(Instant::now());
                live.status = if cancelled {
                    "cancelled: answered questions are saved".into()
                } else if live.not_asked.is_empty() {
                    "finished".into()
                } else {
                    format!("finished: {}", live.progress())
                };
            }
        }
    }

    /// The next frame's [`App::tick`] once the answers written to results.jsonl so far are
    /// parsed (at most 10 s): what a test or a benchmark that wrote the log itself sees.
    pub fn catch_up(&mut self) {
        if let Some(d) = &self.data {
            d.wait_parsed(std::time::Duration::from_secs(10));
        }
        self.tick();
    }

    /// Once per frame: fold the answers written to results.jsonl since the last frame into
    /// the aggregates and the snapshot.
    pub fn tick(&mut self) {
        self.poll_search();
        self.poll_kg_search();
        self.poll_compare();
        self.poll_figure();
        self.poll_judge();
        self.poll_export();
        self.poll_picker();
        self.poll_kg_load();
        if let Some(d) = &mut self.data {
            d.probe_writer();
            d.refresh();
            d.reload_labels();
            if let Some(why) = &d.broken {
                self.status = format!("results.jsonl can no longer be read: {why}");
            }
            if d.snapshot_stale {
                d.snapshot = d.tally.snapshot();
                d.chance = d.tally.chance.summary();
                d.snapshot_stale = false;
            }
        }
    }
}

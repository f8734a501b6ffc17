//! What KGLens shows between iterations: the log line of a headless run, and Live's side panel
//! (the iteration counter, the convergence curves, the edges the sampler believes weakest).

use super::plan::{IterationReport, KglensConfig};
use crate::core::panel::{plural, Mark, Panel, PanelLine};
use crate::method::plan::PlanEvent;

impl IterationReport {
    /// The event the run layer passes on after an iteration.
    pub fn event(&self) -> PlanEvent {
        PlanEvent {
            log: self.log_line(),
            panel: self.panel(),
        }
    }

    /// One line for a headless run's log.
    pub fn log_line(&self) -> String {
        let s = &self.stats;
        let mut line = format!(
            "iteration {}/{}: {} of {} right · win rate {:.3} · zero-sense {:.3} over {} of {} edges · mean failure {:.3}",
            s.iteration,
            self.of,
            s.correct,
            s.asked,
            s.win_rate,
            s.zero_sense_rate,
            s.examined,
            self.edges,
            s.mean_failure
        );
        if let Some(w) = self.weakest.first() {
            line.push_str(&format!(" · weakest: {}", w.line()));
        }
        if self.converged {
            line.push_str(" · converged");
        }
        line
    }

    /// Live's side panel.
    pub fn panel(&self) -> Panel {
        let s = &self.stats;
        let curve = |name: &str, now: f64, value: fn(&super::plan::IterationStats) -> f64| {
            PanelLine::Curve {
                name: name.into(),
                now,
                values: self.history.iter().map(value).collect(),
            }
        };
        let mut lines = vec![
            PanelLine::Title {
                text: format!("iteration {}/{}", s.iteration, self.of),
                note: format!(
                    " · {} of {} edges examined{}",
                    s.examined,
                    self.edges,
                    if self.converged { " · converged" } else { "" }
                ),
            },
            curve("win", s.win_rate, |h| h.win_rate),
            curve("0-sns", s.zero_sense_rate, |h| h.zero_sense_rate),
            curve("fail", s.mean_failure, |h| h.mean_failure),
            PanelLine::text("weakest edges (posterior failure · right/wrong)").marked(Mark::Dim),
        ];
        lines.extend(self.weakest.iter().map(|w| {
            let mark = if w.failure >= 0.5 {
                Mark::Alarm
            } else {
                Mark::Plain
            };
            PanelLine::text(w.line()).marked(mark)
        }));
        Panel {
            title: "KGLens: where the model is weak".into(),
            lines,
        }
    }
}

impl KglensConfig {
    /// A run of `limit` questions as a whole budget (the TUI's dialog): the paper's batch of
    /// 64 edges (fewer for a smaller budget), as many iterations as the budget buys.
    pub fn for_budget(&self, limit: usize) -> Self {
        let batch = self.batch.min(limit.max(1));
        KglensConfig {
            batch,
            iterations: limit.max(1).div_ceil(batch) as u32,
            ..self.clone()
        }
    }

    /// The run dialog's lines for these settings; `centres` are the entities the walks start
    /// from (none: the whole KG).
    pub fn settings(&self, centres: &[String]) -> Vec<PanelLine> {
        let subgraph = if centres.is_empty() {
            "the whole KG (mark entities to walk from them)".to_string()
        } else {
            format!(
                "walks of {} steps from the marked entities",
                self.walk_steps
            )
        };
        vec![
            PanelLine::field(
                "kglens",
                format!(
                    "{} iteration{} × {} edges · {}",
                    self.iterations,
                    plural(self.iterations as usize),
                    self.batch,
                    self.difficulty.as_str()
                ),
            )
            .noted("   (limit = question budget)"),
            PanelLine::field("subgraph", subgraph),
        ]
    }
}

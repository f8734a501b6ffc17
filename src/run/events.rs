//! What the engine tells its consumers (the headless progress bar, the TUI, the run log).

use super::record::ResultRecord;
use crate::method::plan::PlanEvent;
use crate::questions::Question;

#[derive(Debug, Clone)]
pub enum RunEvent {
    /// `total` questions in this run, `already_done` of them finished by an earlier session.
    Started { total: usize, already_done: usize },
    /// A question was sent to the model.
    Asked { qid: String, repeat: usize },
    /// A piece of the model's answer, as it is decoded.
    Token { qid: String, text: String },
    /// The backend sends a question again after a failure that may pass (429, 5xx); what it
    /// streamed so far is void.
    Retry {
        qid: String,
        attempt: u32,
        reason: String,
    },
    /// A question is finished and verified.
    Answered(Box<ResultRecord>),
    /// A question failed for good (after the backend's own retries); it stays unanswered and a
    /// resumed run asks it again.
    Failed { qid: String, error: String },
    /// An adaptive (KGLens) run drew its next batch: these questions are asked now (those
    /// answered before an interruption are not asked again).
    Batch {
        iteration: u32,
        questions: Vec<Question>,
    },
    /// A staged run finished a batch (a KGLens iteration): what its plan has to show.
    BatchDone(Box<PlanEvent>),
    /// A staged run's plan decided not to ask part of its planned total (KG-FPQ's gate), and
    /// why: progress shows "N asked; M not asked because …". Sent again whenever it changes.
    NotAsked(Vec<crate::core::not_asked::NotAsked>),
    /// No more events follow. `cancelled` when stopped before every question was answered.
    Finished { cancelled: bool },
}

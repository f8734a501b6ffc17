//! Luo et al.'s (2023) short-answer questions: the Wh-question with no options; every
//! object of an N-M relation is a right answer, under its label or any alias.

pub mod questions;

use self::questions as saq;
use super::{prompts, Method};
use crate::backends::Prompt;
use crate::metrics::{Metric, Scoring};
use crate::questions::gold::Gold;
use crate::questions::{Question, Task};
use crate::verify::{self, Reading};

pub struct Saq;

impl Method for Saq {
    fn task(&self) -> Task {
        Task::Saq
    }
    fn describe(&self) -> &'static str {
        "a Wh-question answered in a few words (Luo et al.)"
    }
    fn prompt(&self, q: &Question) -> Prompt {
        prompts::ask("saq", q, &q.prompt)
    }
    fn read(&self, q: &Question, response: &str) -> Reading {
        match &q.gold {
            Gold::Texts { accepted } => verify::short_answer::read(response, accepted),
            other => Reading::unreadable(format!(
                "a short-answer question needs accepted answers, not {other:?}"
            )),
        }
    }
    fn takes_context(&self) -> bool {
        true
    }
    /// The claim judged is "the answer is a right one".
    fn truth_words(&self) -> (&'static str, &'static str) {
        ("right", "wrong")
    }
    fn has_open_answers(&self) -> bool {
        // Every answer is a short free text.
        true
    }
    fn unmade(&self) -> &'static str {
        "subjects were not asked: the relation is a checklist no short answer key can close \
         (\"What is France a member of?\"), or the subject's answer is a value many share \
         (\"Fr\" for the Djiboutian franc), not the one a reader writes"
    }
    fn scoring(&self) -> Scoring {
        Scoring::Outcomes
    }
    fn metrics(&self) -> &'static [Metric] {
        super::LUO_METRICS
    }
}

super::made_up_front!(Saq, saq::generate);

//! KGLens yes/no questions (Zheng et al., 2024), scored per (subject, predicate, object) edge.

pub mod questions;

use self::questions as yesno;
use super::{prompts, Method};
use crate::backends::Prompt;
use crate::metrics::{Metric, Scoring};
use crate::questions::{Question, Task};
use crate::verify::{self, Reading};

pub struct YesNo;

impl Method for YesNo {
    fn task(&self) -> Task {
        Task::Yesno
    }
    fn describe(&self) -> &'static str {
        "yes/no questions, half naming a wrong object (KGLens)"
    }
    fn prompt(&self, q: &Question) -> Prompt {
        prompts::spec("yesno").ask(q.prompt.clone())
    }
    fn read(&self, _q: &Question, response: &str) -> Reading {
        verify::bool_reading(verify::parse_yesno_verdict(response))
    }
    fn has_closed_answers(&self) -> bool {
        true
    }
    fn closed_answers(&self, _q: &Question) -> Option<Vec<String>> {
        Some(vec!["Yes".into(), "No".into()])
    }
    fn scoring(&self) -> Scoring {
        Scoring::Edges
    }
    fn metrics(&self) -> &'static [Metric] {
        &[
            Metric::Accuracy,
            Metric::InvalidRate,
            Metric::WinRate,
            Metric::ZeroSense,
            Metric::AbstainRate,
        ]
    }
    fn truth_words(&self) -> (&'static str, &'static str) {
        ("yes", "no")
    }
}

super::made_up_front!(YesNo, yesno::generate);

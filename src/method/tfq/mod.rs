//! Luo et al.'s (2023) true/false questions: true and false statements 1:1,
//! answered CORRECT / INCORRECT / UNKNOWN; P/R/F1 from summed counts.

pub mod questions;

use self::questions as tfq;
use super::{prompts, Method};
use crate::backends::Prompt;
use crate::metrics::{Metric, Scoring};
use crate::questions::{Question, Task};
use crate::verify::{self, Reading};

pub struct Tfq;

impl Method for Tfq {
    fn task(&self) -> Task {
        Task::Tfq
    }
    fn describe(&self) -> &'static str {
        "true and false statements 1:1 (Luo et al.)"
    }
    fn prompt(&self, q: &Question) -> Prompt {
        prompts::ask("tfq", q, &q.prompt)
    }
    fn read(&self, _q: &Question, response: &str) -> Reading {
        // CORRECT / INCORRECT are truth words and UNKNOWN an abstention for the statement
        // reader, which also copes with everything else a model wraps them in.
        verify::bool_reading(verify::parse_statement_verdict(response))
    }
    fn has_closed_answers(&self) -> bool {
        true
    }
    fn closed_answers(&self, _q: &Question) -> Option<Vec<String>> {
        Some(vec!["CORRECT".into(), "INCORRECT".into(), "UNKNOWN".into()])
    }
    fn takes_context(&self) -> bool {
        true
    }
    fn unmade(&self) -> &'static str {
        "false statements could not be made: the relation has no other object"
    }
    fn scoring(&self) -> Scoring {
        Scoring::Outcomes
    }
    fn metrics(&self) -> &'static [Metric] {
        super::LUO_METRICS
    }
}

super::made_up_front!(Tfq, tfq::generate);

//! GraphEval (Liu et al., 2024): true/false statements with negatives, scored per triple.

pub mod questions;

use self::questions as statements;
use super::{prompts, Method};
use crate::backends::Prompt;
use crate::metrics::{Metric, Scoring};
use crate::questions::{Question, Task};
use crate::verify::{self, Reading};

pub struct Statement;

impl Method for Statement {
    fn task(&self) -> Task {
        Task::Statement
    }
    fn asks_statements(&self) -> bool {
        true
    }
    fn describe(&self) -> &'static str {
        "true/false statements and their negatives (GraphEval)"
    }
    fn prompt(&self, q: &Question) -> Prompt {
        prompts::spec("statement").ask(q.prompt.clone())
    }
    fn read(&self, _q: &Question, response: &str) -> Reading {
        verify::bool_reading(verify::parse_statement_verdict(response))
    }
    fn has_closed_answers(&self) -> bool {
        true
    }
    fn closed_answers(&self, _q: &Question) -> Option<Vec<String>> {
        Some(vec!["Yes".into(), "No".into(), "I don't know".into()])
    }
    fn unmade(&self) -> &'static str {
        "negatives could not be made (no replacement gave a statement that is false in the KG and in words)"
    }
    fn scoring(&self) -> Scoring {
        Scoring::Triples
    }
    fn metrics(&self) -> &'static [Metric] {
        &[
            Metric::Correctness,
            Metric::Truthfulness,
            Metric::Informativeness,
            Metric::Accuracy,
            Metric::AbstainRate,
            Metric::InvalidRate,
        ]
    }
    /// Accuracy, not GraphEval's correctness. Correctness scores a fact 0 whenever the model
    /// accepts any false variant of it (max(0, F − mean F')), so a model that says "true" to
    /// everything, as small base models do, scores 0.00 in every cell: a solid block that
    /// shows nothing of where the model knows more. Accuracy per statement shows it, and its
    /// n is the statements asked. Correctness stays the headline of the summary, and one key
    /// (`m`) away on the screen.
    fn figure_metric(&self) -> Metric {
        Metric::Accuracy
    }
    fn takes_negatives(&self) -> bool {
        true
    }
    fn has_trained_judge(&self) -> bool {
        true
    }
    /// GraphEval's judge learns correct/incorrect/idk from statement and response.
    fn label_format(&self) -> crate::core::label_format::LabelFormat {
        crate::core::label_format::LabelFormat::Grapheval
    }
}

super::made_up_front!(Statement, statements::generate);

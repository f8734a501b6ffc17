//! Luo et al.'s (2023) multiple-choice questions: the object and three distractors of
//! its type, as fill-in-the-blank or as a Wh-question; right when the response names the gold
//! option and no other.

pub mod questions;

use self::questions::{self as generator, McqFormat};
use super::{prompts, Maker, Method};
use crate::backends::Prompt;
use crate::metrics::{Metric, Scoring};
use crate::questions::gold::{choice_letter, Gold};
use crate::questions::{GenerateOptions, Question, Renderer, Task};
use crate::verify::{self, Reading};

pub struct Mcq {
    format: McqFormat,
}

impl Mcq {
    pub const FILL_IN_THE_BLANK: Mcq = Mcq {
        format: McqFormat::FillInTheBlank,
    };
    pub const WH_QUESTION: Mcq = Mcq {
        format: McqFormat::WhQuestion,
    };
}

/// The question and its lettered options, one per line.
pub fn with_options(question: &str, options: &[String]) -> String {
    let mut s = question.to_string();
    for (i, o) in options.iter().enumerate() {
        s.push_str(&format!("\n{}) {o}", choice_letter(i)));
    }
    s
}

impl Method for Mcq {
    fn task(&self) -> Task {
        match self.format {
            McqFormat::FillInTheBlank => Task::McqFib,
            McqFormat::WhQuestion => Task::McqWh,
        }
    }
    fn describe(&self) -> &'static str {
        match self.format {
            McqFormat::FillInTheBlank => "a sentence with [MASK] and four options (Luo et al.)",
            McqFormat::WhQuestion => "a Wh-question and four options (Luo et al.)",
        }
    }
    fn prompt(&self, q: &Question) -> Prompt {
        let options = match &q.gold {
            Gold::Choice { options, .. } => options.as_slice(),
            _ => &[],
        };
        prompts::ask(self.task().as_str(), q, &with_options(&q.prompt, options))
    }
    fn read(&self, q: &Question, response: &str) -> Reading {
        match &q.gold {
            Gold::Choice { options, correct } => verify::choice::read(response, options, *correct),
            other => Reading::unreadable(format!(
                "a multiple-choice question needs options, not {other:?}"
            )),
        }
    }
    fn has_closed_answers(&self) -> bool {
        true
    }
    /// The options' letters: the reply begins with one ("B) Rome"), and the letter alone is
    /// the answer.
    fn closed_answers(&self, q: &Question) -> Option<Vec<String>> {
        match &q.gold {
            Gold::Choice { options, .. } => Some(
                (0..options.len())
                    .map(|i| crate::core::gold::choice_letter(i).to_string())
                    .collect(),
            ),
            _ => None,
        }
    }
    fn takes_context(&self) -> bool {
        true
    }
    /// The claim judged is "the answer is a right one".
    fn truth_words(&self) -> (&'static str, &'static str) {
        ("right", "wrong")
    }
    fn unmade(&self) -> &'static str {
        "facts were passed over: their relation has fewer than three other objects that are wrong, \
         unlike the answer in name and number, and as matchable to the subject's name as it is"
    }
    fn scoring(&self) -> Scoring {
        Scoring::Outcomes
    }
    fn metrics(&self) -> &'static [Metric] {
        super::LUO_METRICS
    }
}

impl Maker for Mcq {
    fn generate(
        &self,
        r: &Renderer<'_>,
        candidates: &[usize],
        opts: &GenerateOptions,
    ) -> (Vec<Question>, usize) {
        generator::generate(r, candidates, opts, self.format)
    }
}

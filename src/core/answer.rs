//! What a model committed to, whatever the question's kind, and which stage of the
//! verification chain decided it.

use serde::{Deserialize, Serialize};

use super::verdict::Verdict;

/// The model's answer as read from its response.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Answer {
    /// True/false or yes/no.
    Bool { value: bool },
    /// One option of a multiple-choice question, by index (0 = A).
    Choice { index: usize },
    /// A short free-text answer (the span the rules read it from).
    Text { text: String },
    /// The model declined to answer.
    Abstained,
    /// Nothing could be read.
    Invalid,
}

impl Answer {
    /// The answer of a true/false or yes/no reading.
    pub fn from_verdict(v: Verdict) -> Self {
        match v {
            Verdict::True => Answer::Bool { value: true },
            Verdict::False => Answer::Bool { value: false },
            Verdict::Idk => Answer::Abstained,
            Verdict::Invalid => Answer::Invalid,
        }
    }

    /// For the drill-down: "true", "B", "Lima", "idk", "invalid".
    pub fn describe(&self) -> String {
        match self {
            Answer::Bool { value } => value.to_string(),
            Answer::Choice { index } => crate::core::gold::choice_letter(*index).to_string(),
            Answer::Text { text } => text.clone(),
            Answer::Abstained => "idk".into(),
            Answer::Invalid => "invalid".into(),
        }
    }
}

/// Whether an answer is one of a fixed set (true/false, yes/no, an option letter) or free.
/// Only a closed answer has a chance baseline: a model that knows nothing still lands on the
/// right one of a few options at a rate that can be computed. An open answer (a short answer,
/// a response judged against a premise or a set of facts) has no such rate, so no chance line
/// and no near-chance warning is ever drawn for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKind {
    Closed,
    Open,
}

/// Which stage of the verification chain decided an answer's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// The rule parser (every run before the judge existed).
    #[default]
    Rules,
    /// The LLM judge, because the rules were not confident or `--judge-all` was given.
    Judge,
    /// A person's hand label (applied in reports, never written into results).
    Label,
    /// GraphEval's trained judge on the model's hidden state (`--via-judge`): nothing was
    /// generated; the verdict is the class the judge predicts, read through the polarity.
    Trained,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Rules => "rules",
            Stage::Judge => "judge",
            Stage::Label => "hand label",
            Stage::Trained => "trained judge",
        }
    }
}

impl Reading {
    /// Nothing could be read, for the reason given; no judge would read more.
    pub fn unreadable(rule: impl Into<String>) -> Self {
        Reading {
            answer: Answer::Invalid,
            verdict: Verdict::Invalid,
            rule: rule.into(),
            confident: true,
        }
    }
}

/// What the rules stage read from one response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    pub answer: Answer,
    /// The answer as a claim judged against [`Gold::truth`](crate::core::gold::Gold::truth):
    /// for true/false questions the claim itself, for the others whether the answer is a right
    /// one (`True`), a wrong one (`False`), an abstention or unreadable.
    pub verdict: Verdict,
    /// Why, for the drill-down.
    pub rule: String,
    /// Whether the rules are sure enough that a judge need not look (a decisive answer, a
    /// clear abstention, an exact option); unsure readings go to the judge when there is one.
    pub confident: bool,
}

//! One line of `results.jsonl`: a question, every answer the model gave to it, and the verdict.

use serde::{Deserialize, Serialize};

use crate::questions::Question;
use crate::verify::{OutcomeKind, Verdict};

/// One time the model was asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub response: String,
    pub verdict: Verdict,
    /// Why the parser decided `verdict`.
    pub rule: String,
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    pub first_token_ms: u64,
    pub total_ms: u64,
    pub finish_reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultRecord {
    pub question: Question,
    pub attempts: Vec<Attempt>,
    /// The majority vote over the attempts' verdicts.
    pub verdict: Verdict,
    /// The verdict judged against the gold answer.
    pub outcome: OutcomeKind,
    /// Why: each attempt's rule, the vote, and the comparison with the gold answer.
    pub trace: String,
    pub finished_at: String,
}

impl ResultRecord {
    /// The first attempt's text: what the drill-down shows as "the response".
    pub fn response(&self) -> &str {
        self.attempts.first().map_or("", |a| a.response.as_str())
    }

    /// Tokens the model generated for this question, over all its attempts.
    pub fn completion_tokens(&self) -> u64 {
        self.attempts
            .iter()
            .map(|a| u64::from(a.completion_tokens))
            .sum()
    }
}

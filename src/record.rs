//! One line of `results.jsonl`: a question, every answer the model gave to it, and the verdict.

use serde::{Deserialize, Serialize};

use crate::core::question::Question;
use crate::verify::{Answer, OutcomeKind, Stage, Verdict};

/// One call of the judge, as recorded in the attempt it judged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JudgeCall {
    /// Which model judged (its identity, never a key).
    pub model: String,
    /// The judge's whole output.
    pub output: String,
    /// What the output says; `None` when it could not be read (the rules' decision stands).
    pub outcome: Option<OutcomeKind>,
    /// Why the judge was asked ("rules not confident", "--judge-all") or why it failed.
    pub reason: String,
}

/// The trained judge's prediction for one statement, recorded in the attempt it decided.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TrainedCall {
    /// Which judge predicted (its file name and the first 12 hex digits of its sha256).
    pub judge: String,
    /// P(the model answers correctly), P(incorrectly), P(it says it does not know), from the
    /// head of the statement's polarity; they sum to 1.
    pub probs: [f32; 3],
}

impl TrainedCall {
    /// The class with the highest probability (ties go to the earlier class).
    pub fn class(&self) -> crate::core::verdict::JudgeClass {
        crate::core::verdict::JudgeClass::argmax(&self.probs)
    }
}

/// One time the model was asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub response: String,
    /// The claim judged against the gold truth (see [`crate::verify::Reading::verdict`]).
    pub verdict: Verdict,
    /// What the model committed to; absent in runs before schema 2, where it is the verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
    /// Why `verdict` was decided.
    pub rule: String,
    /// Which stage decided `verdict`: the rules, or the judge.
    #[serde(default)]
    pub stage: Stage,
    /// The judge's call, when it was asked (also when its output could not be read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<JudgeCall>,
    /// KGHaluBench's chain on this answer: abstention, entity-level similarity, each fact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compound: Option<crate::core::compound::CompoundCheck>,
    /// The trained judge's class probabilities, in a `--via-judge` run (nothing generated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trained: Option<TrainedCall>,
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
    /// What the model committed to in its first attempt (a verdict, for runs before schema 2).
    pub fn answer(&self) -> Answer {
        self.attempts.first().map_or_else(
            || Answer::from_verdict(self.verdict),
            |a| {
                a.answer
                    .clone()
                    .unwrap_or_else(|| Answer::from_verdict(a.verdict))
            },
        )
    }

    /// The stage that decided: the judge when it decided any attempt, the trained judge when
    /// it did (a `--via-judge` run), else the rules.
    pub fn stage(&self) -> Stage {
        if self.attempts.iter().any(|a| a.stage == Stage::Judge) {
            Stage::Judge
        } else if self.attempts.iter().any(|a| a.stage == Stage::Trained) {
            Stage::Trained
        } else {
            Stage::Rules
        }
    }

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

//! The verification chain's second stage: an LLM judge, run on any backend kgscope has, asked
//! whether a response gives a right answer, a wrong one, or none.
//!
//! The rules decide first; the judge is asked when they are not confident (a contradiction, a
//! courtesy word, an answer found only inside a sentence, a name the KG does not list), or for
//! every answer with `--judge-all`. Its raw output is recorded with its decision; an output it
//! cannot be read from leaves the rules' decision in place. Hand labels, the third stage,
//! override both in reports.

use std::sync::Arc;

use crate::backends::{Backend, BackendError, GenParams, Prompt, Request};
use crate::method::{self, prompts};
use crate::questions::Question;
use crate::verify::{self, Answer, OutcomeKind, Reading, Verdict};

pub use crate::record::JudgeCall;

/// A judge model and when to ask it.
pub struct Judge {
    backend: Arc<dyn Backend>,
    /// Ask for every answer, not only those the rules are unsure of.
    pub all: bool,
    model: String,
}

/// Short and greedy: the judge answers one word.
pub fn judge_params() -> GenParams {
    GenParams {
        temperature: 0.0,
        top_p: 1.0,
        seed: 42,
        max_tokens: 8,
        stop: vec!["\n".into()],
    }
}

/// The judge's view of one answer: the question as the model saw it, the answer key and the
/// response.
pub fn prompt(q: &Question, response: &str) -> Prompt {
    let m = method::of(q.task);
    if let Some(p) = m.judge_prompt(q, response) {
        return p;
    }
    let asked = m.prompt(q).input;
    let key = m.gold_text(q);
    // The response is the model's, possibly long: the judge sees its start, where the answer is.
    let response: String = response.trim().chars().take(600).collect();
    prompts::spec("judge").ask(format!(
        "Question: {asked}\nKey: {key}\nResponse: {response}"
    ))
}

/// Reads the judge's one word: RIGHT / WRONG / NONE, or the usual synonyms.
pub fn read_output(output: &str) -> Option<OutcomeKind> {
    let first = output
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())?
        .to_lowercase();
    match first.as_str() {
        "right" | "correct" | "yes" | "true" => Some(OutcomeKind::Correct),
        "wrong" | "incorrect" | "no" | "false" => Some(OutcomeKind::Incorrect),
        "none" | "abstained" | "abstain" | "unknown" | "unclear" => Some(OutcomeKind::Abstained),
        _ => None,
    }
}

impl Judge {
    pub fn new(backend: Arc<dyn Backend>, all: bool) -> Self {
        let model = backend.model_id();
        Self {
            backend,
            all,
            model,
        }
    }

    /// One request to the judge model, for a method that asks its judge its own way
    /// (KGHaluBench's per-fact verdicts); `Err` only when the judge can never answer.
    pub async fn complete(&self, req: Request) -> Result<Result<String, String>, BackendError> {
        crate::backends::complete(self.backend.as_ref(), req).await
    }

    /// Whether this reading goes to the judge.
    pub fn wants(&self, reading: &Reading) -> bool {
        self.all || !reading.confident
    }

    /// Asks the judge about one response. A failed call is recorded, never raised, unless the
    /// judge can never answer (a rejected key or model), which stops the run.
    pub async fn call(
        &self,
        q: &Question,
        response: &str,
        reason: &str,
    ) -> Result<JudgeCall, BackendError> {
        let req = Request {
            id: format!("judge:{}", q.id),
            prompt: prompt(q, response),
            params: judge_params(),
        };
        let output = match crate::backends::complete(self.backend.as_ref(), req).await? {
            Ok(output) => output,
            Err(e) => {
                return Ok(JudgeCall {
                    model: self.model.clone(),
                    output: String::new(),
                    outcome: None,
                    reason: format!("{reason}; the judge failed: {e}"),
                })
            }
        };
        Ok(JudgeCall {
            model: self.model.clone(),
            outcome: read_output(&output),
            output,
            reason: reason.into(),
        })
    }
}

/// The reading after the judge: its outcome, turned into the claim judged against the gold
/// truth (see [`Reading::verdict`]); the rules' reading when the judge said nothing readable.
pub fn apply(q: &Question, rules: Reading, call: &JudgeCall) -> Reading {
    let Some(outcome) = call.outcome else {
        return rules;
    };
    let verdict = verify::claim_for(outcome, q.gold.truth());
    let answer = match (&rules.answer, verdict) {
        (_, Verdict::Idk) => Answer::Abstained,
        // A true/false answer is the claim itself.
        (
            Answer::Bool { .. } | Answer::Abstained | Answer::Invalid,
            Verdict::True | Verdict::False,
        ) if matches!(q.gold, crate::questions::Gold::Bool { .. }) => Answer::from_verdict(verdict),
        (a, _) => a.clone(),
    };
    Reading {
        answer,
        verdict,
        rule: format!("judge said {:?} ({})", call.output.trim(), rules.rule),
        confident: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::questions::Gold;

    #[test]
    fn reads_the_judges_word() {
        assert_eq!(read_output("RIGHT"), Some(OutcomeKind::Correct));
        assert_eq!(read_output(" Wrong."), Some(OutcomeKind::Incorrect));
        assert_eq!(read_output("NONE"), Some(OutcomeKind::Abstained));
        assert_eq!(read_output("**Correct**"), Some(OutcomeKind::Correct));
        assert_eq!(read_output("The response"), None);
        assert_eq!(read_output(""), None);
    }

    #[test]
    fn a_judged_answer_becomes_the_claim_against_the_gold() {
        let mut q = crate::questions::tests_support::question();
        let rules = Reading {
            answer: Answer::Invalid,
            verdict: Verdict::Invalid,
            rule: "both yes and no".into(),
            confident: false,
        };
        let call = |o| JudgeCall {
            model: "m".into(),
            output: "x".into(),
            outcome: Some(o),
            reason: "r".into(),
        };
        q.gold = Gold::no();
        // "Right" on a false statement: the model said false.
        let r = apply(&q, rules.clone(), &call(OutcomeKind::Correct));
        assert_eq!(
            (r.verdict, r.answer),
            (Verdict::False, Answer::Bool { value: false })
        );
        let r = apply(&q, rules.clone(), &call(OutcomeKind::Incorrect));
        assert_eq!(r.verdict, Verdict::True);
        let r = apply(&q, rules.clone(), &call(OutcomeKind::Abstained));
        assert_eq!((r.verdict, r.answer), (Verdict::Idk, Answer::Abstained));
        // Unreadable: the rules stand.
        let mut silent = call(OutcomeKind::Correct);
        silent.outcome = None;
        assert_eq!(apply(&q, rules.clone(), &silent), rules);
    }
}

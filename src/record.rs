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
    /// head of the statement's polarity; they sum to 1. Never written unless finite: JSON has
    /// no NaN (serde_json would write `null`, which no reader of the run could read back).
    #[serde(serialize_with = "finite_probs")]
    pub probs: [f32; 3],
}

/// Serialises probabilities, refusing any that is not a finite number, so a record the reader
/// cannot read is never written.
fn finite_probs<S: serde::Serializer>(probs: &[f32; 3], s: S) -> Result<S::Ok, S::Error> {
    if let Some(p) = probs.iter().find(|p| !p.is_finite()) {
        return Err(serde::ser::Error::custom(format!(
            "a trained judge's probability is {p}, not a finite number: not recorded"
        )));
    }
    probs.serialize(s)
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
    /// The options' likelihoods, when the answer was chosen by likelihood (`--scoring
    /// logprob`; nothing generated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub likelihood: Option<LikelihoodCall>,
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    pub first_token_ms: u64,
    pub total_ms: u64,
    pub finish_reason: String,
}

/// A closed answer chosen by likelihood: every option's log-probability after the prompt.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LikelihoodCall {
    /// The options, as the model would begin its reply.
    pub options: Vec<String>,
    /// Each option's natural-log probability, summed over its tokens.
    pub logprobs: Vec<f64>,
    /// Each option's token count.
    pub tokens: Vec<u32>,
    /// Whether the options were compared per token (`--scoring logprob-norm`).
    #[serde(default)]
    pub per_token: bool,
    /// Each option's probability among the options (the compared scores' softmax): the
    /// model's confidence, for calibration.
    pub probs: Vec<f64>,
    /// The option taken as the answer (the most likely).
    pub chosen: usize,
}

impl LikelihoodCall {
    /// The call for the options' log-probabilities (summed over `tokens` tokens each): the
    /// most likely option chosen, the scores turned into probabilities over the options. A
    /// log-probability that is not finite (an option the model rules out) is kept as a very
    /// small number, so the record stays valid JSON.
    pub fn new(options: Vec<String>, logprobs: &[f64], tokens: &[u32], per_token: bool) -> Self {
        let logprobs: Vec<f64> = logprobs
            .iter()
            .map(|&l| if l.is_finite() { l } else { -1e9 })
            .collect();
        let compared: Vec<f64> = logprobs
            .iter()
            .zip(tokens.iter().chain(std::iter::repeat(&1)))
            .map(|(&l, &n)| {
                if per_token {
                    l / f64::from(n.max(1))
                } else {
                    l
                }
            })
            .collect();
        let max = compared.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exp: Vec<f64> = compared.iter().map(|&c| (c - max).exp()).collect();
        let sum: f64 = exp.iter().sum();
        let probs: Vec<f64> = exp.iter().map(|e| e / sum).collect();
        // The first of equal maxima, so a tie is decided the same way every time.
        let chosen = compared.iter().position(|&c| c == max).unwrap_or_default();
        Self {
            options,
            logprobs,
            tokens: tokens.to_vec(),
            per_token,
            probs,
            chosen,
        }
    }

    /// The chosen option and its probability.
    pub fn answer(&self) -> (&str, f64) {
        (
            self.options.get(self.chosen).map_or("", String::as_str),
            self.probs.get(self.chosen).copied().unwrap_or(0.0),
        )
    }
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

#[cfg(test)]
mod likelihood_tests {
    use super::LikelihoodCall;

    #[test]
    fn the_most_likely_option_is_chosen_and_probabilities_sum_to_one() {
        let opts = ["Yes", "No", "I don't know"].map(String::from).to_vec();
        let c = LikelihoodCall::new(opts.clone(), &[-1.0, -0.5, -1.2], &[1, 1, 4], false);
        assert_eq!(c.chosen, 1);
        assert_eq!(c.answer().0, "No");
        assert!((c.probs.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let e = [(-1.0f64).exp(), (-0.5f64).exp(), (-1.2f64).exp()];
        assert!((c.probs[1] - e[1] / e.iter().sum::<f64>()).abs() < 1e-12);
        // Per token, the four-token option's mean (-0.3) beats the others.
        let n = LikelihoodCall::new(opts.clone(), &[-1.0, -0.5, -1.2], &[1, 1, 4], true);
        assert_eq!(n.chosen, 2);
        // An option ruled out stays in the record as a finite number.
        let r = LikelihoodCall::new(opts, &[f64::NEG_INFINITY, -0.1, -3.0], &[1, 1, 4], false);
        assert!(r.logprobs[0].is_finite() && r.probs[0] < 1e-100);
        assert!(serde_json::to_string(&r).is_ok_and(|s| !s.contains("null")));
    }
}

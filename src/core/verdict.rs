//! The two vocabularies every method shares: what the model said, and how that compares to the KG.

use serde::{Deserialize, Serialize};

/// What the model said about a statement or a yes/no question, before looking at the KG.
///
/// `Invalid` is kept apart from `Idk`: a model that declines is measured (GraphEval's
/// truthfulness rewards it), a response we could not read is a failure to follow the format and
/// is only counted, never scored as a belief.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// "Yes" / "the statement is true".
    True,
    /// "No" / "the statement is false".
    False,
    /// The model abstained ("I don't know", "not sure", ...).
    Idk,
    /// No verdict could be read (empty, contradictory, rambling, another language).
    Invalid,
}

/// A verdict judged against the KG's gold label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OutcomeKind {
    Correct,
    Incorrect,
    Abstained,
    Invalid,
}

/// The three classes GraphEval's judge predicts for a statement: whether the evaluated model
/// answers it correctly, incorrectly, or says it does not know. Hand labels and the other
/// verifiers are compared with each other in these classes too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JudgeClass {
    Correct,
    Incorrect,
    Idk,
}

impl JudgeClass {
    pub const ALL: [JudgeClass; 3] = [JudgeClass::Correct, JudgeClass::Incorrect, JudgeClass::Idk];

    pub fn name(self) -> &'static str {
        match self {
            JudgeClass::Correct => "correct",
            JudgeClass::Incorrect => "incorrect",
            JudgeClass::Idk => "idk",
        }
    }

    /// Position in [`JudgeClass::ALL`] (and in a probability triple).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The class of an outcome; an unreadable answer is in none of them.
    pub fn of_outcome(o: OutcomeKind) -> Option<JudgeClass> {
        match o {
            OutcomeKind::Correct => Some(JudgeClass::Correct),
            OutcomeKind::Incorrect => Some(JudgeClass::Incorrect),
            OutcomeKind::Abstained => Some(JudgeClass::Idk),
            OutcomeKind::Invalid => None,
        }
    }

    /// What the model said, given the class and whether the statement is true. Answering a
    /// negative correctly is saying "false": the class goes through the polarity (GraphEval's
    /// released analysis reads "correct" on a negative as "said true", which rewards a model
    /// that says yes to everything).
    pub fn verdict(self, statement_is_true: bool) -> Verdict {
        match self {
            JudgeClass::Correct if statement_is_true => Verdict::True,
            JudgeClass::Correct => Verdict::False,
            JudgeClass::Incorrect if statement_is_true => Verdict::False,
            JudgeClass::Incorrect => Verdict::True,
            JudgeClass::Idk => Verdict::Idk,
        }
    }

    /// The most probable class; a tie goes to the earlier class.
    pub fn argmax(probs: &[f32; 3]) -> JudgeClass {
        let mut best = 0;
        for i in 1..3 {
            if probs[i] > probs[best] {
                best = i;
            }
        }
        JudgeClass::ALL[best]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_becomes_a_verdict_through_the_polarity() {
        use JudgeClass::*;
        assert_eq!(Correct.verdict(true), Verdict::True);
        assert_eq!(
            Correct.verdict(false),
            Verdict::False,
            "a negative answered right"
        );
        assert_eq!(Incorrect.verdict(true), Verdict::False);
        assert_eq!(
            Incorrect.verdict(false),
            Verdict::True,
            "a negative taken as true"
        );
        assert_eq!(Idk.verdict(false), Verdict::Idk);
        assert_eq!(JudgeClass::argmax(&[0.2, 0.5, 0.3]), Incorrect);
        assert_eq!(
            JudgeClass::argmax(&[0.4, 0.4, 0.2]),
            Correct,
            "ties go first"
        );
        assert_eq!(JudgeClass::of_outcome(OutcomeKind::Invalid), None);
    }

    #[test]
    fn serde_names_are_lowercase() {
        let v = serde_json::to_string(&[
            Verdict::True,
            Verdict::False,
            Verdict::Idk,
            Verdict::Invalid,
        ])
        .unwrap();
        assert_eq!(v, r#"["true","false","idk","invalid"]"#);
        let o = serde_json::to_string(&[
            OutcomeKind::Correct,
            OutcomeKind::Incorrect,
            OutcomeKind::Abstained,
            OutcomeKind::Invalid,
        ])
        .unwrap();
        assert_eq!(o, r#"["correct","incorrect","abstained","invalid"]"#);
        let back: Verdict = serde_json::from_str(r#""idk""#).unwrap();
        assert_eq!(back, Verdict::Idk);
    }
}

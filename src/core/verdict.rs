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

#[cfg(test)]
mod tests {
    use super::*;

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

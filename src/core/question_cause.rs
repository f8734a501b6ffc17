//! Why a question is bad: the cause codes of the reviewed set (tests/data/reviewed/RUBRIC.md).
//!
//! One list for everyone who says why a question was rejected: an annotator's "bad question"
//! label in the TUI, `labels export --reviewed` writing those labels as reviewed-set lines,
//! and the reviewed set itself. The codes are the files' spelling, so a label exported from a
//! run reads as a line a reader wrote.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionCause {
    Ungrammatical,
    GoldWrong,
    TrueFalseItem,
    Ambiguous,
    BadDistractor,
    Giveaway,
    Other,
}

impl QuestionCause {
    /// In the rubric's order, which is the order a picker shows them in.
    pub const ALL: [QuestionCause; 7] = [
        QuestionCause::Ungrammatical,
        QuestionCause::GoldWrong,
        QuestionCause::TrueFalseItem,
        QuestionCause::Ambiguous,
        QuestionCause::BadDistractor,
        QuestionCause::Giveaway,
        QuestionCause::Other,
    ];

    /// The code as the reviewed set's files spell it ("gold_wrong").
    pub fn code(self) -> &'static str {
        match self {
            QuestionCause::Ungrammatical => "ungrammatical",
            QuestionCause::GoldWrong => "gold_wrong",
            QuestionCause::TrueFalseItem => "true_false_item",
            QuestionCause::Ambiguous => "ambiguous",
            QuestionCause::BadDistractor => "bad_distractor",
            QuestionCause::Giveaway => "giveaway",
            QuestionCause::Other => "other",
        }
    }

    /// The name a person reads ("gold wrong").
    pub fn name(self) -> &'static str {
        match self {
            QuestionCause::Ungrammatical => "ungrammatical",
            QuestionCause::GoldWrong => "gold wrong",
            QuestionCause::TrueFalseItem => "true \"false\" item",
            QuestionCause::Ambiguous => "ambiguous",
            QuestionCause::BadDistractor => "bad distractor",
            QuestionCause::Giveaway => "give-away",
            QuestionCause::Other => "other",
        }
    }

    /// What the code means, in one line (the rubric's definition, shortened).
    pub fn meaning(self) -> &'static str {
        match self {
            QuestionCause::Ungrammatical => "broken English, missing article, odd slot filling",
            QuestionCause::GoldWrong => "the answer key is wrong or stale",
            QuestionCause::TrueFalseItem => "an item marked false is true or defensibly true",
            QuestionCause::Ambiguous => "several right answers, too vague or too narrow",
            QuestionCause::BadDistractor => "a wrong option excluded by something else",
            QuestionCause::Giveaway => "the name or an alias gives the answer away",
            QuestionCause::Other => "anything else (say what in the note)",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_the_reviewed_sets_spelling() {
        for c in QuestionCause::ALL {
            let json = serde_json::to_string(&c).unwrap();
            assert_eq!(json, format!("\"{}\"", c.code()));
            assert_eq!(serde_json::from_str::<QuestionCause>(&json).unwrap(), c);
        }
        // Every cause the committed set uses is one of these codes.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/reviewed/seed41");
        let mut seen = 0;
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            if !path.to_string_lossy().ends_with(".verdicts.jsonl") {
                continue;
            }
            for line in std::fs::read_to_string(&path).unwrap().lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                if let Some(c) = v["cause"].as_str() {
                    serde_json::from_value::<QuestionCause>(v["cause"].clone())
                        .unwrap_or_else(|_| panic!("{c} in {}", path.display()));
                    seen += 1;
                }
            }
        }
        assert!(seen > 100, "the set's rejections were read ({seen})");
    }
}

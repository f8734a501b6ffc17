//! The rules stage for an answer to a question built on a false premise (KG-FPQ's generative
//! task): did the answer reject or correct the premise, or go along with it? The rules only
//! look for an explicit rejection at the start ("No, …", "Actually, …", "That is not true",
//! "There is no …"); anything else is read as going along, and never confidently: the judge,
//! shown the premise and the true fact, decides every answer when the run has one.

use super::Verdict;
use crate::core::answer::{Answer, Reading};

/// Openings that reject or correct what the question presupposes.
const REJECTIONS: &[&str] = &[
    "no",
    "actually",
    "in fact",
    "that is not",
    "that's not",
    "this is not",
    "it is not",
    "it isn't",
    "that is incorrect",
    "that's incorrect",
    "incorrect",
    "false",
    "there is no",
    "there was no",
    "there are no",
    "the premise",
    "the question is based on",
    "this question is based on",
    "contrary to",
    "not true",
];

/// Whether `text` starts with one of `REJECTIONS` as whole words.
fn opens_with_rejection(text: &str) -> bool {
    let t: String = text
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase();
    REJECTIONS.iter().any(|r| {
        t.strip_prefix(r)
            .is_some_and(|rest| rest.chars().next().is_none_or(|c| !c.is_alphanumeric()))
    })
}

pub fn read(response: &str) -> Reading {
    let text = response.trim();
    if text.is_empty() {
        return Reading::unreadable("empty response");
    }
    if let Some(p) = super::abstention::is_abstention(text) {
        return Reading {
            answer: Answer::Abstained,
            verdict: Verdict::Idk,
            rule: format!("abstains: {p:?}"),
            confident: false,
        };
    }
    let rejects = opens_with_rejection(text);
    Reading {
        answer: Answer::Bool { value: rejects },
        verdict: if rejects {
            Verdict::True
        } else {
            Verdict::False
        },
        rule: if rejects {
            "opens by rejecting the premise".into()
        } else {
            "answers without rejecting the premise".into()
        },
        confident: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_explicit_rejection_at_the_start_is_a_rejection() {
        for r in [
            "No, Lyon is not the capital of France; Paris is.",
            "Actually, the capital of France is Paris.",
            "There is no reason: Lyon is not France's capital.",
            "That's not right. Paris is the capital.",
        ] {
            assert_eq!(read(r).verdict, Verdict::True, "{r}");
        }
        for r in [
            "Lyon became the capital because of its silk trade.",
            "Nobody knows exactly why.",
            "Notably, Lyon is large.",
        ] {
            assert_eq!(read(r).verdict, Verdict::False, "{r}");
        }
        assert_eq!(read("").verdict, Verdict::Invalid);
        assert!(!read("No.").confident, "the judge decides");
    }
}

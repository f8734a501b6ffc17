//! Reading a short answer (Luo et al.'s SAQ and fill-in-the-blank, Luo et al., 2023): abstention
//! first, then a normalised fuzzy match against every accepted name.
//!
//! Normalising lowercases, turns punctuation into spaces, drops the articles "a", "an" and
//! "the", and collapses spaces. An answer is right when an accepted name is contained in it or
//! it is contained in an accepted name, as the paper says; kgscope matches whole words only,
//! so "in" is not found in "india".

use super::abstention;
use super::clean::{clean_response, sentences};
use crate::core::answer::{Answer, Reading};
use crate::core::gold::Accepted;
use crate::core::verdict::Verdict;

/// The normal form two names are compared in.
pub fn normalise(s: &str) -> String {
    let spaced: String = s
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_lowercase().next().unwrap_or(c)
            } else {
                ' '
            }
        })
        .collect();
    spaced
        .split_whitespace()
        .filter(|w| !matches!(*w, "a" | "an" | "the"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether the words of `needle` occur in a row in `hay` (both normalised).
pub(crate) fn contains_words(hay: &str, needle: &str) -> bool {
    !needle.is_empty() && format!(" {hay} ").contains(&format!(" {needle} "))
}

/// How an answer matched an accepted name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// The answer is the name.
    Exact,
    /// One contains the other.
    Contains,
}

/// The best match of `answer` against any accepted name, with the name.
pub fn best_match<'a>(answer: &str, accepted: &'a [Accepted]) -> Option<(Match, &'a str)> {
    let a = normalise(answer);
    if a.is_empty() {
        return None;
    }
    let mut found = None;
    for name in accepted.iter().flat_map(Accepted::names) {
        let n = normalise(name);
        if n == a {
            return Some((Match::Exact, name));
        }
        if found.is_none() && (contains_words(&a, &n) || contains_words(&n, &a)) {
            found = Some((Match::Contains, name));
        }
    }
    found
}

/// Words that introduce an answer without being part of it.
const LEAD_INS: &[&str] = &[
    "the answer is",
    "answer is",
    "it is",
    "it's",
    "that would be",
];

/// The span that holds the answer: the first sentence of the cleaned response with something
/// left once its lead-in is removed ("The answer is: Rome" splits at the colon).
fn answer_span(cleaned: &str) -> Option<String> {
    sentences(cleaned).into_iter().find_map(|sentence| {
        let mut s = sentence
            .trim()
            .trim_end_matches(['.', '!', ':'])
            .trim()
            .to_string();
        for l in LEAD_INS {
            if s.to_lowercase().starts_with(l) {
                s = s[l.len()..].trim_start_matches([':', ' ']).to_string();
            }
        }
        (!s.is_empty()).then_some(s)
    })
}

/// The rules stage for a short answer.
pub fn read(response: &str, accepted: &[Accepted]) -> Reading {
    let reading = |answer, verdict, rule: String, confident| Reading {
        answer,
        verdict,
        rule,
        confident,
    };
    if response.trim().is_empty() {
        return reading(
            Answer::Invalid,
            Verdict::Invalid,
            "empty response".into(),
            true,
        );
    }
    let cleaned = clean_response(response);
    let Some(span) = answer_span(&cleaned) else {
        return reading(
            Answer::Invalid,
            Verdict::Invalid,
            "nothing left after removing reasoning, template tokens and invented turns".into(),
            false,
        );
    };
    if let Some(a) = abstention::find(&span).filter(|a| a.about_question) {
        return reading(
            Answer::Abstained,
            Verdict::Idk,
            format!("abstention phrase '{}'", a.phrase),
            true,
        );
    }
    let text = Answer::Text { text: span.clone() };
    match best_match(&span, accepted) {
        Some((Match::Exact, name)) => {
            reading(text, Verdict::True, format!("answer is '{name}'"), true)
        }
        Some((Match::Contains, name)) => reading(
            text,
            Verdict::True,
            format!("answer '{span}' and accepted '{name}' contain one another"),
            false,
        ),
        // A name the KG does not list (an alias it lacks) reads as wrong: the judge may know
        // better, so the rules are not sure.
        None => reading(
            text,
            Verdict::False,
            format!("'{span}' matches no accepted answer"),
            false,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(label: &str, aliases: &[&str]) -> Accepted {
        Accepted {
            label: label.into(),
            aliases: aliases.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn normal_form() {
        assert_eq!(
            normalise("  The United-States of America! "),
            "united states of america"
        );
        assert_eq!(normalise("A Coruña"), "coruña");
    }

    #[test]
    fn matches_labels_and_aliases_by_whole_words() {
        let gold = [
            acc("United States", &["USA", "America"]),
            acc("Canada", &[]),
        ];
        let read_v = |r: &str| read(r, &gold).verdict;
        assert_eq!(read_v("Canada."), Verdict::True);
        assert_eq!(read_v("the usa"), Verdict::True);
        assert_eq!(read_v("The answer is: America"), Verdict::True);
        // gold ⊂ answer
        assert_eq!(
            read_v("It borders the United States of America."),
            Verdict::True
        );
        // answer ⊂ gold
        assert_eq!(read_v("States"), Verdict::True);
        assert_eq!(read_v("Mexico"), Verdict::False);
        // whole words only: "can" is not "Canada"
        assert_eq!(read_v("can"), Verdict::False);
        assert_eq!(read_v("I don't know."), Verdict::Idk);
        assert_eq!(read_v(""), Verdict::Invalid);
        assert!(read("Canada", &gold).confident);
        assert!(!read("Mexico", &gold).confident);
    }
}

//! The first stage of KGHaluBench's fact-level check: whether a long answer states an asked
//! fact's object, by its label or an alias, before any judge is asked. It confirms, never
//! refutes: a fact it does not find goes on to the judge (stated / contradicted / not
//! mentioned), as the chain has it; the paper's first stage (an NLI model) plays the
//! same part.
//!
//! Tolerant of what does not change the fact: case, punctuation and articles (the short-answer
//! normal form, [`crate::verify::short_answer::normalise`]), thousands separators ("1,285,216",
//! "1 285 216" and "1285216" are one number), and the order of a name's words when they stand
//! together in one sentence ("Curie, Marie" states "Marie Curie").

use crate::verify::clean::sentences;
use crate::verify::short_answer::{contains_words, normalise};

/// `s` with digit groups joined where a comma, a space or a thin space separates thousands:
/// "1,285,216" → "1285216". A decimal point is left alone.
fn join_thousands(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        let separator = matches!(c, ',' | ' ' | '\u{202f}' | '\u{a0}');
        let digit_before = i > 0 && chars[i - 1].is_ascii_digit();
        // Exactly three digits follow, and then no further digit.
        let three_after = chars.len() >= i + 4
            && chars[i + 1..i + 4].iter().all(char::is_ascii_digit)
            && chars.get(i + 4).is_none_or(|d| !d.is_ascii_digit());
        if separator && digit_before && three_after {
            continue;
        }
        out.push(c);
    }
    out
}

fn normal(s: &str) -> String {
    normalise(&join_thousands(s))
}

/// Whether `response` states one of `names` (a fact's object: its label and aliases).
pub fn states(response: &str, names: &[&str]) -> bool {
    let whole = normal(response);
    let sentences: Vec<Vec<String>> = sentences(response)
        .into_iter()
        .map(|s| normal(s).split(' ').map(str::to_string).collect())
        .collect();
    names.iter().map(|n| normal(n)).any(|name| {
        if name.is_empty() {
            return false;
        }
        if contains_words(&whole, &name) {
            return true;
        }
        // Every word of a several-word name close together in one sentence, in any order
        // ("Curie, Marie"): within the name's length plus two words. A name with a number
        // must appear as it is ("painter 5" is not "the painter of series 5").
        let words: Vec<&str> = name.split(' ').collect();
        if words.len() < 2 || name.chars().any(|c| c.is_ascii_digit()) {
            return false;
        }
        let window = words.len() + 2;
        sentences.iter().any(|s| {
            s.windows(window.min(s.len()))
                .any(|w| words.iter().all(|x| w.iter().any(|y| y == x)))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fact_is_found_whatever_its_form() {
        let answer = "Peru is a country in South America. Its capital is LIMA, and it covers \
                      1,285,216 square kilometres. Its best-known scientist is Curie, Marie.";
        assert!(states(answer, &["Lima"]));
        assert!(states(answer, &["south america"]));
        assert!(states(answer, &["1285216"]));
        assert!(states("It covers 1 285 216 km².", &["1285216"]));
        assert!(
            states(answer, &["Marie Curie"]),
            "word order within a sentence"
        );
        // An alias counts as the label does.
        assert!(states(
            "The currency is the nuevo sol.",
            &["Peruvian sol", "nuevo sol"]
        ));
    }

    #[test]
    fn nothing_is_found_that_is_not_there() {
        let answer = "Peru is a country in South America; its capital is Lima.";
        assert!(!states(answer, &["Cusco"]));
        // Whole words only: "Lim" is not in "Lima".
        assert!(!states(answer, &["Lim"]));
        // A number is not part of another number, nor a decimal split into thousands.
        assert!(!states("It covers 1285216.5 km².", &["285216"]));
        assert!(!states("In 1,285 years.", &["1285216"]));
        // The words of a name scattered over two sentences, or far apart in one, do not
        // state it; nor does a name with a number whose words are merely there.
        assert!(!states("Marie went home. Curie stayed.", &["Marie Curie"]));
        assert!(!states(
            "Marie went home after a long day while Curie stayed at the lab.",
            &["Marie Curie"]
        ));
        assert!(!states("The painter of series 5.", &["painter 5"]));
        assert!(!states(answer, &[""]));
        assert_eq!(
            join_thousands("1,285,216 and 3.141,5"),
            "1285216 and 3.141,5"
        );
    }
}

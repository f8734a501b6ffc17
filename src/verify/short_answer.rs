//! Reading a short answer (Luo et al.'s SAQ and fill-in-the-blank, Luo et al., 2023): abstention
//! first, then a normalised fuzzy match against every accepted name.
//!
//! Normalising lowercases, turns punctuation into spaces, drops the articles "a", "an" and
//! "the", and collapses spaces. An answer is right when an accepted name is contained in it or
//! it is contained in an accepted name, as the paper says; kgscope matches whole words only,
//! so "in" is not found in "india".

use super::abstention;
use super::clean::{clean_response, sentences};
use super::numbers;
use crate::core::answer::{Answer, Reading};
use crate::core::gold::{Accepted, ValueKind};
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

/// Whether `span` holds a number at all.
fn numbers_stated(span: &str) -> bool {
    span.chars().any(|c| c.is_ascii_digit())
}

/// An accepted value `span` states, with the rule and whether the rules are sure: a quantity
/// in any unit and precision that agrees with it, a calling code with its separators
/// ("+1 809" for "+1809"), a season spanning a year (not sure: a season is named by either of
/// its years), and for a relation that counts seasons the next year (not sure either).
fn value_match(span: &str, accepted: &[Accepted]) -> Option<(String, bool)> {
    for a in accepted {
        match &a.value {
            ValueKind::Quantity { unit } => {
                if numbers::states(span, &a.label, unit.as_deref()) {
                    let unit = unit.as_deref().map_or(String::new(), |u| format!(" {u}"));
                    return Some((format!("'{span}' states {}{unit}", a.label), true));
                }
            }
            ValueKind::Year { season } => {
                let Ok(year) = a.label.trim().parse::<i32>() else {
                    continue;
                };
                if numbers::seasons_in(span)
                    .iter()
                    .any(|&(from, to)| from == year || to == year)
                {
                    return Some((format!("'{span}' names a season spanning {year}"), false));
                }
                let next = (year + 1).to_string();
                if *season && normalise(span).split(' ').any(|w| w == next) {
                    return Some((
                        format!("'{span}' names the season {year} by its last year"),
                        false,
                    ));
                }
            }
            ValueKind::Name => {}
        }
        if let Some(code) = a.label.strip_prefix('+') {
            let only_code = span
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | ' ' | '(' | ')' | '.'));
            let digits: String = span.chars().filter(char::is_ascii_digit).collect();
            if only_code && !code.is_empty() && digits == code {
                return Some((format!("'{span}' is the code {}", a.label), true));
            }
        }
    }
    None
}

/// The judged name (see [`Accepted::judged`]) `span` is or contains, with its answer's label.
fn judged_match(span: &str, accepted: &[Accepted]) -> Option<(String, String)> {
    let a = normalise(span);
    accepted.iter().find_map(|acc| {
        acc.judged
            .iter()
            .find(|j| {
                let n = normalise(j);
                n == a || contains_words(&a, &n)
            })
            .map(|j| (j.clone(), acc.label.clone()))
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
    let found = best_match(&span, accepted);
    if let Some((Match::Exact, name)) = found {
        return reading(text, Verdict::True, format!("answer is '{name}'"), true);
    }
    if let Some((rule, confident)) = value_match(&span, accepted) {
        return reading(text, Verdict::True, rule, confident);
    }
    // A number's digits inside another number ("2022" in "2022.15" read as words) are not a
    // match: a quantity is read as a value above, or not at all.
    let by_words = found.filter(|(_, name)| {
        !accepted
            .iter()
            .any(|a| !a.value.is_name() && a.label == *name && numbers_stated(&span))
    });
    let judged = judged_match(&span, accepted);
    match by_words {
        None if judged.is_some() => {
            let (name, label) = judged.unwrap_or_default();
            reading(
                text,
                Verdict::True,
                format!("'{span}' names '{name}', which the KG ties to '{label}': a judgement"),
                false,
            )
        }
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
            ..Default::default()
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

    #[test]
    fn quantities_codes_seasons_and_judgements() {
        let kelvin = [Accepted {
            label: "2022.15".into(),
            value: ValueKind::Quantity {
                unit: Some("kelvin".into()),
            },
            ..Default::default()
        }];
        for right in ["2022 K", "1749 °C", "It is 2022.15 kelvin.", "3180 °F"] {
            let r = read(right, &kelvin);
            assert_eq!(r.verdict, Verdict::True, "{right}: {}", r.rule);
            assert!(r.confident, "{right}");
        }
        for wrong in ["2043 K", "2022 °C", "1802.15"] {
            assert_eq!(read(wrong, &kelvin).verdict, Verdict::False, "{wrong}");
        }
        // Another table's measurement, within the spread of the sources.
        assert_eq!(read("2023 K", &kelvin).verdict, Verdict::True);
        // The digits of 2022.15 read as words are no match for "2022 °F".
        assert_eq!(read("2022 °F", &kelvin).verdict, Verdict::False);

        let code = [acc("+1809", &[])];
        for right in ["+1809", "1809", "+1 809", "+1-809"] {
            assert_eq!(read(right, &code).verdict, Verdict::True, "{right}");
        }
        assert_eq!(read("+1 829", &code).verdict, Verdict::False);
        let plus_one = [acc("+1", &[])];
        assert!(
            read("1", &plus_one).confident,
            "'1' is '+1' without its plus"
        );

        let first_season = [Accepted {
            label: "1967".into(),
            value: ValueKind::Year { season: true },
            ..Default::default()
        }];
        let championship = [Accepted {
            label: "1947".into(),
            value: ValueKind::Year { season: false },
            ..Default::default()
        }];
        for (answer, gold) in [
            ("1967", &first_season),
            ("the 1967–68 season", &first_season),
            ("1968", &first_season),
            ("1946–47", &championship),
        ] {
            assert_eq!(read(answer, gold).verdict, Verdict::True, "{answer}");
        }
        assert!(
            !read("1968", &first_season).confident,
            "the other convention is judged"
        );
        assert_eq!(read("1948", &championship).verdict, Verdict::False);
        assert_eq!(read("1969", &first_season).verdict, Verdict::False);

        let region = [Accepted {
            label: "Americas".into(),
            judged: vec!["Caribbean".into()],
            ..Default::default()
        }];
        let r = read("The Caribbean", &region);
        assert_eq!(r.verdict, Verdict::True);
        assert!(
            !r.confident,
            "a broader or narrower place is the judge's call"
        );
        assert!(r.rule.contains("judgement"), "{}", r.rule);
        assert_eq!(read("Europe", &region).verdict, Verdict::False);
    }
}

//! Reading a multiple-choice answer (Luo et al.'s MCQ, Luo et al., 2023): abstention first, then
//! an option letter, then the options' names. The response is right when it names the gold
//! option and no other.

use super::abstention;
use super::clean::{clean_response, sentences};
use super::short_answer::normalise;
use crate::core::answer::{Answer, Reading};
use crate::core::gold::choice_letter;
use crate::core::verdict::Verdict;

/// Words that may come before a letter answer ("Answer: B", "The answer is (C)", "Option D").
const LEAD_INS: &[&str] = &[
    "the correct answer is",
    "the answer is",
    "correct answer",
    "answer is",
    "answer",
    "option",
    "choice",
    "it is",
    "it's",
];

/// The option letter a text opens with: "B", "B)", "(B)", "B.", "B:", "b)" and the same after
/// a lead-in. A bare capital "A" that starts a sentence ("A city in Peru") is not a letter
/// unless punctuation or the end of the line follows it.
fn leading_letter(text: &str, options: usize) -> Option<usize> {
    let mut t = text
        .trim_start()
        .trim_start_matches(['*', '"', '\'', '`'])
        .to_string();
    let lower = t.to_lowercase();
    for l in LEAD_INS {
        if lower.starts_with(l) {
            t = t[l.len()..]
                .trim_start_matches([':', ' ', '-', '*', '"'])
                .to_string();
            break;
        }
    }
    let mut chars = t.chars();
    let (paren, c) = match chars.next()? {
        '(' | '[' => (true, chars.next()?),
        c => (false, c),
    };
    let idx = (c.to_ascii_uppercase() as usize).checked_sub('A' as usize)?;
    if !c.is_ascii_alphabetic() || idx >= options {
        return None;
    }
    let next = chars.next();
    let closed = match next {
        None => true,
        Some(n) => matches!(n, ')' | ']' | '.' | ':' | ',' | '\n') || (paren && n == ')'),
    };
    // A lower-case letter alone is a letter only when punctuation marks it ("b)").
    let ok = if c.is_ascii_uppercase() {
        closed
    } else {
        next.is_some() && closed
    };
    ok.then_some(idx)
}

/// The options whose normalised names occur as whole words in `text`.
fn named_options(text: &str, options: &[String]) -> Vec<usize> {
    let hay = format!(" {} ", normalise(text));
    // A point in time is offered with its preposition ("on 23 May 1949"); the answer may name
    // it without.
    let names: Vec<String> = options
        .iter()
        .map(|o| {
            let n = normalise(o);
            match n.strip_prefix("on ").or_else(|| n.strip_prefix("in ")) {
                Some(bare) if bare.bytes().any(|b| b.is_ascii_digit()) => bare.to_string(),
                _ => n,
            }
        })
        .collect();
    let mut found: Vec<usize> = (0..options.len())
        .filter(|&i| !names[i].is_empty() && hay.contains(&format!(" {} ", names[i])))
        .collect();
    // "New York" names "York" too: an option contained in another named option is not named.
    let snapshot = found.clone();
    found.retain(|&i| {
        !snapshot
            .iter()
            .any(|&j| j != i && names[j].contains(&names[i]) && names[j] != names[i])
    });
    found
}

/// The rules stage for a multiple-choice answer.
pub fn read(response: &str, options: &[String], correct: usize) -> Reading {
    let chosen = |index: usize, rule: String, confident: bool| Reading {
        answer: Answer::Choice { index },
        verdict: if index == correct {
            Verdict::True
        } else {
            Verdict::False
        },
        rule,
        confident,
    };
    let none = |answer, verdict, rule: &str, confident| Reading {
        answer,
        verdict,
        rule: rule.into(),
        confident,
    };
    if response.trim().is_empty() {
        return none(Answer::Invalid, Verdict::Invalid, "empty response", true);
    }
    // Letters are read before cleaning, which takes "A:" for a label.
    let raw_first = response.trim_start().lines().next().unwrap_or("");
    if let Some(i) = leading_letter(raw_first, options.len()) {
        return chosen(i, format!("starts with option {}", choice_letter(i)), true);
    }
    let cleaned = clean_response(response);
    let Some(first) = sentences(&cleaned).into_iter().next() else {
        return none(
            Answer::Invalid,
            Verdict::Invalid,
            "nothing left after cleaning",
            false,
        );
    };
    if let Some(a) = abstention::find(first).filter(|a| a.about_question) {
        return none(
            Answer::Abstained,
            Verdict::Idk,
            &format!("abstention phrase '{}'", a.phrase),
            true,
        );
    }
    if let Some(i) = leading_letter(first, options.len()) {
        return chosen(i, format!("starts with option {}", choice_letter(i)), true);
    }
    // The first sentence that names any option decides; naming two is no single choice.
    for s in sentences(&cleaned) {
        match named_options(s, options).as_slice() {
            [] => continue,
            [i] => {
                let exact = normalise(s) == normalise(&options[*i]);
                return chosen(
                    *i,
                    format!("names option {} ('{}')", choice_letter(*i), options[*i]),
                    exact,
                );
            }
            many => {
                let letters: Vec<String> =
                    many.iter().map(|i| choice_letter(*i).to_string()).collect();
                return none(
                    Answer::Invalid,
                    Verdict::Invalid,
                    &format!("names several options ({})", letters.join(", ")),
                    false,
                );
            }
        }
    }
    none(Answer::Invalid, Verdict::Invalid, "names no option", false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> Vec<String> {
        ["Madrid", "Rome", "New York", "York"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    #[test]
    fn a_date_is_named_with_or_without_its_preposition() {
        let o: Vec<String> = ["in 1871", "on 23 May 1949", "in 1990", "on 3 October 1990"]
            .map(String::from)
            .to_vec();
        assert_eq!(read("23 May 1949", &o, 1).verdict, Verdict::True);
        assert_eq!(
            read("It was founded on 23 May 1949.", &o, 1).verdict,
            Verdict::True
        );
        assert_eq!(read("1871", &o, 1).verdict, Verdict::False);
    }

    #[test]
    fn letters_names_and_abstentions() {
        let o = opts();
        let got = |r: &str| read(r, &o, 1);
        assert_eq!(got("B) Rome").answer, Answer::Choice { index: 1 });
        assert_eq!(got("B) Rome").verdict, Verdict::True);
        assert_eq!(got("(a)").answer, Answer::Choice { index: 0 });
        assert_eq!(got("Answer: C").answer, Answer::Choice { index: 2 });
        assert_eq!(got("The answer is D.").answer, Answer::Choice { index: 3 });
        assert_eq!(got("d) York").verdict, Verdict::False);
        // An article is not option A.
        assert_eq!(
            got("A city in Italy: Rome.").answer,
            Answer::Choice { index: 1 }
        );
        assert_eq!(got("Rome").answer, Answer::Choice { index: 1 });
        assert!(got("Rome").confident);
        // "New York" does not also name "York".
        assert_eq!(
            got("I think it's New York.").answer,
            Answer::Choice { index: 2 }
        );
        assert_eq!(got("Madrid or Rome").answer, Answer::Invalid);
        assert_eq!(got("I'm not sure.").answer, Answer::Abstained);
        assert_eq!(got("Paris").answer, Answer::Invalid);
        assert_eq!(got("E)").answer, Answer::Invalid);
    }
}

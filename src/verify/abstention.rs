//! Abstention detection: does a response decline to answer?
//!
//! Shared by every method: GraphEval's `I don't know.`, Luo et al.'s abstention phrases ("cannot
//! predict", `UNKNOWN` for true/false questions) and KGLens' refusals ("I am sorry, but I couldn't
//! find any information on ..."). Two kinds of evidence are used:
//! - fixed idioms in many languages ([`ABSTENTIONS`]): "I don't know", "no idea", "No lo sé",
//!   "Je ne sais pas", "我不知道" ...;
//! - a structure rather than a phrase: a negative modal of the model's own inability
//!   ([`INABILITY`]: "can't", "there is no way", "impossible", "I don't have") governing, within a
//!   few words, a verb of knowing or saying or what that needs ([`KNOWING`]: "say", "tell",
//!   "verify", "be sure", "information" ...). A phrase list misses "I have no way of knowing
//!   whether ..." or "It is impossible for me to say if ..."; the structure catches them, and a
//!   truth word after them ("... whether this is true") is then never read as a claim.
//!
//! Apologies ("I'm sorry", "I apologize") and disclaimers ("As an AI") are not abstentions by
//! themselves: "Sorry, but no: that is wrong." answers. A refusal that goes with them is caught by
//! what follows ("... but I couldn't find any information").
//!
//! An abstention about a side detail ("I don't know the exact year, but ...", "I'm not sure why
//! ...") is marked so the parser can let a verdict in the same sentence stand.

use super::words::{is_unspaced, ABSTENTIONS, CERTAINTY, INABILITY, KNOWING, SIDE_DETAIL};

/// An abstention found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Abstention {
    /// The idiom, or the modal and the verb it governs ("can't … say").
    pub phrase: String,
    /// The modal or idiom as listed (for [`is_abstention`]'s static answer).
    pub listed: &'static str,
    /// False when the words after it name a side detail ("the exact year", "why").
    pub about_question: bool,
}

/// Returns the first abstention phrase found in `text`, if any (the idiom, or the inability modal
/// of a structural abstention).
///
/// The text is normalised first (lowercase, curly apostrophes made straight, every other
/// non-alphanumeric character turned into a space), so "I DON’T know!" and "i don't  know" match
/// alike, and a phrase only matches whole words ("unknowns" does not contain "unknown").
pub fn is_abstention(text: &str) -> Option<&'static str> {
    find(text).map(|a| a.listed)
}

/// The leftmost abstention in `text`, with whether it concerns the question.
pub fn find(text: &str) -> Option<Abstention> {
    let norm = normalise(text);
    let words: Vec<(usize, &str)> = word_offsets(&norm);
    let mut best: Option<(usize, usize, Abstention)> = None;
    let mut consider = |start: usize, end: usize, a: Abstention| {
        if best.as_ref().is_none_or(|(s, _, _)| start < *s) {
            best = Some((start, end, a));
        }
    };
    for p in ABSTENTIONS {
        if let Some(i) = find_phrase(&norm, p) {
            let end = i + p.len();
            consider(
                i,
                end,
                Abstention {
                    phrase: p.to_string(),
                    listed: p,
                    about_question: !side_detail(&norm[end..]),
                },
            );
        }
    }
    for (wi, &(start, w)) in words.iter().enumerate() {
        // "not" + at most two intensifiers + a word of certainty ("not 100% sure").
        if w == "not" {
            let near = words.iter().skip(wi + 1).take(3);
            if let Some((o, c)) = near.clone().find(|(_, c)| CERTAINTY.contains(c)) {
                let end = o + c.len();
                consider(
                    start,
                    end,
                    Abstention {
                        phrase: format!("not … {c}"),
                        listed: "not sure",
                        about_question: !side_detail(&norm[end..]),
                    },
                );
            }
        }
        let Some(m) = INABILITY
            .iter()
            .find(|m| norm[start..].starts_with(&format!("{m} ")))
        else {
            continue;
        };
        // "I don't have" / "I lack" are inability only with the model as subject ("Bolivia does
        // not have access to the sea" is a fact, not a refusal).
        let owner_needed = matches!(*m, "don't have" | "do not have" | "lack");
        if owner_needed && !(wi > 0 && matches!(words[wi - 1].1, "i" | "we")) {
            continue;
        }
        let after = start + m.len();
        let next: Vec<&(usize, &str)> = words.iter().filter(|(o, _)| *o > after).take(4).collect();
        if let Some((o, verb)) = next.iter().find(|(_, w)| KNOWING.contains(w)) {
            let end = o + verb.len();
            consider(
                start,
                end,
                Abstention {
                    phrase: format!("{m} … {verb}"),
                    listed: m,
                    about_question: !side_detail(&norm[end..]),
                },
            );
        }
    }
    best.map(|(_, _, a)| a)
}

/// Whether the words right after an abstention name a side detail (skipping a preposition or an
/// article: "about the exact date").
fn side_detail(rest: &str) -> bool {
    let mut rest = rest.trim_start();
    for skip in ["about ", "of ", "on ", "the ", "what "] {
        if let Some(r) = rest.strip_prefix(skip) {
            rest = r;
        }
    }
    SIDE_DETAIL
        .iter()
        .any(|d| rest.starts_with(&format!("{d} ")))
}

/// Lowercase, straight apostrophes, punctuation → space, single spaces, padded with one space at
/// each end so word boundaries are spaces.
pub(crate) fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push(' ');
    for c in text.chars().flat_map(char::to_lowercase) {
        let c = match c {
            '\u{2019}' | '\u{2018}' | '\u{02bc}' | '`' => '\'',
            c if c.is_alphanumeric() || c == '\'' => c,
            _ => ' ',
        };
        if c == ' ' && out.ends_with(' ') {
            continue;
        }
        out.push(c);
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

fn word_offsets(padded: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in padded.char_indices() {
        match (c == ' ', start) {
            (true, Some(s)) => {
                out.push((s, &padded[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    out
}

/// Byte offset of `phrase` in `padded` on word boundaries (inside words for CJK/Hangul phrases).
pub(crate) fn find_phrase(padded: &str, phrase: &str) -> Option<usize> {
    if is_unspaced(phrase) {
        return padded.find(phrase);
    }
    padded
        .match_indices(phrase)
        .find(|(i, _)| padded[..*i].ends_with(' ') && padded[i + phrase.len()..].starts_with(' '))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_common_phrases() {
        assert_eq!(is_abstention("I don't know."), Some("don't know"));
        assert_eq!(is_abstention("I DON’T KNOW!"), Some("don't know"));
        assert_eq!(is_abstention("I'm not sure about that"), Some("not sure"));
        assert_eq!(is_abstention("UNKNOWN"), Some("unknown"));
        assert_eq!(
            is_abstention("There is not enough information to decide."),
            Some("not enough information")
        );
        assert_eq!(
            is_abstention("I am sorry, but I couldn't find any information on X."),
            Some("couldn't")
        );
        assert_eq!(is_abstention("I cannot determine that"), Some("cannot"));
        assert_eq!(is_abstention("I'm unable to verify"), Some("unable to"));
    }

    #[test]
    fn structural_inability_governing_a_verb_of_knowing() {
        let phrase = |t: &str| find(t).map(|a| a.phrase);
        assert_eq!(
            phrase("I have no way of knowing whether that's true."),
            Some("no way … knowing".into())
        );
        assert_eq!(
            phrase("It is impossible for me to say if the statement is true."),
            Some("impossible … say".into())
        );
        assert_eq!(
            phrase("This cannot be determined from the text."),
            Some("cannot … determined".into())
        );
        assert_eq!(
            phrase("I do not have the capability to provide real-time information."),
            Some("do not have … capability".into())
        );
        // Inability about the world, not the model's knowledge.
        assert_eq!(phrase("Bolivia does not have access to the sea."), None);
        assert_eq!(
            phrase("Landlocked countries do not have access to the sea."),
            None
        );
        assert_eq!(phrase("A country cannot have two capitals? It can."), None);
    }

    #[test]
    fn not_with_an_intensifier_before_certainty() {
        let phrase = |t: &str| find(t).map(|a| a.phrase);
        assert_eq!(
            phrase("I am not 100% certain."),
            Some("not … certain".into())
        );
        assert_eq!(phrase("I'm not entirely sure."), Some("not … sure".into()));
        assert_eq!(phrase("It is not in Europe, I am sure."), None);
    }

    #[test]
    fn apologies_alone_are_not_abstentions() {
        assert_eq!(is_abstention("Sorry, but no: that is wrong."), None);
        assert_eq!(
            is_abstention("I'm sorry, but the statement is false."),
            None
        );
        assert_eq!(
            is_abstention("As an AI language model, I can tell you it is true."),
            None
        );
    }

    #[test]
    fn other_languages() {
        for t in [
            "No lo sé.",
            "Je ne sais pas.",
            "Ich weiß es nicht.",
            "Non lo so.",
            "Não sei.",
            "Я не знаю.",
            "我不知道。",
            "わかりません。",
            "모르겠습니다.",
            "Nie wiem.",
        ] {
            assert!(is_abstention(t).is_some(), "{t}");
        }
        assert_eq!(is_abstention("No, la capital es Lima."), None);
        assert_eq!(is_abstention("不，这个说法是错误的。"), None);
    }

    #[test]
    fn side_details_are_marked() {
        let about = |t: &str| find(t).map(|a| a.about_question);
        assert_eq!(about("I don't know the exact year."), Some(false));
        assert_eq!(about("I'm not sure why this is asked."), Some(false));
        assert_eq!(about("I'm not sure whether it is true."), Some(true));
        assert_eq!(about("I'm not sure."), Some(true));
        assert_eq!(about("I can't say if that's right."), Some(true));
        assert_eq!(
            about("I cannot provide real-time information, but yes."),
            Some(false)
        );
    }

    #[test]
    fn whole_words_only() {
        assert_eq!(is_abstention("The unknowns are many"), None);
        assert_eq!(is_abstention("Yes, the statement is true."), None);
        assert_eq!(is_abstention("No, the statement is false."), None);
        assert_eq!(is_abstention(""), None);
    }

    #[test]
    fn every_phrase_is_normalised() {
        for p in ABSTENTIONS.iter().chain(INABILITY).chain(KNOWING) {
            assert_eq!(normalise(p).trim(), *p, "phrase {p:?} would never match");
        }
    }
}

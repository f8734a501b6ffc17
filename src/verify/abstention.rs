//! Abstention detection: does a response decline to answer?
//!
//! Shared by every method: GraphEval's `I don't know.`, Luo et al.'s phrase list ("cannot
//! predict", "I am sorry", `UNKNOWN` for true/false questions), and KGLens' refusals ("I am
//! sorry, but I couldn't find any information on ..."). Callers run it BEFORE looking for a
//! yes/no, so "I don't know whether it is true" is an abstention and never a `true`.

/// Phrases that mark an abstention, in normalised form (lowercase, punctuation removed,
/// apostrophes kept). Matched on word boundaries. More specific phrases come first so the phrase
/// reported in a trace is the most telling one.
///
/// The list is ours: the papers give examples, not a list. It leans towards recall because a
/// missed abstention turns into a wrong claim, which is the costlier error.
pub const PHRASES: &[&str] = &[
    "don't know",
    "do not know",
    "dont know",
    "idk",
    "no idea",
    "not sure",
    "unsure",
    "not certain",
    "uncertain",
    "cannot be determined",
    "cannot determine",
    "can't determine",
    "can not determine",
    "impossible to determine",
    "not possible to determine",
    "unable to",
    "can't say",
    "cannot say",
    "can't tell",
    "cannot tell",
    "cannot confirm",
    "can't confirm",
    "cannot verify",
    "can't verify",
    "cannot answer",
    "can't answer",
    "cannot predict",
    "cannot find",
    "can't find",
    "couldn't find",
    "could not find",
    "not enough information",
    "insufficient information",
    "no information",
    "don't have any",
    "do not have any",
    "don't have enough",
    "do not have enough",
    "don't have information",
    "do not have information",
    "don't have access",
    "do not have access",
    "not aware",
    "no way to know",
    "beyond my knowledge",
    "knowledge cutoff",
    "unknown",
    "unclear",
    "as an ai",
    "i'm sorry",
    "i am sorry",
    "i apologize",
];

/// Returns the first abstention phrase found in `text`, if any.
///
/// The text is normalised first (lowercase, curly apostrophes made straight, every other
/// non-alphanumeric character turned into a space), so "I DON’T know!" and "i don't  know" match
/// alike, and a phrase only matches whole words ("unknowns" does not contain "unknown").
pub fn is_abstention(text: &str) -> Option<&'static str> {
    let norm = normalise(text);
    PHRASES.iter().copied().find(|p| contains_words(&norm, p))
}

/// Lowercase, straight apostrophes, punctuation → space, single spaces, padded with one space at
/// each end so word boundaries are spaces.
fn normalise(text: &str) -> String {
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

fn contains_words(padded: &str, phrase: &str) -> bool {
    padded
        .match_indices(phrase)
        .any(|(i, _)| padded[..i].ends_with(' ') && padded[i + phrase.len()..].starts_with(' '))
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
            Some("couldn't find")
        );
        assert_eq!(
            is_abstention("I cannot determine that"),
            Some("cannot determine")
        );
        assert_eq!(is_abstention("I'm unable to verify"), Some("unable to"));
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
        for p in PHRASES {
            assert_eq!(normalise(p).trim(), *p, "phrase {p:?} would never match");
        }
    }
}

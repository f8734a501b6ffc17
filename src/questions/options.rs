//! What keeps a multiple-choice option from standing beside the answer (Luo et al.'s MCQ,
//! issue 24): exactly one option may be right, and no option may be found by its letters.
//!
//! - **Overlapping names**: an option whose name contains the answer's or is contained in it
//!   ("cubic" beside "face-centred cubic"), word for word as the short-answer reader matches
//!   names ([`crate::verify::short_answer`]): a reader counts it as right too.
//! - **Tied**: an option the KG ties to the answer ([`super::ties`]: a part of it, or what it
//!   is part of), right in the world at another grain.
//! - **Too close**: a number that is the answer's after rounding, or within [`RELATIVE`] of a
//!   measured one ([`crate::verify::numbers::too_close`]).
//! - **Matched to the name**: where the question names its subject, an option found by its
//!   letters ("IQ" for Iraq, "Angolan kwanza" for Angola). Every option must match the
//!   subject's name exactly as well as the answer does ([`match_score`]): when the answer is
//!   found by its letters, its distractors must be too ("Ne", "No", "Ni" beside "Nd" for
//!   neodymium), or the fact is not asked.

use crate::verify::numbers;
use crate::verify::short_answer::{contains_words, normalise};

/// How far apart, relative to their size, two measured quantities must be for a reader to
/// tell them apart as options: 1800.15 and 1802.15 kelvin are one melting point to anyone
/// but the table they came from.
pub const RELATIVE: f64 = 0.02;

/// Why an option cannot stand beside the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flaw {
    /// Its name contains the answer's or is contained in it (aliases included).
    Overlaps,
    /// The KG ties it to the answer.
    Tied,
    /// As a number, it cannot be told from the answer.
    TooClose,
    /// It matches the subject's name better or worse than the answer does.
    Matched,
    /// As a number, it is written to another kind of precision than the answer: a whole
    /// number among decimals (radium's atomic weight 226 beside 28.085 and 58.6934).
    Form,
}

impl Flaw {
    pub fn describe(self) -> &'static str {
        match self {
            Flaw::Overlaps => "option containing or contained in the answer",
            Flaw::Tied => "option the KG ties to the answer",
            Flaw::TooClose => "option within rounding or tolerance of the answer",
            Flaw::Matched => "option matched to the subject's name by its letters",
            Flaw::Form => "number written to another precision than the answer",
        }
    }
}

/// Whether two options, each given as its label then its aliases, are one answer to a
/// reader: one label contains the other word for word ("cubic" in "face-centred cubic"), or
/// they share a name ("Burma" and "Myanmar"). An alias is matched whole only: a code alias
/// ("DE") found inside another's long-form name is a coincidence of letters.
pub fn overlaps(a: &[String], b: &[String]) -> bool {
    let (Some(la), Some(lb)) = (a.first(), b.first()) else {
        return false;
    };
    if let (Some(x), Some(y)) = (numbers::parse(la), numbers::parse(lb)) {
        // "-2" and "2" are two oxidation states, not one word twice.
        return x.value == y.value;
    }
    if same(la, lb) {
        return true;
    }
    let (la, lb) = (normalise(la), normalise(lb));
    if !la.is_empty() && !lb.is_empty() && (contains_words(&la, &lb) || contains_words(&lb, &la)) {
        return true;
    }
    let keys = |names: &[String]| -> Vec<String> {
        names
            .iter()
            .map(|n| normalise(n))
            .filter(|n| !n.is_empty())
            .collect()
    };
    let kb = keys(b);
    keys(a).iter().any(|x| kb.contains(x))
}

/// Whether two option texts are one option: the same number, the same words, or, for a
/// symbol without words ("$", "₭"), the same text.
pub fn same(a: &str, b: &str) -> bool {
    if let (Some(x), Some(y)) = (numbers::parse(a), numbers::parse(b)) {
        return x.value == y.value;
    }
    let (na, nb) = (normalise(a), normalise(b));
    if na.is_empty() || nb.is_empty() {
        a.trim().to_lowercase() == b.trim().to_lowercase()
    } else {
        na == nb
    }
}

/// A quantity a reader takes as measured, not counted: a number with decimals or one
/// followed by words (a unit: "61 seconds"), or a surveyed count ([`numbers::Figure::surveyed`]:
/// a population, an area, where sources and dates differ by more than a percent, so
/// Portugal's 10,642,836 is no wrong figure for Belgium's 10,584,534). Smaller integers (years,
/// atomic numbers, codes) are exact, and differ by one.
fn measured(text: &str) -> bool {
    let t = text.trim();
    numbers::parse(t).is_some_and(|n| t.contains('.') || n.surveyed())
        || t.split_once(' ').is_some_and(|(n, rest)| {
            numbers::parse(n).is_some() && rest.chars().all(|c| c.is_alphabetic() || c == ' ')
        })
}

/// A code written with digits ("+82", "008"): its digits name, they do not measure.
fn digit_code(text: &str) -> bool {
    let t = text.trim();
    t.starts_with('+') || (t.len() > 1 && t.starts_with('0') && !t.starts_with("0."))
}

/// Whether `option`, as a number, cannot be told from `answer`: measured quantities (either
/// written with decimals or a unit) within [`RELATIVE`] of each other, or any two numbers
/// equal to the finer one's precision.
pub fn too_close(answer: &str, option: &str) -> bool {
    if digit_code(answer) || digit_code(option) {
        return false;
    }
    let relative = if measured(answer) || measured(option) {
        RELATIVE
    } else {
        0.0
    };
    numbers::too_close(answer, option, relative)
}

/// Whether `answer` and `option` are both bare numbers, one whole and one with decimals: the
/// odd one out is found by its form ("226" among atomic weights written to the hundredth).
fn other_form(answer: &str, option: &str) -> bool {
    let bare = |t: &str| numbers::parse(t.trim()).is_some() && !t.trim().contains(' ');
    let (a, o) = (answer.trim(), option.trim());
    bare(a) && bare(o) && !digit_code(a) && !digit_code(o) && a.contains('.') != o.contains('.')
}

/// How an option's text matches a subject's name, by letters alone: a code whose letters
/// follow one another in the name from the start of one of its words ("IQ", "IRQ" for Iraq,
/// ".kn" for Saint Kitts and Nevis, "Nd" for neodymium) counts [`CODE_MATCH`]; otherwise the
/// number of the name's words that a word of the option shares a stem with ("Angolan" for
/// Angola, "Norwegian" for Norway), or, for numbers, is ("1947" for the 1947 championship).
pub fn match_score(subject: &str, option: &str) -> usize {
    // Letters are matched without their accents: "REU" is read off "Réunion".
    let (subject, option) = (
        super::grammar::folded(subject),
        super::grammar::folded(option),
    );
    let (subject, option) = (subject.as_str(), option.as_str());
    let subject_words = words(subject);
    let code = option
        .trim()
        .trim_start_matches(['.', '+', '-'])
        .to_lowercase();
    // One letter is a code too ("O" for oxygen): beside "Lu", "Sn" and "No" it is the one
    // option the name spells.
    let is_code = (1..=4).contains(&code.chars().count())
        && code.chars().all(char::is_alphabetic)
        && !option.trim().contains(' ');
    if is_code {
        // A code begins at a word that names something: "AU" or "AD" spelt from the "and" of
        // "Wallis and Futuna" match it no better than any code does.
        let naming: Vec<usize> = (0..subject_words.len())
            .filter(|&i| !FUNCTION_WORDS.contains(&subject_words[i].as_str()))
            .collect();
        // A code that holds the name's initials ("KSA", the Kingdom of Saudi Arabia's, holds
        // "SA") is read off the name as well.
        let initials: String = naming
            .iter()
            .filter_map(|&i| subject_words[i].chars().next())
            .collect();
        let holds_initials = naming.len() >= 2 && code.contains(&initials);
        let spelt = naming
            .iter()
            .any(|&i| follows_from(&code, &subject_words[i..].concat()));
        return if holds_initials || spelt {
            CODE_MATCH
        } else {
            0
        };
    }
    let option_words = words(option);
    subject_words
        .iter()
        .filter(|s| option_words.iter().any(|o| same_stem(s, o)))
        .count()
}

/// A code's match ([`match_score`]): above any count of shared words, so that a code is only
/// ever as matchable as another code.
pub const CODE_MATCH: usize = 100;

/// Lower-cased words: runs of letters, and runs of digits.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut digits = false;
    for c in text.chars().flat_map(char::to_lowercase) {
        let kind = c.is_ascii_digit();
        if c.is_alphanumeric() && (cur.is_empty() || kind == digits) {
            cur.push(c);
            digits = kind;
        } else {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            if c.is_alphanumeric() {
                cur.push(c);
                digits = kind;
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Whether `code`'s letters come in order in `letters`, the first one first.
fn follows_from(code: &str, letters: &str) -> bool {
    let mut rest = letters.chars();
    let mut code_chars = code.chars();
    if code_chars.next() != rest.next() {
        return false;
    }
    code_chars.all(|c| rest.any(|l| l == c))
}

/// English words that join a name's parts and name nothing ("Saint Kitts and Nevis").
const FUNCTION_WORDS: [&str; 5] = ["and", "the", "for", "with", "from"];

/// Two words from one stem: equal numbers, or words of three letters or more that share a
/// beginning of at least three letters and three fifths of the shorter ("Spain" and
/// "Spanish", "Iraq" and "Iraqi", "Norway" and "Norwegian").
fn same_stem(a: &str, b: &str) -> bool {
    let numeric = |w: &str| w.chars().all(|c| c.is_ascii_digit());
    if numeric(a) || numeric(b) {
        return a == b && a.len() >= 2;
    }
    let (la, lb) = (a.chars().count(), b.chars().count());
    if la < 3 || lb < 3 || FUNCTION_WORDS.contains(&a) || FUNCTION_WORDS.contains(&b) {
        return false;
    }
    let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    common >= 3 && 5 * common >= 3 * la.min(lb)
}

/// What is wrong with `option` beside `answer` in a question about `subject`, going by their
/// texts alone: `answer_names` and `option_names` are each's label and aliases, label first.
pub fn text_flaw(subject: &str, answer_names: &[String], option_names: &[String]) -> Option<Flaw> {
    let (answer, option) = (answer_names.first()?, option_names.first()?);
    if overlaps(answer_names, option_names) {
        return Some(Flaw::Overlaps);
    }
    if too_close(answer, option) {
        return Some(Flaw::TooClose);
    }
    if other_form(answer, option) {
        return Some(Flaw::Form);
    }
    if match_score(subject, option) != match_score(subject, answer) {
        return Some(Flaw::Matched);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn overlapping_names_are_right_too() {
        assert!(overlaps(
            &names(&["face-centred cubic"]),
            &names(&["cubic"])
        ));
        assert!(overlaps(
            &names(&["Congo"]),
            &names(&["Democratic Republic of the Congo"])
        ));
        assert!(overlaps(
            &names(&["Burma", "Myanmar"]),
            &names(&["Myanmar"])
        ));
        assert!(!overlaps(&names(&["Niger"]), &names(&["Nigeria"])));
        assert!(overlaps(&names(&["$"]), &names(&["$"])));
        assert!(!overlaps(&names(&["$"]), &names(&["₭"])));
        assert!(
            !overlaps(&names(&["-2"]), &names(&["2"])),
            "two oxidation states"
        );
        assert!(!overlaps(&names(&["1"]), &names(&["1.54"])));
        assert!(same("Fr.", "Fr") && same("+1", "1") && !same("-2", "2") && !same("$", "₭"));
        assert!(!overlaps(
            &names(&["Germany", "DE"]),
            &names(&["Timor-Leste", "República Democrática de Timor-Leste"])
        ));
        assert!(!overlaps(&names(&["group 1"]), &names(&["group 14"])));
        assert!(!overlaps(
            &names(&["body-centred cubic"]),
            &names(&["face-centred cubic"])
        ));
    }

    #[test]
    fn codes_and_stems_matched_to_the_subject() {
        assert_eq!(match_score("Iraq", "IQ"), CODE_MATCH);
        assert_eq!(match_score("Iraq", "IRQ"), CODE_MATCH);
        assert_eq!(
            match_score("Iraq", "IR"),
            CODE_MATCH,
            "Iran's code fits Iraq as well"
        );
        assert_eq!(match_score("Iraq", "BA"), 0);
        assert_eq!(match_score("Réunion", "REU"), CODE_MATCH, "accents aside");
        assert_eq!(match_score("Wallis and Futuna", "WF"), CODE_MATCH);
        assert_eq!(
            match_score("Wallis and Futuna", "AD"),
            0,
            "not from its \"and\""
        );
        assert_eq!(match_score("Saint Kitts and Nevis", ".kn"), CODE_MATCH);
        assert_eq!(
            match_score("Saudi Arabia", "KSA"),
            CODE_MATCH,
            "the initials inside a code"
        );
        assert_eq!(match_score("South Africa", "RSA"), CODE_MATCH);
        assert_eq!(match_score("Saudi Arabia", "PER"), 0);
        assert_eq!(match_score("Neodymium", "Nd"), CODE_MATCH);
        assert_eq!(match_score("Oxygen", "O"), CODE_MATCH);
        assert_eq!(match_score("Oxygen", "Lu"), 0);
        assert_eq!(match_score("Iron", "Fe"), 0);
        assert_eq!(match_score("Germany", "DE"), 0);
        assert_eq!(match_score("Angola", "Angolan kwanza"), 1);
        assert_eq!(match_score("Norway", "Norwegian krone"), 1);
        assert_eq!(match_score("South Sudan", "South Sudanese"), 2);
        assert_eq!(match_score("Spain", "Spanish"), 1);
        assert_eq!(match_score("Norway", "Swedish krona"), 0);
        assert_eq!(match_score("France", "French"), 0);
        assert_eq!(match_score("1947 NBA championship", "1947"), 1);
        assert_eq!(match_score("1947 NBA championship", "1950"), 0);
        assert_eq!(match_score("Bromine", "period 4"), 0);
        assert_eq!(
            match_score("Saint Kitts and Nevis", "Antigua and Barbuda"),
            0
        );
    }

    #[test]
    fn flaws_in_order() {
        let f = |s: &str, a: &[&str], o: &[&str]| text_flaw(s, &names(a), &names(o));
        assert_eq!(
            f("Palladium", &["face-centred cubic"], &["cubic"]),
            Some(Flaw::Overlaps)
        );
        assert_eq!(f("Iron", &["1811.15"], &["1802.15"]), Some(Flaw::TooClose));
        assert_eq!(f("Iron", &["1811.15"], &["1941.15"]), None);
        assert_eq!(f("Hafnium", &["72"], &["71"]), None);
        assert_eq!(f("Brazil", &["2007"], &["2008"]), None, "years are exact");
        assert_eq!(
            f("Belgium", &["10584534"], &["10642836"]),
            Some(Flaw::TooClose),
            "a population within a percent of another"
        );
        assert_eq!(f("Belgium", &["10584534"], &["11584534"]), None);
        assert_eq!(f("Lanthanum", &["1.1"], &["1.12"]), Some(Flaw::TooClose));
        assert_eq!(f("Polonium", &["209"], &["208.98"]), Some(Flaw::TooClose));
        assert_eq!(f("Calcium", &["1"], &["1.25"]), Some(Flaw::Form));
        assert_eq!(f("Radium", &["226"], &["28.085"]), Some(Flaw::Form));
        assert_eq!(f("Radium", &["226"], &["209"]), None);
        assert_eq!(
            f("South Korea", &["+82"], &["+81"]),
            None,
            "codes, not numbers"
        );
        assert_eq!(f("Iraq", &["IQ"], &["BA"]), Some(Flaw::Matched));
        assert_eq!(f("Iraq", &["IQ"], &["IR"]), None);
        assert_eq!(f("Germany", &["DE"], &["GM"]), Some(Flaw::Matched));
        assert_eq!(f("Germany", &["DE"], &["FR"]), None);
        assert_eq!(
            f("Angola", &["Angolan kwanza"], &["Liberian dollar"]),
            Some(Flaw::Matched)
        );
    }
}

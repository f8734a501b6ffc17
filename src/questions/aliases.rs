//! The alias that disambiguates a question's subject ("Georgia (also known as Sakartvelo)")
//! without giving the answer away: never one that equals or contains a candidate answer of the
//! relation asked about (KGLens' C_j, which holds the true object and every wrong one the
//! question may ask about), never a code, a short form or a respelling of the label
//! ([`tells_apart`]), and none when none fits.

use std::collections::HashSet;

use super::grammar::{folded, words};
use crate::kg::index::{Id, KgIndex};

/// The candidate answers of one relation, for asking whether an alias contains one.
pub struct Answers {
    /// Each answer's words, joined by a space.
    phrases: HashSet<String>,
    /// Answers without letters or digits ("¥"), lower-cased, matched as substrings.
    signs: Vec<String>,
    /// The answers are texts in a language (an official name, a motto): any alias, a name in
    /// another language, may translate one ("French Republic" for "République française").
    texts: bool,
}

impl Answers {
    pub fn new<I: IntoIterator<Item = String>>(labels: I) -> Self {
        let mut phrases = HashSet::new();
        let mut signs = Vec::new();
        for label in labels {
            let w = words(&label);
            if w.is_empty() {
                let s = label.trim().to_lowercase();
                if !s.is_empty() {
                    signs.push(s);
                }
            } else {
                phrases.insert(w.join(" "));
            }
        }
        Self {
            phrases,
            signs,
            texts: false,
        }
    }

    /// The labels of every object predicate `p` has in the KG.
    pub fn of_relation(index: &KgIndex, p: Id) -> Self {
        let objects = index.objects_of_predicate(p);
        let tagged = objects
            .iter()
            .filter(|&&o| {
                matches!(index.term(o), crate::kg::Term::Literal(l) if l.language().is_some())
            })
            .count();
        Self {
            texts: tagged * 2 > objects.len(),
            ..Self::new(objects.iter().map(|&o| index.label(o)))
        }
    }

    /// Whether `alias` equals or contains (as whole words, case-insensitively) an answer, or
    /// may translate one (the answers are texts in a language).
    pub fn in_alias(&self, alias: &str) -> bool {
        if self.texts {
            return true;
        }
        let w = words(alias);
        let lower = alias.to_lowercase();
        (0..w.len()).any(|i| {
            (i + 1..=w.len()).any(|j| {
                let run = w[i..j].join(" ");
                self.phrases.contains(&run)
            })
        }) || self.signs.iter().any(|s| lower.contains(s.as_str()))
    }
}

/// A code rather than a name: one token that has no lower-case letter ("CY", "FRA", "250"), or
/// is at most three characters long ("fra", "Ar").
pub fn is_code(alias: &str) -> bool {
    let a = alias.trim();
    !a.contains(char::is_whitespace)
        && (!a.chars().any(char::is_lowercase) || a.chars().count() <= 3)
}

/// The alias to show after the subject's label: the first (in the KG's order) name-like one,
/// Latin-alphabet names before others, else a code, among the aliases that differ from the
/// label and contain no candidate answer; `None` when none is left.
pub fn choose<'a>(label: &str, aliases: &'a [String], answers: &Answers) -> Option<&'a str> {
    choose_beside(label, aliases, &[], answers)
}

/// [`choose`], where the entity's labels in other languages (`others`) count among the names an
/// alias may only respell ("Oesterreich" beside the German label "Österreich").
pub fn choose_beside<'a>(
    label: &str,
    aliases: &'a [String],
    others: &[String],
    answers: &Answers,
) -> Option<&'a str> {
    let names: Vec<String> = aliases.iter().chain(others).cloned().collect();
    aliases
        .iter()
        .map(|a| a.trim())
        .enumerate()
        .filter(|(_, a)| !a.is_empty() && helps(label, a, &names) && !answers.in_alias(a))
        .min_by_key(|(i, a)| (!a.is_ascii(), *i))
        .map(|(_, a)| a)
}

/// Whether `alias`, one of `aliases`, is worth showing: it [`tells_apart`], and it is no
/// spelling without accents of another of the aliases ("Belgie" beside "België": the spelling
/// with its letters is the name, the other only how a keyboard without them writes it).
pub fn helps(label: &str, alias: &str, aliases: &[String]) -> bool {
    tells_apart(label, alias)
        && !(alias.is_ascii()
            && aliases
                .iter()
                .any(|b| (!b.is_ascii() && respells(b, alias)) || umlaut_pair(alias, b)))
}

/// Whether two plain spellings differ only in writing a vowel with an umlaut out or without
/// its dots ("Oesterreich" and "Osterreich", "Muenchen" and "Munchen"): both are keyboard
/// spellings of a name the KG keeps with its letters in another language only, which the
/// reader learns nothing from.
fn umlaut_pair(a: &str, b: &str) -> bool {
    let dotless = |s: &str| {
        s.to_lowercase()
            .replace("ae", "a")
            .replace("oe", "o")
            .replace("ue", "u")
    };
    a.is_ascii() && b.is_ascii() && !a.eq_ignore_ascii_case(b) && dotless(a) == dotless(b)
}

/// Whether `alias` tells the reader something the label does not: not a code ("MAS", "ARU":
/// a reader who knows the entity by name learns nothing from it, and a code can mislead in a
/// question about another code), not the label's own words or some of them ("Celtics" for
/// "Boston Celtics"), not the label respelt ([`respells`]: "Curacao" for "Curaçao",
/// "Comores" for "Comoros"), not a short form of it ([`shortens`]: "Ru-99" for
/// "Ruthenium-99"), not the label's numbers written with a symbol ([`notation_of`]: "Sn-114"
/// for "Tin-114"), and without parentheses of its own (which would nest inside the
/// question's). A chemical symbol that is no short form ("Au" for gold) is no code: it names
/// the element.
pub fn tells_apart(label: &str, alias: &str) -> bool {
    let (l, a) = (words(&folded(label)), words(&folded(alias)));
    (!is_code(alias) || is_symbol(alias))
        && !alias.contains(['(', ')'])
        && !a.is_empty()
        && !a.iter().all(|w| l.contains(w))
        && !respells(label, alias)
        && !shortens(label, alias)
        && !notation_of(label, alias)
}

/// Whether `alias` is `label`'s notation: its numbers, with one symbol in place of its one
/// word ("Sn-114" and "¹¹⁴Sn" for "Tin-114", "Au-197" for "Gold-197"). A nuclide's notation
/// says nothing its name does not; unlike [`shortens`], the symbol need not abbreviate the
/// English word (Sn is Latin stannum).
pub fn notation_of(label: &str, alias: &str) -> bool {
    use unicode_normalization::UnicodeNormalization;
    let (lw, mut ln) = parts(label);
    let (aw, mut an) = parts(alias);
    ln.sort();
    an.sort();
    let letters: String = alias.nfkc().filter(|c| c.is_alphabetic()).collect();
    !ln.is_empty() && ln == an && lw.len() == 1 && aw.len() == 1 && is_symbol(&letters)
}

/// A chemical element's kind of symbol: a capital and at most one more letter in lower case
/// ("Au", "Mg", "F"). Unlike an all-capitals code, chemists name the thing by it.
fn is_symbol(alias: &str) -> bool {
    let mut c = alias.trim().chars();
    c.next().is_some_and(char::is_uppercase) && c.clone().count() <= 1 && c.all(char::is_lowercase)
}

/// Whether `a` and `b` are one name spelt two ways: the same letters without their accents
/// ("Curaçao", "Curacao"), with umlauts and ligatures written out as a keyboard without them
/// writes them ("Österreich", "Oesterreich"), one letter apart in a name of five or more
/// (two in one of twelve or more): "Comoros", "Comores", or one word each with the same first
/// five letters ("Portugal", "Portuguesa"). Case is no difference.
pub fn respells(a: &str, b: &str) -> bool {
    let (fa, fb) = (folded(a).to_lowercase(), folded(b).to_lowercase());
    if fa == fb || written_out(a) == fb || fa == written_out(b) {
        return true;
    }
    let shorter = fa.chars().count().min(fb.chars().count());
    let apart = strsim::levenshtein(&fa, &fb);
    let one_word = |s: &str| !s.contains(|c: char| !c.is_alphanumeric());
    let same_start = fa
        .chars()
        .zip(fb.chars())
        .take_while(|(x, y)| x == y)
        .count();
    (shorter >= 5 && apart <= 1)
        || (shorter >= 12 && apart <= 2)
        // One word each that begins alike: the name in another language's spelling
        // ("Portuguesa", "Belgique"), which tells apart nothing the label does not.
        || (one_word(&fa) && one_word(&fb) && same_start >= 5)
}

/// Lower case with umlauts, ß and ligatures written out ("Österreich" → "oesterreich"), then
/// without the remaining accents.
fn written_out(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.to_lowercase().chars() {
        match c {
            'ä' | 'æ' => out.push_str("ae"),
            'ö' | 'ø' | 'œ' => out.push_str("oe"),
            'ü' => out.push_str("ue"),
            'å' => out.push_str("aa"),
            'ß' => out.push_str("ss"),
            c => out.push(c),
        }
    }
    folded(&out)
}

/// Whether `alias` is `label` shortened word by word: the same numbers, as many words, each
/// the label's own or a short form of it that keeps its first letter and the order of the
/// rest ("Ru-99" and "⁹⁹Ru" for "Ruthenium-99", "Sr-85" for "Strontium-85", "Mass." for
/// "Massachusetts").
pub fn shortens(label: &str, alias: &str) -> bool {
    let (lw, ln) = parts(label);
    let (aw, an) = parts(alias);
    // Its numbers are the label's, in any order ("²³²Th" and "Thorium-232" both hold 232).
    let (mut ln, mut an) = (ln, an);
    ln.sort();
    an.sort();
    ln == an
        && lw.len() == aw.len()
        && !aw.is_empty()
        && aw.iter().zip(&lw).any(|(x, y)| x != y)
        && aw.iter().zip(&lw).all(|(x, y)| x == y || short_form(x, y))
}

/// A name's words and its numbers, apart, in lower case without accents; superscript and
/// other compatibility digits read as digits ("²³²Th" → ["th"], ["232"]).
fn parts(s: &str) -> (Vec<String>, Vec<String>) {
    use unicode_normalization::UnicodeNormalization;
    let plain: String = folded(&s.nfkc().collect::<String>()).to_lowercase();
    let mut words = Vec::new();
    let mut numbers = Vec::new();
    let mut run = String::new();
    let mut digits = false;
    for c in plain.chars().chain(std::iter::once(' ')) {
        let kind = if c.is_ascii_digit() {
            Some(true)
        } else if c.is_alphabetic() {
            Some(false)
        } else {
            None
        };
        if kind != Some(digits) && !run.is_empty() {
            if digits {
                numbers.push(std::mem::take(&mut run));
            } else {
                words.push(std::mem::take(&mut run));
            }
        }
        if let Some(d) = kind {
            digits = d;
            run.push(c);
        }
    }
    (words, numbers)
}

/// Whether `short` keeps `word`'s first letter and some of the rest in order ("sr" of
/// "strontium").
fn short_form(short: &str, word: &str) -> bool {
    let mut rest = word.chars();
    short.chars().count() < word.chars().count()
        && short.chars().next() == word.chars().next()
        && short.chars().all(|c| rest.any(|w| w == c))
}

/// How a question names a subject with its alias.
const AKA: &str = " (also known as ";

/// The subject as a question names it: its label, with the alias when there is one.
pub fn name_with(label: &str, alias: Option<&str>) -> String {
    match alias {
        Some(alias) => format!("{label}{AKA}{alias})"),
        None => label.to_string(),
    }
}

/// The alias a question gives its subject ([`name_with`]'s), read back from its text.
pub fn alias_in(text: &str) -> Option<&str> {
    let start = text.find(AKA)? + AKA.len();
    let len = text[start..].find(')')?;
    Some(&text[start..start + len])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_alias_written_into_a_question_reads_back() {
        let head = name_with("France", Some("French Republic"));
        assert_eq!(head, "France (also known as French Republic)");
        assert_eq!(
            alias_in(&format!("Is {head} in Europe?")),
            Some("French Republic")
        );
        assert_eq!(name_with("France", None), "France");
        assert_eq!(alias_in("Is France in Europe?"), None);
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn never_the_answer_or_a_candidate() {
        let alpha3 = Answers::new(strings(&["COM", "FRA", "CYP"]));
        let aliases = strings(&["COM", "KM", "Union of the Comoros"]);
        assert_eq!(
            choose("Comoros", &aliases, &alpha3),
            Some("Union of the Comoros")
        );
        // Only codes left: none (a code tells a reader nothing, and one may mislead).
        assert_eq!(choose("Comoros", &strings(&["COM", "KM"]), &alpha3), None);
        // Contained as whole words, case-insensitively.
        let cities = Answers::new(strings(&["Utah", "New York"]));
        assert_eq!(
            choose("Jazz", &strings(&["utah jazz", "UTA", "Jazzmen"]), &cities),
            Some("Jazzmen")
        );
        assert!(cities.in_alias("The New York Knicks"));
        assert!(!cities.in_alias("New Yorkers"));
        let symbols = Answers::new(strings(&["¥", "€"]));
        assert!(symbols.in_alias("¥en"));
        assert_eq!(choose("Euro", &strings(&["€ currency"]), &symbols), None);
    }

    #[test]
    fn no_alias_where_the_answers_are_texts_in_a_language() {
        let kg = crate::kg::local::LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> .
            ex:fr ex:officialName "République française"@fr ; ex:code "FR" .
            ex:de ex:officialName "Bundesrepublik Deutschland"@de ; ex:code "DE" ."#,
            "test",
        )
        .unwrap();
        let ix = KgIndex::build(&kg, &|_| {}).unwrap();
        let p = |l: &str| ix.iri_id(&format!("http://ex.org/{l}")).unwrap();
        let aliases = strings(&["French Republic"]);
        let names = Answers::of_relation(&ix, p("officialName"));
        assert_eq!(choose("France", &aliases, &names), None);
        let codes = Answers::of_relation(&ix, p("code"));
        assert_eq!(choose("France", &aliases, &codes), Some("French Republic"));
    }

    #[test]
    fn names_that_tell_apart_and_none_when_none_fits() {
        let none = Answers::new(Vec::new());
        let aliases = strings(&["CY", "CYP", "Kıbrıs", "Republic of Cyprus"]);
        assert_eq!(
            choose("Cyprus", &aliases, &none),
            Some("Republic of Cyprus")
        );
        assert_eq!(
            choose("Cyprus", &strings(&["CY", "Kıbrıs"]), &none),
            Some("Kıbrıs")
        );
        // Codes, short forms, respellings and nested parentheses help nobody.
        for (label, alias) in [
            ("Malaysia", "MAS"),
            ("Aruba", "ARU"),
            ("Boston Celtics", "Celtics"),
            ("Curaçao", "Curacao"),
            ("Vatican City", "Holy See (Vatican City State)"),
            ("Comoros", "Comores"),
            ("Ruthenium-99", "Ru-99"),
            ("Strontium-85", "Sr-85"),
            ("Ruthenium", "Ru"),
        ] {
            assert!(!tells_apart(label, alias), "{alias}");
            assert_eq!(choose(label, &strings(&[alias]), &none), None);
        }
        assert!(tells_apart("Italy", "Italian Republic"));
        assert!(tells_apart("Georgia", "Sakartvelo"));
        // A chemical symbol names the element as chemists do.
        assert!(tells_apart("Gold", "Au"));
        assert!(!tells_apart("Belgium", "België") && tells_apart("Italy", "Italia"));
        // A respelling of another of its names loses to the name with its letters.
        let austria = strings(&["Oesterreich", "Österreich"]);
        assert_eq!(choose("Austria", &austria, &none), Some("Österreich"));
        let others = strings(&["Österreich"]);
        let alone = strings(&["Oesterreich"]);
        assert_eq!(choose_beside("Austria", &alone, &others, &none), None);
        // Two keyboard spellings of a name with umlauts, its own spelling not among them.
        let plain = strings(&["Oesterreich", "Osterreich", "Republic of Austria"]);
        assert_eq!(
            choose("Austria", &plain, &none),
            Some("Republic of Austria")
        );
        assert!(umlaut_pair("Muenchen", "Munchen") && !umlaut_pair("Israel", "ISRAEL"));
        let belgium = strings(&["Belgie", "België", "Kingdom of Belgium"]);
        assert_eq!(
            choose("Belgium", &belgium, &none),
            Some("Kingdom of Belgium")
        );
        assert!(respells("Österreich", "Oesterreich") && respells("Curaçao", "CURACAO"));
        assert!(!respells("Iran", "Iraq") && !respells("Georgia", "Sakartvelo"));
        assert!(respells("Portugal", "Portuguesa") && !respells("Spain", "España"));
        assert!(shortens("Massachusetts", "Mass.") && !shortens("Gold", "Au"));
        assert!(shortens("Thorium-232", "²³²Th") && shortens("Germanium-72", "72Ge"));
        assert!(!shortens("Thorium-232", "²³⁰Th"));
        assert!(
            !shortens("Ruthenium-99", "Ruthenium-99") && !shortens("Italy", "Italian Republic")
        );
        assert_eq!(choose("Cyprus", &strings(&["cyprus", " "]), &none), None);
        assert_eq!(choose("Cyprus", &[], &none), None);
        assert!(is_code("CY") && is_code("250") && is_code("fra") && is_code("+33"));
        assert!(!is_code("Suns") && !is_code("76ers") && !is_code("Holland"));
    }

    #[test]
    fn a_nuclide_notation_is_no_alias_worth_showing() {
        for (label, alias) in [
            ("Tin-114", "Sn-114"),
            ("Tin-114", "¹¹⁴Sn"),
            ("Gold-197", "Au-197"),
            ("Potassium-40", "K-40"),
        ] {
            assert!(notation_of(label, alias), "{alias} for {label}");
            assert!(!tells_apart(label, alias), "{alias} for {label}");
        }
        // Other numbers, more words, no symbol, or no numbers at all: not a notation.
        for (label, alias) in [
            ("Tin-114", "Sn-115"),
            ("Apollo 11", "AS-11"),
            ("Boston Celtics", "BOS"),
            ("Tin-114", "tin isotope 114"),
        ] {
            assert!(!notation_of(label, alias), "{alias} for {label}");
        }
    }
}

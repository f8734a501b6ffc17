//! The alias that disambiguates a question's subject ("Georgia (also known as Sakartvelo)")
//! without giving the answer away: never one that equals or contains a candidate answer of the
//! relation asked about (KGLens' C_j, which holds the true object and every wrong one the
//! question may ask about), never a code, a short form or a respelling of the label
//! ([`tells_apart`]), and none when none fits.

use std::collections::HashSet;

use super::grammar::words;
use crate::kg::index::{Id, KgIndex};

/// The candidate answers of one relation, for asking whether an alias contains one.
pub struct Answers {
    /// Each answer's words, joined by a space.
    phrases: HashSet<String>,
    /// Answers without letters or digits ("¥"), lower-cased, matched as substrings.
    signs: Vec<String>,
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
        Self { phrases, signs }
    }

    /// The labels of every object predicate `p` has in the KG.
    pub fn of_relation(index: &KgIndex, p: Id) -> Self {
        Self::new(
            index
                .objects_of_predicate(p)
                .iter()
                .map(|&o| index.label(o)),
        )
    }

    /// Whether `alias` equals or contains (as whole words, case-insensitively) an answer.
    pub fn in_alias(&self, alias: &str) -> bool {
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
    aliases
        .iter()
        .map(|a| a.trim())
        .enumerate()
        .filter(|(_, a)| !a.is_empty() && tells_apart(label, a) && !answers.in_alias(a))
        .min_by_key(|(i, a)| (!a.is_ascii(), *i))
        .map(|(_, a)| a)
}

/// Whether `alias` tells the reader something the label does not: not a code ("MAS", "ARU":
/// a reader who knows the entity by name learns nothing from it, and a code can mislead in a
/// question about another code), not the label's own words or some of them ("Celtics" for
/// "Boston Celtics"), not the label spelt without its accents or case ("Curacao" for
/// "Curaçao"), and without parentheses of its own (which would nest inside the question's). A
/// chemical symbol ("Au") is no code: it names the element.
pub fn tells_apart(label: &str, alias: &str) -> bool {
    let (l, a) = (words(&folded(label)), words(&folded(alias)));
    (!is_code(alias) || is_symbol(alias))
        && !alias.contains(['(', ')'])
        && !a.is_empty()
        && !a.iter().all(|w| l.contains(w))
}

/// A chemical element's kind of symbol: a capital and at most one more letter in lower case
/// ("Au", "Mg", "F"). Unlike an all-capitals code, chemists name the thing by it.
fn is_symbol(alias: &str) -> bool {
    let mut c = alias.trim().chars();
    c.next().is_some_and(char::is_uppercase)
        && c.clone().count() <= 1
        && c.all(char::is_lowercase)
}

/// Text without its accents (letters decomposed, combining marks dropped): "Curaçao" →
/// "Curacao".
fn folded(s: &str) -> String {
    use unicode_normalization::{char::is_combining_mark, UnicodeNormalization};
    s.nfd().filter(|c| !is_combining_mark(*c)).collect()
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
        ] {
            assert!(!tells_apart(label, alias), "{alias}");
            assert_eq!(choose(label, &strings(&[alias]), &none), None);
        }
        assert!(tells_apart("Italy", "Italian Republic"));
        assert!(tells_apart("Georgia", "Sakartvelo"));
        // A chemical symbol names the element as chemists do.
        assert!(tells_apart("Gold", "Au"));
        assert_eq!(choose("Cyprus", &strings(&["cyprus", " "]), &none), None);
        assert_eq!(choose("Cyprus", &[], &none), None);
        assert!(is_code("CY") && is_code("250") && is_code("fra") && is_code("+33"));
        assert!(!is_code("Suns") && !is_code("76ers") && !is_code("Holland"));
    }
}

//! The alias that disambiguates a question's subject ("Georgia (also known as Sakartvelo)")
//! without giving the answer away: never one that equals or contains a candidate answer of the
//! relation asked about (KGLens' C_j, which holds the true object and every wrong one the
//! question may ask about), a name before a code, and none when none fits.

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
    let label = label.trim().to_lowercase();
    aliases
        .iter()
        .map(|a| a.trim())
        .enumerate()
        .filter(|(_, a)| !a.is_empty() && a.to_lowercase() != label && !answers.in_alias(a))
        .min_by_key(|(i, a)| (is_code(a), !a.is_ascii(), *i))
        .map(|(_, a)| a)
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
        // Only codes left, and the one that answers is out: the other code is fine.
        assert_eq!(
            choose("Comoros", &strings(&["COM", "KM"]), &alpha3),
            Some("KM")
        );
        // Contained as whole words, case-insensitively.
        let cities = Answers::new(strings(&["Utah", "New York"]));
        assert_eq!(
            choose("Jazz", &strings(&["utah jazz", "UTA"]), &cities),
            Some("UTA")
        );
        assert!(cities.in_alias("The New York Knicks"));
        assert!(!cities.in_alias("New Yorkers"));
        let symbols = Answers::new(strings(&["¥", "€"]));
        assert!(symbols.in_alias("¥en"));
        assert_eq!(choose("Euro", &strings(&["€ currency"]), &symbols), None);
    }

    #[test]
    fn names_before_codes_and_none_when_none_fits() {
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
        assert_eq!(choose("Cyprus", &strings(&["cyprus", " "]), &none), None);
        assert_eq!(choose("Cyprus", &[], &none), None);
        assert!(is_code("CY") && is_code("250") && is_code("fra") && is_code("+33"));
        assert!(!is_code("Suns") && !is_code("76ers") && !is_code("Holland"));
    }
}

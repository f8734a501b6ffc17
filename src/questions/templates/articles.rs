//! Which names English writes with "the" in running text: "the United States", "the Bahamas",
//! "the Czech Republic", "the Isle of Man". Decided at render time, from the KG's own names
//! first and else from the words of the name, so that it holds for any KG (a Wikidata dump
//! carries the same official names as aliases) and a KG needs no extra property for it.
//!
//! 1. From data: a name takes "the" when one of the entity's other names is "the" + the name
//!    ("The Netherlands") or a formal name that ends in "of the" + the name ("Commonwealth of the
//!    Bahamas", "Republic of the Philippines", "Territory of the Cocos (Keeling) Islands").
//! 2. Else by rule: the name's head noun is one that English uses with the article for a state
//!    or a place: a form of state ("Republic", "Kingdom", "Federation", "Union", ...) or a plural
//!    of places ("States", "Islands", "Emirates", "Lands", ...), as its last word ("the Central
//!    African Republic", "the Cayman Islands") or before "of" ("the Republic of the Congo", "the
//!    Federated States of Micronesia"); and a few nouns only before "of" or "for" ("the Isle of Man",
//!    "the State of Palestine", "the District of Columbia"), where alone they are part of a
//!    bare name ("Vatican City", "Golden State"). In a coordinated name ("Heard Island and
//!    McDonald Islands") the first complete name decides, as English does ("Heard Island and
//!    McDonald Islands is ..."), unless it is a single word ("the Turks and Caicos Islands").
//!
//! 3. Or the name ends in a common noun for a unique thing: a currency or an event of a series
//!    written in lower case ("the euro", "the Swiss franc", "the 2015 WNBA championship"), an
//!    institution, a war or a sea ("the National Basketball Association", "the Korean War").
//!
//! A name that already starts with an article, a code or a number never gets one.

use crate::kg::index::{Id, KgIndex};
use crate::kg::Term;

/// Head nouns that take "the" as a name's last word or before "of".
const HEAD_NOUNS: [&str; 18] = [
    "Republic",
    "Kingdom",
    "Federation",
    "Confederation",
    "Union",
    "Commonwealth",
    "Emirates",
    "States",
    "Islands",
    "Isles",
    "Lands",
    "Territory",
    "Territories",
    "Provinces",
    "Antilles",
    // International bodies: "the United Nations", "the World Health Organization".
    "Nations",
    "Organization",
    "Organisation",
];

/// Common nouns that, ending a name written in lower case, make it a unique thing English
/// writes with "the": a currency ("the euro", "the Swiss franc", "the West African CFA
/// franc"), an event of a series ("the 2015 WNBA championship"). Only in lower case: "Ayn
/// Rand" and "Mark" are names.
const LOWER_HEADS: [&str; 88] = [
    "euro",
    "dollar",
    "pound",
    "franc",
    "peso",
    "rupee",
    "rupiah",
    "yen",
    "yuan",
    "renminbi",
    "won",
    "krona",
    "krone",
    "króna",
    "dinar",
    "dirham",
    "riyal",
    "rial",
    "shilling",
    "rand",
    "real",
    "lira",
    "ruble",
    "rouble",
    "lari",
    "lek",
    "lev",
    "leu",
    "lempira",
    "quetzal",
    "colón",
    "córdoba",
    "guaraní",
    "boliviano",
    "sol",
    "bolívar",
    "złoty",
    "zloty",
    "forint",
    "koruna",
    "kuna",
    "manat",
    "som",
    "somoni",
    "tenge",
    "tögrög",
    "tugrik",
    "dong",
    "kip",
    "riel",
    "baht",
    "kyat",
    "taka",
    "ngultrum",
    "afghani",
    "ariary",
    "birr",
    "cedi",
    "dalasi",
    "kwacha",
    "kwanza",
    "leone",
    "loti",
    "metical",
    "naira",
    "nakfa",
    "ouguiya",
    "pula",
    "lilangeni",
    "dobra",
    "tala",
    "vatu",
    "kina",
    "hryvnia",
    "mark",
    "florin",
    "guilder",
    "gourde",
    "escudo",
    "balboa",
    "denar",
    "rufiyaa",
    "sterling",
    "championship",
    "cup",
    "finals",
    "final",
    "war",
];

/// Nouns that, ending a name of two words or more in any case, make it one English writes
/// with "the": "the National Basketball Association", "the Korean War", "the Nobel Prize".
const INSTITUTION_HEADS: [&str; 22] = [
    "association",
    // Research places: "the Oak Ridge National Laboratory", "the Kennedy Space Center".
    "laboratory",
    "laboratories",
    "centre",
    "center",
    "observatory",
    "conference",
    "committee",
    "party",
    "empire",
    "dynasty",
    "prize",
    "agency",
    "alliance",
    "movement",
    "revolution",
    "treaty",
    "olympics",
    "river",
    "ocean",
    "sea",
    "war",
];

/// Nouns that take "the" only before "of" or "for" ("the Joint Institute for Nuclear
/// Research"): alone they end bare names ("Vatican City").
const OF_NOUNS: [&str; 18] = [
    "City",
    "Institute",
    // "the GSI Helmholtz Centre for Heavy Ion Research", "the University of California".
    "Centre",
    "Center",
    "University",
    "Academy",
    "Isle",
    "State",
    "District",
    "Principality",
    "Sultanate",
    "Duchy",
    "Bailiwick",
    "Collectivity",
    "Department",
    "Country",
    "Province",
    "Council",
];

/// Whether the entity `id` is written "the <label>" in running text.
pub fn definite(index: &KgIndex, id: Id) -> bool {
    if !matches!(index.term(id), Term::NamedNode(_)) {
        return false;
    }
    let label = index.label(id);
    takes_the(&label, names_of(index, id)) || qualifies_a_plural_name(index, id, &label)
}

/// The entity's names besides its label: its aliases and its other labels.
fn names_of(index: &KgIndex, id: Id) -> impl Iterator<Item = &str> {
    index
        .aliases_of(id)
        .iter()
        .chain(index.other_labels_of(id))
        .map(String::as_str)
}

/// Rule 1 carried over a qualifier: a name whose last word is the whole name of another entity
/// that is plural and written with "the" keeps the article after a word that qualifies it
/// ("the Caribbean Netherlands", as "the Netherlands"). Only a plural: a singular name takes
/// none once qualified ("South Sudan", though "the Sudan").
fn qualifies_a_plural_name(index: &KgIndex, id: Id, label: &str) -> bool {
    let words: Vec<&str> = label.split_whitespace().collect();
    let [.., qualifier, last] = words.as_slice() else {
        return false;
    };
    if !qualifier.starts_with(char::is_uppercase)
        || !last.ends_with('s')
        || label.contains(['(', ','])
    {
        return false;
    }
    index
        .named(&crate::kg::index::name_key(last))
        .iter()
        .any(|&o| o != id && takes_the(&index.label(o), names_of(index, o)))
}

/// Whether `label`, with the entity's other names `names`, is written "the <label>".
pub fn takes_the<'a>(label: &str, names: impl IntoIterator<Item = &'a str>) -> bool {
    let label = label.trim();
    if label.is_empty() || super::slots::starts_with_article(label) {
        return false;
    }
    if by_common_head(label) {
        return true;
    }
    if !label.starts_with(char::is_uppercase) {
        return false;
    }
    let with_the = format!("the {label}");
    let of_the = format!(" of the {label}");
    let from_data = names.into_iter().any(|n| {
        let n = n.trim();
        n.eq_ignore_ascii_case(&with_the)
            || (n.len() > of_the.len() && n.ends_with(&of_the))
            // An initialism takes "the" as the name it stands for does ("the USSR": the Union
            // of Soviet Socialist Republics).
            || (spells_initials(label, n) && by_rule(n))
    });
    from_data || by_rule(label)
}

/// Whether `short` (two or more capitals) is the initials of `name`'s capitalised words ("USSR",
/// "Union of Soviet Socialist Republics").
fn spells_initials(short: &str, name: &str) -> bool {
    let initials: String = name
        .split_whitespace()
        .filter_map(|w| w.chars().next())
        .filter(|c| c.is_uppercase())
        .collect();
    short.chars().count() >= 2 && short.chars().all(|c| c.is_ascii_uppercase()) && initials == short
}

/// Rule 3: the name ends in a common noun of [`LOWER_HEADS`] (in lower case) or
/// [`INSTITUTION_HEADS`] (a name of two words or more). A name in parentheses or with a
/// comma is left alone (a label with its own qualifier).
fn by_common_head(label: &str) -> bool {
    if label.contains(['(', ',']) {
        return false;
    }
    let words: Vec<&str> = label.split_whitespace().collect();
    let Some(last) = words.last() else {
        return false;
    };
    LOWER_HEADS.contains(last)
        || (words.len() >= 2 && INSTITUTION_HEADS.contains(&last.to_lowercase().as_str()))
}

/// Rule 2 of the module's description, on the name's words.
fn by_rule(label: &str) -> bool {
    // A coordinated name: the first complete name decides unless it is one word.
    let name = match label.split_once(" and ") {
        Some((first, _)) if first.split_whitespace().count() > 1 => first,
        _ => label,
    };
    let words: Vec<&str> = name
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
        .collect();
    words.iter().enumerate().any(|(i, w)| {
        let next = words.get(i + 1).copied();
        let last = next.is_none();
        // "for" qualifies a head noun as "of" does: "the Joint Institute for Nuclear Research".
        let before_of = matches!(next, Some("of" | "for"));
        (HEAD_NOUNS.contains(w) && (last || before_of)) || (OF_NOUNS.contains(w) && before_of)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bare(label: &str) -> bool {
        takes_the(label, [])
    }

    #[test]
    fn a_qualified_plural_name_keeps_its_article() {
        let kg = crate::kg::local::LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            @prefix skos: <http://www.w3.org/2004/02/skos/core#> .
            ex:nl rdfs:label "Netherlands" ; skos:altLabel "The Netherlands" ; ex:p ex:x .
            ex:bq rdfs:label "Caribbean Netherlands" ; ex:p ex:x .
            ex:sd rdfs:label "Sudan" ; skos:altLabel "Republic of the Sudan" ; ex:p ex:x .
            ex:ss rdfs:label "South Sudan" ; ex:p ex:x .
            ex:low rdfs:label "low Netherlands" ; ex:p ex:x ."#,
            "test",
        )
        .unwrap();
        let ix = KgIndex::build(&kg, &|_| {}).unwrap();
        let id = |l: &str| ix.iri_id(&format!("http://ex.org/{l}")).unwrap();
        assert!(definite(&ix, id("nl")));
        assert!(definite(&ix, id("bq")), "the Caribbean Netherlands");
        assert!(definite(&ix, id("sd")), "the Sudan, by its formal name");
        assert!(
            !definite(&ix, id("ss")),
            "South Sudan: a singular name, qualified, takes none"
        );
        assert!(
            !definite(&ix, id("low")),
            "a lower-case word qualifies no name"
        );
    }

    #[test]
    fn an_initialism_takes_the_article_of_its_name() {
        assert!(takes_the("USSR", ["Union of Soviet Socialist Republics"]));
        assert!(!takes_the(
            "USSR",
            ["Soviet Socialist Republics of the Union"]
        ));
        assert!(!takes_the(
            "NASA",
            ["National Aeronautics and Space Administration"]
        ));
    }

    #[test]
    fn by_the_names_head_noun() {
        for l in [
            "United States",
            "United Kingdom",
            "Czech Republic",
            "Central African Republic",
            "Republic of the Congo",
            "Cayman Islands",
            "United Arab Emirates",
            "Isle of Man",
            "Federated States of Micronesia",
            "Russian Federation",
            "British Indian Ocean Territory",
            "Turks and Caicos Islands",
            "District of Columbia",
            "Soviet Union",
            "1954 NBA championship",
            "euro",
            "Swiss franc",
            "United States dollar",
            "West African CFA franc",
            "City of Brussels",
            "Joint Institute for Nuclear Research",
            "GSI Helmholtz Centre for Heavy Ion Research",
            "University of California, Berkeley",
            "Oak Ridge National Laboratory",
            "National Basketball Association",
            "Korean War",
        ] {
            assert!(bare(l), "{l}");
        }
        for l in [
            "France",
            "Bahamas",
            "Vatican City",
            "Golden State",
            "Heard Island and McDonald Islands",
            "Christmas Island",
            "Saint Vincent and the Grenadines",
            "The Hague",
            "Ayn Rand",
            "Mexico City",
            "neutron emission",
            "hexagonal",
            "Rand",
            "republic",
            "",
        ] {
            assert!(!bare(l), "{l}");
        }
    }

    #[test]
    fn from_the_entitys_other_names() {
        assert!(takes_the("Bahamas", ["BS", "Commonwealth of the Bahamas"]));
        assert!(takes_the("Netherlands", ["The Netherlands"]));
        assert!(takes_the("Gambia", ["Republic of the Gambia"]));
        // The official name must end with the label: "Union of the Comoros" is not Myanmar's.
        assert!(!takes_the("Myanmar", ["Republic of the Union of Myanmar"]));
        assert!(!takes_the(
            "Congo",
            ["Democratic Republic of the Congo basin"]
        ));
        // A name that is its own official name needs no alias to get it.
        assert!(!takes_the(
            "Bermuda",
            ["The Bermudas", "The Islands of Bermuda"]
        ));
    }
}

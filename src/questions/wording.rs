//! What a reader rejects in a question's wording that the grammar rules ([`super::grammar`])
//! let through: a name English writes with "the" written bare ("the capital of United States"),
//! and template phrasing English does not use ("in the state or province of Oregon", "in the
//! year 1808", a relation label pasted into the sentence). `kgscope audit` counts both, on the
//! text alone, so that it judges question sets made by any version of the generator.

/// The label `label` stands bare in `text` where English writes "the" before it. Call it only
/// for a name that takes the article ([`super::templates::articles::definite`]). `other` is the
/// label of the fact's other end: an occurrence inside it ("United States dollar" for "United
/// States") is that name's, not this one's. Occurrences inside the alias a yes/no question
/// adds ("(also known as United States of America)") are the alias's own wording.
pub fn missing_article(text: &str, label: &str, other: &str) -> bool {
    let label = label.trim();
    if label.is_empty() {
        return false;
    }
    let text = without_alias(text);
    let other = other.trim();
    let masked = if other.len() > label.len() && other.contains(label) {
        text.replace(other, &"#".repeat(other.len()))
    } else {
        text
    };
    masked.match_indices(label).any(|(i, _)| {
        let end = i + label.len();
        let before_ok = masked[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let after_ok = masked[end..]
            .chars()
            .next()
            .is_none_or(|c| !c.is_alphanumeric());
        let preceded_by_the = masked[..i]
            .trim_end()
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("the"));
        before_ok && after_ok && !preceded_by_the
    })
}

/// `text` without the parenthesised aliases yes/no questions add.
fn without_alias(text: &str) -> String {
    const AKA: &str = "(also known as ";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(AKA) {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        match after.find(')') {
            Some(end) => rest = &after[end + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Phrasings a careful reader rejects, whatever the template: empty when none.
/// - "a disjunction of kinds before a name": "in the state or province of Oregon" (English names
///   one kind, or none: "in Oregon");
/// - "in the year 1808" where English says "in 1808";
/// - "relation label pasted": a relation label that is not English prose (a unit in parentheses
///   or after "in", an identifier) written into the sentence, as a template built from the label
///   does ("The melting point in kelvin of Iron is 1811.").
pub fn unnatural(text: &str, relation_label: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    let words: Vec<&str> = text.split_whitespace().collect();
    // "the <kind> or <kind> of <Name>"
    if words.windows(6).any(|w| {
        w[0].eq_ignore_ascii_case("the")
            && w[2] == "or"
            && w[4] == "of"
            && w[5].starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
            && w[1].chars().all(char::is_lowercase)
            && w[3].chars().all(char::is_lowercase)
    }) {
        out.push("a disjunction of kinds before a name");
    }
    if words.windows(4).any(|w| {
        w[0].eq_ignore_ascii_case("in")
            && w[1] == "the"
            && w[2] == "year"
            && w[3].starts_with(|c: char| c.is_ascii_digit())
    }) {
        out.push("\"in the year\" before a year");
    }
    let label = relation_label.trim();
    let not_prose = label.contains('(')
        || label.contains('_')
        || label.contains('/')
        || label.split_whitespace().any(|w| {
            w.chars().skip(1).any(char::is_uppercase) && w.chars().any(char::is_lowercase)
        })
        || label
            .rsplit_once(" in ")
            .is_some_and(|(_, unit)| !unit.contains(' ') && unit.chars().all(char::is_lowercase));
    if not_prose
        && label.split_whitespace().count() > 1
        && text.to_lowercase().contains(&label.to_lowercase())
    {
        out.push("relation label pasted");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_name_that_takes_the_is_found() {
        let us = "United States";
        assert!(missing_article(
            "The capital of United States is Washington, D.C.",
            us,
            "Washington, D.C."
        ));
        assert!(missing_article(
            "United States shares a land border with Canada.",
            us,
            "Canada"
        ));
        assert!(!missing_article(
            "The capital of the United States is Washington, D.C.",
            us,
            "x"
        ));
        assert!(!missing_article(
            "The United States shares a land border with Canada.",
            us,
            "Canada"
        ));
        // Inside the other end's name, or the alias, it is not this name.
        assert!(!missing_article(
            "Is United States dollar an official currency of the United States?",
            us,
            "United States dollar"
        ));
        assert!(!missing_article(
            "Is 840 the ISO code of the United States (also known as United States of America)?",
            us,
            "840"
        ));
        // A longer word is not the name.
        assert!(!missing_article("The Bahamasian is here.", "Bahamas", "x"));
    }

    #[test]
    fn phrasings_english_does_not_use() {
        assert_eq!(
            unnatural(
                "The Portland Trail Blazers are based in the state or province of Oregon.",
                "home state or province"
            ),
            ["a disjunction of kinds before a name"]
        );
        // A question may ask for one of two kinds.
        assert!(unnatural(
            "In which state or province are the Portland Trail Blazers based?",
            "x"
        )
        .is_empty());
        assert_eq!(
            unnatural("Neon was discovered in the year 1898.", "year of discovery"),
            ["\"in the year\" before a year"]
        );
        assert_eq!(
            unnatural(
                "The melting point in kelvin of Iron is 1811.",
                "melting point in kelvin"
            ),
            ["relation label pasted"]
        );
        assert_eq!(
            unnatural("The density in g/cm³ of Iron is 7.87.", "density in g/cm³"),
            ["relation label pasted"]
        );
        assert!(unnatural(
            "The melting point of Iron is 1811 kelvin.",
            "melting point in kelvin"
        )
        .is_empty());
        assert!(unnatural("Is Paris the capital of France?", "capital").is_empty());
    }
}

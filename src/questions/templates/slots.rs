//! How a value is put into a template's slot: the article the slot declares, a literal with its
//! unit, a code shown as a code of its scheme, and the fixes made while filling so that a label
//! that brings its own article or full stop never doubles the template's.

use serde::Deserialize;

/// The article a slot puts before its value (unless the value already starts with one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Article {
    The,
    /// "a" or "an", whichever agrees with the value's first word.
    #[serde(alias = "an")]
    A,
}

/// A slot declaration (`head = { article = "the" }`, `tail = { unit = "kelvin" }`,
/// `tail = { code = "ISO 4217 code" }`). Every field is optional: an empty slot inserts the
/// label as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Slot {
    #[serde(default)]
    pub article: Option<Article>,
    /// Written after a numeric value: "1811 kelvin".
    #[serde(default)]
    pub unit: Option<String>,
    /// The values are codes of this scheme, named as a noun phrase ("ISO 4217 code"). In its
    /// own template a code stands bare (the template names the scheme); in a slot where a
    /// name belongs it is shown as `the ISO 4217 code "EUR"`, so that it is never read as a
    /// name.
    #[serde(default)]
    pub code: Option<String>,
    /// The values are points in time, written with the preposition their precision takes:
    /// "in 1949", "in May 1949", "on 23 May 1949" (so a template reads "{head} was born
    /// {tail}." whatever the date's precision).
    #[serde(default)]
    pub time: bool,
}

/// A value as the KG gives it, and, when the value is foreign to the slot it goes in (a literal
/// the KG knows only as the object of another relation), that relation's tail declaration.
pub struct Value<'a> {
    pub text: &'a str,
    pub home: Option<&'a Slot>,
    /// The value is a name English writes with "the" (`templates::articles`): it gets the
    /// article where the slot declares none.
    pub definite: bool,
}

/// The slot's text for a value.
pub fn decorate(value: &Value<'_>, slot: &Slot) -> String {
    let text = value.text.trim();
    if let Some(code) = value.home.and_then(|h| h.code.as_deref()) {
        return format!("the {code} \"{text}\"");
    }
    let unit = slot
        .unit
        .as_deref()
        .or_else(|| value.home.and_then(|h| h.unit.as_deref()));
    if let Some(unit) = unit.filter(|_| is_number(text)) {
        return format!("{text} {unit}");
    }
    if slot.time {
        if let Some(when) = time_words(text) {
            return when;
        }
    }
    match slot.article {
        Some(_) if starts_with_article(text) || text.is_empty() => text.to_string(),
        Some(Article::The) => format!("the {text}"),
        Some(Article::A) => format!("{} {text}", indefinite(text)),
        None if value.definite && !text.is_empty() && !starts_with_article(text) => {
            format!("the {text}")
        }
        None => text.to_string(),
    }
}

const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A date's lexical form (`1949`, `1949-05`, `1949-05-23`, `-0044-03-15`, a time after `T`
/// ignored) in words with its preposition: "in 1949", "in May 1949", "on 23 May 1949",
/// "in 44 BC". `None` for anything else.
pub fn time_words(text: &str) -> Option<String> {
    let (bc, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text.trim_start_matches('+')),
    };
    let date = rest.split('T').next()?;
    let mut parts = date.split('-');
    let year: i64 = parts
        .next()
        .filter(|y| y.bytes().all(|b| b.is_ascii_digit()))?
        .parse()
        .ok()?;
    let month: Option<usize> = match parts.next() {
        Some(m) => Some(m.parse().ok().filter(|m| (1..=12).contains(m))?),
        None => None,
    };
    let day: Option<u32> = match parts.next() {
        Some(d) => Some(d.parse().ok().filter(|d| (1..=31).contains(d))?),
        None => None,
    };
    if parts.next().is_some() {
        return None;
    }
    let year = if bc {
        format!("{year} BC")
    } else {
        year.to_string()
    };
    Some(match (month, day) {
        (Some(m), Some(d)) => format!("on {d} {} {year}", MONTHS[m - 1]),
        (Some(m), None) => format!("in {} {year}", MONTHS[m - 1]),
        _ => format!("in {year}"),
    })
}

/// A plain decimal number, possibly signed ("1811", "-38.83", "+2"), not "NaN" or "inf".
pub fn is_number(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit())
        && s.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'))
        && s.parse::<f64>().is_ok()
}

pub const ARTICLES: [&str; 3] = ["the", "a", "an"];

pub fn is_article(word: &str) -> bool {
    ARTICLES.iter().any(|a| a.eq_ignore_ascii_case(word))
}

/// "the Bahamas", "a sovereign state": an article followed by at least one more word (a label
/// that is just "A" is a name, not an article).
pub fn starts_with_article(s: &str) -> bool {
    let mut words = s.split_whitespace();
    matches!((words.next(), words.next()), (Some(w), Some(_)) if is_article(w))
}

/// "a" or "an" before `next` (by the sound of its first word, with the usual exceptions:
/// "a unit", "an hour", "an 18", "an NBA").
pub fn indefinite(next: &str) -> &'static str {
    let word: String = next
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .to_string();
    let lower = word.to_lowercase();
    let first = lower.chars().next().unwrap_or(' ');
    if first.is_ascii_digit() {
        let int: String = lower.chars().take_while(char::is_ascii_digit).collect();
        let eight = first == '8';
        let eleven_eighteen =
            (int.starts_with("11") || int.starts_with("18")) && matches!(int.len(), 2 | 4);
        return if eight || eleven_eighteen { "an" } else { "a" };
    }
    // Initialisms are read letter by letter: "an NBA team", "a UN member".
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    if letters >= 2 && word.chars().all(|c| !c.is_lowercase()) && !lower.contains(' ') {
        return if "aefhilmnorsx".contains(first) {
            "an"
        } else {
            "a"
        };
    }
    const AN_CONSONANT: [&str; 4] = ["hour", "honest", "honour", "heir"];
    const A_VOWEL: [&str; 9] = [
        "uni", "use", "usu", "uti", "ura", "euro", "eu", "one", "once",
    ];
    if AN_CONSONANT.iter().any(|p| lower.starts_with(p)) {
        return "an";
    }
    if A_VOWEL.iter().any(|p| lower.starts_with(p)) {
        return "a";
    }
    if "aeiou".contains(first) {
        "an"
    } else {
        "a"
    }
}

/// Fills `{head}` and `{tail}` with already decorated values, verbatim (values are data, never
/// re-scanned for placeholders), and keeps the sentence well formed around them: an article
/// the template writes before a value that brings its own is dropped, "a"/"an" agrees with the
/// value, a value ending in "." absorbs the template's full stop, whitespace runs collapse,
/// and a sentence starts with a capital.
pub fn fill(template: &str, head: &str, tail: &str) -> String {
    let mut out = String::with_capacity(template.len() + head.len() + tail.len());
    let mut rest = template;
    while let Some(pos) = rest.find('{') {
        out.push_str(&rest[..pos]);
        let after = &rest[pos..];
        let (value, r) = if let Some(r) = after.strip_prefix("{head}") {
            (head, r)
        } else if let Some(r) = after.strip_prefix("{tail}") {
            (tail, r)
        } else {
            out.push('{');
            rest = &after[1..];
            continue;
        };
        let value = value.trim();
        insert(&mut out, value);
        rest = if value.ends_with('.') {
            r.strip_prefix('.').unwrap_or(r)
        } else {
            r
        };
    }
    out.push_str(rest);
    let mut text = out.split_whitespace().collect::<Vec<_>>().join(" ");
    // A sentence starts with a capital, also where a value opens it ("euro is a currency of
    // Spain"), unless that value's first word has capitals of its own ("iPhone", "eBay").
    if let Some(first) = text.split(' ').next() {
        let own_capitals = first.chars().skip(1).any(char::is_uppercase);
        if text.starts_with(|c: char| c.is_lowercase()) && !own_capitals && text.contains(' ') {
            let len = text.chars().next().map_or(0, char::len_utf8);
            let upper: String = text[..len].to_uppercase();
            text.replace_range(..len, &upper);
        }
    }
    text
}

/// Appends a value after the template text in `out`, reconciling an article the template put
/// right before the slot with the value.
fn insert(out: &mut String, value: &str) {
    let kept = out.trim_end_matches([' ', '\t']);
    if kept.len() < out.len() {
        let word_start = kept
            .rfind(|c: char| c.is_whitespace() || c == '(' || c == '"')
            .map_or(0, |i| {
                i + kept[i..].chars().next().map_or(1, char::len_utf8)
            });
        let word = &kept[word_start..];
        if is_article(word) && !value.is_empty() {
            if starts_with_article(value) {
                out.truncate(word_start);
            } else if !word.eq_ignore_ascii_case("the") {
                let mut a = indefinite(value).to_string();
                if word.starts_with(char::is_uppercase) {
                    a.replace_range(..1, &a[..1].to_uppercase());
                }
                let space = out[kept.len()..].to_string();
                out.truncate(word_start);
                out.push_str(&a);
                out.push_str(&space);
            }
        }
    }
    out.push_str(value);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn the() -> Slot {
        Slot {
            article: Some(Article::The),
            ..Slot::default()
        }
    }

    fn plain(text: &str) -> Value<'_> {
        Value {
            text,
            home: None,
            definite: false,
        }
    }

    #[test]
    fn dates_are_written_at_their_precision() {
        assert_eq!(time_words("1949").as_deref(), Some("in 1949"));
        assert_eq!(time_words("1949-05").as_deref(), Some("in May 1949"));
        assert_eq!(time_words("1949-05-23").as_deref(), Some("on 23 May 1949"));
        assert_eq!(
            time_words("1879-03-14T00:00:00Z").as_deref(),
            Some("on 14 March 1879")
        );
        assert_eq!(
            time_words("-0044-03-15").as_deref(),
            Some("on 15 March 44 BC")
        );
        assert_eq!(time_words("1949-13-01"), None);
        assert_eq!(time_words("Paris"), None);
        let slot = Slot {
            time: true,
            ..Slot::default()
        };
        let v = |text| Value {
            text,
            home: None,
            definite: false,
        };
        assert_eq!(decorate(&v("1955-04-18"), &slot), "on 18 April 1955");
        // A value that is not a date stays as it is.
        assert_eq!(decorate(&v("unknown"), &slot), "unknown");
    }

    #[test]
    fn articles_are_added_once() {
        assert_eq!(decorate(&plain("Phoenix Suns"), &the()), "the Phoenix Suns");
        assert_eq!(decorate(&plain("The Hague"), &the()), "The Hague");
        assert_eq!(
            decorate(&plain("a sovereign state"), &the()),
            "a sovereign state"
        );
        let a = Slot {
            article: Some(Article::A),
            ..Slot::default()
        };
        assert_eq!(decorate(&plain("active player"), &a), "an active player");
        assert_eq!(decorate(&plain("unit"), &a), "a unit");
        assert_eq!(decorate(&plain("NBA team"), &a), "an NBA team");
        assert_eq!(decorate(&plain("hour"), &a), "an hour");
        assert_eq!(decorate(&plain("18-game season"), &a), "an 18-game season");
        assert_eq!(decorate(&plain("180-game season"), &a), "a 180-game season");
    }

    #[test]
    fn names_that_take_the_get_it_where_the_slot_declares_none() {
        let us = Value {
            text: "United States",
            home: None,
            definite: true,
        };
        assert_eq!(decorate(&us, &Slot::default()), "the United States");
        assert_eq!(decorate(&us, &the()), "the United States");
        assert_eq!(
            fill(
                "{head} shares a land border with {tail}.",
                &decorate(&us, &Slot::default()),
                "Canada"
            ),
            "The United States shares a land border with Canada."
        );
        assert_eq!(
            fill(
                "Is {tail} the capital of {head}?",
                &decorate(&us, &Slot::default()),
                "Washington, D.C."
            ),
            "Is Washington, D.C. the capital of the United States?"
        );
        let own = Value {
            text: "The Gambia",
            home: None,
            definite: true,
        };
        assert_eq!(decorate(&own, &Slot::default()), "The Gambia");
    }

    #[test]
    fn template_articles_never_double() {
        assert_eq!(
            fill(
                "{head} belongs to the {tail} of the United Nations.",
                "Samoa",
                "a sovereign state"
            ),
            "Samoa belongs to a sovereign state of the United Nations."
        );
        assert_eq!(
            fill("The capital is the {tail}.", "x", "The Hague"),
            "The capital is The Hague."
        );
        assert_eq!(
            fill("Is {tail} a {head}?", "active player", "x"),
            "Is x an active player?"
        );
        assert_eq!(fill("A {head}.", "owl", "x"), "An owl.");
        assert_eq!(
            fill("{head} is {tail}.", "the Boston Celtics", "x"),
            "The Boston Celtics is x."
        );
    }

    #[test]
    fn full_stops_and_spaces_never_double() {
        assert_eq!(
            fill("The symbol of {head} is {tail}.", "Peruvian sol", "S/."),
            "The symbol of Peruvian sol is S/."
        );
        assert_eq!(fill("{head}  is  {tail}.", " a ", "b  c"), "A is b c.");
        assert_eq!(fill("Is {tail} it?", "x", "S/."), "Is S/. it?");
    }

    #[test]
    fn values_are_verbatim_data() {
        assert_eq!(
            fill("The capital of {head} is {tail}.", "France", "{tail}"),
            "The capital of France is {tail}."
        );
        assert_eq!(fill("a {b} {head}", "x", "y"), "A {b} x");
    }

    #[test]
    fn units_and_codes() {
        let kelvin = Slot {
            unit: Some("kelvin".into()),
            ..Slot::default()
        };
        assert_eq!(decorate(&plain("1811"), &kelvin), "1811 kelvin");
        // Only numbers take the unit: a name in a unit slot stays a name.
        assert_eq!(decorate(&plain("China"), &kelvin), "China");
        let iso = Slot {
            code: Some("ISO 4217 code".into()),
            ..Slot::default()
        };
        assert_eq!(decorate(&plain("EUR"), &iso), "EUR");
        let foreign = Value {
            text: "EUR",
            home: Some(&iso),
            definite: false,
        };
        assert_eq!(decorate(&foreign, &the()), "the ISO 4217 code \"EUR\"");
        assert_eq!(
            fill(
                "{head} is on the continent of {tail}.",
                "Comoros",
                &decorate(&foreign, &Slot::default())
            ),
            "Comoros is on the continent of the ISO 4217 code \"EUR\"."
        );
        let home_unit = Value {
            text: "90.188",
            home: Some(&kelvin),
            definite: false,
        };
        assert_eq!(decorate(&home_unit, &Slot::default()), "90.188 kelvin");
        assert!(is_number("-38.83") && is_number("+2") && !is_number("NaN") && !is_number("1e"));
    }
}

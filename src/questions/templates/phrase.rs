//! The fallback wording of a relation no template names, from its label's grammar. Real KGs'
//! labels are not all nouns: Wikidata's `shares border with`, `located in the administrative
//! territorial entity`, `member of`, `has part(s)`, DBpedia's `is part of`. "The {label} of
//! {head}" suits only a noun ("capital", "birth place"); a verb or a noun that ends in a
//! preposition reads as nonsense there ("the member of of Spain").

/// How a label reads, and so which sentence frame it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phrase {
    /// A noun phrase: "capital", "date of birth". "The capital of X is Y."
    Noun(String),
    /// A noun that takes its object by a preposition: "member of", "participant in".
    /// "X is a member of Y." (`article`: "a"/"an", or none for a mass noun like "part").
    NounPrep {
        article: Option<&'static str>,
        words: String,
    },
    /// A passive participle: "located in", "named after", "owned by". "X is located in Y."
    Participle(String),
    /// A verb in the third person: "shares border with", "contains …", "follows".
    /// `base` is the same phrase with the verb in its base form ("share border with").
    Verb { third: String, base: String },
}

const PREPOSITIONS: &[&str] = &[
    "of", "in", "at", "by", "with", "to", "for", "from", "on", "after", "as", "into", "onto",
    "under", "than", "about", "against", "between", "within", "through", "over", "near",
];

/// Participles that do not end in "-ed".
const IRREGULAR_PARTICIPLES: &[&str] = &[
    "born", "made", "held", "known", "written", "given", "built", "drawn", "won", "taken", "shown",
    "led", "sold", "found", "taught", "bought", "run", "set", "spoken", "chosen", "sung", "begun",
    "done", "seen", "grown", "thrown", "flown", "buried", "worn", "kept", "brought", "sent",
    "bound", "hung", "laid", "paid", "said", "told", "left", "lost", "meant",
];

/// Verbs a relation label starts with in the third person singular. A list, not a rule on a
/// final "s": plural nouns ("parts of", "awards") end in "s" too.
const VERBS: &[(&str, &str)] = &[
    ("shares", "share"),
    ("has", "have"),
    ("contains", "contain"),
    ("applies", "apply"),
    ("follows", "follow"),
    ("replaces", "replace"),
    ("depicts", "depict"),
    ("uses", "use"),
    ("owns", "own"),
    ("crosses", "cross"),
    ("borders", "border"),
    ("includes", "include"),
    ("produces", "produce"),
    ("represents", "represent"),
    ("supports", "support"),
    ("speaks", "speak"),
    ("affects", "affect"),
    ("connects", "connect"),
    ("operates", "operate"),
    ("flows", "flow"),
    ("drains", "drain"),
    ("serves", "serve"),
    ("influences", "influence"),
    ("occupies", "occupy"),
    ("encodes", "encode"),
    ("interacts", "interact"),
    ("plays", "play"),
    ("lives", "live"),
    ("works", "work"),
    ("competes", "compete"),
    ("participates", "participate"),
    ("belongs", "belong"),
    ("manufactures", "manufacture"),
    ("publishes", "publish"),
    ("describes", "describe"),
    ("treats", "treat"),
    ("causes", "cause"),
    ("regulates", "regulate"),
    ("hosts", "host"),
    ("governs", "govern"),
    ("succeeds", "succeed"),
    ("precedes", "precede"),
    ("commemorates", "commemorate"),
];

/// Nouns that take no article before "of" ("part of", not "a part of").
const MASS_NOUNS: &[&str] = &["part"];

/// Reads a relation label (already split into words: `birthPlace` → "birth place").
pub fn read(label: &str) -> Phrase {
    let words: Vec<&str> = label.split_whitespace().collect();
    let Some(&first) = words.first() else {
        return Phrase::Noun(label.to_string());
    };
    // "is part of", "was born in": the copula is the frame's, not the label's.
    if matches!(first, "is" | "was" | "are" | "were") && words.len() > 1 {
        return match read(&words[1..].join(" ")) {
            Phrase::Noun(w) => Phrase::NounPrep {
                article: None,
                words: w,
            },
            other => other,
        };
    }
    if let Some((_, base)) = VERBS.iter().find(|(third, _)| *third == first) {
        let rest = words[1..].join(" ");
        let join = |v: &str| {
            if rest.is_empty() {
                v.to_string()
            } else {
                format!("{v} {rest}")
            }
        };
        return Phrase::Verb {
            third: join(first),
            base: join(base),
        };
    }
    let last = *words.last().unwrap_or(&first);
    if words.len() > 1 && PREPOSITIONS.contains(&last) {
        if is_participle(first) {
            return Phrase::Participle(words.join(" "));
        }
        let noun = words[..words.len() - 1].join(" ");
        let article = if MASS_NOUNS.contains(&noun.as_str()) {
            None
        } else {
            Some(crate::questions::templates::slots::indefinite(&noun))
        };
        return Phrase::NounPrep {
            article,
            words: words.join(" "),
        };
    }
    if words.len() > 1 && is_participle(first) && PREPOSITIONS.contains(&words[1]) {
        // "located in the administrative territorial entity": a participle, then its object's kind.
        return Phrase::Participle(words.join(" "));
    }
    Phrase::Noun(words.join(" "))
}

fn is_participle(word: &str) -> bool {
    IRREGULAR_PARTICIPLES.contains(&word)
        || (word.len() > 4 && word.ends_with("ed") && !word.ends_with("eed"))
}

/// The three sentences of a label's frame: (statement, wh-question, yes/no question), with
/// `{head}` and `{tail}`.
pub fn frames(label: &str) -> (String, String, String) {
    match read(label) {
        Phrase::Noun(w) => (
            format!("The {w} of {{head}} is {{tail}}."),
            format!("What is the {w} of {{head}}?"),
            format!("Is {{tail}} the {w} of {{head}}?"),
        ),
        Phrase::NounPrep { article, words } => {
            let a = article.map(|a| format!("{a} ")).unwrap_or_default();
            (
                format!("{{head}} is {a}{words} {{tail}}."),
                format!("What is {{head}} {a}{words}?"),
                format!("Is {{head}} {a}{words} {{tail}}?"),
            )
        }
        Phrase::Participle(w) => (
            format!("{{head}} is {w} {{tail}}."),
            format!("What is {{head}} {w}?"),
            format!("Is {{head}} {w} {{tail}}?"),
        ),
        Phrase::Verb { third, base } => (
            format!("{{head}} {third} {{tail}}."),
            format!("What does {{head}} {base}?"),
            format!("Does {{head}} {base} {{tail}}?"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(label: &str) -> [String; 3] {
        let (s, q, y) = frames(label);
        let f = |t: &str| t.replace("{head}", "X").replace("{tail}", "Y");
        [f(&s), f(&q), f(&y)]
    }

    #[test]
    fn nouns_keep_the_of_frame() {
        assert_eq!(said("birth place")[0], "The birth place of X is Y.");
        assert_eq!(said("date of birth")[1], "What is the date of birth of X?");
    }

    #[test]
    fn a_noun_that_ends_in_a_preposition_is_never_doubled() {
        assert_eq!(
            said("member of"),
            [
                "X is a member of Y.",
                "What is X a member of?",
                "Is X a member of Y?"
            ]
        );
        assert_eq!(said("participant in")[0], "X is a participant in Y.");
        assert_eq!(said("part of")[0], "X is part of Y.");
        assert_eq!(said("is part of")[0], "X is part of Y.");
        assert_eq!(said("instance of")[0], "X is an instance of Y.");
    }

    #[test]
    fn participles_and_verbs_take_their_own_frames() {
        assert_eq!(
            said("named after"),
            [
                "X is named after Y.",
                "What is X named after?",
                "Is X named after Y?"
            ]
        );
        assert_eq!(
            said("located in the administrative territorial entity")[0],
            "X is located in the administrative territorial entity Y."
        );
        assert_eq!(said("owned by")[2], "Is X owned by Y?");
        assert_eq!(
            said("shares border with"),
            [
                "X shares border with Y.",
                "What does X share border with?",
                "Does X share border with Y?"
            ]
        );
        assert_eq!(said("follows")[1], "What does X follow?");
        assert_eq!(said("has part(s)")[2], "Does X have part(s) Y?");
    }

    #[test]
    fn plural_nouns_are_not_verbs() {
        assert!(matches!(read("awards"), Phrase::Noun(_)));
        assert!(matches!(read("parts"), Phrase::Noun(_)));
        assert!(matches!(read("speed"), Phrase::Noun(_)));
    }
}

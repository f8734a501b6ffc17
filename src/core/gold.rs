//! What counts as the right answer to a question, typed by the kind of answer a method asks for.
//!
//! Runs written before answers were typed stored the gold answer as a bare string ("true",
//! "false", "yes", "no"); those still read, as [`Gold::Bool`].

use serde::{Deserialize, Deserializer, Serialize};

/// The right answer to one question.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Gold {
    /// A statement or yes/no question: whether it holds in the KG.
    Bool { value: bool },
    /// Multiple choice: the options as shown (in order, lettered A, B, ...) and the right one.
    Choice {
        options: Vec<String>,
        correct: usize,
    },
    /// A short answer: every text that counts as right (for an N-M relation, each of the
    /// subject's objects), each with its aliases.
    Texts { accepted: Vec<Accepted> },
    /// A question built on a false premise (KG-FPQ's generative task): a right answer rejects
    /// or corrects `premise`; `truth` is the fact the premise was made from.
    Premise { premise: String, truth: String },
    /// A compound question (KGHaluBench): facts about one entity, each to be stated.
    Compound { facts: Vec<AskedFact> },
}

/// One right answer and the other names it goes by.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Accepted {
    pub label: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// What the label is as a value, when more than its words count: a quantity is stated in
    /// any unit of its dimension and to any precision it agrees with ("1749 °C" for 2022.15
    /// kelvin), a year also as a season spanning it ("1946–47").
    #[serde(default, skip_serializing_if = "ValueKind::is_name")]
    pub value: ValueKind,
    /// Names the KG ties to this answer that a reader may or may not count as right (a
    /// broader or narrower place of the subject: "Caribbean" for Cuba's region; the shared
    /// prefix of a calling code; the other year of a season): read as right but never
    /// confidently, so a judge decides when the run has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub judged: Vec<String>,
}

/// How an accepted answer's label is read as a value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "as", rename_all = "lowercase")]
pub enum ValueKind {
    /// A name: matched word for word (the default).
    #[default]
    Name,
    /// A number, in the unit its template writes after it (`unit = "kelvin"`), if any.
    Quantity {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<String>,
    },
    /// A year; `season` when the relation counts seasons, which span the new year and are
    /// named by their first or their last year, so the next year is a judgement too.
    Year {
        #[serde(default)]
        season: bool,
    },
}

impl ValueKind {
    pub fn is_name(&self) -> bool {
        *self == ValueKind::Name
    }
}

impl Accepted {
    /// The label, then its aliases.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.label.as_str()).chain(self.aliases.iter().map(String::as_str))
    }
}

impl Gold {
    pub fn yes() -> Self {
        Gold::Bool { value: true }
    }
    pub fn no() -> Self {
        Gold::Bool { value: false }
    }

    /// The truth value an answer is judged against: the statement's for a true/false or
    /// yes/no question; for the other kinds, "the model gave a right answer" is the claim
    /// judged (so a committed answer is `true` when it is a right one).
    pub fn truth(&self) -> bool {
        match self {
            Gold::Bool { value } => *value,
            Gold::Choice { .. }
            | Gold::Texts { .. }
            | Gold::Premise { .. }
            | Gold::Compound { .. } => true,
        }
    }

    /// Whether the answer is closed (true/false, one of fixed options) rather than free text:
    /// what decides whether answers are compared with chance.
    pub fn is_closed(&self) -> bool {
        matches!(self, Gold::Bool { .. } | Gold::Choice { .. })
    }

    /// A true/false gold answer's value; `None` for any other shape.
    pub fn bool_value(&self) -> Option<bool> {
        match self {
            Gold::Bool { value } => Some(*value),
            _ => None,
        }
    }

    /// A multiple-choice gold answer's options as shown and the right one's index.
    pub fn choice(&self) -> Option<(&[String], usize)> {
        match self {
            Gold::Choice { options, correct } => Some((options.as_slice(), *correct)),
            _ => None,
        }
    }

    /// The short answers that count as right; empty for any other shape.
    pub fn accepted(&self) -> &[Accepted] {
        match self {
            Gold::Texts { accepted } => accepted,
            _ => &[],
        }
    }

    /// The facts a compound question asks, each to be stated; empty for any other shape.
    pub fn facts(&self) -> &[AskedFact] {
        match self {
            Gold::Compound { facts } => facts,
            _ => &[],
        }
    }

    /// A false-premise question's premise and the true fact it was made from.
    pub fn premise(&self) -> Option<(&str, &str)> {
        match self {
            Gold::Premise { premise, truth } => Some((premise, truth)),
            _ => None,
        }
    }

    /// Every name that counts as right in an open answer (each short answer's or asked
    /// fact's names); empty for a closed answer or a premise.
    pub fn open_names(&self) -> Vec<&str> {
        let facts = self.facts().iter().flat_map(|f| f.accepted.iter());
        self.accepted()
            .iter()
            .chain(facts)
            .flat_map(Accepted::names)
            .collect()
    }

    /// The right answer in words, for the drill-down, the trace and the judge.
    pub fn describe(&self) -> String {
        match self {
            Gold::Bool { value } => if *value { "true" } else { "false" }.into(),
            Gold::Choice { options, correct } => format!(
                "{}) {}",
                choice_letter(*correct),
                options.get(*correct).map_or("?", String::as_str)
            ),
            Gold::Texts { accepted } => accepted
                .iter()
                .map(|a| {
                    if a.aliases.is_empty() {
                        a.label.clone()
                    } else {
                        format!("{} (also: {})", a.label, a.aliases.join(", "))
                    }
                })
                .collect::<Vec<_>>()
                .join("; "),
            Gold::Premise { premise, truth } => {
                format!("rejects or corrects the false premise \"{premise}\" (true: {truth})")
            }
            Gold::Compound { facts } => facts
                .iter()
                .map(|f| {
                    let objects: Vec<&str> = f.accepted.iter().map(|a| a.label.as_str()).collect();
                    format!("{}: {}", f.relation, objects.join(" | "))
                })
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

/// "A", "B", ... for option `i`.
pub fn choice_letter(i: usize) -> char {
    char::from(b'A' + (i % 26) as u8)
}

/// The typed form, as written since schema version 2.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Typed {
    Bool {
        value: bool,
    },
    Choice {
        options: Vec<String>,
        correct: usize,
    },
    Texts {
        accepted: Vec<Accepted>,
    },
    Premise {
        premise: String,
        truth: String,
    },
    Compound {
        facts: Vec<AskedFact>,
    },
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Wire {
    Legacy(String),
    Typed(Typed),
}

impl<'de> Deserialize<'de> for Gold {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Wire::deserialize(d)? {
            Wire::Legacy(s) => match s.as_str() {
                "true" | "yes" => Gold::yes(),
                "false" | "no" => Gold::no(),
                other => {
                    return Err(serde::de::Error::custom(format!(
                        "unknown gold answer {other:?} (expected true, false, yes or no)"
                    )))
                }
            },
            Wire::Typed(Typed::Bool { value }) => Gold::Bool { value },
            Wire::Typed(Typed::Choice { options, correct }) => Gold::Choice { options, correct },
            Wire::Typed(Typed::Texts { accepted }) => Gold::Texts { accepted },
            Wire::Typed(Typed::Premise { premise, truth }) => Gold::Premise { premise, truth },
            Wire::Typed(Typed::Compound { facts }) => Gold::Compound { facts },
        })
    }
}

/// One fact a compound question asks the model to state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AskedFact {
    /// The relation's label, as asked ("capital").
    pub relation: String,
    /// The relation's IRI.
    pub predicate: String,
    /// Every object the KG has for the entity and relation, with its aliases: stating any one
    /// states the fact.
    pub accepted: Vec<Accepted>,
    /// The fact as one sentence, for the judge ("The capital of Peru is Lima.").
    pub sentence: String,
    /// The sentence with its object hidden ("The capital of Peru is ___."), for the expert
    /// stage's reading; empty when the object's name is not in the sentence.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub blank: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn legacy_strings_and_typed_forms_read() {
        for (s, v) in [
            ("true", true),
            ("yes", true),
            ("false", false),
            ("no", false),
        ] {
            let g: Gold = serde_json::from_str(&format!("{s:?}")).unwrap();
            assert_eq!(g, Gold::Bool { value: v });
        }
        assert!(serde_json::from_str::<Gold>("\"maybe\"").is_err());
        for g in [
            Gold::yes(),
            Gold::Choice {
                options: vec!["Lima".into(), "Quito".into()],
                correct: 1,
            },
            Gold::Texts {
                accepted: vec![Accepted {
                    label: "Lima".into(),
                    aliases: vec!["Ciudad de los Reyes".into()],
                    ..Default::default()
                }],
            },
            Gold::Texts {
                accepted: vec![Accepted {
                    label: "2022.15".into(),
                    value: ValueKind::Quantity {
                        unit: Some("kelvin".into()),
                    },
                    judged: vec!["2022".into()],
                    ..Default::default()
                }],
            },
        ] {
            let json = serde_json::to_string(&g).unwrap();
            assert_eq!(serde_json::from_str::<Gold>(&json).unwrap(), g, "{json}");
        }
    }

    #[test]
    fn descriptions() {
        let c = Gold::Choice {
            options: vec!["Lima".into(), "Quito".into()],
            correct: 1,
        };
        assert_eq!(c.describe(), "B) Quito");
        assert!(c.truth());
        assert!(!Gold::no().truth());
    }
}

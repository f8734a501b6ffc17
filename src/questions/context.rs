//! Context put before a question (Luo et al., 2023, context injection): text that
//! supports the fact, text about an unrelated entity, or the supporting text with the true
//! object replaced by a wrong one.
//!
//! The paper takes Google-RE's source paragraphs; a KG has none, so kgscope writes the
//! subject's facts as sentences with the question's own templates: the fact itself first, then
//! up to [`OTHER_FACTS`] more facts of the same subject (ours: enough to read like a paragraph,
//! few enough that a small model's context stays short).

use rand::Rng;

use super::{GenerateOptions, Renderer};
use crate::kg::index::{Fact, Id};
use crate::sampling::SeededRng;

/// Facts besides the asked one that a context mentions.
pub const OTHER_FACTS: usize = 2;

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum ContextKind {
    /// The fact and the subject's other facts, as sentences.
    Relevant,
    /// The same for an entity that shares no end with the fact.
    Irrelevant,
    /// The relevant text with the true object replaced by a wrong one.
    Antifactual,
}

impl ContextKind {
    pub const ALL: [ContextKind; 3] = [
        ContextKind::Relevant,
        ContextKind::Irrelevant,
        ContextKind::Antifactual,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            ContextKind::Relevant => "relevant",
            ContextKind::Irrelevant => "irrelevant",
            ContextKind::Antifactual => "antifactual",
        }
    }
}

/// The context for a question about `fact`. `wrong` is a wrong object of the fact's relation
/// (the antifactual text states it; without one there is no antifactual context). `None` when
/// no text of the wanted kind can be written.
pub fn context_for(
    r: &Renderer<'_>,
    kind: ContextKind,
    fact: &Fact,
    wrong: Option<Id>,
    rng: &mut SeededRng,
) -> Option<String> {
    match kind {
        ContextKind::Relevant => Some(paragraph(r, fact, fact, &[])),
        ContextKind::Antifactual => {
            let mut false_fact = *fact;
            false_fact[2] = wrong?;
            Some(paragraph(r, &false_fact, fact, &[]))
        }
        ContextKind::Irrelevant => {
            let facts = r.index.facts();
            let ends = [fact[0], fact[2]];
            let names = [r.index.label(fact[0]), r.index.label(fact[2])];
            // Unrelated: the paragraph's facts share no end with the fact, and its text does not
            // name either end (a fact about "Trinidad and Tobago dollar" is not irrelevant to
            // Trinidad and Tobago).
            let unrelated = |f: &Fact| !ends.contains(&f[0]) && !ends.contains(&f[2]);
            let silent = |text: &str| names.iter().all(|n| !names_in(text, n));
            // Random probes find one in any KG bigger than a star; a scan settles the rest.
            let start = rng.random_range(0..facts.len().max(1));
            let probes = (0..facts.len().min(64)).map(|k| (start + k * 7919) % facts.len());
            probes
                .chain(0..facts.len())
                .map(|i| &facts[i])
                .filter(|f| unrelated(f))
                .map(|f| paragraph(r, f, f, &ends))
                .find(|text| silent(text))
        }
    }
}

/// Whether `name`'s words occur in a row in `text`, ignoring case.
fn names_in(text: &str, name: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let (t, n) = (words(text), words(name));
    !n.is_empty() && t.windows(n.len()).any(|w| w == n.as_slice())
}

/// `first` as a sentence, then up to [`OTHER_FACTS`] other facts of `about`'s subject: never
/// another fact of `about`'s relation (it could state or contradict the answer), nor one whose
/// object is in `avoid`.
fn paragraph(r: &Renderer<'_>, first: &Fact, about: &Fact, avoid: &[Id]) -> String {
    let mut text = r.statement(first);
    let others = r
        .index
        .facts_from(about[0])
        .iter()
        .filter(|f| f[1] != about[1] && !avoid.contains(&f[2]))
        .take(OTHER_FACTS);
    for f in others {
        text.push(' ');
        text.push_str(&r.statement(f));
    }
    text
}

/// The context of the run's kind for a question about `fact` (none when the run has none).
pub fn context_of(
    r: &Renderer<'_>,
    opts: &GenerateOptions,
    fact: &Fact,
    wrong: Option<Id>,
    rng: &mut SeededRng,
) -> Option<String> {
    opts.context
        .and_then(|k| context_for(r, k, fact, wrong, rng))
}

/// The part of a question id that says which context it was asked with: the same fact with
/// another context is another question.
pub fn context_tag(opts: &GenerateOptions) -> &'static str {
    opts.context.map_or("", ContextKind::as_str)
}

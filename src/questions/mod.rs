//! Turning KG facts into questions, one module per question family.
//!
//! Every question carries a stable id: a hash of the KG fingerprint, the triple, the family,
//! the format, the edit (which part of a negative was replaced) and the seed, so a resumed
//! run recognises work it has already done.

pub mod aliases;
pub mod answer_keys;
pub mod audit;
pub mod context;
pub mod fair;
pub mod grammar;
pub mod names;
pub mod negatives;
pub mod option_audit;
pub mod options;
pub mod reader_checks;
pub mod review_set;
pub mod signature;
pub mod templates;
pub mod ties;
pub mod wording;
pub mod wrong_objects;

use std::collections::BTreeMap;

use serde::Serialize;
use sha2::{Digest, Sha256};

pub use crate::core::gold::{self, Accepted, Gold};
pub use crate::core::question::{
    Corruption, FpqFormat, PremiseMeta, Probe, Question, Task, Written,
};
use crate::kg::index::{Fact, Id, KgIndex};
use crate::kg::{term_str, KgError};
pub use context::ContextKind;
pub use negatives::NegativesFrom;
pub use templates::{Template, TemplateSet};

use crate::sampling::{self, Sampling};

#[derive(Debug, Clone)]
pub struct GenerateOptions {
    pub task: Task,
    /// Total number of questions wanted (for statements: whole groups of 1 + negatives).
    pub limit: usize,
    pub negatives: usize,
    /// Where negatives' replacements come from.
    pub negatives_from: NegativesFrom,
    /// How facts are drawn.
    pub sampling: Sampling,
    pub seed: u64,
    /// Relation IRIs, labels or local names; empty = all.
    pub relations: Vec<String>,
    /// Restrict to facts whose subject or object is one of these entity IRIs (a neighbourhood).
    pub entities: Vec<String>,
    /// Context put before each question (the formats of Luo et al. only).
    pub context: Option<ContextKind>,
    /// KG-FPQ's edits and formats [default: all six edits, both formats, 5 hops].
    pub fpq: Option<crate::core::question::FpqOptions>,
    /// KGHaluBench: how many assessments of `limit` questions to draw (its `--repeats`).
    pub assessments: usize,
    /// KGHaluBench: the mean score (points per fact, 0–1) each relation got per entity type
    /// in this KG's recorded runs, type label → relation IRI → score; a relation's difficulty
    /// weight is learnt from it.
    pub relation_scores:
        std::collections::BTreeMap<String, std::collections::BTreeMap<String, f64>>,
}

/// Questions a run asks when the user does not say (`--limit`).
pub const DEFAULT_LIMIT: usize = 100;
/// Negatives per fact for the methods that take them (`--negatives`).
pub const DEFAULT_NEGATIVES: usize = 1;
pub use crate::sampling::DEFAULT_SEED;

/// The defaults of `kgscope run` and `kgscope questions`, and of a run started from the TUI:
/// `RunConfig::new` (in the run layer) and the command line read them from here.
impl Default for GenerateOptions {
    fn default() -> Self {
        Self {
            task: Task::Statement,
            limit: DEFAULT_LIMIT,
            negatives: DEFAULT_NEGATIVES,
            negatives_from: NegativesFrom::default(),
            sampling: Sampling::default(),
            seed: DEFAULT_SEED,
            relations: vec![],
            entities: vec![],
            context: None,
            fpq: None,
            assessments: 1,
            relation_scores: Default::default(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct GenerateReport {
    /// Facts that match the selection (relations, entities) before any is skipped.
    #[serde(default)]
    pub matching: usize,
    /// Facts questions may be drawn from: the matching ones less the skipped ones.
    pub candidates: usize,
    /// Matching facts that make no question, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Skipped>,
    pub questions: usize,
    /// Questions asked per fact drawn (a statement and its negatives); 1 for most methods.
    #[serde(default = "one")]
    pub group_size: usize,
    /// Negatives that could not be made (every corruption tried was a KG triple).
    pub negatives_missing: usize,
    /// What [`Self::negatives_missing`] counts, in the method's words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unmade: String,
    /// `negatives_missing` by reason, where the method tells (KG-FPQ: per edit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unmade_why: Vec<(String, usize)>,
}

fn one() -> usize {
    1
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Facts of a selection that make no question, for one reason.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Skipped {
    pub facts: usize,
    /// Why, in words a user reads after the count ("whose subject's name states or implies the answer").
    pub why: String,
    /// One such fact, as "subject → object".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
}

impl GenerateReport {
    /// Why fewer than `wanted` questions were made, as one clause for the CLI, the run dialog
    /// and the manifest; `None` when `wanted` were made.
    pub fn shortfall(&self, wanted: usize) -> Option<String> {
        if self.questions >= wanted {
            return None;
        }
        let mut why = Vec::new();
        for s in &self.skipped {
            let eg = s
                .example
                .as_deref()
                .map(|e| format!(", e.g. {e}"))
                .unwrap_or_default();
            why.push(format!(
                "{} of the {} matching facts skipped, {}{eg}",
                s.facts, self.matching, s.why
            ));
        }
        let per = self.group_size.max(1);
        if self.candidates * per < wanted {
            why.push(plural(self.candidates, "askable fact", "askable facts") + " left");
        } else if per > 1 && !wanted.is_multiple_of(per) {
            why.push(format!(
                "questions come in whole groups of {per} (a fact and its negatives)"
            ));
        }
        if self.negatives_missing > 0 && !self.unmade.is_empty() {
            why.push(format!("{} {}", self.negatives_missing, self.unmade));
        }
        if why.is_empty() {
            why.push(plural(self.candidates, "askable fact", "askable facts"));
        }
        Some(format!(
            "{} of --limit {wanted}: {}",
            self.questions,
            why.join("; ")
        ))
    }
}

/// Stable question id.
pub fn question_id(
    fingerprint: &str,
    fact: (&str, &str, &str),
    task: Task,
    format: &str,
    edit: &str,
    seed: u64,
) -> String {
    let mut h = Sha256::new();
    for part in [
        fingerprint,
        fact.0,
        fact.1,
        fact.2,
        task.as_str(),
        format,
        edit,
    ] {
        h.update(part.as_bytes());
        h.update([0x1f]);
    }
    h.update(seed.to_le_bytes());
    hex::encode(&h.finalize()[..8])
}

/// The facts questions may be drawn from, after the relation and entity filters.
pub fn candidate_facts(index: &KgIndex, opts: &GenerateOptions) -> Result<Vec<usize>, KgError> {
    select_facts(index, opts).map(|s| s.facts)
}

/// The facts a selection matches, those questions may be drawn from, and those skipped.
pub struct Selection {
    pub facts: Vec<usize>,
    pub matching: usize,
    pub skipped: Vec<Skipped>,
}

/// [`candidate_facts`], with what was skipped and why.
pub fn select_facts(index: &KgIndex, opts: &GenerateOptions) -> Result<Selection, KgError> {
    let mut preds = Vec::new();
    for r in &opts.relations {
        preds.push(index.resolve_relation(r)?);
    }
    let mut entities = Vec::new();
    for e in &opts.entities {
        entities.push(
            index.iri_id(e).ok_or_else(|| {
                KgError::NotFound(format!("entity <{e}> is not in the KG's facts"))
            })?,
        );
    }
    let keep = |f: &Fact| {
        (preds.is_empty() || preds.contains(&f[1]))
            && (entities.is_empty() || entities.contains(&f[0]) || entities.contains(&f[2]))
    };
    let filtered: Vec<usize> = if preds.len() == 1 && entities.is_empty() {
        index.facts_of_predicate(preds[0]).to_vec()
    } else {
        (0..index.facts().len())
            .filter(|i| keep(&index.facts()[*i]))
            .collect()
    };
    // A question whose subject names its answer tests reading, not knowledge ("Is Carbon-14
    // an isotope of carbon?", "the 1985 NBA championship" of the National Basketball
    // Association, alias NBA); KG-FPQ skips these facts too.
    // Runs made before the give-aways by implication resume with their own questions.
    let gives_away = match opts.negatives_from {
        NegativesFrom::Typed => grammar::names_answer_literally,
        _ => grammar::names_answer,
    };
    let (askable, named): (Vec<usize>, Vec<usize>) = filtered.iter().partition(|&&i| {
        let f = &index.facts()[i];
        !gives_away(index, f[0], f[2])
    });
    // A subject whose name another one goes by, with another answer, is two questions in one
    // ("Is Charlotte in Tennessee?"). Typed negatives keep their old question sets.
    let (askable, namesakes): (Vec<usize>, Vec<usize>) =
        if opts.negatives_from == NegativesFrom::Typed {
            (askable, Vec::new())
        } else {
            askable.into_iter().partition(|&i| {
                let f = &index.facts()[i];
                !names::namesake_differs(index, f[0], f[1])
            })
        };
    if askable.is_empty() {
        return Err(KgError::NotFound(if index.facts().is_empty() {
            "the KG has no facts to ask about (only labels, types or nothing at all)".into()
        } else if filtered.is_empty() {
            "no fact matches the given --relation / entity filters".into()
        } else {
            format!(
                "all {} facts that match the filters state or imply their answer in their \
                 subject's name (like \"Carbon-14\" isotope of \"Carbon\", or \"Utah Jazz\" \
                 based in a city of Utah), or are about a name that another entity with another \
                 answer goes by, so none makes a question",
                filtered.len()
            )
        }));
    }
    let skip = |facts: &[usize], why: &str| {
        facts.first().map(|&i| {
            let f = &index.facts()[i];
            Skipped {
                facts: facts.len(),
                why: why.into(),
                example: Some(format!(
                    "\"{}\" → {}",
                    crate::sanitize::line(&index.label(f[0])),
                    crate::sanitize::line(&index.label(f[2]))
                )),
            }
        })
    };
    let skipped = [
        skip(&named, "whose subject's name states or implies the answer"),
        skip(
            &namesakes,
            "whose subject's name another entity with another answer goes by",
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    Ok(Selection {
        facts: askable,
        matching: filtered.len(),
        skipped,
    })
}

/// The facts a question set asks about, `n` of `candidates` drawn as `how` says.
pub fn draw_facts(
    index: &KgIndex,
    candidates: &[usize],
    n: usize,
    how: Sampling,
    seed: u64,
) -> Vec<usize> {
    let mut rng = sampling::rng(seed);
    match how {
        Sampling::Uniform => sampling::uniform(candidates, n, &mut rng),
        Sampling::ByRelation => {
            let mut by_relation: BTreeMap<Id, Vec<usize>> = BTreeMap::new();
            for &i in candidates {
                by_relation.entry(index.facts()[i][1]).or_default().push(i);
            }
            let mut groups: Vec<Vec<usize>> = by_relation.into_values().collect();
            // Which relations lead a round is itself drawn, so a run smaller than the number
            // of relations does not always skip the same ones.
            let slots: Vec<usize> = (0..groups.len()).collect();
            let order = sampling::uniform(&slots, slots.len(), &mut rng);
            let ordered = order
                .iter()
                .map(|&i| std::mem::take(&mut groups[i]))
                .collect();
            sampling::round_robin(ordered, n, &mut rng)
        }
        Sampling::ByType => {
            // Each fact goes with its subject's rarest type; rarer types lead (KGHaluBench's
            // type-balanced sampling), untyped subjects come last.
            let rarity = |t: Id| index.members_of(t).len();
            let mut groups: BTreeMap<(usize, Id), Vec<usize>> = BTreeMap::new();
            for &i in candidates {
                let s = index.facts()[i][0];
                let key = index
                    .types_of(s)
                    .iter()
                    .map(|&t| (rarity(t), t))
                    .min()
                    .unwrap_or((usize::MAX, Id::MAX));
                groups.entry(key).or_default().push(i);
            }
            sampling::round_robin(groups.into_values().collect(), n, &mut rng)
        }
    }
}

/// Whether fact `i` is the first askable fact of its subject and relation, in the KG's fact
/// order: a question that names only the subject and the relation (a Wh-question, a blank)
/// asks the same for each of the pair's objects, so only that fact makes it. Decided from the
/// fact alone (facts are sorted by subject, relation, object), so a run made batch by batch
/// (`--limit all`) and one made up front keep the same facts.
pub fn first_of_pair(index: &KgIndex, i: usize) -> bool {
    let facts = index.facts();
    let f = facts[i];
    facts[..i]
        .iter()
        .rev()
        .take_while(|g| g[0] == f[0] && g[1] == f[1])
        .all(|g| grammar::names_answer(index, g[0], g[2]))
}

/// Shared context for rendering a fact into a question.
pub struct Renderer<'a> {
    pub index: &'a KgIndex,
    pub templates: &'a TemplateSet,
    pub seed: u64,
}

impl Renderer<'_> {
    /// The declarative sentence for a fact (GraphEval's statement, and the text a negative
    /// is compared against to be sure it is not a true fact in other words).
    pub fn statement(&self, fact: &Fact) -> String {
        let form = templates::Form::Statement;
        templates::render_fact(self.index, self.templates, fact, form, None)
    }

    /// The yes/no question for a fact, the subject written as `head` (its label, possibly
    /// with a disambiguating alias).
    pub fn yesno(&self, fact: &Fact, head: &str) -> String {
        let form = templates::Form::YesNo;
        templates::render_fact(self.index, self.templates, fact, form, Some(head))
    }

    /// The wh-question for a fact (it names only the subject).
    pub fn question(&self, fact: &Fact) -> String {
        let form = templates::Form::Question;
        templates::render_fact(self.index, self.templates, fact, form, None)
    }

    /// The wh-question for a fact with the subject written as `head`.
    pub fn question_about(&self, fact: &Fact, head: &str) -> String {
        let form = templates::Form::Question;
        templates::render_fact(self.index, self.templates, fact, form, Some(head))
    }

    /// The options' names for `fact`'s object and its distractors: their labels, except that
    /// points in time are written as the blank ([`Self::blank`]) masks them, with their
    /// preposition ("on 23 May 1949", "in 1871"), not as the KG's "1949-05-23". Options for a
    /// blank (`in_blank`) carry the article their name takes where the template puts none
    /// before the slot: the blank stands for the bare name, and "Neptunium was discovered in
    /// the United States." is the sentence a reader fills in.
    pub fn options(&self, fact: &Fact, objects: &[Id], in_blank: bool) -> Vec<String> {
        let tail = templates::template_for(self.index, self.templates, fact).tail;
        objects
            .iter()
            .map(|&o| {
                let label = self.index.label(o);
                if tail.time {
                    if let Some(when) = templates::slots::time_words(label.trim()) {
                        return when;
                    }
                }
                if in_blank
                    && tail.article.is_none()
                    && templates::articles::definite(self.index, o)
                {
                    return format!("the {label}");
                }
                label
            })
            .collect()
    }

    /// The statement with `[MASK]` in place of the object (fill-in-the-blank).
    pub fn blank(&self, fact: &Fact) -> String {
        let form = templates::Form::Blank;
        templates::render_fact(self.index, self.templates, fact, form, None)
    }

    /// A question's metadata for a fact, with empty id and prompt and a "yes" gold to be filled in.
    pub fn base(&self, fact: &Fact, task: Task) -> Question {
        let ix = self.index;
        let rel = ix.relation(fact[1]);
        let year = ix.fact_year(fact);
        Question {
            id: String::new(),
            task,
            prompt: String::new(),
            gold: Gold::yes(),
            context: None,
            subject: term_str(ix.term(fact[0])).to_string(),
            predicate: term_str(ix.term(fact[1])).to_string(),
            object: term_str(ix.term(fact[2])).to_string(),
            subject_label: ix.label(fact[0]),
            object_label: ix.label(fact[2]),
            relation: ix.label(fact[1]),
            head_type: rel.and_then(|r| r.head_type).map(|t| ix.label(t)),
            tail_type: rel.and_then(|r| r.tail_type).map(|t| ix.label(t)),
            year,
            negative: None,
            positive_id: String::new(),
            group_size: 1,
            subject_aliases: ix.aliases_of(fact[0]).to_vec(),
            true_object: None,
            probe: None,
            premise: None,
            compound: None,
            review: None,
        }
    }

    /// Every object the KG gives `fact`'s subject for its relation, with its aliases, how it
    /// reads as a value and the names left to a judge ([`answer_keys`]): the right answers to
    /// a Wh-question about the fact.
    pub fn accepted(&self, fact: &Fact) -> Gold {
        answer_keys::accepted(self, fact)
    }

    pub fn id(&self, fact: &Fact, task: Task, format: &str, edit: &str) -> String {
        let ix = self.index;
        // N-Triples forms keep an IRI and a same-spelled literal apart.
        let s = ix.term(fact[0]).to_string();
        let p = ix.term(fact[1]).to_string();
        let o = ix.term(fact[2]).to_string();
        question_id(
            ix.fingerprint(),
            (&s, &p, &o),
            task,
            format,
            edit,
            self.seed,
        )
    }
}

/// A plain true statement for unit tests elsewhere.
#[cfg(test)]
pub mod tests_support {
    use super::*;

    pub fn question() -> Question {
        Question {
            id: "q".into(),
            task: Task::Statement,
            prompt: "The capital of Peru is Lima.".into(),
            gold: Gold::yes(),
            context: None,
            subject: "http://example.org/peru".into(),
            predicate: "http://example.org/capital".into(),
            object: "http://example.org/lima".into(),
            subject_label: "Peru".into(),
            object_label: "Lima".into(),
            relation: "capital".into(),
            head_type: None,
            tail_type: None,
            year: None,
            negative: None,
            positive_id: "q".into(),
            group_size: 1,
            subject_aliases: vec![],
            true_object: None,
            probe: None,
            premise: None,
            compound: None,
            review: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrong_object_never_reads_like_a_right_one() {
        let kg = crate::kg::local::LocalKg::from_turtle(
            "@prefix ex: <http://example.org/> .\n\
             @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
             ex:jam rdfs:label \"Jamaica\" ; ex:capital ex:k1 .\n\
             ex:nfk rdfs:label \"Norfolk Island\" ; ex:capital ex:k2 .\n\
             ex:k1 rdfs:label \"Kingston\" . ex:k2 rdfs:label \"Kingston\" .\n",
            "test",
        )
        .unwrap();
        let index = KgIndex::build(&kg, &|_| {}).unwrap();
        for seed in 0..20 {
            let opts = GenerateOptions {
                task: Task::Yesno,
                seed,
                ..GenerateOptions::default()
            };
            let (qs, _) = crate::method::generate(&index, &TemplateSet::default(), &opts).unwrap();
            assert_eq!(qs.len(), 2);
            assert!(qs.iter().all(|q| q.gold == Gold::yes()), "{qs:?}");
        }
    }
}

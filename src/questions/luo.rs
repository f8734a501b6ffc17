//! Luo et al.'s question formats (METHODS.md §2), from each drawn fact with its object as the
//! reference answer:
//! - TFQ: the true statement and a false one, 1:1; the false object is another object of the
//!   same relation that is not an object of the fact's subject;
//! - MCQ: the object and three distractors of its type, shuffled by the seed; asked as
//!   fill-in-the-blank (`[MASK]` for the object) or as a Wh-question;
//! - SAQ: the Wh-question with no options; every object the KG gives the subject for the
//!   relation is a right answer, under its label or any alias.
//!
//! Each format can carry a context (relevant, irrelevant or antifactual, see [`context`]).

use std::collections::HashMap;

use rand::seq::SliceRandom;
use rand::Rng;

use super::context::{self, ContextKind};
use super::gold::{Accepted, Gold};
use super::{Corruption, GenerateOptions, Question, Renderer, Task};
use crate::kg::index::{Fact, Id, KgIndex};
use crate::kg::term_str;
use crate::sampling::{self, SeededRng};

/// Options of a multiple-choice question: the object and this many distractors.
pub const DISTRACTORS: usize = 3;

/// Wrong objects for facts: a relation's objects that are not the subject's objects for it,
/// and do not share a name with one ("Kingston" for Jamaica when Norfolk Island's Kingston is
/// drawn would read as right). Names are worked out once per relation.
pub struct WrongObjects<'a> {
    index: &'a KgIndex,
    names: HashMap<Id, Vec<String>>,
}

impl<'a> WrongObjects<'a> {
    pub fn new(index: &'a KgIndex) -> Self {
        Self {
            index,
            names: HashMap::new(),
        }
    }

    /// The relation's wrong objects for `fact`'s subject, in id order.
    pub fn of(&mut self, fact: &Fact) -> Vec<Id> {
        let ix = self.index;
        let truths = ix.objects_of(fact[0], fact[1]);
        let objects = ix.objects_of_predicate(fact[1]);
        let names = self.names.entry(fact[1]).or_insert_with(|| {
            objects
                .iter()
                .map(|o| ix.label(*o).to_lowercase())
                .collect()
        });
        let true_names: Vec<&String> = truths
            .iter()
            .filter_map(|t| objects.binary_search(t).ok().map(|i| &names[i]))
            .collect();
        objects
            .iter()
            .zip(names.iter())
            .filter(|(o, name)| truths.binary_search(o).is_err() && !true_names.contains(name))
            .map(|(o, _)| *o)
            .collect()
    }
}

/// The context of the run's kind for a question about `fact` (none when the run has none).
fn context_of(
    r: &Renderer<'_>,
    opts: &GenerateOptions,
    fact: &Fact,
    wrong: Option<Id>,
    rng: &mut SeededRng,
) -> Option<String> {
    opts.context
        .and_then(|k| context::context_for(r, k, fact, wrong, rng))
}

/// The part of a question id that says which context it was asked with: the same fact with
/// another context is another question.
fn context_tag(opts: &GenerateOptions) -> &'static str {
    opts.context.map_or("", ContextKind::as_str)
}

/// TFQ: a true and a false statement per fact. Returns the questions and the number of false
/// statements that could not be made (a relation with a single object).
pub fn tfq(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &GenerateOptions,
) -> (Vec<Question>, usize) {
    let pairs = (opts.limit / 2).max(1);
    let picked = super::draw_facts(r.index, candidates, pairs, opts.sampling, opts.seed);
    let mut wrong = WrongObjects::new(r.index);
    let mut out = Vec::with_capacity(2 * picked.len());
    let mut missing = 0;
    let tag = context_tag(opts);
    for fi in picked {
        let fact = r.index.facts()[fi];
        let true_id = r.id(&fact, Task::Tfq, "tfq", &format!("true{tag}"));
        let mut rng = sampling::item_rng(opts.seed, &true_id);
        let pool = wrong.of(&fact);
        let false_object = (!pool.is_empty()).then(|| pool[rng.random_range(0..pool.len())]);
        let context = context_of(r, opts, &fact, false_object, &mut rng);
        let mut t = r.base(&fact, Task::Tfq);
        t.id = true_id.clone();
        t.prompt = r.statement(&fact);
        t.gold = Gold::yes();
        t.context.clone_from(&context);
        t.positive_id = true_id.clone();
        t.group_size = if false_object.is_some() { 2 } else { 1 };
        let Some(o) = false_object else {
            missing += 1;
            out.push(t);
            continue;
        };
        let mut false_fact = fact;
        false_fact[2] = o;
        // The false statement keeps its true fact's relation, types and year as group keys.
        let mut f = t.clone();
        f.id = r.id(
            &false_fact,
            Task::Tfq,
            "tfq",
            &format!("false{tag}:{true_id}"),
        );
        f.prompt = r.statement(&false_fact);
        f.gold = Gold::no();
        f.object = term_str(r.index.term(o)).to_string();
        f.object_label = r.index.label(o);
        f.negative = Some(Corruption::Tail);
        out.push(t);
        out.push(f);
    }
    (out, missing)
}

/// How a multiple-choice question is put.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McqFormat {
    /// The statement with `[MASK]` for the object.
    FillInTheBlank,
    /// The Wh-question.
    WhQuestion,
}

/// MCQ: the object and [`DISTRACTORS`] wrong objects of its type, in an order drawn from the
/// seed. Facts with fewer distractors are skipped; returns how many.
pub fn mcq(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &GenerateOptions,
    format: McqFormat,
) -> (Vec<Question>, usize) {
    let (task, name) = match format {
        McqFormat::FillInTheBlank => (Task::McqFib, "mcq-fib"),
        McqFormat::WhQuestion => (Task::McqWh, "mcq-wh"),
    };
    let picked = super::draw_facts(r.index, candidates, opts.limit, opts.sampling, opts.seed);
    let mut wrong = WrongObjects::new(r.index);
    let mut out = Vec::with_capacity(picked.len());
    let mut missing = 0;
    let tag = context_tag(opts);
    for fi in picked {
        let fact = r.index.facts()[fi];
        let id = r.id(&fact, task, name, tag);
        let mut rng = sampling::item_rng(opts.seed, &id);
        let Some(distractors) = distractors(r.index, &fact, wrong.of(&fact), &mut rng) else {
            missing += 1;
            continue;
        };
        let mut options: Vec<Id> = distractors.clone();
        options.push(fact[2]);
        options.shuffle(&mut rng);
        let correct = options.iter().position(|o| *o == fact[2]).unwrap_or(0);
        let mut q = r.base(&fact, task);
        q.context = context_of(r, opts, &fact, Some(distractors[0]), &mut rng);
        q.id = id;
        q.prompt = match format {
            McqFormat::FillInTheBlank => r.blank(&fact),
            McqFormat::WhQuestion => r.question(&fact),
        };
        q.gold = Gold::Choice {
            options: options.iter().map(|o| r.index.label(*o)).collect(),
            correct,
        };
        q.positive_id = q.id.clone();
        out.push(q);
    }
    (out, missing)
}

/// Three distractors for `fact` from its relation's wrong objects `pool`, preferring those
/// that share a type with the object (the relation's range may mix types); names distinct from
/// each other and from the object. `None` when fewer than three exist.
fn distractors(
    index: &KgIndex,
    fact: &Fact,
    mut pool: Vec<Id>,
    rng: &mut SeededRng,
) -> Option<Vec<Id>> {
    pool.shuffle(rng);
    let types = index.types_of(fact[2]);
    let shares_type = |o: &Id| index.types_of(*o).iter().any(|t| types.contains(t));
    // Stable: same-typed first, each part in its shuffled order.
    pool.sort_by_key(|o| !shares_type(o));
    let mut names = vec![index.label(fact[2]).to_lowercase()];
    let mut chosen = Vec::with_capacity(DISTRACTORS);
    for o in pool {
        let name = index.label(o).to_lowercase();
        if names.contains(&name) {
            continue;
        }
        names.push(name);
        chosen.push(o);
        if chosen.len() == DISTRACTORS {
            return Some(chosen);
        }
    }
    None
}

/// SAQ: the Wh-question; every object of the subject for the relation is accepted.
pub fn saq(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &GenerateOptions,
) -> (Vec<Question>, usize) {
    let picked = super::draw_facts(r.index, candidates, opts.limit, opts.sampling, opts.seed);
    let mut wrong = WrongObjects::new(r.index);
    let mut out = Vec::with_capacity(picked.len());
    let tag = context_tag(opts);
    for fi in picked {
        let fact = r.index.facts()[fi];
        let mut q = r.base(&fact, Task::Saq);
        q.id = r.id(&fact, Task::Saq, "saq", tag);
        let mut rng = sampling::item_rng(opts.seed, &q.id);
        let pool = wrong.of(&fact);
        let false_object = (!pool.is_empty()).then(|| pool[rng.random_range(0..pool.len())]);
        q.context = context_of(r, opts, &fact, false_object, &mut rng);
        q.prompt = r.question(&fact);
        q.gold = Gold::Texts {
            accepted: r
                .index
                .objects_of(fact[0], fact[1])
                .iter()
                .map(|&o| Accepted {
                    label: r.index.label(o),
                    aliases: r.index.aliases_of(o).to_vec(),
                })
                .collect(),
        };
        q.positive_id = q.id.clone();
        out.push(q);
    }
    (out, 0)
}

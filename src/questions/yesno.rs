//! KGLens yes/no questions (METHODS.md §3): for a sampled edge (s, p, o), half the time ask
//! about the true object (gold "yes"), half the time about an object o_x drawn from
//! C_j − T_j — objects seen with p elsewhere in the KG but not with (s, p) — (gold "no").
//! When C_j − T_j is empty the question asks about the true object.
//!
//! Aliases disambiguate the subject: "Is Paris the capital of France (also known as French
//! Republic)?". Only the subject gets one, and only one ([`aliases::choose`]: never one that
//! contains a candidate answer): the object already narrows the question, and more
//! parentheses make the sentence harder to read.

use std::collections::HashMap;

use rand::Rng;

use super::aliases::{self, Answers};
use super::{Corruption, GenerateOptions, Question, Renderer, Task};
use crate::sampling;

pub fn generate(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &GenerateOptions,
) -> (Vec<Question>, usize) {
    let picked = super::draw_facts(r.index, candidates, opts.limit, opts.sampling, opts.seed);
    let mut out = Vec::with_capacity(picked.len());
    let mut answers: HashMap<u32, Answers> = HashMap::new();
    let mut names: HashMap<u32, Vec<String>> = HashMap::new();
    for fi in picked {
        let fact = r.index.facts()[fi];
        let true_id = r.id(&fact, Task::Yesno, "yesno", "yes");
        let mut rng = sampling::item_rng(opts.seed, &true_id);
        let truths = r.index.objects_of(fact[0], fact[1]);
        let objects = r.index.objects_of_predicate(fact[1]);
        // The relation's objects' names, worked out once per relation, not once per question.
        let names = names.entry(fact[1]).or_insert_with(|| {
            objects
                .iter()
                .map(|o| r.index.label(*o).to_lowercase())
                .collect()
        });
        // A wrong object that reads like a right one ("Kingston" for Jamaica's Kingston when
        // Norfolk Island's is drawn) would make the gold "no" wrong in words.
        let true_names: Vec<&String> = truths
            .iter()
            .filter_map(|t| objects.binary_search(t).ok().map(|i| &names[i]))
            .collect();
        let pool: Vec<u32> = objects
            .iter()
            .zip(names.iter())
            .filter(|(o, name)| truths.binary_search(o).is_err() && !true_names.contains(name))
            .map(|(o, _)| *o)
            .collect();
        let ask_no = rng.random_bool(0.5) && !pool.is_empty();
        let (asked, id, gold, negative) = if ask_no {
            let mut f = fact;
            f[2] = pool[rng.random_range(0..pool.len())];
            (
                f,
                r.id(&f, Task::Yesno, "yesno", &format!("no:{true_id}")),
                "no",
                Some(Corruption::Tail),
            )
        } else {
            (fact, true_id, "yes", None)
        };
        let mut q = r.base(&asked, Task::Yesno);
        // Grouped by the true fact: a wrong object must not move the question to another year.
        q.year = r.base(&fact, Task::Yesno).year;
        let answers = answers
            .entry(fact[1])
            .or_insert_with(|| Answers::of_relation(r.index, fact[1]));
        let alias = aliases::choose(&q.subject_label, &q.subject_aliases, answers);
        let head = aliases::name_with(&q.subject_label, alias);
        q.prompt = r.yesno(&asked, &head);
        q.id = id;
        q.gold = gold.into();
        q.negative = negative;
        q.positive_id = q.id.clone();
        out.push(q);
    }
    (out, 0)
}

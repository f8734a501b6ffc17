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
use super::wrong_objects::WrongObjects;
use super::{Corruption, GenerateOptions, Gold, Question, Renderer, Task};
use crate::sampling;

pub fn generate(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &GenerateOptions,
) -> (Vec<Question>, usize) {
    let picked = super::draw_facts(r.index, candidates, opts.limit, opts.sampling, opts.seed);
    let mut out = Vec::with_capacity(picked.len());
    let mut answers: HashMap<u32, Answers> = HashMap::new();
    let mut wrong = WrongObjects::new(r.index);
    for fi in picked {
        let fact = r.index.facts()[fi];
        let true_id = r.id(&fact, Task::Yesno, "yesno", "yes");
        let mut rng = sampling::item_rng(opts.seed, &true_id);
        let pool = wrong.of(&fact);
        let ask_no = rng.random_bool(0.5) && !pool.is_empty();
        let (asked, id, gold, negative) = if ask_no {
            let mut f = fact;
            f[2] = pool[rng.random_range(0..pool.len())];
            (
                f,
                r.id(&f, Task::Yesno, "yesno", &format!("no:{true_id}")),
                Gold::no(),
                Some(Corruption::Tail),
            )
        } else {
            (fact, true_id, Gold::yes(), None)
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
        q.gold = gold;
        q.negative = negative;
        q.positive_id = q.id.clone();
        out.push(q);
    }
    (out, 0)
}

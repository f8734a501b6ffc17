//! Luo et al.'s (2023) short-answer questions: the Wh-question with no options; every
//! object the KG gives the subject for the relation is a right answer, under its label or any
//! alias.

use rand::Rng;

use crate::questions::answer_keys;
use crate::questions::context::{context_of, context_tag};
use crate::questions::wrong_objects::WrongObjects;
use crate::questions::{GenerateOptions, Question, Renderer, Task};
use crate::sampling;

/// SAQ: the Wh-question; every object of the subject for the relation is accepted.
pub fn generate(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &GenerateOptions,
) -> (Vec<Question>, usize) {
    // Every object of (subject, relation) is a right answer: one question per pair, except
    // where the KG's objects are a checklist no answer key can close, or generic values the
    // subject's usual answer is not.
    let pairs: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&i| crate::questions::first_of_pair(r.index, i))
        .collect();
    let mut checklists = std::collections::HashMap::new();
    let firsts: Vec<usize> = pairs
        .iter()
        .copied()
        .filter(|&i| {
            let fact = r.index.facts()[i];
            !*checklists
                .entry(fact[1])
                .or_insert_with(|| answer_keys::checklist(r.index, fact[1]))
                && !answer_keys::generic_key(r.index, &fact)
        })
        .collect();
    let unmade = pairs.len() - firsts.len();
    let picked =
        crate::questions::draw_facts(r.index, &firsts, opts.limit, opts.sampling, opts.seed);
    let mut wrong = WrongObjects::drawn(r.index, opts.negatives_from);
    let mut out = Vec::with_capacity(picked.len());
    let mut asked = std::collections::HashSet::new();
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
        // Two subjects of one name and one context ("Oranjestad (capital city)", of Aruba and
        // of Sint Eustatius) would ask the same: the first is asked.
        if !asked.insert((q.prompt.clone(), q.context.clone())) {
            continue;
        }
        q.gold = r.accepted(&fact);
        q.positive_id = q.id.clone();
        out.push(q);
    }
    (out, unmade)
}

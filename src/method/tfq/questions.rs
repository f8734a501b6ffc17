//! Luo et al.'s (2023) true/false questions: from each drawn fact the true statement
//! and a false one, 1:1; the false object is another object of the same relation that is not
//! an object of the fact's subject (see [`WrongObjects`]).

use crate::kg::term_str;
use crate::questions::context::{context_of, context_tag};
use crate::questions::wrong_objects::WrongObjects;
use crate::questions::{Corruption, GenerateOptions, Gold, Question, Renderer, Task};
use crate::sampling;

/// TFQ: a true and a false statement per fact. Returns the questions and the number of false
/// statements that could not be made (a relation with a single object).
pub fn generate(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &GenerateOptions,
) -> (Vec<Question>, usize) {
    let pairs = (opts.limit / 2).max(1);
    let picked = crate::questions::draw_facts(r.index, candidates, pairs, opts.sampling, opts.seed);
    let mut wrong = WrongObjects::drawn(r.index, opts.negatives_from);
    let mut out = Vec::with_capacity(2 * picked.len());
    let mut missing = 0;
    let mut asked = std::collections::HashSet::new();
    let tag = context_tag(opts);
    for fi in picked {
        let fact = r.index.facts()[fi];
        let true_id = r.id(&fact, Task::Tfq, "tfq", &format!("true{tag}"));
        let mut rng = sampling::item_rng(opts.seed, &true_id);
        let pool = wrong.of(&fact);
        let false_object =
            crate::questions::wrong_objects::draw_fresh(&pool, &fact, &mut rng, &mut asked);
        let context = context_of(r, opts, &fact, false_object, &mut rng);
        let mut t = r.base(&fact, Task::Tfq);
        t.id = true_id.clone();
        t.prompt = r.statement(&fact);
        t.gold = Gold::yes();
        t.context.clone_from(&context);
        t.positive_id = true_id.clone();
        t.group_size = 2;
        // Luo et al. pair each true statement with a false one: a fact without a fair wrong
        // object (a two-valued split) is not asked alone, which would tilt the set to "true".
        let Some(o) = false_object else {
            missing += 1;
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

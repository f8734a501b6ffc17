//! Luo et al.'s (2023) multiple-choice questions: the object and [`DISTRACTORS`]
//! wrong objects of its type, shuffled by the seed, asked as fill-in-the-blank (`[MASK]` for the
//! object) or as a Wh-question.

use rand::seq::SliceRandom;

use crate::kg::index::{Fact, Id, KgIndex};
use crate::questions::context::{context_of, context_tag};
use crate::questions::options;
use crate::questions::ties::Ties;
use crate::questions::wrong_objects::WrongObjects;
use crate::questions::{GenerateOptions, Gold, Question, Renderer, Task};
use crate::sampling::{self, SeededRng};

/// Options of a multiple-choice question: the object and this many distractors.
pub const DISTRACTORS: usize = 3;

/// How a multiple-choice question is put.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McqFormat {
    /// The statement with `[MASK]` for the object.
    FillInTheBlank,
    /// The Wh-question.
    WhQuestion,
}

/// MCQ: the object and [`DISTRACTORS`] wrong objects of its type, in an order drawn from the
/// seed. Facts without that many good distractors ([`distractors`]) are skipped for the next
/// ones; returns how many were.
pub fn generate(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &GenerateOptions,
    format: McqFormat,
) -> (Vec<Question>, usize) {
    let (task, name) = match format {
        McqFormat::FillInTheBlank => (Task::McqFib, "mcq-fib"),
        McqFormat::WhQuestion => (Task::McqWh, "mcq-wh"),
    };
    // Every candidate in the sampling's order, taken until `limit` questions are made: a fact
    // without three good distractors gives way to the next.
    let order = crate::questions::draw_facts(
        r.index,
        candidates,
        candidates.len(),
        opts.sampling,
        opts.seed,
    );
    let mut wrong = WrongObjects::drawn(r.index, opts.negatives_from);
    let mut ties = Ties::new(r.index);
    let mut out = Vec::with_capacity(opts.limit.min(candidates.len()));
    let mut missing = 0;
    let tag = context_tag(opts);
    for fi in order {
        if out.len() == opts.limit {
            break;
        }
        // One question per subject and relation: its several objects would ask it again.
        if !crate::questions::first_of_pair(r.index, fi) {
            continue;
        }
        let fact = r.index.facts()[fi];
        let id = r.id(&fact, task, name, tag);
        let mut rng = sampling::item_rng(opts.seed, &id);
        let pool = wrong.of(&fact);
        let Some(distractors) = distractors(r.index, &mut ties, &fact, pool, &mut rng) else {
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
            options: r.options(&fact, &options, format == McqFormat::FillInTheBlank),
            correct,
        };
        q.positive_id = q.id.clone();
        out.push(q);
    }
    (out, missing)
}

/// Three distractors for `fact` from its relation's wrong objects `pool`, preferring those
/// that share a type with the object (the relation's range may mix types). Each is wrong in
/// the world as well as in the KG and tells nothing by its letters ([`options`]): its names
/// neither contain the object's nor are contained in them, the KG does not tie it to the
/// object, it is no namesake of an entity the KG states for the subject, it is no number the object rounds
/// to, no number an order of magnitude off ([`crate::questions::fair::implausible_number`]),
/// and it matches the subject's name exactly as well as the object does. Names are distinct from each other and from the object. `None`
/// when fewer than three such exist: the fact is not asked.
fn distractors(
    index: &KgIndex,
    ties: &mut Ties<'_>,
    fact: &Fact,
    mut pool: Vec<Id>,
    rng: &mut SeededRng,
) -> Option<Vec<Id>> {
    pool.shuffle(rng);
    let types = index.types_of(fact[2]);
    let shares_type = |o: &Id| index.types_of(*o).iter().any(|t| types.contains(t));
    // Stable: same-typed first, each part in its shuffled order.
    pool.sort_by_key(|o| !shares_type(o));
    let subject = index.label(fact[0]);
    let names_of = |o: Id| -> Vec<String> {
        std::iter::once(index.label(o))
            .chain(index.aliases_of(o).iter().cloned())
            .collect()
    };
    let answer = names_of(fact[2]);
    // Entities the KG states for the subject under any relation: another entity of the same
    // name is right in another sense ("North America", the subregion, for Cuba, whose
    // continent is "North America").
    let stated: Vec<(Id, String)> = index
        .facts_from(fact[0])
        .iter()
        .filter(|f| matches!(index.term(f[2]), crate::kg::Term::NamedNode(_)))
        .map(|f| (f[2], index.label(f[2])))
        .collect();
    let mut chosen: Vec<Id> = Vec::with_capacity(DISTRACTORS);
    let mut shown = vec![answer.clone()];
    for o in pool {
        let names = names_of(o);
        // Options are told apart by their labels: two with one label, or one whose name
        // holds another's, are one answer twice.
        if shown
            .iter()
            .any(|s| options::overlaps(&s[..1], &names[..1]))
        {
            continue;
        }
        if options::text_flaw(&subject, &answer, &names).is_some()
            || crate::questions::fair::implausible_number(&answer[0], &names[0])
            || ties.tied(o, fact[2])
            || stated
                .iter()
                .any(|(e, name)| *e != o && options::same(name, &names[0]))
        {
            continue;
        }
        shown.push(names);
        chosen.push(o);
        if chosen.len() == DISTRACTORS {
            return Some(chosen);
        }
    }
    None
}

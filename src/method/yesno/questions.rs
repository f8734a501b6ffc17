//! KGLens yes/no questions (Zheng et al., 2024): for a sampled edge (s, p, o), half the time ask
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

use crate::kg::index::{Fact, Id};
use crate::questions::aliases::{self, Answers};
use crate::questions::wrong_objects::WrongObjects;
use crate::questions::{Corruption, GenerateOptions, Gold, Question, Renderer, Task};
use crate::sampling::{self, SeededRng};

pub fn generate(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &GenerateOptions,
) -> (Vec<Question>, usize) {
    let picked =
        crate::questions::draw_facts(r.index, candidates, opts.limit, opts.sampling, opts.seed);
    let mut asker = Asker::drawing(r, opts.negatives_from);
    let out = picked
        .into_iter()
        .map(|fi| {
            let fact = r.index.facts()[fi];
            let true_id = r.id(&fact, Task::Yesno, "yesno", "yes");
            let mut rng = sampling::item_rng(opts.seed, &true_id);
            asker.ask(&fact, Task::Yesno, true_id, &mut rng)
        })
        .collect();
    (out, 0)
}

/// Writes yes/no questions about facts, keeping the per-relation look-ups (wrong objects,
/// candidate answers) between questions.
pub struct Asker<'r, 'a> {
    r: &'r Renderer<'a>,
    answers: HashMap<u32, Answers>,
    wrong: WrongObjects<'a>,
    /// The wrong-object facts asked so far: two true facts of one subject and relation (two
    /// neighbours) must not draw the same wrong object, one question asked twice.
    asked_no: std::collections::HashSet<Fact>,
    /// The (subject, relation) pairs a Wh-question was asked about (KGLens HARD): every object
    /// of the pair answers it, so a second edge of the pair is asked as a yes/no question.
    asked_wh: std::collections::HashSet<(Id, Id)>,
    /// Relations found to be checklists ([`crate::questions::answer_keys::checklist`]) or not.
    checklists: HashMap<Id, bool>,
}

impl<'r, 'a> Asker<'r, 'a> {
    pub fn new(r: &'r Renderer<'a>) -> Self {
        Self::drawing(r, crate::questions::NegativesFrom::Fair)
    }

    /// An asker whose "no" questions draw their wrong objects as `from` does.
    pub fn drawing(r: &'r Renderer<'a>, from: crate::questions::NegativesFrom) -> Self {
        Self {
            r,
            answers: HashMap::new(),
            wrong: WrongObjects::drawn(r.index, from),
            asked_no: Default::default(),
            asked_wh: Default::default(),
            checklists: HashMap::new(),
        }
    }

    /// The yes/no question about `fact` as task `task` asks it: about the true object or, half
    /// the time when C_j − T_j has any, about one of those (gold "no"). `true_id` is the id of
    /// the question about the true object; a "no" question's id is derived from it.
    pub fn ask(
        &mut self,
        fact: &Fact,
        task: Task,
        true_id: String,
        rng: &mut SeededRng,
    ) -> Question {
        let r = self.r;
        let pool = self.wrong.of(fact);
        let ask_no = rng.random_bool(0.5) && !pool.is_empty();
        let wrong = ask_no
            .then(|| {
                crate::questions::wrong_objects::draw_fresh(&pool, fact, rng, &mut self.asked_no)
            })
            .flatten();
        let (asked, id, gold, negative) = if let Some(o) = wrong {
            let mut f = *fact;
            f[2] = o;
            (
                f,
                r.id(&f, task, "yesno", &format!("no:{true_id}")),
                Gold::no(),
                Some(Corruption::Tail),
            )
        } else {
            (*fact, true_id, Gold::yes(), None)
        };
        let mut q = r.base(&asked, task);
        if negative.is_some() {
            // Grouped by the true fact: a wrong object must not move the question to another
            // year, and the edge scored is the true fact's.
            let truth = r.base(fact, task);
            q.year = truth.year;
            q.true_object = Some(truth.object);
        }
        let head = self.head(fact, &q);
        q.prompt = r.yesno(&asked, &head);
        q.id = id;
        q.gold = gold;
        q.negative = negative;
        q.positive_id = q.id.clone();
        q
    }

    /// Whether a Wh-question about `fact`'s subject and relation is still to be asked; marks it
    /// asked.
    /// Whether relation `p` is a checklist, which no Wh-question asks about
    /// ([`crate::questions::answer_keys::checklist`]).
    pub fn checklist(&mut self, p: Id) -> bool {
        let index = self.r.index;
        *self
            .checklists
            .entry(p)
            .or_insert_with(|| crate::questions::answer_keys::checklist(index, p))
    }

    pub fn first_wh(&mut self, fact: &Fact) -> bool {
        self.asked_wh.insert((fact[0], fact[1]))
    }

    /// The subject as a question names it: a name other entities go by with its context
    /// ([`crate::questions::names::shown`]), else its label with an alias that names no
    /// candidate answer of the relation when it has one and the answer is no date.
    pub fn head(&mut self, fact: &Fact, q: &Question) -> String {
        if self.r.index.shares_name(fact[0]) {
            return crate::questions::names::shown(self.r.index, fact[0], fact[1]);
        }
        // A date question names its subject alone: another name may be of another time's
        // entity ("Italy (also known as Italian Republic)", founded in 1946, not in 1861).
        if crate::kg::index::date_year(self.r.index.term(fact[2])).is_some() {
            return q.subject_label.clone();
        }
        let answers = self
            .answers
            .entry(fact[1])
            .or_insert_with(|| Answers::of_relation(self.r.index, fact[1]));
        let others = self.r.index.other_labels_of(fact[0]);
        let alias = aliases::choose_beside(&q.subject_label, &q.subject_aliases, others, answers);
        aliases::name_with(&q.subject_label, alias)
    }
}

//! KGLens' questions about one edge (Zheng et al., 2024, §3.2), made on the fly
//! for the edges an iteration draws, so the same fact can be asked differently each time.
//!
//! - Yes/No (EASY and HARD): half about the true object (gold yes), half about an object from
//!   C_j − T_j (gold no), the subject disambiguated by an alias: [`crate::method::yesno::questions::Asker`].
//! - Wh (HARD only, half the time): when (s, p) has fewer than 10 objects, the Wh-question for
//!   the relation; every object of (s, p), with its aliases, is a right answer. With 10 or more
//!   the paper asks the yes/no question instead, and so do we.

use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::kg::index::Fact;
use crate::method::yesno::questions::Asker;
use crate::questions::{Probe, Question, Renderer, Task};
use crate::sampling;

/// The paper's cut-off: a Wh-question only when (s, p) has fewer objects than this.
pub const WH_MAX_OBJECTS: usize = 10;

/// Which questions a KGLens run asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Difficulty {
    /// Yes/No questions only.
    Easy,
    /// Yes/No and Wh-questions, 50/50 (Wh only where (s, p) has fewer than 10 objects).
    #[default]
    Hard,
}

impl Difficulty {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Easy => "easy",
            Self::Hard => "hard",
        }
    }
}

/// The question about edge `edge` (the fact `fact`) at `iteration`, drawn from the run's seed,
/// the iteration and the edge alone: a resumed run asks exactly what it would have asked.
pub fn question(
    asker: &mut Asker<'_, '_>,
    r: &Renderer<'_>,
    fact: &Fact,
    edge: u32,
    iteration: u32,
    difficulty: Difficulty,
) -> Question {
    let true_id = r.id(
        fact,
        Task::Kglens,
        "yesno",
        &format!("iteration:{iteration}"),
    );
    let mut rng = sampling::item_rng(r.seed, &true_id);
    // A pair's Wh-question is asked once per batch: a second edge of the pair would ask the
    // same question, and is asked as a yes/no question.
    let wh = difficulty == Difficulty::Hard
        && rng.random_bool(0.5)
        && r.index.objects_of(fact[0], fact[1]).len() < WH_MAX_OBJECTS
        && !asker.checklist(fact[1])
        && !crate::questions::answer_keys::generic_key(r.index, fact)
        && asker.first_wh(fact);
    let mut q = if wh {
        let mut q = r.base(fact, Task::Kglens);
        let head = asker.head(fact, &q);
        q.prompt = r.question_about(fact, &head);
        q.id = r.id(fact, Task::Kglens, "wh", &format!("iteration:{iteration}"));
        q.gold = r.accepted(fact);
        q.positive_id = q.id.clone();
        q
    } else {
        asker.ask(fact, Task::Kglens, true_id, &mut rng)
    };
    q.probe = Some(Probe { iteration, edge });
    q
}

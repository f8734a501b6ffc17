//! Metrics of a run, from its records: the same code serves the live summary and
//! `kgscope report`, so the two always agree.

pub mod binning;
pub mod calibration;
pub mod chance;
pub mod confidence;
pub mod dataset;
pub mod doc;
pub mod grid;
pub mod judges;
pub mod label_export;
pub mod labels;
pub mod loaded;
pub mod rate;
pub mod reviewed_set;
pub mod table;
pub use crate::method::kgfpq::report as fpq;
pub use crate::method::kghalubench::report as halu;
pub use crate::method::kglens::report as kglens;

use crate::metrics::chance::{Chance, ChanceTally};
use crate::metrics::{Aggregates, Scored, Scoring, Snapshot};
use crate::run::ResultRecord;

/// The aggregator's view of one record. Group keys come from the question (for a negative,
/// they are its positive's: see `Question::relation`).
pub fn scored(r: &ResultRecord) -> Scored {
    let q = &r.question;
    let scoring = crate::method::of(q.task).scoring();
    Scored {
        question_id: q.id.clone(),
        scoring,
        positive_id: q.positive_id.clone(),
        expected_members: q.group_size,
        is_positive: q.negative.is_none(),
        verdict: r.verdict,
        outcome: r.outcome,
        relation: q.relation.clone(),
        head_type: q.head_type.clone().unwrap_or_else(|| "-".into()),
        tail_type: q.tail_type.clone().unwrap_or_else(|| "-".into()),
        year: q.year,
        edge_key: (scoring == Scoring::Edges).then(|| q.edge_key()),
        facets: crate::method::of(q.task).facets(q),
        compound: crate::method::kghalubench::points::score(r),
    }
}

/// Running totals of a run: metrics plus throughput counters.
#[derive(Default)]
pub struct Tally {
    pub aggregates: Aggregates,
    pub answered: u64,
    pub completion_tokens: u64,
    /// What the model answered and the chance baseline (`metrics::chance`).
    pub chance: ChanceTally,
}

impl Tally {
    pub fn add(&mut self, r: &ResultRecord) {
        self.aggregates.add(&scored(r));
        self.answered += 1;
        self.completion_tokens += r.completion_tokens();
        add_chance(&mut self.chance, r);
    }

    pub fn snapshot(&self) -> Snapshot {
        self.aggregates.snapshot()
    }
}

pub fn snapshot_of(records: &[ResultRecord]) -> Snapshot {
    let mut t = Tally::default();
    for r in records {
        t.add(r);
    }
    t.snapshot()
}

/// Adds a record's first answer to a chance tally, in its method's words for true and false;
/// the method says whether the answer is closed (compared with chance) or open.
pub fn add_chance(t: &mut ChanceTally, r: &ResultRecord) {
    let method = crate::method::of(r.question.task);
    t.add(
        method.answer_kind(&r.question),
        &r.question.gold,
        &r.answer(),
        r.outcome,
        r.stage(),
        method.truth_words(),
    );
}

/// The answer distribution, chance baseline and warning of some records.
pub fn chance_of(records: &[ResultRecord]) -> Chance {
    let mut t = ChanceTally::default();
    for r in records {
        add_chance(&mut t, r);
    }
    t.summary()
}

//! "Why" a group scores as it does: its outcomes split by gold answer (true vs false
//! statements) and by the part a negative replaced, and what the model answered. A model that
//! says "yes" to everything has a fine accuracy on true statements and a terrible one on false
//! ones; these splits make that visible where the heatmap alone cannot.

use std::collections::{BTreeMap, HashMap};

use crate::metrics::{Counts, Rate};
use crate::questions::{Corruption, Question};
use crate::verify::{OutcomeKind, Verdict};

/// The splits of one group.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Why {
    /// Outcomes of the questions whose gold answer is true / yes (`[0]`) and false / no (`[1]`).
    pub by_gold: [Counts; 2],
    /// Outcomes of the negatives by the part they replaced: head, relation, tail.
    pub by_part: [Counts; 3],
    /// How often the model answered true / false / "I don't know" / nothing readable.
    pub answers: [u64; 4],
}

/// The parts a negative can replace, in `Why::by_part`'s order.
pub const PARTS: [Corruption; 3] = [Corruption::Head, Corruption::Relation, Corruption::Tail];

/// The answers, in `Why::answers`' order.
pub const ANSWERS: [Verdict; 4] = [
    Verdict::True,
    Verdict::False,
    Verdict::Idk,
    Verdict::Invalid,
];

/// Below this many answers one answer's share says little about the model.
const DOMINANT_MIN_N: u64 = 10;
/// One answer given this often is a model answering by habit, not by the question.
const DOMINANT_SHARE: f64 = 0.85;

impl Why {
    pub fn add(&mut self, q: &Question, verdict: Verdict, outcome: OutcomeKind) {
        let gold_true = q.gold.truth();
        self.by_gold[usize::from(!gold_true)].add(outcome);
        if let Some(part) = q.negative {
            let i = PARTS.iter().position(|p| *p == part).unwrap_or(0);
            self.by_part[i].add(outcome);
        }
        let a = ANSWERS.iter().position(|v| *v == verdict).unwrap_or(3);
        self.answers[a] += 1;
    }

    pub fn merge(&mut self, o: &Why) {
        for (a, b) in self.by_gold.iter_mut().zip(&o.by_gold) {
            a.merge(b);
        }
        for (a, b) in self.by_part.iter_mut().zip(&o.by_part) {
            a.merge(b);
        }
        for (a, b) in self.answers.iter_mut().zip(&o.answers) {
            *a += b;
        }
    }

    pub fn n(&self) -> u64 {
        self.answers.iter().sum()
    }

    /// The answer given to at least 85% of at least 10 questions, with its share: the mark of
    /// a model that says "yes" (or "no", or "I don't know") whatever it is asked.
    pub fn dominant_answer(&self) -> Option<(Verdict, f64)> {
        let n = self.n();
        if n < DOMINANT_MIN_N {
            return None;
        }
        let (i, &k) = self.answers.iter().enumerate().max_by_key(|(_, k)| **k)?;
        let share = k as f64 / n as f64;
        (share >= DOMINANT_SHARE).then_some((ANSWERS[i], share))
    }
}

/// Accuracy of some counts with its interval, as the splits show it.
pub fn accuracy(c: &Counts) -> Option<Rate> {
    Rate::new(c.correct as f64, c.total() as f64)
}

/// The splits of every group the heatmaps show, kept as the run is read.
#[derive(Debug, Default)]
pub struct WhyIndex {
    pub overall: Why,
    pub by_relation: HashMap<String, Why>,
    pub by_head_tail: HashMap<(String, String), Why>,
    pub by_year: BTreeMap<i32, Why>,
}

impl WhyIndex {
    /// Adds an answer to its groups, keyed as the aggregates key them (a missing type is "-").
    pub fn add(&mut self, q: &Question, verdict: Verdict, outcome: OutcomeKind) {
        self.overall.add(q, verdict, outcome);
        // Look up before inserting: most answers fall into groups already there.
        match self.by_relation.get_mut(&q.relation) {
            Some(w) => w.add(q, verdict, outcome),
            None => {
                let mut w = Why::default();
                w.add(q, verdict, outcome);
                self.by_relation.insert(q.relation.clone(), w);
            }
        }
        let head = q.head_type.as_deref().unwrap_or("-").to_string();
        let tail = q.tail_type.as_deref().unwrap_or("-").to_string();
        self.by_head_tail
            .entry((head, tail))
            .or_default()
            .add(q, verdict, outcome);
        if let Some(y) = q.year {
            self.by_year.entry(y).or_default().add(q, verdict, outcome);
        }
    }

    /// The splits of the years `from..=to` together.
    pub fn years(&self, from: i32, to: i32) -> Why {
        let mut w = Why::default();
        for y in self.by_year.range(from..=to).map(|(_, y)| y) {
            w.merge(y);
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(gold: &str, negative: Option<Corruption>) -> Question {
        Question {
            id: "q".into(),
            task: crate::questions::Task::Statement,
            prompt: String::new(),
            gold: if matches!(gold, "true" | "yes") {
                crate::questions::Gold::yes()
            } else {
                crate::questions::Gold::no()
            },
            context: None,
            subject: String::new(),
            predicate: String::new(),
            object: String::new(),
            subject_label: String::new(),
            object_label: String::new(),
            relation: "capital".into(),
            head_type: None,
            tail_type: Some("City".into()),
            year: Some(1990),
            negative,
            positive_id: "q".into(),
            group_size: 2,
            subject_aliases: vec![],
            true_object: None,
            probe: None,
            premise: None,
            compound: None,
        }
    }

    #[test]
    fn a_yes_sayer_is_split_by_gold_and_flagged() {
        let mut ix = WhyIndex::default();
        // Says "true" to 4 true statements and to 8 negatives (4 head, 4 tail): right on every
        // true one, wrong on every false one.
        for _ in 0..4 {
            ix.add(&q("true", None), Verdict::True, OutcomeKind::Correct);
        }
        for part in [Corruption::Head, Corruption::Tail] {
            for _ in 0..4 {
                ix.add(
                    &q("false", Some(part)),
                    Verdict::True,
                    OutcomeKind::Incorrect,
                );
            }
        }
        let w = &ix.by_relation["capital"];
        assert_eq!(accuracy(&w.by_gold[0]).unwrap().value, 1.0);
        assert_eq!(accuracy(&w.by_gold[1]).unwrap().value, 0.0);
        assert_eq!(w.by_part[0].incorrect, 4);
        assert_eq!(w.by_part[1].total(), 0, "no relation was replaced");
        assert_eq!(w.by_part[2].incorrect, 4);
        assert_eq!(w.answers, [12, 0, 0, 0]);
        assert_eq!(w.dominant_answer(), Some((Verdict::True, 1.0)));
        assert_eq!(
            ix.by_head_tail[&("-".to_string(), "City".to_string())].n(),
            12
        );
        assert_eq!(ix.years(1980, 1999).n(), 12);
        assert_eq!(ix.years(2000, 2009).n(), 0);
    }

    #[test]
    fn a_mixed_or_small_group_has_no_dominant_answer() {
        let mut w = Why::default();
        for i in 0..20 {
            let v = if i % 4 == 0 {
                Verdict::False
            } else {
                Verdict::True
            };
            w.add(&q("true", None), v, OutcomeKind::Correct);
        }
        assert_eq!(w.dominant_answer(), None, "75% is not habit");
        let mut small = Why::default();
        for _ in 0..9 {
            small.add(&q("true", None), Verdict::True, OutcomeKind::Correct);
        }
        assert_eq!(
            small.dominant_answer(),
            None,
            "9 answers are too few to tell"
        );
    }
}

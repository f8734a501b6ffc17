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
    /// How often the model answered true / false / "I don't know" / nothing readable, over
    /// the closed answers (true/false, yes/no, an option).
    pub answers: [u64; 4],
    /// Open answers (short answers, answers judged against a premise or facts): not one of a
    /// fixed set, so neither counted as a distribution nor warned about as a habit.
    pub open: u64,
    /// How often it chose each option letter of a multiple-choice question (A..; the last
    /// slot also counts any later letter): a model that says "B)" to everything is as blind
    /// as a yes-sayer, and its verdicts (right / wrong) do not show it.
    pub letters: [u64; LETTERS],
}

/// Option letters counted one by one; MCQ asks 4 options (Luo et al.), so 8 leaves room.
pub const LETTERS: usize = 8;

/// The parts a negative can replace, in `Why::by_part`'s order.
pub const PARTS: [Corruption; 3] = [Corruption::Head, Corruption::Relation, Corruption::Tail];

/// The answers, in `Why::answers`' order.
pub const ANSWERS: [Verdict; 4] = [
    Verdict::True,
    Verdict::False,
    Verdict::Idk,
    Verdict::Invalid,
];

// The same thresholds as the run's near-chance warning (`metrics::chance`), so the pane and
// `run` / `report` flag the same habit.
use crate::metrics::chance::{DOMINANT_SHARE, MIN_N as DOMINANT_MIN_N};

impl Why {
    pub fn add(&mut self, q: &Question, verdict: Verdict, outcome: OutcomeKind) {
        self.add_with(q, verdict, outcome, None);
    }

    /// [`Why::add`], with the option the model chose when it answered a multiple-choice
    /// question.
    pub fn add_with(
        &mut self,
        q: &Question,
        verdict: Verdict,
        outcome: OutcomeKind,
        choice: Option<usize>,
    ) {
        if let Some(i) = choice {
            self.letters[i.min(LETTERS - 1)] += 1;
        }
        let gold_true = q.gold.truth();
        self.by_gold[usize::from(!gold_true)].add(outcome);
        if let Some(part) = q.negative {
            let i = PARTS.iter().position(|p| *p == part).unwrap_or(0);
            self.by_part[i].add(outcome);
        }
        if crate::method::of(q.task).answer_kind(q) == crate::core::answer::AnswerKind::Open {
            self.open += 1;
            return;
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
        for (a, b) in self.letters.iter_mut().zip(&o.letters) {
            *a += b;
        }
        self.open += o.open;
    }

    /// Answers in the group, closed and open.
    pub fn n(&self) -> u64 {
        self.closed() + self.open
    }

    /// Closed answers: what the distribution and the habit warnings count.
    pub fn closed(&self) -> u64 {
        self.answers.iter().sum()
    }

    /// The answer given to at least 80% of at least 10 questions, with its share: the mark of
    /// a model that says "yes" (or "no", or "I don't know") whatever it is asked.
    pub fn dominant_answer(&self) -> Option<(Verdict, f64)> {
        dominant(&self.answers, self.closed()).map(|(i, share)| (ANSWERS[i], share))
    }
}

/// The most frequent of `counts` when it holds at least 80% of at least 10 answers out of
/// `n`: its index and share.
fn dominant(counts: &[u64], n: u64) -> Option<(usize, f64)> {
    if n < DOMINANT_MIN_N {
        return None;
    }
    let (i, &k) = counts.iter().enumerate().max_by_key(|(_, k)| **k)?;
    let share = k as f64 / n as f64;
    (share >= DOMINANT_SHARE).then_some((i, share))
}

impl Why {
    /// Questions answered with an option letter.
    pub fn lettered(&self) -> u64 {
        self.letters.iter().sum()
    }

    /// The option letter chosen for at least 80% of at least 10 multiple-choice questions,
    /// with its share: the MCQ form of answering by habit.
    pub fn dominant_letter(&self) -> Option<(char, f64)> {
        dominant(&self.letters, self.closed())
            .map(|(i, share)| (crate::core::gold::choice_letter(i), share))
    }
}

/// An answer in the method's words (`Method::truth_words`): "true", "yes", "idk".
pub fn answer_name(v: Verdict, (yes, no): (&'static str, &'static str)) -> &'static str {
    match v {
        Verdict::True => yes,
        Verdict::False => no,
        Verdict::Idk => "idk",
        Verdict::Invalid => "invalid",
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
        self.add_with(q, verdict, outcome, None);
    }

    /// [`WhyIndex::add`], with the option chosen for a multiple-choice question.
    pub fn add_with(
        &mut self,
        q: &Question,
        verdict: Verdict,
        outcome: OutcomeKind,
        choice: Option<usize>,
    ) {
        self.overall.add_with(q, verdict, outcome, choice);
        // Look up before inserting: most answers fall into groups already there.
        match self.by_relation.get_mut(&q.relation) {
            Some(w) => w.add_with(q, verdict, outcome, choice),
            None => {
                let mut w = Why::default();
                w.add_with(q, verdict, outcome, choice);
                self.by_relation.insert(q.relation.clone(), w);
            }
        }
        let head = q.head_type.as_deref().unwrap_or("-").to_string();
        let tail = q.tail_type.as_deref().unwrap_or("-").to_string();
        self.by_head_tail
            .entry((head, tail))
            .or_default()
            .add_with(q, verdict, outcome, choice);
        if let Some(y) = q.year {
            self.by_year
                .entry(y)
                .or_default()
                .add_with(q, verdict, outcome, choice);
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
            review: None,
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
    fn an_mcq_letter_habit_is_flagged() {
        let mut ix = WhyIndex::default();
        // "B" to 25 of 30 questions, "A" to 5; verdicts say only right or wrong.
        for i in 0..30 {
            let choice = if i < 25 { 1 } else { 0 };
            let (v, o) = if i % 4 == 1 {
                (Verdict::True, OutcomeKind::Correct)
            } else {
                (Verdict::False, OutcomeKind::Incorrect)
            };
            ix.add_with(&q("true", None), v, o, Some(choice));
        }
        let w = ix.overall;
        assert_eq!(w.lettered(), 30);
        assert_eq!(w.letters[..3], [5, 25, 0]);
        let (letter, share) = w.dominant_letter().unwrap();
        assert_eq!(letter, 'B');
        assert!((share - 25.0 / 30.0).abs() < 1e-12);
        assert_eq!(ix.by_relation["capital"].letters[1], 25);
        // 20 of 30 (67%) is no habit.
        let mut mixed = Why::default();
        for i in 0..30 {
            let c = if i < 20 { 1 } else { 2 };
            mixed.add_with(
                &q("true", None),
                Verdict::True,
                OutcomeKind::Correct,
                Some(c),
            );
        }
        assert_eq!(mixed.dominant_letter(), None);
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

//! KGHaluBench's points and metrics (§3.2, §4.3). Each answer is one of three things
//! ([`Judged`]):
//!
//! - an abstention (a refusal, a deflection, "I don't know this entity"): 1 point of 3, for
//!   saying so rather than making something up;
//! - a breadth hallucination (the entity-level similarity does not exceed the threshold: the answer
//!   is about something else): 0 points;
//! - aligned: 1 point per asked fact it states correctly.
//!
//! accuracy = points / (3 × answers); breadth hallucination rate = breadth hallucinations /
//! answers that did not abstain (not all answers: an abstention cannot be a hallucination);
//! depth hallucination rate = facts not stated correctly / (3 × aligned answers); weighted
//! accuracy = accuracy × D / D̄, D the group's mean difficulty and D̄ the mean difficulty of
//! assessments of the same size (each question carries it). Every rate comes with its Wilson
//! 95% interval; the weighted accuracy's is the accuracy's, scaled alike.
//!
//! A group of one relation (the by-relation heatmap) counts that relation's facts: a fact is
//! a third of its question, its point a third of an abstention's point or a whole stated fact.

use serde::{Deserialize, Serialize};

use super::interval::Rate;
pub use crate::core::compound::{Judged, FACTS_PER_QUESTION};

/// What one compound answer feeds the sums.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HaluScore {
    pub judged: Judged,
    /// The question's difficulty for this answer (a breadth hallucination's own).
    pub difficulty: f64,
    /// D̄ of the question's assessment.
    pub reference_difficulty: f64,
    /// Each asked relation, and whether the answer stated its fact.
    pub facts: Vec<(String, bool)>,
}

/// Difficulties are summed in millionths, as integers: a sum of floats would depend on the
/// order answers arrive in, and a resumed run must give the identical snapshot.
fn micro(x: f64) -> u64 {
    (x.clamp(0.0, 1_000.0) * 1e6).round() as u64
}

/// Running sums of a group's compound answers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HaluAcc {
    answers: u64,
    abstained: u64,
    breadth: u64,
    facts_asked: u64,
    /// Points in thirds: a fact stated earns 3, an abstention 1 per fact asked.
    point_thirds: u64,
    aligned_facts: u64,
    wrong_facts: u64,
    difficulty_micro: u64,
    reference_micro: u64,
}

impl HaluAcc {
    /// Facts asked: what the point accuracy is over.
    pub fn facts_asked(&self) -> u64 {
        self.facts_asked
    }
    /// Answers that did not abstain: what the breadth rate is over.
    pub fn not_abstained(&self) -> u64 {
        self.answers - self.abstained
    }
    /// Facts asked in aligned answers: what the depth rate is over.
    pub fn aligned_facts(&self) -> u64 {
        self.aligned_facts
    }

    fn count(&mut self, s: &HaluScore) {
        self.answers += 1;
        self.abstained += u64::from(s.judged == Judged::Abstained);
        self.breadth += u64::from(s.judged == Judged::Breadth);
        self.difficulty_micro += micro(s.difficulty);
        self.reference_micro += micro(s.reference_difficulty);
    }

    /// A whole answer (every group but a relation's).
    pub fn add_answer(&mut self, s: &HaluScore) {
        self.count(s);
        let asked = u64::from(FACTS_PER_QUESTION);
        self.facts_asked += asked;
        self.point_thirds += 3 * u64::from(s.judged.points());
        if let Judged::Aligned { correct } = s.judged {
            self.aligned_facts += asked;
            self.wrong_facts += asked - u64::from(correct.min(FACTS_PER_QUESTION));
        }
    }

    /// One fact of an answer (its relation's group).
    pub fn add_fact(&mut self, s: &HaluScore, stated: bool) {
        self.count(s);
        self.facts_asked += 1;
        self.point_thirds += match s.judged {
            Judged::Abstained => 1,
            Judged::Breadth => 0,
            Judged::Aligned { .. } => 3 * u64::from(stated),
        };
        if matches!(s.judged, Judged::Aligned { .. }) {
            self.aligned_facts += 1;
            self.wrong_facts += u64::from(!stated);
        }
    }

    /// Adds another group's sums (disjoint groups combined, years binned into decades).
    pub fn merge(&mut self, o: &HaluAcc) {
        self.answers += o.answers;
        self.abstained += o.abstained;
        self.breadth += o.breadth;
        self.facts_asked += o.facts_asked;
        self.point_thirds += o.point_thirds;
        self.aligned_facts += o.aligned_facts;
        self.wrong_facts += o.wrong_facts;
        self.difficulty_micro += o.difficulty_micro;
        self.reference_micro += o.reference_micro;
    }

    /// The group's metrics; `None` when it has no compound answer.
    pub fn stats(&self) -> Option<HaluStats> {
        if self.answers == 0 {
            return None;
        }
        let accuracy = Rate::new(self.point_thirds as f64 / 3.0, self.facts_asked as f64)?;
        let mean_difficulty = self.difficulty_micro as f64 / 1e6 / self.answers as f64;
        let reference = self.reference_micro as f64 / 1e6 / self.answers as f64;
        let scale = weighted_accuracy(1.0, mean_difficulty, reference);
        Some(HaluStats {
            answers: self.answers,
            accuracy,
            weighted_accuracy: Rate {
                value: accuracy.value * scale,
                lo: accuracy.lo * scale,
                hi: accuracy.hi * scale,
            },
            breadth_rate: Rate::new(self.breadth as f64, (self.answers - self.abstained) as f64),
            depth_rate: Rate::new(self.wrong_facts as f64, self.aligned_facts as f64),
            abstain_rate: Rate::new(self.abstained as f64, self.answers as f64),
            mean_difficulty,
            reference_difficulty: reference,
            sums: self.clone(),
        })
    }
}

/// Accuracy scaled by how hard this assessment was against the average one: A × D / D̄
/// (A itself when D̄ is unknown).
pub fn weighted_accuracy(accuracy: f64, mean_difficulty: f64, reference_difficulty: f64) -> f64 {
    if reference_difficulty <= 0.0 {
        return accuracy;
    }
    accuracy * mean_difficulty / reference_difficulty
}

/// KGHaluBench's metrics of a group; a rate with nothing to count is `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HaluStats {
    pub answers: u64,
    pub accuracy: Rate,
    pub weighted_accuracy: Rate,
    pub breadth_rate: Option<Rate>,
    pub depth_rate: Option<Rate>,
    pub abstain_rate: Option<Rate>,
    /// D: the mean difficulty of the group's questions.
    pub mean_difficulty: f64,
    /// D̄: the mean reference difficulty of their assessments.
    pub reference_difficulty: f64,
    /// The sums behind the metrics, so that groups combine exactly.
    pub sums: HaluAcc,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The metrics of a set of answers of one difficulty (D = D̄): the hand-checkable core.
    fn metrics(judged: &[Judged]) -> Option<HaluStats> {
        let mut acc = HaluAcc::default();
        for j in judged {
            acc.add_answer(&HaluScore {
                judged: *j,
                difficulty: 0.5,
                reference_difficulty: 0.5,
                facts: vec![],
            });
        }
        acc.stats()
    }

    /// Ten answers by hand: 2 abstained, 3 breadth hallucinations, 5 aligned with 3, 3, 2, 1
    /// and 0 facts right.
    #[test]
    fn every_metric_on_a_hand_computed_table() {
        use Judged::*;
        let judged = [
            Abstained,
            Abstained,
            Breadth,
            Breadth,
            Breadth,
            Aligned { correct: 3 },
            Aligned { correct: 3 },
            Aligned { correct: 2 },
            Aligned { correct: 1 },
            Aligned { correct: 0 },
        ];
        let m = metrics(&judged).unwrap();
        assert_eq!(m.answers, 10);
        // Points: 2 (abstentions) + 0 + 9 = 11 of 30.
        assert!((m.accuracy.value - 11.0 / 30.0).abs() < 1e-12);
        // Breadth: 3 of the 8 that did not abstain (not of all 10).
        assert!((m.breadth_rate.unwrap().value - 3.0 / 8.0).abs() < 1e-12);
        // Depth: 0 + 0 + 1 + 2 + 3 = 6 wrong facts of 15 asked in aligned answers.
        assert!((m.depth_rate.unwrap().value - 6.0 / 15.0).abs() < 1e-12);
        assert!((m.abstain_rate.unwrap().value - 0.2).abs() < 1e-12);
        let r = m.breadth_rate.unwrap();
        assert!(r.lo < r.value && r.value < r.hi);
        // D = D̄: the weighted accuracy is the accuracy.
        assert!((m.weighted_accuracy.value - m.accuracy.value).abs() < 1e-12);
    }

    #[test]
    fn weighted_accuracy_scales_by_difficulty() {
        assert!((weighted_accuracy(0.5, 0.6, 0.5) - 0.6).abs() < 1e-12);
        assert_eq!(weighted_accuracy(0.5, 0.6, 0.0), 0.5);
    }

    #[test]
    fn a_harder_assessment_weighs_its_accuracy_up() {
        let mut acc = HaluAcc::default();
        for (judged, d) in [
            (Judged::Aligned { correct: 3 }, 0.6),
            (Judged::Breadth, 0.9),
        ] {
            acc.add_answer(&HaluScore {
                judged,
                difficulty: d,
                reference_difficulty: 0.5,
                facts: vec![],
            });
        }
        let m = acc.stats().unwrap();
        assert!((m.accuracy.value - 0.5).abs() < 1e-12);
        assert!((m.mean_difficulty - 0.75).abs() < 1e-9);
        // A_w = 0.5 × 0.75 / 0.5.
        assert!((m.weighted_accuracy.value - 0.75).abs() < 1e-9);
    }

    #[test]
    fn a_relation_counts_its_facts() {
        let mut rel = HaluAcc::default();
        let s = |judged| HaluScore {
            judged,
            difficulty: 0.5,
            reference_difficulty: 0.5,
            facts: vec![],
        };
        rel.add_fact(&s(Judged::Aligned { correct: 2 }), true);
        rel.add_fact(&s(Judged::Aligned { correct: 2 }), false);
        rel.add_fact(&s(Judged::Abstained), false);
        rel.add_fact(&s(Judged::Breadth), false);
        let m = rel.stats().unwrap();
        // Points 1 + 0 + 1/3 + 0 of 4 facts.
        assert!((m.accuracy.value - (4.0 / 3.0) / 4.0).abs() < 1e-12);
        assert!((m.depth_rate.unwrap().value - 0.5).abs() < 1e-12);
        assert!((m.breadth_rate.unwrap().value - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn a_rate_of_nothing_is_none() {
        let m = metrics(&[Judged::Abstained]).unwrap();
        assert_eq!(m.breadth_rate, None, "every answer abstained");
        assert_eq!(m.depth_rate, None, "no answer aligned");
        assert!((m.accuracy.value - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(metrics(&[]), None);
    }
}

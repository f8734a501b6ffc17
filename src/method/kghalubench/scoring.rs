//! KGHaluBench's points and metrics (§3.2, §4.3). Each answer is one of three things:
//!
//! - an abstention (a refusal, a deflection, "I don't know this entity"): 1 point of 3, for
//!   saying so rather than making something up;
//! - a breadth hallucination (the entity-level similarity is under the threshold: the answer
//!   is about something else): 0 points;
//! - aligned: 1 point per asked fact it states correctly.
//!
//! accuracy = points / (3 × answers); breadth hallucination rate = breadth hallucinations /
//! answers that did not abstain (not all answers: an abstention cannot be a hallucination);
//! depth hallucination rate = facts not stated correctly / (3 × aligned answers); abstain
//! rate = abstentions / answers. Every rate comes with its Wilson 95% interval.

use crate::metrics::interval::Rate;

/// Facts asked in one compound question.
pub const FACTS_PER_QUESTION: u32 = 3;

/// What one answer was, after the verification chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judged {
    Abstained,
    Breadth,
    /// Aligned with the entity; how many of the asked facts it states correctly.
    Aligned {
        correct: u32,
    },
}

impl Judged {
    /// The answer's points, of [`FACTS_PER_QUESTION`].
    pub fn points(self) -> u32 {
        match self {
            Judged::Abstained => 1,
            Judged::Breadth => 0,
            Judged::Aligned { correct } => correct.min(FACTS_PER_QUESTION),
        }
    }
}

/// The metrics of a set of answers; a rate with nothing to count is `None`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Metrics {
    pub answers: u32,
    pub accuracy: Option<Rate>,
    pub breadth_rate: Option<Rate>,
    pub depth_rate: Option<Rate>,
    pub abstain_rate: Option<Rate>,
}

pub fn metrics(judged: &[Judged]) -> Metrics {
    let n = judged.len() as f64;
    let points: u32 = judged.iter().map(|j| j.points()).sum();
    let abstained = judged.iter().filter(|j| **j == Judged::Abstained).count() as f64;
    let breadth = judged.iter().filter(|j| **j == Judged::Breadth).count() as f64;
    let (aligned, wrong_facts) = judged.iter().fold((0u32, 0u32), |(a, w), j| match j {
        Judged::Aligned { correct } => (
            a + 1,
            w + FACTS_PER_QUESTION - correct.min(&FACTS_PER_QUESTION),
        ),
        _ => (a, w),
    });
    let per_fact = f64::from(FACTS_PER_QUESTION);
    Metrics {
        answers: judged.len() as u32,
        accuracy: Rate::new(f64::from(points), per_fact * n),
        breadth_rate: Rate::new(breadth, n - abstained),
        depth_rate: Rate::new(f64::from(wrong_facts), per_fact * f64::from(aligned)),
        abstain_rate: Rate::new(abstained, n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_per_answer() {
        assert_eq!(Judged::Abstained.points(), 1);
        assert_eq!(Judged::Breadth.points(), 0);
        assert_eq!(Judged::Aligned { correct: 0 }.points(), 0);
        assert_eq!(Judged::Aligned { correct: 2 }.points(), 2);
        assert_eq!(Judged::Aligned { correct: 9 }.points(), 3);
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
        let m = metrics(&judged);
        assert_eq!(m.answers, 10);
        // Points: 2 (abstentions) + 0 + 9 = 11 of 30.
        assert!((m.accuracy.unwrap().value - 11.0 / 30.0).abs() < 1e-12);
        // Breadth: 3 of the 8 that did not abstain (not of all 10).
        assert!((m.breadth_rate.unwrap().value - 3.0 / 8.0).abs() < 1e-12);
        // Depth: 0 + 0 + 1 + 2 + 3 = 6 wrong facts of 15 asked in aligned answers.
        assert!((m.depth_rate.unwrap().value - 6.0 / 15.0).abs() < 1e-12);
        assert!((m.abstain_rate.unwrap().value - 0.2).abs() < 1e-12);
        let r = m.breadth_rate.unwrap();
        assert!(r.lo < r.value && r.value < r.hi);
    }

    #[test]
    fn a_rate_of_nothing_is_none() {
        let m = metrics(&[Judged::Abstained]);
        assert_eq!(m.breadth_rate, None, "every answer abstained");
        assert_eq!(m.depth_rate, None, "no answer aligned");
        assert!((m.accuracy.unwrap().value - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(metrics(&[]).accuracy, None);
    }
}

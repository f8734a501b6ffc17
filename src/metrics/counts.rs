//! Outcome counts and the rates built from them: accuracy, abstain and invalid rates, and Luo et
//! al.'s precision / recall / F1 (Luo et al., 2023, §3). Always computed from summed counts, never by
//! averaging percentages, so groups of different sizes combine correctly.

use serde::{Deserialize, Serialize};

use crate::verify::OutcomeKind;

/// Correct / incorrect / abstained / invalid counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub correct: u64,
    pub incorrect: u64,
    pub abstained: u64,
    pub invalid: u64,
}

fn ratio(a: u64, b: u64) -> Option<f64> {
    (b > 0).then(|| a as f64 / b as f64)
}

impl Counts {
    pub fn add(&mut self, outcome: OutcomeKind) {
        match outcome {
            OutcomeKind::Correct => self.correct += 1,
            OutcomeKind::Incorrect => self.incorrect += 1,
            OutcomeKind::Abstained => self.abstained += 1,
            OutcomeKind::Invalid => self.invalid += 1,
        }
    }

    pub fn merge(&mut self, other: &Counts) {
        self.correct += other.correct;
        self.incorrect += other.incorrect;
        self.abstained += other.abstained;
        self.invalid += other.invalid;
    }

    /// C + I + A + Inv: every question asked.
    pub fn total(&self) -> u64 {
        self.correct + self.incorrect + self.abstained + self.invalid
    }

    /// C / (C + I + A + Inv).
    pub fn accuracy(&self) -> Option<f64> {
        ratio(self.correct, self.total())
    }

    /// A / (C + I + A + Inv).
    pub fn abstain_rate(&self) -> Option<f64> {
        ratio(self.abstained, self.total())
    }

    /// Inv / (C + I + A + Inv).
    pub fn invalid_rate(&self) -> Option<f64> {
        ratio(self.invalid, self.total())
    }

    /// P = C / (C + I), with Inv counted in I.
    ///
    /// Luo et al. define precision as "the accuracy of non-abstained answers"; an unreadable
    /// answer did not abstain and is not correct, so it counts as incorrect (ours: the paper has
    /// no invalid class). Otherwise a model could raise its precision by answering in garbage.
    pub fn precision(&self) -> Option<f64> {
        ratio(self.correct, self.correct + self.incorrect + self.invalid)
    }

    /// R = C / (C + I + A), with Inv counted in I (see [`Counts::precision`]); this makes R equal
    /// to accuracy.
    pub fn recall(&self) -> Option<f64> {
        ratio(self.correct, self.total())
    }

    /// F1 = 2PR / (P + R); 0 when both are 0; `None` when either is undefined.
    pub fn f1(&self) -> Option<f64> {
        let (p, r) = (self.precision()?, self.recall()?);
        Some(if p + r > 0.0 {
            2.0 * p * r / (p + r)
        } else {
            0.0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Option<f64>, b: f64) {
        assert!((a.unwrap() - b).abs() < 1e-12, "{a:?} != {b}");
    }

    #[test]
    fn hand_example() {
        // C 6, I 2, A 1, Inv 1 → total 10
        // accuracy 6/10 = 0.6, abstain 1/10, invalid 1/10
        // P = 6 / (6 + 2 + 1) = 2/3, R = 6/10 = 0.6
        // F1 = 2 · (2/3) · 0.6 / (2/3 + 0.6) = 0.8 / 1.26667 = 0.631579 (= 12/19)
        let c = Counts {
            correct: 6,
            incorrect: 2,
            abstained: 1,
            invalid: 1,
        };
        assert_eq!(c.total(), 10);
        close(c.accuracy(), 0.6);
        close(c.abstain_rate(), 0.1);
        close(c.invalid_rate(), 0.1);
        close(c.precision(), 2.0 / 3.0);
        close(c.recall(), 0.6);
        close(c.f1(), 12.0 / 19.0);
    }

    #[test]
    fn luo_without_invalid() {
        // C 3, I 1, A 4: P = 3/4, R = 3/8, F1 = 2·(3/4)(3/8)/(9/8) = (9/16)/(9/8) = 0.5.
        let mut c = Counts::default();
        for o in [OutcomeKind::Correct; 3] {
            c.add(o);
        }
        c.add(OutcomeKind::Incorrect);
        for _ in 0..4 {
            c.add(OutcomeKind::Abstained);
        }
        close(c.precision(), 0.75);
        close(c.recall(), 0.375);
        close(c.f1(), 0.5);
    }

    #[test]
    fn edge_cases() {
        let empty = Counts::default();
        assert_eq!(empty.accuracy(), None);
        assert_eq!(empty.f1(), None);
        // Only abstentions: P undefined (nothing answered), R = 0.
        let abst = Counts {
            abstained: 3,
            ..Counts::default()
        };
        assert_eq!(abst.precision(), None);
        close(abst.recall(), 0.0);
        assert_eq!(abst.f1(), None);
        // All wrong: P = R = 0 → F1 = 0.
        let wrong = Counts {
            incorrect: 2,
            ..Counts::default()
        };
        close(wrong.f1(), 0.0);
        let mut m = Counts {
            correct: 1,
            ..Counts::default()
        };
        m.merge(&wrong);
        assert_eq!(m.total(), 3);
    }
}

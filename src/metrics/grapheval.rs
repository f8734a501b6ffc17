//! GraphEval's per-triple metrics (Liu et al., 2024, eq. 2).
//!
//! For a positive triple τ with negatives N(τ) and verdicts v:
//! `Metric(τ) = max(0, F(τ) − mean_{τ'∈N(τ)} F'(τ'))`, and if v(τ) = false all three metrics are
//! 0 (the paper's "max penalty": failing to recognise a real fact costs everything).
//!
//! | metric          | F(τ)              | F'(τ')          |
//! |-----------------|-------------------|-----------------|
//! | correctness     | v(τ) = true       | v(τ') ≠ false   |
//! | truthfulness    | v(τ) ∈ {true,idk} | v(τ') = true    |
//! | informativeness | v(τ) ≠ idk        | v(τ') = idk     |
//!
//! Scores are computed as exact fractions `(F·k − ΣF')⁺ / k` with k = |N(τ)|, so that sums over
//! many triples can be kept exactly and do not depend on the order triples arrive in.

use serde::{Deserialize, Serialize};

use crate::verify::Verdict;

/// `num / den`, a score in [0, 1] kept exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fraction {
    pub num: u64,
    pub den: u64,
}

impl Fraction {
    pub fn value(&self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

/// The three scores of one positive triple as exact fractions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TripleFractions {
    pub correctness: Fraction,
    pub truthfulness: Fraction,
    pub informativeness: Fraction,
}

/// The three scores of one positive triple.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TripleMetrics {
    pub correctness: f64,
    pub truthfulness: f64,
    pub informativeness: f64,
}

impl TripleFractions {
    pub fn values(&self) -> TripleMetrics {
        TripleMetrics {
            correctness: self.correctness.value(),
            truthfulness: self.truthfulness.value(),
            informativeness: self.informativeness.value(),
        }
    }
}

fn f_correct(v: Verdict) -> bool {
    v == Verdict::True
}
fn f_correct_neg(v: Verdict) -> bool {
    v != Verdict::False
}
fn f_truthful(v: Verdict) -> bool {
    matches!(v, Verdict::True | Verdict::Idk)
}
fn f_truthful_neg(v: Verdict) -> bool {
    v == Verdict::True
}
fn f_informative(v: Verdict) -> bool {
    v != Verdict::Idk
}
fn f_informative_neg(v: Verdict) -> bool {
    v == Verdict::Idk
}

/// Scores one positive triple from its verdict and the verdicts of its negatives.
///
/// Rules that are ours (the paper does not cover them):
/// - No negatives: the mean over an empty set is taken as 0, so the metric is F(τ) alone. The
///   paper always samples at least one negative; 0 means "no evidence against", not a penalty.
/// - `Invalid` positive: scored like `false` (all three 0). Taking F literally would make an
///   unreadable answer "informative" (v ≠ idk); an answer that names no verdict offers no
///   information and affirms nothing. Invalid counts are reported separately anyway.
/// - `Invalid` negative: F' is applied literally: it did not reject the negative (correctness
///   F' = 1), did not affirm it (truthfulness F' = 0), and is not `idk` (informativeness F' = 0).
pub fn triple_fractions(positive: Verdict, negatives: &[Verdict]) -> TripleFractions {
    let zero = Fraction { num: 0, den: 1 };
    if matches!(positive, Verdict::False | Verdict::Invalid) {
        return TripleFractions {
            correctness: zero,
            truthfulness: zero,
            informativeness: zero,
        };
    }
    let k = negatives.len() as u64;
    let score = |f: fn(Verdict) -> bool, f_neg: fn(Verdict) -> bool| -> Fraction {
        let hit = f(positive) as u64;
        if k == 0 {
            return Fraction { num: hit, den: 1 };
        }
        let penalty = negatives.iter().filter(|v| f_neg(**v)).count() as u64;
        Fraction {
            num: (hit * k).saturating_sub(penalty),
            den: k,
        }
    };
    TripleFractions {
        correctness: score(f_correct, f_correct_neg),
        truthfulness: score(f_truthful, f_truthful_neg),
        informativeness: score(f_informative, f_informative_neg),
    }
}

/// [`triple_fractions`] as plain numbers.
pub fn triple_metrics(positive: Verdict, negatives: &[Verdict]) -> TripleMetrics {
    triple_fractions(positive, negatives).values()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    fn m(c: f64, t: f64, i: f64) -> TripleMetrics {
        TripleMetrics {
            correctness: c,
            truthfulness: t,
            informativeness: i,
        }
    }

    #[test]
    fn all_idk_anchor() {
        // Paper Table 2 anchor: idk everywhere.
        // C: F = [idk = true] = 0, F' = [idk ≠ false] = 1 → max(0, 0 − 1) = 0
        // T: F = [idk ∈ {true, idk}] = 1, F' = [idk = true] = 0 → 1 − 0 = 1
        // I: F = [idk ≠ idk] = 0, F' = [idk = idk] = 1 → max(0, 0 − 1) = 0
        assert_eq!(triple_metrics(Idk, &[Idk]), m(0.0, 1.0, 0.0));
        assert_eq!(triple_metrics(Idk, &[Idk, Idk, Idk]), m(0.0, 1.0, 0.0));
    }

    #[test]
    fn perfect_model() {
        // True on τ, false on τ': C 1 − 0, T 1 − 0, I 1 − 0.
        assert_eq!(triple_metrics(True, &[False]), m(1.0, 1.0, 1.0));
    }

    #[test]
    fn yes_to_everything() {
        // True on τ and τ': C 1 − [true ≠ false]=1 → 0; T 1 − [true = true]=1 → 0; I 1 − 0 = 1.
        assert_eq!(triple_metrics(True, &[True]), m(0.0, 0.0, 1.0));
    }

    #[test]
    fn true_then_idk_on_negative() {
        // C: 1 − [idk ≠ false]=1 → 0; T: 1 − [idk = true]=0 → 1; I: 1 − [idk = idk]=1 → 0.
        assert_eq!(triple_metrics(True, &[Idk]), m(0.0, 1.0, 0.0));
    }

    #[test]
    fn mixed_negatives_average() {
        // negatives [false, true, idk, false], k = 4
        // C: F' = [0, 1, 1, 0] → mean 2/4 → 1 − 0.5 = 0.5
        // T: F' = [0, 1, 0, 0] → mean 1/4 → 1 − 0.25 = 0.75
        // I: F' = [0, 0, 1, 0] → mean 1/4 → 1 − 0.25 = 0.75
        let f = triple_fractions(True, &[False, True, Idk, False]);
        assert_eq!(f.correctness, Fraction { num: 2, den: 4 });
        assert_eq!(f.values(), m(0.5, 0.75, 0.75));
    }

    #[test]
    fn idk_on_positive_with_negatives() {
        // τ idk, τ' [false, true]: C max(0, 0 − 1/2) = 0; T 1 − 1/2 = 0.5; I max(0, 0 − 0) = 0.
        assert_eq!(triple_metrics(Idk, &[False, True]), m(0.0, 0.5, 0.0));
    }

    #[test]
    fn false_positive_is_max_penalty() {
        // v(τ) = false → all 0 whatever the negatives.
        assert_eq!(triple_metrics(False, &[False]), m(0.0, 0.0, 0.0));
        assert_eq!(triple_metrics(False, &[]), m(0.0, 0.0, 0.0));
    }

    #[test]
    fn no_negatives_means_f_alone() {
        // mean over ∅ := 0 (ours) → Metric = F(τ).
        assert_eq!(triple_metrics(True, &[]), m(1.0, 1.0, 1.0));
        assert_eq!(triple_metrics(Idk, &[]), m(0.0, 1.0, 0.0));
    }

    #[test]
    fn invalid_rules() {
        // Invalid positive scores like false (ours).
        assert_eq!(triple_metrics(Invalid, &[False]), m(0.0, 0.0, 0.0));
        // Invalid negative: C 1 − [inv ≠ false]=1 → 0; T 1 − [inv = true]=0 → 1; I 1 − [inv = idk]=0 → 1.
        assert_eq!(triple_metrics(True, &[Invalid]), m(0.0, 1.0, 1.0));
    }
}

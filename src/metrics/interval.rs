//! Confidence intervals for rates: every rate kgscope shows carries one.

use serde::{Deserialize, Serialize};

/// Normal quantile for a two-sided 95% interval.
pub const Z95: f64 = 1.96;

/// Wilson score interval at 95% for `successes` out of `n`.
///
/// Wilson rather than the normal (Wald) interval because rates near 0 or 1 on small groups are
/// common here (a relation with 3 questions, all wrong), where Wald collapses to a zero-width
/// interval. Takes `f64` so it can also be applied to sums of per-item scores in [0, 1] (see
/// `aggregate`). `n = 0` (no data) gives the uninformative (0, 1); `successes` is clamped to
/// `[0, n]`.
pub fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n.is_nan() || n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// A rate with its Wilson 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rate {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Rate {
    /// `successes / n` with its interval; `None` when `n` is 0, because a rate of nothing is
    /// not 0 and must not be drawn as one.
    pub fn new(successes: f64, n: f64) -> Option<Rate> {
        if n.is_nan() || n <= 0.0 {
            return None;
        }
        let (lo, hi) = wilson(successes, n);
        Some(Rate {
            value: successes / n,
            lo,
            hi,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) {
        assert!(
            (a.0 - b.0).abs() < 5e-5 && (a.1 - b.1).abs() < 5e-5,
            "{a:?} != {b:?}"
        );
    }

    #[test]
    fn known_values() {
        // 8/10: p = 0.8, z² = 3.8416, denom = 1 + 3.8416/10 = 1.38416,
        // centre = (0.8 + 3.8416/20) / 1.38416 = 0.99208 / 1.38416 = 0.71674,
        // half = 1.96 · sqrt(0.16/10 + 3.8416/400) / 1.38416 = 1.96 · 0.160012 / 1.38416 = 0.22658
        // → (0.49016, 0.94332).
        close(wilson(8.0, 10.0), (0.4902, 0.9433));
        // 0/10: centre = half = 0.19208 / 1.38416 = 0.13877 → (0, 0.27754).
        close(wilson(0.0, 10.0), (0.0, 0.2775));
        close(wilson(10.0, 10.0), (0.7225, 1.0));
        // 5/10: centre 0.5, half = 1.96 · sqrt(0.025 + 0.009604) / 1.38416 = 0.26340.
        close(wilson(5.0, 10.0), (0.2366, 0.7634));
        // 1/1: denom = 4.8416, centre = 2.9208/4.8416 = 0.60327, half = 1.96·0.98/4.8416 = 0.39673.
        close(wilson(1.0, 1.0), (0.2065, 1.0));
    }

    #[test]
    fn empty_is_uninformative() {
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
        assert_eq!(Rate::new(0.0, 0.0), None);
    }

    #[test]
    fn rate_carries_value_and_interval() {
        let r = Rate::new(8.0, 10.0).unwrap();
        assert_eq!(r.value, 0.8);
        close((r.lo, r.hi), (0.4902, 0.9433));
    }
}

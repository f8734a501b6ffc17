//! Statistics of paired correct / incorrect outcomes: two runs' answers to the same
//! questions. McNemar's test for "do the two runs differ?", and Newcombe's interval for the
//! difference of their accuracies.

use serde::Serialize;

use crate::metrics::interval::wilson;

/// Two runs' outcomes on the same questions: a 2×2 table of right / not right.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Table {
    /// Right in both runs.
    pub both: u64,
    /// Right in the baseline (A) only.
    pub only_a: u64,
    /// Right in the other run (B) only.
    pub only_b: u64,
    /// Right in neither.
    pub neither: u64,
}

impl Table {
    pub fn add(&mut self, a: bool, b: bool) {
        match (a, b) {
            (true, true) => self.both += 1,
            (true, false) => self.only_a += 1,
            (false, true) => self.only_b += 1,
            (false, false) => self.neither += 1,
        }
    }
    pub fn n(&self) -> u64 {
        self.both + self.only_a + self.only_b + self.neither
    }
    pub fn accuracy_a(&self) -> f64 {
        (self.both + self.only_a) as f64 / self.n().max(1) as f64
    }
    pub fn accuracy_b(&self) -> f64 {
        (self.both + self.only_b) as f64 / self.n().max(1) as f64
    }
}

/// Which form of McNemar's test gave the p-value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum McNemarForm {
    /// Exact: the discordant pairs as Binomial(b + c, 1/2), two-sided. Used when b + c < 25,
    /// where the χ² approximation is poor.
    ExactBinomial,
    /// χ² = (|b − c| − 1)² / (b + c) with Edwards' continuity correction, 1 degree of freedom.
    ChiSquaredCorrected,
    /// No discordant pairs: the runs agree on every question; nothing to test (p = 1).
    NoDiscordantPairs,
}

impl McNemarForm {
    pub fn describe(self) -> &'static str {
        match self {
            McNemarForm::ExactBinomial => "McNemar exact (binomial)",
            McNemarForm::ChiSquaredCorrected => "McNemar χ² (continuity-corrected)",
            McNemarForm::NoDiscordantPairs => "McNemar: no discordant pairs",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct McNemar {
    pub form: McNemarForm,
    /// The χ² statistic with continuity correction (reported for either form).
    pub chi2: f64,
    /// Two-sided p-value of the form used.
    pub p: f64,
}

/// Discordant pairs below this use the exact test.
pub const EXACT_BELOW: u64 = 25;

/// McNemar's test on the discordant pairs of `t`.
pub fn mcnemar(t: &Table) -> McNemar {
    let (b, c) = (t.only_a, t.only_b);
    let m = b + c;
    if m == 0 {
        return McNemar {
            form: McNemarForm::NoDiscordantPairs,
            chi2: 0.0,
            p: 1.0,
        };
    }
    let diff = (b as f64 - c as f64).abs();
    let chi2 = (diff - 1.0).max(0.0).powi(2) / m as f64;
    if m < EXACT_BELOW {
        McNemar {
            form: McNemarForm::ExactBinomial,
            chi2,
            p: binomial_two_sided(b.min(c), m),
        }
    } else {
        McNemar {
            form: McNemarForm::ChiSquaredCorrected,
            chi2,
            p: chi2_1df_upper(chi2),
        }
    }
}

/// P(X ≤ k or X ≥ m − k) for X ~ Binomial(m, 1/2), k ≤ m/2: twice the lower tail, at most 1.
fn binomial_two_sided(k: u64, m: u64) -> f64 {
    // Terms C(m, i) / 2^m built up in log space, exact enough for any m here.
    let ln_half_m = m as f64 * 0.5f64.ln();
    let mut ln_c = 0.0; // ln C(m, 0)
    let mut tail = 0.0;
    for i in 0..=k {
        if i > 0 {
            ln_c += ((m - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (ln_c + ln_half_m).exp();
    }
    (2.0 * tail).min(1.0)
}

/// Upper tail of χ² with one degree of freedom: P(X > x) = erfc(√(x / 2)).
fn chi2_1df_upper(x: f64) -> f64 {
    erfc((x / 2.0).sqrt())
}

/// Complementary error function (Numerical Recipes' erfcc: fractional error below 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Accuracy of B minus accuracy of A on the same questions, with its 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Difference {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Newcombe's (1998) method 10 for the difference of paired proportions: Wilson intervals of
/// both accuracies combined through the correlation of the paired outcomes. Unlike the Wald
/// interval it stays inside [−1, 1] and does not collapse when a run is all right or all
/// wrong. `None` for no questions.
pub fn difference(t: &Table) -> Option<Difference> {
    let n = t.n();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    // Newcombe's θ = p1 − p2 with p1 the run B, p2 the baseline A.
    let (p1, p2) = (t.accuracy_b(), t.accuracy_a());
    let (l1, u1) = wilson((t.both + t.only_b) as f64, nf);
    let (l2, u2) = wilson((t.both + t.only_a) as f64, nf);
    // 2×2 table of B (rows) against A (columns): a = both, b = B only, c = A only, d = neither.
    let (a, b, c, d) = (
        t.both as f64,
        t.only_b as f64,
        t.only_a as f64,
        t.neither as f64,
    );
    let margins = (a + b) * (c + d) * (a + c) * (b + d);
    let phi = if margins == 0.0 {
        0.0
    } else {
        let ad_bc = a * d - b * c;
        // Newcombe's continuity correction of the correlation's numerator.
        let num = if ad_bc > nf / 2.0 {
            ad_bc - nf / 2.0
        } else if ad_bc < 0.0 {
            ad_bc
        } else {
            0.0
        };
        num / margins.sqrt()
    };
    let theta = p1 - p2;
    let delta = ((p1 - l1).powi(2) - 2.0 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2).powi(2))
        .max(0.0)
        .sqrt();
    let eps = ((u1 - p1).powi(2) - 2.0 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2).powi(2))
        .max(0.0)
        .sqrt();
    // Rounding leaves bounds such as −1e-17 where the exact value is 0: shown as "-0.000".
    let snap = |x: f64| if x.abs() < 1e-12 { 0.0 } else { x };
    Some(Difference {
        value: snap(theta),
        lo: snap((theta - delta).max(-1.0)),
        hi: snap((theta + eps).min(1.0)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(both: u64, only_a: u64, only_b: u64, neither: u64) -> Table {
        Table {
            both,
            only_a,
            only_b,
            neither,
        }
    }

    /// b = 6, c = 1: exact p = 2 · (C(7,0) + C(7,1)) / 2^7 = 2 · 8 / 128 = 0.125;
    /// χ² = (|6 − 1| − 1)² / 7 = 16/7 ≈ 2.2857.
    #[test]
    fn mcnemar_exact_by_hand() {
        let m = mcnemar(&table(10, 6, 1, 3));
        assert_eq!(m.form, McNemarForm::ExactBinomial);
        assert!((m.p - 0.125).abs() < 1e-12, "{}", m.p);
        assert!((m.chi2 - 16.0 / 7.0).abs() < 1e-12, "{}", m.chi2);
        // Symmetric in b and c.
        assert_eq!(mcnemar(&table(10, 1, 6, 3)).p, m.p);
    }

    /// b = 30, c = 10: χ² = (20 − 1)² / 40 = 9.025; P(χ²₁ > 9.025) = 0.002663 (tables).
    #[test]
    fn mcnemar_chi_squared_by_hand() {
        let m = mcnemar(&table(50, 30, 10, 10));
        assert_eq!(m.form, McNemarForm::ChiSquaredCorrected);
        assert!((m.chi2 - 9.025).abs() < 1e-12);
        assert!((m.p - 0.002663).abs() < 2e-6, "{}", m.p);
        // χ² = 3.841 is the 5% point.
        assert!((chi2_1df_upper(3.841_459) - 0.05).abs() < 1e-6);
    }

    #[test]
    fn no_discordant_pairs_is_no_evidence() {
        let m = mcnemar(&table(5, 0, 0, 5));
        assert_eq!((m.form, m.p), (McNemarForm::NoDiscordantPairs, 1.0));
        // All discordant the same way, b + c = 5: p = 2 / 32.
        assert!((mcnemar(&table(0, 5, 0, 0)).p - 0.0625).abs() < 1e-12);
    }

    /// Bentur et al. (2009)'s paired table (1, 1 / 7, 12), the worked example of Fagerland,
    /// Lydersen and Laake for paired proportions: the square-and-add interval of the
    /// difference 2/21 − 8/21 is −0.507 … −0.026 (also recomputed independently in Python
    /// from Newcombe's formulas: −0.50692 … −0.02555).
    #[test]
    fn newcombe_interval_of_a_worked_example() {
        let d = difference(&table(1, 7, 1, 12)).unwrap();
        assert!((d.value + 6.0 / 21.0).abs() < 1e-12);
        assert!((d.lo + 0.50692).abs() < 1e-4, "{}", d.lo);
        assert!((d.hi + 0.02555).abs() < 1e-4, "{}", d.hi);
        // A second table, both runs often right: the interval holds the estimate.
        let d = difference(&table(12, 2, 9, 4)).unwrap();
        assert!((d.lo - 0.01922).abs() < 1e-4 && (d.hi - 0.46147).abs() < 1e-4);
        assert!(difference(&Table::default()).is_none());
    }
}

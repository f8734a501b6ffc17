//! Reliability of a model's confidence: binned confidence against accuracy, and the expected
//! calibration error (ECE, Guo et al. 2017): Σ_b (n_b / N) · |accuracy_b − confidence_b|.
//!
//! kgscope's probability of an answer is the model's own when the answer was chosen by
//! likelihood (`--scoring logprob`: the chosen option's probability among the options), else
//! its self-consistency: with several attempts per question (`--repeats N` at a temperature
//! above 0), the share of attempts that gave the majority's verdict. A generated run with one
//! attempt per question has no probabilities, and no reliability diagram
//! (`report::calibration::confidence`).

use serde::Serialize;

use super::interval::Rate;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bin {
    /// The bin's confidence range, `[lo, hi)` (the last bin includes 1).
    pub lo: f64,
    pub hi: f64,
    pub n: u64,
    /// Mean confidence of the bin's answers.
    pub confidence: f64,
    pub accuracy: Rate,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Calibration {
    /// Non-empty bins, in order of confidence.
    pub bins: Vec<Bin>,
    pub n: u64,
    pub ece: f64,
}

/// The reliability of `(confidence, correct)` pairs in `bins` equal-width bins; `None` for
/// no pairs.
pub fn of(items: impl IntoIterator<Item = (f64, bool)>, bins: usize) -> Option<Calibration> {
    let bins = bins.max(1);
    // (n, sum of confidence, correct) per bin.
    let mut acc = vec![(0u64, 0f64, 0u64); bins];
    for (c, ok) in items {
        let c = c.clamp(0.0, 1.0);
        let b = ((c * bins as f64) as usize).min(bins - 1);
        acc[b].0 += 1;
        acc[b].1 += c;
        acc[b].2 += ok as u64;
    }
    let n: u64 = acc.iter().map(|a| a.0).sum();
    if n == 0 {
        return None;
    }
    let width = 1.0 / bins as f64;
    let mut ece = 0.0;
    let mut out = vec![];
    for (i, (k, sum, correct)) in acc.into_iter().enumerate() {
        let Some(accuracy) = Rate::new(correct as f64, k as f64) else {
            continue;
        };
        let confidence = sum / k as f64;
        ece += k as f64 / n as f64 * (accuracy.value - confidence).abs();
        out.push(Bin {
            lo: i as f64 * width,
            hi: (i + 1) as f64 * width,
            n: k,
            confidence,
            accuracy,
        });
    }
    Some(Calibration { bins: out, n, ece })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ece_by_hand() {
        // Bin [0.6, 0.7): 3 answers at 2/3, 1 right → |1/3 − 2/3| = 1/3, weight 3/5.
        // Bin [0.9, 1]: 2 answers at 1.0, 2 right → 0, weight 2/5.
        let c = of(
            [
                (2.0 / 3.0, true),
                (2.0 / 3.0, false),
                (2.0 / 3.0, false),
                (1.0, true),
                (1.0, true),
            ],
            10,
        )
        .unwrap();
        assert_eq!(c.n, 5);
        assert_eq!(c.bins.len(), 2);
        assert_eq!((c.bins[0].n, c.bins[1].n), (3, 2));
        assert!(
            (c.bins[1].lo - 0.9).abs() < 1e-12,
            "1.0 falls in the last bin"
        );
        assert!((c.ece - 0.2).abs() < 1e-12, "{}", c.ece);
        assert!(of([], 10).is_none());
    }
}

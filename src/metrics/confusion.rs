//! Scores of a 3×3 confusion matrix over [`JudgeClass`]es (rows: the truth, columns: what a
//! classifier or verifier said): per-class precision, recall and F1, accuracy, Cohen's kappa,
//! macro and weighted F1. The trained judge's held-out scores and each verifier's agreement
//! with hand labels are both read this way.

use serde::Serialize;

use super::agreement::cohen_kappa;
use crate::core::verdict::JudgeClass;

/// `matrix[truth][said]`, both in [`JudgeClass::ALL`] order.
pub type Matrix = [[usize; 3]; 3];

/// One class's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassScore {
    pub class: JudgeClass,
    /// Items truly in the class.
    pub support: usize,
    /// Items put in the class.
    pub predicted: usize,
    /// `None` when nothing was put in the class.
    pub precision: Option<f64>,
    /// `None` when nothing is truly in the class.
    pub recall: Option<f64>,
    /// 2·tp / (support + predicted): 0 when neither found it in the other, `None` when the
    /// class occurs on neither side.
    pub f1: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Scores {
    pub n: usize,
    /// The share on the diagonal; `None` for an empty matrix.
    pub accuracy: Option<f64>,
    /// `None` when undefined (no items, or both sides used one class only).
    pub kappa: Option<f64>,
    /// In [`JudgeClass::ALL`] order.
    pub classes: Vec<ClassScore>,
    /// The mean F1 of the classes that occur on either side.
    pub macro_f1: Option<f64>,
    /// F1 weighted by support (what the GraphEval paper reports).
    pub weighted_f1: Option<f64>,
}

impl Scores {
    pub fn of(m: &Matrix) -> Scores {
        let n: usize = m.iter().flatten().sum();
        let diagonal: usize = (0..3).map(|i| m[i][i]).sum();
        let mut pairs = Vec::with_capacity(n);
        for (t, row) in m.iter().enumerate() {
            for (s, &k) in row.iter().enumerate() {
                pairs.extend(std::iter::repeat_n((t, s), k));
            }
        }
        let classes: Vec<ClassScore> = JudgeClass::ALL
            .iter()
            .map(|&c| {
                let i = c.index();
                let tp = m[i][i];
                let support: usize = m[i].iter().sum();
                let predicted: usize = m.iter().map(|row| row[i]).sum();
                let share = |d: usize| (d > 0).then(|| tp as f64 / d as f64);
                ClassScore {
                    class: c,
                    support,
                    predicted,
                    precision: share(predicted),
                    recall: share(support),
                    f1: (support + predicted > 0)
                        .then(|| 2.0 * tp as f64 / (support + predicted) as f64),
                }
            })
            .collect();
        let f1s: Vec<f64> = classes.iter().filter_map(|c| c.f1).collect();
        let weighted = classes
            .iter()
            .map(|c| c.f1.unwrap_or(0.0) * c.support as f64)
            .sum::<f64>();
        Scores {
            n,
            accuracy: (n > 0).then(|| diagonal as f64 / n as f64),
            kappa: cohen_kappa(&pairs),
            macro_f1: (!f1s.is_empty()).then(|| f1s.iter().sum::<f64>() / f1s.len() as f64),
            weighted_f1: (n > 0).then(|| weighted / n as f64),
            classes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_of_a_hand_worked_matrix() {
        // truth correct: 8 said correct, 2 incorrect; truth incorrect: 1 correct, 4
        // incorrect, 1 idk; truth idk: 4 idk. n = 20, diagonal 16.
        let m = [[8, 2, 0], [1, 4, 1], [0, 0, 4]];
        let s = Scores::of(&m);
        assert_eq!(s.n, 20);
        assert!((s.accuracy.unwrap() - 0.8).abs() < 1e-12);
        // correct: P 8/9, R 8/10, F1 16/19.
        let c = &s.classes[0];
        assert_eq!((c.support, c.predicted), (10, 9));
        assert!((c.f1.unwrap() - 16.0 / 19.0).abs() < 1e-12);
        // p_e = (10·9 + 6·6 + 4·5) / 400 = 146/400; kappa = (0.8 − 0.365) / 0.635.
        assert!((s.kappa.unwrap() - 0.435 / 0.635).abs() < 1e-12);
        // weighted F1 = (10·16/19 + 6·8/12 + 4·8/9) / 20.
        let w = (10.0 * 16.0 / 19.0 + 6.0 * 8.0 / 12.0 + 4.0 * 8.0 / 9.0) / 20.0;
        assert!((s.weighted_f1.unwrap() - w).abs() < 1e-12);
        assert_eq!(Scores::of(&[[0; 3]; 3]).accuracy, None);
    }
}

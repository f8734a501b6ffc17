//! Question difficulty and the weighted accuracy of KGHaluBench (§3.1.3–3.1.5, §4.3.1). The
//! text copy of the paper lost its formula (1), so kgscope defines its own, in the paper's
//! spirit (item response theory: a logistic curve of ability against difficulty), and the
//! README states it:
//!
//! - **Popularity** P: the mean of the log-transformed popularity statistics the KG carries
//!   ([`Popularity`]), min-max normalised over the candidate entities to P̂ ∈ [0, 1].
//! - **Complexity** C: the sum of the three asked relations' hardness weights, each in [0, 1]
//!   (per entity type, 1 − the min-max normalised mean score of the relation in this KG's
//!   recorded runs; 0.5 when there are none), so C ∈ [0, 3]. A breadth hallucination is about
//!   the entity, not its relations: its C is 3 × the type's mean relation weight (the paper's
//!   rule).
//! - **Difficulty** D = 1 / (1 + e^(−k · ((C − C̄) / 3 − (P̂ − ½)))), C̄ the mean complexity of
//!   the candidates: ½ for a question of average complexity about an entity of middling
//!   popularity, towards 1 for a complex question about an obscure entity. k = 6 by default:
//!   from the least popular and most complex question to the opposite, D spans 0.05 to 0.95.
//! - **Weighted accuracy** A_w = A × D / D̄ (`crate::metrics::halu::weighted_accuracy`): D
//!   the mean difficulty of this assessment, D̄ the mean over assessments of the same size
//!   drawn the same way (100 more draws estimate it), so that an assessment that drew harder
//!   questions is not scored lower for it, and A_w ≈ A on average.

/// The logistic's steepness when the user does not say.
pub const DEFAULT_STEEPNESS: f64 = 6.0;

/// The popularity statistics an entity has in the KG. The paper also uses page views, page
/// length and references, which a KG rarely carries; a statistic the KG does not have at all
/// is `None` and left out for every entity alike.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Popularity {
    /// Neighbours in the KG (distinct entities linked either way).
    pub linked_entities: Option<u64>,
    /// Relation–fact pairs about it.
    pub statements: Option<u64>,
    /// External identifiers (facts whose object is an identifier literal).
    pub identifiers: Option<u64>,
    /// Sitelinks, where the KG records them (Wikidata's `wikibase:sitelinks`).
    pub sitelinks: Option<u64>,
}

impl Popularity {
    /// The mean of ln(1 + n) over the statistics present; `None` when there are none.
    pub fn score(&self) -> Option<f64> {
        let present: Vec<f64> = [
            self.linked_entities,
            self.statements,
            self.identifiers,
            self.sitelinks,
        ]
        .into_iter()
        .flatten()
        .map(|n| (n as f64).ln_1p())
        .collect();
        (!present.is_empty()).then(|| present.iter().sum::<f64>() / present.len() as f64)
    }
}

/// Min-max normalisation of `scores` to [0, 1]; all ½ when they are all equal.
pub fn min_max(scores: &[f64]) -> Vec<f64> {
    let lo = scores.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    scores
        .iter()
        .map(|s| if hi > lo { (s - lo) / (hi - lo) } else { 0.5 })
        .collect()
}

/// A question's difficulty from its entity's normalised popularity `p` ∈ [0, 1], its
/// complexity `c` ∈ [0, 3], the candidates' mean complexity `mean_c` and the steepness `k`.
pub fn difficulty(p: f64, c: f64, mean_c: f64, k: f64) -> f64 {
    let z = (c - mean_c) / 3.0 - (p.clamp(0.0, 1.0) - 0.5);
    1.0 / (1.0 + (-k * z).exp())
}

/// The complexity of a question whose answer was a breadth hallucination: 3 × the mean of the
/// entity type's relation weights.
pub fn breadth_complexity(type_weights: &[f64]) -> f64 {
    if type_weights.is_empty() {
        return 1.5;
    }
    3.0 * type_weights.iter().sum::<f64>() / type_weights.len() as f64
}

/// Per-relation hardness weights of one entity type from the mean score each relation got
/// (points per fact, in [0, 1]): 1 − the min-max normalised mean, so the relation answered
/// worst weighs 1. Relations never scored get the middle weight ½.
pub fn relation_weights(mean_scores: &[Option<f64>]) -> Vec<f64> {
    let known: Vec<f64> = mean_scores.iter().flatten().copied().collect();
    let normalised = min_max(&known);
    let mut it = normalised.into_iter();
    mean_scores
        .iter()
        .map(|s| match s {
            Some(_) => 1.0 - it.next().unwrap_or(0.5),
            None => 0.5,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_popular_is_easier_more_complex_is_harder() {
        let k = DEFAULT_STEEPNESS;
        for c in [0.0, 0.7, 1.5, 2.2, 3.0] {
            let mut last = f64::INFINITY;
            for p in [0.0, 0.1, 0.3, 0.5, 0.8, 1.0] {
                let d = difficulty(p, c, 1.5, k);
                assert!(d < last, "popularity {p} at complexity {c}: {d} ≥ {last}");
                assert!((0.0..=1.0).contains(&d));
                last = d;
            }
        }
        for p in [0.0, 0.4, 1.0] {
            let mut last = f64::NEG_INFINITY;
            for c in [0.0, 0.5, 1.5, 2.5, 3.0] {
                let d = difficulty(p, c, 1.5, k);
                assert!(d > last, "complexity {c} at popularity {p}");
                last = d;
            }
        }
        // The middle of the curve, and its ends as the module says.
        assert!((difficulty(0.5, 1.5, 1.5, k) - 0.5).abs() < 1e-12);
        assert!(difficulty(0.0, 3.0, 1.5, k) > 0.95);
        assert!(difficulty(1.0, 0.0, 1.5, k) < 0.05);
        // A steeper curve spreads the same questions further apart.
        assert!(difficulty(0.2, 2.0, 1.5, 12.0) > difficulty(0.2, 2.0, 1.5, k));
    }

    #[test]
    fn popularity_is_a_mean_of_logs_over_what_the_kg_has() {
        let p = Popularity {
            linked_entities: Some(0),
            statements: Some((std::f64::consts::E - 1.0).round() as u64),
            ..Default::default()
        };
        // ln(1) = 0 and ln(1 + 2) over two statistics.
        assert!((p.score().unwrap() - 3f64.ln() / 2.0).abs() < 1e-12);
        assert_eq!(Popularity::default().score(), None);
        let n = min_max(&[2.0, 4.0, 3.0]);
        assert_eq!(n, vec![0.0, 1.0, 0.5]);
        assert_eq!(min_max(&[7.0, 7.0]), vec![0.5, 0.5]);
    }

    #[test]
    fn weights_and_the_breadth_rule() {
        // The relation answered best weighs 0, the worst 1, the unscored ½.
        let w = relation_weights(&[Some(0.9), Some(0.1), None, Some(0.5)]);
        assert_eq!(w, vec![0.0, 1.0, 0.5, 0.5]);
        assert!((breadth_complexity(&[0.2, 0.4, 0.9]) - 1.5).abs() < 1e-12);
        assert_eq!(breadth_complexity(&[]), 1.5);
        // A_w = A × D / D̄.
    }
}

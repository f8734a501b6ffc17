//! Agreement between annotators beyond chance: Cohen's kappa for two, Fleiss' kappa for more.
//! Kappa is 1 for perfect agreement, 0 for what chance alone gives, negative below it.

use std::collections::HashMap;
use std::hash::Hash;

/// Cohen's kappa of two annotators who judged the same items, one `(first, second)` pair per
/// item: (p_o − p_e) / (1 − p_e), with p_e from each annotator's own category shares. `None`
/// with no items, or when chance agreement is already certain (both used one and the same
/// category throughout), where kappa is undefined.
pub fn cohen_kappa<C: Eq + Hash>(pairs: &[(C, C)]) -> Option<f64> {
    if pairs.is_empty() {
        return None;
    }
    let n = pairs.len() as f64;
    let agree = pairs.iter().filter(|(a, b)| a == b).count() as f64;
    let mut first: HashMap<&C, f64> = HashMap::new();
    let mut second: HashMap<&C, f64> = HashMap::new();
    for (a, b) in pairs {
        *first.entry(a).or_default() += 1.0;
        *second.entry(b).or_default() += 1.0;
    }
    let p_o = agree / n;
    let p_e: f64 = first
        .iter()
        .map(|(c, k)| k / n * second.get(c).copied().unwrap_or(0.0) / n)
        .sum();
    kappa(p_o, p_e)
}

/// Fleiss' kappa: `counts[i][j]` is how many annotators put item `i` in category `j`. Every
/// item must be judged by the same number of annotators, at least two. `None` with no items,
/// unequal or too few annotators per item, or when chance agreement is certain.
pub fn fleiss_kappa(counts: &[Vec<usize>]) -> Option<f64> {
    let raters = counts.first()?.iter().sum::<usize>();
    if raters < 2 || counts.iter().any(|row| row.iter().sum::<usize>() != raters) {
        return None;
    }
    let items = counts.len() as f64;
    let n = raters as f64;
    let categories = counts.iter().map(Vec::len).max().unwrap_or(0);
    // P_i: the share of annotator pairs that agree on item i; P̄ its mean.
    let p_bar = counts
        .iter()
        .map(|row| {
            let sq: f64 = row.iter().map(|&c| (c * c) as f64).sum();
            (sq - n) / (n * (n - 1.0))
        })
        .sum::<f64>()
        / items;
    // p_j: the share of all judgements in category j; P̄_e = Σ p_j².
    let p_e = (0..categories)
        .map(|j| {
            let total: usize = counts
                .iter()
                .map(|row| row.get(j).copied().unwrap_or(0))
                .sum();
            let p = total as f64 / (items * n);
            p * p
        })
        .sum::<f64>();
    kappa(p_bar, p_e)
}

fn kappa(observed: f64, chance: f64) -> Option<f64> {
    // Floating sums of shares can land a hair off 1.
    if (1.0 - chance).abs() < 1e-12 {
        return None;
    }
    Some((observed - chance) / (1.0 - chance))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() < tol, "{a} is not {b}");
    }

    #[test]
    fn cohen_matches_the_textbook_yes_no_example() {
        // Wikipedia, "Cohen's kappa", simple example: 50 proposals, A and B say yes to 20
        // together, no to 15 together, A yes / B no 5, A no / B yes 10. p_o = 0.7, p_e = 0.5.
        let mut pairs = Vec::new();
        pairs.extend(std::iter::repeat_n(("yes", "yes"), 20));
        pairs.extend(std::iter::repeat_n(("yes", "no"), 5));
        pairs.extend(std::iter::repeat_n(("no", "yes"), 10));
        pairs.extend(std::iter::repeat_n(("no", "no"), 15));
        close(cohen_kappa(&pairs).unwrap(), 0.4, 1e-12);
    }

    #[test]
    fn cohen_is_one_for_agreement_and_undefined_for_a_single_category() {
        let same = [("a", "a"), ("b", "b"), ("c", "c")];
        close(cohen_kappa(&same).unwrap(), 1.0, 1e-12);
        // Systematic disagreement on two balanced categories: p_o = 0, p_e = 0.5.
        let opposite = [("a", "b"), ("b", "a")];
        close(cohen_kappa(&opposite).unwrap(), -1.0, 1e-12);
        assert_eq!(cohen_kappa(&[("a", "a"), ("a", "a")]), None);
        assert_eq!(cohen_kappa::<&str>(&[]), None);
    }

    #[test]
    fn fleiss_matches_the_textbook_fourteen_raters_example() {
        // Fleiss (1971) as worked in Wikipedia's "Fleiss' kappa": 10 items, 14 raters, 5
        // categories. P̄ = 0.378, P̄_e = 0.213, kappa = 0.210.
        let counts = vec![
            vec![0, 0, 0, 0, 14],
            vec![0, 2, 6, 4, 2],
            vec![0, 0, 3, 5, 6],
            vec![0, 3, 9, 2, 0],
            vec![2, 2, 8, 1, 1],
            vec![7, 7, 0, 0, 0],
            vec![3, 2, 6, 3, 0],
            vec![2, 5, 3, 2, 2],
            vec![6, 5, 2, 1, 0],
            vec![0, 2, 2, 3, 7],
        ];
        close(fleiss_kappa(&counts).unwrap(), 0.20993, 1e-4);
    }

    #[test]
    fn fleiss_agrees_with_perfect_agreement_and_rejects_uneven_items() {
        close(
            fleiss_kappa(&[vec![3, 0], vec![0, 3], vec![3, 0]]).unwrap(),
            1.0,
            1e-12,
        );
        assert_eq!(
            fleiss_kappa(&[vec![3, 0], vec![1, 1]]),
            None,
            "3 vs 2 raters"
        );
        assert_eq!(fleiss_kappa(&[vec![1, 0]]), None, "one rater");
        assert_eq!(
            fleiss_kappa(&[vec![2, 0], vec![2, 0]]),
            None,
            "one category"
        );
        assert_eq!(fleiss_kappa(&[]), None);
    }
}

//! Agreement between annotators: the raw share of items they agree on, and agreement beyond
//! chance: Cohen's kappa for two, Fleiss' kappa for more, and Gwet's AC1 for any number.
//! Kappa is 1 for perfect agreement, 0 for what chance alone gives, negative below it.
//!
//! Kappa reads as no agreement when one category dominates (its "prevalence paradox"): two
//! annotators who both say "right" to 4 of 5 answers and differ on the fifth agree on 80%,
//! yet chance agreement from their own shares is 80% too, and kappa is 0. AC1 takes chance
//! agreement from how far the categories' shares are from uniform, and stays near the raw
//! agreement there; shown side by side, the three cannot mislead.

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

/// The share of items on which every annotator gave the same category: `counts[i][j]` is how
/// many annotators put item `i` in category `j`. Returns `(agreeing items, items)`.
pub fn raw_agreement(counts: &[Vec<usize>]) -> (usize, usize) {
    let agree = counts
        .iter()
        .filter(|row| row.iter().filter(|&&c| c > 0).count() == 1)
        .count();
    (agree, counts.len())
}

/// Gwet's AC1 (Gwet, 2008, "Computing inter-rater reliability and its variance in the presence
/// of high agreement"): `counts[i][j]` is how many annotators put item `i` in category `j`, a
/// row as long as the scale has categories (Q, unused ones included: chance agreement depends
/// on how many a rater could pick). Every item must have at least two annotators.
///
/// p_a = mean over items of Σ_j r_ij (r_ij − 1) / (r_i (r_i − 1)), the share of agreeing
/// annotator pairs; π_j = mean over items of r_ij / r_i; p_e = Σ_j π_j (1 − π_j) / (Q − 1);
/// AC1 = (p_a − p_e) / (1 − p_e). With two annotators p_a is the raw agreement. `None` with no
/// items, fewer than two categories, or an item with fewer than two annotators.
pub fn gwet_ac1(counts: &[Vec<usize>]) -> Option<f64> {
    let q = counts.iter().map(Vec::len).max()?;
    if q < 2 {
        return None;
    }
    let items = counts.len() as f64;
    let mut p_a = 0.0;
    let mut pi = vec![0.0; q];
    for row in counts {
        let r = row.iter().sum::<usize>() as f64;
        if r < 2.0 {
            return None;
        }
        p_a += row
            .iter()
            .map(|&c| c as f64 * (c as f64 - 1.0))
            .sum::<f64>()
            / (r * (r - 1.0));
        for (j, &c) in row.iter().enumerate() {
            pi[j] += c as f64 / r;
        }
    }
    p_a /= items;
    let p_e = pi
        .iter()
        .map(|p| {
            let p = p / items;
            p * (1.0 - p)
        })
        .sum::<f64>()
        / (q as f64 - 1.0);
    kappa(p_a, p_e)
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
    fn four_of_five_agreeing_reads_as_80_percent_and_ac1_not_as_kappa_zero() {
        // The case of issue 38: two annotators, five answers; both say "right" to four, and
        // to the fifth A says "right", B "wrong". Scale: right, wrong (Q = 2).
        // Raw agreement: 4 of 5 = 0.8.
        // Cohen: A right 5/5, B right 4/5 wrong 1/5: p_e = 1 · 0.8 + 0 · 0.2 = 0.8, so
        //   kappa = (0.8 − 0.8) / (1 − 0.8) = 0.
        // AC1: π_right = (5 + 4) / 10 = 0.9, π_wrong = 0.1;
        //   p_e = (0.9 · 0.1 + 0.1 · 0.9) / (2 − 1) = 0.18;
        //   AC1 = (0.8 − 0.18) / (1 − 0.18) = 0.62 / 0.82 = 0.756097…
        let mut pairs = vec![("right", "right"); 4];
        pairs.push(("right", "wrong"));
        close(cohen_kappa(&pairs).unwrap(), 0.0, 1e-12);
        let counts = vec![vec![2, 0], vec![2, 0], vec![2, 0], vec![2, 0], vec![1, 1]];
        assert_eq!(raw_agreement(&counts), (4, 5));
        close(gwet_ac1(&counts).unwrap(), 0.62 / 0.82, 1e-12);
        // On a five-category scale (the hand labels' right, wrong, abstained, bad question,
        // KG wrong) chance agreement is lower: p_e = 0.18 / 4 = 0.045,
        //   AC1 = (0.8 − 0.045) / 0.955 = 0.790575…
        let five: Vec<Vec<usize>> = counts.iter().map(|r| vec![r[0], r[1], 0, 0, 0]).collect();
        close(gwet_ac1(&five).unwrap(), 0.755 / 0.955, 1e-12);
    }

    #[test]
    fn ac1_with_three_annotators_counts_agreeing_pairs() {
        // Three annotators, two items, Q = 2. Item 1: all "a" (3 pairs of 3 agree: 1); item 2:
        // two "a", one "b" (1 pair of 3 agrees: 1/3). p_a = (1 + 1/3) / 2 = 2/3.
        // π_a = (3/3 + 2/3) / 2 = 5/6, π_b = 1/6; p_e = 2 · 5/36 = 10/36.
        // AC1 = (2/3 − 10/36) / (1 − 10/36) = (14/36) / (26/36) = 7/13.
        let counts = vec![vec![3, 0], vec![2, 1]];
        close(gwet_ac1(&counts).unwrap(), 7.0 / 13.0, 1e-12);
        assert_eq!(raw_agreement(&counts), (1, 2));
        assert_eq!(gwet_ac1(&[vec![1, 0]]), None);
        assert_eq!(gwet_ac1(&[]), None);
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

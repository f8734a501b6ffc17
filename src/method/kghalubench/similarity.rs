//! The entity-level similarity of KGHaluBench (§3.2.1): S = 0.7 · cosine(embedding of the
//! response, embedding of the entity's description) + 0.3 · token-set ratio of the two, the
//! ratio on a 0–1 scale. The paper computes the ratio with RapidFuzz's `token_set_ratio`; this
//! is the same definition: the words of each text (lower-cased, split on anything that is not
//! a letter or digit) as sets, their intersection and the two differences each sorted and
//! joined, and the best of three normalised InDel similarities between "intersection" and
//! "intersection + each difference"; 1 when one text's words are all in the other's.

use std::collections::BTreeSet;

/// The semantic share of the mix (the paper's 70:30).
pub const SEMANTIC_WEIGHT: f64 = 0.7;

/// The paper's threshold: a response must exceed it to be about the entity; otherwise it is
/// about something else (a breadth hallucination).
pub const DEFAULT_THRESHOLD: f64 = 0.70;

/// `0.7 · cosine + 0.3 · token_set_ratio`, both in [0, 1] (a cosine below 0 counts as 0).
pub fn entity_similarity(cosine: f64, token_set: f64) -> f64 {
    SEMANTIC_WEIGHT * cosine.clamp(0.0, 1.0) + (1.0 - SEMANTIC_WEIGHT) * token_set.clamp(0.0, 1.0)
}

/// Cosine similarity of two vectors; 0 when either is all zeros.
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let (mut dot, mut na, mut nb) = (0f64, 0f64, 0f64);
    for (x, y) in a.iter().zip(b) {
        let (x, y) = (f64::from(*x), f64::from(*y));
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        return 0.0;
    }
    dot / (na.sqrt() * nb.sqrt())
}

fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Normalised InDel similarity: 2 · LCS / (|a| + |b|), on characters; 1 for two empty strings.
fn indel_ratio(a: &str, b: &str) -> f64 {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    // One row of the LCS table at a time.
    let mut row = vec![0usize; b.len() + 1];
    for &x in &a {
        let mut diagonal = 0;
        for (j, &y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y {
                diagonal + 1
            } else {
                above.max(row[j])
            };
            diagonal = above;
        }
    }
    2.0 * row[b.len()] as f64 / (a.len() + b.len()) as f64
}

/// RapidFuzz's `token_set_ratio`, on a 0–1 scale.
pub fn token_set_ratio(a: &str, b: &str) -> f64 {
    let (wa, wb) = (words(a), words(b));
    if wa.is_empty() || wb.is_empty() {
        return 0.0;
    }
    let join = |s: Vec<&String>| s.into_iter().cloned().collect::<Vec<_>>().join(" ");
    let common = join(wa.intersection(&wb).collect());
    let only_a = join(wa.difference(&wb).collect());
    let only_b = join(wb.difference(&wa).collect());
    // One text's words all within the other's: the texts agree as far as one goes.
    if !common.is_empty() && (only_a.is_empty() || only_b.is_empty()) {
        return 1.0;
    }
    let with = |rest: &str| {
        if common.is_empty() {
            rest.to_string()
        } else {
            format!("{common} {rest}")
        }
    };
    let (ca, cb) = (with(&only_a), with(&only_b));
    let mut best = indel_ratio(&ca, &cb);
    if !common.is_empty() {
        best = best
            .max(indel_ratio(&common, &ca))
            .max(indel_ratio(&common, &cb));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mix_weighs_meaning_seven_to_three() {
        assert!((entity_similarity(1.0, 0.0) - 0.7).abs() < 1e-12);
        assert!((entity_similarity(0.0, 1.0) - 0.3).abs() < 1e-12);
        assert!((entity_similarity(0.8, 0.5) - (0.56 + 0.15)).abs() < 1e-12);
        // A negative cosine is no similarity, not a penalty.
        assert_eq!(entity_similarity(-0.4, 0.0), 0.0);
        assert!(entity_similarity(0.9, 0.6) >= DEFAULT_THRESHOLD);
        assert!(entity_similarity(0.6, 0.6) < DEFAULT_THRESHOLD);
    }

    #[test]
    fn cosine_on_hand_computed_vectors() {
        assert!((cosine(&[1.0, 0.0], &[0.0, 1.0])).abs() < 1e-12);
        assert!((cosine(&[1.0, 2.0, 2.0], &[2.0, 4.0, 4.0]) - 1.0).abs() < 1e-9);
        // (1·2 + 1·0) / (√2 · 2) = 1/√2.
        assert!((cosine(&[1.0, 1.0], &[2.0, 0.0]) - 0.5f64.sqrt()).abs() < 1e-9);
        assert_eq!(cosine(&[0.0, 0.0], &[1.0, 1.0]), 0.0);
    }

    #[test]
    fn token_set_ratio_matches_rapidfuzz() {
        // Same words in any order and case, and punctuation: identical sets.
        assert_eq!(
            token_set_ratio("Paris, capital of France", "france CAPITAL of paris"),
            1.0
        );
        // A subset: 1, as RapidFuzz gives 100.
        assert_eq!(
            token_set_ratio("fuzzy was a bear", "fuzzy fuzzy was a bear wuzzy"),
            1.0
        );
        // No word in common: the InDel ratio of the sorted words. "cat" / "dog": LCS 0.
        assert_eq!(token_set_ratio("cat", "dog"), 0.0);
        // Common "a b", differences "c" and "d": ratio("a b c", "a b d") = 2·4/10 = 0.8,
        // ratio("a b", "a b c") = 2·3/8 = 0.75, ratio("a b", "a b d") = 0.75; the best is 0.8.
        assert!((token_set_ratio("a b c", "a b d") - 0.8).abs() < 1e-12);
        // Nothing to compare.
        assert_eq!(token_set_ratio("", "anything"), 0.0);
        assert_eq!(indel_ratio("", ""), 1.0);
        // "kitten" / "sitting": LCS "ittn" = 4 → 8 / 13.
        assert!((indel_ratio("kitten", "sitting") - 8.0 / 13.0).abs() < 1e-12);
    }
}

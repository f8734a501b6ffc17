//! Seeded sampling. One seed drives every random choice, through ChaCha8.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

/// The seed of every random choice when the user does not give one (`--seed`).
pub const DEFAULT_SEED: u64 = 42;

pub type SeededRng = ChaCha8Rng;

/// How the facts a question set asks about are drawn from the candidates.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Sampling {
    /// Every relation gets its share (round-robin over relations): a small run covers every
    /// relation, a big one gives each as many as it has up to an equal share.
    #[default]
    ByRelation,
    /// Round-robin over the subjects' types, rarer types first (KGHaluBench).
    ByType,
    /// Uniformly over facts: relations appear as often as the KG states them.
    Uniform,
}

impl Sampling {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ByRelation => "by-relation",
            Self::ByType => "by-type",
            Self::Uniform => "uniform",
        }
    }
}

/// The run-wide generator for a seed.
pub fn rng(seed: u64) -> SeededRng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A generator for one item, derived from the seed and a stable key (e.g. a triple), so the
/// choices made for an item do not depend on how many items were drawn before it.
pub fn item_rng(seed: u64, key: &str) -> SeededRng {
    let mut h = Sha256::new();
    h.update(seed.to_le_bytes());
    h.update(key.as_bytes());
    let digest = h.finalize();
    ChaCha8Rng::from_seed(digest.into())
}

/// The first `n` elements of a seeded permutation of `items` (partial Fisher–Yates), so a
/// larger `n` with the same seed extends a smaller one.
pub fn uniform<T: Copy>(items: &[T], n: usize, rng: &mut SeededRng) -> Vec<T> {
    let mut pool = items.to_vec();
    let n = n.min(pool.len());
    for i in 0..n {
        let j = rng.random_range(i..pool.len());
        pool.swap(i, j);
    }
    pool.truncate(n);
    pool
}

/// `n` items taken one from each group in turn, each group in a seeded order, until `n` are
/// taken or the groups run out: every group gets an equal share, or all it has when that is
/// less. A larger `n` with the same seed extends a smaller one.
pub fn round_robin<T: Copy>(groups: Vec<Vec<T>>, n: usize, rng: &mut SeededRng) -> Vec<T> {
    let shuffled: Vec<Vec<T>> = groups.iter().map(|g| uniform(g, g.len(), rng)).collect();
    let n = n.min(shuffled.iter().map(Vec::len).sum());
    let mut out = Vec::with_capacity(n);
    let mut round = 0;
    while out.len() < n {
        let before = out.len();
        for g in &shuffled {
            if let Some(x) = g.get(round) {
                if out.len() == n {
                    break;
                }
                out.push(*x);
            }
        }
        if out.len() == before {
            break;
        }
        round += 1;
    }
    out
}

/// The sampling seed of one attempt: the run's seed mixed with the question and the repeat.
/// Every draw is reproducible from the run's seed, and independent of every other question's:
/// with one seed for all questions (or seed + repeat), a sampler that is close to even between
/// "Yes" and "No" makes the same choice on every question for the same random draw, which
/// correlates the answers across questions and makes repeats agree or disagree in lockstep.
pub fn attempt_seed(run_seed: u64, question_id: &str, repeat: usize) -> u64 {
    let mut h = Sha256::new();
    h.update(run_seed.to_le_bytes());
    h.update(question_id.as_bytes());
    h.update((repeat as u64).to_le_bytes());
    let d = h.finalize();
    // llama.cpp takes a 32-bit seed; the low half of the digest's first word is as random.
    u64::from_le_bytes(d[..8].try_into().expect("8 bytes")) & u64::from(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_is_deterministic_and_prefix_stable() {
        let items: Vec<u32> = (0..1000).collect();
        let a = uniform(&items, 10, &mut rng(7));
        let b = uniform(&items, 20, &mut rng(7));
        assert_eq!(a, b[..10]);
        assert_ne!(a, uniform(&items, 10, &mut rng(8)));
        let mut sorted = b.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 20);
    }

    #[test]
    fn round_robin_shares_evenly_and_extends_with_n() {
        let groups = vec![(0..100).collect::<Vec<u32>>(), vec![1000, 1001], vec![2000]];
        let small = round_robin(groups.clone(), 3, &mut rng(1));
        let mut heads: Vec<u32> = small.iter().map(|x| x / 1000).collect();
        heads.sort();
        assert_eq!(heads, [0, 1, 2], "one from each group first: {small:?}");
        let big = round_robin(groups.clone(), 10, &mut rng(1));
        assert_eq!(big[..3], small[..]);
        assert_eq!(
            big.iter().filter(|x| **x >= 1000).count(),
            3,
            "small groups give all they have"
        );
        assert_eq!(round_robin(groups, 500, &mut rng(1)).len(), 103);
    }

    #[test]
    fn attempts_get_distinct_reproducible_seeds() {
        let a = attempt_seed(42, "q1", 0);
        assert_eq!(a, attempt_seed(42, "q1", 0), "reproducible");
        assert_ne!(a, attempt_seed(42, "q2", 0), "per question");
        assert_ne!(a, attempt_seed(42, "q1", 1), "per repeat");
        assert_ne!(a, attempt_seed(43, "q1", 0), "per run seed");
        assert!(a <= u64::from(u32::MAX));
    }
}

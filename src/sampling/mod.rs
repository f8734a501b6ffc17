//! Seeded sampling. One seed drives every random choice, through ChaCha8.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

pub type SeededRng = ChaCha8Rng;

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
}

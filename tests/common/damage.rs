//! Damage done to a file kgscope reads back, for the fuzz tests of its seals: the same
//! damage for the saved index and for cache entries.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Damage `file` in one of three ways, picked by `rng`: a flipped bit anywhere, a cut at any
/// length, or 1 to 64 random bytes appended.
pub fn damage(file: &[u8], rng: &mut ChaCha8Rng) -> (String, Vec<u8>) {
    let mut f = file.to_vec();
    match rng.random_range(0..3) {
        0 => {
            let i = rng.random_range(0..f.len());
            let bit = rng.random_range(0..8);
            f[i] ^= 1 << bit;
            (format!("bit {bit} of byte {i} flipped"), f)
        }
        1 => {
            let n = rng.random_range(0..f.len());
            f.truncate(n);
            (format!("cut to {n} bytes"), f)
        }
        _ => {
            let n = rng.random_range(1..=64);
            f.extend((0..n).map(|_| rng.random::<u8>()));
            (format!("{n} bytes appended"), f)
        }
    }
}

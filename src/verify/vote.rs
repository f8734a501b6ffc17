//! Majority vote over repeated asks of one question (GraphEval and KG-FPQ ask 3 times).

use crate::core::verdict::Verdict;

/// Combines the verdicts of repeated asks into one.
///
/// 1. A verdict held by a strict majority (more than half of all votes) wins. This is the only
///    way `Invalid` can win.
/// 2. Otherwise `Invalid` votes are dropped, since they say nothing about what the model
///    believes, and a strict majority of the remaining votes wins (`[True, Invalid]` → `True`).
/// 3. Otherwise (a tie such as `[True, False]`, or `[True, False, Idk]`) the result is `Idk`.
///
/// Tie rule (ours; the papers only say "majority vote"): a model that gives contradictory
/// answers to the same question does not know the answer, so it is neither credited with a
/// correct claim nor charged with a wrong one; reading the tie as an abstention does exactly
/// that, and keeps `Invalid` for responses that were actually unreadable.
///
/// An empty slice (nothing was asked) is `Invalid`.
pub fn vote(verdicts: &[Verdict]) -> Verdict {
    if verdicts.is_empty() {
        return Verdict::Invalid;
    }
    if let Some(v) = strict_majority(verdicts.iter().copied()) {
        return v;
    }
    let readable = verdicts.iter().copied().filter(|v| *v != Verdict::Invalid);
    strict_majority(readable).unwrap_or(Verdict::Idk)
}

fn strict_majority(votes: impl Iterator<Item = Verdict>) -> Option<Verdict> {
    let order = [
        Verdict::True,
        Verdict::False,
        Verdict::Idk,
        Verdict::Invalid,
    ];
    let mut counts = [0usize; 4];
    for v in votes {
        counts[order.iter().position(|o| *o == v).unwrap_or(3)] += 1;
    }
    let n: usize = counts.iter().sum();
    order
        .iter()
        .zip(counts)
        .find(|(_, c)| 2 * c > n)
        .map(|(v, _)| *v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    #[test]
    fn strict_majority_wins() {
        assert_eq!(vote(&[True, True, False]), True);
        assert_eq!(vote(&[False, Idk, False]), False);
        assert_eq!(vote(&[Idk, Idk, True]), Idk);
        assert_eq!(vote(&[True]), True);
    }

    #[test]
    fn ties_become_idk() {
        assert_eq!(vote(&[True, False]), Idk);
        assert_eq!(vote(&[True, False, Idk]), Idk);
        assert_eq!(vote(&[True, True, False, False]), Idk);
        assert_eq!(vote(&[True, Idk]), Idk);
    }

    #[test]
    fn invalid_only_wins_with_strict_majority() {
        assert_eq!(vote(&[Invalid, Invalid, True]), Invalid);
        assert_eq!(vote(&[Invalid]), Invalid);
        // 1 of 2 is not a strict majority: the readable vote decides.
        assert_eq!(vote(&[Invalid, True]), True);
        assert_eq!(vote(&[True, True, Invalid, Invalid]), True);
        assert_eq!(vote(&[True, False, Invalid]), Idk);
        assert_eq!(vote(&[True, False, Invalid, Invalid]), Idk);
    }

    #[test]
    fn empty_is_invalid() {
        assert_eq!(vote(&[]), Invalid);
    }
}

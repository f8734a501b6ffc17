//! Judging a true/false verdict against the KG's gold label.

use crate::core::verdict::{OutcomeKind, Verdict};

/// Compares a verdict with the gold label (`true` = the statement holds in the KG, i.e. a
/// positive statement or a yes/no question whose answer is Yes).
///
/// `Idk` is never right or wrong, it is an abstention; `Invalid` stays `Invalid` so callers can
/// report it instead of silently folding it into either side.
pub fn judge(verdict: Verdict, gold: bool) -> OutcomeKind {
    match verdict {
        Verdict::True if gold => OutcomeKind::Correct,
        Verdict::False if !gold => OutcomeKind::Correct,
        Verdict::True | Verdict::False => OutcomeKind::Incorrect,
        Verdict::Idk => OutcomeKind::Abstained,
        Verdict::Invalid => OutcomeKind::Invalid,
    }
}

/// The claim that has `outcome` against a gold truth: the inverse of [`judge`], for a stage
/// that decides outcomes (the LLM judge, a hand label) when the metrics need the claim.
pub fn claim_for(outcome: OutcomeKind, truth: bool) -> Verdict {
    match outcome {
        OutcomeKind::Correct if truth => Verdict::True,
        OutcomeKind::Correct => Verdict::False,
        OutcomeKind::Incorrect if truth => Verdict::False,
        OutcomeKind::Incorrect => Verdict::True,
        OutcomeKind::Abstained => Verdict::Idk,
        OutcomeKind::Invalid => Verdict::Invalid,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claim_for_inverts_judge() {
        for v in [
            Verdict::True,
            Verdict::False,
            Verdict::Idk,
            Verdict::Invalid,
        ] {
            for truth in [true, false] {
                assert_eq!(claim_for(judge(v, truth), truth), v);
            }
        }
    }

    #[test]
    fn all_eight_cases() {
        use OutcomeKind::*;
        assert_eq!(judge(Verdict::True, true), Correct);
        assert_eq!(judge(Verdict::True, false), Incorrect);
        assert_eq!(judge(Verdict::False, false), Correct);
        assert_eq!(judge(Verdict::False, true), Incorrect);
        assert_eq!(judge(Verdict::Idk, true), Abstained);
        assert_eq!(judge(Verdict::Idk, false), Abstained);
        assert_eq!(judge(Verdict::Invalid, true), Invalid);
        assert_eq!(judge(Verdict::Invalid, false), Invalid);
    }
}

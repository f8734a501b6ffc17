//! Questions a run planned but decided not to ask, and why: a staged method's gate (KG-FPQ
//! asks false premises only about facts whose true premise the model accepted) leaves part of
//! the planned total unasked by design. Progress and reports say so, rather than "12 / 104 ·
//! finished" as if 92 had gone missing.

use serde::{Deserialize, Serialize};

/// `count` planned questions not asked, because `reason` (a clause: "the true premise was
/// denied"), as the method words it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NotAsked {
    pub count: usize,
    pub reason: String,
}

/// "12 asked; 80 not asked because the true premise was denied; 12 not asked because …", or
/// `None` when nothing was left out (callers then show answered / planned as usual).
pub fn describe(asked: u64, not_asked: &[NotAsked]) -> Option<String> {
    let parts: Vec<String> = not_asked
        .iter()
        .filter(|n| n.count > 0)
        .map(|n| format!("{} not asked because {}", n.count, n.reason))
        .collect();
    (!parts.is_empty()).then(|| format!("{asked} asked; {}", parts.join("; ")))
}

/// The questions of all `not_asked` together.
pub fn total(not_asked: &[NotAsked]) -> usize {
    not_asked.iter().map(|n| n.count).sum()
}

/// The questions a run of `planned` asks once its plan has left `not_asked` out.
pub fn to_ask(planned: usize, not_asked: &[NotAsked]) -> usize {
    planned.saturating_sub(total(not_asked))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn says_what_was_asked_and_why_the_rest_was_not() {
        let gate = NotAsked {
            count: 92,
            reason: "the true premise was denied".into(),
        };
        assert_eq!(
            describe(12, std::slice::from_ref(&gate)).as_deref(),
            Some("12 asked; 92 not asked because the true premise was denied")
        );
        assert_eq!(total(&[gate.clone(), gate]), 184);
        assert_eq!(describe(12, &[]), None);
        let none = NotAsked {
            count: 0,
            reason: "x".into(),
        };
        assert_eq!(
            describe(12, &[none]),
            None,
            "a reason for nothing is not shown"
        );
    }
}

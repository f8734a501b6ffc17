//! KGLens: per-edge tallies (win / zero-sense) and the Beta update of the parameterised KG
//! (Zheng et al., 2024, eqs. 2–3).
//!
//! An edge is a `(subject, predicate, object)` fact: the unit KGLens asks about and scores.
//! (Keying by `(subject, predicate)` would merge distinct facts, Poland–Belarus with
//! Poland–Czechia, into one edge.)

use serde::{Deserialize, Serialize};

use crate::verify::OutcomeKind;

/// Prior of every edge's failure probability θ ~ Beta(α, β): Beta(1, 1), uniform.
pub const PRIOR: (f64, f64) = (1.0, 1.0);

/// Answers on one edge so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeTally {
    pub correct: u32,
    pub incorrect: u32,
}

impl EdgeTally {
    /// Adds one judged answer. Anything but `Correct` is a failure: the paper marks an edge as
    /// failed when the model declines to answer, so `Abstained` counts as incorrect; treating
    /// `Invalid` (no readable Yes/No first word) the same is ours.
    pub fn record(&mut self, outcome: OutcomeKind) {
        if outcome == OutcomeKind::Correct {
            self.correct += 1;
        } else {
            self.incorrect += 1;
        }
    }

    /// At least one answer on this edge.
    pub fn examined(&self) -> bool {
        self.correct + self.incorrect > 0
    }

    /// "LLM wins if the number of correct answers surpasses the number of incorrect answers."
    pub fn is_win(&self) -> bool {
        self.correct > self.incorrect
    }

    /// Examined and never answered correctly.
    pub fn is_zero_sense(&self) -> bool {
        self.examined() && self.correct == 0
    }
}

/// Win and zero-sense counts over a set of edges; only examined edges count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeCounts {
    pub examined: u64,
    pub wins: u64,
    pub zero_sense: u64,
}

impl EdgeCounts {
    pub fn from_tallies<'a>(tallies: impl IntoIterator<Item = &'a EdgeTally>) -> Self {
        let mut c = EdgeCounts::default();
        for t in tallies.into_iter().filter(|t| t.examined()) {
            c.examined += 1;
            c.wins += t.is_win() as u64;
            c.zero_sense += t.is_zero_sense() as u64;
        }
        c
    }

    /// Share of examined edges won; `None` when none was examined.
    pub fn win_rate(&self) -> Option<f64> {
        (self.examined > 0).then(|| self.wins as f64 / self.examined as f64)
    }

    /// Share of examined edges never answered correctly; `None` when none was examined.
    pub fn zero_sense_rate(&self) -> Option<f64> {
        (self.examined > 0).then(|| self.zero_sense as f64 / self.examined as f64)
    }
}

/// Posterior update of an asked edge j after one iteration:
/// `α += 1[incorrect] + M_j`, `β += 1[correct] + N_j`, where `M_j` / `N_j` count the incorrect /
/// correct answers this iteration on the OTHER edges sharing an entity with j (one hop, incoming
/// and outgoing edges of s_j and o_j). Returns `(α, β)`.
pub fn update(
    alpha: f64,
    beta: f64,
    incorrect: bool,
    m_neighbour_incorrect: u32,
    n_neighbour_correct: u32,
) -> (f64, f64) {
    (
        alpha + incorrect as u8 as f64 + m_neighbour_incorrect as f64,
        beta + (!incorrect) as u8 as f64 + n_neighbour_correct as f64,
    )
}

/// Update of an edge that was not asked this iteration but neighbours one that was: the paper
/// propagates the signal to "both the incoming and outgoing edges" of the asked edge's nodes,
/// so such an edge gets `M_j` and `N_j` without an observation of its own. It stays unexamined
/// for win / zero-sense.
pub fn propagate(
    alpha: f64,
    beta: f64,
    m_neighbour_incorrect: u32,
    n_neighbour_correct: u32,
) -> (f64, f64) {
    (
        alpha + m_neighbour_incorrect as f64,
        beta + n_neighbour_correct as f64,
    )
}

/// Posterior mean of the failure probability, α / (α + β): what the sampler's draws centre on.
pub fn failure_mean(alpha: f64, beta: f64) -> f64 {
    alpha / (alpha + beta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use OutcomeKind::*;

    fn tally(outcomes: &[OutcomeKind]) -> EdgeTally {
        let mut t = EdgeTally::default();
        outcomes.iter().for_each(|o| t.record(*o));
        t
    }

    #[test]
    fn win_and_zero_sense() {
        // 2 correct vs 1 incorrect: 2 > 1 → win; correct > 0 → not zero-sense.
        let a = tally(&[Correct, Incorrect, Correct]);
        assert!(a.is_win() && !a.is_zero_sense());
        // 1 vs 1: not a win (strictly more needed), not zero-sense.
        let b = tally(&[Correct, Incorrect]);
        assert!(!b.is_win() && !b.is_zero_sense());
        // abstained + invalid = 2 failures, 0 correct → zero-sense, no win.
        let c = tally(&[Abstained, Invalid]);
        assert_eq!(
            c,
            EdgeTally {
                correct: 0,
                incorrect: 2
            }
        );
        assert!(!c.is_win() && c.is_zero_sense());
        // Never asked: neither.
        let d = EdgeTally::default();
        assert!(!d.examined() && !d.is_win() && !d.is_zero_sense());
    }

    #[test]
    fn rates_over_examined_edges() {
        let ts = [
            tally(&[Correct, Incorrect, Correct]),
            tally(&[Correct, Incorrect]),
            tally(&[Abstained, Invalid]),
            EdgeTally::default(),
        ];
        // examined 3 (the unasked edge is left out); wins 1; zero-sense 1 → 1/3 and 1/3.
        let c = EdgeCounts::from_tallies(&ts);
        assert_eq!(
            c,
            EdgeCounts {
                examined: 3,
                wins: 1,
                zero_sense: 1
            }
        );
        assert!((c.win_rate().unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert!((c.zero_sense_rate().unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(EdgeCounts::default().win_rate(), None);
    }

    #[test]
    fn beta_update() {
        // Prior (1, 1); answered incorrectly; 2 incorrect and 3 correct neighbours:
        // α = 1 + 1 + 2 = 4, β = 1 + 0 + 3 = 4.
        assert_eq!(update(PRIOR.0, PRIOR.1, true, 2, 3), (4.0, 4.0));
        // Answered correctly, no neighbours asked: α = 1, β = 1 + 1 = 2.
        assert_eq!(update(1.0, 1.0, false, 0, 0), (1.0, 2.0));
        // (4, 4) correct with 1 incorrect neighbour: α = 4 + 0 + 1 = 5, β = 4 + 1 + 0 = 5.
        assert_eq!(update(4.0, 4.0, false, 1, 0), (5.0, 5.0));
        // Not asked, 1 incorrect and 2 correct neighbours: (1 + 1, 1 + 2) = (2, 3).
        assert_eq!(propagate(1.0, 1.0, 1, 2), (2.0, 3.0));
        // Mean failure of Beta(2, 3) = 2/5.
        assert_eq!(failure_mean(2.0, 3.0), 0.4);
    }
}

//! KGLens' parameterised KG (Zheng et al., 2024, §3.1): every edge (s, p, o) of
//! the evaluated subgraph carries θ ~ Beta(α, β), the probability that the model fails on it.
//! Each iteration draws θ from every edge's Beta and asks about the top-n edges; the answers
//! update α / β of the asked edges and, one hop out, of every edge that shares an entity with
//! an asked one.
//!
//! Where the paper is silent we decide, and say so here:
//! - "Shares an entity" means a node both edges touch, as subject or object, that is not a
//!   literal: two facts that merely have the value `1990` in common are not neighbours.
//! - An edge's own answer is not also counted as its neighbour's: `M_j` / `N_j` count the
//!   answers on the OTHER edges of the iteration that share an entity with j, each answer once
//!   even when the two edges share both ends.
//! - Edges that were not asked get `M_j` / `N_j` too (the paper propagates "to both the incoming
//!   and outgoing edges" of the asked edge's nodes); [`crate::metrics::kglens::propagate`].
//! - Draws are made from a ChaCha generator seeded by (run seed, iteration), so an interrupted
//!   run that resumes from the state after iteration t draws iteration t + 1 exactly as an
//!   uninterrupted one.

use std::collections::HashMap;

use rand::Rng;
use rand_distr::{Beta, Distribution};
use serde::{Deserialize, Serialize};

use crate::metrics::kglens::{self, PRIOR};

/// The parameterised KG's numbers: one Beta per edge, in the edge list's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Posterior {
    pub alpha: Vec<f64>,
    pub beta: Vec<f64>,
}

impl Posterior {
    /// Every edge at the prior Beta(1, 1).
    pub fn prior(edges: usize) -> Self {
        Self {
            alpha: vec![PRIOR.0; edges],
            beta: vec![PRIOR.1; edges],
        }
    }

    pub fn len(&self) -> usize {
        self.alpha.len()
    }

    pub fn is_empty(&self) -> bool {
        self.alpha.is_empty()
    }

    /// Posterior mean of edge j's failure probability.
    pub fn failure_mean(&self, j: usize) -> f64 {
        kglens::failure_mean(self.alpha[j], self.beta[j])
    }

    /// One θ per edge from its Beta, then the `n` edges with the largest θ, largest first (ties
    /// to the lower index, so the order never depends on anything but the draws).
    pub fn draw_top(&self, n: usize, rng: &mut impl Rng) -> Vec<usize> {
        let mut theta: Vec<(f64, usize)> = (0..self.len())
            .map(|j| {
                let t = Beta::new(self.alpha[j], self.beta[j])
                    .map(|b| b.sample(rng))
                    // α, β ≥ 1 always; a NaN-free fallback all the same.
                    .unwrap_or_else(|_| self.failure_mean(j));
                (t, j)
            })
            .collect();
        let n = n.min(theta.len());
        if n == 0 {
            return vec![];
        }
        let by_theta = |a: &(f64, usize), b: &(f64, usize)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
        // Only the top n need ordering: partition first, then sort those.
        theta.select_nth_unstable_by(n - 1, by_theta);
        theta.truncate(n);
        theta.sort_by(by_theta);
        theta.into_iter().map(|(_, j)| j).collect()
    }

    /// Folds one iteration's answers into the posterior (paper eqs. 2–3): for each asked edge
    /// `α += 1[incorrect] + M_j`, `β += 1[correct] + N_j`; for each edge that was not asked but
    /// shares an entity with an asked one, `α += M_j`, `β += N_j`.
    pub fn update(&mut self, graph: &EdgeGraph, answers: &[(usize, bool)]) {
        // M_j / N_j for every edge touched: the answers of its neighbours, each answer once.
        let mut m_n: HashMap<usize, (u32, u32)> = HashMap::new();
        for &(asked, correct) in answers {
            for j in graph.neighbours(asked) {
                let e = m_n.entry(j).or_default();
                if correct {
                    e.1 += 1;
                } else {
                    e.0 += 1;
                }
            }
        }
        let own: HashMap<usize, bool> = answers.iter().copied().collect();
        for (&j, &correct) in &own {
            let (m, n) = m_n.remove(&j).unwrap_or_default();
            (self.alpha[j], self.beta[j]) =
                kglens::update(self.alpha[j], self.beta[j], !correct, m, n);
        }
        for (j, (m, n)) in m_n {
            (self.alpha[j], self.beta[j]) = kglens::propagate(self.alpha[j], self.beta[j], m, n);
        }
    }
}

/// The evaluated subgraph's edges and which of them share an entity.
#[derive(Debug, Clone)]
pub struct EdgeGraph {
    /// Edge j's end nodes that are entities (not literals): one or two node ids.
    ends: Vec<[Option<u32>; 2]>,
    /// Edges per entity node.
    by_node: HashMap<u32, Vec<usize>>,
}

impl EdgeGraph {
    /// `edges` as (subject, object) node ids; `is_entity` tells an entity node from a literal.
    pub fn new(
        edges: impl IntoIterator<Item = (u32, u32)>,
        is_entity: impl Fn(u32) -> bool,
    ) -> Self {
        let mut ends = Vec::new();
        let mut by_node: HashMap<u32, Vec<usize>> = HashMap::new();
        for (j, (s, o)) in edges.into_iter().enumerate() {
            let s = is_entity(s).then_some(s);
            let o = is_entity(o).then_some(o).filter(|o| Some(*o) != s);
            for n in [s, o].into_iter().flatten() {
                by_node.entry(n).or_default().push(j);
            }
            ends.push([s, o]);
        }
        Self { ends, by_node }
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The other edges that share an entity with edge `j`, each once, in index order.
    pub fn neighbours(&self, j: usize) -> Vec<usize> {
        let mut out: Vec<usize> = self.ends[j]
            .iter()
            .flatten()
            .flat_map(|n| self.by_node.get(n).into_iter().flatten().copied())
            .filter(|&k| k != j)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hand-drawn graph of the tests (entities A–E, a literal L):
    ///
    /// ```text
    ///   e0: A → B     e1: B → C     e2: C → D
    ///   e3: A → D     e4: E → L     e5: B → L
    /// ```
    /// Neighbours (sharing an entity; L is a literal, so e4 and e5 do not meet there):
    /// e0: e1 e3 e5 · e1: e0 e2 e5 · e2: e1 e3 · e3: e0 e2 · e4: none · e5: e0 e1.
    fn graph() -> EdgeGraph {
        let (a, b, c, d, e, l) = (0, 1, 2, 3, 4, 99);
        EdgeGraph::new([(a, b), (b, c), (c, d), (a, d), (e, l), (b, l)], |n| n != l)
    }

    #[test]
    fn neighbours_share_an_entity_never_a_literal() {
        let g = graph();
        assert_eq!(g.neighbours(0), [1, 3, 5]);
        assert_eq!(g.neighbours(1), [0, 2, 5]);
        assert_eq!(g.neighbours(2), [1, 3]);
        assert_eq!(g.neighbours(3), [0, 2]);
        assert_eq!(g.neighbours(4), Vec::<usize>::new());
        assert_eq!(g.neighbours(5), [0, 1]);
    }

    /// Two iterations on the 6-edge graph, every α / β worked out by hand.
    #[test]
    fn two_iterations_of_the_beta_update_by_hand() {
        let g = graph();
        let mut p = Posterior::prior(6);

        // Iteration 1: e0 wrong, e2 right.
        //   M/N (incorrect/correct answers of neighbours): e0 ← e2? no (not neighbours) → (0,0);
        //   e1 ← e0 wrong, e2 right → (1,1); e2 ← none of e1/e3 asked → (0,0);
        //   e3 ← e0 wrong, e2 right → (1,1); e4 → (0,0); e5 ← e0 wrong → (1,0).
        //   e0 asked, wrong: α = 1+1+0 = 2, β = 1+0+0 = 1.
        //   e2 asked, right: α = 1+0+0 = 1, β = 1+1+0 = 2.
        //   e1: (1+1, 1+1) = (2, 2); e3: (2, 2); e5: (1+1, 1) = (2, 1); e4 untouched (1, 1).
        p.update(&g, &[(0, false), (2, true)]);
        assert_eq!(p.alpha, [2.0, 2.0, 1.0, 2.0, 1.0, 2.0]);
        assert_eq!(p.beta, [1.0, 2.0, 2.0, 2.0, 1.0, 1.0]);

        // Iteration 2: e1 wrong, e3 wrong, e4 right.
        //   e0 ← e1 wrong, e3 wrong → M=2; asked? no → (2+2, 1) = (4, 1).
        //   e1 asked wrong; neighbours e0,e2,e5 not asked → M=N=0 → (2+1, 2) = (3, 2).
        //   e2 ← e1 wrong, e3 wrong → (1+2, 2) = (3, 2).
        //   e3 asked wrong; neighbours e0, e2 not asked → (2+1, 2) = (3, 2).
        //   e4 asked right, no neighbours → (1, 1+1) = (1, 2).
        //   e5 ← e1 wrong → (2+1, 1) = (3, 1).
        p.update(&g, &[(1, false), (3, false), (4, true)]);
        assert_eq!(p.alpha, [4.0, 3.0, 3.0, 3.0, 1.0, 3.0]);
        assert_eq!(p.beta, [1.0, 2.0, 2.0, 2.0, 2.0, 1.0]);
        assert_eq!(p.failure_mean(0), 0.8);
    }

    #[test]
    fn an_asked_edge_takes_its_asked_neighbours_answers() {
        // e0 and e1 asked together, e0 right and e1 wrong: each sees the other's answer.
        let g = graph();
        let mut p = Posterior::prior(6);
        p.update(&g, &[(0, true), (1, false)]);
        // e0: own right, neighbour e1 wrong → α = 1+0+1 = 2, β = 1+1+0 = 2.
        // e1: own wrong, neighbour e0 right → α = 1+1+0 = 2, β = 1+0+1 = 2.
        // e5 (neighbour of both): α = 1+1, β = 1+1.
        assert_eq!((p.alpha[0], p.beta[0]), (2.0, 2.0));
        assert_eq!((p.alpha[1], p.beta[1]), (2.0, 2.0));
        assert_eq!((p.alpha[5], p.beta[5]), (2.0, 2.0));
    }

    #[test]
    fn the_draw_is_seeded_and_favours_likely_failures() {
        let mut p = Posterior::prior(50);
        // Edge 7 has failed often, edge 8 never: 7 is in nearly every top 10 of 50, 8 almost
        // never (Beta(40, 1) draws above 0.95 with probability 0.87; the 10th of 49 uniform
        // draws sits near 0.8).
        p.alpha[7] = 40.0;
        p.beta[8] = 40.0;
        let mut has7 = 0;
        let mut has8 = 0;
        for i in 0..100 {
            let top = p.draw_top(10, &mut crate::sampling::item_rng(1, &i.to_string()));
            assert_eq!(top.len(), 10);
            let mut d = top.clone();
            d.sort();
            d.dedup();
            assert_eq!(d.len(), 10, "distinct edges");
            has7 += top.contains(&7) as u32;
            has8 += top.contains(&8) as u32;
        }
        assert!(has7 >= 95, "edge 7 was drawn {has7} of 100 times");
        assert!(has8 <= 2, "edge 8 was drawn {has8} times");
        let a = p.draw_top(5, &mut crate::sampling::item_rng(3, "x"));
        assert_eq!(a, p.draw_top(5, &mut crate::sampling::item_rng(3, "x")));
        assert_eq!(p.draw_top(80, &mut crate::sampling::rng(1)).len(), 50);
        assert!(Posterior::prior(0)
            .draw_top(3, &mut crate::sampling::rng(1))
            .is_empty());
    }
}

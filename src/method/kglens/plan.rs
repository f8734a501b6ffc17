//! KGLens' iterations (Zheng et al., 2024, §3): draw θ from every edge's Beta,
//! ask about the top-n edges, fold the answers into the posterior, and go again until the
//! iteration budget is spent or the running metrics have converged.
//!
//! The driver is independent of how a batch is answered ([`KglensRun::batch`] hands out the
//! questions, [`KglensRun::finish_iteration`] takes the answers), so the engine drives it in a
//! run and a scripted answerer drives it in the simulation tests.
//!
//! The state after each finished iteration is written to `kglens.json` in the run directory
//! (whole or not at all). An interrupted run resumes from it: the iteration in progress is
//! drawn again from the same state and seed, so its questions are the same, and the ones
//! already in `results.jsonl` are not asked again. The final α / β are then exactly those of
//! an uninterrupted run whose answers were the same.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::posterior::{EdgeGraph, Posterior};
use super::questions::{self as kq, Difficulty};
use crate::kg::index::{Fact, KgIndex};
use crate::kg::subgraph::{self, Walk};
use crate::kg::{KgError, Term};
use crate::method::plan::{Plan, PlanEvent};
use crate::method::yesno::questions::Asker;
use crate::metrics::kglens::{EdgeCounts, EdgeTally};
use crate::questions::{GenerateOptions, Question, Renderer, Task, TemplateSet};
use crate::record::ResultRecord;
use crate::sampling;
use crate::verify::OutcomeKind;

/// The file in the run directory that holds the parameterised KG between iterations.
pub const STATE_FILE: &str = "kglens.json";

/// A KGLens run's settings (in the manifest).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KglensConfig {
    /// Most iterations (the paper: 60).
    pub iterations: u32,
    /// Edges asked per iteration, the top-n of the draws (the paper: 64).
    pub batch: usize,
    pub difficulty: Difficulty,
    /// Random-walk steps from the central entities (`RunConfig::entities`; the paper: 3).
    pub walk_steps: usize,
    /// Most facts a walk takes per step and direction.
    pub walk_width: usize,
    /// Relations never asked about (IRIs, labels or local names).
    #[serde(default)]
    pub exclude_relations: Vec<String>,
    /// Leave out entities that have no alias (the paper does).
    #[serde(default)]
    pub require_aliases: bool,
    /// Stop once both running rates have moved less than this over `window` iterations;
    /// 0 never stops early.
    pub tolerance: f64,
    pub window: u32,
}

impl Default for KglensConfig {
    fn default() -> Self {
        Self {
            iterations: 60,
            batch: 64,
            difficulty: Difficulty::Hard,
            walk_steps: 3,
            walk_width: 100,
            exclude_relations: vec![],
            require_aliases: false,
            tolerance: 0.01,
            window: 5,
        }
    }
}

impl KglensConfig {
    /// The convergence rule in words, for help and reports.
    pub fn convergence_rule(&self) -> String {
        if self.tolerance <= 0.0 {
            format!("off: all {} iterations run", self.iterations)
        } else {
            format!(
                "stop when the running win rate and zero-sense rate each stayed within {} over the \
                 last {} iterations (checked from iteration {} on)",
                self.tolerance,
                self.window,
                2 * self.window
            )
        }
    }
}

/// One finished iteration, as the convergence curve shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IterationStats {
    pub iteration: u32,
    /// Questions asked this iteration.
    pub asked: u32,
    pub correct: u32,
    /// Edges examined so far, and the running rates over them.
    pub examined: u64,
    pub win_rate: f64,
    pub zero_sense_rate: f64,
    /// Mean posterior failure probability over all edges of the subgraph.
    pub mean_failure: f64,
}

/// What `kglens.json` holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KglensState {
    /// The subgraph's size and a hash of its edges: a resumed run must find the same edges.
    pub edges: usize,
    pub edges_hash: String,
    pub iterations_done: u32,
    pub posterior: Posterior,
    pub history: Vec<IterationStats>,
    /// The iteration after which the convergence rule stopped the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub converged_at: Option<u32>,
    /// The edges the posterior believed weakest after the last iteration (for reports, which
    /// do not open the KG).
    #[serde(default)]
    pub weakest: Vec<WeakEdge>,
}

impl KglensState {
    /// What is wrong with a state read back from disk, against the run's settings and the
    /// answers on record; `Ok` when a resume can go on from it. A state that passes is one
    /// kgscope itself could have written after `iterations_done` iterations of this run: the
    /// posterior has a Beta per edge (α, β start at the prior and only grow), the history has
    /// one entry per finished iteration, and `results.jsonl` holds exactly the answers of those
    /// iterations plus, at most, part of the next one.
    pub fn check(&self, cfg: &KglensConfig, done: &[ResultRecord]) -> Result<(), String> {
        let p = &self.posterior;
        if p.alpha.len() != self.edges || p.beta.len() != self.edges {
            return Err(format!(
                "the posterior has {} α and {} β values for a subgraph of {} edges",
                p.alpha.len(),
                p.beta.len(),
                self.edges
            ));
        }
        let (a0, b0) = crate::metrics::kglens::PRIOR;
        if let Some(j) = (0..self.edges).find(|&j| {
            !(p.alpha[j].is_finite()
                && p.alpha[j] >= a0
                && p.beta[j].is_finite()
                && p.beta[j] >= b0)
        }) {
            return Err(format!(
                "edge {j} has α = {}, β = {}: both start at the prior ({a0}, {b0}) and only grow \
                 with answers, so they must be finite and at least that",
                p.alpha[j], p.beta[j]
            ));
        }
        if self.iterations_done > cfg.iterations {
            return Err(format!(
                "{} iterations are done of a run of {}",
                self.iterations_done, cfg.iterations
            ));
        }
        if self.history.len() != self.iterations_done as usize {
            return Err(format!(
                "{} iterations are done but the history has {} entries",
                self.iterations_done,
                self.history.len()
            ));
        }
        let rate = |x: f64| (0.0..=1.0).contains(&x);
        for (i, h) in self.history.iter().enumerate() {
            let n = i as u32 + 1;
            if h.iteration != n
                || h.correct > h.asked
                || h.asked as usize > cfg.batch.min(self.edges)
                || !rate(h.win_rate)
                || !rate(h.zero_sense_rate)
                || !rate(h.mean_failure)
            {
                return Err(format!(
                    "history entry {n} is not one iteration's figures (iteration {}, {} of {} \
                     right, rates {} / {} / {})",
                    h.iteration, h.correct, h.asked, h.win_rate, h.zero_sense_rate, h.mean_failure
                ));
            }
        }
        if let Some(c) = self.converged_at {
            if c == 0 || c > self.iterations_done {
                return Err(format!(
                    "it converged after iteration {c}, but {} iterations are done",
                    self.iterations_done
                ));
            }
        }
        // The answers on record against the counters: each finished iteration's batch in full,
        // and nothing beyond the iteration in progress.
        let over = self.iterations_done >= cfg.iterations || self.converged_at.is_some();
        let mut per_iteration = vec![0u32; self.iterations_done as usize];
        for r in done {
            let Some(probe) = r.question.probe else {
                return Err(format!(
                    "{} in results.jsonl is not a KGLens question",
                    crate::sanitize::line(&r.question.id)
                ));
            };
            if probe.edge as usize >= self.edges {
                return Err(format!(
                    "results.jsonl asks about edge {} of a subgraph of {} edges",
                    probe.edge, self.edges
                ));
            }
            let beyond = probe.iteration > self.iterations_done + u32::from(!over);
            if probe.iteration == 0 || beyond {
                return Err(format!(
                    "results.jsonl holds answers of iteration {} but the state says {} \
                     iterations are done{}: the state is older than the answers, or was reset",
                    probe.iteration,
                    self.iterations_done,
                    if over { " and the run is over" } else { "" }
                ));
            }
            if let Some(n) = per_iteration.get_mut(probe.iteration as usize - 1) {
                *n += 1;
            }
        }
        if let Some((i, (n, h))) = per_iteration
            .iter()
            .zip(&self.history)
            .enumerate()
            .find(|(_, (n, h))| **n != h.asked)
        {
            return Err(format!(
                "iteration {} asked {} questions by the state but results.jsonl holds {n} of \
                 them",
                i + 1,
                h.asked
            ));
        }
        Ok(())
    }
}

/// An edge of the subgraph as the live view names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeakEdge {
    pub subject: String,
    pub relation: String,
    pub object: String,
    /// Posterior mean failure probability.
    pub failure: f64,
    pub tally: EdgeTally,
}

impl WeakEdge {
    /// "0.91 0/2 Peru · capital · Lima": posterior failure, right/wrong answers, the fact
    /// (sanitised: KG text is data).
    pub fn line(&self) -> String {
        use crate::sanitize::line;
        format!(
            "{:.2} {}/{} {} · {} · {}",
            self.failure,
            self.tally.correct,
            self.tally.incorrect,
            line(&self.subject),
            line(&self.relation),
            line(&self.object)
        )
    }
}

/// What the live views get after each iteration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IterationReport {
    pub stats: IterationStats,
    pub of: u32,
    pub edges: usize,
    /// The edges the sampler now believes weakest, weakest first.
    pub weakest: Vec<WeakEdge>,
    pub history: Vec<IterationStats>,
    pub converged: bool,
}

/// A KGLens run between iterations.
pub struct KglensRun {
    pub cfg: KglensConfig,
    seed: u64,
    /// The subgraph's edges, as facts of the index.
    facts: Vec<Fact>,
    graph: EdgeGraph,
    pub state: KglensState,
    /// Answers per edge so far (win / zero-sense).
    tallies: Vec<EdgeTally>,
}

fn edges_hash(index: &KgIndex, facts: &[Fact]) -> String {
    let mut h = Sha256::new();
    h.update(index.fingerprint().as_bytes());
    for f in facts {
        for id in f {
            h.update(index.term(*id).to_string().as_bytes());
            h.update([0x1f]);
        }
    }
    hex::encode(&h.finalize()[..8])
}

impl KglensRun {
    /// The subgraph of `entities` (IRIs; none = the whole KG) under `cfg`, every edge at its
    /// prior. `relations` narrows the relations as `--relation` does for every method.
    pub fn new(
        index: &KgIndex,
        cfg: KglensConfig,
        entities: &[String],
        relations: &[String],
        seed: u64,
    ) -> Result<Self, KgError> {
        // The facts any method may ask about (relation filter, no answer in the subject).
        let askable = crate::questions::candidate_facts(
            index,
            &GenerateOptions {
                task: Task::Kglens,
                relations: relations.to_vec(),
                ..GenerateOptions::default()
            },
        )?;
        let askable: std::collections::HashSet<usize> = askable.into_iter().collect();
        let mut centres = Vec::new();
        for e in entities {
            centres.push(index.iri_id(e).ok_or_else(|| {
                KgError::NotFound(format!("entity <{e}> is not in the KG's facts"))
            })?);
        }
        let mut excluded = Vec::new();
        for r in &cfg.exclude_relations {
            excluded.push(index.resolve_relation(r)?);
        }
        let walk = Walk {
            centres,
            steps: cfg.walk_steps,
            width: cfg.walk_width,
            excluded,
            require_aliases: cfg.require_aliases,
            seed,
        };
        let picked = subgraph::collect(index, &walk, |i| askable.contains(&i));
        if picked.is_empty() {
            return Err(KgError::NotFound(
                "the subgraph has no edge to ask about: choose other central entities, more walk \
                 steps, or fewer excluded relations"
                    .into(),
            ));
        }
        let facts: Vec<Fact> = picked.iter().map(|&i| index.facts()[i]).collect();
        let is_entity = |n: u32| matches!(index.term(n), Term::NamedNode(_) | Term::BlankNode(_));
        let graph = EdgeGraph::new(facts.iter().map(|f| (f[0], f[2])), is_entity);
        let state = KglensState {
            edges: facts.len(),
            edges_hash: edges_hash(index, &facts),
            iterations_done: 0,
            posterior: Posterior::prior(facts.len()),
            history: vec![],
            converged_at: None,
            weakest: vec![],
        };
        Ok(Self {
            cfg,
            seed,
            tallies: vec![EdgeTally::default(); facts.len()],
            facts,
            graph,
            state,
        })
    }

    /// Continues from a saved state and the answers recorded so far. Fails when the state was
    /// saved for another subgraph.
    pub fn restore(&mut self, state: KglensState, done: &[ResultRecord]) -> Result<(), String> {
        if state.edges != self.state.edges || state.edges_hash != self.state.edges_hash {
            return Err(format!(
                "it was saved for another subgraph ({} edges, hash {}; now {} edges, \
                 hash {})",
                state.edges, state.edges_hash, self.state.edges, self.state.edges_hash
            ));
        }
        state.check(&self.cfg, done)?;
        self.state = state;
        // Only the answers of finished iterations count: the iteration in progress is asked
        // (or taken from the log) again and counted when it finishes.
        for r in done {
            if let Some(p) = r.question.probe {
                if p.iteration <= self.state.iterations_done {
                    if let Some(t) = self.tallies.get_mut(p.edge as usize) {
                        t.record(r.outcome);
                    }
                }
            }
        }
        Ok(())
    }

    pub fn edges(&self) -> usize {
        self.facts.len()
    }

    /// Edge `j` of the subgraph, as a fact of the index.
    pub fn fact(&self, j: usize) -> Fact {
        self.facts[j]
    }

    /// Questions the run asks if it never converges: a batch per iteration.
    pub fn most_questions(&self) -> usize {
        self.cfg.iterations as usize * self.cfg.batch.min(self.facts.len())
    }

    /// Whether the run is over: every iteration done, or converged.
    pub fn is_over(&self) -> bool {
        self.state.iterations_done >= self.cfg.iterations || self.state.converged_at.is_some()
    }

    /// The next iteration's number.
    pub fn next_iteration(&self) -> u32 {
        self.state.iterations_done + 1
    }

    /// The edges the next iteration asks about: the top-n of one θ draw per edge, from a
    /// generator seeded by the run's seed and the iteration.
    pub fn draw(&self) -> Vec<usize> {
        let key = format!("kglens-iteration:{}", self.next_iteration());
        self.state
            .posterior
            .draw_top(self.cfg.batch, &mut sampling::item_rng(self.seed, &key))
    }

    /// The next iteration's questions, one per drawn edge.
    pub fn batch(&self, index: &KgIndex, templates: &TemplateSet) -> Vec<Question> {
        let r = Renderer {
            index,
            templates,
            seed: self.seed,
        };
        let mut asker = Asker::new(&r);
        let it = self.next_iteration();
        self.draw()
            .into_iter()
            .map(|j| {
                kq::question(
                    &mut asker,
                    &r,
                    &self.facts[j],
                    j as u32,
                    it,
                    self.cfg.difficulty,
                )
            })
            .collect()
    }

    /// Folds the next iteration's answers into the posterior and the tallies, checks
    /// convergence and returns the iteration's figures. `records` are the answers to
    /// [`KglensRun::batch`]'s questions (others are ignored).
    pub fn finish_iteration(&mut self, records: &[&ResultRecord]) -> IterationStats {
        let it = self.next_iteration();
        let answers: Vec<(usize, bool)> = records
            .iter()
            .filter_map(|r| {
                let p = r.question.probe?;
                (p.iteration == it && (p.edge as usize) < self.facts.len())
                    .then_some((p.edge as usize, r.outcome == OutcomeKind::Correct))
            })
            .collect();
        self.state.posterior.update(&self.graph, &answers);
        for &(j, correct) in &answers {
            self.tallies[j].record(if correct {
                OutcomeKind::Correct
            } else {
                OutcomeKind::Incorrect
            });
        }
        let counts = EdgeCounts::from_tallies(&self.tallies);
        let p = &self.state.posterior;
        let stats = IterationStats {
            iteration: it,
            asked: answers.len() as u32,
            correct: answers.iter().filter(|a| a.1).count() as u32,
            examined: counts.examined,
            win_rate: counts.win_rate().unwrap_or(0.0),
            zero_sense_rate: counts.zero_sense_rate().unwrap_or(0.0),
            mean_failure: (0..p.len()).map(|j| p.failure_mean(j)).sum::<f64>()
                / p.len().max(1) as f64,
        };
        self.state.history.push(stats.clone());
        self.state.iterations_done = it;
        if converged(&self.state.history, &self.cfg) {
            self.state.converged_at = Some(it);
        }
        stats
    }

    /// The `n` edges with the highest posterior failure probability, weakest first.
    pub fn weakest(&self, index: &KgIndex, n: usize) -> Vec<WeakEdge> {
        let p = &self.state.posterior;
        let mut order: Vec<usize> = (0..self.facts.len()).collect();
        order.sort_by(|&a, &b| {
            p.failure_mean(b)
                .total_cmp(&p.failure_mean(a))
                .then(a.cmp(&b))
        });
        order
            .into_iter()
            .take(n)
            .map(|j| {
                let f = self.facts[j];
                WeakEdge {
                    subject: index.label(f[0]),
                    relation: index.label(f[1]),
                    object: index.label(f[2]),
                    failure: p.failure_mean(j),
                    tally: self.tallies[j],
                }
            })
            .collect()
    }

    /// The live views' report after an iteration; the weakest edges are kept in the state.
    pub fn report(&mut self, index: &KgIndex, stats: IterationStats) -> IterationReport {
        self.state.weakest = self.weakest(index, 12);
        IterationReport {
            stats,
            of: self.cfg.iterations,
            edges: self.facts.len(),
            weakest: self.state.weakest.clone(),
            history: self.state.history.clone(),
            converged: self.state.converged_at.is_some(),
        }
    }

    /// Per-edge answers so far, by edge index.
    pub fn tallies(&self) -> &[EdgeTally] {
        &self.tallies
    }
}

impl Plan for KglensRun {
    fn most_questions(&self) -> usize {
        KglensRun::most_questions(self)
    }
    fn is_over(&self) -> bool {
        KglensRun::is_over(self)
    }
    fn describe(&self) -> String {
        format!(
            "KGLens: {} edges, {} iterations of {} ({} done), {}; convergence: {}",
            self.edges(),
            self.cfg.iterations,
            self.cfg.batch.min(self.edges()),
            self.state.iterations_done,
            self.cfg.difficulty.as_str(),
            self.cfg.convergence_rule()
        )
    }
    fn next_batch(
        &mut self,
        index: &KgIndex,
        templates: &TemplateSet,
        _done: &std::collections::HashMap<String, ResultRecord>,
    ) -> Option<(u32, Vec<Question>)> {
        (!self.is_over()).then(|| (self.next_iteration(), self.batch(index, templates)))
    }
    fn finish_batch(
        &mut self,
        index: &KgIndex,
        records: &[&ResultRecord],
        run: &crate::store::RunDir,
    ) -> Result<Option<PlanEvent>, String> {
        let stats = self.finish_iteration(records);
        let report = self.report(index, stats);
        run.write_json(STATE_FILE, &self.state)
            .map_err(|e| e.to_string())?;
        Ok(Some(report.event()))
    }
    fn restore(&mut self, run: &crate::store::RunDir, done: &[ResultRecord]) -> Result<(), String> {
        // A state that cannot be read or does not fit the run is refused, never repaired:
        // resuming from it would ask the wrong questions, or panic. Without a state file the
        // iterations are rebuilt from the answers on record (each batch is drawn again).
        let refuse = |what: String| {
            format!(
                "{}: {what}. The run was left as it is; if results.jsonl is intact, move \
                 {STATE_FILE} aside and resume: it is rebuilt from the answers on record",
                run.path.join(STATE_FILE).display()
            )
        };
        let state = run
            .read_json::<KglensState>(STATE_FILE)
            .map_err(|e| match e {
                crate::store::rundir::StoreError::Other { message, .. } => {
                    refuse(format!("not a KGLens state file ({message})"))
                }
                e => e.to_string(),
            })?;
        match state {
            Some(state) => KglensRun::restore(self, state, done).map_err(refuse),
            None => Ok(()),
        }
    }
}

/// The convergence rule: from iteration 2·window on, both running rates stayed within
/// `tolerance` (max − min) over the last `window` + 1 iterations. Early iterations are left
/// out because a handful of examined edges can look stable by chance.
pub fn converged(history: &[IterationStats], cfg: &KglensConfig) -> bool {
    let w = cfg.window.max(1) as usize;
    if cfg.tolerance <= 0.0 || history.len() < 2 * w {
        return false;
    }
    let last = &history[history.len() - (w + 1)..];
    let spread = |f: fn(&IterationStats) -> f64| {
        let (lo, hi) = last
            .iter()
            .map(f)
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            });
        hi - lo
    };
    spread(|s| s.win_rate) < cfg.tolerance && spread(|s| s.zero_sense_rate) < cfg.tolerance
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(i: u32, win: f64, zero: f64) -> IterationStats {
        IterationStats {
            iteration: i,
            asked: 1,
            correct: 1,
            examined: 1,
            win_rate: win,
            zero_sense_rate: zero,
            mean_failure: 0.5,
        }
    }

    #[test]
    fn convergence_needs_2w_iterations_and_both_rates_steady() {
        let cfg = KglensConfig {
            tolerance: 0.01,
            window: 3,
            ..KglensConfig::default()
        };
        // Steady from the start, but fewer than 2·3 iterations: not yet.
        let steady: Vec<_> = (1..=5).map(|i| stats(i, 0.5, 0.2)).collect();
        assert!(!converged(&steady, &cfg));
        let mut h: Vec<_> = (1..=6).map(|i| stats(i, 0.5, 0.2)).collect();
        assert!(converged(&h, &cfg));
        // The win rate moved by 0.02 within the last 4 iterations: not converged.
        h[3].win_rate = 0.52;
        assert!(!converged(&h, &cfg));
        // A move before the window does not count.
        h[3].win_rate = 0.5;
        h[1].win_rate = 0.9;
        assert!(converged(&h, &cfg));
        // Zero-sense moving is enough to go on.
        h[5].zero_sense_rate = 0.25;
        assert!(!converged(&h, &cfg));
        // Tolerance 0: never.
        let off = KglensConfig {
            tolerance: 0.0,
            ..cfg
        };
        assert!(!converged(&steady, &off));
    }
}

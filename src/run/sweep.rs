//! `--limit all`: every askable fact of the selection, asked batch by batch so that memory
//! stays bounded whatever the size of the KG. The facts are put in one seeded order at the
//! start (4 bytes a fact); each batch's questions are made when it is due, exactly as a run
//! made up front would make them for those facts, and dropped once answered.
//!
//! Resume: the order and every batch are functions of the KG, the configuration and the
//! seed, so a resumed sweep makes its batches again, skips those answered in full and asks
//! only what `results.jsonl` lacks.

use std::collections::HashMap;

use crate::kg::{KgError, KgIndex};
use crate::method::plan::{Plan, PlanEvent};
use crate::questions::{GenerateOptions, Question, Renderer, TemplateSet};
use crate::record::ResultRecord;
use crate::sampling;
use crate::store::RunDir;

/// `--limit all`, as a run's configuration stores it.
pub const ALL: usize = usize::MAX;

/// Facts whose questions are made and asked together: enough that the engine's slots stay
/// busy across a batch's end, few enough that a batch's questions are a few MB.
pub const FACTS_PER_BATCH: usize = 1024;

pub struct Sweep {
    opts: GenerateOptions,
    /// The askable facts (indices into the index's facts), in the seeded order.
    facts: Vec<u32>,
    /// Where the next batch starts in `facts`.
    next: usize,
    /// Facts a batch.
    per_batch: usize,
    /// Questions per fact, from the first batch (for progress: a method may ask several).
    per_fact: f64,
    /// A batch was left with questions unanswered (they are asked again on resume).
    incomplete: bool,
}

impl Sweep {
    /// A sweep over every askable fact `opts` selects (its `limit` is ignored).
    pub fn new(
        index: &KgIndex,
        templates: &TemplateSet,
        opts: &GenerateOptions,
    ) -> Result<Self, KgError> {
        Self::in_batches_of(index, templates, opts, FACTS_PER_BATCH)
    }

    /// The same sweep, `per_batch` facts a batch (the run's is [`FACTS_PER_BATCH`]; a resume
    /// must batch the same way).
    pub fn in_batches_of(
        index: &KgIndex,
        templates: &TemplateSet,
        opts: &GenerateOptions,
        per_batch: usize,
    ) -> Result<Self, KgError> {
        let per_batch = per_batch.max(1);
        let candidates = crate::questions::candidate_facts(index, opts)?;
        let mut rng = sampling::rng(opts.seed);
        let ordered = sampling::uniform(&candidates, candidates.len(), &mut rng);
        let facts: Vec<u32> = ordered.into_iter().map(|i| i as u32).collect();
        let mut sweep = Self {
            opts: opts.clone(),
            facts,
            next: 0,
            per_batch,
            per_fact: 1.0,
            incomplete: false,
        };
        let first = sweep.batch_at(0, index, templates);
        let facts_in_first = per_batch.min(sweep.facts.len()).max(1);
        sweep.per_fact = first.len() as f64 / facts_in_first as f64;
        Ok(sweep)
    }

    /// The questions of the batch that starts at `start`, as the method makes them for
    /// those facts.
    fn batch_at(&self, start: usize, index: &KgIndex, templates: &TemplateSet) -> Vec<Question> {
        let end = (start + self.per_batch).min(self.facts.len());
        let chunk: Vec<usize> = self.facts[start..end].iter().map(|&i| i as usize).collect();
        let renderer = Renderer {
            index,
            templates,
            seed: self.opts.seed,
        };
        // No limit within the batch: a method whose limit counts questions (statements: a
        // fact and its negatives) would otherwise stop short of the batch's facts.
        let opts = GenerateOptions {
            limit: ALL,
            ..self.opts.clone()
        };
        crate::method::of(self.opts.task)
            .generate(&renderer, &chunk, &opts)
            .0
    }

    pub fn facts(&self) -> usize {
        self.facts.len()
    }
}

impl Plan for Sweep {
    fn most_questions(&self) -> usize {
        (self.facts.len() as f64 * self.per_fact).ceil() as usize
    }

    fn is_over(&self) -> bool {
        self.next >= self.facts.len() && !self.incomplete
    }

    fn describe(&self) -> String {
        format!(
            "every askable fact: {} facts, {} at a time (about {} questions)",
            self.facts.len(),
            self.per_batch,
            self.most_questions()
        )
    }

    /// Nothing is saved between batches: the answers on record say which are done.
    fn restore(&mut self, _run: &RunDir, _done: &[ResultRecord]) -> Result<(), String> {
        Ok(())
    }

    fn next_batch(
        &mut self,
        index: &KgIndex,
        templates: &TemplateSet,
        done: &HashMap<String, ResultRecord>,
    ) -> Option<(u32, Vec<Question>)> {
        while self.next < self.facts.len() {
            let batch = self.batch_at(self.next, index, templates);
            let number = (self.next / self.per_batch) as u32 + 1;
            if batch.iter().any(|q| !done.contains_key(&q.id)) {
                return Some((number, batch));
            }
            self.next += self.per_batch;
        }
        None
    }

    fn finish_batch(
        &mut self,
        _index: &KgIndex,
        _records: &[&ResultRecord],
        _run: &RunDir,
    ) -> Result<Option<PlanEvent>, String> {
        self.next += self.per_batch;
        Ok(None)
    }

    fn skip_incomplete_batch(&mut self) -> bool {
        self.incomplete = true;
        self.next += self.per_batch;
        true
    }

    fn forgets_answers(&self) -> bool {
        true
    }
}

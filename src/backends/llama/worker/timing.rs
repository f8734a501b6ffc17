//! Where the worker's time goes, step by step: the forward passes (split into steps that carry
//! prompt tokens and steps that only feed back generated ones), choosing tokens from the
//! outputs, reading likelihoods, the host's own work (admitting requests, building batches,
//! decoding and streaming text) and waiting for requests. Kept by the worker thread and read by
//! `kgscope bench llama`, which prints the split; the cost is two clock reads per phase.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The worker's time and work since the model was loaded. Differences of two snapshots
/// ([`StepTimes::since`]) give one measured stretch.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StepTimes {
    /// `llama_decode` calls of the main loop (shared prefixes not included).
    pub steps: u64,
    /// Of those, the steps whose batch carried prompt tokens (a prompt's suffix or a scored
    /// option), maybe beside generated tokens.
    pub prompt_steps: u64,
    /// Prompt tokens decoded: suffixes, scored options' tokens and shared prefixes.
    pub prompt_tokens: u64,
    /// Generated tokens fed back to the model.
    pub generated_tokens: u64,
    /// Sum over steps of the sequences in the batch: `slot_steps / steps` is the batch's mean
    /// fill, against `--parallel`.
    pub slot_steps: u64,
    /// Outputs read from the model (rows of logits).
    pub outputs: u64,
    /// Forward passes (decode and wait for the device) of steps carrying prompt tokens, and
    /// of the shared prefixes.
    pub forward_prompt: Duration,
    /// Forward passes of steps that only feed back generated tokens.
    pub forward_decode: Duration,
    /// Choosing each generated token from the outputs.
    pub sampling: Duration,
    /// Log-probabilities of scored options read from the outputs.
    pub scoring: Duration,
    /// Admitting requests: rendering and tokenising prompts (options too), the KV bookkeeping.
    pub admit: Duration,
    /// Everything else the worker does: building batches, turning tokens into text and
    /// streaming it, freeing sequences.
    pub host: Duration,
    /// Waiting for requests with no sequence to decode.
    pub idle: Duration,
}

impl StepTimes {
    /// What happened between `earlier` and this snapshot.
    pub fn since(&self, earlier: &StepTimes) -> StepTimes {
        StepTimes {
            steps: self.steps - earlier.steps,
            prompt_steps: self.prompt_steps - earlier.prompt_steps,
            prompt_tokens: self.prompt_tokens - earlier.prompt_tokens,
            generated_tokens: self.generated_tokens - earlier.generated_tokens,
            slot_steps: self.slot_steps - earlier.slot_steps,
            outputs: self.outputs - earlier.outputs,
            forward_prompt: self.forward_prompt.saturating_sub(earlier.forward_prompt),
            forward_decode: self.forward_decode.saturating_sub(earlier.forward_decode),
            sampling: self.sampling.saturating_sub(earlier.sampling),
            scoring: self.scoring.saturating_sub(earlier.scoring),
            admit: self.admit.saturating_sub(earlier.admit),
            host: self.host.saturating_sub(earlier.host),
            idle: self.idle.saturating_sub(earlier.idle),
        }
    }

    /// The worker's busy time: everything but waiting for requests.
    pub fn busy(&self) -> Duration {
        self.forward_prompt
            + self.forward_decode
            + self.sampling
            + self.scoring
            + self.admit
            + self.host
    }

    /// The phases by name, in the order the split is printed.
    pub fn phases(&self) -> [(&'static str, Duration); 7] {
        [
            ("forward (prompt)", self.forward_prompt),
            ("forward (decode)", self.forward_decode),
            ("sampling", self.sampling),
            ("scoring", self.scoring),
            ("admit", self.admit),
            ("host", self.host),
            ("idle", self.idle),
        ]
    }
}

/// The phase the worker is in, for [`Clock::switch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    ForwardPrompt,
    ForwardDecode,
    Sampling,
    Scoring,
    Admit,
    Host,
    Idle,
}

/// The worker's stopwatch: time runs into one phase at a time, from the last switch on.
/// Published into a shared snapshot after each step, so a reader never blocks the worker for
/// longer than a copy.
pub(super) struct Clock {
    times: StepTimes,
    phase: Phase,
    since: Instant,
    shared: Arc<Mutex<StepTimes>>,
}

impl Clock {
    pub(super) fn new(shared: Arc<Mutex<StepTimes>>) -> Self {
        Self {
            times: StepTimes::default(),
            phase: Phase::Host,
            since: Instant::now(),
            shared,
        }
    }

    /// Charges the time since the last switch to the current phase and enters `next`;
    /// returns the phase left, for code inside a phase to go back to it.
    pub(super) fn switch(&mut self, next: Phase) -> Phase {
        let now = Instant::now();
        let spent = now - self.since;
        let t = &mut self.times;
        *match self.phase {
            Phase::ForwardPrompt => &mut t.forward_prompt,
            Phase::ForwardDecode => &mut t.forward_decode,
            Phase::Sampling => &mut t.sampling,
            Phase::Scoring => &mut t.scoring,
            Phase::Admit => &mut t.admit,
            Phase::Host => &mut t.host,
            Phase::Idle => &mut t.idle,
        } += spent;
        self.since = now;
        std::mem::replace(&mut self.phase, next)
    }

    /// The counters, updated by the step.
    pub(super) fn counts(&mut self) -> &mut StepTimes {
        &mut self.times
    }

    /// Makes the times so far visible to readers.
    pub(super) fn publish(&mut self) {
        self.switch(self.phase);
        if let Ok(mut shared) = self.shared.lock() {
            *shared = self.times.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_is_charged_to_the_phase_it_was_spent_in() {
        let shared = Arc::new(Mutex::new(StepTimes::default()));
        let mut clock = Clock::new(shared.clone());
        clock.switch(Phase::Sampling);
        std::thread::sleep(Duration::from_millis(20));
        clock.switch(Phase::Host);
        clock.counts().steps += 1;
        clock.publish();
        let t = shared.lock().unwrap().clone();
        assert!(t.sampling >= Duration::from_millis(20), "{t:?}");
        assert!(t.forward_decode.is_zero() && t.idle.is_zero(), "{t:?}");
        assert_eq!(t.steps, 1);
        let later = StepTimes {
            steps: 5,
            sampling: t.sampling + Duration::from_millis(7),
            ..t.clone()
        };
        let d = later.since(&t);
        assert_eq!(d.steps, 4);
        assert_eq!(d.sampling, Duration::from_millis(7));
        assert_eq!(d.busy(), Duration::from_millis(7));
    }
}

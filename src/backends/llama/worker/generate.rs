//! Generation: each token sampled for a slot decoded to text, checked against the stop
//! sequences and streamed out as [`Chunk::Token`]s, then [`Chunk::Done`]; and the sampler a
//! request's parameters ask for.

use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use rayon::prelude::*;

use super::super::text::Scan;
use super::timing::Phase;
use super::{GreedyPath, Slot, Worker};
use crate::backends::{Chunk, Completion, GenParams};

pub(super) enum Outcome {
    Continue,
    Finished(&'static str),
    /// The receiver is gone: free the slot silently.
    Abandoned,
}

/// Handles one sampled token: decode, stop check, stream out.
pub(super) fn on_token(
    model: &LlamaModel,
    ctx_per_seq: u32,
    ignore_eos: bool,
    slot: &mut Slot,
    token: LlamaToken,
) -> Outcome {
    if slot.first_token_ms.is_none() {
        slot.first_token_ms = Some(slot.submitted.elapsed().as_millis() as u64);
    }
    let vocab = model.vocab();
    if !ignore_eos && vocab.is_eog(token) {
        return flush(slot, "stop");
    }
    slot.completion_tokens += 1;
    let bytes = vocab.token_to_piece(token, false, None);
    let piece = slot.decoder.push(&bytes);
    match slot.stop.push(&piece) {
        Scan::Stop(out) => {
            if !send_text(slot, out) {
                return Outcome::Abandoned;
            }
            return Outcome::Finished("stop");
        }
        Scan::Emit(out) => {
            if !send_text(slot, out) {
                return Outcome::Abandoned;
            }
        }
    }
    if slot.completion_tokens >= slot.max_tokens || slot.n_past >= ctx_per_seq {
        return flush(slot, "length");
    }
    slot.pending.push(token);
    Outcome::Continue
}

/// Ends generation: releases buffered bytes and the held-back tail.
fn flush(slot: &mut Slot, reason: &'static str) -> Outcome {
    let rest = slot.decoder.finish();
    let mut out = String::new();
    let mut reason = reason;
    match slot.stop.push(&rest) {
        Scan::Stop(s) => {
            out.push_str(&s);
            reason = "stop";
        }
        Scan::Emit(s) => {
            out.push_str(&s);
            out.push_str(&slot.stop.finish());
        }
    }
    if !send_text(slot, out) {
        return Outcome::Abandoned;
    }
    Outcome::Finished(reason)
}

/// Sends a text piece; false when the receiver is gone.
fn send_text(slot: &Slot, text: String) -> bool {
    if text.is_empty() {
        return !slot.tx.is_closed();
    }
    slot.tx.unbounded_send(Ok(Chunk::Token(text))).is_ok()
}

pub(super) fn finish(slot: Slot, reason: &str) {
    let completion = Completion {
        text: slot.stop.text().to_string(),
        prompt_tokens: slot.prompt_tokens,
        completion_tokens: slot.completion_tokens,
        first_token_ms: slot.first_token_ms.unwrap_or(0),
        total_ms: slot.submitted.elapsed().as_millis() as u64,
        finish_reason: reason.to_string(),
    };
    let _ = slot.tx.unbounded_send(Ok(Chunk::Done(completion)));
}

impl Worker<'_> {
    /// The next token of every generating slot whose output the last decode gave, by slot
    /// index: its own sampler's at a temperature above 0, else by the worker's greedy path.
    /// The argmax rows are read together across threads (llama.cpp's threads wait meanwhile).
    pub(super) fn choose_tokens(&mut self) -> Vec<Option<Choice>> {
        let mut chosen = vec![None; self.slots.len()];
        let mut rows: Vec<(usize, i32)> = Vec::new();
        self.clock.switch(Phase::Sampling);
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let Some(slot) = slot.as_mut().filter(|s| s.score.is_none()) else {
                continue;
            };
            let Some(at) = slot.logits_at.take() else {
                continue;
            };
            chosen[i] = match (slot.sampler.as_mut(), self.greedy) {
                (Some(sampler), _) => Some(Choice::Token(sampler.sample(&self.ctx, at))),
                (None, GreedyPath::Argmax) => {
                    rows.push((i, at));
                    None
                }
                (None, GreedyPath::Library) => {
                    Some(Choice::Token(LlamaSampler::greedy().sample(&self.ctx, at)))
                }
                (None, GreedyPath::Device) => Some(
                    self.ctx
                        .sampled_token_ith(at)
                        .map_or(Choice::NoneOnDevice, Choice::Token),
                ),
            };
        }
        let logits: Vec<&[f32]> = rows
            .iter()
            .map(|&(_, at)| self.ctx.get_logits_ith(at))
            .collect();
        let tokens: Vec<LlamaToken> = logits.par_iter().map(|row| argmax(row)).collect();
        for ((i, _), t) in rows.into_iter().zip(tokens) {
            chosen[i] = Some(Choice::Token(t));
        }
        self.clock.switch(Phase::Host);
        chosen
    }
}

/// What was chosen for a slot after a decode.
#[derive(Clone, Copy)]
pub(super) enum Choice {
    Token(LlamaToken),
    /// llama.cpp's backend sampling gave no token for the slot's output.
    NoneOnDevice,
}

/// The sampler for a temperature above 0; `None` for greedy decoding, which takes the
/// largest logit ([`argmax`]).
pub(super) fn make_sampler(params: &GenParams) -> Option<LlamaSampler> {
    if params.temperature <= 0.0 {
        return None;
    }
    let seed = (params.seed ^ (params.seed >> 32)) as u32;
    let mut chain = Vec::new();
    if params.top_p > 0.0 && params.top_p < 1.0 {
        chain.push(LlamaSampler::top_p(params.top_p, 1));
    }
    chain.push(LlamaSampler::temp(params.temperature));
    chain.push(LlamaSampler::dist(seed));
    Some(LlamaSampler::chain_simple(chain))
}

/// The token with the largest logit, the first of equals (as llama.cpp's greedy sampler
/// picks). Two passes over the row: the maximum, found eight lanes at a time so that the
/// compiler vectorises it, then its first position.
pub(super) fn argmax(logits: &[f32]) -> LlamaToken {
    let mut lanes = [f32::NEG_INFINITY; 8];
    let chunks = logits.chunks_exact(8);
    let tail = chunks.remainder();
    for c in chunks {
        for (m, &x) in lanes.iter_mut().zip(c) {
            *m = if x > *m { x } else { *m };
        }
    }
    let max = lanes
        .into_iter()
        .chain(tail.iter().copied())
        .fold(f32::NEG_INFINITY, |m, x| if x > m { x } else { m });
    let at = logits.iter().position(|&x| x == max).unwrap_or(0);
    LlamaToken(at as i32)
}

#[cfg(test)]
mod tests {
    use super::argmax;
    use llama_cpp_2::token::LlamaToken;

    #[test]
    fn argmax_takes_the_first_largest_logit() {
        let mut row: Vec<f32> = (0..262_147)
            .map(|i| ((i * 7919) % 1000) as f32 / 100.0)
            .collect();
        assert_eq!(
            argmax(&row),
            LlamaToken(row.iter().position(|&x| x == 9.99).unwrap() as i32)
        );
        // In the tail that the eight lanes do not cover, and tied with a later one.
        row[262_145] = 20.0;
        row[262_146] = 20.0;
        assert_eq!(argmax(&row), LlamaToken(262_145));
        row[3] = 20.0;
        assert_eq!(argmax(&row), LlamaToken(3));
        assert_eq!(argmax(&[f32::NAN, -1.0, f32::NAN]), LlamaToken(1));
        assert_eq!(argmax(&[]), LlamaToken(0));
    }
}

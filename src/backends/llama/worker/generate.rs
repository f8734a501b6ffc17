//! Generation: each token sampled for a slot decoded to text, checked against the stop
//! sequences and streamed out as [`Chunk::Token`]s, then [`Chunk::Done`]; and the sampler a
//! request's parameters ask for.

use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;

use super::super::text::Scan;
use super::Slot;
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
    slot: &mut Slot,
    token: LlamaToken,
) -> Outcome {
    if slot.first_token_ms.is_none() {
        slot.first_token_ms = Some(slot.submitted.elapsed().as_millis() as u64);
    }
    let vocab = model.vocab();
    if vocab.is_eog(token) {
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

pub(super) fn make_sampler(params: &GenParams) -> LlamaSampler {
    if params.temperature <= 0.0 {
        return LlamaSampler::greedy();
    }
    let seed = (params.seed ^ (params.seed >> 32)) as u32;
    let mut chain = Vec::new();
    if params.top_p > 0.0 && params.top_p < 1.0 {
        chain.push(LlamaSampler::top_p(params.top_p, 1));
    }
    chain.push(LlamaSampler::temp(params.temperature));
    chain.push(LlamaSampler::dist(seed));
    LlamaSampler::chain_simple(chain)
}

//! Likelihood scoring: a request's options read off the model's outputs after its prompt, each
//! option's log-probability sent back as [`Chunk::Scored`](crate::backends::Chunk::Scored);
//! nothing is generated. Kept apart from generation because it reads the output of every token
//! of an option, not one sampled token per step, and needs its own log-softmax.

use llama_cpp_2::token::LlamaToken;
use rayon::prelude::*;

use super::super::prompt::PromptStyle;
use super::timing::Phase;
use super::{model_err, Worker};
use crate::backends::BackendError;

/// A likelihood request in progress. The prompt's last output gives every option's first
/// token; then each option of several tokens is decoded after the prompt (all but its last
/// token, each output predicting the next) and its cells dropped again.
pub(super) struct ScoreState {
    pub(super) options: Vec<Vec<LlamaToken>>,
    pub(super) logprobs: Vec<f64>,
    /// Position right after the prompt, where each option's tokens go.
    pub(super) base: u32,
    /// The option being decoded, and where to look for the next one.
    pub(super) current: Option<usize>,
    pub(super) next_from: usize,
    /// This step's outputs of the current option: (batch index, index of the option token
    /// that the output predicts).
    pub(super) outputs: Vec<(i32, usize)>,
    /// Tokens of the current option put in a batch so far.
    pub(super) fed: usize,
}

impl ScoreState {
    /// Moves to the next option of several tokens; returns its tokens to decode, or `None`
    /// when every option is read.
    fn advance(&mut self) -> Option<Vec<LlamaToken>> {
        let j = (self.next_from..self.options.len()).find(|&j| self.options[j].len() > 1)?;
        self.current = Some(j);
        self.next_from = j + 1;
        self.fed = 0;
        let toks = &self.options[j];
        Some(toks[..toks.len() - 1].to_vec())
    }
}

/// Natural-log probabilities of `ids` under the distribution `logits` define (log-softmax).
/// The normaliser sums the exponential of every logit (262,144 for Gemma 3), once per read
/// output while the decode threads wait, so it uses [`exp_f32`], which the compiler turns into
/// vector code, not the C library's `expf`.
fn log_probs(logits: &[f32], ids: impl IntoIterator<Item = LlamaToken>) -> Vec<f64> {
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f64 = logits
        .chunks(4096)
        .map(|c| c.iter().map(|&x| exp_f32(x - max)).sum::<f32>() as f64)
        .sum();
    let lse = max as f64 + sum.ln();
    ids.into_iter()
        .map(|t| {
            usize::try_from(t.0)
                .ok()
                .and_then(|i| logits.get(i))
                .map_or(f64::NEG_INFINITY, |&x| x as f64 - lse)
        })
        .collect()
}

/// e^x for x ≤ 0 to about 2e-7 relative error (0 below -87): x = n·ln 2 + r with |r| ≤ ln 2 / 2,
/// e^r by its Taylor polynomial to degree 6, 2^n put in the exponent bits. Rounding to n
/// adds and subtracts 1.5·2^23, which needs no rounding instruction, so a loop over a slice
/// vectorises on any x86-64.
#[inline]
fn exp_f32(x: f32) -> f32 {
    const SHIFT: f32 = 12_582_912.0; // 1.5 * 2^23
    const LN2_HI: f32 = 0.693_145_75;
    const LN2_LO: f32 = 1.428_606_8e-6;
    let x = x.max(-87.0);
    let t = x * std::f32::consts::LOG2_E + SHIFT;
    let n = t - SHIFT;
    let r = x - n * LN2_HI - n * LN2_LO;
    let p = 1.0
        + r * (1.0
            + r * (0.5
                + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0))))));
    let n = (t.to_bits() as i32).wrapping_sub(SHIFT.to_bits() as i32);
    p * f32::from_bits(((n + 127) << 23) as u32)
}

impl Worker<'_> {
    /// The tokens of each option as the model would write them after `full` (the rendered
    /// prompt): after a space in the completion layout ("Answer: Yes"), right after the
    /// assistant's turn opens in a chat template. Tokenised together with the prompt where
    /// the prompt's tokens stay a prefix, as the answer would be read; else on its own.
    pub(super) fn score_state(
        &self,
        id: &str,
        full: &str,
        full_tokens: &[LlamaToken],
        options: &[String],
    ) -> Result<ScoreState, BackendError> {
        if options.len() < 2 {
            return Err(model_err(format!(
                "request {id}: likelihood scoring needs at least two options"
            )));
        }
        let sep = if self.style == PromptStyle::Chat {
            ""
        } else {
            " "
        };
        let mut out = Vec::with_capacity(options.len());
        for option in options {
            let joined = self.tokenize(&format!("{full}{sep}{option}"), true);
            let toks = if joined.len() > full_tokens.len() && joined.starts_with(full_tokens) {
                joined[full_tokens.len()..].to_vec()
            } else {
                self.tokenize(&format!("{sep}{option}"), false)
            };
            if toks.is_empty() {
                return Err(model_err(format!(
                    "request {id}: the option {option:?} has no tokens"
                )));
            }
            out.push(toks);
        }
        Ok(ScoreState {
            logprobs: vec![0.0; out.len()],
            options: out,
            base: 0,
            current: None,
            next_from: 0,
            outputs: Vec::new(),
            fed: 0,
        })
    }

    /// Takes the output rows every likelihood request reads after the last decode and turns
    /// them into log-probabilities, all rows at once across threads (llama.cpp's threads wait
    /// meanwhile): a row is the whole vocabulary, and with many sequences a step reads
    /// hundreds of them. Returns each slot's rows, by slot index.
    pub(super) fn score_rows(&mut self) -> Vec<Vec<(RowUse, Vec<f64>)>> {
        /// One output row to read: whose, what for, where, and the tokens it scores.
        struct Read {
            slot: usize,
            use_: RowUse,
            at: i32,
            tokens: Vec<LlamaToken>,
        }
        let mut wanted: Vec<Read> = Vec::new();
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let Some(slot) = slot.as_mut() else { continue };
            let Some(state) = slot.score.as_mut() else {
                continue;
            };
            if let Some(at) = slot.logits_at.take() {
                let tokens = state.options.iter().map(|o| o[0]).collect();
                wanted.push(Read {
                    slot: i,
                    use_: RowUse::First,
                    at,
                    tokens,
                });
            } else if let Some(j) = state.current {
                for (at, k) in state.outputs.drain(..) {
                    let tokens = vec![state.options[j][k]];
                    wanted.push(Read {
                        slot: i,
                        use_: RowUse::Option(j),
                        at,
                        tokens,
                    });
                }
            }
        }
        let mut out: Vec<Vec<(RowUse, Vec<f64>)>> = self.slots.iter().map(|_| Vec::new()).collect();
        if wanted.is_empty() {
            return out;
        }
        self.clock.switch(Phase::Scoring);
        let rows: Vec<&[f32]> = wanted
            .iter()
            .map(|w| self.ctx.get_logits_ith(w.at))
            .collect();
        let read: Vec<Vec<f64>> = rows
            .par_iter()
            .zip(&wanted)
            .map(|(row, w)| log_probs(row, w.tokens.iter().copied()))
            .collect();
        self.clock.switch(Phase::Host);
        for (w, lp) in wanted.into_iter().zip(read) {
            out[w.slot].push((w.use_, lp));
        }
        out
    }

    /// Applies a likelihood request's rows of the last decode ([`Worker::score_rows`]); true
    /// when every option is read. The prompt's last output gives each option's first token; an
    /// option's own outputs give its following tokens, and when all are read its cells are
    /// dropped and the next option of several tokens queued.
    pub(super) fn score_outputs(&mut self, i: usize, rows: Vec<(RowUse, Vec<f64>)>) -> bool {
        let slot = self.slots[i].as_mut().expect("present");
        let state = slot.score.as_mut().expect("a likelihood request");
        for (use_, lp) in rows {
            match use_ {
                RowUse::First => {
                    state.logprobs = lp;
                    state.base = slot.n_past;
                }
                RowUse::Option(j) => state.logprobs[j] += lp[0],
            }
        }
        if !slot.pending.is_empty() {
            return false;
        }
        if state.current.take().is_some() {
            let _ = self
                .ctx
                .clear_kv_cache_seq(Some(slot.seq as u32), Some(state.base), None);
            slot.n_past = state.base;
        }
        match state.advance() {
            Some(tokens) => {
                slot.pending = tokens;
                false
            }
            None => true,
        }
    }
}

/// What an output row read for a likelihood request gives.
pub(super) enum RowUse {
    /// The row after the prompt: every option's first token.
    First,
    /// A row inside option `j`: its next token.
    Option(usize),
}

#[cfg(test)]
mod tests {
    use super::{exp_f32, log_probs};
    use llama_cpp_2::token::LlamaToken;

    #[test]
    fn exp_matches_the_library_over_the_range_used() {
        let mut x = -90.0f32;
        while x <= 0.0 {
            let (got, want) = (exp_f32(x), x.exp());
            let tol = 3e-7 * want + 1e-37;
            assert!((got - want).abs() <= tol, "e^{x}: {got} vs {want}");
            x += 0.001;
        }
    }

    #[test]
    fn log_probs_are_a_log_softmax() {
        let logits: Vec<f32> = (0..10_000)
            .map(|i| ((i * 7919) % 1000) as f32 / 50.0)
            .collect();
        let lse = {
            let m = logits.iter().copied().fold(f32::MIN, f32::max) as f64;
            m + logits
                .iter()
                .map(|&l| (l as f64 - m).exp())
                .sum::<f64>()
                .ln()
        };
        let got = log_probs(&logits, [LlamaToken(3), LlamaToken(9_999), LlamaToken(-1)]);
        assert!((got[0] - (logits[3] as f64 - lse)).abs() < 1e-5, "{got:?}");
        assert!(
            (got[1] - (logits[9_999] as f64 - lse)).abs() < 1e-5,
            "{got:?}"
        );
        assert_eq!(got[2], f64::NEG_INFINITY, "no such token");
    }
}

//! Hidden-state requests (a model loaded with `embeddings`): the prompt up to the end of its
//! input decoded and the final layer's output at its last token sent back as
//! [`Chunk::Hidden`]; nothing is generated.
//!
//! They use a second context. A context with embeddings on makes llama.cpp output every token
//! of a batch, and so run the output layer (for Gemma 3, a 262,144-word vocabulary, most of the
//! model's work per token) on every token of every statement. So the statement is decoded in
//! the main context without outputs, all but its last token; that sequence's KV state is then
//! copied into the embeddings context, which decodes the last token alone and hands back its
//! final-layer output.

use llama_cpp_2::context::session::LlamaStateSeqFlags;

use super::timing::Phase;
use super::{model_err, Worker};
use crate::backends::Chunk;

impl Worker<'_> {
    /// Hands every hidden-state request whose input is decoded (all but its last token) to
    /// the embeddings context: its sequence's KV state copied over, then one decode of all
    /// their last tokens, each giving its final-layer output.
    pub(super) fn hidden_step(&mut self) {
        let ready: Vec<usize> = (0..self.slots.len())
            .filter(|&i| {
                self.slots[i]
                    .as_ref()
                    .is_some_and(|s| s.hidden && s.pending.is_empty())
            })
            .collect();
        let Some((emb, batch)) = self.embeddings.as_mut() else {
            return;
        };
        if ready.is_empty() {
            return;
        }
        batch.clear();
        let mut failed: Option<String> = None;
        let mut at = Vec::with_capacity(ready.len());
        for &i in &ready {
            let slot = self.slots[i].as_ref().expect("filtered");
            let Some(last) = slot.hidden_last else {
                failed = Some("a hidden-state request without input".into());
                break;
            };
            let moved = self
                .ctx
                .state_seq_get(slot.seq, LlamaStateSeqFlags::empty())
                .map_err(|e| e.to_string())
                .and_then(|state| {
                    let _ = emb.clear_kv_cache_seq(Some(slot.seq as u32), None, None);
                    emb.state_seq_set(&state, slot.seq)
                        .map_err(|e| e.to_string())
                });
            if let Err(e) = moved {
                failed = Some(format!(
                    "copying the KV state to the embeddings context: {e}"
                ));
                break;
            }
            if let Err(e) = batch.add(last, slot.n_past as i32, &[slot.seq], true) {
                failed = Some(format!("llama batch: {e}"));
                break;
            }
            at.push((i, batch.n_tokens() - 1));
        }
        if failed.is_none() {
            self.clock.switch(Phase::ForwardPrompt);
            let decoded = emb.decode(batch);
            emb.synchronize();
            self.clock.switch(Phase::Host);
            if let Err(e) = decoded {
                failed = Some(format!("llama.cpp decode failed: {e}"));
            }
        }
        let mut released = Vec::with_capacity(ready.len());
        for (i, k) in at
            .iter()
            .copied()
            .chain(ready.iter().skip(at.len()).map(|&i| (i, -1)))
        {
            let slot = self.slots[i].take().expect("ready");
            let msg = match &failed {
                Some(m) => Err(model_err(format!("request {}: {m}", slot.id))),
                None => emb
                    .embeddings_ith(k)
                    .map(|v| Chunk::Hidden(v.to_vec()))
                    .map_err(|e| {
                        model_err(format!(
                            "request {}: llama.cpp gave no hidden state ({e})",
                            slot.id
                        ))
                    }),
            };
            let _ = slot.tx.unbounded_send(msg);
            let _ = emb.clear_kv_cache_seq(Some(slot.seq as u32), None, None);
            released.push(slot.seq);
        }
        for seq in released {
            self.release_seq(seq);
        }
    }
}

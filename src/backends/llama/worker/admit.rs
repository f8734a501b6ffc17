//! A request turned into a slot: its prompt rendered (the model's chat template or the
//! completion layout) and tokenised, the shared prefix (instruction and shots) evaluated once and
//! held by each slot from its first request on, and only the request's own suffix left to decode.

use llama_cpp_2::model::LlamaChatMessage;
use llama_cpp_2::token::LlamaToken;

use super::super::prompt::{
    completion_input, completion_prefix, completion_suffix, prefix_before_sentinel, PromptStyle,
    INPUT_SENTINEL,
};
use super::super::text::{StopText, Utf8Decoder};
use super::generate::make_sampler;
use super::timing::Phase;
use super::{model_err, GreedyPath, Job, JobKind, PrefixCache, Slot, Worker};
use crate::backends::{BackendError, Chunk, Completion, Prompt, Shot};

impl Worker<'_> {
    pub(super) fn tokenize(&self, text: &str, add_bos: bool) -> Vec<LlamaToken> {
        // Chat templates contain special tokens written as text; user text in the completion
        // layout must never be read as control tokens.
        let parse_special = self.style == PromptStyle::Chat;
        self.model
            .vocab()
            .tokenize(text.as_bytes(), add_bos, parse_special)
    }

    fn render_chat(
        &mut self,
        instruction: &str,
        shots: &[Shot],
        input: &str,
    ) -> Result<String, BackendError> {
        let template = self
            .template
            .as_ref()
            .ok_or_else(|| model_err("the model has no chat template"))?;
        let build = |merge: bool| -> Result<Vec<LlamaChatMessage>, BackendError> {
            let mut turns: Vec<(&str, String)> = Vec::new();
            let instruction = instruction.trim_end();
            let mut pending_instruction = None;
            if !instruction.is_empty() {
                if merge {
                    pending_instruction = Some(instruction);
                } else {
                    turns.push(("system", instruction.to_string()));
                }
            }
            let mut user = |text: &str, turns: &mut Vec<(&str, String)>| {
                let content = match pending_instruction.take() {
                    Some(instr) => format!("{instr}\n\n{text}"),
                    None => text.to_string(),
                };
                turns.push(("user", content));
            };
            for shot in shots {
                user(&shot.input, &mut turns);
                turns.push(("assistant", shot.output.clone()));
            }
            user(input, &mut turns);
            turns
                .into_iter()
                .map(|(role, content)| {
                    LlamaChatMessage::new(role.to_string(), content)
                        .map_err(|e| model_err(format!("bad chat message: {e}")))
                })
                .collect()
        };
        if !self.merge_system {
            let msgs = build(false)?;
            match self.model.apply_chat_template(template, &msgs, true) {
                Ok(s) => return Ok(s),
                Err(_) if !instruction.trim().is_empty() => self.merge_system = true,
                Err(e) => {
                    return Err(model_err(format!(
                        "the model's chat template could not be applied by llama.cpp ({e}); \
                         use the completion prompt style"
                    )))
                }
            }
        }
        let msgs = build(true)?;
        self.model
            .apply_chat_template(template, &msgs, true)
            .map_err(|e| {
                model_err(format!(
                    "the model's chat template could not be applied by llama.cpp ({e}); use the \
                     completion prompt style"
                ))
            })
    }

    /// Makes sure the prefix for this prompt's instruction and shots is evaluated. When it is
    /// not, it is evaluated into `seq` (the free slot about to take the request), which then
    /// holds it for the other slots.
    fn ensure_prefix(&mut self, prompt: &Prompt, seq: i32) -> Result<(), BackendError> {
        if let Some(p) = &self.prefix {
            if p.instruction == prompt.instruction && p.shots == prompt.shots {
                return Ok(());
            }
        }
        self.prefix = None;
        let text = match self.style {
            PromptStyle::Chat => {
                let rendered =
                    self.render_chat(&prompt.instruction, &prompt.shots, INPUT_SENTINEL)?;
                prefix_before_sentinel(&rendered).unwrap_or("").to_string()
            }
            _ => completion_prefix(&prompt.instruction, &prompt.shots),
        };
        let tokens = self.tokenize(&text, true);
        if tokens.len() as u32 >= self.ctx_per_seq {
            return Err(model_err(format!(
                "the shared prompt prefix (instruction and shots) is {} tokens, which does not \
                 fit ctx_per_seq = {}; raise --ctx-per-seq or use fewer shots",
                tokens.len(),
                self.ctx_per_seq
            )));
        }
        self.clear_seq(seq);
        self.clock.counts().prompt_tokens += tokens.len() as u64;
        for (chunk_no, chunk) in tokens.chunks(self.n_batch).enumerate() {
            self.batch.clear();
            let base = chunk_no * self.n_batch;
            for (i, &tok) in chunk.iter().enumerate() {
                let pos = (base + i) as i32;
                let last = base + i + 1 == tokens.len();
                self.batch
                    .add(tok, pos, &[seq], last)
                    .map_err(|e| model_err(format!("llama batch: {e}")))?;
            }
            let outer = self.clock.switch(Phase::ForwardPrompt);
            let decoded = self.ctx.decode(&mut self.batch);
            self.ctx.synchronize();
            self.clock.switch(outer);
            if let Err(e) = decoded {
                self.clear_seq(seq);
                return Err(model_err(format!(
                    "llama.cpp failed to evaluate the prompt prefix: {e}"
                )));
            }
        }
        tracing::debug!(tokens = tokens.len(), "llama prompt prefix evaluated");
        self.generations += 1;
        self.held[seq as usize] = Some(self.generations);
        self.prefix = Some(PrefixCache {
            instruction: prompt.instruction.clone(),
            shots: prompt.shots.clone(),
            text,
            tokens,
            generation: self.generations,
            holder: seq,
        });
        Ok(())
    }

    /// Readies sequence `seq` for a request whose first `shared` tokens are the prefix. A
    /// released sequence holds the prefix it kept and nothing after it ([`Worker::release_seq`]),
    /// so one holding the current prefix is ready as it is; one holding an older prefix lets
    /// it go and gets the current one from its holder, once.
    fn prepare_seq(&mut self, seq: i32, shared: usize) -> Result<(), BackendError> {
        let prefix = self.prefix.as_ref().expect("prefix was just ensured");
        let (generation, holder) = (prefix.generation, prefix.holder);
        let held = self.held[seq as usize];
        if shared == 0 {
            // This request cannot reuse a prefix (its tokens differ at the boundary).
            if held.is_some() {
                self.clear_seq(seq);
            }
            return Ok(());
        }
        if held == Some(generation) {
            return Ok(());
        }
        if held.is_some() {
            self.clear_seq(seq);
        }
        self.ctx
            .copy_kv_cache_seq(holder, seq, None, Some(shared as u32))
            .map_err(|e| model_err(format!("llama KV cache copy: {e}")))?;
        self.held[seq as usize] = Some(generation);
        Ok(())
    }

    /// Prepares a slot for `job` in sequence `seq`. `Ok(None)` when the request finished
    /// without decoding (max_tokens = 0).
    pub(super) fn admit(&mut self, seq: i32, job: &Job) -> Result<Option<Slot>, BackendError> {
        let prompt = &job.req.prompt;
        let hidden = matches!(job.kind, JobKind::Hidden);
        if self.greedy == GreedyPath::Device
            && !(matches!(job.kind, JobKind::Generate) && job.req.params.temperature <= 0.0)
        {
            return Err(model_err(format!(
                "request {}: this model was loaded to choose greedy tokens on the device, \
                 which reads no output rows: it generates at temperature 0 only",
                job.req.id
            )));
        }
        self.ensure_prefix(prompt, seq)?;
        let full = match self.style {
            PromptStyle::Chat => {
                let rendered =
                    self.render_chat(&prompt.instruction, &prompt.shots, &prompt.input)?;
                if hidden {
                    // Up to the end of the input: the template's closing tokens follow it.
                    match rendered.rfind(prompt.input.as_str()) {
                        Some(at) if !prompt.input.is_empty() => {
                            rendered[..at + prompt.input.len()].to_string()
                        }
                        _ => rendered,
                    }
                } else {
                    rendered
                }
            }
            _ => {
                let prefix = self.prefix.as_ref().map_or("", |p| p.text.as_str());
                if hidden {
                    format!("{prefix}{}", completion_input(&prompt.input))
                } else {
                    format!("{prefix}{}", completion_suffix(&prompt.input))
                }
            }
        };
        let prefix = self.prefix.as_ref().expect("prefix was just ensured");
        let full_tokens = self.tokenize(&full, true);
        let score = match &job.kind {
            JobKind::Score(options) => {
                Some(self.score_state(&job.req.id, &full, &full_tokens, options)?)
            }
            _ => None,
        };
        let n_prefix = prefix.tokens.len();
        // Prefer the tokenisation of the whole prompt; it agrees with prefix + suffix whenever
        // no token spans the boundary (which sits right after a newline). Otherwise tokenise
        // the suffix alone so the cached prefix stays valid.
        let (shared, suffix) = if n_prefix > 0 && full.starts_with(&prefix.text) {
            if full_tokens.len() > n_prefix && full_tokens.starts_with(&prefix.tokens) {
                (n_prefix, full_tokens[n_prefix..].to_vec())
            } else {
                let alone = self.tokenize(&full[prefix.text.len()..], false);
                if alone.is_empty() {
                    (0, full_tokens)
                } else {
                    (n_prefix, alone)
                }
            }
        } else {
            (0, full_tokens)
        };
        let prompt_tokens = (shared + suffix.len()) as u32;
        let longest = score
            .as_ref()
            .map_or(0, |s| s.options.iter().map(Vec::len).max().unwrap_or(0))
            as u32;
        if prompt_tokens + longest >= self.ctx_per_seq {
            return Err(model_err(format!(
                "request {}: the prompt is {prompt_tokens} tokens, which does not fit \
                 ctx_per_seq = {}; raise --ctx-per-seq",
                job.req.id, self.ctx_per_seq
            )));
        }
        let params = &job.req.params;
        if matches!(job.kind, JobKind::Generate) && params.max_tokens == 0 {
            let now = job.submitted.elapsed().as_millis() as u64;
            let _ = job.tx.unbounded_send(Ok(Chunk::Done(Completion {
                text: String::new(),
                prompt_tokens,
                completion_tokens: 0,
                first_token_ms: now,
                total_ms: now,
                finish_reason: "length".into(),
            })));
            return Ok(None);
        }
        self.prepare_seq(seq, shared)?;
        let mut suffix = suffix;
        let hidden_last = if hidden {
            if self.embeddings.is_none() {
                return Err(model_err(format!(
                    "request {}: the model was not loaded for hidden states",
                    job.req.id
                )));
            }
            suffix.pop()
        } else {
            None
        };
        Ok(Some(Slot {
            seq,
            hidden,
            hidden_last,
            score,
            id: job.req.id.clone(),
            tx: job.tx.clone(),
            submitted: job.submitted,
            sampler: make_sampler(params),
            pending: suffix,
            n_past: shared as u32,
            logits_at: None,
            prompt_tokens,
            completion_tokens: 0,
            max_tokens: params.max_tokens,
            first_token_ms: None,
            decoder: Utf8Decoder::default(),
            stop: StopText::new(&params.stop),
        }))
    }
}

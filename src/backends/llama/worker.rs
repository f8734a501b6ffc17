//! The worker thread: owns the llama.cpp model and context and decodes every active sequence
//! together, one batch per step (continuous batching).
//!
//! KV cache layout (unified cache, one sequence per slot, `parallel` of them, at most 256):
//! * the shared prompt prefix (instruction + shots) is evaluated once, into the sequence of the
//!   slot whose request first needs it (the prefix's *holder*), at positions `0..n_prefix`;
//! * every other slot gets the prefix cells once, by `copy_kv_cache_seq(holder, slot)` (a
//!   metadata-only copy in a unified cache: the cells are shared), and keeps them between
//!   requests: a request ending drops only the cells after the prefix, so the next request in
//!   that slot decodes its own suffix and nothing else. When the prefix changes, the new one is
//!   evaluated into the slot that needs it first; slots holding the old one keep it until their
//!   next request, which replaces it.
//!
//! Each step builds one `LlamaBatch` with one token for every generating slot plus the pending
//! prompt tokens of newly joined slots (as many as fit), calls `decode` once, then samples one
//! token for every slot whose last pending token was in the batch.
//!
//! This file holds the loading, the job loop and the step; what a request does in a slot has a
//! file of its own: `admit` (a request's prompt rendered and tokenised into a slot, the shared
//! prefix kept per slot), `generate` (each sampled token streamed out), `likelihood`
//! (options scored), `hidden` (final-layer outputs, from a second context) and `timing` (where
//! the worker's time goes, for `kgscope bench llama`).

mod admit;
mod generate;
mod hidden;
mod likelihood;
mod timing;

use std::collections::VecDeque;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use futures::channel::mpsc::UnboundedSender;
use llama_cpp_2::context::params::{LlamaContextParams, LlamaPoolingType};
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use llama_cpp_2::{send_logs_to_tracing, LogOptions};

use super::prompt::{resolve_style, PromptStyle};
use super::text::{StopText, Utf8Decoder};
use crate::backends::{BackendError, Chunk, Request, Scored, Shot};
use generate::{finish, on_token, Choice, Outcome};
use likelihood::ScoreState;
pub use timing::StepTimes;
use timing::{Clock, Phase};

pub(super) type ChunkSender = UnboundedSender<Result<Chunk, BackendError>>;

/// One request handed to the worker.
pub(super) struct Job {
    pub req: Request,
    pub tx: ChunkSender,
    pub submitted: Instant,
    pub kind: JobKind,
}

/// What a request asks of the model.
pub(super) enum JobKind {
    /// Generate text, streamed as [`Chunk::Token`]s, then [`Chunk::Done`].
    Generate,
    /// The prompt up to the end of its input is decoded and the final layer's output at its
    /// last token sent back as [`Chunk::Hidden`]; nothing is generated.
    Hidden,
    /// The prompt is decoded and each option's log-probability after it sent back as
    /// [`Chunk::Scored`]; nothing is generated.
    Score(Vec<String>),
}

/// Everything the worker needs to load the model.
pub(super) struct WorkerConfig {
    pub model_path: PathBuf,
    pub file_name: String,
    pub gpu_layers: u32,
    pub parallel: usize,
    pub ctx_per_seq: u32,
    pub threads: i32,
    pub style: PromptStyle,
    /// Whether the context keeps the final layer's outputs (for hidden-state requests).
    pub embeddings: bool,
    /// FlashAttention: `Some(on)` forces it, `None` lets llama.cpp decide for the device.
    pub flash_attn: Option<bool>,
    /// How a greedy token is chosen; see [`GreedyPath`].
    pub greedy: GreedyPath,
    /// Most tokens per step and per forward pass (`n_batch`, `n_ubatch`); `None`: chosen here.
    pub batch: Option<u32>,
    pub ubatch: Option<u32>,
    /// Generation ignores the end-of-generation token ([`super::LlamaOptions::ignore_eos`]).
    pub ignore_eos: bool,
    /// Where the worker publishes its [`StepTimes`].
    pub times: Arc<Mutex<StepTimes>>,
}

/// How a token is chosen at temperature 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GreedyPath {
    /// kgscope reads the output row and takes its largest logit (the first, on a tie, as
    /// llama.cpp's greedy sampler does): one pass over the row.
    #[default]
    Argmax,
    /// llama.cpp's greedy sampler, which first copies the row into a candidate list of the
    /// whole vocabulary (12 bytes a word, 262,144 words for Gemma 3) for every token: the
    /// baseline `kgscope bench llama --greedy library` measures against.
    Library,
    /// llama.cpp's backend sampling: a greedy sampler per sequence runs in the model's own
    /// graph, on the device, and only the chosen token comes back (no output rows are copied
    /// to the host). Generation at temperature 0 only: a model loaded so refuses likelihood,
    /// hidden-state and sampled (temperature > 0) requests.
    Device,
}

/// What the worker reports once the model is loaded.
#[derive(Debug, Clone)]
pub(super) struct Loaded {
    pub style: PromptStyle,
    pub general_name: Option<String>,
    /// Width of a hidden state (the model's output embedding size).
    pub n_embd: usize,
}

fn model_err(msg: impl Into<String>) -> BackendError {
    BackendError::Model(msg.into())
}

/// llama.cpp's process-wide backend: initialised once, never freed. Its log output is silenced
/// unless `KGSCOPE_LLAMA_LOG` is set (then it goes to `tracing`).
fn runtime() -> Result<&'static LlamaBackend, BackendError> {
    static RT: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();
    RT.get_or_init(|| {
        let enabled =
            std::env::var_os("KGSCOPE_LLAMA_LOG").is_some_and(|v| !v.is_empty() && v != "0");
        send_logs_to_tracing(LogOptions::default().with_logs_enabled(enabled));
        LlamaBackend::init().map_err(|e| format!("could not initialise llama.cpp: {e}"))
    })
    .as_ref()
    .map_err(|e| model_err(e.clone()))
}

/// Whether llama.cpp found a device to offload layers to.
pub(super) fn gpu_offload() -> bool {
    runtime().is_ok_and(LlamaBackend::supports_gpu_offload)
}

/// Runs on the worker thread: loads the model, reports through `ready`, then serves jobs until
/// the job channel closes.
pub(super) fn run(
    cfg: WorkerConfig,
    jobs: Receiver<Job>,
    ready: SyncSender<Result<Loaded, BackendError>>,
) {
    let model = match load_model(&cfg) {
        Ok(m) => m,
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    let worker = match Worker::new(&cfg, &model) {
        Ok(w) => w,
        Err(e) => {
            let _ = ready.send(Err(e));
            return;
        }
    };
    let loaded = Loaded {
        style: worker.style,
        general_name: worker.general_name.clone(),
        n_embd: model.n_embd_out().max(0) as usize,
    };
    if ready.send(Ok(loaded)).is_err() {
        return;
    }
    worker.serve(jobs);
}

fn load_model(cfg: &WorkerConfig) -> Result<LlamaModel, BackendError> {
    let backend = runtime()?;
    let params = LlamaModelParams::default().with_n_gpu_layers(cfg.gpu_layers);
    LlamaModel::load_from_file(backend, &cfg.model_path, &params).map_err(|e| {
        model_err(format!(
            "llama.cpp could not load the model {} ({e}): the file may be corrupt, truncated, or \
             use an architecture this llama.cpp build does not support; set KGSCOPE_LLAMA_LOG=1 \
             to see llama.cpp's own log",
            cfg.model_path.display()
        ))
    })
}

/// The evaluated shared prefix.
struct PrefixCache {
    instruction: String,
    shots: Vec<Shot>,
    text: String,
    tokens: Vec<LlamaToken>,
    /// Counts the prefixes evaluated, so that a slot knows whether the one it holds is current.
    generation: u64,
    /// The sequence it was evaluated into, which keeps it while it is current.
    holder: i32,
}

/// One active request.
struct Slot {
    seq: i32,
    /// A hidden-state request: done after its input is decoded.
    hidden: bool,
    /// A hidden-state request's last input token, decoded in the embeddings context.
    hidden_last: Option<LlamaToken>,
    /// A likelihood request's options and what has been read of them.
    score: Option<ScoreState>,
    id: String,
    tx: ChunkSender,
    submitted: Instant,
    /// The sampler a temperature above 0 needs; greedy decoding has none (see [`GreedyPath`]).
    sampler: Option<LlamaSampler>,
    /// Tokens still to be fed to the model (prompt suffix, then each sampled token).
    pending: Vec<LlamaToken>,
    /// Position of the next token to feed.
    n_past: u32,
    /// Batch index of this slot's logits after the current decode.
    logits_at: Option<i32>,
    prompt_tokens: u32,
    completion_tokens: u32,
    max_tokens: u32,
    first_token_ms: Option<u64>,
    decoder: Utf8Decoder,
    stop: StopText,
}

struct Worker<'m> {
    model: &'m LlamaModel,
    ctx: LlamaContext<'m>,
    batch: LlamaBatch<'static>,
    n_batch: usize,
    ctx_per_seq: u32,
    style: PromptStyle,
    general_name: Option<String>,
    template: Option<LlamaChatTemplate>,
    /// Whether the chat template rejected a system message (then the instruction is merged
    /// into the first user message).
    merge_system: bool,
    prefix: Option<PrefixCache>,
    /// The last prefix generation evaluated (the next one gets a higher number).
    generations: u64,
    /// Which prefix generation each sequence holds at its first positions, if any.
    held: Vec<Option<u64>>,
    slots: Vec<Option<Slot>>,
    /// The embeddings context and its batch, for hidden-state requests.
    embeddings: Option<(LlamaContext<'m>, LlamaBatch<'static>)>,
    greedy: GreedyPath,
    ignore_eos: bool,
    clock: Clock,
}

impl<'m> Worker<'m> {
    fn new(cfg: &WorkerConfig, model: &'m LlamaModel) -> Result<Self, BackendError> {
        let backend = runtime()?;
        let n_seq = cfg.parallel;
        // Each slot holds at most ctx_per_seq positions, the shared prefix's cells counted in
        // every slot although they are stored once.
        let n_ctx = cfg.ctx_per_seq.saturating_mul(n_seq as u32);
        let (n_batch, n_ubatch) = batch_sizes(cfg.parallel, cfg.batch, cfg.ubatch);
        let mut params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(n_ctx))
            .with_n_batch(n_batch)
            .with_n_ubatch(n_ubatch)
            .with_n_seq_max(n_seq as u32)
            // One cell pool shared by all sequences: prefix cells are shared without copying
            // and a batch mixing any sequences is decoded in one pass.
            .with_kv_unified(true)
            .with_n_threads(cfg.threads)
            .with_n_threads_batch(cfg.threads);
        if let Some(on) = cfg.flash_attn {
            params = params.with_flash_attention_policy(if on {
                llama_cpp_sys_2::LLAMA_FLASH_ATTN_TYPE_ENABLED
            } else {
                llama_cpp_sys_2::LLAMA_FLASH_ATTN_TYPE_DISABLED
            });
        }
        let embeddings = if cfg.embeddings {
            // Hidden states are per token (the statement's last), never pooled.
            let params = params
                .clone()
                .with_embeddings(true)
                .with_pooling_type(LlamaPoolingType::None);
            let ctx = model.new_context(backend, params).map_err(|e| {
                model_err(format!(
                    "llama.cpp could not create a context for hidden states ({e}); lower \
                     --parallel"
                ))
            })?;
            Some((ctx, LlamaBatch::new(cfg.parallel.max(1), 1)))
        } else {
            None
        };
        let ctx = if cfg.greedy == GreedyPath::Device {
            let samplers = (0..n_seq as i32)
                .map(|seq| (seq, LlamaSampler::chain_simple([LlamaSampler::greedy()])));
            model.new_context_with_samplers(backend, params, samplers)
        } else {
            model.new_context(backend, params)
        };
        let ctx = ctx.map_err(|e| {
            model_err(format!(
                "llama.cpp could not create a context of {n_ctx} tokens ({} sequences x \
                 {} tokens) for {} ({e}); lower --parallel or --ctx-per-seq",
                n_seq,
                cfg.ctx_per_seq,
                cfg.model_path.display()
            ))
        })?;
        let general_name = model.meta_val_str("general.name").ok();
        let template = model.chat_template(None).ok();
        let style = resolve_style(
            cfg.style,
            general_name.as_deref(),
            &cfg.file_name,
            template.is_some(),
        );
        if style == PromptStyle::Chat && template.is_none() {
            return Err(model_err(format!(
                "prompt style chat needs a chat template, but {} has none \
                 (tokenizer.chat_template is missing); use the completion prompt style",
                cfg.model_path.display()
            )));
        }
        Ok(Self {
            model,
            ctx,
            batch: LlamaBatch::new(n_batch as usize, 1),
            n_batch: n_batch as usize,
            ctx_per_seq: cfg.ctx_per_seq,
            style,
            general_name,
            template,
            merge_system: false,
            prefix: None,
            generations: 0,
            held: vec![None; cfg.parallel],
            slots: (0..cfg.parallel).map(|_| None).collect(),
            embeddings,
            greedy: cfg.greedy,
            ignore_eos: cfg.ignore_eos,
            clock: Clock::new(cfg.times.clone()),
        })
    }

    fn active(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    fn serve(mut self, jobs: Receiver<Job>) {
        let mut queue: VecDeque<Job> = VecDeque::new();
        loop {
            if self.active() == 0 && queue.is_empty() {
                self.clock.switch(Phase::Idle);
                let job = jobs.recv();
                self.clock.switch(Phase::Host);
                match job {
                    Ok(job) => queue.push_back(job),
                    Err(_) => return,
                }
            }
            loop {
                match jobs.try_recv() {
                    Ok(job) => queue.push_back(job),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => {
                        // The backend was dropped: cancel what is left and stop.
                        for job in queue.drain(..) {
                            let _ = job.tx.unbounded_send(Err(BackendError::Cancelled));
                        }
                        for i in 0..self.slots.len() {
                            if let Some(slot) = self.slots[i].take() {
                                let _ = slot.tx.unbounded_send(Err(BackendError::Cancelled));
                                self.release_seq(slot.seq);
                            }
                        }
                        return;
                    }
                }
            }
            // Fill free slots.
            while let Some(free) = self.slots.iter().position(|s| s.is_none()) {
                let Some(job) = queue.pop_front() else { break };
                if job.tx.is_closed() {
                    continue;
                }
                let seq = free as i32;
                self.clock.switch(Phase::Admit);
                let admitted = self.admit(seq, &job);
                self.clock.switch(Phase::Host);
                match admitted {
                    Ok(Some(slot)) => self.slots[free] = Some(slot),
                    Ok(None) => {}
                    Err(e) => {
                        tracing::debug!(id = %job.req.id, error = %e, "llama request failed");
                        self.release_seq(seq);
                        let _ = job.tx.unbounded_send(Err(e));
                    }
                }
            }
            if self.active() > 0 {
                self.step();
            }
            self.clock.publish();
        }
    }

    /// Empties a sequence entirely, the prefix it held included.
    fn clear_seq(&mut self, seq: i32) {
        let _ = self.ctx.clear_kv_cache_seq(Some(seq as u32), None, None);
        if let Some((emb, _)) = self.embeddings.as_mut() {
            let _ = emb.clear_kv_cache_seq(Some(seq as u32), None, None);
        }
        self.held[seq as usize] = None;
        if self.prefix.as_ref().is_some_and(|p| p.holder == seq) {
            // Its cells are gone with the holder: the next request evaluates it again.
            self.prefix = None;
        }
    }

    /// Frees a slot's sequence after its request: a slot holding the current prefix keeps it
    /// (the cells after it are dropped), any other is emptied.
    fn release_seq(&mut self, seq: i32) {
        let current = self.prefix.as_ref().map(|p| (p.generation, p.tokens.len()));
        match current {
            Some((generation, n_prefix)) if self.held[seq as usize] == Some(generation) => {
                let _ = self
                    .ctx
                    .clear_kv_cache_seq(Some(seq as u32), Some(n_prefix as u32), None);
                if let Some((emb, _)) = self.embeddings.as_mut() {
                    let _ = emb.clear_kv_cache_seq(Some(seq as u32), None, None);
                }
            }
            _ => self.clear_seq(seq),
        }
    }

    /// One decode for all active slots.
    fn step(&mut self) {
        // Drop slots whose receiver is gone.
        for i in 0..self.slots.len() {
            if self.slots[i].as_ref().is_some_and(|s| s.tx.is_closed()) {
                let slot = self.slots[i].take().expect("checked");
                self.release_seq(slot.seq);
            }
        }
        self.batch.clear();
        let (mut prompt_tokens, mut generated_tokens, mut sequences, mut outputs) = (0, 0, 0, 0);
        let mut budget = self.n_batch;
        // Generating slots (one pending token) first, then prompt suffixes in slot order.
        let mut order: Vec<usize> = (0..self.slots.len())
            .filter(|&i| {
                self.slots[i]
                    .as_ref()
                    .is_some_and(|s| !s.pending.is_empty())
            })
            .collect();
        order.sort_by_key(|&i| self.slots[i].as_ref().is_some_and(|s| s.pending.len() > 1));
        let mut failed: Option<String> = None;
        for i in order {
            if budget == 0 {
                break;
            }
            let slot = self.slots[i].as_mut().expect("filtered");
            let take = slot.pending.len().min(budget);
            let complete = take == slot.pending.len();
            // After its first token a generating slot's pending tokens are sampled ones.
            if slot.completion_tokens > 0 && slot.score.is_none() {
                generated_tokens += take as u64;
            } else {
                prompt_tokens += take as u64;
            }
            sequences += 1;
            // An option being scored needs the output of every one of its tokens.
            let mut option = slot.score.as_mut().filter(|s| s.current.is_some());
            for (k, &tok) in slot.pending[..take].iter().enumerate() {
                // A hidden-state request's outputs come from the embeddings context.
                let logits = option.is_some() || (complete && k + 1 == take && !slot.hidden);
                outputs += u64::from(logits);
                if let Err(e) =
                    self.batch
                        .add(tok, (slot.n_past as usize + k) as i32, &[slot.seq], logits)
                {
                    failed = Some(format!("llama batch: {e}"));
                }
                if let Some(s) = option.as_mut() {
                    s.fed += 1;
                    s.outputs.push((self.batch.n_tokens() - 1, s.fed));
                }
            }
            if complete && !slot.hidden && option.is_none() {
                slot.logits_at = Some(self.batch.n_tokens() - 1);
            }
            slot.pending.drain(..take);
            slot.n_past += take as u32;
            budget -= take;
        }
        if failed.is_none() && self.batch.n_tokens() > 0 {
            let counts = self.clock.counts();
            counts.steps += 1;
            counts.prompt_steps += u64::from(prompt_tokens > 0);
            counts.prompt_tokens += prompt_tokens;
            counts.generated_tokens += generated_tokens;
            counts.slot_steps += sequences;
            counts.outputs += outputs;
            self.clock.switch(if prompt_tokens > 0 {
                Phase::ForwardPrompt
            } else {
                Phase::ForwardDecode
            });
            let decoded = self.ctx.decode(&mut self.batch);
            // A GPU back-end computes asynchronously: wait here, so that its time is the
            // forward pass's and not that of the first output read.
            self.ctx.synchronize();
            self.clock.switch(Phase::Host);
            if let Err(e) = decoded {
                failed = Some(match e {
                    llama_cpp_2::DecodeError::NoKvCacheSlot => format!(
                        "llama.cpp KV cache is full ({} cells); lower --parallel or raise \
                         --ctx-per-seq",
                        self.ctx.n_ctx()
                    ),
                    other => format!("llama.cpp decode failed: {other}"),
                });
            }
        }
        if let Some(msg) = failed {
            for i in 0..self.slots.len() {
                if let Some(slot) = self.slots[i].take() {
                    tracing::debug!(id = %slot.id, error = %msg, "llama request failed");
                    let _ = slot
                        .tx
                        .unbounded_send(Err(model_err(format!("request {}: {msg}", slot.id))));
                }
            }
            // The cache's state after a failed decode is not known: start afresh.
            for seq in 0..self.slots.len() {
                self.clear_seq(seq as i32);
            }
            return;
        }
        let mut scored = self.score_rows();
        let mut chosen = self.choose_tokens();
        for i in 0..self.slots.len() {
            let Some(slot) = self.slots[i].as_mut() else {
                continue;
            };
            if slot.score.is_some() {
                if self.score_outputs(i, std::mem::take(&mut scored[i])) {
                    let slot = self.slots[i].take().expect("present");
                    let state = slot.score.expect("a likelihood request");
                    let _ = slot.tx.unbounded_send(Ok(Chunk::Scored(Scored {
                        tokens: state.options.iter().map(|o| o.len() as u32).collect(),
                        logprobs: state.logprobs,
                        prompt_tokens: slot.prompt_tokens,
                        total_ms: slot.submitted.elapsed().as_millis() as u64,
                    })));
                    self.release_seq(slot.seq);
                }
                continue;
            }
            let token = match chosen[i].take() {
                None => continue,
                Some(Choice::Token(token)) => token,
                Some(Choice::NoneOnDevice) => {
                    let slot = self.slots[i].take().expect("present");
                    let _ = slot.tx.unbounded_send(Err(model_err(format!(
                        "request {}: llama.cpp chose no token on the device",
                        slot.id
                    ))));
                    self.release_seq(i as i32);
                    continue;
                }
            };
            match on_token(self.model, self.ctx_per_seq, self.ignore_eos, slot, token) {
                Outcome::Continue => {}
                Outcome::Finished(reason) => {
                    let slot = self.slots[i].take().expect("present");
                    finish(slot, reason);
                    self.release_seq(i as i32);
                }
                Outcome::Abandoned => {
                    self.slots[i] = None;
                    self.release_seq(i as i32);
                }
            }
        }
        self.hidden_step();
    }
}

/// `n_batch` (the most tokens one step decodes) and `n_ubatch` (the most one forward pass
/// computes) unless the user set them. A step holds a token of every generating slot plus the
/// prompts of the slots that just joined; prompt tokens beyond `n_batch` wait for the next
/// step (latency, not extra work), so it grows with the slots: 4 tokens each, 512 at least.
/// A forward pass of 512 tokens is llama.cpp's own default.
pub fn batch_sizes(parallel: usize, batch: Option<u32>, ubatch: Option<u32>) -> (u32, u32) {
    let n_batch = batch
        .unwrap_or((parallel as u32 * 4).max(512))
        .max(parallel as u32);
    let n_ubatch = ubatch.unwrap_or(512).clamp(1, n_batch);
    (n_batch, n_ubatch)
}

//! The worker thread: owns the llama.cpp model and context and decodes every active sequence
//! together, one batch per step (continuous batching).
//!
//! KV cache layout (unified cache, `parallel + 1` sequences):
//! * sequence 0 holds the shared prompt prefix (instruction + shots), evaluated once;
//! * sequences `1..=parallel` are slots. A request entering a slot gets the prefix cells by
//!   `copy_kv_cache_seq(0, slot)` (a metadata-only copy in a unified cache: the cells are shared)
//!   and only its own suffix tokens are decoded. When the prefix changes, sequence 0 is cleared
//!   and the new prefix evaluated; slots still running keep the old prefix cells until they end.
//!
//! Each step builds one `LlamaBatch` with one token for every generating slot plus the pending
//! prompt tokens of newly joined slots (as many as fit), calls `decode` once, then samples one
//! token for every slot whose last pending token was in the batch.
//!
//! Hidden-state requests (a model loaded with `embeddings`) use a second context. A context with
//! embeddings on makes llama.cpp output every token of a batch, and so run the output layer
//! (for Gemma 3, a 262,144-word vocabulary, most of the model's work per token) on every token
//! of every statement. So the statement is decoded in the main context without outputs, all
//! but its last token; that sequence's KV state is then copied into the embeddings context,
//! which decodes the last token alone and hands back its final-layer output.

use std::collections::VecDeque;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError};
use std::sync::OnceLock;
use std::time::Instant;

use futures::channel::mpsc::UnboundedSender;
use llama_cpp_2::context::params::{LlamaContextParams, LlamaPoolingType};
use llama_cpp_2::context::session::LlamaStateSeqFlags;
use llama_cpp_2::context::LlamaContext;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::model::{LlamaChatMessage, LlamaChatTemplate, LlamaModel};
use llama_cpp_2::sampling::LlamaSampler;
use llama_cpp_2::token::LlamaToken;
use llama_cpp_2::{send_logs_to_tracing, LogOptions};

use super::prompt::{
    completion_input, completion_prefix, completion_suffix, prefix_before_sentinel, resolve_style,
    PromptStyle, INPUT_SENTINEL,
};
use super::text::{Scan, StopText, Utf8Decoder};
use crate::backends::{BackendError, Chunk, Completion, GenParams, Prompt, Request, Scored, Shot};

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

/// The evaluated shared prefix in sequence 0.
struct PrefixCache {
    instruction: String,
    shots: Vec<Shot>,
    text: String,
    tokens: Vec<LlamaToken>,
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
    sampler: LlamaSampler,
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

/// A likelihood request in progress. The prompt's last output gives every option's first
/// token; then each option of several tokens is decoded after the prompt (all but its last
/// token, each output predicting the next) and its cells dropped again.
struct ScoreState {
    options: Vec<Vec<LlamaToken>>,
    logprobs: Vec<f64>,
    /// Position right after the prompt, where each option's tokens go.
    base: u32,
    /// The option being decoded, and where to look for the next one.
    current: Option<usize>,
    next_from: usize,
    /// This step's outputs of the current option: (batch index, index of the option token
    /// that the output predicts).
    outputs: Vec<(i32, usize)>,
    /// Tokens of the current option put in a batch so far.
    fed: usize,
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

enum Outcome {
    Continue,
    Finished(&'static str),
    /// The receiver is gone: free the slot silently.
    Abandoned,
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
    slots: Vec<Option<Slot>>,
    /// The embeddings context and its batch, for hidden-state requests.
    embeddings: Option<(LlamaContext<'m>, LlamaBatch<'static>)>,
}

impl<'m> Worker<'m> {
    fn new(cfg: &WorkerConfig, model: &'m LlamaModel) -> Result<Self, BackendError> {
        let backend = runtime()?;
        let n_seq = cfg.parallel + 1;
        let n_ctx = cfg.ctx_per_seq.saturating_mul(n_seq as u32);
        let n_batch = (cfg.parallel as u32).max(512);
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(n_ctx))
            .with_n_batch(n_batch)
            .with_n_ubatch(n_batch.min(512))
            .with_n_seq_max(n_seq as u32)
            // One cell pool shared by all sequences: prefix cells are shared without copying
            // and a batch mixing any sequences is decoded in one pass.
            .with_kv_unified(true)
            .with_n_threads(cfg.threads)
            .with_n_threads_batch(cfg.threads);
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
        let ctx = model.new_context(backend, params).map_err(|e| {
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
            slots: (0..cfg.parallel).map(|_| None).collect(),
            embeddings,
        })
    }

    fn active(&self) -> usize {
        self.slots.iter().filter(|s| s.is_some()).count()
    }

    fn serve(mut self, jobs: Receiver<Job>) {
        let mut queue: VecDeque<Job> = VecDeque::new();
        loop {
            if self.active() == 0 && queue.is_empty() {
                match jobs.recv() {
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
                                self.free_seq(slot.seq);
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
                let seq = free as i32 + 1;
                match self.admit(seq, &job) {
                    Ok(Some(slot)) => self.slots[free] = Some(slot),
                    Ok(None) => {}
                    Err(e) => {
                        tracing::debug!(id = %job.req.id, error = %e, "llama request failed");
                        self.free_seq(seq);
                        let _ = job.tx.unbounded_send(Err(e));
                    }
                }
            }
            if self.active() > 0 {
                self.step();
            }
        }
    }

    fn free_seq(&mut self, seq: i32) {
        let _ = self.ctx.clear_kv_cache_seq(Some(seq as u32), None, None);
        if let Some((emb, _)) = self.embeddings.as_mut() {
            let _ = emb.clear_kv_cache_seq(Some(seq as u32), None, None);
        }
    }

    fn tokenize(&self, text: &str, add_bos: bool) -> Vec<LlamaToken> {
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

    /// Makes sure sequence 0 holds the prefix for this prompt's instruction and shots.
    fn ensure_prefix(&mut self, prompt: &Prompt) -> Result<(), BackendError> {
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
        self.free_seq(0);
        for (chunk_no, chunk) in tokens.chunks(self.n_batch).enumerate() {
            self.batch.clear();
            let base = chunk_no * self.n_batch;
            for (i, &tok) in chunk.iter().enumerate() {
                let pos = (base + i) as i32;
                let last = base + i + 1 == tokens.len();
                self.batch
                    .add(tok, pos, &[0], last)
                    .map_err(|e| model_err(format!("llama batch: {e}")))?;
            }
            if let Err(e) = self.ctx.decode(&mut self.batch) {
                self.free_seq(0);
                return Err(model_err(format!(
                    "llama.cpp failed to evaluate the prompt prefix: {e}"
                )));
            }
        }
        tracing::debug!(tokens = tokens.len(), "llama prompt prefix evaluated");
        self.prefix = Some(PrefixCache {
            instruction: prompt.instruction.clone(),
            shots: prompt.shots.clone(),
            text,
            tokens,
        });
        Ok(())
    }

    /// Prepares a slot for `job` in sequence `seq`. `Ok(None)` when the request finished
    /// without decoding (max_tokens = 0).
    fn admit(&mut self, seq: i32, job: &Job) -> Result<Option<Slot>, BackendError> {
        let prompt = &job.req.prompt;
        let hidden = matches!(job.kind, JobKind::Hidden);
        self.ensure_prefix(prompt)?;
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
        self.free_seq(seq);
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
        if shared > 0 {
            self.ctx
                .copy_kv_cache_seq(0, seq, None, None)
                .map_err(|e| model_err(format!("llama KV cache copy: {e}")))?;
        }
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

    /// The tokens of each option as the model would write them after `full` (the rendered
    /// prompt): after a space in the completion layout ("Answer: Yes"), right after the
    /// assistant's turn opens in a chat template. Tokenised together with the prompt where
    /// the prompt's tokens stay a prefix, as the answer would be read; else on its own.
    fn score_state(
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

    /// One decode for all active slots.
    fn step(&mut self) {
        // Drop slots whose receiver is gone.
        for i in 0..self.slots.len() {
            if self.slots[i].as_ref().is_some_and(|s| s.tx.is_closed()) {
                let slot = self.slots[i].take().expect("checked");
                self.free_seq(slot.seq);
            }
        }
        self.batch.clear();
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
            // An option being scored needs the output of every one of its tokens.
            let mut option = slot.score.as_mut().filter(|s| s.current.is_some());
            for (k, &tok) in slot.pending[..take].iter().enumerate() {
                // A hidden-state request's outputs come from the embeddings context.
                let logits = option.is_some() || (complete && k + 1 == take && !slot.hidden);
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
            if let Err(e) = self.ctx.decode(&mut self.batch) {
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
                    self.free_seq(slot.seq);
                }
            }
            return;
        }
        for i in 0..self.slots.len() {
            let Some(slot) = self.slots[i].as_mut() else {
                continue;
            };
            if slot.score.is_some() {
                if self.score_outputs(i) {
                    let slot = self.slots[i].take().expect("present");
                    let state = slot.score.expect("a likelihood request");
                    let _ = slot.tx.unbounded_send(Ok(Chunk::Scored(Scored {
                        tokens: state.options.iter().map(|o| o.len() as u32).collect(),
                        logprobs: state.logprobs,
                        prompt_tokens: slot.prompt_tokens,
                        total_ms: slot.submitted.elapsed().as_millis() as u64,
                    })));
                    self.free_seq(slot.seq);
                }
                continue;
            }
            let Some(at) = slot.logits_at.take() else {
                continue;
            };
            let token = slot.sampler.sample(&self.ctx, at);
            match on_token(self.model, self.ctx_per_seq, slot, token) {
                Outcome::Continue => {}
                Outcome::Finished(reason) => {
                    let slot = self.slots[i].take().expect("present");
                    finish(slot, reason);
                    self.free_seq(i as i32 + 1);
                }
                Outcome::Abandoned => {
                    self.slots[i] = None;
                    self.free_seq(i as i32 + 1);
                }
            }
        }
        self.hidden_step();
    }

    /// Reads a likelihood request's outputs of the last decode; true when every option is
    /// read. The prompt's last output gives each option's first token; an option's own
    /// outputs give its following tokens, and when all are read its cells are dropped and
    /// the next option of several tokens queued.
    fn score_outputs(&mut self, i: usize) -> bool {
        let slot = self.slots[i].as_mut().expect("present");
        let state = slot.score.as_mut().expect("a likelihood request");
        if let Some(at) = slot.logits_at.take() {
            let first = state.options.iter().map(|o| o[0]);
            state.logprobs = log_probs(self.ctx.get_logits_ith(at), first);
            state.base = slot.n_past;
        } else if let Some(j) = state.current {
            for (at, k) in state.outputs.drain(..) {
                let target = state.options[j][k];
                state.logprobs[j] += log_probs(self.ctx.get_logits_ith(at), [target])[0];
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

    /// Hands every hidden-state request whose input is decoded (all but its last token) to
    /// the embeddings context: its sequence's KV state copied over, then one decode of all
    /// their last tokens, each giving its final-layer output.
    fn hidden_step(&mut self) {
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
            if let Err(e) = emb.decode(batch) {
                failed = Some(format!("llama.cpp decode failed: {e}"));
            }
        }
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
            let _ = self
                .ctx
                .clear_kv_cache_seq(Some(slot.seq as u32), None, None);
            let _ = emb.clear_kv_cache_seq(Some(slot.seq as u32), None, None);
        }
    }
}

/// Handles one sampled token: decode, stop check, stream out.
fn on_token(model: &LlamaModel, ctx_per_seq: u32, slot: &mut Slot, token: LlamaToken) -> Outcome {
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

fn finish(slot: Slot, reason: &str) {
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

fn make_sampler(params: &GenParams) -> LlamaSampler {
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

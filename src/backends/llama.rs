//! Local GGUF models through llama.cpp (llama-cpp-2).
//!
//! [`LlamaCppBackend`] owns one dedicated worker thread holding the model and a llama.cpp
//! context. [`Backend::ask`] only queues the request and returns a stream at once; the worker
//! keeps up to [`LlamaOptions::parallel`] requests active and decodes them **together**: every
//! step is one `llama_decode` call on one batch holding the next token of every generating
//! request (plus the prompt tokens of requests that just joined). A request joins as soon as a
//! slot frees up (continuous batching).
//!
//! Prompt prefix caching: a prompt is rendered as `prefix + suffix`, where the prefix depends
//! only on the instruction and the shots and ends right after a newline (see [`PromptStyle`]).
//! The prefix is evaluated once into KV sequence 0; each request copies sequence 0 into its own
//! sequence (cells are shared, nothing is recomputed) and decodes only its suffix. A different
//! instruction or shot list re-evaluates the prefix.
//!
//! Dropping a request's stream frees its slot at the next step. Dropping the backend cancels
//! queued and running requests (they end with [`BackendError::Cancelled`]) and joins the worker.
//!
//! llama.cpp's own log is silenced; set `KGSCOPE_LLAMA_LOG=1` to route it to `tracing`.
//!
//! Determinism: temperature 0 is greedy decoding. With `parallel = 1` every request is decoded
//! in the same KV layout whatever ran before it, so a run (and a resumed run) is reproducible
//! to the token. With `parallel > 1` it is not quite: llama.cpp's CPU kernels are not
//! batch-invariant (batched and single-row matmul kernels, and attention over a shared KV
//! cache, sum in different orders), so a near-tie between two tokens can go either way
//! depending on which requests share a batch. Seen on the default model: 3 of 60 yes/no
//! answers flipped between two runs at `parallel = 4`.

mod gguf;
mod prompt;
mod text;
mod worker;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Instant;

use futures::future::BoxFuture;
use futures::stream::{self, BoxStream, StreamExt};

pub(crate) use prompt::looks_instruction_tuned;
pub(crate) use prompt::{completion_prefix, completion_suffix};
pub use prompt::{template_family, PromptFormat, PromptStyle};

use crate::backends::{Backend, BackendError, Capabilities, Chunk, Request, ScoreRequest, Scored};
pub use worker::{batch_sizes, GreedyPath, StepTimes};
use worker::{Job, JobKind, WorkerConfig};

/// Whether llama.cpp has a GPU to offload to: a `cuda`, `vulkan` or `metal` build on a machine
/// with such a device, or a `llama-dynamic` build whose shared libraries were built with one
/// (`tools/gpu/`). Asked of llama.cpp at run time, not of the features, so a binary linked
/// against CUDA libraries offloads by default, and one on a machine without a GPU does not.
pub fn gpu_offload() -> bool {
    worker::gpu_offload()
}

/// Most sequences decoded together: llama.cpp's limit on sequence ids (`LLAMA_MAX_SEQ`).
pub const MAX_PARALLEL: usize = 256;

/// How the llama backend will lay out the prompts of the GGUF file at `path`, read from its
/// metadata without loading it (for the run's manifest, written before the model starts).
pub fn prompt_format(path: &Path) -> std::io::Result<PromptFormat> {
    let meta = gguf::strings(path)?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(PromptFormat::of(
        meta.get("general.name").map(String::as_str),
        &file_name,
        meta.get("tokenizer.chat_template").map(String::as_str),
    ))
}

/// How to load and run a GGUF model.
#[derive(Debug, Clone, PartialEq)]
pub struct LlamaOptions {
    /// Path of the `.gguf` file.
    pub model_path: PathBuf,
    /// Layers to offload to the GPU. `None`: all of them when llama.cpp has a GPU
    /// ([`gpu_offload`]), none otherwise.
    pub gpu_layers: Option<u32>,
    /// Requests decoded together (KV sequences besides the shared prefix). At least 1.
    pub parallel: usize,
    /// Context length of each request: prompt (prefix included) plus generated tokens.
    pub ctx_per_seq: u32,
    /// CPU threads for llama.cpp. `None`: all available cores.
    pub threads: Option<i32>,
    /// How prompts are rendered; see [`PromptStyle`].
    pub prompt_style: PromptStyle,
    /// Keep the final layer's outputs, for [`LlamaCppBackend::hidden_state`].
    pub hidden_states: bool,
    /// FlashAttention: `Some(true)` or `Some(false)` forces it; `None` lets llama.cpp decide
    /// for the device (on where the device supports it).
    pub flash_attn: Option<bool>,
    /// How greedy decoding picks a token; see [`GreedyPath`].
    pub greedy: GreedyPath,
    /// Most tokens decoded per step (`n_batch`); `None`: 4 per sequence, at least 512.
    pub batch: Option<u32>,
    /// Most tokens per forward pass (`n_ubatch`); `None`: 512.
    pub ubatch: Option<u32>,
    /// Generation goes on past the end-of-generation token, to `max_tokens` or a stop
    /// sequence: benchmarks set it so that every answer costs the same tokens whatever the
    /// weights (a random-weight model's answers, a real model's).
    pub ignore_eos: bool,
}

impl Default for LlamaOptions {
    fn default() -> Self {
        Self {
            model_path: PathBuf::new(),
            gpu_layers: None,
            parallel: 4,
            ctx_per_seq: 1024,
            threads: None,
            prompt_style: PromptStyle::Auto,
            hidden_states: false,
            flash_attn: None,
            greedy: GreedyPath::default(),
            batch: None,
            ubatch: None,
            ignore_eos: false,
        }
    }
}

impl LlamaOptions {
    /// Options for this model file with every other setting at its default.
    pub fn new(model_path: impl Into<PathBuf>) -> Self {
        Self {
            model_path: model_path.into(),
            ..Self::default()
        }
    }
}

/// A local GGUF model run by llama.cpp on a dedicated worker thread, with continuous batching
/// and a KV-cached shared prompt prefix.
pub struct LlamaCppBackend {
    jobs: Option<mpsc::Sender<Job>>,
    worker: Option<JoinHandle<()>>,
    model_id: String,
    style: PromptStyle,
    general_name: Option<String>,
    parallel: usize,
    /// Width of a hidden state; `None` when the model was not loaded for hidden states.
    hidden_dim: Option<usize>,
    /// Where the worker's time went, published after each step.
    times: std::sync::Arc<std::sync::Mutex<StepTimes>>,
}

impl std::fmt::Debug for LlamaCppBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlamaCppBackend")
            .field("model_id", &self.model_id)
            .field("style", &self.style)
            .field("parallel", &self.parallel)
            .finish()
    }
}

impl LlamaCppBackend {
    /// Loads the model and starts the worker. Fails with [`BackendError::Model`] when the file
    /// is missing, is not a GGUF file, or llama.cpp cannot load it.
    pub fn load(opts: LlamaOptions) -> Result<Self, BackendError> {
        let path = &opts.model_path;
        let size = check_gguf(path)?;
        if opts.parallel == 0 || opts.parallel > MAX_PARALLEL {
            return Err(BackendError::Model(format!(
                "parallel must be between 1 and {MAX_PARALLEL}, got {}",
                opts.parallel
            )));
        }
        if opts.ctx_per_seq < 8 {
            return Err(BackendError::Model(format!(
                "ctx_per_seq must be at least 8 tokens, got {}",
                opts.ctx_per_seq
            )));
        }
        let file_name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        let threads = opts
            .threads
            .filter(|&t| t > 0)
            .unwrap_or_else(default_threads);
        let gpu_layers = opts
            .gpu_layers
            .unwrap_or(if gpu_offload() { u32::MAX } else { 0 });
        let times = std::sync::Arc::new(std::sync::Mutex::new(StepTimes::default()));
        let cfg = WorkerConfig {
            model_path: path.clone(),
            file_name: file_name.clone(),
            gpu_layers,
            parallel: opts.parallel,
            ctx_per_seq: opts.ctx_per_seq,
            threads,
            style: opts.prompt_style,
            embeddings: opts.hidden_states,
            flash_attn: opts.flash_attn,
            greedy: opts.greedy,
            batch: opts.batch,
            ubatch: opts.ubatch,
            ignore_eos: opts.ignore_eos,
            times: times.clone(),
        };
        let (job_tx, job_rx) = mpsc::channel();
        let (ready_tx, ready_rx) = mpsc::sync_channel(1);
        let handle = std::thread::Builder::new()
            .name("kgscope-llama".into())
            .spawn(move || worker::run(cfg, job_rx, ready_tx))
            .map_err(|e| BackendError::Model(format!("could not start the llama worker: {e}")))?;
        let loaded = match ready_rx.recv() {
            Ok(Ok(loaded)) => loaded,
            Ok(Err(e)) => {
                let _ = handle.join();
                return Err(e);
            }
            Err(_) => {
                let _ = handle.join();
                return Err(BackendError::Model(format!(
                    "the llama worker stopped while loading {}",
                    path.display()
                )));
            }
        };
        tracing::info!(
            model = %file_name,
            style = %loaded.style,
            parallel = opts.parallel,
            ctx_per_seq = opts.ctx_per_seq,
            threads,
            "llama.cpp model loaded"
        );
        Ok(Self {
            jobs: Some(job_tx),
            worker: Some(handle),
            model_id: format!("{file_name} ({size} bytes)"),
            style: loaded.style,
            general_name: loaded.general_name,
            parallel: opts.parallel,
            hidden_dim: opts.hidden_states.then_some(loaded.n_embd),
            times,
        })
    }

    /// Where the worker's time went since the model was loaded (`kgscope bench llama` takes
    /// the difference of two snapshots).
    pub fn step_times(&self) -> StepTimes {
        self.times.lock().map(|t| t.clone()).unwrap_or_default()
    }

    /// The prompt style in use (`Auto` resolved to `Chat` or `Completion`).
    pub fn prompt_style(&self) -> PromptStyle {
        self.style
    }

    /// The model's `general.name` from the GGUF metadata, if any.
    pub fn general_name(&self) -> Option<&str> {
        self.general_name.as_deref()
    }

    /// How many requests are decoded together.
    pub fn parallel(&self) -> usize {
        self.parallel
    }

    /// Width of the hidden states, when the model was loaded for them
    /// ([`LlamaOptions::hidden_states`]).
    pub fn hidden_dim(&self) -> Option<usize> {
        self.hidden_dim
    }

    /// The final layer's output (after the last norm) at the last token of the prompt's
    /// input, with the prompt rendered as for generation up to the end of the input. Nothing
    /// is generated. Requests queued together are decoded together, and the shared prefix
    /// (instruction and shots) is evaluated once, as for generation.
    pub async fn hidden_state(
        &self,
        id: &str,
        prompt: crate::backends::Prompt,
    ) -> Result<Vec<f32>, BackendError> {
        if self.hidden_dim.is_none() {
            return Err(BackendError::Model(
                "this model was not loaded for hidden states".into(),
            ));
        }
        let req = Request {
            id: id.to_string(),
            prompt,
            params: crate::backends::GenParams::default(),
        };
        match one_chunk(self.queue(req, JobKind::Hidden)?).await? {
            Chunk::Hidden(v) => Ok(v),
            _ => Err(BackendError::Model(
                "the llama worker answered a hidden-state request with text".into(),
            )),
        }
    }

    /// Hands a request to the worker; its chunks come through the returned receiver.
    fn queue(&self, req: Request, kind: JobKind) -> Result<ChunkReceiver, BackendError> {
        let (tx, rx) = futures::channel::mpsc::unbounded();
        let job = Job {
            req,
            tx,
            submitted: Instant::now(),
            kind,
        };
        if self.jobs.as_ref().is_none_or(|j| j.send(job).is_err()) {
            return Err(BackendError::Model(
                "the llama worker is not running".into(),
            ));
        }
        Ok(rx)
    }
}

type ChunkReceiver = futures::channel::mpsc::UnboundedReceiver<Result<Chunk, BackendError>>;

/// The answer of a request that is one chunk (a hidden state, option scores).
async fn one_chunk(mut rx: ChunkReceiver) -> Result<Chunk, BackendError> {
    rx.next().await.unwrap_or_else(|| {
        Err(BackendError::Model(
            "the llama worker stopped before finishing the request".into(),
        ))
    })
}

/// llama.cpp's CPU threads when the user does not say: one per physical core this process may
/// run on. A second hardware thread of a core shares its vector units, and the matrix kernels
/// that bound llama.cpp's speed gain nothing from it while the threads' barrier waits for the
/// slowest (llama.cpp's own tools default to the physical cores too).
pub fn default_threads() -> i32 {
    let usable = std::thread::available_parallelism().map_or(4, |n| n.get());
    physical_cores().map_or(usable, |p| p.min(usable)).max(1) as i32
}

/// Distinct (package, core) pairs in Linux's CPU topology; `None` where it cannot be read.
fn physical_cores() -> Option<usize> {
    let mut cores = std::collections::HashSet::new();
    for entry in std::fs::read_dir("/sys/devices/system/cpu").ok()?.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !name
            .strip_prefix("cpu")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        {
            continue;
        }
        let read = |f: &str| std::fs::read_to_string(entry.path().join("topology").join(f)).ok();
        if let (Some(core), Some(package)) = (read("core_id"), read("physical_package_id")) {
            cores.insert((package.trim().to_string(), core.trim().to_string()));
        }
    }
    (!cores.is_empty()).then_some(cores.len())
}

/// Requests in flight for `parallel` sequences when the user does not say (`--concurrency`):
/// twice the slots, so that a request waits in the worker's queue for every slot and a slot
/// that frees is filled at once instead of a step later, after the engine has read the
/// finished answer and sent the next (`kgscope bench llama` saw the batch run 8% emptier at
/// 16 sequences when the queue held only what the slots did).
pub fn default_in_flight(parallel: usize) -> usize {
    parallel * 2
}

/// Sequences decoded together when the user does not say (`--parallel`). More sequences fill
/// each batch better until the machine's matrix units are saturated: with a GPU that takes
/// many (32); on a CPU `kgscope bench llama` finds 16 about as fast as 32 on 2 cores (and both
/// well ahead of 8), so 16, and 32 from 8 cores.
pub fn default_parallel() -> usize {
    if gpu_offload() || default_threads() >= 8 {
        32
    } else {
        16
    }
}

/// Checks that `path` is a readable GGUF file; returns its size in bytes.
fn check_gguf(path: &Path) -> Result<u64, BackendError> {
    let meta = std::fs::metadata(path).map_err(|e| {
        BackendError::Model(format!(
            "model file {}: {e}; pass the path of a .gguf model file",
            path.display()
        ))
    })?;
    if !meta.is_file() {
        return Err(BackendError::Model(format!(
            "model path {} is not a file; pass the path of a .gguf model file",
            path.display()
        )));
    }
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .map_err(|e| {
            BackendError::Model(format!(
                "model file {} could not be read as GGUF: {e}",
                path.display()
            ))
        })?;
    if &magic != b"GGUF" {
        return Err(BackendError::Model(format!(
            "model file {} is not a GGUF file (it starts with {:?}, not \"GGUF\"); llama.cpp \
             needs a model converted to GGUF",
            path.display(),
            String::from_utf8_lossy(&magic)
        )));
    }
    Ok(meta.len())
}

impl Backend for LlamaCppBackend {
    fn model_id(&self) -> String {
        self.model_id.clone()
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            streaming: true,
            logprobs: true,
            hidden_states: self.hidden_dim.is_some(),
            batching: true,
        }
    }

    fn ask(&self, req: Request) -> BoxStream<'static, Result<Chunk, BackendError>> {
        let rx = match self.queue(req, JobKind::Generate) {
            Ok(rx) => rx,
            Err(e) => return stream::once(async { Err(e) }).boxed(),
        };
        // Ends after Done or an error; a channel closed without either (the worker died)
        // becomes an error instead of a silently short stream.
        stream::unfold(Some(rx), |state| async move {
            let mut rx = state?;
            match rx.next().await {
                Some(Ok(Chunk::Token(t))) => Some((Ok(Chunk::Token(t)), Some(rx))),
                Some(last) => Some((last, None)),
                None => Some((
                    Err(BackendError::Model(
                        "the llama worker stopped before finishing the request".into(),
                    )),
                    None,
                )),
            }
        })
        .boxed()
    }

    /// One forward pass over the prompt (its shared prefix cached, batched with every other
    /// request in flight), each option's first token read from its logits; an option of
    /// several tokens is decoded after the prompt, token by token log-probabilities summed,
    /// and its cells dropped before the next option.
    fn score(&self, req: ScoreRequest) -> BoxFuture<'static, Result<Scored, BackendError>> {
        let (request, options) = req.into_parts();
        let queued = self.queue(request, JobKind::Score(options));
        Box::pin(async move {
            match one_chunk(queued?).await? {
                Chunk::Scored(s) => Ok(s),
                _ => Err(BackendError::Model(
                    "the llama worker answered a likelihood request with text".into(),
                )),
            }
        })
    }
}

impl Drop for LlamaCppBackend {
    fn drop(&mut self) {
        // Closing the job channel tells the worker to cancel what is left and exit.
        self.jobs.take();
        if let Some(handle) = self.worker.take() {
            let _ = handle.join();
        }
    }
}

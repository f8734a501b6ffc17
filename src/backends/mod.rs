//! Model back-ends behind one streaming trait.
//!
//! A backend turns a [`Request`] into a stream of [`Chunk`]s: text deltas as they are decoded,
//! then exactly one final [`Chunk::Done`] carrying the whole [`Completion`]. The engine never
//! knows whether the tokens came from llama.cpp in this process or from an HTTP server.

use futures::future::BoxFuture;
use futures::stream::BoxStream;
use serde::{Deserialize, Serialize};

pub mod llama;
pub mod openai;
pub mod spec;
pub mod worth;

pub use crate::core::prompts::{Prompt, Shot};
pub use spec::ModelSpec;

/// Sampling and length parameters. Temperature 0 means greedy decoding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenParams {
    pub temperature: f32,
    pub top_p: f32,
    pub seed: u64,
    pub max_tokens: u32,
    /// Generation stops before any of these strings; they are not part of the text.
    pub stop: Vec<String>,
}

/// Most tokens an answer may take when the user does not say (`--max-tokens`): a verdict, an
/// option or a short answer fits; a method that needs more raises it per question
/// (`Method::answer_tokens`).
pub const DEFAULT_MAX_TOKENS: u32 = 24;

/// A run's generation when the user does not say otherwise: greedy, one line of at most
/// [`DEFAULT_MAX_TOKENS`] tokens. `kgscope run`, the TUI and `RunConfig::new` all start here.
impl Default for GenParams {
    fn default() -> Self {
        Self {
            temperature: 0.0,
            top_p: 1.0,
            seed: crate::sampling::DEFAULT_SEED,
            max_tokens: DEFAULT_MAX_TOKENS,
            stop: vec!["\n".into()],
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    /// The question id, echoed in logs and errors.
    pub id: String,
    pub prompt: Prompt,
    pub params: GenParams,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Chunk {
    /// A piece of text as soon as it is decoded (may be part of a word).
    Token(String),
    /// The request failed in a way that may pass (429, 5xx, a dropped connection) and is sent
    /// again after a pause; `attempt` counts from 1. Any text streamed before it is void.
    Retrying { attempt: u32, reason: String },
    /// The last chunk of every successful stream.
    Done(Completion),
    /// The only chunk of a hidden-state request ([`llama::LlamaCppBackend::hidden_state`]):
    /// the final layer's output (after the last norm) at the input's last token.
    Hidden(Vec<f32>),
    /// The only chunk of a likelihood request ([`Backend::score`]).
    Scored(Scored),
    /// The first generated token's most likely alternatives with their log-probabilities,
    /// before `Done`, when the request asked a server for them (likelihood over an API).
    TopLogprobs(Vec<(String, f64)>),
}

/// A closed-answer question scored by likelihood: the prompt is evaluated once and each
/// option's log-probability read as the model's answer after it, nothing generated.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoreRequest {
    /// The question id, echoed in logs and errors.
    pub id: String,
    pub prompt: Prompt,
    /// The answers, as the model would write them (the shots' form).
    pub options: Vec<String>,
}

impl ScoreRequest {
    /// The request for the prompt (as a generation would send it) and the options.
    pub fn into_parts(self) -> (Request, Vec<String>) {
        let request = Request {
            id: self.id,
            prompt: self.prompt,
            params: GenParams::default(),
        };
        (request, self.options)
    }
}

/// The log-probabilities of a [`ScoreRequest`]'s options.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Scored {
    /// Natural-log probability of each option's text after the prompt, summed over its tokens.
    pub logprobs: Vec<f64>,
    /// How many tokens each option's log-probability sums over (what length normalisation
    /// divides by).
    pub tokens: Vec<u32>,
    pub prompt_tokens: u32,
    pub total_ms: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Completion {
    /// The full generated text, stop string excluded.
    pub text: String,
    pub prompt_tokens: u32,
    pub completion_tokens: u32,
    /// Milliseconds from the request to the first token, and to the end.
    pub first_token_ms: u64,
    pub total_ms: u64,
    /// "stop", "length" or a backend-specific reason.
    pub finish_reason: String,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    pub streaming: bool,
    pub logprobs: bool,
    pub hidden_states: bool,
    /// Several requests decoded together in one batch.
    pub batching: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum BackendError {
    /// The server or library rejected the request for good (bad model name, bad key, …);
    /// retrying will not help.
    #[error("{0}")]
    Rejected(String),
    /// No request can succeed: the server rejected the key or the model, or the URL serves no
    /// API. The engine stops the run at the first one instead of asking every question.
    #[error("{0}")]
    Unusable(String),
    /// A failure that may pass (network, 5xx, 429) after retries were exhausted.
    #[error("{0}")]
    Transient(String),
    /// The model could not be loaded or run.
    #[error("{0}")]
    Model(String),
    #[error("cancelled")]
    Cancelled,
}

/// The whole text of one request whose tokens nobody watches (a judge's verdict, a written
/// question). `Err` only when the backend can never answer; any other failure is
/// `Ok(Err(message))`, for the caller to record.
pub async fn complete(
    backend: &dyn Backend,
    req: Request,
) -> Result<Result<String, String>, BackendError> {
    use futures::StreamExt;
    let mut stream = backend.ask(req);
    let mut text = String::new();
    while let Some(chunk) = stream.next().await {
        match chunk {
            Ok(Chunk::Done(c)) => text = c.text,
            Ok(_) => {}
            Err(e @ BackendError::Unusable(_)) => return Err(e),
            Err(e) => return Ok(Err(e.to_string())),
        }
    }
    Ok(Ok(text))
}

/// A streaming model backend. `ask` returns at once; the work happens as the stream is polled
/// (or on the backend's own worker), so many requests can be in flight together.
pub trait Backend: Send + Sync {
    /// Model identity for the run manifest (path or model name, never a key).
    fn model_id(&self) -> String;
    fn capabilities(&self) -> Capabilities;
    fn ask(&self, req: Request) -> BoxStream<'static, Result<Chunk, BackendError>>;
    /// The options' log-probabilities after the prompt (likelihood scoring). A backend that
    /// cannot read log-probabilities refuses, and says so.
    fn score(&self, req: ScoreRequest) -> BoxFuture<'static, Result<Scored, BackendError>> {
        let why = format!(
            "{} cannot score answers by likelihood (it gives no log-probabilities); use \
             --scoring generate",
            self.model_id()
        );
        let _ = req;
        Box::pin(async move { Err(BackendError::Unusable(why)) })
    }
}

/// The backend of a run that generates nothing (one judged from hidden states by a trained
/// judge): it names the model, and a request gets an error that says why.
pub struct NotGenerating {
    pub model_id: String,
    pub why: String,
}

impl Backend for NotGenerating {
    fn model_id(&self) -> String {
        self.model_id.clone()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities::default()
    }
    fn ask(&self, _req: Request) -> BoxStream<'static, Result<Chunk, BackendError>> {
        use futures::StreamExt;
        let why = self.why.clone();
        futures::stream::once(async move { Err(BackendError::Unusable(why)) }).boxed()
    }
}

/// The model identity recorded in a run's manifest (never a key).
pub fn model_identity(spec: &ModelSpec) -> String {
    match spec {
        ModelSpec::Llama { path } => {
            let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            format!(
                "llama:{} ({size} bytes)",
                path.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            )
        }
        ModelSpec::Openai {
            model, base_url, ..
        } => format!("openai:{model}@{}", crate::credentials::redact(base_url)),
    }
}

fn secs(s: f64, what: &str) -> Result<std::time::Duration, BackendError> {
    std::time::Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            BackendError::Rejected(format!(
                "the {what} must be a positive number of seconds, not {s}"
            ))
        })
}

/// Starts the backend a model spec names.
pub fn from_spec(
    spec: &ModelSpec,
    parallel: usize,
    concurrency: usize,
    gpu_layers: Option<u32>,
) -> Result<std::sync::Arc<dyn Backend>, BackendError> {
    Ok(match spec {
        ModelSpec::Llama { path } => {
            let mut opts = llama::LlamaOptions::new(path);
            opts.parallel = parallel.max(1);
            opts.gpu_layers = gpu_layers;
            std::sync::Arc::new(llama::LlamaCppBackend::load(opts)?)
        }
        ModelSpec::Openai {
            model,
            base_url,
            api_key_env,
            idle_timeout_s,
            request_timeout_s,
        } => {
            // A base URL read back from a manifest has its credentials masked: they come from
            // the command line again (see `crate::credentials`).
            let url = crate::credentials::restore(base_url).map_err(|e| {
                BackendError::Rejected(format!(
                    "the base URL {e}: pass it with --base-url (or KGSCOPE_BASE_URL)"
                ))
            })?;
            let mut opts = openai::OpenAiOptions::new(url, model.clone());
            opts.idle_timeout = secs(*idle_timeout_s, "idle timeout")?;
            opts.request_timeout = secs(*request_timeout_s, "request timeout")?;
            // The default variable may be unset (a local server needs no key); a variable
            // named explicitly must be set.
            opts.api_key_env =
                (api_key_env != openai::DEFAULT_API_KEY_ENV).then(|| api_key_env.clone());
            opts.concurrency = concurrency.max(1);
            std::sync::Arc::new(openai::OpenAiBackend::new(opts)?)
        }
    })
}

//! Any OpenAI-compatible server over HTTP with SSE streaming (OpenAI, vLLM, llama.cpp's
//! llama-server, Ollama, TGI, ...).
//!
//! `ask` posts `/chat/completions` with `stream: true` and turns the server-sent events into
//! [`Chunk`]s. Requests are limited to `concurrency` in flight; failures that may pass (429, 5xx,
//! 408, connection errors, a stream that breaks before its first token) are retried with
//! exponential backoff and full jitter, honouring `Retry-After`. A request that already emitted
//! a token is never retried, so text is never duplicated.
//!
//! Two clocks bound an attempt: `idle_timeout` between any two pieces of the response (the
//! headers, then each chunk of the stream), so a server that accepts the connection and then
//! stalls costs seconds, and `request_timeout` for the whole attempt. A host that does not
//! resolve, or a server that refuses the connection, before any request of this backend got
//! a response, fails at once: retrying a wrong URL only multiplies the wait.
//!
//! The API key is read once from an environment variable, kept in [`ApiKey`] (whose `Debug`
//! prints `***`, and which is not serialisable), sent as a Bearer token and scrubbed from every
//! error message that could echo it. Credentials in the base URL (userinfo, sent as basic auth,
//! and key-like query parameters) are masked wherever the URL is shown.

mod client;
mod errors;
mod retry;
mod sse;

pub use sse::{SseEvent, SseParser};

use client::POOL_IDLE;
use errors::{chain, is_loopback};

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures::channel::mpsc;
use futures::stream::BoxStream;
use futures::{SinkExt, StreamExt};
use reqwest::header::{HeaderMap, CONTENT_TYPE, RETRY_AFTER};
use reqwest::{StatusCode, Url};
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use super::{
    Backend, BackendError, Capabilities, Chunk, Completion, Request, ScoreRequest, Scored,
};
use crate::credentials;

/// The environment variable read for the API key when none is named.
pub const DEFAULT_API_KEY_ENV: &str = "OPENAI_API_KEY";

/// A `Retry-After` longer than this is not waited for: the request fails at once.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(600);

/// Connection and retry settings. Holds no secret: the key stays in the environment until
/// [`OpenAiBackend::new`] reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenAiOptions {
    /// The API root, e.g. `http://127.0.0.1:8080/v1` or `https://api.openai.com/v1`.
    pub base_url: String,
    /// The `model` field of each request.
    pub model: String,
    /// Name of the environment variable holding the API key; `None` means
    /// [`DEFAULT_API_KEY_ENV`], and then a missing variable means "send no key" (local servers).
    /// A variable named here explicitly must be set.
    pub api_key_env: Option<String>,
    /// Maximum requests in flight (0 is taken as 1).
    pub concurrency: usize,
    pub connect_timeout: Duration,
    /// Longest silence allowed between two pieces of a response: the headers after the
    /// request, then each chunk of the stream. A silence this long is a retryable failure.
    pub idle_timeout: Duration,
    /// Limit for one attempt, from sending the request to the end of the stream.
    pub request_timeout: Duration,
    /// Retries after the first attempt (so at most `max_retries + 1` attempts).
    pub max_retries: u32,
    /// Backoff before retry `n` (0-based) is uniform in `[0, min(backoff_max, backoff_base * 2^n)]`.
    pub backoff_base: Duration,
    pub backoff_max: Duration,
    /// Which API the prompts go to.
    pub endpoint: Endpoint,
    /// Fields added to every request body, for a server's own settings (llama-server's
    /// `cache_prompt`); OpenAI's API rejects fields it does not know, so none by default.
    pub extra_body: serde_json::Map<String, Value>,
}

/// The API a prompt is sent to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Endpoint {
    /// `/chat/completions`: the instruction, shots and question as messages; the server
    /// applies the model's chat template.
    #[default]
    Chat,
    /// `/completions`: kgscope's own completion layout as one prompt text (no chat template),
    /// exactly what the in-process llama backend decodes for a base model.
    Completions,
}

impl Endpoint {
    fn path(self) -> &'static str {
        match self {
            Self::Chat => "chat/completions",
            Self::Completions => "completions",
        }
    }
}

impl OpenAiOptions {
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            ..Self::default()
        }
    }

    /// The environment variable the key is read from.
    pub fn key_env(&self) -> &str {
        self.api_key_env.as_deref().unwrap_or(DEFAULT_API_KEY_ENV)
    }
}

impl Default for OpenAiOptions {
    fn default() -> Self {
        Self {
            base_url: "http://127.0.0.1:8080/v1".into(),
            model: String::new(),
            api_key_env: None,
            concurrency: 8,
            connect_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            request_timeout: Duration::from_secs(600),
            max_retries: 5,
            backoff_base: Duration::from_millis(250),
            backoff_max: Duration::from_secs(20),
            endpoint: Endpoint::Chat,
            extra_body: serde_json::Map::new(),
        }
    }
}

/// An API key. Not `Serialize`, not `Display`; `Debug` prints `***`.
#[derive(Clone)]
pub struct ApiKey(String);

impl ApiKey {
    /// Reads the key from `var`; `None` when unset or empty.
    pub fn from_env(var: &str) -> Option<Self> {
        match std::env::var(var) {
            Ok(v) if !v.trim().is_empty() => Some(Self(v.trim().to_string())),
            _ => None,
        }
    }

    fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// A backend talking to an OpenAI-compatible HTTP server.
#[derive(Clone)]
pub struct OpenAiBackend {
    inner: Arc<Inner>,
}

struct Inner {
    opts: OpenAiOptions,
    key: Option<ApiKey>,
    client: reqwest::Client,
    /// `base_url`; its query (`?api_key=…`) stays after the paths appended to it.
    base: Url,
    /// `base_url` with its credentials masked, for messages and the model id.
    shown_base: String,
    /// Masks the key and the base URL's credentials, in every form, in texts from the server
    /// (server messages, error chains quoting the request URL).
    scrubber: credentials::Scrubber,
    /// Some request of this backend got an HTTP response: the URL is right and the server was
    /// up, so a refused connection from now on is a restart worth retrying.
    reached: AtomicBool,
    permits: Arc<Semaphore>,
    retries: AtomicU64,
    /// Set by a 429 with `Retry-After`: no request starts before this instant.
    pause_until: Mutex<Option<Instant>>,
}

impl fmt::Debug for OpenAiBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenAiBackend")
            .field("base_url", &self.inner.shown_base)
            .field("model", &self.inner.opts.model)
            .field("key_env", &self.inner.opts.key_env())
            .field("key", &self.inner.key)
            .field("concurrency", &self.inner.opts.concurrency)
            .field("retries", &self.retries())
            .finish()
    }
}

impl OpenAiBackend {
    /// Builds the client and reads the API key from the environment (once).
    pub fn new(opts: OpenAiOptions) -> Result<Self, BackendError> {
        let url = Url::parse(opts.base_url.trim()).map_err(|e| {
            BackendError::Rejected(format!(
                "invalid base URL '{}': {e}; expected something like http://127.0.0.1:8080/v1",
                credentials::redact(&opts.base_url)
            ))
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(BackendError::Rejected(format!(
                "invalid base URL '{}': the scheme must be http or https",
                credentials::redact(url.as_str())
            )));
        }
        if opts.model.trim().is_empty() {
            return Err(BackendError::Rejected(
                "no model name given for the OpenAI-compatible backend".into(),
            ));
        }
        let key = ApiKey::from_env(opts.key_env());
        if key.is_none() && opts.api_key_env.is_some() {
            return Err(BackendError::Rejected(format!(
                "the API key variable {} is not set (or empty); export it, or leave the key \
                 variable unset for a server that needs no key",
                opts.key_env()
            )));
        }
        let mut builder = reqwest::Client::builder()
            .connect_timeout(opts.connect_timeout)
            .pool_idle_timeout(POOL_IDLE)
            .tcp_nodelay(true)
            .user_agent(concat!("kgscope/", env!("CARGO_PKG_VERSION")));
        if is_loopback(&url) {
            builder = builder.no_proxy();
        }
        let client = builder.build().map_err(|e| {
            BackendError::Model(format!("could not build the HTTP client: {}", chain(&e)))
        })?;
        let shown_base = credentials::redact(url.as_str().trim_end_matches('/'));
        let scrubber = credentials::Scrubber::new(url.as_str(), key.as_ref().map(ApiKey::expose));
        let permits = Arc::new(Semaphore::new(opts.concurrency.max(1)));
        Ok(Self {
            inner: Arc::new(Inner {
                opts,
                key,
                client,
                base: url,
                shown_base,
                scrubber,
                reached: AtomicBool::new(false),
                permits,
                retries: AtomicU64::new(0),
                pause_until: Mutex::new(None),
            }),
        })
    }

    pub fn options(&self) -> &OpenAiOptions {
        &self.inner.opts
    }

    /// Whether a key was found (never the key itself).
    pub fn has_api_key(&self) -> bool {
        self.inner.key.is_some()
    }

    /// Retries made so far by all requests of this backend (for progress displays).
    pub fn retries(&self) -> u64 {
        self.inner.retries.load(Ordering::Relaxed)
    }

    /// The model ids the server offers (`GET /models`), for "model not found" messages and
    /// model pickers.
    pub async fn list_models(&self) -> Result<Vec<String>, BackendError> {
        self.inner.list_models().await
    }
}

/// The instruction as the system message, each shot as a user/assistant pair, the input as
/// the last user message.
fn chat_messages(p: &super::Prompt) -> Value {
    let mut messages = Vec::with_capacity(2 + 2 * p.shots.len());
    if !p.instruction.is_empty() {
        messages.push(json!({"role": "system", "content": p.instruction}));
    }
    for shot in &p.shots {
        messages.push(json!({"role": "user", "content": shot.input}));
        messages.push(json!({"role": "assistant", "content": shot.output}));
    }
    messages.push(json!({"role": "user", "content": p.input}));
    Value::Array(messages)
}

/// How many alternatives of the first token a likelihood request asks for (OpenAI's limit
/// for chat is 20).
const TOP_LOGPROBS: u32 = 20;

/// The first generated token's alternatives in a choice, in either shape servers use: the
/// chat shape (`logprobs.content[0].top_logprobs: [{token, logprob}]`, also llama-server's
/// `/completions`) or the legacy completions shape (`logprobs.top_logprobs[0]: {token:
/// logprob}`).
fn first_top_logprobs(choice: &Value) -> Option<Vec<(String, f64)>> {
    let lp = choice.get("logprobs")?;
    if let Some(list) = lp
        .get("content")
        .and_then(|c| c.get(0))
        .and_then(|t| t.get("top_logprobs"))
        .and_then(Value::as_array)
    {
        return Some(
            list.iter()
                .filter_map(|t| {
                    Some((
                        t.get("token")?.as_str()?.to_string(),
                        t.get("logprob")?.as_f64()?,
                    ))
                })
                .collect(),
        );
    }
    let map = lp.get("top_logprobs")?.get(0)?.as_object()?;
    Some(
        map.iter()
            .filter_map(|(t, l)| Some((t.clone(), l.as_f64()?)))
            .collect(),
    )
}

/// Each option's log-probability from the first token's alternatives: the summed probability
/// of the listed tokens that begin the option (case and leading space ignored, so " Yes" and
/// "yes" both count for "Yes"). An option no listed token begins gets the smallest listed
/// log-probability, an upper bound of what it has. Only the first token is compared: an API
/// gives no log-probability for a text it did not generate.
pub fn option_logprobs(top: &[(String, f64)], options: &[String]) -> Vec<f64> {
    let floor = top
        .iter()
        .map(|t| t.1)
        .fold(f64::INFINITY, f64::min)
        .min(0.0);
    let floor = if floor.is_finite() {
        floor
    } else {
        f64::NEG_INFINITY
    };
    options
        .iter()
        .map(|o| {
            let o = o.trim_start().to_lowercase();
            let matched: Vec<f64> = top
                .iter()
                .filter(|(t, _)| {
                    let t = t.trim_start().to_lowercase();
                    !t.is_empty() && o.starts_with(&t)
                })
                .map(|t| t.1)
                .collect();
            if matched.is_empty() {
                return floor;
            }
            let max = matched.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            max + matched.iter().map(|l| (l - max).exp()).sum::<f64>().ln()
        })
        .collect()
}

impl Backend for OpenAiBackend {
    fn model_id(&self) -> String {
        format!("openai:{}@{}", self.inner.opts.model, self.inner.shown_base)
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            streaming: true,
            logprobs: true,
            ..Capabilities::default()
        }
    }

    fn ask(&self, req: Request) -> BoxStream<'static, Result<Chunk, BackendError>> {
        let inner = self.inner.clone();
        let (tx, rx) = mpsc::channel(32);
        // The driver runs as the returned stream is polled; dropping the stream cancels it (and
        // the HTTP request with it). Its own output is nothing: everything goes through `tx`.
        let driver = futures::stream::once(async move {
            let mut tx = tx;
            let body = inner.body(&req);
            if let Err(e) = inner.run(&req, body, &mut tx).await {
                let _ = tx.send(Err(e)).await;
            }
        })
        .filter_map(|()| async { None });
        Box::pin(futures::stream::select(driver, rx))
    }

    fn score(
        &self,
        req: ScoreRequest,
    ) -> futures::future::BoxFuture<'static, Result<Scored, BackendError>> {
        let inner = self.inner.clone();
        Box::pin(async move {
            let start = Instant::now();
            let (request, options) = req.into_parts();
            let body = inner.score_body(&request);
            let (mut tx, mut rx) = mpsc::channel(8);
            // The chunks are read while the request runs: retry notices may come first.
            let send = async {
                let sent = inner.run(&request, body, &mut tx).await;
                drop(tx);
                sent
            };
            let read = async {
                let (mut top, mut prompt_tokens) = (None, 0);
                while let Some(chunk) = rx.next().await {
                    match chunk {
                        Ok(Chunk::TopLogprobs(t)) => top = Some(t),
                        Ok(Chunk::Done(c)) => prompt_tokens = c.prompt_tokens,
                        _ => {}
                    }
                }
                (top, prompt_tokens)
            };
            let (sent, (top, prompt_tokens)) = futures::join!(send, read);
            sent?;
            let top = top.filter(|t| !t.is_empty()).ok_or_else(|| {
                BackendError::Unusable(format!(
                    "{} returned no log-probabilities for request {}; the server does not \
                     support `logprobs`: use --scoring generate",
                    inner.shown_url(inner.opts.endpoint.path()),
                    request.id
                ))
            })?;
            Ok(Scored {
                logprobs: option_logprobs(&top, &options),
                tokens: vec![1; options.len()],
                prompt_tokens,
                total_ms: start.elapsed().as_millis() as u64,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_read_from_the_first_tokens_alternatives() {
        let top: Vec<(String, f64)> = [(" Yes", -0.5), (" No", -1.5), (" yes", -2.0), ("I", -3.0)]
            .iter()
            .map(|(t, l)| (t.to_string(), *l))
            .collect();
        let opts = ["Yes", "No", "I don't know", "Maybe"].map(String::from);
        let lp = option_logprobs(&top, &opts);
        // " Yes" and " yes" both begin "Yes": their probabilities add up.
        let yes = ((-0.5f64).exp() + (-2.0f64).exp()).ln();
        assert!((lp[0] - yes).abs() < 1e-12, "{lp:?}");
        assert_eq!(lp[1], -1.5);
        assert_eq!(lp[2], -3.0, "the first token of a longer option");
        assert_eq!(lp[3], -3.0, "unlisted: the smallest listed, an upper bound");
        let v = json!({"logprobs": {"content": [{"token": " A", "logprob": -0.1,
            "top_logprobs": [{"token": " A", "logprob": -0.1}, {"token": " B", "logprob": -2.5}]}]}});
        assert_eq!(
            first_top_logprobs(&v).unwrap(),
            vec![(" A".to_string(), -0.1), (" B".to_string(), -2.5)]
        );
        let legacy = json!({"logprobs": {"top_logprobs": [{" C": -0.2}]}});
        assert_eq!(
            first_top_logprobs(&legacy).unwrap(),
            vec![(" C".to_string(), -0.2)]
        );
        assert_eq!(first_top_logprobs(&json!({"text": "x"})), None);
    }

    #[test]
    fn key_debug_is_masked() {
        let k = ApiKey("sk-very-secret".into());
        assert_eq!(format!("{k:?}"), "***");
        assert_eq!(format!("{:?}", Some(k)), "Some(***)");
    }

    #[test]
    fn url_credentials_are_scrubbed_from_error_texts() {
        let b = OpenAiBackend::new(OpenAiOptions::new(
            "https://user:pa%24%24word@example.com/v1?api_key=k3y-value&model=m",
            "x",
        ))
        .unwrap();
        assert_eq!(
            b.inner.shown_base,
            "https://***@example.com/v1?api_key=***&model=m"
        );
        assert!(b.model_id().contains("***@example.com"), "{}", b.model_id());
        let text = "error for url (https://example.com/v1/chat?api_key=k3y-value): pa$$word \
                    pa%24%24word k3y-value";
        let scrubbed = b.inner.scrubber.scrub(text);
        for secret in ["k3y-value", "pa$$word", "pa%24%24word"] {
            assert!(!scrubbed.contains(secret), "{scrubbed}");
        }
        assert!(!format!("{b:?}").contains("word"));
    }
}

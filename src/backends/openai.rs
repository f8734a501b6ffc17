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

mod sse;

pub use sse::{SseEvent, SseParser};

use std::error::Error as StdError;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures::channel::mpsc;
use futures::stream::BoxStream;
use futures::{SinkExt, StreamExt};
use rand::Rng;
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

/// How much of an error body goes into an error message.
const BODY_EXCERPT_CHARS: usize = 400;

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

type Tx = mpsc::Sender<Result<Chunk, BackendError>>;

/// Why an attempt failed, and whether another may succeed.
enum AttemptError {
    /// Retry after the backoff, or after at least `after` when the server said so.
    Retry {
        what: String,
        after: Option<Duration>,
    },
    /// The pooled keep-alive connection the request went out on was closed by the server
    /// before any response (llama.cpp's server does this under load): send again at once on a
    /// fresh connection. Nothing failed, so it is no retry (not counted, not logged as one); a
    /// second in a row is a [`AttemptError::Retry`].
    Stale(String),
    Fatal(BackendError),
}

/// How long an idle keep-alive connection is kept for reuse: under the 5 s after which
/// llama.cpp's server (cpp-httplib) closes one, rather than reqwest's 90 s, so that a pause does
/// not leave the pool holding connections the server has dropped.
const POOL_IDLE: Duration = Duration::from_secs(4);

/// What hyper says when a connection closed before its response began: on a pooled keep-alive
/// connection, the server dropped it as the request went out.
const CLOSED_BEFORE_RESPONSE: &str = "connection closed before message completed";

impl Inner {
    fn url(&self, path: &str) -> String {
        let mut u = self.base.clone();
        let joined = format!("{}/{path}", u.path().trim_end_matches('/'));
        u.set_path(&joined);
        u.to_string()
    }

    fn shown_url(&self, path: &str) -> String {
        credentials::redact(&self.url(path))
    }

    fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        let mut rb = self.client.request(method, self.url(path));
        if let Some(key) = &self.key {
            rb = rb.bearer_auth(key.expose());
        }
        rb
    }

    /// Seconds for messages: `30`, `0.5`.
    fn secs(d: Duration) -> String {
        let s = d.as_secs_f64();
        if s.fract() == 0.0 {
            format!("{s:.0}")
        } else {
            format!("{s}")
        }
    }

    /// Waits for `fut` until the idle timeout from now or the attempt's deadline, whichever
    /// comes first; the error says which one passed, ready for a retry message.
    async fn within<F: std::future::Future>(
        &self,
        fut: F,
        deadline: Instant,
    ) -> Result<F::Output, String> {
        let idle_at = Instant::now() + self.opts.idle_timeout;
        let at = idle_at.min(deadline);
        tokio::time::timeout_at(at.into(), fut).await.map_err(|_| {
            if idle_at < deadline {
                format!(
                    "no data from the server for {} s (the idle timeout)",
                    Self::secs(self.opts.idle_timeout)
                )
            } else {
                format!(
                    "the request took longer than the {} s request timeout",
                    Self::secs(self.opts.request_timeout)
                )
            }
        })
    }

    async fn run(&self, req: &Request, body: Value, tx: &mut Tx) -> Result<(), BackendError> {
        let _permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| BackendError::Cancelled)?;
        let max_retries = self.opts.max_retries;
        let mut attempt: u32 = 0;
        let mut stale = false;
        loop {
            self.wait_for_pause().await;
            let err = match self.attempt(req, &body, tx).await {
                Ok(()) => return Ok(()),
                Err(AttemptError::Fatal(e)) => return Err(e),
                Err(AttemptError::Stale(what)) if !stale => {
                    stale = true;
                    tracing::debug!(id = %req.id, "sending again on a fresh connection: {what}");
                    continue;
                }
                Err(AttemptError::Stale(what)) => (what, None),
                Err(AttemptError::Retry { what, after }) => {
                    stale = false;
                    (what, after)
                }
            };
            let (what, after) = err;
            if attempt >= max_retries {
                return Err(BackendError::Transient(format!(
                    "POST {} failed after {} attempt{} ({} retr{}); last error: {}",
                    self.shown_url(self.opts.endpoint.path()),
                    attempt + 1,
                    if attempt == 0 { "" } else { "s" },
                    attempt,
                    if attempt == 1 { "y" } else { "ies" },
                    what
                )));
            }
            if let Some(after) = after {
                if after > MAX_RETRY_AFTER {
                    return Err(BackendError::Transient(format!(
                        "{what}; the server asks to retry after {} s, longer than the {} s \
                         kgscope waits; lower the concurrency or try later",
                        after.as_secs(),
                        MAX_RETRY_AFTER.as_secs()
                    )));
                }
            }
            let delay = match after {
                // At least what the server asked for, plus a little jitter so that requests
                // paused together do not all return in the same instant.
                Some(after) => after + jitter(self.opts.backoff_base),
                None => backoff_delay(attempt, self.opts.backoff_base, self.opts.backoff_max),
            };
            self.retries.fetch_add(1, Ordering::Relaxed);
            attempt += 1;
            tracing::warn!(
                id = %req.id,
                attempt,
                max_retries,
                delay_ms = delay.as_millis() as u64,
                "retrying {}: {}",
                self.shown_url(self.opts.endpoint.path()),
                // Server words are data: no escape sequence or bidi override may reach a log.
                crate::sanitize::escape(&what)
            );
            let _ = tx
                .send(Ok(Chunk::Retrying {
                    attempt,
                    reason: what,
                }))
                .await;
            tokio::time::sleep(delay).await;
        }
    }

    async fn wait_for_pause(&self) {
        loop {
            let until = *self.pause_until.lock().unwrap_or_else(|e| e.into_inner());
            match until {
                Some(t) if t > Instant::now() => tokio::time::sleep_until(t.into()).await,
                _ => return,
            }
        }
    }

    fn pause_all(&self, d: Duration) {
        let t = Instant::now() + d;
        let mut g = self.pause_until.lock().unwrap_or_else(|e| e.into_inner());
        if g.is_none_or(|old| old < t) {
            *g = Some(t);
        }
    }

    /// The request body for the endpoint in use: the prompt as chat messages, or as one text
    /// in kgscope's completion layout (exactly what the in-process llama backend decodes for a
    /// base model); sampling the same for both.
    fn body(&self, req: &Request) -> Value {
        let g = &req.params;
        let mut body = json!({
            "model": self.opts.model,
            "stream": true,
            "stream_options": {"include_usage": true},
            "temperature": g.temperature,
            "top_p": g.top_p,
            "seed": g.seed,
            "max_tokens": g.max_tokens,
        });
        let p = &req.prompt;
        match self.opts.endpoint {
            Endpoint::Chat => body["messages"] = chat_messages(p),
            Endpoint::Completions => {
                body["prompt"] = json!(format!(
                    "{}{}",
                    crate::backends::llama::completion_prefix(&p.instruction, &p.shots),
                    crate::backends::llama::completion_suffix(&p.input)
                ))
            }
        }
        if !g.stop.is_empty() {
            body["stop"] = json!(g.stop);
        }
        for (k, v) in &self.opts.extra_body {
            body[k] = v.clone();
        }
        body
    }

    /// A one-token request for the likelihood of a closed answer: greedy, not streamed, with
    /// the first token's most likely alternatives ([`TOP_LOGPROBS`]).
    fn score_body(&self, req: &Request) -> Value {
        let mut body = self.body(req);
        body["stream"] = json!(false);
        body.as_object_mut().map(|o| o.remove("stream_options"));
        body["max_tokens"] = json!(1);
        body["temperature"] = json!(0.0);
        body.as_object_mut().map(|o| o.remove("stop"));
        match self.opts.endpoint {
            Endpoint::Chat => {
                body["logprobs"] = json!(true);
                body["top_logprobs"] = json!(TOP_LOGPROBS);
            }
            Endpoint::Completions => body["logprobs"] = json!(TOP_LOGPROBS),
        }
        body
    }

    /// One HTTP attempt. `Ok` means the whole completion, `Done` included, was sent.
    async fn attempt(&self, req: &Request, body: &Value, tx: &mut Tx) -> Result<(), AttemptError> {
        let url = self.shown_url(self.opts.endpoint.path());
        let start = Instant::now();
        let deadline = start + self.opts.request_timeout;
        let send = self
            .request(reqwest::Method::POST, self.opts.endpoint.path())
            .header(reqwest::header::ACCEPT, "text/event-stream")
            .json(body)
            .send();
        let resp = match self.within(send, deadline).await {
            Err(what) => {
                return Err(AttemptError::Retry {
                    what: format!("{what}, waiting for the response headers"),
                    after: None,
                })
            }
            Ok(Err(e)) => return Err(self.classify_send_error(&e, &url)),
            Ok(Ok(r)) => r,
        };
        self.reached.store(true, Ordering::Relaxed);
        let status = resp.status();
        if !status.is_success() {
            let headers = resp.headers().clone();
            let text = match self.within(resp.text(), deadline).await {
                Ok(Ok(t)) => t,
                _ => String::new(),
            };
            return Err(self.classify_status(status, &headers, &text).await);
        }
        let is_json = resp
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("application/json"));
        if is_json {
            return self.non_streamed(req, resp, start, deadline, tx).await;
        }

        let mut parser = SseParser::new();
        let mut state = StreamState::default();
        let mut bytes = resp.bytes_stream();
        loop {
            let next = match self.within(bytes.next(), deadline).await {
                Ok(n) => n,
                Err(what) => return Err(state.broken(what, &req.id)),
            };
            let ended = next.is_none();
            let events = match next {
                Some(Ok(b)) => parser.feed(&b),
                Some(Err(e)) => {
                    let what = format!("the stream broke: {}", self.scrubber.scrub(&chain(&e)));
                    return Err(state.broken(what, &req.id));
                }
                None => parser.finish().into_iter().collect(),
            };
            for ev in events {
                if ev.data.trim() == "[DONE]" {
                    state.done = true;
                    break;
                }
                self.handle_event(&ev, &mut state, start, tx).await?;
            }
            if state.done || ended {
                break;
            }
        }
        if !state.done && state.finish_reason.is_none() {
            return Err(state.broken(
                "the stream ended before [DONE] and without a finish_reason".into(),
                &req.id,
            ));
        }
        let total_ms = start.elapsed().as_millis() as u64;
        let completion = Completion {
            completion_tokens: state.completion_tokens.unwrap_or(state.deltas),
            prompt_tokens: state.prompt_tokens.unwrap_or(0),
            first_token_ms: state.first_token_ms.unwrap_or(total_ms),
            total_ms,
            finish_reason: state.finish_reason.unwrap_or_else(|| "unknown".into()),
            text: state.text,
        };
        let _ = tx.send(Ok(Chunk::Done(completion))).await;
        Ok(())
    }

    async fn handle_event(
        &self,
        ev: &SseEvent,
        state: &mut StreamState,
        start: Instant,
        tx: &mut Tx,
    ) -> Result<(), AttemptError> {
        if ev.data.trim().is_empty() {
            return Ok(());
        }
        let v: Value = match serde_json::from_str(&ev.data) {
            Ok(v) => v,
            Err(e) => {
                let what = format!(
                    "the server sent an event that is not JSON ({e}): {}",
                    excerpt(&self.scrubber.scrub(&ev.data))
                );
                return Err(state.broken(what, ""));
            }
        };
        if let Some(err) = v.get("error") {
            // An error reported inside the stream (llama-server does this, e.g. for a prompt
            // longer than the context).
            let msg = self
                .scrubber
                .scrub(&error_message_from(err).unwrap_or_else(|| err.to_string()));
            let code = err.get("code").and_then(Value::as_u64).unwrap_or(500);
            let what = format!("the server reported an error in the stream: {msg}");
            if code >= 500 || code == 429 {
                return Err(state.broken(what, ""));
            }
            return Err(AttemptError::Fatal(BackendError::Rejected(what)));
        }
        if let Some(choice) = v.get("choices").and_then(|c| c.get(0)) {
            let content = choice
                .get("delta")
                .and_then(|d| d.get("content"))
                .and_then(Value::as_str)
                // A few servers put a final non-delta `message` or `text` in the last event.
                .or_else(|| choice.get("text").and_then(Value::as_str))
                .unwrap_or("");
            if !content.is_empty() {
                if state.first_token_ms.is_none() {
                    state.first_token_ms = Some(start.elapsed().as_millis() as u64);
                }
                state.text.push_str(content);
                state.deltas += 1;
                state.emitted = true;
                if tx
                    .send(Ok(Chunk::Token(content.to_string())))
                    .await
                    .is_err()
                {
                    // The consumer is gone; nothing left to do.
                    return Err(AttemptError::Fatal(BackendError::Cancelled));
                }
            }
            if let Some(fr) = choice.get("finish_reason").and_then(Value::as_str) {
                state.finish_reason = Some(fr.to_string());
            }
        }
        if let Some(usage) = v.get("usage").filter(|u| u.is_object()) {
            read_usage(
                usage,
                &mut state.prompt_tokens,
                &mut state.completion_tokens,
            );
        }
        Ok(())
    }

    /// A server that ignored `stream: true` and answered with one JSON completion.
    async fn non_streamed(
        &self,
        req: &Request,
        resp: reqwest::Response,
        start: Instant,
        deadline: Instant,
        tx: &mut Tx,
    ) -> Result<(), AttemptError> {
        let text = match self.within(resp.text(), deadline).await {
            Ok(Ok(t)) => t,
            Ok(Err(e)) => {
                return Err(AttemptError::Retry {
                    what: format!(
                        "reading the response failed: {}",
                        self.scrubber.scrub(&chain(&e))
                    ),
                    after: None,
                })
            }
            Err(what) => {
                return Err(AttemptError::Retry {
                    what: format!("{what} while the response body was read"),
                    after: None,
                })
            }
        };
        let v: Value = serde_json::from_str(&text).map_err(|e| AttemptError::Retry {
            what: format!(
                "the response is not valid JSON ({e}): {}",
                excerpt(&self.scrubber.scrub(&text))
            ),
            after: None,
        })?;
        if let Some(err) = v.get("error") {
            let msg = self
                .scrubber
                .scrub(&error_message_from(err).unwrap_or_else(|| err.to_string()));
            return Err(AttemptError::Fatal(BackendError::Rejected(format!(
                "the server answered request {} with an error: {msg}",
                req.id
            ))));
        }
        let choice = v.get("choices").and_then(|c| c.get(0));
        let content = choice
            .and_then(|c| c.get("message"))
            .and_then(|m| m.get("content"))
            .or_else(|| choice.and_then(|c| c.get("text")))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if let Some(top) = choice.and_then(first_top_logprobs) {
            let _ = tx.send(Ok(Chunk::TopLogprobs(top))).await;
        }
        let total_ms = start.elapsed().as_millis() as u64;
        let (mut pt, mut ct) = (None, None);
        if let Some(u) = v.get("usage") {
            read_usage(u, &mut pt, &mut ct);
        }
        if !content.is_empty() {
            let _ = tx.send(Ok(Chunk::Token(content.clone()))).await;
        }
        let completion = Completion {
            prompt_tokens: pt.unwrap_or(0),
            completion_tokens: ct.unwrap_or(u32::from(!content.is_empty())),
            first_token_ms: total_ms,
            total_ms,
            finish_reason: choice
                .and_then(|c| c.get("finish_reason"))
                .and_then(Value::as_str)
                .unwrap_or("unknown")
                .to_string(),
            text: content,
        };
        let _ = tx.send(Ok(Chunk::Done(completion))).await;
        Ok(())
    }

    fn classify_send_error(&self, e: &reqwest::Error, url: &str) -> AttemptError {
        let detail = self.scrubber.scrub(&chain(e));
        if e.is_builder() || e.is_redirect() {
            return AttemptError::Fatal(BackendError::Rejected(format!(
                "cannot send the request to {url}: {detail}"
            )));
        }
        // Before any response the URL itself is the likely fault, and every retry of every
        // question would fail the same way; once the server answered, a failed lookup or a
        // refused connection is a passing hiccup (a resolver timeout, a restart) worth retrying.
        let first_contact = !self.reached.load(Ordering::Relaxed);
        if e.is_connect() && is_dns_failure(e) && first_contact {
            return AttemptError::Fatal(BackendError::Unusable(format!(
                "cannot resolve the host of {url}: {detail}; check the host name in --base-url \
                 (and the network)"
            )));
        }
        if e.is_connect() && is_refused(e) && first_contact {
            return AttemptError::Fatal(BackendError::Unusable(format!(
                "{url} refused the connection: {detail}; is the server running, and are the \
                 host and port in --base-url right?"
            )));
        }
        let what = if e.is_connect() && e.is_timeout() {
            format!(
                "connecting to {url} timed out after {} s: {detail}",
                Self::secs(self.opts.connect_timeout)
            )
        } else if e.is_connect() {
            format!("cannot connect to {url}: {detail}; is the server running?")
        } else if e.is_timeout() {
            format!("request to {url} timed out: {detail}")
        } else {
            format!("request to {url} failed: {detail}")
        };
        if !e.is_connect() && !e.is_timeout() && detail.contains(CLOSED_BEFORE_RESPONSE) {
            return AttemptError::Stale(what);
        }
        AttemptError::Retry { what, after: None }
    }

    async fn classify_status(
        &self,
        status: StatusCode,
        headers: &HeaderMap,
        body: &str,
    ) -> AttemptError {
        let url = self.shown_url(self.opts.endpoint.path());
        let msg = self.scrubber.scrub(&server_message(body));
        let what = format!("HTTP {status}: {}", excerpt(&msg));
        let after = headers
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, SystemTime::now()));
        match status.as_u16() {
            429 => {
                if let Some(d) = after {
                    self.pause_all(d.min(MAX_RETRY_AFTER));
                }
                AttemptError::Retry { what, after }
            }
            408 | 500..=599 => AttemptError::Retry { what, after },
            401 | 403 => {
                let env = self.opts.key_env();
                let m = if self.key.is_some() {
                    format!(
                        "the server rejected the API key from ${env} (HTTP {}) at {url}: {}; \
                         check that the key is valid for this server",
                        status.as_u16(),
                        excerpt(&msg)
                    )
                } else {
                    format!(
                        "the server at {url} requires an API key (HTTP {}), but ${env} is not \
                         set: {}; export ${env} (or name another variable with the key-env \
                         option)",
                        status.as_u16(),
                        excerpt(&msg)
                    )
                };
                AttemptError::Fatal(BackendError::Unusable(m))
            }
            400 | 404 | 422 if is_model_error(status, body) => {
                let mut m = format!(
                    "server rejected model '{}': {}",
                    self.opts.model,
                    excerpt(&msg)
                );
                match tokio::time::timeout(Duration::from_secs(5), self.list_models()).await {
                    Ok(Ok(models)) if !models.is_empty() => {
                        m.push_str(&format!("; the server has: {}", models.join(", ")))
                    }
                    _ => {}
                }
                AttemptError::Fatal(BackendError::Unusable(m))
            }
            404 => AttemptError::Fatal(BackendError::Unusable(format!(
                "POST {url} returned HTTP 404 ({}); check the base URL (OpenAI-compatible \
                 servers usually serve under /v1)",
                excerpt(&msg)
            ))),
            _ => AttemptError::Fatal(BackendError::Rejected(format!(
                "the server at {url} rejected the request ({what})"
            ))),
        }
    }

    async fn list_models(&self) -> Result<Vec<String>, BackendError> {
        let url = self.shown_url("models");
        let resp = self
            .request(reqwest::Method::GET, "models")
            .timeout(self.opts.request_timeout.min(Duration::from_secs(60)))
            .send()
            .await
            .map_err(|e| {
                BackendError::Transient(format!(
                    "GET {url} failed: {}",
                    self.scrubber.scrub(&chain(&e))
                ))
            })?;
        let status = resp.status();
        let text = resp.text().await.map_err(|e| {
            BackendError::Transient(format!(
                "reading GET {url} failed: {}",
                self.scrubber.scrub(&chain(&e))
            ))
        })?;
        if !status.is_success() {
            let msg = excerpt(&self.scrubber.scrub(&server_message(&text)));
            let e = format!("GET {url} returned HTTP {status}: {msg}");
            return Err(match status.as_u16() {
                401 | 403 => BackendError::Rejected(format!(
                    "{e}; the server rejected the API key from ${}",
                    self.opts.key_env()
                )),
                408 | 429 | 500..=599 => BackendError::Transient(e),
                _ => BackendError::Rejected(e),
            });
        }
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| BackendError::Rejected(format!("GET {url} did not return JSON ({e})")))?;
        // OpenAI: {"data": [{"id": ...}]}; Ollama's native API: {"models": [{"name"|"model": ...}]}.
        let list = v
            .get("data")
            .or_else(|| v.get("models"))
            .and_then(Value::as_array)
            .ok_or_else(|| {
                BackendError::Rejected(format!(
                    "GET {url} returned no model list: {}",
                    excerpt(&text)
                ))
            })?;
        Ok(list
            .iter()
            .filter_map(|m| {
                ["id", "model", "name"]
                    .iter()
                    .find_map(|k| m.get(*k).and_then(Value::as_str))
                    .map(str::to_string)
            })
            .collect())
    }
}

#[derive(Default)]
struct StreamState {
    text: String,
    deltas: u32,
    emitted: bool,
    done: bool,
    first_token_ms: Option<u64>,
    finish_reason: Option<String>,
    prompt_tokens: Option<u32>,
    completion_tokens: Option<u32>,
}

impl StreamState {
    /// The stream failed: retry only if nothing reached the consumer yet.
    fn broken(&self, what: String, id: &str) -> AttemptError {
        if self.emitted {
            let id = if id.is_empty() {
                String::new()
            } else {
                format!(" of request {id}")
            };
            AttemptError::Fatal(BackendError::Transient(format!(
                "{what} (after {} characters{id} had been streamed, so it was not retried)",
                self.text.chars().count()
            )))
        } else {
            AttemptError::Retry { what, after: None }
        }
    }
}

fn read_usage(u: &Value, prompt: &mut Option<u32>, completion: &mut Option<u32>) {
    let get = |k: &str| {
        u.get(k)
            .and_then(Value::as_u64)
            .map(|n| n.min(u32::MAX as u64) as u32)
    };
    if let Some(n) = get("prompt_tokens") {
        *prompt = Some(n);
    }
    if let Some(n) = get("completion_tokens") {
        *completion = Some(n);
    }
}

/// Backoff before retry `attempt` (0-based): full jitter, uniform in
/// `[0, min(max, base * 2^attempt)]`.
pub fn backoff_delay(attempt: u32, base: Duration, max: Duration) -> Duration {
    let ceiling = base
        .checked_mul(1u32.checked_shl(attempt.min(31)).unwrap_or(u32::MAX))
        .unwrap_or(max)
        .min(max);
    jitter(ceiling)
}

fn jitter(ceiling: Duration) -> Duration {
    let ms = ceiling.as_millis().min(u64::MAX as u128) as u64;
    if ms == 0 {
        return Duration::ZERO;
    }
    Duration::from_millis(rand::rng().random_range(0..=ms))
}

/// Parses a `Retry-After` value: delay seconds, or an HTTP date (IMF-fixdate, e.g.
/// `Sun, 06 Nov 1994 08:49:37 GMT`); a date in the past means "now".
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let v = value.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    if let Ok(secs) = v.parse::<f64>() {
        if secs.is_finite() && secs >= 0.0 {
            return Some(Duration::from_secs_f64(secs.min(1e9)));
        }
    }
    let at = parse_http_date(v)?;
    let now = now.duration_since(UNIX_EPOCH).ok()?.as_secs() as i64;
    Some(Duration::from_secs((at - now).max(0) as u64))
}

/// IMF-fixdate (and the same layout with `-` separators from RFC 850) → Unix seconds.
fn parse_http_date(s: &str) -> Option<i64> {
    let rest = s.split_once(',').map(|(_, r)| r).unwrap_or(s);
    let parts: Vec<&str> = rest
        .split(|c: char| c.is_whitespace() || c == '-')
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() < 4 {
        return None;
    }
    let day: u32 = parts[0].parse().ok()?;
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let month = MONTHS
        .iter()
        .position(|m| parts[1].eq_ignore_ascii_case(m))? as u32
        + 1;
    let mut year: i64 = parts[2].parse().ok()?;
    if parts[2].len() == 2 {
        year += if year < 70 { 2000 } else { 1900 };
    }
    let hms: Vec<u32> = parts[3]
        .split(':')
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    if hms.len() != 3 || !(1..=31).contains(&day) || hms[0] > 23 || hms[1] > 59 || hms[2] > 60 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some(days * 86_400 + (hms[0] * 3600 + hms[1] * 60 + hms[2]) as i64)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The human-readable message of an error body: `{"error": {"message": ...}}`,
/// `{"error": "..."}`, `{"message": ...}`, `{"detail": ...}`, or the text itself.
fn server_message(body: &str) -> String {
    let body = body.trim();
    if body.is_empty() {
        return "(empty body)".into();
    }
    if let Ok(v) = serde_json::from_str::<Value>(body) {
        if let Some(m) = v
            .get("error")
            .and_then(error_message_from)
            .or_else(|| error_message_from(&v))
        {
            return m;
        }
    }
    body.to_string()
}

fn error_message_from(v: &Value) -> Option<String> {
    if let Some(s) = v.as_str() {
        return Some(s.to_string());
    }
    for k in ["message", "detail", "error"] {
        match v.get(k) {
            Some(Value::String(s)) => return Some(s.clone()),
            Some(inner @ Value::Object(_)) => {
                if let Some(m) = error_message_from(inner) {
                    return Some(m);
                }
            }
            _ => {}
        }
    }
    None
}

fn is_model_error(status: StatusCode, body: &str) -> bool {
    let lower = body.to_lowercase();
    if lower.contains("model_not_found") {
        return true;
    }
    if !lower.contains("model") {
        return false;
    }
    if status == StatusCode::NOT_FOUND {
        return true;
    }
    [
        "not found",
        "does not exist",
        "not exist",
        "no such",
        "unknown model",
        "invalid model",
        "not available",
        "not supported",
        "not loaded",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

fn excerpt(s: &str) -> String {
    let s = s.trim();
    match s.char_indices().nth(BODY_EXCERPT_CHARS) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

/// An error with its chain of causes, `outer: inner: innermost`.
fn chain(e: &dyn StdError) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let t = c.to_string();
        if !s.contains(&t) {
            s.push_str(": ");
            s.push_str(&t);
        }
        cur = c.source();
    }
    s
}

/// The error chain holds a failed name lookup (hyper-util's connector says "dns error").
fn is_dns_failure(e: &reqwest::Error) -> bool {
    let mut cur: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(c) = cur {
        if c.to_string().contains("dns error") {
            return true;
        }
        cur = c.source();
    }
    false
}

/// The error chain holds an `ECONNREFUSED`.
fn is_refused(e: &reqwest::Error) -> bool {
    let mut cur: Option<&(dyn StdError + 'static)> = Some(e);
    while let Some(c) = cur {
        if c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::ConnectionRefused)
        {
            return true;
        }
        cur = c.source();
    }
    false
}

fn is_loopback(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = UNIX_EPOCH + Duration::from_secs(784_111_777); // Sun, 06 Nov 1994 08:49:37 GMT
        assert_eq!(parse_retry_after("1", now), Some(Duration::from_secs(1)));
        assert_eq!(
            parse_retry_after(" 120 ", now),
            Some(Duration::from_secs(120))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:50:07 GMT", now),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            parse_retry_after("Sunday, 06-Nov-94 08:49:47 GMT", now),
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            parse_retry_after("Sat, 05 Nov 1994 08:49:37 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_http_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
        assert_eq!(
            parse_http_date("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(1_445_412_480)
        );
    }

    #[test]
    fn backoff_is_full_jitter_under_the_cap() {
        let base = Duration::from_millis(250);
        let max = Duration::from_secs(20);
        for attempt in 0..40 {
            let ceiling = (base * 2u32.saturating_pow(attempt.min(20))).min(max);
            for _ in 0..20 {
                assert!(backoff_delay(attempt, base, max) <= ceiling);
            }
        }
    }

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
    fn messages_from_error_bodies() {
        assert_eq!(
            server_message(
                r#"{"error":{"message":"The model `x` does not exist","code":"model_not_found"}}"#
            ),
            "The model `x` does not exist"
        );
        assert_eq!(
            server_message(r#"{"error":"model 'x' not found"}"#),
            "model 'x' not found"
        );
        assert_eq!(server_message(r#"{"detail":"nope"}"#), "nope");
        assert_eq!(server_message("plain"), "plain");
        assert!(is_model_error(
            StatusCode::NOT_FOUND,
            r#"{"error":"model 'x' not found"}"#
        ));
        assert!(!is_model_error(
            StatusCode::BAD_REQUEST,
            "This model's maximum context length is 4096 tokens"
        ));
        assert!(!is_model_error(StatusCode::NOT_FOUND, "File Not Found"));
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

//! One request to the server and its stream: sending it under the concurrency limit, the two
//! clocks, retries, and turning the server-sent events into chunks.

use super::errors::{
    chain, error_message_from, excerpt, is_dns_failure, is_model_error, is_refused, server_message,
};
use super::retry::{backoff_delay, jitter, parse_retry_after};
use super::*;
use std::time::SystemTime;

pub(super) type Tx = mpsc::Sender<Result<Chunk, BackendError>>;

/// Why an attempt failed, and whether another may succeed.
pub(super) enum AttemptError {
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
pub(super) const POOL_IDLE: Duration = Duration::from_secs(4);

/// What hyper says when a connection closed before its response began: on a pooled keep-alive
/// connection, the server dropped it as the request went out.
pub(super) const CLOSED_BEFORE_RESPONSE: &str = "connection closed before message completed";

impl Inner {
    pub(super) fn url(&self, path: &str) -> String {
        let mut u = self.base.clone();
        let joined = format!("{}/{path}", u.path().trim_end_matches('/'));
        u.set_path(&joined);
        u.to_string()
    }

    pub(super) fn shown_url(&self, path: &str) -> String {
        credentials::redact(&self.url(path))
    }

    pub(super) fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        let mut rb = self.client.request(method, self.url(path));
        if let Some(key) = &self.key {
            rb = rb.bearer_auth(key.expose());
        }
        rb
    }

    /// Seconds for messages: `30`, `0.5`.
    pub(super) fn secs(d: Duration) -> String {
        let s = d.as_secs_f64();
        if s.fract() == 0.0 {
            format!("{s:.0}")
        } else {
            format!("{s}")
        }
    }

    /// Waits for `fut` until the idle timeout from now or the attempt's deadline, whichever
    /// comes first; the error says which one passed, ready for a retry message.
    pub(super) async fn within<F: std::future::Future>(
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

    pub(super) async fn run(
        &self,
        req: &Request,
        body: Value,
        tx: &mut Tx,
    ) -> Result<(), BackendError> {
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

    pub(super) async fn wait_for_pause(&self) {
        loop {
            let until = *self.pause_until.lock().unwrap_or_else(|e| e.into_inner());
            match until {
                Some(t) if t > Instant::now() => tokio::time::sleep_until(t.into()).await,
                _ => return,
            }
        }
    }

    pub(super) fn pause_all(&self, d: Duration) {
        let t = Instant::now() + d;
        let mut g = self.pause_until.lock().unwrap_or_else(|e| e.into_inner());
        if g.is_none_or(|old| old < t) {
            *g = Some(t);
        }
    }

    /// The request body for the endpoint in use: the prompt as chat messages, or as one text
    /// in kgscope's completion layout (exactly what the in-process llama backend decodes for a
    /// base model); sampling the same for both.
    pub(super) fn body(&self, req: &Request) -> Value {
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
    pub(super) fn score_body(&self, req: &Request) -> Value {
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
    pub(super) async fn attempt(
        &self,
        req: &Request,
        body: &Value,
        tx: &mut Tx,
    ) -> Result<(), AttemptError> {
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

    pub(super) async fn handle_event(
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
    pub(super) async fn non_streamed(
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

    pub(super) fn classify_send_error(&self, e: &reqwest::Error, url: &str) -> AttemptError {
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

    pub(super) async fn classify_status(
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

    pub(super) async fn list_models(&self) -> Result<Vec<String>, BackendError> {
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
pub(super) struct StreamState {
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
    pub(super) fn broken(&self, what: String, id: &str) -> AttemptError {
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

pub(super) fn read_usage(u: &Value, prompt: &mut Option<u32>, completion: &mut Option<u32>) {
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

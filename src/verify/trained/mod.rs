//! GraphEval's trained judge (paper §3.2, METHODS §1): a small classifier on the evaluated
//! model's hidden state that predicts whether the model answers a statement correctly,
//! incorrectly, or says it does not know, so a large KG is judged with one forward pass per
//! statement and nothing generated.
//!
//! The network is the one GraphEval's released code trains: Linear(d→d) → GELU → LayerNorm →
//! Linear(d→3), with one output layer for true statements and another for negatives
//! ([`net`]). Training ([`train`]) is the paper's: Adam, lr 1e-4, batch 8, a seeded 70/30
//! split, 100 epochs; kgscope also keeps the epoch with the lowest held-out loss (early
//! stopping) and reports both. A judge is one safetensors file: the weights, and its
//! [`Provenance`] (the model file it reads hidden states from, by sha256, the runs and labels
//! it learnt from, and its held-out scores) in the file's metadata ([`file`]).

pub mod file;
pub mod net;
pub mod train;

pub use file::{Provenance, TrainedJudge};
pub use train::{Example, TrainOptions};

/// Which hidden state a judge reads: the only one llama.cpp hands out per token.
pub const LAYER: &str = "final layer output after the last norm, at the statement's last token";

#[derive(Debug, thiserror::Error)]
pub enum TrainedError {
    #[error("judge file {path}: {message}")]
    File { path: String, message: String },
    #[error("trained judge: {0}")]
    Candle(#[from] candle_core::Error),
    #[error("trained judge: {0}")]
    Data(String),
}

//! A KGHaluBench run's settings, kept in its manifest: the embedding model and threshold of
//! the entity-level check, the expert stage's samples and judge, and the learnt relation
//! weights.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::similarity;
use crate::backends::ModelSpec;

/// A KGHaluBench run's settings (`task` kghalubench only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HaluConfig {
    /// The sentence-embedding model's folder; `None` is the default all-MiniLM-L6-v2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embed_model: Option<PathBuf>,
    /// The entity-level threshold: an answer whose similarity does not exceed it is a breadth
    /// hallucination (the paper: "responses exceeding the predefined threshold are considered
    /// aligned").
    pub threshold: f64,
    /// Judge samples the expert stage adds to its reading when the judge is unsure.
    pub expert_samples: usize,
    /// A second judge model the expert stage asks too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expert: Option<ModelSpec>,
    /// The runs the relation weights were learnt from (this KG's earlier KGHaluBench runs),
    /// and what they gave: type → relation IRI → mean points per fact. Kept in the manifest so
    /// a resumed run draws the same difficulties whatever was recorded since.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub learnt_from: Vec<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub relation_scores: BTreeMap<String, BTreeMap<String, f64>>,
}

/// The expert stage's extra judge samples when the user does not say (`--expert-samples`):
/// none, the reading being the independent view (samples of the judge repeat its bias).
pub const DEFAULT_EXPERT_SAMPLES: usize = 0;

impl Default for HaluConfig {
    fn default() -> Self {
        Self {
            embed_model: None,
            threshold: similarity::DEFAULT_THRESHOLD,
            expert_samples: DEFAULT_EXPERT_SAMPLES,
            expert: None,
            learnt_from: vec![],
            relation_scores: BTreeMap::new(),
        }
    }
}

impl HaluConfig {
    /// The embedding model's folder.
    pub fn embed_dir(&self) -> PathBuf {
        self.embed_model
            .clone()
            .unwrap_or_else(crate::backends::spec::default_embedder_dir)
    }
}

//! A judge on disk: one safetensors file, the network's weights as tensors and the judge's
//! [`Provenance`] as JSON under the metadata key `kgscope.judge`, so a judge travels as one
//! file that says what it is for.

use std::collections::HashMap;
use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use serde::{Deserialize, Serialize};

use super::net::{self, Net, NAMES};
use super::train::Weights;
use super::TrainedError;

/// The metadata key holding the provenance.
const META_KEY: &str = "kgscope.judge";
/// Bumped when a judge file changes in a way an older kgscope cannot read.
pub const FORMAT: u32 = 1;

/// Where a judge came from and how well it did: written at training, checked and shown when
/// it is applied.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    pub format: u32,
    /// The GGUF file whose hidden states the judge reads: its file name and sha256. A judge
    /// refuses any other file.
    pub model_file: String,
    pub model_sha256: String,
    /// Which hidden state ([`super::LAYER`]) and its width.
    pub layer: String,
    pub dim: usize,
    /// The evaluated model(s) whose answers the labels are (a substitute model's hidden
    /// states may stand in for a larger model's, as in the paper).
    pub evaluated: Vec<String>,
    /// The runs learnt from.
    pub runs: Vec<String>,
    /// Labelled statements per class (correct, incorrect, idk), and how many of those a hand
    /// label set (overriding the run's verified outcome).
    pub labelled: [usize; 3],
    pub from_hand_labels: [usize; 3],
    /// Statements left out: unreadable answers, and hand labels saying the question or the
    /// KG is wrong (or annotators tied).
    pub left_out: usize,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f64,
    pub seed: u64,
    pub held_out_share: f64,
    /// The weights kept: the epoch with the lowest held-out loss, or the last one.
    pub kept_epoch: usize,
    pub early_stopped: bool,
    /// Held-out confusion matrices (rows: true class, columns: predicted, in
    /// [`crate::core::verdict::JudgeClass::ALL`] order) of the early-stopped and the
    /// last-epoch judge, and the class counts of the training part (for the majority
    /// baseline).
    pub held_out_best: [[usize; 3]; 3],
    pub held_out_last: [[usize; 3]; 3],
    pub train_counts: [usize; 3],
    /// Held-out matrix of a baseline that knows the polarity: each statement put in the class
    /// most common among training statements of its polarity. A model that says "true" to
    /// everything is predicted by this alone; the judge earns its keep above it.
    #[serde(default)]
    pub held_out_polarity_baseline: [[usize; 3]; 3],
    /// RFC 3339.
    pub created: String,
    pub kgscope_version: String,
}

/// Writes `tensors` and `meta` as one safetensors file at `path`: a temporary file beside it,
/// renamed into place, so a reader never sees half a file.
pub fn write_safetensors(
    path: &Path,
    tensors: &[(&str, &Tensor)],
    meta: HashMap<String, String>,
) -> Result<(), String> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty());
    let tmp = tempfile::NamedTempFile::new_in(dir.unwrap_or(Path::new(".")))
        .map_err(|e| e.to_string())?;
    safetensors::serialize_to_file(tensors.iter().copied(), Some(meta), tmp.path())
        .map_err(|e| e.to_string())?;
    tmp.persist(path).map_err(|e| e.to_string())?;
    Ok(())
}

pub struct TrainedJudge {
    net: Net,
    pub provenance: Provenance,
    /// Its file name and the first 12 hex digits of the file's sha256 (or "unsaved").
    pub id: String,
    weights: Weights,
}

impl TrainedJudge {
    /// A judge from trained weights.
    pub fn from_weights(weights: &Weights, provenance: Provenance) -> Result<Self, TrainedError> {
        let map: HashMap<String, Tensor> = weights.iter().cloned().collect();
        let dim = map
            .get("trunk.weight")
            .map(|t| t.dims()[0])
            .ok_or_else(|| TrainedError::Data("no trunk.weight".into()))?;
        let vb = VarBuilder::from_tensors(map, DType::F32, &Device::Cpu);
        Ok(Self {
            net: Net::new(&vb, dim)?,
            provenance,
            id: "unsaved".into(),
            weights: weights.clone(),
        })
    }

    /// Writes the judge to `path`, whole or not at all.
    pub fn save(&self, path: &Path) -> Result<(), TrainedError> {
        let meta = serde_json::to_string(&self.provenance).map_err(|e| TrainedError::File {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        let tensors: Vec<(&str, &Tensor)> =
            self.weights.iter().map(|(n, t)| (n.as_str(), t)).collect();
        write_safetensors(
            path,
            &tensors,
            HashMap::from([(META_KEY.to_string(), meta)]),
        )
        .map_err(|message| TrainedError::File {
            path: path.display().to_string(),
            message,
        })
    }

    /// Reads a judge written by [`TrainedJudge::save`].
    pub fn load(path: &Path) -> Result<Self, TrainedError> {
        let fail = |message: String| TrainedError::File {
            path: path.display().to_string(),
            message,
        };
        let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
        let (_, meta) = safetensors::SafeTensors::read_metadata(&bytes)
            .map_err(|e| fail(format!("not a safetensors file ({e})")))?;
        let json = meta
            .metadata()
            .as_ref()
            .and_then(|m| m.get(META_KEY))
            .ok_or_else(|| {
                fail(
                    "no kgscope judge metadata: not a judge written by `kgscope judge train`"
                        .into(),
                )
            })?;
        let provenance: Provenance =
            serde_json::from_str(json).map_err(|e| fail(format!("unreadable provenance: {e}")))?;
        if provenance.format > FORMAT {
            return Err(fail(format!(
                "written by a newer kgscope (judge format {}; this one reads {FORMAT})",
                provenance.format
            )));
        }
        let tensors = candle_core::safetensors::load_buffer(&bytes, &Device::Cpu)?;
        let weights: Weights = NAMES
            .iter()
            .map(|&n| {
                tensors
                    .get(n)
                    .map(|t| (n.to_string(), t.clone()))
                    .ok_or_else(|| fail(format!("no tensor {n}")))
            })
            .collect::<Result<_, _>>()?;
        let mut judge = Self::from_weights(&weights, provenance)?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        judge.id = format!(
            "{name} ({})",
            &{
                use sha2::Digest;
                hex::encode(sha2::Sha256::digest(&bytes))
            }[..12]
        );
        Ok(judge)
    }

    /// Width of the hidden states the judge reads.
    pub fn dim(&self) -> usize {
        self.weights.first().map_or(0, |(_, t)| t.dims()[0])
    }

    /// P(correct), P(incorrect), P(idk) for one hidden state of a true (`positive`) or false
    /// statement.
    pub fn predict(&self, state: &[f32], positive: bool) -> Result<[f32; 3], TrainedError> {
        Ok(self.predict_many(&[state], &[positive])?[0])
    }

    /// [`TrainedJudge::predict`] for many states at once (one pass).
    pub fn predict_many(
        &self,
        states: &[&[f32]],
        positive: &[bool],
    ) -> Result<Vec<[f32; 3]>, TrainedError> {
        let dim = self.dim();
        if let Some(bad) = states.iter().find(|s| s.len() != dim) {
            return Err(TrainedError::Data(format!(
                "a hidden state of width {} for a judge of width {dim}: the judge was trained on \
                 another model",
                bad.len()
            )));
        }
        let x: Vec<f32> = states.iter().flat_map(|s| s.iter().copied()).collect();
        let x = Tensor::from_vec(x, (states.len(), dim), &Device::Cpu)?;
        let pos: Vec<u8> = positive.iter().map(|&p| u8::from(p)).collect();
        let pos = Tensor::from_vec(pos, states.len(), &Device::Cpu)?;
        let p = net::probabilities(&self.net, &x, &pos)?.to_vec2::<f32>()?;
        Ok(p.into_iter().map(|r| [r[0], r[1], r[2]]).collect())
    }
}

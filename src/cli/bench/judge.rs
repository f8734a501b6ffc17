//! `kgscope bench judge`: statements/s judged by GraphEval's trained judge (one forward pass
//! over the prompt, the judge's two small layers) against the same statements generated and
//! parsed, same model, same questions, same machine, both in this one command.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use kgscope::backends::{self, llama, Backend, GenParams};
use kgscope::run::trained::TrainedRunner;
use kgscope::run::ModelSpec;

use super::llama::{engine_all, model_and_statements, plain_options};

#[derive(Args)]
pub struct JudgeBenchArgs {
    /// The trained judge (written by `kgscope judge train`).
    #[arg(long, value_name = "JUDGE")]
    pub judge: PathBuf,
    /// `default` or a .gguf path: the model file the judge was trained on.
    #[arg(long, default_value = "default")]
    pub model: String,
    /// The KG the statements come from.
    #[arg(long, default_value = "sample:countries")]
    pub kg: String,
    /// Statements judged and generated (the same ones both ways).
    #[arg(long, default_value_t = 256)]
    pub questions: usize,
    /// Sequences decoded together, both ways.
    #[arg(long, default_value_t = 8)]
    pub parallel: usize,
    /// Most tokens generated per answer.
    #[arg(long, default_value_t = backends::DEFAULT_MAX_TOKENS)]
    pub max_tokens: u32,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(a: JudgeBenchArgs) -> anyhow::Result<ExitCode> {
    let (path, qs) = model_and_statements(&a.model, &a.kg, a.questions, "bench judge")?;
    let parallel = a.parallel.max(1);
    let params = GenParams {
        max_tokens: a.max_tokens,
        ..GenParams::default()
    };
    let rt = tokio::runtime::Runtime::new()?;

    // Judged: the trained judge on hidden states; nothing generated.
    let runner = Arc::new(
        TrainedRunner::start(&a.judge, &path, parallel, None).map_err(anyhow::Error::msg)?,
    );
    let silent: Arc<dyn Backend> = Arc::new(backends::NotGenerating {
        model_id: String::new(),
        why: "bench judge: the judged side generates nothing".into(),
    });
    let mut judged = plain_options(parallel * 4, &params);
    judged.checker = Some(runner.clone());
    rt.block_on(engine_all(silent.clone(), qs[..1].to_vec(), judged.clone()))?;
    let t = Instant::now();
    rt.block_on(engine_all(silent, qs.clone(), judged))?;
    let judged_s = t.elapsed().as_secs_f64();
    let judge_id = runner.judge().id.clone();
    drop(runner);

    // Generated and parsed: the same model answering the same statements.
    let mut o = llama::LlamaOptions::new(&path);
    o.parallel = parallel;
    let backend: Arc<dyn Backend> = Arc::new(llama::LlamaCppBackend::load(o)?);
    let generating = plain_options(parallel, &params);
    rt.block_on(engine_all(
        backend.clone(),
        qs[..1].to_vec(),
        generating.clone(),
    ))?;
    let t = Instant::now();
    let tokens = rt.block_on(engine_all(backend, qs.clone(), generating))?;
    let generated_s = t.elapsed().as_secs_f64();

    let n = qs.len() as f64;
    let (judged_rate, generated_rate) = (n / judged_s, n / generated_s);
    if a.json {
        let out = serde_json::json!({
            "model": backends::model_identity(&ModelSpec::Llama { path: path.clone() }),
            "judge": judge_id,
            "statements": qs.len(),
            "parallel": parallel,
            "judged_per_s": judged_rate,
            "generated_per_s": generated_rate,
            "completion_tokens": tokens,
            "ratio": judged_rate / generated_rate,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "{} statements, {}, --parallel {parallel}, max {} tokens",
            qs.len(),
            path.display(),
            a.max_tokens
        );
        println!(
            "trained judge (hidden state, no generation) {judged_rate:>9.1} statements/s  ({judged_s:.1} s)"
        );
        println!(
            "generated and parsed                        {generated_rate:>9.1} statements/s  ({generated_s:.1} s, {:.1} tokens per answer)",
            tokens as f64 / n
        );
        println!("judged vs generated: {:.1}×", judged_rate / generated_rate);
    }
    Ok(ExitCode::SUCCESS)
}

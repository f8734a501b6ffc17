//! `kgscope run`: a new run prepared from the command line (or an interrupted one resumed),
//! driven with a progress bar, and its summary printed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use anyhow::bail;
use clap::Args;
use indicatif::ProgressBar;
use kgscope::backends::{self, GenParams};
use kgscope::core::not_asked as unasked;
use kgscope::method;
use kgscope::report::{self, Tally};
use kgscope::run::driver;
use kgscope::run::session::{self, Prepared};
use kgscope::run::{config, Control, ModelSpec, RunConfig, RunEvent};
use kgscope::sanitize::line as clean;

use super::openai_args::OpenAiArgs;
use super::progress;
use super::questions::GenArgs;
use kgscope::credentials;
use kgscope::method::kglens::args::KglensArgs;

#[derive(Args)]
pub struct RunArgs {
    /// Continue an interrupted run (its id or directory); every other option comes from its
    /// manifest, except the credentials it does not store: give a --base-url or --kg URL
    /// that had them again (and --idle-timeout/--request-timeout to change those) [default: start
    /// a new run].
    #[arg(long, value_name = "RUN_ID", conflicts_with_all = ["model", "task", "entities", "context", "judge", "repeats", "no_gate", "writer", "embed_model", "threshold", "expert_samples", "expert", "via_judge", "review_with"])]
    pub resume: Option<String>,
    #[command(flatten)]
    pub gen: GenArgs,
    #[command(flatten)]
    pub kglens: KglensArgs,
    /// `default` (the bundled Gemma 3 270M), a model name from `kgscope model list` (both
    /// fetched when missing), a .gguf path, or openai:MODEL.
    #[arg(long, default_value = "default")]
    pub model: String,
    /// Ask each question R times and take the majority verdict (GraphEval and KG-FPQ use 3);
    /// kghalubench: draw R assessments of --limit questions each, reported with their mean
    /// and spread (the paper: 10 of 150) [default: 3 for kg-fpq, as the paper asks, else 1].
    #[arg(long, value_name = "R")]
    pub repeats: Option<usize>,
    /// kg-fpq: ask every fact's false-premise questions, not only those of the facts whose
    /// true-premise question was answered Yes.
    #[arg(long)]
    pub no_gate: bool,
    /// llama backend: sequences decoded together in one batch [default: 32 with a GPU or
    /// with 8 or more cores, else 16].
    #[arg(long)]
    pub parallel: Option<usize>,
    /// Questions in flight at once [default: twice --parallel for llama, 8 for openai].
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// llama backend: layers offloaded to the GPU [default: all when llama.cpp has a GPU].
    #[arg(long)]
    pub gpu_layers: Option<u32>,
    #[command(flatten)]
    pub openai: OpenAiArgs,
    /// Sampling temperature; 0 always takes the most likely token, so answers are repeatable.
    #[arg(long, default_value_t = 0.0)]
    pub temperature: f32,
    /// Nucleus sampling: draw only from the most likely tokens whose probabilities add up to P.
    #[arg(long, value_name = "P", default_value_t = 1.0)]
    pub top_p: f32,
    /// Most tokens generated per answer; an answer is cut at the first newline anyway.
    #[arg(long, default_value_t = backends::DEFAULT_MAX_TOKENS)]
    pub max_tokens: u32,
    /// Where runs are kept.
    #[arg(long, default_value = "runs", env = "KGSCOPE_RUNS")]
    pub runs_dir: PathBuf,
    /// Print the final metrics as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// An LLM judge for the answers the rules are not sure of: `default` (the bundled model),
    /// a .gguf path, or openai:MODEL (at --judge-base-url, else --base-url). Its output and
    /// decision are recorded with each answer it judged [default: rules only].
    #[arg(long, value_name = "MODEL")]
    pub judge: Option<String>,
    /// Ask the judge about every answer, not only those the rules are unsure of.
    #[arg(long, requires = "judge")]
    pub judge_all: bool,
    /// The judge's OpenAI-compatible server, for an openai:MODEL judge [default: --base-url].
    #[arg(long, value_name = "URL")]
    pub judge_base_url: Option<String>,
    /// kg-fpq: a model that rewords each generative false-premise question as a natural
    /// question (`default`, a .gguf path, or openai:MODEL at --judge-base-url, else
    /// --base-url); a written question that does not name the subject and the false object,
    /// is not a question, or states the true object is rejected and the template's kept; both
    /// are recorded [default: template wording only].
    #[arg(long, value_name = "MODEL")]
    pub writer: Option<String>,
    #[command(flatten)]
    pub review: super::review::ReviewArgs,
    /// kghalubench: the sentence-embedding model of the entity-level check, a folder with
    /// config.json, model.safetensors and tokenizer.json [default: all-MiniLM-L6-v2, from
    /// `kgscope model fetch --embedder`].
    #[arg(long, value_name = "DIR")]
    pub embed_model: Option<PathBuf>,
    /// kghalubench: the entity-level threshold; an answer whose similarity to the entity's
    /// description does not exceed it is a breadth hallucination [default: 0.70, the paper's].
    #[arg(long, value_name = "S")]
    pub threshold: Option<f64>,
    /// kghalubench: judge samples the expert stage adds when the fact judge is unsure (its
    /// output unreadable, or "stated" with none of the fact's names in the answer); the
    /// strict majority decides [default: 2].
    #[arg(long, value_name = "N")]
    pub expert_samples: Option<usize>,
    /// kghalubench: a second judge model the expert stage asks too (`default`, a .gguf path,
    /// or openai:MODEL at --judge-base-url, else --base-url).
    #[arg(long, value_name = "MODEL")]
    pub expert: Option<String>,
    /// Judge each statement from the model's hidden state with a judge written by `kgscope
    /// judge train`, generating nothing (GraphEval's judge; --method statement, a GGUF --model:
    /// the file the judge was trained on) [default: none; the model generates every answer].
    #[arg(long, value_name = "JUDGE")]
    pub via_judge: Option<PathBuf>,
    /// How closed answers (statement, yes/no, TFQ, multiple choice, KG-FPQ's yes/no) are
    /// obtained: `generate` (the model writes its answer), `logprob` (one forward pass, the
    /// most likely option is the answer, every option's probability recorded; faster, and
    /// calibrated confidences for the reliability diagram) or `logprob-norm` (as `logprob`,
    /// per token) [default: generate].
    #[arg(long, value_enum, value_name = "HOW")]
    pub scoring: Option<kgscope::run::config::AnswerScoring>,
}

/// KGHaluBench's settings from the command line; refused on another method.
fn halu_config(
    a: &RunArgs,
) -> anyhow::Result<Option<kgscope::method::kghalubench::settings::HaluConfig>> {
    let given = a.embed_model.is_some()
        || a.threshold.is_some()
        || a.expert_samples.is_some()
        || a.expert.is_some();
    if !method::of(a.gen.task).takes_halu_settings() {
        if given {
            bail!(
                "--embed-model, --threshold, --expert-samples and --expert are for --method \
                 kghalubench, not {}",
                a.gen.task.as_str()
            );
        }
        return Ok(None);
    }
    let mut c = kgscope::method::kghalubench::settings::HaluConfig::default();
    if let Some(t) = a.threshold {
        if !(0.0..=1.0).contains(&t) {
            bail!("--threshold {t}: the similarity is between 0 and 1");
        }
        c.threshold = t;
    }
    if let Some(dir) = &a.embed_model {
        if !dir.is_dir() {
            bail!("--embed-model {}: no such folder", dir.display());
        }
        c.embed_model = Some(dir.clone());
    }
    if let Some(n) = a.expert_samples {
        c.expert_samples = n;
    }
    c.expert = helper_model(a, a.expert.as_deref(), "--expert")?;
    // Before the run directory exists: a missing model leaves nothing behind.
    kgscope::verify::embed::Embedder::check_dir(&c.embed_dir())?;
    Ok(Some(c))
}

/// Checks `--scoring logprob` against the run it is for: a method with closed answers, and
/// answers the model gives (not a trained judge's reading).
fn scoring_fits(cfg: &RunConfig, via_judge: bool) -> anyhow::Result<()> {
    if !method::of(cfg.task).has_closed_answers() {
        bail!(
            "--scoring {} chooses among closed answers; {} asks open questions: use --scoring \
             generate (or a method with closed answers: statement, yesno, tfq, mcq-fib, mcq-wh, \
             kg-fpq)",
            cfg.scoring.as_str(),
            cfg.task.as_str()
        );
    }
    if via_judge {
        bail!("--via-judge judges hidden states; it cannot be combined with --scoring");
    }
    Ok(())
}

/// Checks `--via-judge` against the run it is for: a statement run of the GGUF model file the
/// judge was trained on, with no LLM judge. Gives the judge's path as the manifest keeps it.
fn via_judge(
    judge: &std::path::Path,
    cfg: &RunConfig,
    llm_judge: bool,
    say: &dyn Fn(&str),
) -> anyhow::Result<PathBuf> {
    if !method::of(cfg.task).has_trained_judge() {
        bail!(
            "--via-judge is for --method statement (GraphEval's judge), not {}",
            cfg.task.as_str()
        );
    }
    if llm_judge {
        bail!("--via-judge judges without generating: there is no answer for --judge to read");
    }
    let ModelSpec::Llama { path } = &cfg.model else {
        bail!("--via-judge reads the model's hidden states: give --model a local GGUF file");
    };
    say("checking the trained judge against the model file");
    let loaded = kgscope::verify::trained::TrainedJudge::load(judge)?;
    kgscope::run::trained::check_model(&loaded, path).map_err(anyhow::Error::msg)?;
    // Absolute, so a resume from elsewhere finds it.
    Ok(std::path::absolute(judge)?)
}

pub fn run(mut a: RunArgs) -> anyhow::Result<ExitCode> {
    let rt = tokio::runtime::Runtime::new()?;
    let sp = progress::spinner("preparing");
    let say = |m: &str| sp.set_message(m.to_string());
    // A line of its own: the default model being fetched, a helper model started.
    let note = |m: &str| eprintln!("{m}");
    // URLs with credentials are kept in memory only; a resumed run's manifest has them masked.
    a.openai.supply_credentials();
    credentials::supply(&a.gen.kg.kg);
    let mut prepared = match &a.resume {
        Some(id) => session::prepare_resume(&a.runs_dir, id, &say)?,
        None => prepare_new(&mut a, &sp, &say, &note)?,
    };
    let cfg = config_to_run(&prepared, &a)?;
    // Every step (a default model fetched on resume, the model loading) shows on the spinner.
    let (backend, driving) = driver::start(&cfg, &say).map_err(anyhow::Error::msg)?;
    sp.finish_and_clear();
    announce(&prepared, &cfg);
    let outcome = rt.block_on(drive(&mut prepared, backend, driving))?;
    print_metrics(a.json, &prepared, &cfg, &outcome)?;
    Ok(conclude(&a, &prepared, &cfg, &outcome))
}

/// A new run from the command line: its settings checked, its KG opened and its entities
/// resolved, its models at hand, and its directory made.
fn prepare_new(
    a: &mut RunArgs,
    sp: &ProgressBar,
    say: &dyn Fn(&str),
    note: &dyn Fn(&str),
) -> anyhow::Result<Prepared> {
    a.gen.check()?;
    a.gen.sample_endpoints();
    let mut cfg = new_config(a, sp)?;
    if !cfg.scoring.is_generate() {
        scoring_fits(&cfg, a.via_judge.is_some())?;
    }
    if let Some(judge) = &a.via_judge {
        // Before the run directory exists: a judge that does not fit leaves nothing.
        driver::ensure_model(&cfg.model, note).map_err(anyhow::Error::msg)?;
        cfg.via_judge = Some(via_judge(judge, &cfg, a.judge.is_some(), say)?);
    }
    // Opened once, for the `--entity` look-up and the run alike. `--entity` is kept
    // as IRIs, for the manifest: a resume regenerates the same questions from them
    // whatever labels say by then.
    let (opened, entities) = super::kg::open_with_entities(
        &cfg.kg,
        &a.gen.entities,
        cfg.kg_sample.is_some(),
        |iris| {
            let mut drawn = cfg.clone();
            drawn.entities = iris.to_vec();
            drawn.draw()
        },
        say,
    )?;
    cfg.entities = entities;
    sp.finish_and_clear();
    driver::ensure_model(&cfg.model, note).map_err(anyhow::Error::msg)?;
    if let Some(reviewer) = &cfg.reviewer {
        driver::ensure_model(reviewer, note).map_err(anyhow::Error::msg)?;
    }
    let model_id = backends::model_identity(&cfg.model);
    Ok(session::prepare_new_on(
        opened,
        cfg,
        &model_id,
        &a.runs_dir,
        say,
    )?)
}

/// A new run's configuration from the command line, its entities still to resolve (as IRIs,
/// with the KG open) and its trained judge still to check. Notes on stderr what a setting
/// loses.
fn new_config(a: &RunArgs, sp: &ProgressBar) -> anyhow::Result<RunConfig> {
    let kglens = a.kglens.config(a.gen.task)?;
    let fpq = fpq_config(a)?;
    let repeats = a
        .repeats
        .unwrap_or_else(|| method::of(a.gen.task).default_repeats());
    if kglens
        .as_ref()
        .is_some_and(|k| k.difficulty == kgscope::method::kglens::questions::Difficulty::Hard)
        && a.judge.is_none()
    {
        sp.suspend(|| {
            eprintln!(
                "note: without --judge, HARD mode's Wh answers are read by the \
                 short-answer rules alone; KGLens has a judge decide them (--judge default)"
            )
        });
    }
    let model = a.openai.model_spec(&a.model)?;
    let judge = helper_model(a, a.judge.as_deref(), "--judge")?;
    let halu = halu_config(a)?;
    if halu.is_some() && judge.is_none() {
        sp.suspend(|| {
            eprintln!(
                "note: without --judge, KGHaluBench's facts that the cheap check does \
                 not find in an answer are undecided and earn no point; the paper has \
                 an LLM judge them (--judge MODEL)"
            )
        });
    }
    if let Some(notice) = a.openai.default_url_notice(&model) {
        sp.suspend(|| eprintln!("{notice}"));
    }
    let parallel = a.parallel.unwrap_or_else(config::default_parallel);
    let concurrency = a
        .concurrency
        .unwrap_or_else(|| model.default_concurrency(parallel));
    Ok(RunConfig {
        kg: a.gen.kg.kg.clone(),
        model,
        task: a.gen.task,
        limit: a.gen.limit,
        negatives: a.gen.negatives,
        negatives_from: a.gen.negatives_from,
        sampling: a.gen.sampling,
        seed: a.gen.seed,
        relations: a.gen.relations.clone(),
        // Resolved by `prepare_new`, with the KG open.
        entities: vec![],
        templates: a.gen.templates.clone(),
        repeats,
        parallel,
        concurrency,
        gpu_layers: a.gpu_layers,
        params: GenParams {
            temperature: a.temperature,
            top_p: a.top_p,
            seed: a.gen.seed,
            max_tokens: a.max_tokens,
            ..GenParams::default()
        },
        context: a.gen.context,
        judge,
        judge_all: a.judge_all,
        reviewer: reviewer_for(a)?,
        kglens,
        fpq,
        halu,
        kg_sample: a.gen.kg_sample,
        via_judge: None,
        scoring: a.scoring.unwrap_or_default(),
        profile: kgscope::kg::profile::Choice {
            relations: vec![],
            ..a.gen.kg.apply(&a.gen.relations)
        },
        extra: Default::default(),
    })
}

/// KG-FPQ's settings from the command line (`--writer` among them); refused on another method.
fn fpq_config(a: &RunArgs) -> anyhow::Result<Option<kgscope::run::fpq::FpqConfig>> {
    let writer = helper_model(a, a.writer.as_deref(), "--writer")?;
    let fpq = a
        .gen
        .fpq
        .options(a.gen.task)?
        .map(|options| kgscope::run::fpq::FpqConfig {
            options,
            gate: !a.no_gate,
            writer: writer.clone(),
        });
    if (a.no_gate || writer.is_some()) && fpq.is_none() {
        bail!("--no-gate and --writer are for --method kg-fpq");
    }
    Ok(fpq)
}

/// The configuration the run goes on with: its manifest's, with a resumed run's model given
/// this command line's credentials and timeouts.
fn config_to_run(prepared: &Prepared, a: &RunArgs) -> anyhow::Result<RunConfig> {
    let mut cfg = prepared.manifest.config.clone();
    if a.resume.is_some() {
        cfg.model = resumed_model(cfg.model, &a.openai, &prepared.run.id)?;
    }
    Ok(cfg)
}

/// Says on stderr what is about to be asked: the run, its prompts, its plan, and why it asks
/// fewer questions than its limit.
fn announce(prepared: &Prepared, cfg: &RunConfig) {
    eprintln!(
        "run {} in {}: {} {} questions from {} with {}; {} already answered",
        prepared.run.id,
        prepared.run.path.display(),
        if prepared.plan.is_some() {
            format!("up to {}", prepared.manifest.questions)
        } else {
            prepared.manifest.questions.to_string()
        },
        cfg.task.as_str(),
        clean(&credentials::redact(&cfg.kg)),
        clean(&cfg.model.describe()),
        prepared.done.len()
    );
    if let Some(format) = &prepared.manifest.prompt {
        eprintln!("prompts: {}", format.describe());
    }
    if let Some(plan) = &prepared.plan {
        eprintln!("{}", plan.describe());
    }
    let short = prepared.manifest.selection.as_ref();
    if let Some(why) = short.and_then(|s| s.shortfall(cfg.limit)) {
        eprintln!("note: {}", clean(&why));
    }
}

/// The final metrics on stdout: as JSON with `--json`, else as tables when anything was
/// answered.
fn print_metrics(
    json: bool,
    prepared: &Prepared,
    cfg: &RunConfig,
    outcome: &Outcome,
) -> anyhow::Result<()> {
    let snapshot = outcome.tally.snapshot();
    if json {
        println!(
            "{}",
            kgscope::sanitize::json_pretty(&serde_json::json!({
                "run_id": prepared.run.id,
                "run_dir": prepared.run.path,
                "answered": outcome.tally.answered,
                "not_asked": prepared.manifest.not_asked,
                "failed": outcome.failed,
                "retries": outcome.retries,
                "cancelled": outcome.cancelled,
                "stopped": outcome.stopped,
                "metrics": snapshot,
                "chance": outcome.tally.chance.summary(),
            }))?
        );
    } else if outcome.tally.answered > 0 {
        print!(
            "{}",
            report::table::summary(&snapshot, method::of(cfg.task).metrics(), 10)
        );
        print!("{}", report::chance::text(&outcome.tally.chance.summary()));
    }
    Ok(())
}

/// How the run ended, on stderr (with the command that resumes it where there is more to
/// ask), and the exit code that says it: 1 stopped, 130 interrupted, 2 questions failed.
fn conclude(a: &RunArgs, prepared: &Prepared, cfg: &RunConfig, outcome: &Outcome) -> ExitCode {
    let again = credentials_to_give_again(cfg);
    // What the run asks: its plan may have left some of the planned questions out by design.
    let to_ask = prepared
        .manifest
        .questions
        .saturating_sub(unasked::total(&prepared.manifest.not_asked));
    if let Some(reason) = &outcome.stopped {
        eprintln!(
            "stopped: {}\n{} of {} answered and saved; once that is fixed, resume with: kgscope run --resume {} --runs-dir {}{again}",
            clean(reason),
            outcome.tally.answered,
            to_ask,
            prepared.run.id,
            a.runs_dir.display()
        );
        return ExitCode::FAILURE;
    }
    if outcome.failed > 0 {
        eprintln!(
            "{} question(s) failed (last error: {}); `kgscope run --resume {}{again}` asks them again",
            outcome.failed,
            clean(&outcome.last_error),
            prepared.run.id
        );
    }
    if outcome.cancelled {
        eprintln!(
            "interrupted: {} of {} answered and saved. Resume with: kgscope run --resume {} --runs-dir {}{again}",
            outcome.tally.answered,
            to_ask,
            prepared.run.id,
            a.runs_dir.display()
        );
        return ExitCode::from(130);
    }
    if outcome.failed > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// The model behind `--review-with`, for a run whose questions are made up front: a staged
/// run (KGLens, KG-FPQ) or a sweep makes them batch by batch, which the reviewer does not
/// read yet, and a `--via-judge` run generates nothing to review for.
fn reviewer_for(a: &RunArgs) -> anyhow::Result<Option<ModelSpec>> {
    if a.review.review_with.is_none() {
        return Ok(None);
    }
    let m = method::of(a.gen.task);
    if m.takes_kglens_settings()
        || m.takes_fpq_settings()
        || a.gen.limit == kgscope::run::sweep::ALL
    {
        bail!(
            "--review-with reviews questions made up front; {} makes its questions batch by \
             batch{}: review them with `kgscope questions --review-with` or `kgscope audit \
             --review-with` instead",
            a.gen.task.as_str(),
            if a.gen.limit == kgscope::run::sweep::ALL {
                " (--limit all)"
            } else {
                ""
            }
        );
    }
    if a.via_judge.is_some() {
        bail!("--via-judge judges statements from hidden states; --review-with is for generated answers");
    }
    let url = a
        .review
        .review_base_url
        .as_deref()
        .or(a.judge_base_url.as_deref());
    a.review
        .review_with
        .as_deref()
        .map(|s| a.openai.helper_spec(s, url, "--review-with"))
        .transpose()
}

/// The model behind `--judge` or `--writer` (`flag`): an openai:MODEL one talks to
/// --judge-base-url when given, else to --base-url.
fn helper_model(a: &RunArgs, spec: Option<&str>, flag: &str) -> anyhow::Result<Option<ModelSpec>> {
    spec.map(|s| a.openai.helper_spec(s, a.judge_base_url.as_deref(), flag))
        .transpose()
}

/// A resumed run's model with this command line's say: the timeouts given override the
/// recorded ones, and a --base-url may only give back the credentials of the recorded URL
/// (another server would be another model identity).
fn resumed_model(model: ModelSpec, openai: &OpenAiArgs, run_id: &str) -> anyhow::Result<ModelSpec> {
    if let (Some(given), ModelSpec::Openai { base_url, .. }) = (&openai.base_url, &model) {
        let given = credentials::redact(given.trim_end_matches('/'));
        if given != credentials::redact(base_url) {
            bail!(
                "run {run_id} talks to {}, but --base-url (or KGSCOPE_BASE_URL) says {given}; \
                 on --resume it can only give that URL's credentials again",
                credentials::redact(base_url)
            );
        }
    }
    let timeouts = openai.timeouts(model.timeouts());
    Ok(model.with_timeouts(timeouts))
}

/// The options `run --resume` needs besides the id: the URLs whose credentials the manifest
/// does not keep.
fn credentials_to_give_again(cfg: &RunConfig) -> String {
    let secret = |url: &str| credentials::has_credentials(url) || credentials::is_masked(url);
    let mut urls = vec![];
    if matches!(&cfg.model, ModelSpec::Openai { base_url, .. } if secret(base_url)) {
        urls.push(" --base-url URL");
    }
    if secret(&cfg.kg) {
        urls.push(" --kg URL");
    }
    if urls.is_empty() {
        return String::new();
    }
    format!("{} (each URL with its credentials)", urls.concat())
}

struct Outcome {
    tally: Tally,
    failed: u64,
    /// Requests the backend sent again after a 429 or 5xx.
    retries: u64,
    last_error: String,
    cancelled: bool,
    /// The engine stopped the run because the backend cannot answer (see `Control::stop`).
    stopped: Option<String>,
}

/// Asks a prepared run's remaining questions (an adaptive run: iteration by iteration).
async fn drive(
    prepared: &mut Prepared,
    backend: Arc<dyn backends::Backend>,
    driving: driver::Driving,
) -> anyhow::Result<Outcome> {
    let mut tally = Tally::default();
    for r in &prepared.done {
        tally.add(r);
    }
    let total = prepared.manifest.questions as u64;
    let control = Control::default();
    let (tx, events) = tokio::sync::mpsc::channel(1024);
    let driven = driver::drive(prepared, backend, driving, control.clone(), tx);
    let (driven, mut outcome) = tokio::join!(driven, consume(events, &control, tally, total));
    // A failure to record (a full disk, a file that cannot be written) stops the run like a
    // backend that cannot answer: what was saved is summed up and the resume command is said,
    // with --json too.
    if let Err(e) = driven {
        outcome.stopped = Some(e);
    }
    Ok(outcome)
}

/// Follows a run's events with a progress bar until it finishes; Ctrl-C cancels it.
async fn consume(
    mut events: tokio::sync::mpsc::Receiver<RunEvent>,
    control: &Control,
    mut tally: Tally,
    total: u64,
) -> Outcome {
    let bar = progress::counter(Some(total), "questions");
    bar.set_position(tally.answered);
    bar.reset_eta();
    let started = Instant::now();
    let start_tokens = tally.completion_tokens;
    let already = tally.answered;
    let mut failed = 0u64;
    let mut retries = 0u64;
    let mut last_error = String::new();
    let mut cancelled = false;
    let mut not_asked = vec![];
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    loop {
        tokio::select! {
            _ = &mut ctrl_c, if !control.is_cancelled() => {
                bar.println("stopping: in-flight questions are dropped, answered ones are saved");
                control.cancel();
            }
            ev = events.recv() => {
                let Some(ev) = ev else { break };
                match ev {
                    RunEvent::Answered(r) => {
                        tally.add(&r);
                        bar.set_position(tally.answered);
                        let secs = started.elapsed().as_secs_f64().max(1e-3);
                        bar.set_message(format!(
                            "{} tokens/s · {} errors · {} retried",
                            progress::rate((tally.completion_tokens - start_tokens) as f64 / secs),
                            failed,
                            retries
                        ));
                    }
                    RunEvent::Retry { .. } => retries += 1,
                    RunEvent::Failed { error, .. } => {
                        failed += 1;
                        last_error = error;
                    }
                    RunEvent::BatchDone(event) => {
                        // A hidden bar (no terminal) prints nothing, and these lines are the
                        // run's log.
                        let line = event.log;
                        if bar.is_hidden() {
                            eprintln!("{line}");
                        } else {
                            bar.println(line);
                        }
                    }
                    RunEvent::NotAsked(n) => {
                        // The bar ends where the run does: at what the plan still asks.
                        bar.set_length(total.saturating_sub(unasked::total(&n) as u64));
                        not_asked = n;
                    }
                    RunEvent::Finished { cancelled: c } => cancelled = c,
                    _ => {}
                }
            }
        }
    }
    bar.finish_and_clear();
    // "12 asked; 92 not asked because the true premise was denied", not a bar at 12 / 104.
    if let Some(line) = unasked::describe(tally.answered, &not_asked) {
        eprintln!("{line} (of {total} planned)");
    }
    let answered = tally.answered.saturating_sub(already);
    if answered > 0 {
        let secs = started.elapsed().as_secs_f64().max(1e-3);
        eprintln!(
            "answered {answered} in {secs:.1} s: {} questions/s, {} tokens/s",
            progress::rate(answered as f64 / secs),
            progress::rate((tally.completion_tokens - start_tokens) as f64 / secs)
        );
    }
    Outcome {
        tally,
        failed,
        retries,
        last_error,
        cancelled,
        stopped: control.stop_reason(),
    }
}

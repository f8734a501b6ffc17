//! `kgscope bench`: throughput figures, each next to a baseline measured in the same command,
//! because the machines this runs on are shared and noisy.

mod batched;
mod embed;
mod endpoint;
mod fact_judge;
mod fpq;
mod judge;
mod llama;
mod llama_report;
mod llama_tools;
mod report;
mod reviewer;
mod tui;
mod verdicts;

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::{Args, Subcommand};
use kgscope::kg::load::{self, LoadOptions};
use kgscope::kg::{local::LocalKg, KgIndex};
use kgscope::questions::{GenerateOptions, Task, TemplateSet};
use rand::{Rng, SeedableRng};

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Load and question-generation throughput on a synthetic KG.
    Kg(KgBenchArgs),
    /// Edits/s of KG-FPQ's six false-premise edits on a KG, against building its index.
    Fpq(fpq::FpqBenchArgs),
    /// Questions/s of the llama backend at 1/8/16/32 sequences: generating, scoring by
    /// likelihood, and llama.cpp's server on identical work.
    Llama(llama::LlamaBenchArgs),
    /// Frame time and memory of the terminal UI at 2,000 outcomes/s.
    Tui(tui::TuiBenchArgs),
    /// Time and peak memory of report, compare, plot and export on a run of a million
    /// answers, against reading the run whole.
    Report(report::ReportBenchArgs),
    /// Questions from a big KG served by oxigraph on 127.0.0.1, drawn with bounded queries:
    /// time, memory and SPARQL requests per method, against reading the KG whole.
    Endpoint(endpoint::EndpointBenchArgs),
    /// Agreement of the verdict rules, and of the rules with an LLM judge, with a hand-labelled
    /// response table.
    Verdicts(verdicts::VerdictBenchArgs),
    /// Answer/description pairs/s of KGHaluBench's entity-level check (sentence embeddings
    /// on the CPU), against its token-set ratio alone.
    Embed(embed::EmbedBenchArgs),
    /// Facts/s and agreement with a hand-labelled table of KGHaluBench's fact judge, against
    /// its first stage (the object named in the answer).
    FactJudge(fact_judge::FactJudgeBenchArgs),
    /// Statements/s judged by GraphEval's trained judge on hidden states, against the same
    /// statements generated and parsed by the same model.
    Judge(judge::JudgeBenchArgs),
    /// Agreement of a question reviewer (`--review-with`) with a reviewed set's verdicts:
    /// Cohen's kappa, recall on the rejected questions, false alarms on the accepted ones.
    Reviewer(reviewer::ReviewerBenchArgs),
}

#[derive(Args)]
pub struct KgBenchArgs {
    /// Size of the synthetic KG.
    #[arg(long, default_value_t = 1_000_000)]
    pub triples: u64,
    /// Questions to generate (statements with one negative each).
    #[arg(long, default_value_t = 100_000)]
    pub questions: usize,
    /// Working directory [default: a fresh temporary directory, removed afterwards].
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
    /// The oxigraph CLI, whose `load` of the same file is the baseline of `kg load` [default:
    /// $KGSCOPE_OXIGRAPH, else `oxigraph` on PATH, else the one `tools/setup.sh` installs;
    /// left out when there is none].
    #[arg(long)]
    pub oxigraph: Option<PathBuf>,
}

pub fn run(cmd: BenchCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        BenchCommand::Kg(a) => kg(a),
        BenchCommand::Fpq(a) => fpq::run(a),
        BenchCommand::Llama(a) => llama::run(a),
        BenchCommand::Tui(a) => tui::run(a),
        BenchCommand::Report(a) => report::run(a),
        BenchCommand::Endpoint(a) => endpoint::run(a),
        BenchCommand::Verdicts(a) => verdicts::run(a),
        BenchCommand::Embed(a) => embed::run(a),
        BenchCommand::FactJudge(a) => fact_judge::run(a),
        BenchCommand::Judge(a) => judge::run(a),
        BenchCommand::Reviewer(a) => reviewer::run(a),
    }
}

/// Writes a synthetic KG shaped like a real one: every entity has a label and a type, and
/// eight facts spread over 50 relations with skewed (Zipf-like) object popularity.
pub fn synthetic_kg(path: &Path, triples: u64) -> anyhow::Result<u64> {
    const RELATIONS: u64 = 50;
    const CLASSES: u64 = 20;
    const FACTS_PER_ENTITY: u64 = 8;
    let entities = (triples / (FACTS_PER_ENTITY + 2)).max(10);
    let mut w = BufWriter::new(
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let ns = "https://kgscope.dev/kg/bench/";
    let label = "<http://www.w3.org/2000/01/rdf-schema#label>";
    let typ = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
    let mut n = 0u64;
    for r in 0..RELATIONS {
        writeln!(w, "<{ns}prop/r{r}> {label} \"relation {r}\"@en .")?;
        n += 1;
    }
    for c in 0..CLASSES {
        writeln!(w, "<{ns}class/C{c}> {label} \"class {c}\"@en .")?;
        n += 1;
    }
    'outer: for e in 0..entities {
        writeln!(w, "<{ns}entity/E{e}> {label} \"entity {e}\"@en .")?;
        writeln!(w, "<{ns}entity/E{e}> {typ} <{ns}class/C{}> .", e % CLASSES)?;
        n += 2;
        for _ in 0..FACTS_PER_ENTITY {
            if n >= triples {
                break 'outer;
            }
            let r = rng.random_range(0..RELATIONS);
            // Skewed objects: popular entities are objects far more often.
            let o = (entities as f64 * rng.random::<f64>().powi(3)) as u64;
            writeln!(w, "<{ns}entity/E{e}> <{ns}prop/r{r}> <{ns}entity/E{o}> .")?;
            n += 1;
        }
    }
    w.flush()?;
    Ok(n)
}

fn kg(a: KgBenchArgs) -> anyhow::Result<ExitCode> {
    let tmp;
    let dir = match &a.dir {
        Some(d) => {
            std::fs::create_dir_all(d)?;
            d.clone()
        }
        None => {
            tmp = tempdir()?;
            tmp.0.clone()
        }
    };
    let file = dir.join("synthetic.nt");
    eprintln!(
        "writing a synthetic KG of {} triples to {}",
        a.triples,
        file.display()
    );
    let written = synthetic_kg(&file, a.triples)?;

    // Baseline: parsing alone, no storage.
    let t = Instant::now();
    let parsed = load::count_statements(std::slice::from_ref(&file))?;
    let parse_s = t.elapsed().as_secs_f64();

    let store_dir = dir.join("store");
    let _ = std::fs::remove_dir_all(&store_dir);
    let store = oxigraph::store::Store::open(&store_dir)?;
    let t = Instant::now();
    let report = load::load_files(
        &store,
        std::slice::from_ref(&file),
        &LoadOptions::default(),
        &|_| {},
    )?;
    let load_s = t.elapsed().as_secs_f64();
    drop(store);
    // Baseline: the oxigraph CLI's own bulk load of the same file into a fresh store.
    let cli = endpoint::oxigraph_cli(a.oxigraph.as_deref());
    let cli_dir = dir.join("store-oxigraph-cli");
    let _ = std::fs::remove_dir_all(&cli_dir);
    let cli_load_s = endpoint::oxigraph_load(&cli, &cli_dir, &file).ok();
    let _ = std::fs::remove_dir_all(&cli_dir);

    let kg = LocalKg::open_dir(&store_dir)?;
    // Baseline: the index built by SPARQL queries, as every KG's was before stores were
    // scanned (and as an endpoint's still is).
    let t = Instant::now();
    let by_queries = KgIndex::build_by_queries(&kg, &|_| {})?;
    let queries_s = t.elapsed().as_secs_f64();
    drop(by_queries);
    let t = Instant::now();
    let index = KgIndex::build_fresh(&kg, &|_| {})?;
    let index_s = t.elapsed().as_secs_f64();
    drop(index);
    // The index kept beside the store: built and saved at the first open, read back after.
    if let Some(slot) = kgscope::kg::index_file::Slot::for_store(&store_dir) {
        let _ = std::fs::remove_file(&slot.path);
    }
    let t = Instant::now();
    drop(KgIndex::build(&kg, &|_| {})?);
    let first_open_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let index = KgIndex::build(&kg, &|_| {})?;
    let reopen_s = t.elapsed().as_secs_f64();

    let templates = TemplateSet::builtin();
    let opts = GenerateOptions {
        task: Task::Statement,
        limit: a.questions,
        negatives: 1,
        seed: 42,
        ..Default::default()
    };
    let t = Instant::now();
    let (qs, _) = kgscope::method::generate(&index, &templates, &opts)?;
    let gen_s = t.elapsed().as_secs_f64();
    // Baseline for generation: serialising the same questions to JSON Lines.
    let t = Instant::now();
    let mut sink = Vec::new();
    for q in &qs {
        serde_json::to_writer(&mut sink, q)?;
        sink.push(b'\n');
    }
    let ser_s = t.elapsed().as_secs_f64();

    let out = serde_json::json!({
        "triples_written": written,
        "triples_parsed": parsed,
        "parse_triples_per_s": parsed as f64 / parse_s,
        "load_triples_per_s": report.statements as f64 / load_s,
        "load_vs_parse_ratio": parse_s / load_s,
        "oxigraph_cli_load_s": cli_load_s,
        "load_vs_oxigraph_cli_ratio": cli_load_s.map(|s| s / load_s),
        "index_build_s": index_s,
        "index_build_by_queries_s": queries_s,
        "first_open_s": first_open_s,
        "reopen_with_saved_index_s": reopen_s,
        "index_facts": index.facts().len(),
        "questions": qs.len(),
        "questions_per_s": qs.len() as f64 / gen_s,
        "generation_vs_json_serialisation_ratio": ser_s / gen_s,
    });
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "synthetic KG: {written} triples ({} facts indexed)",
            index.facts().len()
        );
        println!(
            "parse only (baseline): {:>12.0} triples/s",
            parsed as f64 / parse_s
        );
        println!(
            "load into store:       {:>12.0} triples/s  ({:.2}× of parse-only; {})",
            report.statements as f64 / load_s,
            parse_s / load_s,
            match cli_load_s {
                Some(s) => format!(
                    "{:.2}× the speed of `oxigraph load`: {s:.1} s against {load_s:.1} s",
                    s / load_s
                ),
                None => format!("no oxigraph CLI at {} to compare with", cli.display()),
            }
        );
        println!(
            "index build:           {:>12.2} s  (a scan of the store; by SPARQL queries {:.2} s, {:.2}×)",
            index_s,
            queries_s,
            index_s / queries_s
        );
        println!(
            "open, index saved:     {:>12.2} s  (scan and save); reopened: {:.2} s ({:.2}× of a scan)",
            first_open_s,
            reopen_s,
            reopen_s / index_s
        );
        println!("question generation:   {:>12.0} questions/s ({} questions; {:.2}× the speed of writing them as JSON)", qs.len() as f64 / gen_s, qs.len(), ser_s / gen_s);
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) struct TempDir(pub(super) PathBuf);
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
pub(super) fn tempdir() -> anyhow::Result<TempDir> {
    let d = std::env::temp_dir().join(format!("kgscope-bench-{}", std::process::id()));
    std::fs::create_dir_all(&d)?;
    Ok(TempDir(d))
}

/// Runs `cmd` to its end: wall seconds, peak resident memory in MiB (the child's maximum
/// resident set, from wait4) and what it wrote to standard output. Its standard error goes to
/// a file, shown when it fails.
pub(super) fn measure(cmd: &mut std::process::Command) -> anyhow::Result<(f64, f64, String)> {
    use std::io::Read;
    let err = tempfile::NamedTempFile::new()?;
    let t = std::time::Instant::now();
    let mut child = cmd
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(err.reopen()?)
        .spawn()
        .context("starting kgscope")?;
    let mut out = String::new();
    if let Some(mut o) = child.stdout.take() {
        o.read_to_string(&mut out)?;
    }
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is this process's child, not yet waited for.
    let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let secs = t.elapsed().as_secs_f64();
    anyhow::ensure!(got == pid, "waiting for {cmd:?} failed");
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        let said = std::fs::read_to_string(err.path()).unwrap_or_default();
        anyhow::bail!("{cmd:?} failed: {}", said.trim());
    }
    Ok((secs, usage.ru_maxrss as f64 / 1024.0, out))
}

/// An answer as a model gives it, of typical size and timings, with the `verdict` read from it
/// (the benches' stand-in for a model: the cost measured does not depend on where answers
/// come from).
pub(crate) fn bench_attempt(
    verdict: kgscope::core::verdict::Verdict,
    response: String,
) -> kgscope::run::Attempt {
    kgscope::run::Attempt {
        response,
        verdict,
        answer: None,
        rule: "bench".into(),
        stage: Default::default(),
        judge: None,
        compound: None,
        trained: None,
        likelihood: None,
        prompt_tokens: 20,
        completion_tokens: 8,
        first_token_ms: 5,
        total_ms: 40,
        finish_reason: "stop".into(),
    }
}

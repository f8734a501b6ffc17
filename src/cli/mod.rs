//! Command-line parsing and the headless commands.

mod bench;
mod bench_llama;
mod bench_tui;
mod demo;
mod kg;
mod labels;
mod logging;
mod progress;
mod questions;
mod run;
mod tui;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "kgscope",
    version,
    about = "Measure what a language model knows, with a knowledge graph as the answer key",
    long_about = None,
    after_help = "KG sources (--kg): an RDF file (.ttl .nt .nq .trig .rdf/.xml .n3, optionally .gz), \
an oxigraph store directory made by `kgscope kg load`, an http(s):// SPARQL endpoint URL, \
or sample:NAME for a built-in sample KG (sample:countries, sample:elements, …)."
)]
pub struct Cli {
    /// With no command, the terminal UI opens (as `kgscope tui` with its defaults).
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// The terminal UI: explore a KG, run and watch an evaluation, drill into errors, label.
    Tui(tui::TuiArgs),
    /// A hands-free tour for a booth or a talk: short live runs shown screen by screen, over
    /// and over, until a key is pressed.
    Demo(demo::DemoArgs),
    /// Hand labels of a run.
    #[command(subcommand)]
    Labels(labels::LabelsCommand),
    /// Load, inspect and query knowledge graphs.
    #[command(subcommand)]
    Kg(KgCommand),
    /// Generate questions from a KG and write them as JSON Lines.
    Questions(questions::QuestionsArgs),
    /// Ask a model the questions of a KG, verify the answers and record everything.
    Run(Box<run::RunArgs>),
    /// Print the metrics of a run (finished or not) from its results.jsonl.
    Report(run::ReportArgs),
    /// The bundled default model.
    #[command(subcommand)]
    Model(run::ModelCommand),
    /// Benchmarks (throughput figures, measured against a baseline in the same command).
    #[command(subcommand)]
    Bench(bench::BenchCommand),
}

#[derive(Subcommand)]
pub enum KgCommand {
    /// Bulk-load RDF files into an on-disk store.
    Load(kg::LoadArgs),
    /// Triples, entities, relations, label/type/date coverage.
    Stats(kg::StatsArgs),
    /// One entity by IRI, label or alias, with its neighbourhood.
    Show(kg::ShowArgs),
    /// List the built-in sample KGs.
    Samples,
}

/// The `--kg` option shared by every command that reads a KG.
#[derive(Args, Clone)]
pub struct KgArg {
    /// RDF file, store directory, SPARQL endpoint URL, or sample:NAME.
    #[arg(long, value_name = "KG", default_value = "sample:countries")]
    pub kg: String,
}

pub fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    let Some(command) = cli.command else {
        return tui::run(tui::defaults());
    };
    if !matches!(command, Command::Tui(_) | Command::Demo(_)) {
        logging::to_stderr();
    }
    match command {
        Command::Tui(a) => tui::run(a),
        Command::Demo(a) => demo::run(a),
        Command::Labels(c) => labels::dispatch(c),
        Command::Kg(KgCommand::Load(a)) => kg::load(a),
        Command::Kg(KgCommand::Stats(a)) => kg::stats(a),
        Command::Kg(KgCommand::Show(a)) => kg::show(a),
        Command::Kg(KgCommand::Samples) => kg::samples(),
        Command::Questions(a) => questions::run(a),
        Command::Run(a) => run::run(*a),
        Command::Report(a) => run::report_cmd(a),
        Command::Model(m) => run::model(m),
        Command::Bench(b) => bench::run(b),
    }
}

/// Writes `bytes` to `path` through a temporary file and a rename, so a crash or Ctrl-C never
/// leaves a half-written output behind.
pub fn write_atomically(path: &PathBuf, bytes: &[u8]) -> anyhow::Result<()> {
    use anyhow::Context;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let tmp = dir.join(format!(
        ".{}.tmp{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("out"),
        std::process::id()
    ));
    std::fs::write(&tmp, bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok(())
}

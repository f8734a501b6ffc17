//! Command-line parsing and the headless commands.

mod bench;
mod compare;
mod demo;
mod endpoint_args;
mod export;
mod judge;
mod kg;
mod labels;
mod logging;
mod model;
mod openai_args;
mod plot;
mod progress;
mod questions;
mod report;
mod review;
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
    // `kgscope --kg X` opens the TUI with X; a flag before a command (`kgscope --kg X run`)
    // is refused rather than silently dropped.
    args_conflicts_with_subcommands = true,
    subcommand_value_name = "COMMAND",
    after_help = "KG sources (--kg): an RDF file (.ttl .nt .nq .trig .rdf/.xml .n3, optionally .gz), \
an oxigraph store directory made by `kgscope kg load`, an http(s):// SPARQL endpoint URL, \
or sample:NAME for a built-in sample KG (sample:countries, sample:elements, …)."
)]
pub struct Cli {
    /// With no command, the terminal UI opens, exactly as `kgscope tui` with the same flags.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The flags of `kgscope tui`, for the bare command.
    #[command(
        flatten,
        next_help_heading = "Terminal UI options (with no command, as `kgscope tui`)"
    )]
    pub tui: tui::TuiArgs,
    #[command(flatten)]
    pub endpoint: endpoint_args::EndpointArgs,
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
    /// Check a question set: negatives a model could reject by type alone, negatives that read
    /// like true facts, questions that give their answer away, grammar problems.
    Audit(questions::AuditArgs),
    /// Ask a model the questions of a KG, verify the answers and record everything.
    Run(Box<run::RunArgs>),
    /// Print the metrics of a run (finished or not) from its results.jsonl.
    Report(report::ReportArgs),
    /// Draw a figure of one run, or of several side by side, as SVG or PNG.
    Plot(plot::PlotArgs),
    /// Compare runs on their common questions: metrics side by side, differences with 95%
    /// intervals, McNemar's test on the paired outcomes.
    Compare(compare::CompareArgs),
    /// Write the results of one or more runs as one JSON Lines dataset, a row per question
    /// with the same typed columns throughout (loadable by Hugging Face `datasets`).
    Export(export::ExportArgs),
    /// The models kgscope fetches: the bundled default and instruction-tuned ones to compare
    /// it with.
    #[command(subcommand)]
    Model(model::ModelCommand),
    /// GraphEval's trained judge: learn it from statement runs and hand labels.
    #[command(subcommand)]
    Judge(judge::JudgeCommand),
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
    /// How kgscope reads the KG under its profile: facts per relation (count, types, a
    /// question), names, types, qualifiers, and what it leaves out and why.
    Profile(kg::ProfileArgs),
}

/// The `--kg` option shared by every command that reads a KG.
#[derive(Args, Clone)]
pub struct KgArg {
    /// RDF file, store directory, SPARQL endpoint URL, or sample:NAME.
    #[arg(long, value_name = "KG", default_value = "sample:countries")]
    pub kg: String,
    /// How to read the KG: wikidata, dbpedia, generic, or a profile FILE.toml (which
    /// predicates are facts, labels, types, qualifiers, metadata). Default: detected from the
    /// data (the Wikibase ontology: wikidata; DBpedia ontology classes: dbpedia; else
    /// generic).
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Language of labels, aliases and descriptions (a BCP 47 tag). Default: English
    /// (Wikidata falls back to `mul`, then English).
    #[arg(long, value_name = "LANG")]
    pub lang: Option<String>,
    /// Read a SPARQL endpoint's KG whole (every triple, by a few unbounded queries) instead of
    /// a sample: only for an endpoint small enough to hold in memory (a 2M-triple one takes
    /// about 1 GiB and minutes). Without it an endpoint is sampled (`--kg-sample`, 100 facts
    /// per relation unless given); files and stores are always read whole.
    #[arg(long)]
    pub kg_whole: bool,
}

impl KgArg {
    /// Makes `--profile` and `--lang` (and the run's `--relation`s) the choice every index
    /// this command builds reads the KG with.
    pub fn apply(&self, relations: &[String]) -> kgscope::kg::profile::Choice {
        let c = kgscope::kg::profile::Choice {
            profile: self.profile.clone(),
            lang: self.lang.clone(),
            relations: relations.to_vec(),
        };
        kgscope::kg::profile::set_choice(c.clone());
        kgscope::kg::bounded::set_whole(self.kg_whole);
        c
    }
}

pub fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    cli.endpoint.apply()?;
    let Some(command) = cli.command else {
        return tui::run(cli.tui);
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
        Command::Kg(KgCommand::Profile(a)) => kg::profile(a),
        Command::Questions(a) => questions::run(a),
        Command::Audit(a) => questions::audit(a),
        Command::Run(a) => run::run(*a),
        Command::Report(a) => report::run(a),
        Command::Plot(a) => plot::plot(a),
        Command::Compare(a) => compare::compare(a),
        Command::Export(a) => export::run(a),
        Command::Model(m) => model::run(m),
        Command::Judge(c) => judge::dispatch(c),
        Command::Bench(b) => bench::run(b),
    }
}

/// The value of `--out` that means standard output.
pub const STDOUT: &str = "-";

/// Writes a command's output where `--out` says: `-` is standard output, anything else a file
/// written atomically (see [`write_atomically`]).
pub fn write_output(out: &str, bytes: &[u8]) -> anyhow::Result<()> {
    use anyhow::Context;
    use std::io::Write;
    if out == STDOUT {
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(bytes)
            .context("writing to standard output")?;
        return stdout.flush().context("writing to standard output");
    }
    write_atomically(&PathBuf::from(out), bytes)
}

/// Where `--out` sent the output, for the message that says so.
pub fn describe_output(out: &str) -> String {
    if out == STDOUT {
        "standard output".into()
    } else {
        out.into()
    }
}

pub use kgscope::store::write_atomically;

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::{CommandFactory, Parser};

    /// `path --flag` (or `path ARG`) for each argument of `cmd` and its subcommands that gives
    /// no help text, or that takes a value, has no default and is not required but does not
    /// say what happens without it; `path (command)` for each subcommand without a description.
    fn undocumented(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        for a in cmd.get_arguments() {
            if matches!(a.get_id().as_str(), "help" | "version") {
                continue;
            }
            let name = match a.get_long() {
                Some(l) => format!("{path} --{l}"),
                None => format!("{path} {}", a.get_id().as_str().to_uppercase()),
            };
            let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
            if help.trim().is_empty() {
                out.push(name);
                continue;
            }
            let optional_value = a.get_action().takes_values()
                && !a.is_positional()
                && !a.is_required_set()
                && a.get_default_values().is_empty();
            if optional_value && !help.to_lowercase().contains("default") {
                out.push(format!("{name} (what happens without it?)"));
            }
        }
        for sub in cmd.get_subcommands() {
            let sub_path = format!("{path} {}", sub.get_name());
            if sub.get_about().is_none() {
                out.push(format!("{sub_path} (command)"));
            }
            undocumented(sub, &sub_path, out);
        }
    }

    #[test]
    fn every_flag_of_every_command_has_help_text() {
        let mut missing = Vec::new();
        undocumented(&Cli::command(), "kgscope", &mut missing);
        assert!(missing.is_empty(), "without help text: {missing:#?}");
    }

    #[test]
    fn the_help_walk_finds_a_flag_without_help() {
        let cmd = clap::Command::new("x")
            .arg(
                clap::Arg::new("quiet")
                    .long("quiet")
                    .action(clap::ArgAction::SetTrue)
                    .help("Say less."),
            )
            .subcommand(
                clap::Command::new("sub")
                    .about("A command.")
                    .arg(clap::Arg::new("bare").long("bare"))
                    .arg(clap::Arg::new("out").long("out").help("Output file.")),
            );
        let mut missing = Vec::new();
        undocumented(&cmd, "x", &mut missing);
        assert_eq!(
            missing,
            ["x sub --bare", "x sub --out (what happens without it?)"]
        );
    }

    #[test]
    fn the_bare_command_takes_the_tui_flags_but_not_before_a_command() {
        let cli = Cli::try_parse_from(["kgscope", "--kg", "sample:nba", "--theme", "light"])
            .expect("tui flags on the bare command");
        assert!(cli.command.is_none());
        assert_eq!(cli.tui.kg, "sample:nba");
        assert_eq!(cli.tui.theme, "light");
        let bare = Cli::try_parse_from(["kgscope"]).unwrap();
        assert_eq!(bare.tui.kg, "sample:countries", "the tui's defaults");
        assert!(Cli::try_parse_from(["kgscope", "--kg", "sample:nba", "stats"]).is_err());
        assert!(Cli::try_parse_from(["kgscope", "--kg", "sample:nba", "kg", "samples"]).is_err());
        // A subcommand's own --kg still belongs to it.
        let sub = Cli::try_parse_from(["kgscope", "kg", "stats", "--kg", "sample:nba"]).unwrap();
        assert!(sub.command.is_some());
    }

    #[test]
    fn clap_accepts_the_command_tree() {
        Cli::command().debug_assert();
    }
}

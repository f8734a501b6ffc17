//! `kgscope export`: the results of one or more runs as one JSON Lines dataset, loadable by
//! Hugging Face `datasets` (columns: README.md, "Datasets"; rows: [`kgscope::report::dataset`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use kgscope::report::dataset;
use kgscope::run::session;

#[derive(Args)]
pub struct ExportArgs {
    /// Run ids (or run directories); their rows are written one run after another, each row
    /// naming its run.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<String>,
    /// Output file, written whole or not at all; `-` for standard output.
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// The file's format.
    #[arg(long, value_enum, default_value = "jsonl")]
    pub format: Format,
    /// Where runs are kept.
    #[arg(long, default_value = "runs", env = "KGSCOPE_RUNS")]
    pub runs_dir: PathBuf,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
pub enum Format {
    /// JSON Lines: `datasets.load_dataset("json", data_files=FILE)`.
    Jsonl,
    /// Parquet (uncompressed), typed by its schema even where a column is all null:
    /// `datasets.load_dataset("parquet", data_files=FILE)`.
    Parquet,
}

pub fn run(a: ExportArgs) -> anyhow::Result<ExitCode> {
    // Every run is read before anything is written: a missing or unreadable run writes nothing.
    let mut rows = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for id in &a.runs {
        let (run, manifest, records) = session::open_results(&a.runs_dir, id)?;
        if seen.contains(&run.id) {
            bail!("run {} is named twice", run.id);
        }
        rows.extend(records.iter().map(|r| dataset::row(&manifest, r)));
        seen.push(run.id);
    }
    let mut out = Vec::new();
    match a.format {
        Format::Jsonl => {
            for row in &rows {
                // Terminal-safe JSON: `--out -` may put it on a terminal.
                kgscope::sanitize::write_json(&mut out, row)?;
                out.push(b'\n');
            }
        }
        Format::Parquet => dataset::write_parquet(&rows, &mut out).context("writing Parquet")?,
    }
    super::write_output(&a.out, &out)?;
    eprintln!(
        "wrote {} row(s) from {} run(s) ({}) to {}",
        rows.len(),
        seen.len(),
        seen.join(", "),
        super::describe_output(&a.out)
    );
    Ok(ExitCode::SUCCESS)
}

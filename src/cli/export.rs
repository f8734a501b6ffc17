//! `kgscope export`: the results of one or more runs as one JSON Lines dataset, loadable by
//! Hugging Face `datasets` (columns: README.md, "Datasets"; rows: [`kgscope::report::dataset`]).

use std::path::PathBuf;
use std::process::ExitCode;

use std::io::Write;

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use kgscope::report::dataset;
use kgscope::run::Manifest;
use kgscope::store::RunDir;

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
    // Every run is opened before anything is written: a missing run, or one named twice,
    // writes nothing.
    let mut runs: Vec<(RunDir, Manifest)> = Vec::new();
    for id in &a.runs {
        let run = RunDir::open(&a.runs_dir, id)?;
        if runs.iter().any(|(r, _)| r.id == run.id) {
            bail!("run {} is named twice", run.id);
        }
        let manifest = run.read_manifest()?;
        runs.push((run, manifest));
    }
    // The rows are streamed, a run's records read one at a time: a file is written beside
    // its place and renamed into it once whole; standard output gets nothing until every
    // run has been read through once, so an unreadable line anywhere writes nothing there
    // either.
    let rows = if a.out == super::STDOUT {
        for (run, _) in &runs {
            run.for_each_result(|_| {})?;
        }
        let mut out = std::io::BufWriter::new(std::io::stdout());
        let n = write_rows(&runs, a.format, &mut out)?;
        out.flush().context("writing to standard output")?;
        n
    } else {
        let mut n = 0;
        kgscope::store::write_atomically_with(std::path::Path::new(&a.out), |out| {
            n = write_rows(&runs, a.format, out)?;
            Ok(())
        })?;
        n
    };
    let ids: Vec<&str> = runs.iter().map(|(r, _)| r.id.as_str()).collect();
    eprintln!(
        "wrote {rows} row(s) from {} run(s) ({}) to {}",
        ids.len(),
        ids.join(", "),
        super::describe_output(&a.out)
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes every run's rows to `out`, run after run; returns how many.
fn write_rows(
    runs: &[(RunDir, Manifest)],
    format: Format,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<usize> {
    let mut n = 0;
    match format {
        Format::Jsonl => {
            for (run, manifest) in runs {
                let mut failed = None;
                run.for_each_result(|r| {
                    if failed.is_some() {
                        return;
                    }
                    // Terminal-safe JSON: `--out -` may put it on a terminal.
                    let row = dataset::row(manifest, &r);
                    let written = kgscope::sanitize::write_json(&mut *out, &row)
                        .map_err(anyhow::Error::from)
                        .and_then(|()| Ok(out.write_all(b"\n")?));
                    match written {
                        Ok(()) => n += 1,
                        Err(e) => failed = Some(e),
                    }
                })?;
                if let Some(e) = failed {
                    return Err(e);
                }
            }
        }
        Format::Parquet => {
            let mut w = dataset::ParquetWriter::new(out).context("writing Parquet")?;
            let mut group = Vec::new();
            for (run, manifest) in runs {
                let mut failed = None;
                run.for_each_result(|r| {
                    if failed.is_some() {
                        return;
                    }
                    group.push(dataset::row(manifest, &r));
                    if group.len() == dataset::PARQUET_GROUP_ROWS {
                        n += group.len();
                        failed = w.write_group(&std::mem::take(&mut group)).err();
                    }
                })?;
                if let Some(e) = failed {
                    return Err(e).context("writing Parquet");
                }
            }
            if !group.is_empty() || n == 0 {
                n += group.len();
                w.write_group(&group).context("writing Parquet")?;
            }
            w.finish().context("writing Parquet")?;
        }
    }
    Ok(n)
}

//! `kgscope export`: the results of one or more runs as one JSON Lines dataset, loadable by
//! Hugging Face `datasets` (columns: README.md, "Datasets"; rows: [`kgscope::report::dataset`]).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::Args;
use kgscope::report::dataset;
use kgscope::run::session;

#[derive(Args)]
pub struct ExportArgs {
    /// Run ids (or run directories); their rows are written one run after another, each row
    /// naming its run.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<String>,
    /// Output file (JSON Lines), written whole or not at all; `-` for standard output.
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// Where runs are kept.
    #[arg(long, default_value = "runs", env = "KGSCOPE_RUNS")]
    pub runs_dir: PathBuf,
}

pub fn run(a: ExportArgs) -> anyhow::Result<ExitCode> {
    // Every run is read before anything is written: a missing or unreadable run writes nothing.
    let mut out = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut rows = 0usize;
    for id in &a.runs {
        let (run, manifest, records) = session::open_results(&a.runs_dir, id)?;
        if seen.contains(&run.id) {
            bail!("run {} is named twice", run.id);
        }
        for r in &records {
            // Terminal-safe JSON: `--out -` may put it on a terminal.
            kgscope::sanitize::write_json(&mut out, &dataset::row(&manifest, r))?;
            out.push(b'\n');
        }
        rows += records.len();
        seen.push(run.id);
    }
    super::write_output(&a.out, &out)?;
    eprintln!(
        "wrote {rows} row(s) from {} run(s) ({}) to {}",
        seen.len(),
        seen.join(", "),
        super::describe_output(&a.out)
    );
    Ok(ExitCode::SUCCESS)
}

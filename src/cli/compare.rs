//! `kgscope compare`: several runs side by side on their common questions.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use kgscope::compare::{self, render, Grouping};
use kgscope::figures;
use kgscope::report::doc;

use super::plot::load_runs;
use super::{describe_output, write_output, STDOUT};

#[derive(Clone, Copy, Default, ValueEnum)]
pub enum CompareFormat {
    /// Markdown tables, to paste into a paper or an issue.
    #[default]
    Md,
    /// One self-contained HTML page with the tables and a figure (inline SVG).
    Html,
    /// One row per group and run against the baseline.
    Csv,
    Json,
}

#[derive(Args)]
pub struct CompareArgs {
    /// Two or more run ids (or run directories); the first is the baseline the others are
    /// tested against.
    #[arg(required = true, num_args = 2.., value_name = "RUN")]
    pub runs: Vec<String>,
    /// Groups of the per-group rows: relation, head-type, tail-type or a method's facet
    /// (edit, hop, format).
    #[arg(long, default_value = "relation", value_name = "GROUPING")]
    pub by: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: CompareFormat,
    /// Where to write it; `-` for standard output.
    #[arg(long, default_value = STDOUT, value_name = "FILE")]
    pub out: String,
    /// Score the machine's decisions only: hand labels in labels.jsonl do not override them.
    #[arg(long)]
    pub no_labels: bool,
    /// Where runs are kept.
    #[arg(long, default_value = "runs", env = "KGSCOPE_RUNS")]
    pub runs_dir: PathBuf,
}

pub fn compare(a: CompareArgs) -> anyhow::Result<ExitCode> {
    let runs = load_runs(&a.runs_dir, &a.runs, !a.no_labels)?;
    let by = Grouping::parse(&a.by);
    let c = compare::compare(&runs, &by)?;
    let mut methods: Vec<&str> = runs.iter().map(|r| r.method()).collect();
    methods.dedup();
    if methods.len() > 1 {
        eprintln!(
            "note: the runs use different methods ({}): only questions with the same id are paired",
            methods.join(", ")
        );
    }
    eprintln!(
        "compared on {} common questions ({})",
        c.common,
        c.runs
            .iter()
            .map(|r| format!("{} answered {}", r.id, r.answered))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let text = match a.format {
        CompareFormat::Md => doc::markdown(&render::blocks(&c)),
        CompareFormat::Csv => doc::csv(&render::CSV_HEADER, &render::csv_rows(&c)),
        CompareFormat::Json => kgscope::sanitize::json_pretty(&c)? + "\n",
        CompareFormat::Html => {
            let mut blocks = render::blocks(&c);
            let fig = figures::comparison(&runs, &c, &by)?;
            blocks.push(doc::Block::Figure {
                caption: format!("{} — on the {} common questions", fig.title, c.common),
                svg: figures::svg(&fig)?,
            });
            doc::html("kgscope comparison", &blocks)
        }
    };
    write_output(&a.out, text.as_bytes())?;
    if a.out != STDOUT {
        eprintln!("wrote {}", describe_output(&a.out));
    }
    Ok(ExitCode::SUCCESS)
}

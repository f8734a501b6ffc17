//! `kgscope plot`: figures of one run, or of several side by side, as SVG or PNG.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::{Args, ValueEnum};
use kgscope::figures::{self, Kind, Request, View};
use kgscope::metrics::Metric;
use kgscope::report::grid::HeatSort;
use kgscope::report::loaded::LoadedRun;

#[derive(Clone, Copy, ValueEnum)]
pub enum KindArg {
    /// The metric as a heatmap, as the TUI's Heatmaps screen shows it.
    Heatmap,
    /// The metric per group as bars with 95% intervals (several runs: bars side by side).
    Bars,
    /// KGLens' per-predicate dot view (KGLens runs).
    Dots,
    /// Reliability diagram: accuracy against confidence (runs asked with --repeats, or
    /// answered with --scoring logprob).
    Calibration,
}

#[derive(Clone, Copy, Default, ValueEnum)]
pub enum SortArg {
    /// By name (years in order).
    #[default]
    Name,
    /// Worst value first.
    Value,
    /// Largest groups first.
    Count,
}

impl SortArg {
    pub fn sort(self) -> HeatSort {
        match self {
            SortArg::Name => HeatSort::Name,
            SortArg::Value => HeatSort::Value,
            SortArg::Count => HeatSort::Count,
        }
    }
}

/// What a figure shows: its groups, metric, order and size.
#[derive(Args, Clone)]
pub struct FigureArgs {
    /// Groups: relation, types (head × tail), year, head-type, tail-type, a method's facet
    /// (edit, hop, format) or a pair of facets (edit-hop, edit-relation, edit-format).
    #[arg(long, default_value = "relation", value_name = "VIEW")]
    pub view: String,
    /// The metric, by name (accuracy, correctness, win-rate, zero-sense-rate, f1, …)
    /// [default: the method's first].
    #[arg(long, value_name = "NAME")]
    pub metric: Option<String>,
    /// Row order.
    #[arg(long, value_enum, default_value_t)]
    pub sort: SortArg,
    /// At most this many groups (rows); the figure says how many more there were.
    #[arg(long, default_value_t = 60, value_name = "N")]
    pub max_rows: usize,
}

impl FigureArgs {
    pub fn request(&self, kind: Kind) -> anyhow::Result<Request> {
        let metric = match &self.metric {
            None => None,
            Some(name) => match Metric::parse(name) {
                Some(m) => Some(m),
                None => bail!(
                    "unknown metric \"{name}\": one of {}",
                    Metric::ALL
                        .iter()
                        .map(|m| m.name().replace(' ', "-"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            },
        };
        if self.max_rows == 0 {
            bail!("--max-rows must be at least 1");
        }
        Ok(Request {
            kind,
            view: View::parse(&self.view),
            metric,
            sort: self.sort.sort(),
            max_rows: self.max_rows,
        })
    }
}

#[derive(Args)]
pub struct PlotArgs {
    /// Run ids (or run directories); several are drawn side by side.
    #[arg(required = true, value_name = "RUN")]
    pub runs: Vec<String>,
    /// What to draw.
    #[arg(long, value_enum, default_value_t = KindArg::Heatmap)]
    pub kind: KindArg,
    #[command(flatten)]
    pub figure: FigureArgs,
    /// The file to write: .svg or .png, by its extension.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Score the machine's decisions only: hand labels in labels.jsonl do not override them.
    #[arg(long)]
    pub no_labels: bool,
    /// Where runs are kept.
    #[arg(long, default_value = "runs", env = "KGSCOPE_RUNS")]
    pub runs_dir: PathBuf,
}

pub fn load_runs(
    runs_dir: &std::path::Path,
    ids: &[String],
    labels: bool,
) -> anyhow::Result<Vec<LoadedRun>> {
    ids.iter()
        .map(|id| LoadedRun::load(runs_dir, id, labels))
        .collect()
}

pub fn plot(a: PlotArgs) -> anyhow::Result<ExitCode> {
    let kind = match a.kind {
        KindArg::Heatmap => Kind::Heatmap,
        KindArg::Bars => Kind::Bars,
        KindArg::Dots => Kind::Dots,
        KindArg::Calibration => Kind::Calibration,
    };
    let req = a.figure.request(kind)?;
    // The extension is checked before any run is read.
    figures::is_png(&a.out)?;
    let runs = load_runs(&a.runs_dir, &a.runs, !a.no_labels)?;
    let fig = figures::build(&runs, &req)?;
    figures::save(&fig, &a.out)?;
    eprintln!(
        "wrote {} ({}, {} run{})",
        a.out.display(),
        fig.title,
        runs.len(),
        if runs.len() == 1 { "" } else { "s" }
    );
    Ok(ExitCode::SUCCESS)
}

//! `kgscope demo`: a short live evaluation that drives the TUI by itself (Explore, Live,
//! Heatmaps, Errors, Inspect) and starts over with other relations, until a key is pressed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use kgscope::tui::app::demo::DemoOptions;

#[derive(Args)]
pub struct DemoArgs {
    /// The KG the demo asks about: a sample (sample:NAME), a file, a store or a SPARQL URL.
    #[arg(long, default_value = "sample:countries")]
    pub kg: String,
    /// The model asked: `default` (the bundled small model), a .gguf path, or openai:MODEL.
    #[arg(long, default_value = "default")]
    pub model: String,
    #[command(flatten)]
    pub openai: super::openai_args::OpenAiArgs,
    /// Questions per round (each round is one short run).
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub limit: u64,
    /// Relations marked per round; each round takes the next ones.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=50))]
    pub relations: u64,
    /// Seconds each screen stays before the next step, so an audience can read it.
    #[arg(long, default_value_t = 4.0, value_parser = parse_secs)]
    pub step_secs: f64,
    /// Where the demo's runs are kept [default: kgscope-demo in the system's temp directory,
    /// so a booth left running all day does not fill the real runs directory].
    #[arg(long)]
    pub runs_dir: Option<PathBuf>,
    /// Colour theme.
    #[arg(long, default_value = "dark", value_parser = kgscope::tui::theme::NAMES)]
    pub theme: String,
    /// Where to log while the TUI owns the screen [default: $KGSCOPE_HOME/logs/tui.log].
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

fn parse_secs(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.1..=600.0).contains(&v) => Ok(v),
        Ok(v) => Err(format!("{v} is out of range: give 0.1 to 600 seconds")),
        Err(e) => Err(format!("{s:?} is not a number of seconds: {e}")),
    }
}

pub fn run(a: DemoArgs) -> anyhow::Result<ExitCode> {
    let runs_dir = a
        .runs_dir
        .unwrap_or_else(|| std::env::temp_dir().join("kgscope-demo"));
    let options = DemoOptions {
        limit: a.limit as usize,
        relations: a.relations as usize,
        step: Duration::from_secs_f64(a.step_secs),
        ..DemoOptions::default()
    };
    let tui = super::tui::TuiArgs {
        kg: a.kg,
        model: a.model,
        openai: a.openai,
        run: None,
        runs_dir,
        theme: a.theme,
        log: a.log,
        kg_sample: None,
    };
    super::tui::open(tui, |app| app.start_demo(options, Instant::now()))
}

//! `kgscope demo`: a short live evaluation that drives the TUI by itself (Explore, Live,
//! Heatmaps, Errors, Inspect, then the same questions to a second model and Compare) and
//! starts over with other relations, until a key is pressed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use kgscope::run::ModelSpec;
use kgscope::tui::app::demo::DemoOptions;

#[derive(Args)]
pub struct DemoArgs {
    /// The KG the demo asks about: a sample (sample:NAME), a file, a store or a SPARQL URL.
    #[arg(long, default_value = "sample:countries")]
    pub kg: String,
    /// The model asked: `default` (the bundled small model), a model name from `kgscope model
    /// list` (fetched when missing), a .gguf path, or openai:MODEL.
    #[arg(long, default_value = "default")]
    pub model: String,
    #[command(flatten)]
    pub openai: super::openai_args::OpenAiArgs,
    /// A second model asked each round's questions too, the round ending on Compare with
    /// --model as the baseline: a model name (`kgscope model list`), a .gguf path, openai:MODEL,
    /// or `none` [default: qwen2.5-coder-0.5b-instruct when it has been fetched, else none].
    #[arg(long, value_name = "MODEL")]
    pub compare_with: Option<String>,
    /// Questions per round (each round is one short run) [default: sized from the KG so each
    /// marked relation gets enough answers for its heatmap cell to rank (12 facts), at most 120
    /// questions].
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub limit: Option<u64>,
    /// Relations marked per round, among those with enough facts to rank; each round takes
    /// the next ones.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=50))]
    pub relations: u64,
    /// Seconds the shortest step stays (marking relations, the run dialog). A screen of
    /// findings stays twice as long and a tenth more per line it lists (a heatmap, the errors,
    /// Compare), the round's finding three times as long, so an audience can read each.
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

/// The model a demo compares with when none is named: instruction-tuned, so the comparison
/// shows what a base model's "yes to everything" costs.
const SECOND_MODEL: &str = "qwen2.5-coder-0.5b-instruct";

/// The second model: the one named, or [`SECOND_MODEL`] if it is here. Without one, says how
/// to get it (before the TUI takes the screen).
fn second_model(a: &DemoArgs) -> anyhow::Result<Option<ModelSpec>> {
    match a.compare_with.as_deref() {
        Some("none") => Ok(None),
        Some(spec) => Ok(Some(a.openai.model_spec(spec)?)),
        None => {
            let known = kgscope::models::registry::find(SECOND_MODEL).expect("in the registry");
            let path = kgscope::backends::spec::known_model_path(known);
            if std::fs::metadata(&path).is_ok_and(|m| m.len() == known.size) {
                return Ok(Some(ModelSpec::Llama { path }));
            }
            eprintln!(
                "kgscope: each round ends on Compare with a second model once one is here: \
                 `kgscope model fetch {SECOND_MODEL}` ({:.0} MB), or name one with --compare-with",
                known.size as f64 / 1e6
            );
            Ok(None)
        }
    }
}

pub fn run(a: DemoArgs) -> anyhow::Result<ExitCode> {
    let runs_dir = a
        .runs_dir
        .clone()
        .unwrap_or_else(|| std::env::temp_dir().join("kgscope-demo"));
    let second = second_model(&a)?;
    let options = DemoOptions {
        limit: a.limit.map(|l| l as usize),
        relations: a.relations as usize,
        second,
        ..DemoOptions::paced(Duration::from_secs_f64(a.step_secs))
    };
    let tui = super::tui::TuiArgs {
        kg: a.kg,
        model: a.model,
        openai: a.openai,
        helpers: Default::default(),
        run: None,
        runs_dir,
        theme: a.theme,
        log: a.log,
        kg_sample: None,
        kg_whole: false,
    };
    super::tui::open(tui, |app| app.start_demo(options, Instant::now()))
}

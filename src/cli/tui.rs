//! `kgscope tui`, and bare `kgscope`: the terminal UI.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clap::Args;

#[derive(Args)]
pub struct TuiArgs {
    /// The KG to explore: file, store directory, SPARQL endpoint URL, or sample:NAME.
    #[arg(long, default_value = "sample:countries")]
    pub kg: String,
    /// The model runs started from the TUI use: `default`, a model name from `kgscope model
    /// list`, a .gguf path, or openai:MODEL.
    #[arg(long, default_value = "default")]
    pub model: String,
    #[command(flatten)]
    pub openai: super::openai_args::OpenAiArgs,
    #[command(flatten)]
    pub helpers: super::openai_args::HelperArgs,
    /// Open a finished or interrupted run (its id or directory) to browse and label it; its
    /// KG is the one in its manifest [default: explore --kg, with no run open].
    #[arg(long, value_name = "RUN_ID")]
    pub run: Option<String>,
    /// Where runs are kept.
    #[arg(long, default_value = "runs", env = "KGSCOPE_RUNS")]
    pub runs_dir: PathBuf,
    /// Colours: `dark` or `light` to suit the terminal's background, `high-contrast` for the
    /// most legible.
    #[arg(long, default_value = "dark", value_parser = kgscope::tui::theme::NAMES)]
    pub theme: String,
    /// Where to log while the TUI owns the screen [default: $KGSCOPE_HOME/logs/tui.log].
    /// `KGSCOPE_LOG` sets the level (e.g. `kgscope=debug`).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Explore, and run on, N facts per relation drawn with bounded queries instead of the
    /// whole KG (an endpoint or store too big to read; see `kgscope run --kg-sample`)
    /// [default: 100 on a SPARQL endpoint; files and stores are read whole]
    #[arg(long, value_name = "N")]
    pub kg_sample: Option<usize>,
    /// Read a SPARQL endpoint's KG whole instead of a sample (see `kgscope run --kg-whole`).
    #[arg(long, conflicts_with = "kg_sample")]
    pub kg_whole: bool,
}

pub fn run(a: TuiArgs) -> anyhow::Result<ExitCode> {
    open(a, |_| {})
}

/// The TUI with `setup` applied to the app before the first frame (`kgscope demo`).
pub fn open(a: TuiArgs, setup: impl FnOnce(&mut kgscope::tui::App)) -> anyhow::Result<ExitCode> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        bail!(
            "the TUI needs an interactive terminal (stdin and stdout are not both one); \
             for headless work use `kgscope run`, `kgscope report` or `kgscope labels export`"
        );
    }
    let log = a.log.unwrap_or_else(super::logging::default_tui_log);
    // A log that cannot be written is no reason to refuse the UI: say so and go on without.
    let log = match super::logging::to_file(&log) {
        Ok(()) => Some(log),
        Err(e) => {
            eprintln!("warning: {e:#}; the TUI runs without a log file");
            None
        }
    };
    // Refused before the screen is taken, as `kgscope run` refuses them.
    let (judge, writer) = a.helpers.specs(&a.openai)?;
    // Credentials stay in memory: the TUI shows and stores the URLs masked.
    a.openai.supply_credentials();
    if let Some(url) = &a.helpers.judge_base_url {
        kgscope::credentials::supply(url.trim_end_matches('/'));
    }
    kgscope::credentials::supply(&a.kg);
    kgscope::kg::bounded::set_whole(a.kg_whole);
    // An endpoint is sampled unless read whole is asked for: said before the screen is taken.
    let kg_sample = a.kg_sample.or_else(|| {
        (!a.kg_whole && kgscope::kg::bounded::is_endpoint(&a.kg)).then(|| {
            let n = kgscope::kg::bounded::DEFAULT_SAMPLE;
            eprintln!("kgscope: {}", kgscope::kg::bounded::default_sample_note(n));
            n
        })
    });
    // Said before the screen is taken, and kept in the log.
    if let Ok(spec) = a.openai.model_spec(&a.model) {
        if let Some(notice) = a.openai.default_url_notice(&spec) {
            eprintln!("kgscope: {notice}");
            tracing::info!("{notice}");
        }
    }
    tracing::info!(
        kg = %kgscope::credentials::redact(&a.kg),
        model = %a.model,
        run = ?a.run,
        "kgscope tui started"
    );
    kgscope::tui::event_loop::run_with(
        kgscope::tui::Options {
            kg: a.kg,
            model: Some(a.model),
            timeouts: a.openai.timeouts(Default::default()),
            base_url: a.openai.base_url,
            api_key_env: a.openai.api_key_env,
            run: a.run,
            runs_dir: a.runs_dir,
            theme: a.theme,
            log,
            kg_sample,
            judge,
            writer,
            state: Some(kgscope::tui::state::default_path()),
        },
        setup,
    )?;
    Ok(ExitCode::SUCCESS)
}

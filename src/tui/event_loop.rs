//! The terminal: raw mode and the alternate screen, restored on exit, on panic (ratatui's
//! hook) and on Ctrl-C (read as a key in raw mode); keys in, a frame drawn every tick.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use ratatui::crossterm::event::{self, Event};

use super::app::{App, Command, RunData, Screen};
use super::kg_load::load_drawn;
use super::runner::{self, RunBase, RunnerMsg};
use super::theme::Theme;
use crate::run::{Control, ModelSpec, RunEvent};

/// How often the screen is redrawn; run events are folded in between, in batches.
pub const FRAME: Duration = Duration::from_millis(50);
/// At most this many run messages are applied per frame, so input stays responsive under a
/// flood of events.
const BATCH: usize = 20_000;

#[derive(Default)]
pub struct Options {
    pub kg: String,
    /// `None`: browse only (runs cannot be started).
    pub model: Option<String>,
    pub base_url: Option<String>,
    pub api_key_env: String,
    /// The idle and request timeouts of an OpenAI-compatible server.
    pub timeouts: crate::run::config::HttpTimeouts,
    pub run: Option<String>,
    pub runs_dir: PathBuf,
    pub theme: String,
    /// The log file, shown in the help overlay.
    pub log: Option<PathBuf>,
    /// Facts drawn per relation from a KG too big to read whole (`--kg-sample`).
    pub kg_sample: Option<usize>,
    /// The judge and question writer the run dialog offers besides none and the run's own
    /// model (`kgscope tui --judge/--writer`).
    pub judge: Option<ModelSpec>,
    pub writer: Option<ModelSpec>,
    /// Where the TUI remembers the run dialog's choices between sessions
    /// ([`super::state`]); `None`: nowhere.
    pub state: Option<PathBuf>,
}

/// Builds the app from the options: the KG, and the recorded run when `--run` names one.
pub fn build_app(o: &Options) -> anyhow::Result<App> {
    let theme = Theme::named(&o.theme).map_err(anyhow::Error::msg)?;
    let opened = match &o.run {
        Some(id) => Some(open_run(&o.runs_dir, id).with_context(|| format!("opening run {id}"))?),
        None => None,
    };
    let kg_spec = opened
        .as_ref()
        .map_or(o.kg.clone(), |d| d.manifest.config.kg.clone());
    // A SPARQL URL's credentials are never shown; `kg::open` gets them back when it connects.
    let kg_spec = crate::credentials::redact(&kg_spec);
    eprintln!("kgscope: loading {}", crate::sanitize::line(&kg_spec));
    // A recorded run is shown with the sample it drew, a new session with `--kg-sample`'s.
    let draw = match &opened {
        Some(d) => d.manifest.config.draw(),
        None => crate::kg::bounded::Draw::of(o.kg_sample, &[], crate::sampling::DEFAULT_SEED),
    };
    let (index, status) = match load_drawn(&kg_spec, draw.as_ref()) {
        Ok(i) => (Some(Arc::new(i)), String::new()),
        // A recorded run is still worth browsing without its KG (Inspect shows no facts).
        Err(e) if opened.is_some() => (None, format!("{e:#}")),
        Err(e) => return Err(e),
    };
    let mut app = App::new(theme, &kg_spec, index);
    app.kg_sample = o.kg_sample;
    app.draw = draw;
    app.status = status;
    app.can_run = o.model.is_some();
    // `run` has parsed it already and said what was wrong; here it only names the model.
    app.model = model_spec(o).ok().flatten();
    app.log = o.log.clone();
    app.runs_dir = o.runs_dir.clone();
    app.judge_given.clone_from(&o.judge);
    app.writer_given.clone_from(&o.writer);
    if let Some(path) = &o.state {
        app.load_state(path.clone());
    }
    if let Some(data) = opened {
        app.open_run(data);
        app.screen = Screen::Heatmaps;
    }
    Ok(app)
}

/// A recorded run, read without holding its records: see [`RunData`].
fn open_run(runs_dir: &std::path::Path, id: &str) -> anyhow::Result<RunData> {
    let run = crate::store::RunDir::open(runs_dir, id)?;
    let manifest = run.read_manifest()?;
    Ok(RunData::open(run, manifest)?)
}

/// The model runs started from the TUI use, if one is configured.
fn model_spec(o: &Options) -> Result<Option<ModelSpec>, String> {
    o.model
        .as_deref()
        .map(|m| {
            ModelSpec::parse(m, o.base_url.as_deref(), &o.api_key_env)
                .map(|spec| spec.with_timeouts(o.timeouts))
        })
        .transpose()
}

pub fn run(o: Options) -> anyhow::Result<()> {
    run_with(o, |_| {})
}

/// [`run`], with `setup` applied to the app before the first frame (`kgscope demo` starts
/// its autopilot there).
pub fn run_with(o: Options, setup: impl FnOnce(&mut App)) -> anyhow::Result<()> {
    let model = model_spec(&o).map_err(anyhow::Error::msg)?;
    let mut app = build_app(&o)?;
    setup(&mut app);
    let base = model.map(|model| RunBase {
        kg: app.kg_name.clone(),
        kg_sample: app.kg_sample,
        model,
        runs_dir: o.runs_dir.clone(),
    });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let mut terminal = match ratatui::try_init() {
        Ok(t) => t,
        Err(e) => {
            ratatui::restore();
            return Err(e).context("opening the terminal for the TUI");
        }
    };
    let _ = ratatui::crossterm::execute!(
        std::io::stdout(),
        ratatui::crossterm::event::EnableMouseCapture
    );
    // ratatui's hook leaves raw mode and the alternate screen on a panic; mouse reporting is
    // ours to turn off, or the shell would receive escape codes for every mouse move.
    let restore = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = ratatui::crossterm::execute!(
            std::io::stdout(),
            ratatui::crossterm::event::DisableMouseCapture
        );
        tracing::error!("panic: {info}");
        restore(info);
    }));
    let result = main_loop(&mut terminal, &mut app, &rt, base.as_ref(), signalled(&rt));
    let _ = ratatui::crossterm::execute!(
        std::io::stdout(),
        ratatui::crossterm::event::DisableMouseCapture
    );
    ratatui::restore();
    // Gives a cancelled run's recorder the time to sync what was answered.
    rt.shutdown_timeout(Duration::from_secs(3));
    result
}

/// Folds one runner message into the app; hands back the run's control once it is going.
/// What a user would want to read afterwards also goes to the log (the screen has no scroll
/// back): each step of starting a run, failed questions, and how the run ended.
pub fn apply(app: &mut App, msg: RunnerMsg) -> Option<Control> {
    match msg {
        RunnerMsg::Status(s) => {
            tracing::info!("{s}");
            app.live_status(&s);
        }
        RunnerMsg::Prepared {
            data,
            questions,
            control,
        } => {
            tracing::info!(run = %data.run.id, questions = questions.len(), "run started");
            app.run_prepared(*data, &questions);
            return Some(control);
        }
        RunnerMsg::Event(ev) => {
            match &ev {
                RunEvent::Failed { qid, error } => tracing::warn!(%qid, "question failed: {error}"),
                RunEvent::Finished { cancelled } => tracing::info!(cancelled, "run ended"),
                _ => {}
            }
            app.on_run_event(ev);
        }
        RunnerMsg::Failed(e) => {
            tracing::warn!("run stopped: {e}");
            app.run_failed(&e);
        }
    }
    None
}

/// A flag raised by SIGINT or SIGTERM from outside (in raw mode a typed Ctrl-C is a key, not
/// a signal), so the loop quits through the same path and the terminal is restored.
fn signalled(rt: &tokio::runtime::Runtime) -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let f = flag.clone();
    rt.spawn(async move {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            let Ok(mut term) = signal(SignalKind::terminate()) else {
                return;
            };
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
        f.store(true, Ordering::SeqCst);
    });
    flag
}

fn main_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    rt: &tokio::runtime::Runtime,
    base: Option<&RunBase>,
    signalled: Arc<AtomicBool>,
) -> anyhow::Result<()> {
    let (tx, rx) = mpsc::channel::<RunnerMsg>();
    let mut control: Option<Control> = None;
    // For the panic-recovery test: no input can make the TUI panic on purpose.
    let panic_on_purpose = std::env::var_os("KGSCOPE_TEST_PANIC").is_some();
    loop {
        let frame_start = Instant::now();
        for msg in rx.try_iter().take(BATCH) {
            if let Some(c) = apply(app, msg) {
                control = Some(c);
            }
        }
        app.tick();
        app.demo_tick(Instant::now());
        app.prepare_view();
        terminal.draw(|f| super::ui::draw(f, app))?;
        if panic_on_purpose {
            panic!("KGSCOPE_TEST_PANIC is set: panicking with the screen drawn");
        }
        let wait = FRAME.saturating_sub(frame_start.elapsed());
        if event::poll(wait)? {
            // Take every pending input before the next frame, so typing never lags.
            loop {
                match event::read()? {
                    Event::Key(k) => app.on_key(k),
                    Event::Mouse(m) => app.on_mouse(m),
                    Event::Resize(..) => {}
                    _ => {}
                }
                if !event::poll(Duration::ZERO)? {
                    break;
                }
            }
        }
        for cmd in app.commands.drain(..) {
            match cmd {
                // On the KG Explore shows: a run opened with `O` may have brought another.
                Command::StartRun(req) => match base {
                    Some(b) => {
                        let base = RunBase {
                            kg: app.kg_name.clone(),
                            kg_sample: app.kg_sample,
                            ..b.clone()
                        };
                        runner::start(rt.handle(), &base, &req, tx.clone())
                    }
                    None => app.status = "no model configured".into(),
                },
                Command::StartRunWith(req, model) => match base {
                    Some(b) => {
                        let base = RunBase {
                            model,
                            kg: app.kg_name.clone(),
                            kg_sample: app.kg_sample,
                            ..b.clone()
                        };
                        runner::start(rt.handle(), &base, &req, tx.clone())
                    }
                    None => app.status = "no model configured".into(),
                },
                Command::Continue(run) => match base {
                    Some(b) => {
                        runner::resume(rt.handle(), &b.runs_dir, &run.to_string_lossy(), tx.clone())
                    }
                    None => app.status = "no model configured".into(),
                },
                Command::Pause => control.iter().for_each(Control::pause),
                Command::Resume => control.iter().for_each(Control::resume),
                Command::Cancel => control.iter().for_each(Control::cancel),
            }
        }
        if app.quit || signalled.load(Ordering::SeqCst) {
            if let Some(c) = &control {
                c.cancel();
            }
            return Ok(());
        }
    }
}

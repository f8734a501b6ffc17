//! Runs started from the TUI: prepared on a blocking thread (KG, questions, model load), then
//! driven by the engine on tokio tasks. Everything reaches the UI as messages on a channel
//! that the event loop drains once per frame.

use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::sync::Arc;

use super::app::{RunData, RunRequest};
use crate::backends::{self, Backend, GenParams};
use crate::questions::Question;
use crate::run::session::{self, Prepared};
use crate::run::{config, Control, EngineOptions, ModelSpec, RunConfig, RunEvent};

pub enum RunnerMsg {
    /// A step of the preparation, for Live's status line.
    Status(String),
    /// The run exists on disk and the engine is going.
    Prepared {
        data: Box<RunData>,
        questions: Vec<Question>,
        control: Control,
    },
    Event(RunEvent),
    /// The run could not start, or its log could not be written.
    Failed(String),
}

/// What every run started from this TUI shares.
#[derive(Clone)]
pub struct RunBase {
    pub kg: String,
    pub model: ModelSpec,
    pub runs_dir: PathBuf,
}

/// The same defaults as `kgscope run`, so a TUI run and a headless one are comparable.
pub fn config_for(base: &RunBase, req: &RunRequest) -> RunConfig {
    let parallel = 8;
    RunConfig {
        relations: req.relations.clone(),
        entities: req.entities.clone(),
        parallel,
        concurrency: base.model.default_concurrency(parallel),
        params: GenParams {
            temperature: 0.0,
            top_p: 1.0,
            seed: 42,
            max_tokens: 24,
            stop: vec!["\n".into()],
        },
        context: req.context,
        kglens: crate::method::of(req.task)
            .takes_kglens_settings()
            .then(|| kglens_budget(req.limit)),
        repeats: crate::method::of(req.task).default_repeats(),
        ..RunConfig::new(&base.kg, base.model.clone(), req.task, req.limit)
    }
}

/// KGLens from the dialog's question budget: the paper's batch of 64 edges (fewer for a
/// smaller budget), as many iterations as the budget buys.
fn kglens_budget(limit: usize) -> crate::run::kglens::KglensConfig {
    let d = crate::run::kglens::KglensConfig::default();
    let batch = d.batch.min(limit.max(1));
    crate::run::kglens::KglensConfig {
        batch,
        iterations: limit.max(1).div_ceil(batch) as u32,
        ..d
    }
}

/// Checks the model file is there, fetching the default model when it is missing, as
/// `kgscope run` does; the download's progress goes to Live's status line.
fn ensure_model(spec: &ModelSpec, say: &dyn Fn(&str)) -> Result<(), String> {
    if let ModelSpec::Llama { path } = spec {
        if path.is_file() {
            return Ok(());
        }
        if *path == config::default_model_path() {
            say("the default model is not here yet; fetching it (about 240 MB)");
            crate::models::fetch_default(path, &|m| say(&format!("model: {m}")))
                .map_err(|e| format!("fetching the default model: {e}"))?;
            return Ok(());
        }
        return Err(format!("model file {} does not exist", path.display()));
    }
    Ok(())
}

fn prepare(
    cfg: RunConfig,
    runs_dir: &std::path::Path,
    say: &dyn Fn(&str),
) -> Result<(Prepared, Arc<dyn Backend>), String> {
    ensure_model(&cfg.model, say)?;
    let model_id = backends::model_identity(&cfg.model);
    let prepared =
        session::prepare_new(cfg.clone(), &model_id, runs_dir, say).map_err(|e| e.to_string())?;
    if prepared.questions.is_empty() && prepared.plan.is_none() {
        return Err("no questions could be made from the selection".into());
    }
    say(&format!("loading the model {}", cfg.model.describe()));
    let backend = backends::from_spec(&cfg.model, cfg.parallel, cfg.concurrency, cfg.gpu_layers)
        .map_err(|e| format!("starting the model {}: {e}", cfg.model.describe()))?;
    Ok((prepared, backend))
}

/// Starts a run in the background; its progress arrives on `tx`.
pub fn start(rt: &tokio::runtime::Handle, base: &RunBase, req: &RunRequest, tx: Sender<RunnerMsg>) {
    let cfg = config_for(base, req);
    let runs_dir = base.runs_dir.clone();
    launch(rt, tx, move |say| prepare(cfg, &runs_dir, say));
}

/// Continues an interrupted run (its id or directory) with the model of its manifest.
pub fn resume(
    rt: &tokio::runtime::Handle,
    runs_dir: &std::path::Path,
    run: &str,
    tx: Sender<RunnerMsg>,
) {
    let runs_dir = runs_dir.to_path_buf();
    let run = run.to_string();
    launch(rt, tx, move |say| {
        let prepared = session::prepare_resume(&runs_dir, &run, say).map_err(|e| e.to_string())?;
        let over = prepared.plan.as_ref().is_none_or(|p| p.is_over());
        if prepared.remaining().is_empty() && over {
            return Err(format!(
                "every question of run {} is already answered",
                prepared.run.id
            ));
        }
        let cfg = &prepared.manifest.config;
        ensure_model(&cfg.model, say)?;
        say(&format!("loading the model {}", cfg.model.describe()));
        let backend =
            backends::from_spec(&cfg.model, cfg.parallel, cfg.concurrency, cfg.gpu_layers)
                .map_err(|e| format!("starting the model {}: {e}", cfg.model.describe()))?;
        Ok((prepared, backend))
    });
}

type Preparation = Result<(Prepared, Arc<dyn Backend>), String>;

/// Prepares on a blocking thread (KG, questions, model load are all blocking), then drives
/// the engine, forwarding its events.
fn launch(
    rt: &tokio::runtime::Handle,
    tx: Sender<RunnerMsg>,
    prepare: impl FnOnce(&dyn Fn(&str)) -> Preparation + Send + 'static,
) {
    rt.spawn(async move {
        let status_tx = tx.clone();
        let prepared = tokio::task::spawn_blocking(move || {
            let say = |m: &str| {
                let _ = status_tx.send(RunnerMsg::Status(m.to_string()));
            };
            prepare(&say)
        })
        .await;
        let (prepared, backend) = match prepared {
            Ok(Ok(p)) => p,
            Ok(Err(e)) => {
                let _ = tx.send(RunnerMsg::Failed(e));
                return;
            }
            Err(e) => {
                let _ = tx.send(RunnerMsg::Failed(format!("preparing the run: {e}")));
                return;
            }
        };
        let cfg = &prepared.manifest.config;
        let opts = EngineOptions {
            repeats: cfg.repeats.max(1),
            concurrency: cfg.concurrency.max(1),
            params: cfg.params.clone(),
            judge: None,
            writer: None,
        };
        let data = match RunData::open(prepared.run.clone(), prepared.manifest.clone()) {
            Ok(d) => d,
            Err(e) => {
                let _ = tx.send(RunnerMsg::Failed(format!("reading results.jsonl: {e}")));
                return;
            }
        };
        if prepared.plan.is_some() {
            drive_adaptive(prepared, backend, opts, data, tx).await;
            return;
        }
        let (mut events, control, recorder) = session::start(&prepared, backend, opts);
        let _ = tx.send(RunnerMsg::Prepared {
            data: Box::new(data),
            questions: prepared.questions.clone(),
            control: control.clone(),
        });
        while let Some(ev) = events.recv().await {
            if tx.send(RunnerMsg::Event(ev)).is_err() {
                // The UI is gone: stop asking, but let the recorder save what was answered.
                control.cancel();
            }
        }
        match recorder.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                let _ = tx.send(RunnerMsg::Failed(format!("writing results.jsonl: {e}")));
            }
            Err(e) => {
                let _ = tx.send(RunnerMsg::Failed(format!(
                    "the run log writer stopped: {e}"
                )));
            }
        }
    });
}

/// A KGLens run from the TUI: iterations driven by [`crate::run::adaptive::drive`], whose
/// events (batches, answers, iteration reports) go to the UI like any run's.
async fn drive_adaptive(
    mut prepared: Prepared,
    backend: Arc<dyn Backend>,
    opts: EngineOptions,
    data: RunData,
    tx: Sender<RunnerMsg>,
) {
    let templates = match session::load_templates(&prepared.manifest.config.templates) {
        Ok(t) => t,
        Err(e) => {
            let _ = tx.send(RunnerMsg::Failed(e.to_string()));
            return;
        }
    };
    let control = Control::default();
    let _ = tx.send(RunnerMsg::Prepared {
        data: Box::new(data),
        questions: vec![],
        control: control.clone(),
    });
    let (events_tx, mut events) = tokio::sync::mpsc::channel(1024);
    let forward = async {
        while let Some(ev) = events.recv().await {
            if tx.send(RunnerMsg::Event(ev)).is_err() {
                control.cancel();
            }
        }
    };
    let driver = crate::run::adaptive::drive(
        &mut prepared,
        &templates,
        backend,
        opts,
        control.clone(),
        events_tx,
    );
    let (driven, ()) = tokio::join!(driver, forward);
    if let Some(e) = driven.err().or_else(|| control.stop_reason()) {
        let _ = tx.send(RunnerMsg::Failed(e));
    }
}

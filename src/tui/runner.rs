//! Runs started from the TUI: prepared on a blocking thread (KG, questions, model load), then
//! driven by the engine on tokio tasks. Everything reaches the UI as messages on a channel
//! that the event loop drains once per frame.

use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::sync::Arc;

use super::app::{RunData, RunRequest};
use crate::backends::{self, Backend};
use crate::questions::Question;
use crate::run::session::{self, Prepared};
use crate::run::{config, driver, Control, EngineOptions, ModelSpec, RunConfig, RunEvent};

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
    /// Facts drawn per relation (`--kg-sample`), `None`: the KG read whole.
    pub kg_sample: Option<usize>,
    pub model: ModelSpec,
    pub runs_dir: PathBuf,
}

/// The same defaults as `kgscope run` (they come from the same place), so a TUI run and a
/// headless one are comparable.
pub fn config_for(base: &RunBase, req: &RunRequest) -> RunConfig {
    let parallel = config::default_parallel();
    let mut cfg = RunConfig {
        relations: req.relations.clone(),
        entities: req.entities.clone(),
        parallel,
        concurrency: base.model.default_concurrency(parallel),
        context: req.context,
        repeats: crate::method::of(req.task).default_repeats(),
        kg_sample: base.kg_sample,
        judge: req.judge.clone(),
        ..RunConfig::new(&base.kg, base.model.clone(), req.task, req.limit).limit_as_budget()
    };
    // The writer is KG-FPQ's setting, as `--writer` is.
    if let Some(fpq) = &mut cfg.fpq {
        fpq.writer.clone_from(&req.writer);
    }
    cfg
}

/// A prepared run, its model and the engine's options, ready to drive.
struct Ready {
    prepared: Prepared,
    backend: Arc<dyn Backend>,
    opts: EngineOptions,
}

/// The model and the engine's options (judge, question writer) of a prepared run: as
/// `kgscope run` starts them.
fn start_models(prepared: Prepared, say: &dyn Fn(&str)) -> Result<Ready, String> {
    let cfg = &prepared.manifest.config;
    let (backend, opts) = driver::start(cfg, say)?;
    Ok(Ready {
        prepared,
        backend,
        opts,
    })
}

fn prepare(cfg: RunConfig, runs_dir: &std::path::Path, say: &dyn Fn(&str)) -> Preparation {
    driver::ensure_model(&cfg.model, say)?;
    let model_id = backends::model_identity(&cfg.model);
    let prepared =
        session::prepare_new(cfg, &model_id, runs_dir, say).map_err(|e| e.to_string())?;
    if prepared.questions.is_empty() && prepared.plan.is_none() {
        return Err("no questions could be made from the selection".into());
    }
    start_models(prepared, say)
}

/// Starts a run in the background; its progress arrives on `tx`.
pub fn start(rt: &tokio::runtime::Handle, base: &RunBase, req: &RunRequest, tx: Sender<RunnerMsg>) {
    let cfg = config_for(base, req);
    let runs_dir = base.runs_dir.clone();
    launch(rt, tx, move |say| prepare(cfg, &runs_dir, say));
}

/// Continues an interrupted run (its id or directory) with the model, judge and question
/// writer of its manifest, started as `kgscope run --resume` starts them ([`start_models`]).
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
        start_models(prepared, say)
    });
}

type Preparation = Result<Ready, String>;

/// Prepares on a blocking thread (KG, questions, model load are all blocking), then drives
/// the run as `kgscope run` does ([`driver::drive`]), forwarding its events.
fn launch(
    rt: &tokio::runtime::Handle,
    tx: Sender<RunnerMsg>,
    prepare: impl FnOnce(&dyn Fn(&str)) -> Preparation + Send + 'static,
) {
    rt.spawn(async move {
        let status_tx = tx.clone();
        let ready = tokio::task::spawn_blocking(move || {
            let say = |m: &str| {
                let _ = status_tx.send(RunnerMsg::Status(m.to_string()));
            };
            prepare(&say)
        })
        .await;
        let Ready {
            mut prepared,
            backend,
            opts,
        } = match ready {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => {
                let _ = tx.send(RunnerMsg::Failed(e));
                return;
            }
            Err(e) => {
                let _ = tx.send(RunnerMsg::Failed(format!("preparing the run: {e}")));
                return;
            }
        };
        let data = match RunData::open(prepared.run.clone(), prepared.manifest.clone()) {
            Ok(d) => d,
            Err(e) => {
                let _ = tx.send(RunnerMsg::Failed(format!("reading results.jsonl: {e}")));
                return;
            }
        };
        let control = Control::default();
        let _ = tx.send(RunnerMsg::Prepared {
            data: Box::new(data),
            questions: prepared.questions.clone(),
            control: control.clone(),
        });
        let (events_tx, mut events) = tokio::sync::mpsc::channel(1024);
        let forward = async {
            while let Some(ev) = events.recv().await {
                if tx.send(RunnerMsg::Event(ev)).is_err() {
                    // The UI is gone: stop asking, but let the recorder save what was answered.
                    control.cancel();
                }
            }
        };
        let driven = driver::drive(&mut prepared, backend, opts, control.clone(), events_tx);
        let (driven, ()) = tokio::join!(driven, forward);
        if let Some(e) = driven.err().or_else(|| control.stop_reason()) {
            let _ = tx.send(RunnerMsg::Failed(e));
        }
    });
}

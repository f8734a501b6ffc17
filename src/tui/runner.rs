//! Runs started from the TUI: prepared on a blocking thread (KG, questions, model load), then
//! driven by the engine on tokio tasks. Everything reaches the UI as messages on a channel
//! that the event loop drains once per frame.

use std::sync::mpsc::Sender;
use std::sync::Arc;

use super::app::RunData;
use super::request::RunRequest;
use crate::backends::{self, Backend};
use crate::questions::Question;
use crate::run::driver::{self, Driving};
use crate::run::session::{self, Prepared};
use crate::run::{Control, ModelSpec, RunConfig, RunEvent};

/// What [`start`] takes besides the request, and the config the two make: they live in the
/// request module (the app builds configs with them too), and are named here as well so that
/// a caller starting runs needs this module alone.
pub use super::request::{config_for, RunBase};

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

/// A prepared run, its model and the engine's options, ready to drive.
struct Ready {
    prepared: Prepared,
    backend: Arc<dyn Backend>,
    driving: Driving,
}

/// The model and what drives a prepared run (its method's checker, question writer): as
/// `kgscope run` starts them, except that a model this TUI has loaded already is reused
/// ([`loaded`]): the demo's rounds, or an analyst's second run, start at once instead of
/// loading the same weights again.
fn start_models(prepared: Prepared, say: &dyn Fn(&str)) -> Result<Ready, String> {
    let cfg = &prepared.manifest.config;
    let (backend, driving) = match loaded::get(cfg) {
        Some(backend) => {
            say(&format!(
                "the model {} is loaded already",
                cfg.model.describe()
            ));
            (backend, Driving::for_config(cfg, say)?)
        }
        None => {
            let (backend, driving) = driver::start(cfg, say)?;
            loaded::keep(cfg, &backend);
            (backend, driving)
        }
    };
    Ok(Ready {
        prepared,
        backend,
        driving,
    })
}

/// How many times this process has loaded `model` for a run started from the TUI (a model
/// kept loaded counts once however many runs use it).
pub fn times_loaded(model: &ModelSpec) -> usize {
    loaded::times(model)
}

/// Keeps `backend` as the loaded model of runs configured as `cfg` (a local model; see
/// [`loaded`]), as if a run had just loaded it: the next such run uses it.
pub fn keep_loaded(cfg: &RunConfig, backend: &Arc<dyn Backend>) {
    loaded::keep(cfg, backend);
}

/// The models runs of this process have loaded, kept for the next run of the same model with
/// the same settings. Process-wide, as the weights are: one TUI runs one event loop. Only
/// local models are kept: loading their weights is what takes seconds; a server's model is
/// loaded by the server, and its client belongs to the runtime that made it.
mod loaded {
    use std::sync::{Arc, Mutex};

    use crate::backends::Backend;
    use crate::run::{ModelSpec, RunConfig};

    /// The models kept: the demo's two (its model and the one it compares with); an older
    /// one is let go, its memory with it, when a third is loaded.
    const KEEP: usize = 2;

    /// What makes two runs' backends interchangeable.
    #[derive(PartialEq)]
    struct Key {
        model: ModelSpec,
        parallel: usize,
        concurrency: usize,
        gpu_layers: Option<u32>,
    }

    fn key(c: &RunConfig) -> Key {
        Key {
            model: c.model.clone(),
            parallel: c.parallel,
            concurrency: c.concurrency,
            gpu_layers: c.gpu_layers,
        }
    }

    struct Models {
        /// Most recently used last.
        kept: Vec<(Key, Arc<dyn Backend>)>,
        loads: Vec<(ModelSpec, usize)>,
    }

    static MODELS: Mutex<Models> = Mutex::new(Models {
        kept: Vec::new(),
        loads: Vec::new(),
    });

    fn models() -> std::sync::MutexGuard<'static, Models> {
        MODELS.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The backend kept for a run like `c`. A run judged from hidden states loads its model
    /// its own way (the trained judge's runner), so it is never served from here.
    pub fn get(c: &RunConfig) -> Option<Arc<dyn Backend>> {
        if !kept_kind(c) {
            return None;
        }
        let k = key(c);
        let mut m = models();
        let i = m.kept.iter().position(|(kk, _)| *kk == k)?;
        let entry = m.kept.remove(i);
        let backend = entry.1.clone();
        m.kept.push(entry);
        Some(backend)
    }

    /// Keeps the backend just loaded for `c`, and counts the load.
    pub fn keep(c: &RunConfig, backend: &Arc<dyn Backend>) {
        let mut m = models();
        match m.loads.iter_mut().find(|(s, _)| *s == c.model) {
            Some((_, n)) => *n += 1,
            None => m.loads.push((c.model.clone(), 1)),
        }
        if !kept_kind(c) {
            return;
        }
        m.kept.retain(|(k, _)| *k != key(c));
        m.kept.push((key(c), backend.clone()));
        if m.kept.len() > KEEP {
            m.kept.remove(0);
        }
    }

    fn kept_kind(c: &RunConfig) -> bool {
        c.via_judge.is_none() && matches!(c.model, ModelSpec::Llama { .. })
    }

    pub fn times(model: &ModelSpec) -> usize {
        models()
            .loads
            .iter()
            .find(|(s, _)| s == model)
            .map_or(0, |(_, n)| *n)
    }
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
            driving,
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
        let driven = driver::drive(&mut prepared, backend, driving, control.clone(), events_tx);
        let (driven, ()) = tokio::join!(driven, forward);
        if let Some(e) = driven.err().or_else(|| control.stop_reason()) {
            let _ = tx.send(RunnerMsg::Failed(e));
        }
    });
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::questions::Task;

    fn local(name: &str) -> RunConfig {
        let model = ModelSpec::Llama {
            path: PathBuf::from(format!("runner-test-{name}.gguf")),
        };
        RunConfig::new("sample:countries", model, Task::Statement, 10)
    }

    fn backend(name: &str) -> Arc<dyn Backend> {
        Arc::new(backends::NotGenerating {
            model_id: name.into(),
            why: "a test's stand-in".into(),
        })
    }

    #[test]
    fn a_loaded_local_model_is_kept_for_the_next_run_of_it_and_the_oldest_let_go() {
        let (a, b, c) = (local("a"), local("b"), local("c"));
        let kept = backend("a");
        loaded::keep(&a, &kept);
        let again = loaded::get(&a).expect("kept");
        assert!(
            Arc::ptr_eq(&kept, &again),
            "the same backend, not another load"
        );
        assert_eq!(times_loaded(&a.model), 1);
        // Other settings are another backend.
        let wider = RunConfig {
            parallel: a.parallel + 1,
            ..a.clone()
        };
        assert!(loaded::get(&wider).is_none());
        // Two models stay (the demo's pair); a third lets the least recently used go.
        loaded::keep(&b, &backend("b"));
        assert!(loaded::get(&a).is_some());
        loaded::keep(&c, &backend("c"));
        assert!(loaded::get(&a).is_some(), "a was used last");
        assert!(loaded::get(&b).is_none(), "b was let go");
        assert!(loaded::get(&c).is_some());
    }

    #[test]
    fn a_servers_model_is_not_kept() {
        let model = ModelSpec::parse("openai:kept-test", Some("http://127.0.0.1:9"), "X").unwrap();
        let cfg = RunConfig::new("sample:countries", model, Task::Statement, 10);
        loaded::keep(&cfg, &backend("server"));
        assert!(loaded::get(&cfg).is_none());
        assert_eq!(times_loaded(&cfg.model), 1, "counted all the same");
    }
}

//! One way to run a prepared run, for the command line and the TUI alike: the model checked
//! (the default one fetched when missing), the engine's options made from the run's
//! configuration (its method's checker and question writer started), and the run driven to its end,
//! question by question or, for a staged run, batch by batch through its plan.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::engine::{Control, EngineOptions};
use super::events::RunEvent;
use super::session::{self, Batch, Prepared};
use super::{adaptive, ModelSpec, RunConfig};
use crate::backends::{self, Backend};
use crate::method::check::CheckInput;
use crate::method::judge::Judge;
use crate::method::kgfpq::writer::Writer;

/// Checks that a model file is there, fetching it when it is a model kgscope fetches (the
/// default one, or one named by `--model NAME`) that is not here yet; `say` gets the
/// download's progress.
pub fn ensure_model(spec: &ModelSpec, say: &dyn Fn(&str)) -> Result<(), String> {
    let ModelSpec::Llama { path } = spec else {
        return Ok(());
    };
    if path.is_file() {
        return Ok(());
    }
    if let Some(known) = crate::backends::spec::known_model_at(path) {
        say(&format!(
            "the model {} is not here yet; fetching it (about {:.0} MB)",
            known.name,
            known.size as f64 / 1e6
        ));
        crate::models::fetch(
            known,
            path,
            &|m| say(&format!("model: {m}")),
            &Default::default(),
        )
        .map_err(|e| format!("fetching the model {}: {e}", known.name))?;
        return Ok(());
    }
    Err(format!("model file {} does not exist", path.display()))
}

/// What drives a prepared run besides its questions: the engine's options (with the method's
/// checker) and, for a staged KG-FPQ run, the question writer that rewords each batch before
/// it is asked.
#[derive(Clone)]
pub struct Driving {
    pub engine: EngineOptions,
    pub writer: Option<Arc<Writer>>,
}

/// Starts the model a run's configuration names (after [`ensure_model`]) and what drives the
/// run ([`Driving::for_config`]). A run judged by a trained judge loads the model once, for
/// hidden states: its backend then generates nothing (it says so if asked).
pub fn start(c: &RunConfig, say: &dyn Fn(&str)) -> Result<(Arc<dyn Backend>, Driving), String> {
    ensure_model(&c.model, say)?;
    say(&format!("loading the model {}", c.model.describe()));
    if let Some(judge) = &c.via_judge {
        let ModelSpec::Llama { path } = &c.model else {
            return Err(
                "--via-judge reads hidden states, which only a local GGUF model gives".into(),
            );
        };
        let runner = super::trained::TrainedRunner::start(judge, path, c.parallel, c.gpu_layers)?;
        let backend: Arc<dyn Backend> = Arc::new(backends::NotGenerating {
            model_id: backends::model_identity(&c.model),
            why: format!(
                "this run is judged by the trained judge {} from hidden states; it generates nothing",
                runner.judge().id
            ),
        });
        let mut driving = Driving::for_config(c, say)?;
        let engine = &mut driving.engine;
        engine.checker = Some(Arc::new(runner));
        // A forward pass is cheap: enough statements in flight to fill the model's batches.
        engine.concurrency = engine.concurrency.max(c.parallel * 4);
        engine.repeats = 1;
        return Ok((backend, driving));
    }
    let backend = backends::from_spec(&c.model, c.parallel, c.concurrency, c.gpu_layers)
        .map_err(|e| format!("starting the model {}: {e:#}", c.model.describe()))?;
    Ok((backend, Driving::for_config(c, say)?))
}

/// Starts a helper model of a run (its judge, question writer, expert): fetched when kgscope
/// fetches it, said (so a resumed run shows it goes on with the helpers it started with), and
/// given one sequence (a helper answers a few words at a time).
fn start_helper(
    c: &RunConfig,
    spec: &ModelSpec,
    role: &str,
    concurrency: usize,
    say: &dyn Fn(&str),
) -> Result<Arc<dyn Backend>, String> {
    ensure_model(spec, say)?;
    say(&format!("starting {role} {}", spec.describe()));
    backends::from_spec(spec, 1, concurrency, c.gpu_layers)
        .map_err(|e| format!("starting {role} {}: {e:#}", spec.describe()))
}

impl Driving {
    /// The engine's options for a run (its repeats, concurrency and generation, and the
    /// checker its method builds from the run's judge and settings) and its question writer.
    /// Blocking (it may load models).
    pub fn for_config(c: &RunConfig, say: &dyn Fn(&str)) -> Result<Driving, String> {
        let method = crate::method::of(c.task);
        let judge = match &c.judge {
            Some(spec) => {
                let backend = start_helper(c, spec, "the judge", c.concurrency.max(1), say)?;
                Some(Arc::new(Judge::new(backend, c.judge_all)))
            }
            None => None,
        };
        let writer = match c.fpq.as_ref().and_then(|f| f.writer.as_ref()) {
            Some(spec) => {
                let backend = start_helper(c, spec, "the question writer", 1, say)?;
                Some(Arc::new(Writer::new(backend)))
            }
            None => None,
        };
        let start =
            |spec: &ModelSpec, role: &str| start_helper(c, spec, role, c.concurrency.max(1), say);
        let checker = method.checker(&CheckInput {
            judge,
            settings: c.own_settings(),
            start: &start,
            say,
        })?;
        Ok(Driving {
            engine: EngineOptions {
                // A method whose repeats are separate assessments asks each question once.
                repeats: if method.repeats_are_assessments() {
                    1
                } else {
                    c.repeats.max(1)
                },
                concurrency: c.concurrency.max(1),
                params: c.params.clone(),
                checker,
                scoring: c.scoring,
            },
            writer,
        })
    }
}

/// Asks a prepared run's remaining questions under `control` (a staged run: batch by batch
/// through its plan). Every event goes to `out` once the answer it carries is in
/// `results.jsonl`; one `Started` first, one `Finished` last. If `out` is closed (its reader
/// went away) the run is cancelled and what was answered is still recorded. `Err` says why
/// answers could no longer be recorded (a full disk, a file that cannot be written).
pub async fn drive(
    prepared: &mut Prepared,
    backend: Arc<dyn Backend>,
    driving: Driving,
    control: Control,
    out: mpsc::Sender<RunEvent>,
) -> Result<(), String> {
    if prepared.plan.is_some() {
        let templates = session::load_templates(&prepared.manifest.config.templates)
            .map_err(|e| e.to_string())?;
        let writer = driving.writer.as_deref();
        return adaptive::drive(
            prepared,
            &templates,
            backend,
            driving.engine,
            writer,
            control,
            out,
        )
        .await;
    }
    let mut questions = prepared.remaining();
    if let Some(spec) = prepared.manifest.config.reviewer.clone() {
        questions = review(prepared, spec, questions, &out).await?;
    }
    let total =
        crate::core::not_asked::to_ask(prepared.questions.len(), &prepared.manifest.not_asked);
    let (mut events, recorder) = session::spawn(
        Batch {
            run: prepared.run.clone(),
            lock: prepared.lock.clone(),
            finish: Some(prepared.manifest.clone()),
            questions,
            total,
            already_done: prepared.done.len(),
        },
        backend,
        driving.engine,
        control.clone(),
    );
    while let Some(ev) = events.recv().await {
        if out.send(ev).await.is_err() {
            control.cancel();
        }
    }
    match recorder.await {
        Ok(r) => r.map_err(|e| format!("writing results.jsonl: {e}")),
        Err(e) => Err(format!("the run log writer stopped: {e}")),
    }
}

/// Has the run's reviewer read the questions still to ask (a resumed run's too: the review is
/// greedy, so it rejects the same ones again), records each review on its question, keeps the
/// rejected ones in `rejected.jsonl` with their reasons, and says in the manifest's "not
/// asked" how many it rejected. Returns the questions to ask.
async fn review(
    prepared: &mut Prepared,
    spec: ModelSpec,
    mut questions: Vec<crate::questions::Question>,
    out: &mpsc::Sender<RunEvent>,
) -> Result<Vec<crate::questions::Question>, String> {
    use super::review::{self, Reviewer, Tally};
    let c = &prepared.manifest.config;
    // A reviewer answers a line per question: as many sequences as the run's model has.
    let (parallel, concurrency, gpu_layers) =
        (c.parallel.max(1), c.concurrency.max(1), c.gpu_layers);
    let started = spec.clone();
    // Loading a model blocks: off the runtime's threads, whichever runtime drives the run.
    let backend = tokio::task::spawn_blocking(move || {
        ensure_model(&started, &|_| {})?;
        backends::from_spec(&started, parallel, concurrency, gpu_layers)
            .map_err(|e| format!("starting the reviewer {}: {e:#}", started.describe()))
    })
    .await
    .map_err(|e| format!("starting the reviewer: {e}"))??;
    let reviewer = Reviewer::new(backend, concurrency);
    reviewer
        .review_questions(&mut questions, &|_| {})
        .await
        .map_err(|e| format!("the reviewer {} cannot answer: {e}", spec.describe()))?;
    let tally = Tally::of(questions.iter().filter_map(|q| q.review.as_ref()));
    let (kept, rejected) = review::split(questions);
    let mut body = Vec::new();
    for q in &rejected {
        crate::sanitize::write_json(&mut body, q).map_err(|e| e.to_string())?;
        body.push(b'\n');
    }
    std::fs::write(prepared.run.path.join(REJECTED_FILE), body)
        .map_err(|e| format!("writing {REJECTED_FILE}: {e}"))?;
    let not_asked = &mut prepared.manifest.not_asked;
    not_asked.retain(|n| !review::is_review_entry(n));
    not_asked.push(tally.not_asked(reviewer.model()));
    prepared
        .run
        .write_manifest(&prepared.manifest)
        .map_err(|e| e.to_string())?;
    let _ = out
        .send(RunEvent::NotAsked(prepared.manifest.not_asked.clone()))
        .await;
    Ok(kept)
}

/// The questions a run's reviewer rejected, with its reasons, one JSON line each, in the run
/// directory.
pub const REJECTED_FILE: &str = "rejected.jsonl";

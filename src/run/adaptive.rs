//! Drives a run whose questions depend on earlier answers: KGLens' iterations (the next batch
//! is drawn from the posterior) and KG-FPQ's gate (false-premise questions only after the true
//! premise was answered). A [`Plan`] hands out batches and folds their answers in; the driver
//! asks each batch through the engine, answers recorded as in any run.
//!
//! Resume: a plan's batches are a function of the KG, the configuration, the state it saved
//! after its last finished batch and the answers on record, so a resumed run makes the
//! interrupted batch again and asks only what `results.jsonl` lacks.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::mpsc;

use super::engine::{Control, EngineOptions};
use super::events::RunEvent;
use super::session::{self, Batch, Prepared};
use crate::backends::Backend;
use crate::kg::KgIndex;
use crate::method::kgfpq::writer::Writer;
pub use crate::method::plan::Plan;
use crate::questions::{Question, TemplateSet};
use crate::record::ResultRecord;

/// Asks batch after batch until the plan is over or `control` stops it. Events go to `out` as
/// the engine sends them (one `Started` for the whole run, one `Finished` at its end), with a
/// `Batch` before each batch and the plan's own event after it. A `writer` (KG-FPQ's) rewords
/// each batch's questions before they are asked.
pub async fn drive(
    prepared: &mut Prepared,
    templates: &TemplateSet,
    backend: Arc<dyn Backend>,
    opts: EngineOptions,
    writer: Option<&Writer>,
    control: Control,
    out: mpsc::Sender<RunEvent>,
) -> Result<(), String> {
    let Some(mut plan) = prepared.plan.take() else {
        return Err("not a staged run".into());
    };
    let mut done: HashMap<String, ResultRecord> = prepared
        .done
        .iter()
        .map(|r| (r.question.id.clone(), r.clone()))
        .collect();
    let total = plan.most_questions();
    // Answers let go of after their batch, when the plan never needs them again.
    let mut forgotten = 0;
    let _ = out
        .send(RunEvent::Started {
            total,
            already_done: done.len(),
        })
        .await;
    let result = loop {
        if control.is_cancelled() {
            break Ok(());
        }
        let Some((iteration, mut batch)) = plan.next_batch(&prepared.index, templates, &done)
        else {
            break Ok(());
        };
        let not_asked = plan.not_asked();
        if not_asked != prepared.manifest.not_asked {
            prepared.manifest.not_asked.clone_from(&not_asked);
            let _ = out.send(RunEvent::NotAsked(not_asked)).await;
        }
        if let Some(w) = writer {
            if let Err(e) = write(w, &mut batch, &done, &prepared.index).await {
                control.stop(format!("the question writer: {e}"));
                break Ok(());
            }
        }
        let _ = out
            .send(RunEvent::Batch {
                iteration,
                questions: batch.clone(),
            })
            .await;
        let remaining: Vec<_> = batch
            .iter()
            .filter(|q| !done.contains_key(&q.id))
            .cloned()
            .collect();
        if !remaining.is_empty() {
            let (mut events, recorder) = session::spawn(
                Batch {
                    run: prepared.run.clone(),
                    lock: prepared.lock.clone(),
                    finish: None,
                    questions: remaining,
                    total,
                    already_done: done.len() + forgotten,
                },
                backend.clone(),
                opts.clone(),
                control.clone(),
            );
            while let Some(ev) = events.recv().await {
                match ev {
                    // One Started and one Finished for the whole run, not per batch.
                    RunEvent::Started { .. } | RunEvent::Finished { .. } => {}
                    RunEvent::Answered(r) => {
                        done.insert(r.question.id.clone(), (*r).clone());
                        let _ = out.send(RunEvent::Answered(r)).await;
                    }
                    ev => {
                        let _ = out.send(ev).await;
                    }
                }
            }
            match recorder.await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => break Err(format!("writing results.jsonl: {e}")),
                Err(e) => break Err(format!("the run log writer stopped: {e}")),
            }
        }
        let records: Vec<&ResultRecord> = batch.iter().filter_map(|q| done.get(&q.id)).collect();
        if records.len() < batch.len() && !control.is_cancelled() && plan.skip_incomplete_batch() {
            continue;
        }
        if records.len() < batch.len() {
            // Cancelled, or some questions failed: the plan is left as it was, so a resumed
            // run makes this batch again and asks only what is missing.
            if !control.is_cancelled() {
                control.stop(format!(
                    "{} of batch {iteration}'s {} questions could not be answered",
                    batch.len() - records.len(),
                    batch.len()
                ));
            }
            break Ok(());
        }
        match plan.finish_batch(&prepared.index, &records, &prepared.run) {
            Ok(Some(event)) => {
                let _ = out.send(RunEvent::BatchDone(Box::new(event))).await;
            }
            Ok(None) => {}
            Err(e) => break Err(e),
        }
        if plan.forgets_answers() {
            for q in &batch {
                forgotten += usize::from(done.remove(&q.id).is_some());
            }
        }
    };
    if result.is_ok() && plan.is_over() {
        // `prepared.manifest.not_asked` is the plan's last word: recorded with the end, so
        // `kgscope report` says it too.
        session::mark_finished(&prepared.run, &prepared.manifest).map_err(|e| e.to_string())?;
    }
    let _ = out
        .send(RunEvent::Finished {
            cancelled: control.is_cancelled(),
        })
        .await;
    prepared.plan = Some(plan);
    result
}

/// Has the writer reword the batch's questions that are still to be asked.
async fn write(
    w: &Writer,
    batch: &mut [Question],
    done: &HashMap<String, ResultRecord>,
    index: &KgIndex,
) -> Result<(), crate::backends::BackendError> {
    for q in batch.iter_mut().filter(|q| !done.contains_key(&q.id)) {
        let truth = q
            .true_object
            .as_deref()
            .and_then(|o| index.iri_id(o))
            .map(|id| index.label(id))
            .unwrap_or_default();
        w.rewrite(q, &truth).await?;
    }
    Ok(())
}

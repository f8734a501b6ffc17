//! Drives an adaptive (KGLens) run: each iteration's batch through the engine, answers
//! recorded as in any run, then the posterior updated and saved before the next draw.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::mpsc;

use super::engine::{Control, EngineOptions};
use super::events::RunEvent;
use super::kglens::STATE_FILE;
use super::record::ResultRecord;
use super::session::{self, Batch, Prepared};
use crate::backends::Backend;
use crate::questions::TemplateSet;

/// Asks iteration after iteration until the run is over or `control` stops it. Events go to
/// `out` as the engine sends them (one `Started` for the whole run, one `Finished` at its
/// end), with a `Batch` before each iteration and an `Iteration` report after it.
pub async fn drive(
    prepared: &mut Prepared,
    templates: &TemplateSet,
    backend: Arc<dyn Backend>,
    opts: EngineOptions,
    control: Control,
    out: mpsc::Sender<RunEvent>,
) -> Result<(), String> {
    let Some(mut run) = prepared.kglens.take() else {
        return Err("not an adaptive run".into());
    };
    let mut done: HashMap<String, ResultRecord> = prepared
        .done
        .iter()
        .map(|r| (r.question.id.clone(), r.clone()))
        .collect();
    let total = run.most_questions();
    let _ = out
        .send(RunEvent::Started {
            total,
            already_done: done.len(),
        })
        .await;
    let result = loop {
        if run.is_over() || control.is_cancelled() {
            break Ok(());
        }
        let iteration = run.next_iteration();
        let batch = run.batch(&prepared.index, templates);
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
                    already_done: done.len(),
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
        if records.len() < batch.len() {
            // Cancelled, or some questions failed: the posterior is left as it was, so a
            // resumed run draws this iteration again and asks only what is missing.
            if !control.is_cancelled() {
                control.stop(format!(
                    "{} of iteration {iteration}'s {} questions could not be answered",
                    batch.len() - records.len(),
                    batch.len()
                ));
            }
            break Ok(());
        }
        let stats = run.finish_iteration(&records);
        let report = run.report(&prepared.index, stats);
        if let Err(e) = prepared.run.write_json(STATE_FILE, &run.state) {
            break Err(e.to_string());
        }
        let _ = out.send(RunEvent::Iteration(Box::new(report))).await;
    };
    if result.is_ok() && run.is_over() {
        session::mark_finished(&prepared.run, &prepared.manifest).map_err(|e| e.to_string())?;
    }
    let _ = out
        .send(RunEvent::Finished {
            cancelled: control.is_cancelled(),
        })
        .await;
    prepared.kglens = Some(run);
    result
}

//! The pipeline: questions → backend (streamed) → verification chain → events.
//!
//! Questions run `concurrency` at a time; each is asked `repeats` times. Each answer is read by
//! its method's rules, then by the checker the method built for the run (the LLM judge when
//! the rules are not confident, or a method's own chain); the verdicts are then
//! majority-voted. Pausing stops new questions from starting; cancelling also drops the
//! in-flight streams (those questions stay unanswered and a resumed run asks them again).

use std::sync::Arc;

use futures::StreamExt;
use tokio::sync::{mpsc, watch};
use tokio_util::sync::CancellationToken;

use super::events::RunEvent;
use super::record::{Attempt, LikelihoodCall, ResultRecord};
use crate::backends::{Backend, BackendError, Chunk, GenParams, Request, ScoreRequest};
use crate::method::{self, check::Checked, check::Checker};
use crate::questions::Question;
use crate::verify::{self, Stage, Verdict};

#[derive(Clone)]
pub struct EngineOptions {
    pub repeats: usize,
    pub concurrency: usize,
    pub params: GenParams,
    /// The stages after the rules, as the run's method built them (its LLM judge, its own
    /// chain), or a checker that decides questions without the model (GraphEval's trained
    /// judge, `--via-judge`); `None`: the rules decide.
    pub checker: Option<Arc<dyn Checker>>,
    /// Closed answers generated, or chosen by likelihood.
    pub scoring: super::config::AnswerScoring,
}

/// Pause / resume / cancel for a running evaluation.
#[derive(Clone)]
pub struct Control {
    paused: watch::Sender<bool>,
    cancel: CancellationToken,
    /// Why the engine stopped the run by itself (the backend became unusable), if it did.
    stop_reason: Arc<std::sync::Mutex<Option<String>>>,
}

impl Default for Control {
    fn default() -> Self {
        Self {
            paused: watch::channel(false).0,
            cancel: CancellationToken::new(),
            stop_reason: Arc::default(),
        }
    }
}

impl Control {
    pub fn pause(&self) {
        self.paused.send_replace(true);
    }
    pub fn resume(&self) {
        self.paused.send_replace(false);
    }
    pub fn cancel(&self) {
        self.cancel.cancel();
    }
    pub fn is_paused(&self) -> bool {
        *self.paused.borrow()
    }
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }
    /// Cancels the run and records why; the first reason wins.
    pub fn stop(&self, reason: String) {
        self.stop_reason
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert(reason);
        self.cancel();
    }
    /// Set when the engine stopped the run because no question could be answered any more.
    pub fn stop_reason(&self) -> Option<String> {
        self.stop_reason
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// Asks every question and reports through `events`; returns when all are answered or the
/// run is cancelled. A `Finished` event is always the last one sent.
pub async fn run(
    backend: Arc<dyn Backend>,
    questions: Vec<Question>,
    opts: EngineOptions,
    events: mpsc::Sender<RunEvent>,
    control: Control,
) {
    let concurrency = opts.concurrency.max(1);
    let opts = Arc::new(opts);
    let mut answers = futures::stream::iter(questions.into_iter().map(|q| {
        let (backend, opts, events, control) = (
            backend.clone(),
            opts.clone(),
            events.clone(),
            control.clone(),
        );
        async move { ask_question(backend.as_ref(), q, &opts, &events, &control).await }
    }))
    .buffer_unordered(concurrency);
    loop {
        tokio::select! {
            _ = control.cancel.cancelled() => break,
            next = answers.next() => if next.is_none() { break },
        }
    }
    let _ = events
        .send(RunEvent::Finished {
            cancelled: control.is_cancelled(),
        })
        .await;
}

async fn wait_while_paused(control: &Control) {
    let mut rx = control.paused.subscribe();
    while *rx.borrow_and_update() {
        tokio::select! {
            _ = control.cancel.cancelled() => return,
            r = rx.changed() => if r.is_err() { return },
        }
    }
}

/// Reports that attempt `repeat` of question `qid` is under way.
async fn asked(events: &mpsc::Sender<RunEvent>, qid: &str, repeat: usize) {
    let _ = events
        .send(RunEvent::Asked {
            qid: qid.to_string(),
            repeat,
        })
        .await;
}

/// Reports that question `qid` failed; with `stop`, the run stops too (what failed would
/// fail every other question the same way: a rejected key or model, a judge that cannot
/// answer), staying resumable.
async fn fail(
    events: &mpsc::Sender<RunEvent>,
    control: &Control,
    qid: &str,
    error: String,
    stop: bool,
) {
    if stop {
        control.stop(error.clone());
    }
    let _ = events
        .send(RunEvent::Failed {
            qid: qid.to_string(),
            error,
        })
        .await;
}

async fn ask_question(
    backend: &dyn Backend,
    q: Question,
    opts: &EngineOptions,
    events: &mpsc::Sender<RunEvent>,
    control: &Control,
) {
    wait_while_paused(control).await;
    if control.is_cancelled() {
        return;
    }
    let decided = match &opts.checker {
        Some(checker) => decide(checker.as_ref(), &q, events).await,
        None => None,
    };
    if let Some(decided) = decided {
        match decided {
            Ok(attempt) => {
                let record = verify_record(q, vec![attempt]);
                let _ = events.send(RunEvent::Answered(Box::new(record))).await;
            }
            // A checker that fails once fails every question the same way.
            Err(e) => fail(events, control, &q.id, e, true).await,
        }
        return;
    }
    let method = method::of(q.task);
    let prompt = method.prompt(&q);
    if !opts.scoring.is_generate() {
        if let Some(options) = method.closed_answers(&q) {
            return choose_by_likelihood(backend, q, prompt, options, opts, events, control).await;
        }
    }
    let mut attempts = Vec::with_capacity(opts.repeats);
    for repeat in 0..opts.repeats.max(1) {
        asked(events, &q.id, repeat).await;
        let mut params = opts.params.clone();
        params.max_tokens = params.max_tokens.max(method.answer_tokens(&q));
        params.seed = crate::sampling::attempt_seed(params.seed, &q.id, repeat);
        let mut stream = backend.ask(Request {
            id: q.id.clone(),
            prompt: prompt.clone(),
            params,
        });
        let mut completion = None;
        while let Some(chunk) = stream.next().await {
            match chunk {
                Ok(Chunk::Token(text)) => {
                    let _ = events
                        .send(RunEvent::Token {
                            qid: q.id.clone(),
                            text,
                        })
                        .await;
                }
                Ok(Chunk::Retrying { attempt, reason }) => {
                    let _ = events
                        .send(RunEvent::Retry {
                            qid: q.id.clone(),
                            attempt,
                            reason,
                        })
                        .await;
                }
                Ok(Chunk::Done(c)) => completion = Some(c),
                // Only a hidden-state or likelihood request gets these; a generation never does.
                Ok(Chunk::Hidden(_) | Chunk::Scored(_) | Chunk::TopLogprobs(_)) => {}
                Err(e) => {
                    let stop = matches!(e, BackendError::Unusable(_));
                    fail(events, control, &q.id, e.to_string(), stop).await;
                    return;
                }
            }
        }
        let Some(c) = completion else {
            let error = "the model's stream ended without a completion".to_string();
            fail(events, control, &q.id, error, false).await;
            return;
        };
        let rules = method.read(&q, &c.text);
        let checked = match &opts.checker {
            Some(checker) => match checker.check(&q, &c.text, rules).await {
                Ok(checked) => checked,
                Err(error) => {
                    // A stage that can never answer: stop, as for the model itself.
                    fail(events, control, &q.id, error, true).await;
                    return;
                }
            },
            None => Checked::by_rules(rules),
        };
        let Checked {
            reading,
            stage,
            judge,
            compound,
        } = checked;
        attempts.push(Attempt {
            response: c.text,
            verdict: reading.verdict,
            answer: Some(reading.answer),
            rule: reading.rule,
            stage,
            judge,
            compound,
            trained: None,
            likelihood: None,
            prompt_tokens: c.prompt_tokens,
            completion_tokens: c.completion_tokens,
            first_token_ms: c.first_token_ms,
            total_ms: c.total_ms,
            finish_reason: c.finish_reason,
        });
    }
    let record = verify_record(q, attempts);
    let _ = events.send(RunEvent::Answered(Box::new(record))).await;
}

/// The attempt a checker decides without asking the model (GraphEval's trained judge), if it
/// decides this question that way.
async fn decide(
    checker: &dyn Checker,
    q: &Question,
    events: &mpsc::Sender<RunEvent>,
) -> Option<Result<Attempt, String>> {
    let decision = checker.decide(q)?;
    asked(events, &q.id, 0).await;
    Some(decision.await)
}

/// A closed answer chosen by likelihood: one forward pass over the prompt, the most likely
/// option read by the method's rules as if the model had written it. It is deterministic, so
/// the question is asked once whatever the repeats.
async fn choose_by_likelihood(
    backend: &dyn Backend,
    q: Question,
    prompt: crate::backends::Prompt,
    options: Vec<String>,
    opts: &EngineOptions,
    events: &mpsc::Sender<RunEvent>,
    control: &Control,
) {
    asked(events, &q.id, 0).await;
    let req = ScoreRequest {
        id: q.id.clone(),
        prompt,
        options: options.clone(),
    };
    let scored = match backend.score(req).await {
        Ok(s) => s,
        Err(e) => {
            let stop = matches!(e, BackendError::Unusable(_));
            fail(events, control, &q.id, e.to_string(), stop).await;
            return;
        }
    };
    let per_token = opts.scoring == super::config::AnswerScoring::LogprobNorm;
    let call = LikelihoodCall::new(options, &scored.logprobs, &scored.tokens, per_token);
    let (answer, p) = call.answer();
    let response = answer.to_string();
    let reading = method::of(q.task).read(&q, &response);
    let attempt = Attempt {
        verdict: reading.verdict,
        answer: Some(reading.answer),
        rule: format!(
            "most likely option {response:?} (p = {p:.2} among {}); {}",
            call.options.len(),
            reading.rule
        ),
        response,
        stage: Stage::Rules,
        judge: None,
        compound: None,
        trained: None,
        likelihood: Some(call),
        prompt_tokens: scored.prompt_tokens,
        completion_tokens: 0,
        first_token_ms: scored.total_ms,
        total_ms: scored.total_ms,
        finish_reason: "scored".into(),
    };
    let record = verify_record(q, vec![attempt]);
    let _ = events.send(RunEvent::Answered(Box::new(record))).await;
}

/// Votes over the attempts and judges the vote against the gold answer, writing down why.
pub fn verify_record(q: Question, attempts: Vec<Attempt>) -> ResultRecord {
    let verdicts: Vec<Verdict> = attempts.iter().map(|a| a.verdict).collect();
    let verdict = verify::vote(&verdicts);
    let outcome = verify::judge(verdict, q.gold.truth());
    let mut trace = String::new();
    for (i, a) in attempts.iter().enumerate() {
        trace.push_str(&format!(
            "attempt {}: {:?} ({}) by the {}\n",
            i + 1,
            a.verdict,
            a.rule,
            a.stage.name()
        ));
    }
    for c in attempts.iter().filter_map(|a| a.compound.as_ref()) {
        for line in c.trace() {
            trace.push_str(&format!("  {line}\n"));
        }
    }
    if attempts.len() > 1 {
        trace.push_str(&format!("majority vote of {verdicts:?}: {verdict:?}\n"));
    }
    let gold = method::of(q.task).gold_text(&q);
    trace.push_str(&format!("gold {gold}: {verdict:?} → {outcome:?}"));
    ResultRecord {
        question: q,
        attempts,
        verdict,
        outcome,
        trace,
        finished_at: crate::store::rundir::now(),
    }
}

//! KG-FPQ's optional question writer (`--writer MODEL`, any backend): an LLM rephrases a
//! generative false-premise question as a natural question. Every written question is checked
//! before it is used: it names the subject and the false object, it is a question, and it does
//! not state the true object. A question that fails keeps its template wording; either way the
//! question records what was written and why it was taken or not.

use std::sync::Arc;

use crate::backends::{Backend, BackendError, GenParams, Request};
use crate::method::prompts;
use crate::questions::{FpqFormat, Question, Written};

pub struct Writer {
    backend: Arc<dyn Backend>,
    model: String,
}

fn has(text: &str, name: &str) -> bool {
    let (t, n) = (text.to_lowercase(), name.trim().to_lowercase());
    !n.is_empty() && t.contains(&n)
}

/// The checks a written question must pass, as the reason it fails.
pub fn check(text: &str, subject: &str, object: &str, true_object: &str) -> Result<(), String> {
    let t = text.trim();
    if !t.ends_with('?') {
        return Err("not a question".into());
    }
    if t.lines().count() > 1 {
        return Err("more than one line".into());
    }
    if !has(t, subject) {
        return Err(format!("does not name the subject {subject:?}"));
    }
    if !has(t, object) {
        return Err(format!("does not name the false object {object:?}"));
    }
    // A true object named inside the false one ("Paris" in "Paris, Texas") is not stated.
    if has(t, true_object) && !has(object, true_object) {
        return Err(format!("states the true object {true_object:?}"));
    }
    Ok(())
}

impl Writer {
    pub fn new(backend: Arc<dyn Backend>) -> Self {
        let model = backend.model_id();
        Self { backend, model }
    }

    /// Rewrites `q` when it is a generative false-premise question; other questions are left
    /// alone. A backend that can never answer is an error; any other failure is recorded.
    pub async fn rewrite(&self, q: &mut Question, true_object: &str) -> Result<(), BackendError> {
        let Some(p) = q.premise.as_mut() else {
            return Ok(());
        };
        if p.edit.is_none() || p.format != FpqFormat::Generative {
            return Ok(());
        }
        let input = format!(
            "Subject: {}\nRelation: {}\nObject: {}",
            q.subject_label, q.relation, q.object_label
        );
        let req = Request {
            id: format!("writer:{}", q.id),
            prompt: prompts::spec("fpq-writer").ask(input),
            params: GenParams {
                temperature: 0.0,
                top_p: 1.0,
                seed: 42,
                max_tokens: 48,
                stop: vec!["\n".into()],
            },
        };
        let (text, verdict) = match crate::backends::complete(self.backend.as_ref(), req).await? {
            Ok(text) => {
                let text = text.trim().to_string();
                let verdict = check(&text, &q.subject_label, &q.object_label, true_object);
                (text, verdict)
            }
            Err(f) => (String::new(), Err(format!("the writer failed: {f}"))),
        };
        let accepted = verdict.is_ok();
        p.written = Some(Written {
            model: self.model.clone(),
            template: q.prompt.clone(),
            accepted,
            reason: verdict.err().unwrap_or_else(|| "passed the checks".into()),
            text: text.clone(),
        });
        if accepted {
            q.prompt = text;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_question_names_both_ends_asks_and_keeps_the_truth_out() {
        let ok = check(
            "Why is Lyon the capital of France?",
            "France",
            "Lyon",
            "Paris",
        );
        assert_eq!(ok, Ok(()));
        assert!(check(
            "Why is Lyon the capital of France.",
            "France",
            "Lyon",
            "Paris"
        )
        .is_err());
        assert!(check(
            "Why is it the capital of France?",
            "France",
            "Lyon",
            "Paris"
        )
        .unwrap_err()
        .contains("false object"));
        assert!(check("Why is Lyon a capital?", "France", "Lyon", "Paris")
            .unwrap_err()
            .contains("subject"));
        assert!(check(
            "Why is Lyon, not Paris, the capital of France?",
            "France",
            "Lyon",
            "Paris"
        )
        .unwrap_err()
        .contains("true object"));
        // The true object inside the false one's name is not stating it.
        assert_eq!(
            check(
                "Why is Paris, Texas the capital of France?",
                "France",
                "Paris, Texas",
                "Paris"
            ),
            Ok(())
        );
    }
}

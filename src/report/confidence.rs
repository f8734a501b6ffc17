//! Each answer's confidence, read from its record while a run loads: the points that the
//! calibration section and the reliability diagram bin.

use serde::Serialize;

use crate::run::ResultRecord;

/// One answer with a confidence: the point the reliability diagram bins.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Confident {
    pub relation: String,
    /// The model's probability of its answer.
    pub p: f64,
    pub correct: bool,
}

/// The answer's confidence, for the reliability diagram: the probability the model gave the
/// chosen option when the answer was chosen by likelihood, else its self-consistency (the
/// share of the question's attempts that gave the majority's verdict). A question asked once
/// and answered by generation carries none.
pub fn confidence(r: &ResultRecord) -> Option<f64> {
    if let [a] = r.attempts.as_slice() {
        if let Some(l) = &a.likelihood {
            return Some(l.answer().1);
        }
    }
    (r.attempts.len() >= 2).then(|| {
        let agree = r.attempts.iter().filter(|a| a.verdict == r.verdict).count();
        agree as f64 / r.attempts.len() as f64
    })
}

/// The record's point, if it has a confidence.
pub fn point(r: &ResultRecord) -> Option<Confident> {
    Some(Confident {
        relation: r.question.relation.clone(),
        p: confidence(r)?,
        correct: r.outcome == crate::verify::OutcomeKind::Correct,
    })
}

//! The verification chain's last stage: hand labels override the rules and the judge in
//! reports.
//!
//! A question counts as labelled when its annotators have a majority judgement
//! ([`LabelBook::majority`]); a tie leaves the machine's decision. "Right", "wrong" and
//! "abstained" set the outcome. "Bad question" and "KG wrong" say the question does not measure
//! the model, so it is left out of the metrics (a GraphEval triple missing such a member is
//! then not scored, and the report says how many wait).

use crate::run::ResultRecord;
use crate::store::labels::{LabelBook, LabelVerdict};
use crate::verify::{self, OutcomeKind};

/// What the labels did to a run's records.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct LabelEffect {
    /// Records whose outcome a majority label decided.
    pub decided: usize,
    /// Of those, records whose outcome the label changed.
    pub changed: usize,
    /// Records left out as a bad question or a wrong KG fact.
    pub left_out: usize,
    /// Labelled records whose annotators are tied (the machine's decision stands).
    pub tied: usize,
}

/// One record as the report scores it: its annotators' majority label, if any, decides its
/// outcome; `None` when they call it a bad question or the KG wrong (it is left out).
pub fn apply_one(
    mut r: ResultRecord,
    book: &LabelBook,
    effect: &mut LabelEffect,
) -> Option<ResultRecord> {
    let majority = match book.majority(&r.question.id) {
        None => return Some(r),
        Some(Err(_)) => {
            effect.tied += 1;
            return Some(r);
        }
        Some(Ok(m)) => m,
    };
    let outcome = match majority.label.label {
        LabelVerdict::Right => OutcomeKind::Correct,
        LabelVerdict::Wrong => OutcomeKind::Incorrect,
        LabelVerdict::Abstained => OutcomeKind::Abstained,
        LabelVerdict::BadQuestion | LabelVerdict::KgWrong => {
            effect.left_out += 1;
            return None;
        }
    };
    effect.decided += 1;
    if r.outcome != outcome {
        effect.changed += 1;
    }
    r.outcome = outcome;
    r.verdict = verify::claim_for(outcome, r.question.gold.truth());
    r.trace.push_str(&format!(
        "\nhand label ({} of {} annotators): {} → {outcome:?}",
        majority.voters.len(),
        majority.of,
        majority.label.label.name()
    ));
    Some(r)
}

//! Verdict parsing, abstention detection and voting.
//!
//! A model's free-text answer becomes a [`Verdict`] (what it claimed) in three steps: strip what is
//! not the answer ([`clean`]), pick the sentence that carries the answer, then read it
//! ([`parse`]). Abstention is checked before yes/no everywhere ([`abstention`]), so an answer that
//! hedges about the question is never counted as a claim. Every word list (answer words, truth
//! words, abstentions, in the major languages) is data in [`words`]. A verdict is then judged against the KG's gold label
//! ([`judge`]); repeats of one question are combined by [`vote`].
//!
//! `Invalid` (nothing readable) stays distinct from `Idk` (the model declined): the first is a
//! parsing or instruction-following failure, the second is a behaviour the methods score.

pub mod abstention;
pub mod choice;
pub mod clean;
pub mod embed;
pub mod judge;
pub mod labelled;
pub mod numbers;
pub mod parse;
pub mod premise;
pub mod short_answer;
pub mod trained;
pub mod vote;
pub mod words;

#[cfg(test)]
mod parse_table;

pub use crate::core::answer::{Answer, Reading, Stage};
pub use crate::core::verdict::{OutcomeKind, Verdict};
pub use abstention::is_abstention;
pub use judge::{claim_for, judge};
pub use parse::{parse_statement_verdict, parse_yesno_verdict, Parsed};
pub use vote::vote;

/// A true/false reading of the rule parser as the rules stage's [`Reading`].
pub fn bool_reading(p: Parsed) -> Reading {
    Reading {
        answer: Answer::from_verdict(p.verdict),
        verdict: p.verdict,
        rule: p.rule,
        confident: p.confident,
    }
}

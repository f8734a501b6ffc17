//! What follows a method's rules in the verification chain, for one run: the method's
//! [`Checker`], built by [`super::Maker::checker`] from the run's judge and the method's own
//! settings. The engine asks the checker and never looks at the shape of a question's gold
//! answer: a method with a chain of its own (KGHaluBench: the entity-level and fact-level
//! checks) brings it here, and every other method gets [`JudgeStage`], the LLM judge asked
//! when the rules are unsure.

use std::any::Any;
use std::sync::Arc;

use futures::future::BoxFuture;

use super::judge::{self, Judge};
use crate::backends::spec::ModelSpec;
use crate::backends::Backend;
use crate::core::compound::CompoundCheck;
use crate::questions::Question;
use crate::record::{Attempt, JudgeCall};
use crate::verify::{Reading, Stage};

/// One answer after the checker: the reading that counts, the stage that decided it, and what
/// each stage recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    pub reading: Reading,
    pub stage: Stage,
    pub judge: Option<JudgeCall>,
    pub compound: Option<CompoundCheck>,
}

impl Checked {
    /// The rules' reading, left as it was.
    pub fn by_rules(reading: Reading) -> Self {
        Self {
            reading,
            stage: Stage::Rules,
            judge: None,
            compound: None,
        }
    }
}

/// A method's stages after the rules, for one run. `Err` says why a stage can never answer
/// (a judge whose key or model is rejected): the run then stops, as for the model itself.
pub trait Checker: Send + Sync {
    /// Checks one response after the rules read it as `rules`.
    fn check<'a>(
        &'a self,
        q: &'a Question,
        response: &'a str,
        rules: Reading,
    ) -> BoxFuture<'a, Result<Checked, String>>;

    /// An attempt decided without asking the model at all (GraphEval's trained judge reads
    /// the statement's hidden state instead): `None` asks the model as usual.
    fn decide<'a>(&'a self, _q: &'a Question) -> Option<BoxFuture<'a, Result<Attempt, String>>> {
        None
    }
}

/// What a method's checker is built from: the run's LLM judge (`--judge`), the method's own
/// settings (as in [`super::plan::PlanInput`]: only the method knows their type), and a way to
/// start any further model the method names (KGHaluBench's `--expert`), which fetches and
/// loads it as the run's own model would be.
pub struct CheckInput<'a> {
    pub judge: Option<Arc<Judge>>,
    pub settings: Option<&'a dyn Any>,
    /// Starts a model for a role named in messages ("the expert"); blocking.
    pub start: &'a dyn Fn(&ModelSpec, &str) -> Result<Arc<dyn Backend>, String>,
    pub say: &'a dyn Fn(&str),
}

impl CheckInput<'_> {
    /// The method's own settings, if the run has them and they are of type `T`.
    pub fn settings<T: 'static>(&self) -> Option<&T> {
        self.settings.and_then(|s| s.downcast_ref::<T>())
    }
}

/// The chain's common second stage: the LLM judge, asked when the rules are not confident
/// (or about every answer with `--judge-all`).
pub struct JudgeStage(pub Arc<Judge>);

impl Checker for JudgeStage {
    fn check<'a>(
        &'a self,
        q: &'a Question,
        response: &'a str,
        rules: Reading,
    ) -> BoxFuture<'a, Result<Checked, String>> {
        Box::pin(async move {
            if !self.0.wants(&rules) {
                return Ok(Checked::by_rules(rules));
            }
            let reason = if rules.confident {
                "every answer is judged (--judge-all)"
            } else {
                "the rules were not confident"
            };
            let call = self
                .0
                .call(q, response, reason)
                .await
                .map_err(|e| format!("the judge: {e}"))?;
            let stage = if call.outcome.is_some() {
                Stage::Judge
            } else {
                Stage::Rules
            };
            Ok(Checked {
                reading: judge::apply(q, rules, &call),
                stage,
                judge: Some(call),
                compound: None,
            })
        })
    }
}

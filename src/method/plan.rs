//! Runs whose questions depend on earlier answers: a [`Plan`] hands out batches and folds
//! their answers in (KGLens' iterations, KG-FPQ's gate). Each staged method keeps its plan in
//! its own folder and builds it in [`super::Method::plan`]; the run layer drives any plan the
//! same way (`run::adaptive`).

use std::collections::HashMap;

use crate::core::panel::Panel;
use crate::kg::KgIndex;
use crate::questions::{GenerateOptions, Question, TemplateSet};
use crate::record::ResultRecord;
use crate::store::RunDir;

/// What a plan has to tell the live views after a batch (a KGLens iteration): a line for a
/// headless run's log and a panel for Live.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanEvent {
    pub log: String,
    pub panel: Panel,
}

/// What a staged method builds its plan from: the KG, the generator options of the run, and
/// the run's settings of that method, of the method's own type (KGLens' iterations, KG-FPQ's
/// gate). Opaque here, so a new staged method adds its settings in its own folder only.
pub struct PlanInput<'a> {
    pub index: &'a KgIndex,
    pub options: &'a GenerateOptions,
    pub settings: Option<&'a dyn std::any::Any>,
}

impl PlanInput<'_> {
    /// The run's settings for the method, if it has them and they are of type `T`.
    pub fn settings<T: 'static>(&self) -> Option<&T> {
        let found = self.settings.and_then(|s| s.downcast_ref());
        debug_assert!(
            self.settings.is_none() || found.is_some(),
            "a staged method was handed another method's settings"
        );
        found
    }
}

/// A run made of batches, each decided after the one before.
pub trait Plan: Send {
    /// The most questions the run can ask (for progress).
    fn most_questions(&self) -> usize;
    /// Whether every batch is done.
    fn is_over(&self) -> bool;
    /// One line for the start of a run: what the plan will do.
    fn describe(&self) -> String;
    /// Takes up a run that is being resumed: the state it saved in `run` and the answers on
    /// record (`done`) are checked and folded in. A state that does not fit the run is refused
    /// with a message naming the file and what is wrong; nothing is written.
    fn restore(&mut self, run: &RunDir, done: &[ResultRecord]) -> Result<(), String>;
    /// The next batch (its number, for the UI, and its questions), given every answer on
    /// record; `None` when the run is over.
    fn next_batch(
        &mut self,
        index: &KgIndex,
        templates: &TemplateSet,
        done: &HashMap<String, ResultRecord>,
    ) -> Option<(u32, Vec<Question>)>;
    /// The last batch was answered in full: fold its answers in, save what a resume needs in
    /// `run`, and say what the live views should show.
    fn finish_batch(
        &mut self,
        index: &KgIndex,
        records: &[&ResultRecord],
        run: &RunDir,
    ) -> Result<Option<PlanEvent>, String>;
    /// The last batch was left with questions unanswered (failed, not cancelled): whether the
    /// plan goes on without them, to ask them again on resume. `false` (a plan that needs
    /// every answer of a batch before the next) stops the run there.
    fn skip_incomplete_batch(&mut self) -> bool {
        false
    }
    /// Questions of [`Plan::most_questions`] the plan has decided not to ask, with why (a
    /// gate's doing, not a failure): progress and the report say "N asked; M not asked
    /// because …" instead of N / total. Empty by default, and until the plan has decided.
    fn not_asked(&self) -> Vec<crate::core::not_asked::NotAsked> {
        Vec::new()
    }
    /// Whether the plan never looks at the answers of a finished batch again: the driver
    /// then lets them go, and memory stays bounded however long the run.
    fn forgets_answers(&self) -> bool {
        false
    }
}

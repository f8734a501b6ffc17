//! KG-FPQ (Zhu et al., 2024): false-premise questions made by six edits of a true fact, asked
//! only when the model answered the true-premise question Yes ([`plan`] drives the
//! gate). A question's kind is its premise's: the TPQ and discriminative FPQs are yes/no
//! questions (right: Yes for the TPQ, No for an FPQ), a generative FPQ's right answer rejects
//! or corrects its premise, which the judge decides.

pub mod args;
pub mod audit;
pub mod edits;
pub mod panel;
pub mod questions;
pub mod report;
pub mod writer;

pub mod plan;

use self::questions as fpq;
use super::{prompts, Maker, Method};
use crate::backends::Prompt;
use crate::metrics::{Metric, Scoring};
use crate::questions::{FpqFormat, GenerateOptions, Gold, Question, Renderer, Task};
use crate::verify::{self, premise, Reading};

pub struct KgFpq;

impl Method for KgFpq {
    fn drill_down(
        &self,
        q: &Question,
        index: Option<&crate::kg::KgIndex>,
    ) -> Vec<crate::core::panel::PanelLine> {
        panel::premise(q, index)
    }
    fn task(&self) -> Task {
        Task::KgFpq
    }
    fn takes_fpq_settings(&self) -> bool {
        true
    }
    /// KG-FPQ's judge says whether an answer was misled by the false premise.
    fn label_format(&self) -> crate::core::label_format::LabelFormat {
        crate::core::label_format::LabelFormat::FpqJudge
    }
    fn describe(&self) -> &'static str {
        "false-premise questions by six edits, asked after the true premise (KG-FPQ)"
    }
    fn unmade(&self) -> &'static str {
        "edits found no replacement object"
    }
    fn prompt(&self, q: &Question) -> Prompt {
        let generative = q
            .premise
            .as_ref()
            .is_some_and(|p| p.format == FpqFormat::Generative);
        prompts::spec(if generative { "fpq-wh" } else { "fpq-yesno" }).ask(q.prompt.clone())
    }
    fn read(&self, q: &Question, response: &str) -> Reading {
        match &q.gold {
            Gold::Bool { .. } => verify::bool_reading(verify::parse_yesno_verdict(response)),
            Gold::Premise { .. } => premise::read(response),
            other => Reading::unreadable(format!("a KG-FPQ question cannot have gold {other:?}")),
        }
    }
    fn has_closed_answers(&self) -> bool {
        true
    }
    /// The discriminative questions (and the true-premise gate) are yes/no; a generative
    /// question's answer is open.
    fn closed_answers(&self, q: &Question) -> Option<Vec<String>> {
        matches!(q.gold, Gold::Bool { .. }).then(|| vec!["Yes".into(), "No".into()])
    }
    fn has_open_answers(&self) -> bool {
        // The generative format is answered in free text.
        true
    }
    fn scoring(&self) -> Scoring {
        Scoring::Outcomes
    }
    fn metrics(&self) -> &'static [Metric] {
        &[Metric::Accuracy, Metric::AbstainRate, Metric::InvalidRate]
    }
    fn truth_words(&self) -> (&'static str, &'static str) {
        ("yes", "no")
    }
    /// Edit (or TPQ), hop count, format, relation: the paper's breakdowns, and its edit × hop
    /// and edit × relation heatmaps as pairs.
    fn facets(&self, q: &Question) -> Vec<(String, String)> {
        let Some(p) = &q.premise else {
            return vec![];
        };
        vec![
            ("edit".into(), p.edit.map_or("TPQ", |e| e.as_str()).into()),
            ("hop".into(), p.hops.map_or("-".into(), |h| h.to_string())),
            ("format".into(), p.format.as_str().into()),
            ("relation".into(), q.relation.clone()),
        ]
    }
    /// The paper asks every question three times and takes the majority.
    fn default_repeats(&self) -> usize {
        3
    }
    /// Three sentences, for a generative answer.
    fn answer_tokens(&self, q: &Question) -> u32 {
        match q.gold {
            Gold::Premise { .. } => 96,
            _ => 0,
        }
    }
    /// The judge of a generative answer sees the question, the false premise and the true fact.
    fn judge_prompt(&self, q: &Question, response: &str) -> Option<Prompt> {
        let Gold::Premise { premise, truth } = &q.gold else {
            return None;
        };
        let response: String = response.trim().chars().take(600).collect();
        Some(prompts::spec("fpq-judge").ask(format!(
            "Question: {}\nFalse premise: {premise}\nTrue fact: {truth}\nResponse: {response}",
            q.prompt
        )))
    }
}

impl Maker for KgFpq {
    fn generate(
        &self,
        r: &Renderer<'_>,
        candidates: &[usize],
        opts: &GenerateOptions,
    ) -> (Vec<Question>, usize) {
        let (qs, unmade, _) = self.generate_explained(r, candidates, opts);
        (qs, unmade)
    }
    /// The edits that found no candidate, per edit and reason (at the paper's 5 hops a small
    /// KG has few entities out of reach, so the not-neighbour edits say so).
    fn generate_explained(
        &self,
        r: &Renderer<'_>,
        candidates: &[usize],
        opts: &GenerateOptions,
    ) -> (Vec<Question>, usize, Vec<(String, usize)>) {
        let candidates = fpq::askable(r.index, candidates);
        let fpq_opts = opts.fpq.clone().unwrap_or_default();
        let (qs, unmade) = fpq::generate(r, &candidates, opts, &fpq_opts);
        let total = unmade.values().sum();
        (qs, total, fpq::explain(&unmade, fpq_opts.max_hops))
    }
    fn plan(
        &self,
        input: &super::plan::PlanInput<'_>,
        _progress: &dyn Fn(&str),
    ) -> Result<Option<Box<dyn super::plan::Plan>>, crate::kg::KgError> {
        let cfg = input
            .settings::<plan::FpqConfig>()
            .cloned()
            .unwrap_or_default();
        Ok(Some(Box::new(plan::FpqRun::new(
            input.index,
            cfg,
            input.options,
        )?)))
    }
}

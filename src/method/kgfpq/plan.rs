//! KG-FPQ's gate (Zhu et al., 2024, §3): first every true-premise question
//! (TPQ); then the false-premise questions of the facts whose TPQ the model answered Yes (all
//! of them with the gate off). A model that does not know a fact cannot be "misled" about it,
//! so only known facts are tested.
//!
//! Both batches are a function of the configuration and the answers on record, so a resumed
//! run rebuilds them and asks only what `results.jsonl` lacks; there is no state file.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::edits::Editor;
use super::questions::{self as fpq, FpqOptions};
use crate::core::not_asked::NotAsked;
use crate::kg::index::Fact;
use crate::kg::{KgError, KgIndex};
use crate::method::plan::{Plan, PlanEvent};
use crate::questions::{GenerateOptions, Question, Renderer, TemplateSet};
use crate::record::ResultRecord;
use crate::store::RunDir;
use crate::verify::Verdict;

/// A KG-FPQ run's settings (in the manifest): the question set's edits and formats, and how
/// they are asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FpqConfig {
    #[serde(flatten)]
    pub options: FpqOptions,
    /// Ask a fact's FPQs only when its TPQ was answered Yes (the paper's gate).
    pub gate: bool,
    /// The model that rewords generative FPQs (`--writer`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writer: Option<crate::backends::ModelSpec>,
}

impl Default for FpqConfig {
    fn default() -> Self {
        Self {
            options: FpqOptions::default(),
            gate: true,
            writer: None,
        }
    }
}

/// A KG-FPQ run: its facts, and how far it got.
pub struct FpqRun {
    cfg: FpqConfig,
    seed: u64,
    facts: Vec<Fact>,
    /// The ids of the facts' true-premise questions: what every answer on record points to.
    tpq_ids: std::collections::HashSet<String>,
    /// Batches finished in this session: 0, 1 (TPQs) or 2 (FPQs).
    stages_done: u8,
    /// Edits that found no replacement in the FPQ batch, per edit and reason.
    pub unmade: fpq::Unmade,
    /// The FPQs the batch left out: a denied fact's (the gate) and those no edit could make.
    not_asked: Vec<NotAsked>,
}

/// Why the gate leaves a fact's false premises unasked (Zhu et al., §3: the model did not
/// accept the true premise, so it cannot be "misled" about it).
const GATED: &str = "the true premise was denied";
/// Why a known fact has fewer false premises than edits × formats: an edit found no false
/// object that passes its checks (a literal, no concept, the hop bound, a premise that would
/// be true; `kgscope questions --task kg-fpq` counts them per edit and reason).
const UNMADE: &str = "an edit found no false object for the fact";

impl FpqRun {
    /// The facts `opts` draws (its limit counts facts), those with an entity object.
    pub fn new(index: &KgIndex, cfg: FpqConfig, opts: &GenerateOptions) -> Result<Self, KgError> {
        let candidates = crate::questions::candidate_facts(index, opts)?;
        let askable = fpq::askable(index, &candidates);
        if askable.is_empty() {
            return Err(KgError::NotFound(
                "no fact with an entity as its object matches: KG-FPQ replaces objects by other \
                 entities, so it cannot ask about literal values"
                    .into(),
            ));
        }
        let facts: Vec<Fact> =
            crate::questions::draw_facts(index, &askable, opts.limit, opts.sampling, opts.seed)
                .into_iter()
                .map(|i| index.facts()[i])
                .collect();
        // Ids depend on the KG, the fact and the seed only, not on the templates.
        let templates = TemplateSet::builtin();
        let r = Renderer {
            index,
            templates: &templates,
            seed: opts.seed,
        };
        let tpq_ids = facts.iter().map(|f| fpq::tpq_id(&r, f)).collect();
        Ok(Self {
            cfg,
            seed: opts.seed,
            facts,
            tpq_ids,
            stages_done: 0,
            unmade: fpq::Unmade::new(),
            not_asked: Vec::new(),
        })
    }

    pub fn facts(&self) -> usize {
        self.facts.len()
    }

    /// The most false premises a fact gets: one per edit and format.
    fn fpqs_per_fact(&self) -> usize {
        let o = &self.cfg.options;
        o.edits.len() * o.formats.len()
    }

    /// Whether the answers on record are ones this run could have written, before a resume
    /// builds its batches from them. KG-FPQ keeps no state file: `results.jsonl` is its staged
    /// state (which TPQs were asked, which the model knew), so a record that belongs to no fact
    /// of the run, or a false-premise answer the gate could not have let through, means the
    /// file is not this run's and the stage it implies cannot be trusted.
    pub fn check_resume(&self, done: &[ResultRecord]) -> Result<(), String> {
        let tpqs = &self.tpq_ids;
        let knows: std::collections::HashSet<&str> = done
            .iter()
            .filter(|d| {
                d.question
                    .premise
                    .as_ref()
                    .is_some_and(|p| p.edit.is_none())
            })
            .filter(|d| d.verdict == Verdict::True)
            .map(|d| d.question.id.as_str())
            .collect();
        let mut answered_tpqs = 0;
        let mut first_fpq = None;
        for d in done {
            let id = crate::sanitize::line(&d.question.id);
            let Some(p) = d
                .question
                .premise
                .as_ref()
                .filter(|p| tpqs.contains(&p.tpq_id))
            else {
                return Err(format!(
                    "the record of {id} is about none of this run's {} facts",
                    self.facts.len()
                ));
            };
            match p.edit {
                None if d.question.id != p.tpq_id => {
                    return Err(format!(
                        "the record of {id} is a true-premise question under another id"
                    ));
                }
                None => answered_tpqs += 1,
                Some(_) if self.cfg.gate && !knows.contains(p.tpq_id.as_str()) => {
                    return Err(format!(
                        "the record of {id} is a false-premise question whose true premise was \
                         not answered Yes: the gate never asks it"
                    ));
                }
                Some(_) => first_fpq = first_fpq.or(Some(id)),
            }
        }
        if let Some(id) = first_fpq.filter(|_| answered_tpqs < tpqs.len()) {
            return Err(format!(
                "it holds false-premise answers ({id}, ...) but only {answered_tpqs} of \
                 the {} true-premise ones: false premises are asked after every true one",
                tpqs.len()
            ));
        }
        Ok(())
    }
}

impl Plan for FpqRun {
    fn most_questions(&self) -> usize {
        self.facts.len() * (1 + self.fpqs_per_fact())
    }
    fn not_asked(&self) -> Vec<NotAsked> {
        self.not_asked.clone()
    }
    fn is_over(&self) -> bool {
        self.stages_done >= 2
    }
    fn describe(&self) -> String {
        let o = &self.cfg.options;
        let edits: Vec<&str> = o.edits.iter().map(|e| e.as_str()).collect();
        let formats: Vec<&str> = o.formats.iter().map(|f| f.as_str()).collect();
        format!(
            "KG-FPQ: {} facts; edits {}; {}; neighbours within {} hops; {}",
            self.facts.len(),
            edits.join(","),
            formats.join(" and "),
            o.max_hops,
            if self.cfg.gate {
                "false premises only after a Yes to the true one"
            } else {
                "no gate"
            }
        )
    }
    fn next_batch(
        &mut self,
        index: &KgIndex,
        templates: &TemplateSet,
        done: &HashMap<String, ResultRecord>,
    ) -> Option<(u32, Vec<Question>)> {
        let r = Renderer {
            index,
            templates,
            seed: self.seed,
        };
        match self.stages_done {
            0 => Some((1, self.facts.iter().map(|f| fpq::tpq(&r, f)).collect())),
            1 => {
                let opts = &self.cfg.options;
                let mut editor = Editor::new(index, opts.max_hops).with_templates(templates);
                let mut out = Vec::new();
                self.unmade.clear();
                let per_fact = self.fpqs_per_fact();
                let (mut gated, mut unmade) = (0, 0);
                // Every true premise first, as `kgscope questions` does: no false premise
                // repeats one.
                for f in &self.facts {
                    editor.reserve(f);
                }
                for f in &self.facts {
                    let knows = done
                        .get(&fpq::tpq_id(&r, f))
                        .is_some_and(|t| t.verdict == Verdict::True);
                    if self.cfg.gate && !knows {
                        gated += per_fact;
                        continue;
                    }
                    let made = fpq::fpqs(&r, &mut editor, f, opts, &mut self.unmade);
                    unmade += per_fact.saturating_sub(made.len());
                    out.extend(made);
                }
                // With the TPQs asked and `out`, these add up to `most_questions`.
                self.not_asked = [(gated, GATED), (unmade, UNMADE)]
                    .into_iter()
                    .filter(|(n, _)| *n > 0)
                    .map(|(count, why)| NotAsked {
                        count,
                        reason: why.into(),
                    })
                    .collect();
                Some((2, out))
            }
            _ => None,
        }
    }
    fn finish_batch(
        &mut self,
        _index: &KgIndex,
        _records: &[&ResultRecord],
        _run: &RunDir,
    ) -> Result<Option<PlanEvent>, String> {
        self.stages_done += 1;
        Ok(None)
    }
    fn restore(&mut self, run: &RunDir, done: &[ResultRecord]) -> Result<(), String> {
        self.check_resume(done).map_err(|what| {
            format!(
                "{}: {what}. The run was left as it is",
                run.results_path().display()
            )
        })
    }
}

//! KGHaluBench (`shared/papers/kghalubench.txt`): compound questions about a focal entity,
//! an entity-level check (is the answer about this entity at all: breadth) and a fact-level
//! check (are its facts right: depth).
//!
//! The parts:
//! - which entities a question can be about ([`focal`]);
//! - the question's wording with its disambiguating context ([`compound`]), and the
//!   assessments a run draws ([`questions`]);
//! - the description an answer is compared with ([`description`]: the KG's, else rendered
//!   from the entity's facts);
//! - the entity-level similarity mix ([`similarity`]; the embeddings are
//!   `crate::verify::embed`);
//! - the fact check's first stage ([`facts`]), then the judge's three-way verdict and the
//!   expert stage that settles a disagreement ([`judge`]);
//! - the question difficulty and the weighted accuracy ([`difficulty`]);
//! - the chain on one answer, built for a run from the embedder, the judge and the expert, and
//!   handed to the engine as the method's checker ([`chain`]);
//! - the points an answer earns ([`points`]), the report's sections on the chain and the
//!   scores ([`report`]); the metrics are `crate::metrics::halu`.

pub mod chain;
pub mod compound;
pub mod description;
pub mod difficulty;
pub mod facts;
pub mod focal;
pub mod judge;
pub mod points;
pub mod questions;
pub mod report;
pub mod settings;
pub mod similarity;

use super::{prompts, Method};
use crate::backends::Prompt;
use crate::core::panel::PanelLine;
use crate::metrics::{Metric, Scoring};
use crate::questions::gold::Gold;
use crate::questions::{Question, Task};
use crate::verify::{Answer, Reading, Verdict};

pub struct KgHaluBench;

/// What a compound answer needs: an overview paragraph and three facts.
const ANSWER_TOKENS: u32 = 160;

impl Method for KgHaluBench {
    fn task(&self) -> Task {
        Task::Kghalubench
    }
    fn describe(&self) -> &'static str {
        "an overview of an entity and three of its facts (KGHaluBench)"
    }
    fn unmade(&self) -> &'static str {
        "entities could not be asked about"
    }
    fn prompt(&self, q: &Question) -> Prompt {
        prompts::spec("kghalubench").ask(q.prompt.clone())
    }
    /// The rules stage is the abstention filter; the entity- and fact-level checks need the
    /// embedder and the judge, and run in the run layer.
    fn read(&self, q: &Question, response: &str) -> Reading {
        if !matches!(q.gold, Gold::Compound { .. }) {
            return Reading::unreadable(format!(
                "a KGHaluBench question needs compound gold, not {:?}",
                q.gold
            ));
        }
        let text = crate::verify::clean::clean_response(response);
        if text.trim().is_empty() {
            return Reading::unreadable("empty response");
        }
        match crate::verify::abstention::find(&text).filter(|a| a.about_question) {
            Some(a) => Reading {
                answer: Answer::Abstained,
                verdict: Verdict::Idk,
                rule: format!("abstention: \"{}\"", a.phrase),
                confident: true,
            },
            None => Reading {
                answer: Answer::Text {
                    text: text.chars().take(200).collect(),
                },
                verdict: Verdict::Invalid,
                rule: "not an abstention: the entity- and fact-level checks decide".into(),
                confident: false,
            },
        }
    }
    fn truth_words(&self) -> (&'static str, &'static str) {
        ("right", "wrong")
    }
    fn has_open_answers(&self) -> bool {
        // Each answer is a paragraph, its facts judged one by one.
        true
    }
    fn scoring(&self) -> Scoring {
        Scoring::Compound
    }
    fn metrics(&self) -> &'static [Metric] {
        &[
            Metric::PointAccuracy,
            Metric::WeightedAccuracy,
            Metric::BreadthRate,
            Metric::DepthRate,
            Metric::AbstainRate,
        ]
    }
    fn repeats_are_assessments(&self) -> bool {
        true
    }
    fn takes_halu_settings(&self) -> bool {
        true
    }
    /// KGHaluBench judges an answer fact by fact.
    fn label_format(&self) -> crate::core::label_format::LabelFormat {
        crate::core::label_format::LabelFormat::HaluFactJudge
    }
    fn answer_tokens(&self, _q: &Question) -> u32 {
        ANSWER_TOKENS
    }
    /// A band and an entity type per question: their pair is the band × type heatmap.
    fn facets(&self, q: &Question) -> Vec<(String, String)> {
        q.compound.as_ref().map_or_else(Vec::new, |m| {
            vec![
                ("band".into(), m.band.clone()),
                ("entity type".into(), m.entity_type.clone()),
                ("assessment".into(), m.assessment.to_string()),
            ]
        })
    }
    fn drill_down(&self, q: &Question, _index: Option<&crate::kg::KgIndex>) -> Vec<PanelLine> {
        let Some(m) = &q.compound else {
            return vec![];
        };
        let mut lines = vec![
            PanelLine::field("entity", format!("{} ({})", q.subject_label, m.entity_type))
                .noted(format!("  · {} type · assessment {}", m.band, m.assessment)),
            PanelLine::field("question", format!("difficulty {:.2}", m.difficulty)).noted(format!(
                "  (popularity {:.2} · complexity {:.2} · D̄ {:.2} · {:.2} if breadth)",
                m.popularity, m.complexity, m.reference_difficulty, m.breadth_difficulty
            )),
            PanelLine::field("described", m.description.clone()).noted(if m.description_from_kg {
                "  (the KG's)"
            } else {
                "  (rendered from the facts)"
            }),
        ];
        if let Gold::Compound { facts } = &q.gold {
            for f in facts {
                lines.push(PanelLine::field(
                    "asks",
                    format!("{}: {}", f.relation, f.sentence),
                ));
            }
        }
        lines
    }
}

impl super::Maker for KgHaluBench {
    fn checker(
        &self,
        input: &super::check::CheckInput<'_>,
    ) -> Result<Option<std::sync::Arc<dyn super::check::Checker>>, String> {
        Ok(Some(std::sync::Arc::new(chain::for_run(input)?)))
    }
    fn generate(
        &self,
        r: &crate::questions::Renderer<'_>,
        candidates: &[usize],
        opts: &crate::questions::GenerateOptions,
    ) -> (Vec<Question>, usize) {
        questions::generate(r, candidates, opts)
    }
    fn complete(
        &self,
        kg: &dyn crate::kg::KnowledgeGraph,
        r: &crate::questions::Renderer<'_>,
        qs: &mut [Question],
    ) -> Result<(), crate::kg::KgError> {
        questions::describe(kg, r, qs)
    }
}

//! KGHaluBench's compound questions as every layer sees them: what a question asks about its
//! focal entity ([`CompoundMeta`], with the facts in [`crate::core::gold::Gold::Compound`]),
//! and what the verification chain found in one answer ([`CompoundCheck`]: abstention, the
//! entity-level similarity, each fact's verdict and the stage that decided it). The method
//! builds the first, the engine the second, the metrics count the points, and the record keeps
//! both so that a report, Inspect and a label export read them back.

use serde::{Deserialize, Serialize};

use super::panel::{Mark, PanelLine};

/// Facts asked in one compound question.
pub const FACTS_PER_QUESTION: u32 = 3;

pub use super::gold::AskedFact;

/// What a compound question is about, beyond its facts: the focal entity's standing in the KG
/// and the question's difficulty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompoundMeta {
    /// The entity type the question is grouped by (its most specific type).
    pub entity_type: String,
    /// The type's frequency band: "very common", "common" or "uncommon".
    pub band: String,
    /// The description the answer is compared with at the entity level.
    pub description: String,
    /// Whether the KG states the description (else it was rendered from the entity's facts).
    pub description_from_kg: bool,
    /// Popularity, min-max normalised over the KG's candidate entities (0 = least popular).
    pub popularity: f64,
    /// The sum of the three asked relations' hardness weights, in [0, 3].
    pub complexity: f64,
    /// The question's difficulty in (0, 1) with that complexity.
    pub difficulty: f64,
    /// The difficulty when the answer is a breadth hallucination: its complexity is then 3 ×
    /// the type's mean relation weight (the paper's rule).
    pub breadth_difficulty: f64,
    /// D̄: the mean difficulty of assessments of this size drawn from this KG the same way.
    pub reference_difficulty: f64,
    /// Which of the run's assessments (`--repeats`) the question belongs to, from 1.
    pub assessment: u32,
}

/// What one answer was, after the verification chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Judged {
    /// A refusal, a deflection, "I don't know this entity": 1 point of 3.
    Abstained,
    /// The entity-level similarity does not exceed the threshold: the answer is about something
    /// else. 0 points.
    Breadth,
    /// About the entity; 1 point per asked fact it states correctly.
    Aligned { correct: u32 },
}

impl Judged {
    /// The answer's points, of [`FACTS_PER_QUESTION`].
    pub fn points(self) -> u32 {
        match self {
            Judged::Abstained => 1,
            Judged::Breadth => 0,
            Judged::Aligned { correct } => correct.min(FACTS_PER_QUESTION),
        }
    }

    pub fn describe(self) -> String {
        match self {
            Judged::Abstained => "abstained (1 point)".into(),
            Judged::Breadth => "breadth hallucination (0 points)".into(),
            Judged::Aligned { correct } => format!(
                "aligned, {} of {FACTS_PER_QUESTION} facts stated ({} point{})",
                correct.min(FACTS_PER_QUESTION),
                self.points(),
                if self.points() == 1 { "" } else { "s" }
            ),
        }
    }
}

/// What the fact check says of one asked fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FactVerdict {
    Stated,
    Contradicted,
    NotMentioned,
}

impl FactVerdict {
    /// Whether the fact earns its point.
    pub fn is_stated(self) -> bool {
        self == FactVerdict::Stated
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FactVerdict::Stated => "stated",
            FactVerdict::Contradicted => "contradicted",
            FactVerdict::NotMentioned => "not mentioned",
        }
    }
}

/// Which stage of the fact check decided a fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FactStage {
    /// The object (or an alias) is in the answer.
    Cheap,
    /// The judge, its samples agreeing.
    Judge,
    /// The expert stage, because the judge was unsure: the strict majority of a reading of the
    /// fact's value from the answer, any further judge samples and a second judge's verdict.
    Expert,
    /// Nothing could decide (no judge, or no majority): the fact does not earn its point.
    Undecided,
}

impl FactStage {
    pub fn as_str(self) -> &'static str {
        match self {
            FactStage::Cheap => "cheap check",
            FactStage::Judge => "judge",
            FactStage::Expert => "expert",
            FactStage::Undecided => "undecided",
        }
    }

    pub const ALL: [FactStage; 4] = [
        FactStage::Cheap,
        FactStage::Judge,
        FactStage::Expert,
        FactStage::Undecided,
    ];
}

/// The fact check of one asked fact.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FactCheck {
    pub relation: String,
    /// `None` when undecided (counted as not stated).
    pub verdict: Option<FactVerdict>,
    pub stage: FactStage,
    /// Each call's raw output, in order (the judge's, the expert stage's reading, samples, the
    /// second judge's), when asked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub judge_outputs: Vec<String>,
}

impl FactCheck {
    pub fn is_stated(&self) -> bool {
        self.verdict.is_some_and(FactVerdict::is_stated)
    }
}

/// The entity-level check's scores.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Similarity {
    /// Cosine of the answer's and the description's embeddings.
    pub cosine: f64,
    /// Token-set fuzzy ratio, 0–1.
    pub token_set: f64,
    /// 0.7 × cosine + 0.3 × token-set ratio.
    pub score: f64,
    pub threshold: f64,
}

impl Similarity {
    /// Whether the answer is about the entity: its similarity exceeds the threshold (the
    /// paper's word; at the threshold itself it is a breadth hallucination).
    pub fn is_aligned(&self) -> bool {
        self.score > self.threshold
    }

    fn comparison(&self) -> &'static str {
        if self.is_aligned() {
            ">"
        } else {
            "≤"
        }
    }
}

/// Every stage of the chain on one answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompoundCheck {
    pub judged: Judged,
    /// Why the answer counts as an abstention, when it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstention: Option<String>,
    /// The entity-level scores (absent for an abstention).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub similarity: Option<Similarity>,
    /// One per asked fact, for an aligned answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<FactCheck>,
}

impl CompoundCheck {
    /// The chain as lines of text, stage by stage: the verifier trace and Inspect show them.
    pub fn trace(&self) -> Vec<String> {
        let mut out = Vec::new();
        match &self.abstention {
            Some(why) => out.push(format!("abstention: yes ({why})")),
            None => out.push("abstention: no".into()),
        }
        if let Some(s) = &self.similarity {
            out.push(format!(
                "entity level: S = 0.7 × cos {:.3} + 0.3 × token-set {:.3} = {:.3} {} threshold {:.2}",
                s.cosine,
                s.token_set,
                s.score,
                s.comparison(),
                s.threshold
            ));
        }
        for f in &self.facts {
            let said = f.verdict.map_or("undecided", FactVerdict::as_str);
            let mut line = format!("fact {}: {said} · {}", f.relation, f.stage.as_str());
            if !f.judge_outputs.is_empty() {
                line.push_str(&format!(" (judge said {})", f.judge_outputs.join(" / ")));
            }
            out.push(line);
        }
        out.push(format!("KGHaluBench: {}", self.judged.describe()));
        out
    }

    /// The chain for a drill-down: the similarity, then each fact with its verdict and the
    /// stage that decided it, marked by whether it earned its point. Keys fit the drill-down's
    /// ten columns; notes bring their own separator.
    pub fn panel(&self) -> Vec<PanelLine> {
        let mut lines = vec![PanelLine::Title {
            text: "KGHaluBench chain".into(),
            note: format!("  {}", self.judged.describe()),
        }];
        if let Some(why) = &self.abstention {
            lines.push(PanelLine::field("abstained", why.clone()).marked(Mark::Accent));
        }
        if let Some(s) = &self.similarity {
            let aligned = s.is_aligned();
            lines.push(
                PanelLine::field(
                    "alignment",
                    format!("S {:.3} {} {:.2}", s.score, s.comparison(), s.threshold),
                )
                .noted(format!(
                    "  (cosine {:.3} · token-set {:.3}{})",
                    s.cosine,
                    s.token_set,
                    if aligned {
                        ""
                    } else {
                        ": a breadth hallucination"
                    }
                ))
                .marked(if aligned { Mark::Plain } else { Mark::Alarm }),
            );
        }
        for f in &self.facts {
            let said = f.verdict.map_or("undecided", FactVerdict::as_str);
            let mut note = format!("  · {}", f.stage.as_str());
            if !f.judge_outputs.is_empty() {
                note.push_str(&format!(": {}", f.judge_outputs.join(" / ")));
            }
            lines.push(
                PanelLine::field("fact", format!("{}: {said}", f.relation))
                    .noted(note)
                    .marked(if f.is_stated() {
                        Mark::Plain
                    } else {
                        Mark::Alarm
                    }),
            );
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_per_answer() {
        assert_eq!(Judged::Abstained.points(), 1);
        assert_eq!(Judged::Breadth.points(), 0);
        assert_eq!(Judged::Aligned { correct: 0 }.points(), 0);
        assert_eq!(Judged::Aligned { correct: 2 }.points(), 2);
        assert_eq!(Judged::Aligned { correct: 9 }.points(), 3);
    }

    #[test]
    fn a_check_round_trips_and_traces_every_stage() {
        let c = CompoundCheck {
            judged: Judged::Aligned { correct: 1 },
            abstention: None,
            similarity: Some(Similarity {
                cosine: 0.8,
                token_set: 0.5,
                score: 0.71,
                threshold: 0.7,
            }),
            facts: vec![
                FactCheck {
                    relation: "capital".into(),
                    verdict: Some(FactVerdict::Stated),
                    stage: FactStage::Cheap,
                    judge_outputs: vec![],
                },
                FactCheck {
                    relation: "currency".into(),
                    verdict: Some(FactVerdict::Contradicted),
                    stage: FactStage::Expert,
                    judge_outputs: vec!["CONTRADICTED".into(), "STATED".into()],
                },
            ],
        };
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<CompoundCheck>(&json).unwrap(), c);
        let t = c.trace().join("\n");
        assert!(t.contains("0.710 > threshold 0.70"), "{t}");
        assert!(t.contains("fact currency: contradicted · expert"), "{t}");
        assert!(t.contains("1 of 3 facts stated"), "{t}");
    }
}

//! A question as every layer sees it: its text, its gold answer, the fact behind it and the
//! keys its answers are grouped by. These are the types shared from the KG up to the TUI, so
//! this module imports nothing of kgscope's: the methods make questions, the engine asks them,
//! the verifiers read the answers, the reports group them.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::gold::Gold;

/// The question formats; each has its `Method` in the method layer's registry.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum Task {
    /// GraphEval: true/false statements with negatives.
    Statement,
    /// KGLens: yes/no questions, half about a wrong object.
    Yesno,
    /// Luo et al.: true/false statements, true and false 1:1.
    Tfq,
    /// Luo et al.: multiple choice, fill in the blank (4 options).
    McqFib,
    /// Luo et al.: multiple choice, Wh-question (4 options).
    McqWh,
    /// Luo et al.: short answer, every KG object accepted with its aliases.
    Saq,
    /// KG-FPQ: false-premise questions by six edits, gated by the true-premise question.
    KgFpq,
    /// KGLens in full: adaptive Beta sampling over the edges of a subgraph, yes/no and
    /// Wh-questions.
    Kglens,
    /// KGHaluBench: compound questions about an entity, breadth and depth hallucination.
    Kghalubench,
}

impl Task {
    pub const ALL: [Task; 9] = [
        Task::Statement,
        Task::Yesno,
        Task::Tfq,
        Task::McqFib,
        Task::McqWh,
        Task::Saq,
        Task::Kglens,
        Task::KgFpq,
        Task::Kghalubench,
    ];

    /// The names on the command line, in files and in run directory names, in declaration
    /// order (serde's and clap's kebab-case names; a test holds them equal).
    const NAMES: [&'static str; 9] = [
        "statement",
        "yesno",
        "tfq",
        "mcq-fib",
        "mcq-wh",
        "saq",
        "kg-fpq",
        "kglens",
        "kghalubench",
    ];

    /// The name on the command line, in files and in run directory names.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// Which part of a true triple a negative replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Corruption {
    Head,
    Relation,
    Tail,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    pub id: String,
    pub task: Task,
    /// The text the model judges or answers (the instruction is added when asking).
    pub prompt: String,
    /// The right answer (runs before schema 2 stored "true"/"false"/"yes"/"no", read as
    /// [`Gold::Bool`]).
    pub gold: Gold,
    /// Text shown before the question (Luo et al.'s context injection), when the run asks for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// The question's own triple (for a negative: the corrupted one), as IRIs or literal values.
    pub subject: String,
    pub predicate: String,
    pub object: String,
    pub subject_label: String,
    pub object_label: String,
    /// The keys metrics are grouped by: the label, head / tail type (the most frequent type
    /// of the relation's heads / tails) and year of the TRUE fact the question tests. For a
    /// negative they are its positive's, whatever was corrupted.
    pub relation: String,
    pub head_type: Option<String>,
    pub tail_type: Option<String>,
    pub year: Option<i32>,
    /// `None` for a true triple; which position was replaced otherwise.
    pub negative: Option<Corruption>,
    /// The id of the true-triple question this one was derived from (its own id for positives).
    pub positive_id: String,
    /// How many questions share `positive_id` (1 + negatives actually generated).
    pub group_size: usize,
    /// Aliases of the subject, for display and disambiguation.
    #[serde(default)]
    pub subject_aliases: Vec<String>,
    /// The true fact's object when the question names another (a yes/no "no" question): with
    /// `subject` and `predicate` it is the (s, p, o) edge KGLens scores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub true_object: Option<String>,
    /// For a question an adaptive (KGLens) run asked: which iteration, about which edge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe: Option<Probe>,
    /// For a KG-FPQ question: the premise it rests on (true, or made false by which edit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub premise: Option<PremiseMeta>,
    /// For a KGHaluBench question: its focal entity's standing and the question's difficulty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compound: Option<crate::core::compound::CompoundMeta>,
    /// What a reviewer model said of the question (`--review-with`), when one read it; files
    /// written before reviewers existed have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<crate::core::review::Review>,
}

/// A KG-FPQ question's premise. The question's (subject, predicate, object) is the premise it
/// states or presupposes; `true_object` (on the question) the true fact's object when an edit
/// replaced it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PremiseMeta {
    /// The edit that made the premise false; `None` for the true-premise question (TPQ).
    pub edit: Option<Edit>,
    /// For NSC / NDC: hops from the subject to the replacement object in the KG.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hops: Option<u8>,
    pub format: FpqFormat,
    /// The id of the TPQ of the same true fact (its own id for a TPQ): the gate.
    pub tpq_id: String,
    /// What `--writer` wrote for this question, and whether it replaced the template's words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub written: Option<Written>,
}

/// How a KG-FPQ question is asked.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum FpqFormat {
    /// A yes/no question answered "Yes" or "No" only.
    Discriminative,
    /// A Wh-question built on the premise, answered in at most three sentences.
    Generative,
}

impl FpqFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Discriminative => "discriminative",
            Self::Generative => "generative",
        }
    }
}

/// Where an adaptive run's question came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    /// 1-based iteration.
    pub iteration: u32,
    /// The edge's index in the run's subgraph.
    pub edge: u32,
}

impl Question {
    /// The (subject, predicate, object) edge of the true fact this question tests, as one key.
    pub fn edge_key(&self) -> String {
        let o = self.true_object.as_deref().unwrap_or(&self.object);
        format!("{} {} {}", self.subject, self.predicate, o)
    }
}

/// How o' relates to s and o; the order is the paper's, from most to least confusing.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    clap::ValueEnum,
)]
#[serde(rename_all = "UPPERCASE")]
pub enum Edit {
    /// Neighbour of the subject, same concept as the object.
    Nsc,
    /// Neighbour of the subject, different concept.
    Ndc,
    /// Not a neighbour, same concept.
    Nnsc,
    /// Not a neighbour, different concept.
    Nndc,
    /// Not a neighbour, object of the same relation elsewhere.
    Nnsr,
    /// Not a neighbour, object of a different relation only.
    Nndr,
}

impl Edit {
    pub const ALL: [Edit; 6] = [
        Edit::Nsc,
        Edit::Ndc,
        Edit::Nnsc,
        Edit::Nndc,
        Edit::Nnsr,
        Edit::Nndr,
    ];

    /// The paper's acronym.
    pub fn as_str(self) -> &'static str {
        match self {
            Edit::Nsc => "NSC",
            Edit::Ndc => "NDC",
            Edit::Nnsc => "NNSC",
            Edit::Nndc => "NNDC",
            Edit::Nnsr => "NNSR",
            Edit::Nndr => "NNDR",
        }
    }

    /// Whether o' must be within the hop bound of s (NSC, NDC).
    pub fn is_neighbour(self) -> bool {
        matches!(self, Edit::Nsc | Edit::Ndc)
    }

    /// Whether the edited object is of another kind than the true one (another concept, or
    /// an object of another relation): such an object must still fit the relation's slot.
    pub fn other_kind(self) -> bool {
        matches!(self, Edit::Ndc | Edit::Nndc | Edit::Nndr)
    }

    /// The edit named `s`, in any case ("nsc", "NSC", "Nsc").
    pub fn parse(s: &str) -> Option<Edit> {
        let s = s.trim();
        Edit::ALL
            .into_iter()
            .find(|e| e.as_str().eq_ignore_ascii_case(s))
    }
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, thiserror::Error)]
#[error("unknown edit '{0}': the edits are NSC, NDC, NNSC, NNDC, NNSR, NNDR")]
pub struct UnknownEdit(pub String);

impl std::str::FromStr for Edit {
    type Err = UnknownEdit;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Edit::parse(s).ok_or_else(|| UnknownEdit(s.to_string()))
    }
}

/// What the writer wrote for one question, and whether it was used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Written {
    pub model: String,
    pub text: String,
    pub accepted: bool,
    /// Why it was rejected, or "passed the checks".
    pub reason: String,
    /// The template's wording, kept when the written one is rejected.
    pub template: String,
}

/// Which edits and formats a KG-FPQ set has.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FpqOptions {
    pub edits: Vec<Edit>,
    pub formats: Vec<FpqFormat>,
    /// Neighbourhood radius (the paper: 5 hops).
    pub max_hops: u8,
}

impl Default for FpqOptions {
    fn default() -> Self {
        Self {
            edits: Edit::ALL.to_vec(),
            formats: vec![FpqFormat::Discriminative, FpqFormat::Generative],
            max_hops: 5,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_is_named_as_serde_and_clap_name_it() {
        use clap::ValueEnum;
        for t in Task::ALL {
            let serde = serde_json::to_value(t).unwrap();
            assert_eq!(serde, t.as_str(), "{t:?}");
            let clap = t.to_possible_value().unwrap();
            assert_eq!(clap.get_name(), t.as_str(), "{t:?}");
        }
    }
}

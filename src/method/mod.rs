//! The question methods behind one trait, and the one registry that knows them all.
//!
//! A [`Method`] owns everything that differs between question formats: which questions it
//! makes from KG facts, how they are asked (its prompt file under `assets/prompts/`), how the
//! rules read a response, which metrics it reports and how the drill-down names its gold
//! answer, and, for a method whose questions depend on earlier answers, its [`plan::Plan`].
//! The engine, the metrics, the CLI and the TUI ask the method; only [`of`] matches on
//! [`Task`] (a test holds that line).
//!
//! The papers the methods follow, as the code cites them (author, year, section):
//! - Liu et al., 2024: "Evaluating the Factuality of Large Language Models using Large-Scale
//!   Knowledge Graphs" (GraphEval; `statement`).
//! - Luo et al., 2023: "Systematic Assessment of Factual Knowledge in Large Language Models"
//!   (true/false, multiple-choice and short-answer questions, context injection; `tfq`, `mcq`,
//!   `saq`).
//! - Zheng et al., 2024: "KGLens: A Parameterized Knowledge Graph Solution to Assess What an
//!   LLM Does and Doesn't Know" (`yesno`, `kglens`).
//! - Zhu et al., 2024: "KG-FPQ: Evaluating Factuality Hallucination in LLMs with Knowledge
//!   Graph-based False Premise Questions" (`kgfpq`).

pub use crate::core::prompts;

pub mod kgfpq;
pub mod kglens;
pub mod mcq;
pub mod plan;
pub mod saq;
pub mod statement;
pub mod tfq;
pub mod yesno;

use crate::backends::Prompt;
use crate::kg::{KgError, KgIndex};
use crate::metrics::{Metric, Scoring};
use crate::questions::{GenerateOptions, GenerateReport, Question, Renderer, Task, TemplateSet};
use crate::verify::Reading;

/// One question format: generation, prompting, reading and metrics.
pub trait Method: Send + Sync {
    fn task(&self) -> Task;
    /// One line for the run dialog: what is asked, and the paper it comes from.
    fn describe(&self) -> &'static str;
    /// Questions from the candidate facts; returns them and how many wanted items (negatives,
    /// false statements, facts with enough distractors) could not be made ([`Method::unmade`]
    /// says which).
    fn generate(
        &self,
        r: &Renderer<'_>,
        candidates: &[usize],
        opts: &GenerateOptions,
    ) -> (Vec<Question>, usize);
    /// How one question is asked.
    fn prompt(&self, q: &Question) -> Prompt;
    /// The rules stage of the verification chain.
    fn read(&self, q: &Question, response: &str) -> Reading;
    /// Which extra sums the aggregator keeps for this method.
    fn scoring(&self) -> Scoring;
    /// The metrics shown for a run of this method, headline first.
    fn metrics(&self) -> &'static [Metric];
    /// What the count of items `generate` could not make counts, after the number.
    fn unmade(&self) -> &'static str {
        "items could not be made"
    }
    /// How the method says true and false ("true"/"false", "yes"/"no").
    fn truth_words(&self) -> (&'static str, &'static str) {
        ("true", "false")
    }
    /// The gold answer in the method's own words ("yes", "B) Lima", ...).
    fn gold_text(&self, q: &Question) -> String {
        match q.gold {
            crate::questions::Gold::Bool { value } => {
                let (t, f) = self.truth_words();
                if value { t } else { f }.to_string()
            }
            _ => q.gold.describe(),
        }
    }
    /// Whether the method's questions come with negatives whose count the user sets.
    fn takes_negatives(&self) -> bool {
        false
    }
    /// Whether the method can put a context before its questions (`--context`).
    fn takes_context(&self) -> bool {
        false
    }
    /// The method's own groupings of a question, `(facet, value)`, beside relation, types and
    /// year (KG-FPQ: edit, hop, format). Pairs of facets become 2-D heatmaps.
    fn facets(&self, _q: &Question) -> Vec<(String, String)> {
        vec![]
    }
    /// How many times each question is asked when the user does not say (`--repeats`).
    fn default_repeats(&self) -> usize {
        1
    }
    /// The fewest tokens an answer to `q` needs: the run's `--max-tokens` is raised to this
    /// for it (a yes/no needs a word, KG-FPQ's generative answer up to three sentences).
    fn answer_tokens(&self, _q: &Question) -> u32 {
        0
    }
    /// The judge's prompt for one response, when the method asks its judge its own way.
    fn judge_prompt(&self, _q: &Question, _response: &str) -> Option<Prompt> {
        None
    }
    /// Whether a question's text is its fact's statement word for word (GraphEval's
    /// statements): a negative that reads true in words is then a bad question.
    fn asks_statements(&self) -> bool {
        false
    }
    /// Whether a run of this method carries KGLens' settings (`RunConfig::kglens`: iterations,
    /// subgraph walk, convergence) and takes their command-line flags.
    fn takes_kglens_settings(&self) -> bool {
        false
    }
    /// Whether a run of this method carries KG-FPQ's settings (`RunConfig::fpq`: edits,
    /// formats, gate, writer) and takes their command-line flags.
    fn takes_fpq_settings(&self) -> bool {
        false
    }
    /// The plan of a run whose questions depend on earlier answers (KGLens' iterations,
    /// KG-FPQ's gate); `None` for a method whose questions are all made up front.
    fn plan(
        &self,
        _input: &plan::PlanInput<'_>,
        _progress: &dyn Fn(&str),
    ) -> Result<Option<Box<dyn plan::Plan>>, KgError> {
        Ok(None)
    }
}

/// What Luo et al. report for every format, then the outcome rates.
const LUO_METRICS: &[Metric] = &[
    Metric::F1,
    Metric::Precision,
    Metric::Recall,
    Metric::AbstainRate,
    Metric::InvalidRate,
];

static STATEMENT: statement::Statement = statement::Statement;
static YESNO: yesno::YesNo = yesno::YesNo;
static TFQ: tfq::Tfq = tfq::Tfq;
static MCQ_FIB: mcq::Mcq = mcq::Mcq::FILL_IN_THE_BLANK;
static MCQ_WH: mcq::Mcq = mcq::Mcq::WH_QUESTION;
static SAQ: saq::Saq = saq::Saq;
static KGLENS: kglens::Kglens = kglens::Kglens;
static KG_FPQ: kgfpq::KgFpq = kgfpq::KgFpq;

/// The method behind a task.
pub fn of(task: Task) -> &'static dyn Method {
    match task {
        Task::Statement => &STATEMENT,
        Task::Yesno => &YESNO,
        Task::Tfq => &TFQ,
        Task::McqFib => &MCQ_FIB,
        Task::McqWh => &MCQ_WH,
        Task::Saq => &SAQ,
        Task::Kglens => &KGLENS,
        Task::KgFpq => &KG_FPQ,
    }
}

/// Every method, in the order the run dialog lists them.
pub fn all() -> impl Iterator<Item = &'static dyn Method> {
    Task::ALL.iter().map(|t| of(*t))
}

/// Generates questions for `opts.task`: the candidate facts `opts` selects, made into
/// questions by the task's method.
pub fn generate(
    index: &KgIndex,
    templates: &TemplateSet,
    opts: &GenerateOptions,
) -> Result<(Vec<Question>, GenerateReport), KgError> {
    let candidates = crate::questions::candidate_facts(index, opts)?;
    let renderer = Renderer {
        index,
        templates,
        seed: opts.seed,
    };
    let (questions, missing) = of(opts.task).generate(&renderer, &candidates, opts);
    let report = GenerateReport {
        candidates: candidates.len(),
        questions: questions.len(),
        negatives_missing: missing,
    };
    Ok((questions, report))
}

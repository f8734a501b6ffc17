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
//! - KGHaluBench, 2025: "a KG-synergised hallucination benchmark" (compound questions, breadth
//!   and depth hallucination; `kghalubench`).

pub use crate::core::method::Method;
pub use crate::core::prompts;

pub mod check;
pub mod judge;
pub mod kgfpq;
pub mod kghalubench;
pub mod kglens;
pub mod mcq;
pub mod plan;
pub mod saq;
pub mod statement;
pub mod tfq;
pub mod yesno;

use crate::kg::{KgError, KgIndex, KnowledgeGraph};
use crate::metrics::Metric;
use crate::questions::{GenerateOptions, GenerateReport, Question, Renderer, Task, TemplateSet};

/// How a method makes its questions: all up front from the drawn facts, or batch by batch
/// in a [`plan::Plan`] when its questions depend on earlier answers. Every method is a
/// [`Method`] too, so the registry hands out one object that does both.
pub trait Maker: Method {
    /// Questions from the candidate facts; returns them and how many wanted items (negatives,
    /// false statements, facts with enough distractors) could not be made ([`Method::unmade`]
    /// says which).
    fn generate(
        &self,
        r: &Renderer<'_>,
        candidates: &[usize],
        opts: &GenerateOptions,
    ) -> (Vec<Question>, usize);
    /// [`Maker::generate`], with the unmade items broken down by reason, each as a line and a
    /// count (KG-FPQ: per edit); most methods give one figure only.
    fn generate_explained(
        &self,
        r: &Renderer<'_>,
        candidates: &[usize],
        opts: &GenerateOptions,
    ) -> (Vec<Question>, usize, Vec<(String, usize)>) {
        let (qs, missing) = self.generate(r, candidates, opts);
        (qs, missing, Vec::new())
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
    /// The stages after the rules for a run of this method ([`check::Checker`]): by default the
    /// run's LLM judge when it has one (asked when the rules are unsure), none otherwise. A
    /// method with a chain of its own builds it here from `input` (its settings, the judge, any
    /// further model it starts); the engine only calls it.
    fn checker(
        &self,
        input: &check::CheckInput<'_>,
    ) -> Result<Option<std::sync::Arc<dyn check::Checker>>, String> {
        Ok(input.judge.clone().map(|j| {
            std::sync::Arc::new(check::JudgeStage(j)) as std::sync::Arc<dyn check::Checker>
        }))
    }
    /// Completes made questions with what the KG states beyond its facts, which the index
    /// does not hold (KGHaluBench: the entities' descriptions); most methods need nothing.
    fn complete(
        &self,
        _kg: &dyn KnowledgeGraph,
        _r: &Renderer<'_>,
        _questions: &mut [Question],
    ) -> Result<(), KgError> {
        Ok(())
    }
}

/// `impl Maker` for a method whose questions are all made up front by `$generate` (its
/// `questions.rs`), with no plan.
macro_rules! made_up_front {
    ($method:ty, $generate:path) => {
        impl $crate::method::Maker for $method {
            fn generate(
                &self,
                r: &$crate::questions::Renderer<'_>,
                candidates: &[usize],
                opts: &$crate::questions::GenerateOptions,
            ) -> (Vec<$crate::questions::Question>, usize) {
                $generate(r, candidates, opts)
            }
        }
    };
}
pub(crate) use made_up_front;

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
static KGHALUBENCH: kghalubench::KgHaluBench = kghalubench::KgHaluBench;

/// The method behind a task.
pub fn of(task: Task) -> &'static dyn Maker {
    match task {
        Task::Statement => &STATEMENT,
        Task::Yesno => &YESNO,
        Task::Tfq => &TFQ,
        Task::McqFib => &MCQ_FIB,
        Task::McqWh => &MCQ_WH,
        Task::Saq => &SAQ,
        Task::Kglens => &KGLENS,
        Task::KgFpq => &KG_FPQ,
        Task::Kghalubench => &KGHALUBENCH,
    }
}

/// Every method, in the order the run dialog lists them.
pub fn all() -> impl Iterator<Item = &'static dyn Maker> {
    Task::ALL.iter().map(|t| of(*t))
}

/// What `kgscope audit` checks beyond the checks common to every method: each method's own
/// (KG-FPQ's premises), over the questions that method made.
pub fn audit_checks(
    index: &KgIndex,
    questions: &[Question],
) -> Vec<crate::questions::audit::Check> {
    kgfpq::audit::audit(index, questions).checks()
}

/// Generates questions for `opts.task`: the candidate facts `opts` selects, made into
/// questions by the task's method.
pub fn generate(
    index: &KgIndex,
    templates: &TemplateSet,
    opts: &GenerateOptions,
) -> Result<(Vec<Question>, GenerateReport), KgError> {
    let selection = crate::questions::select_facts(index, opts)?;
    let renderer = Renderer {
        index,
        templates,
        seed: opts.seed,
    };
    let method = of(opts.task);
    let (questions, missing, why) = method.generate_explained(&renderer, &selection.facts, opts);
    let report = GenerateReport {
        matching: selection.matching,
        candidates: selection.facts.len(),
        skipped: selection.skipped,
        questions: questions.len(),
        group_size: questions.iter().map(|q| q.group_size).max().unwrap_or(1),
        negatives_missing: missing,
        unmade: if missing > 0 {
            method.unmade().to_string()
        } else {
            String::new()
        },
        unmade_why: why,
    };
    Ok((questions, report))
}

//! `kgscope bench verdicts`: how often the verification chain agrees with hand labels on a
//! labelled response table, by the rules alone and by the rules with an LLM judge, per task.
//!
//! The table holds responses, not questions: the judge is shown the response with the answer
//! key "true" ("yes") and no question text, so its RIGHT / WRONG / NONE reads directly as the
//! claim true / false / none the label states.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use futures::StreamExt;
use kgscope::method;
use kgscope::method::judge::{self, Judge, JudgeCall};
use kgscope::questions::{Gold, Question, Task};
use kgscope::verify::labelled::{self, Row};
use kgscope::verify::Verdict;

use crate::cli::openai_args::OpenAiArgs;

#[derive(Args)]
pub struct VerdictBenchArgs {
    /// The labelled table (task, response, label, reason; tab-separated).
    #[arg(
        long,
        value_name = "FILE",
        default_value = "tests/data/verdict_responses.tsv"
    )]
    pub table: PathBuf,
    /// The judge: `default`, a .gguf path or openai:MODEL (at --base-url) [default: rules only].
    #[arg(long, value_name = "MODEL")]
    pub judge: Option<String>,
    /// Judge every response, not only those the rules are unsure of.
    #[arg(long, requires = "judge")]
    pub judge_all: bool,
    /// Judge calls in flight at once.
    #[arg(long, default_value_t = 4)]
    pub concurrency: usize,
    #[command(flatten)]
    pub openai: OpenAiArgs,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// A stand-in question for a table row: the row's task, a true gold answer, no text.
fn question_for(row: &Row) -> Question {
    let task = if row.task == "yesno" {
        Task::Yesno
    } else {
        Task::Statement
    };
    Question {
        id: format!("table-line-{}", row.line),
        task,
        prompt: "(not shown: judge the response alone)".into(),
        gold: Gold::yes(),
        context: None,
        subject: String::new(),
        predicate: String::new(),
        object: String::new(),
        subject_label: String::new(),
        object_label: String::new(),
        relation: String::new(),
        head_type: None,
        tail_type: None,
        year: None,
        negative: None,
        positive_id: String::new(),
        group_size: 1,
        subject_aliases: vec![],
        true_object: None,
        probe: None,
        premise: None,
        compound: None,
        review: None,
    }
}

/// One row's decisions.
struct Decided {
    task: String,
    label: Verdict,
    rules: Verdict,
    chain: Verdict,
    call: Option<JudgeCall>,
}

#[derive(Default, serde::Serialize)]
struct TaskFigures {
    rows: usize,
    rules_agree: usize,
    chain_agree: usize,
    judged: usize,
    /// Judged rows where the judge's output was readable (its decision replaced the rules').
    judge_decided: usize,
    /// Of the rows the judge decided, those where it agrees with the label.
    judge_agree: usize,
}

pub fn run(a: VerdictBenchArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&a.table)
        .with_context(|| format!("reading {}", a.table.display()))?;
    let rows = labelled::parse(&text)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("in {}", a.table.display()))?;
    anyhow::ensure!(!rows.is_empty(), "{} holds no rows", a.table.display());
    let judge = match &a.judge {
        Some(spec) => {
            let spec = a.openai.model_spec(spec).context("--judge")?;
            let backend = kgscope::backends::from_spec(&spec, 1, a.concurrency.max(1), None)
                .with_context(|| format!("starting the judge {}", spec.describe()))?;
            Some(Arc::new(Judge::new(backend, a.judge_all)))
        }
        None => None,
    };
    let rt = tokio::runtime::Runtime::new()?;
    let bar = crate::cli::progress::counter(Some(rows.len() as u64), "responses");
    let decided: Vec<Decided> = rt.block_on(async {
        futures::stream::iter(rows.iter().map(|row| {
            let judge = judge.clone();
            let bar = bar.clone();
            async move {
                let q = question_for(row);
                let rules = method::of(q.task).read(&q, &row.response);
                let rules_verdict = rules.verdict;
                let mut chain = rules_verdict;
                let mut call = None;
                if let Some(j) = judge.as_ref().filter(|j| j.wants(&rules)) {
                    let c = j.call(&q, &row.response, "bench").await?;
                    chain = judge::apply(&q, rules, &c).verdict;
                    call = Some(c);
                }
                bar.inc(1);
                anyhow::Ok(Decided {
                    task: row.task.clone(),
                    label: row.label,
                    rules: rules_verdict,
                    chain,
                    call,
                })
            }
        }))
        .buffered(a.concurrency.max(1))
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<anyhow::Result<Vec<_>>>()
    })?;
    bar.finish_and_clear();
    let mut figures: std::collections::BTreeMap<String, TaskFigures> = Default::default();
    for d in &decided {
        let f = figures.entry(d.task.clone()).or_default();
        f.rows += 1;
        f.rules_agree += usize::from(d.rules == d.label);
        f.chain_agree += usize::from(d.chain == d.label);
        if let Some(c) = &d.call {
            f.judged += 1;
            if c.outcome.is_some() {
                f.judge_decided += 1;
                f.judge_agree += usize::from(d.chain == d.label);
            }
        }
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&figures)?);
        return Ok(ExitCode::SUCCESS);
    }
    let pct = |n: usize, d: usize| {
        if d == 0 {
            "-".to_string()
        } else {
            format!("{:.1}%", 100.0 * n as f64 / d as f64)
        }
    };
    println!(
        "{:<10} {:>5}  {:>11}  {:>13}  {:>7}  {:>14}",
        "task", "rows", "rules alone", "rules + judge", "judged", "judge right"
    );
    for (task, f) in &figures {
        println!(
            "{task:<10} {:>5}  {:>11}  {:>13}  {:>7}  {:>14}",
            f.rows,
            pct(f.rules_agree, f.rows),
            if judge.is_some() {
                pct(f.chain_agree, f.rows)
            } else {
                "-".into()
            },
            f.judged,
            format!("{} of {}", f.judge_agree, f.judge_decided),
        );
    }
    Ok(ExitCode::SUCCESS)
}

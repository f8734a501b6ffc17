//! `kgscope labels export`: hand labels joined with their questions and responses, as judge
//! training data.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args, Subcommand, ValueEnum};
use kgscope::run::{session, ResultRecord};
use kgscope::store::labels::{self, Label, LabelVerdict};
use kgscope::verify::OutcomeKind;
use serde_json::json;

#[derive(Subcommand)]
pub enum LabelsCommand {
    /// Write a run's latest hand labels, with their questions and responses, to a file.
    Export(ExportArgs),
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    /// Every label with its question, response and the verifier's outcome.
    Jsonl,
    /// GraphEval judge data: statement, response, label correct/incorrect/idk.
    Grapheval,
    /// KG-FPQ judge data: instruction, input (question and answer), output Yes/No.
    FpqJudge,
}

#[derive(Args)]
pub struct ExportArgs {
    /// Run id (or run directory).
    pub run: String,
    /// What to write: one JSON object per line in the chosen shape.
    #[arg(long, value_enum)]
    pub format: Format,
    /// Output file (JSON Lines), written whole or not at all; `-` for standard output.
    #[arg(long, value_name = "FILE")]
    pub out: String,
    /// Where runs are kept.
    #[arg(long, default_value = "runs", env = "KGSCOPE_RUNS")]
    pub runs_dir: PathBuf,
}

pub fn dispatch(c: LabelsCommand) -> anyhow::Result<ExitCode> {
    match c {
        LabelsCommand::Export(a) => export(a),
    }
}

/// What the person says the answer was: `None` when the label blames the question or the KG,
/// which makes it no example of judging an answer.
pub fn truth(label: LabelVerdict) -> Option<OutcomeKind> {
    match label {
        LabelVerdict::Right => Some(OutcomeKind::Correct),
        LabelVerdict::Wrong => Some(OutcomeKind::Incorrect),
        LabelVerdict::Abstained => Some(OutcomeKind::Abstained),
        LabelVerdict::BadQuestion | LabelVerdict::KgWrong => None,
    }
}

const FPQ_INSTRUCTION: &str =
    "Judge whether the answer to the question is correct. Reply Yes or No.";

/// One output line, or `None` when the label gives no training example in this format.
pub fn line_for(format: Format, r: &ResultRecord, l: &Label) -> Option<serde_json::Value> {
    let q = &r.question;
    match format {
        Format::Jsonl => Some(json!({
            "question_id": q.id,
            "task": q.task,
            "prompt": q.prompt,
            "gold": q.gold,
            "subject": q.subject,
            "predicate": q.predicate,
            "object": q.object,
            "relation": q.relation,
            "response": r.response(),
            "verdict": r.verdict,
            "outcome": r.outcome,
            "label": l.label,
            "error_type": l.error_type,
            "note": l.note,
            "annotator": l.annotator,
            "time": l.time,
        })),
        Format::Grapheval => {
            let label = match truth(l.label)? {
                OutcomeKind::Correct => "correct",
                OutcomeKind::Incorrect => "incorrect",
                OutcomeKind::Abstained => "idk",
                OutcomeKind::Invalid => return None,
            };
            Some(json!({"statement": q.prompt, "response": r.response(), "label": label}))
        }
        Format::FpqJudge => {
            let output = match truth(l.label)? {
                OutcomeKind::Correct => "Yes",
                OutcomeKind::Incorrect | OutcomeKind::Abstained => "No",
                OutcomeKind::Invalid => return None,
            };
            Some(json!({
                "instruction": FPQ_INSTRUCTION,
                "input": format!("Question: {}\nAnswer: {}", q.prompt, r.response()),
                "output": output,
            }))
        }
    }
}

fn export(a: ExportArgs) -> anyhow::Result<ExitCode> {
    let (run, _, records) = session::open_results(&a.runs_dir, &a.run)?;
    let latest = labels::latest(
        run.read_labels()
            .with_context(|| format!("reading {}", run.labels_path().display()))?,
    );
    let by_id: HashMap<&str, &ResultRecord> = records
        .iter()
        .map(|r| (r.question.id.as_str(), r))
        .collect();
    let mut out = String::new();
    let (mut written, mut skipped, mut unknown) = (0usize, 0usize, 0usize);
    // Results order, so the file is the same on every export of the same labels.
    for r in &records {
        let Some(l) = latest.get(&r.question.id) else {
            continue;
        };
        match line_for(a.format, r, l) {
            Some(v) => {
                writeln!(out, "{v}").expect("writing to a String");
                written += 1;
            }
            None => skipped += 1,
        }
    }
    for id in latest.keys() {
        if !by_id.contains_key(id.as_str()) {
            unknown += 1;
        }
    }
    super::write_output(&a.out, out.as_bytes())?;
    eprintln!(
        "wrote {written} example(s) from run {} to {}{}{}",
        run.id,
        super::describe_output(&a.out),
        if skipped > 0 {
            format!("; {skipped} label(s) blame the question or the KG and give no example")
        } else {
            String::new()
        },
        if unknown > 0 {
            format!("; {unknown} label(s) name questions not in results.jsonl")
        } else {
            String::new()
        }
    );
    Ok(ExitCode::SUCCESS)
}

//! `kgscope questions`: generate a question set and write it as JSON Lines.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use kgscope::questions::{self, GenerateOptions, Task};
use kgscope::run::session;

use super::KgArg;

/// What to generate: shared by `kgscope questions` and `kgscope run`.
#[derive(Args, Clone)]
pub struct GenArgs {
    #[command(flatten)]
    pub kg: KgArg,
    /// The kind of question.
    #[arg(long, value_enum, default_value = "statement")]
    pub task: Task,
    /// Number of questions (statements: whole groups of a fact and its negatives).
    #[arg(long, default_value_t = 100)]
    pub limit: usize,
    /// statement task: false statements made from each true one by replacing its subject or
    /// object.
    #[arg(long, default_value_t = 1)]
    pub negatives: usize,
    /// Seed for every random choice; the same seed and KG give the same questions.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Only these relations (IRI, label or local name); repeatable [default: every relation].
    #[arg(long = "relation", value_name = "R")]
    pub relations: Vec<String>,
    /// Only facts around these entities, as subject or object (an IRI, or a label or alias as
    /// `kgscope kg show` takes it); repeatable, like the TUI's marked entities [default: every
    /// entity].
    #[arg(long = "entity", value_name = "ENTITY")]
    pub entities: Vec<String>,
    /// Extra template files (.toml, GraphEval .tsv, LAMA .jsonl); repeatable, later files win
    /// [default: the built-in templates only].
    #[arg(long = "templates", value_name = "FILE")]
    pub templates: Vec<PathBuf>,
}

impl GenArgs {
    /// The generation options, with `--entity` already resolved to `entity_iris`.
    pub fn options(&self, entity_iris: Vec<String>) -> GenerateOptions {
        GenerateOptions {
            task: self.task,
            limit: self.limit,
            negatives: self.negatives,
            seed: self.seed,
            relations: self.relations.clone(),
            entities: entity_iris,
        }
    }
}

#[derive(Args)]
pub struct QuestionsArgs {
    #[command(flatten)]
    pub gen: GenArgs,
    /// Output file (JSON Lines), written whole or not at all; `-` for standard output.
    #[arg(long, value_name = "FILE", default_value = super::STDOUT)]
    pub out: String,
}

pub fn run(a: QuestionsArgs) -> anyhow::Result<ExitCode> {
    let templates = session::load_templates(&a.gen.templates)?;
    let session::OpenKg { kg, index } = super::kg::open_indexed(&a.gen.kg.kg)?;
    let entities = super::kg::entity_iris(kg.as_ref(), &a.gen.kg.kg, &a.gen.entities, &index)?;
    let (qs, report) = questions::generate(&index, &templates, &a.gen.options(entities))?;
    let mut buf = Vec::with_capacity(qs.len() * 512);
    for q in &qs {
        // KG text may hold bidi overrides or C1 controls: escaped as \uXXXX, read back the same.
        kgscope::sanitize::write_json(&mut buf, q)?;
        buf.push(b'\n');
    }
    super::write_output(&a.out, &buf)?;
    let wanted = a.gen.limit;
    eprintln!(
        "{} {} questions from {} candidate facts{}{}",
        report.questions,
        a.gen.task.as_str(),
        report.candidates,
        if a.out == super::STDOUT {
            String::new()
        } else {
            format!(" → {}", a.out)
        },
        if report.questions < wanted {
            format!(
                " (fewer than --limit {wanted}: the KG has only {} matching facts)",
                report.candidates
            )
        } else {
            String::new()
        }
    );
    if report.negatives_missing > 0 {
        eprintln!(
            "note: {} negatives could not be made (every corruption tried was a KG triple)",
            report.negatives_missing
        );
    }
    Ok(ExitCode::SUCCESS)
}

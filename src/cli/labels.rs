//! `kgscope labels export`: hand labels joined with their questions and responses, as judge
//! training data.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use kgscope::metrics::agreement::{cohen_kappa, fleiss_kappa, gwet_ac1, raw_agreement};
use kgscope::run::{session, Manifest};
// Annotator names are shown with their control characters escaped, not dropped: a name
// shown stripped could not be typed back to `--annotator` (it is another name).
use kgscope::sanitize::escape as clean;
use kgscope::store::labels::{LabelBook, LabelVerdict};
use kgscope::store::RunDir;
use serde_json::json;

#[derive(Subcommand)]
pub enum LabelsCommand {
    /// Write a run's hand labels, with their questions and responses, to a file; or, with
    /// --reviewed DIR, add its labelled questions to a reviewed set.
    Export(ExportArgs),
    /// Print who labelled how much, and how far annotators agree (Cohen's / Fleiss' kappa).
    Agreement(AgreementArgs),
}

use kgscope::report::label_export;
pub use kgscope::report::label_export::LabelFormat as Format;

#[derive(Args)]
pub struct ExportArgs {
    /// Run id (or run directory).
    pub run: String,
    /// What to write: one JSON object per line in the chosen shape [default: none; required
    /// unless --reviewed].
    #[arg(long, value_enum, required_unless_present = "reviewed")]
    pub format: Option<Format>,
    /// Output file (JSON Lines), written whole or not at all; `-` for standard output
    /// [default: none; required unless --reviewed].
    #[arg(long, value_name = "FILE", required_unless_present = "reviewed")]
    pub out: Option<String>,
    /// Add the labelled questions to the reviewed set in DIR (as tests/data/reviewed/seed41):
    /// DIR/KG.jsonl gets each question (id, kg, task, prompt, gold, asked_triple, negative,
    /// aliases) and DIR/KG.verdicts.jsonl its verdict, in the same order. An answer labelled
    /// right, wrong or abstained accepts its question (cause null); "bad question" rejects it
    /// with the cause picked in the TUI, "KG wrong" with gold_wrong, and the label's note.
    /// Questions already in the files are replaced in place, so exporting again repeats
    /// nothing [default: export in --format to --out].
    #[arg(
        long,
        value_name = "DIR",
        conflicts_with_all = ["format", "out", "with_hidden_states"]
    )]
    pub reviewed: Option<PathBuf>,
    /// Export this annotator's labels [default: the only annotator; a run labelled by several
    /// needs this or --majority].
    #[arg(long, value_name = "NAME", conflicts_with = "majority")]
    pub annotator: Option<String>,
    /// Export the verdict most annotators gave each question; a tie for the most votes exports
    /// nothing for that question (counted in the summary).
    #[arg(long)]
    pub majority: bool,
    /// Also write each example's hidden state in the model (the final layer after the last
    /// norm, at the last token of the question, as GraphEval's judge reads it) to a
    /// safetensors file beside --out (its name with `.safetensors`): a tensor `hidden_states`
    /// [examples, width], row i for line i, which gains `hidden_state_row`.
    #[arg(long)]
    pub with_hidden_states: bool,
    /// The GGUF model whose hidden states --with-hidden-states reads [default: the run's own
    /// model file].
    #[arg(long, value_name = "FILE", requires = "with_hidden_states")]
    pub hidden_model: Option<PathBuf>,
    /// Where runs are kept.
    #[arg(long, default_value = "runs", env = "KGSCOPE_RUNS")]
    pub runs_dir: PathBuf,
}

#[derive(Args)]
pub struct AgreementArgs {
    /// Run id (or run directory).
    pub run: String,
    /// Where runs are kept.
    #[arg(long, default_value = "runs", env = "KGSCOPE_RUNS")]
    pub runs_dir: PathBuf,
}

pub fn dispatch(c: LabelsCommand) -> anyhow::Result<ExitCode> {
    match c {
        LabelsCommand::Export(a) => export(a),
        LabelsCommand::Agreement(a) => agreement_command(a),
    }
}

fn read_book(run: &RunDir) -> anyhow::Result<LabelBook> {
    Ok(LabelBook::from_entries(run.read_labels().with_context(
        || format!("reading {}", run.labels_path().display()),
    )?))
}

/// Which annotator's labels an export takes: the one named, the only one there is, or (with
/// `--majority`) none in particular.
fn choose(book: &LabelBook, a: &ExportArgs, run: &str) -> anyhow::Result<Option<String>> {
    let all = book.annotators();
    let names = || clean(&all.join(", "));
    if a.majority {
        return Ok(None);
    }
    match &a.annotator {
        Some(name) if all.contains(name) => Ok(Some(name.clone())),
        // The name as this command shows it (control characters escaped) names it too.
        Some(name) if all.iter().any(|n| &clean(n) == name) => {
            Ok(all.into_iter().find(|n| &clean(n) == name))
        }
        Some(name) => bail!(
            "annotator \"{}\" has no labels in run {run} (annotators there: {})",
            clean(name),
            if all.is_empty() {
                "none".into()
            } else {
                names()
            }
        ),
        None if all.len() > 1 => bail!(
            "run {run} has labels by {} annotators ({}): choose one with --annotator NAME, or \
             take the majority with --majority",
            all.len(),
            names()
        ),
        None => Ok(all.into_iter().next()),
    }
}

/// Where `--with-hidden-states` writes, and the model it reads them from; `None` without it.
fn hidden_states_path(
    a: &ExportArgs,
    manifest: &Manifest,
) -> anyhow::Result<Option<(PathBuf, PathBuf)>> {
    if !a.with_hidden_states {
        return Ok(None);
    }
    let out = a.out.as_deref().unwrap_or_default();
    if out == super::STDOUT {
        bail!("--with-hidden-states writes a second file beside --out: give --out a file name");
    }
    let path = std::path::Path::new(out).with_extension("safetensors");
    if path == std::path::Path::new(out) {
        bail!("--out names the JSON Lines index; the hidden states go beside it as .safetensors");
    }
    let model = match (&a.hidden_model, &manifest.config.model) {
        (Some(m), _) => m.clone(),
        (None, kgscope::run::ModelSpec::Llama { path }) => path.clone(),
        (None, _) => bail!(
            "run {} used a model served over HTTP, which gives no hidden states: give              --hidden-model a GGUF file of the same family",
            manifest.run_id
        ),
    };
    if !model.is_file() {
        bail!("model file {} does not exist", model.display());
    }
    Ok(Some((path, model)))
}

/// Reads the hidden states of `questions` (one per exported line) and writes them to `path`.
fn write_hidden_states(
    path: &std::path::Path,
    model: &std::path::Path,
    questions: &[&kgscope::questions::Question],
) -> anyhow::Result<()> {
    use kgscope::run::trained;
    let sha = trained::model_hash(model).map_err(anyhow::Error::msg)?;
    let llama = trained::hidden_model(model, 16, None).map_err(anyhow::Error::msg)?;
    let bar = super::progress::counter(Some(questions.len() as u64), "hidden states");
    let states = tokio::runtime::Runtime::new()?
        .block_on(trained::hidden_states(&llama, questions, &|n| {
            bar.set_position(n as u64)
        }))
        .map_err(anyhow::Error::msg)?;
    bar.finish_and_clear();
    let meta = std::collections::HashMap::from([
        ("model_file".to_string(), model.display().to_string()),
        ("model_sha256".to_string(), sha),
        (
            "layer".to_string(),
            kgscope::verify::trained::LAYER.to_string(),
        ),
    ]);
    trained::write_states(path, &states, meta).map_err(anyhow::Error::msg)
}

fn export(a: ExportArgs) -> anyhow::Result<ExitCode> {
    let (run, manifest, records) = session::open_results(&a.runs_dir, &a.run)?;
    let book = read_book(&run)?;
    let who = choose(&book, &a, &run.id)?;
    if let Some(dir) = &a.reviewed {
        return export_reviewed(dir, &run.id, &manifest, &records, &book, who.as_deref());
    }
    // clap requires both without --reviewed.
    let (Some(format), Some(out_path)) = (a.format, a.out.clone()) else {
        bail!("give --format and --out, or --reviewed DIR");
    };
    let states_path = hidden_states_path(&a, &manifest)?;
    let label_export::Examples {
        mut lines,
        skipped,
        ties,
        unknown,
    } = label_export::examples(format, &manifest, &records, &book, who.as_deref());
    let written = lines.len();
    if let Some((path, model)) = &states_path {
        let questions: Vec<&kgscope::questions::Question> =
            lines.iter().map(|(_, r)| &r.question).collect();
        write_hidden_states(path, model, &questions)?;
        for (row, (v, _)) in lines.iter_mut().enumerate() {
            v["hidden_state_row"] = json!(row);
        }
    }
    // Terminal-safe JSON: `--out -` may put it on a terminal.
    let out = label_export::to_jsonl(&lines)?;
    super::write_output(&out_path, &out)?;
    let mut said = format!(
        "wrote {written} example(s) from run {} to {}",
        run.id,
        super::describe_output(&out_path)
    );
    match &who {
        Some(name) => write!(said, " (labels by {})", clean(name)),
        None => write!(said, " (majority of annotators)"),
    }
    .expect("writing to a String");
    if skipped > 0 {
        write!(
            said,
            "; {skipped} label(s) give no example in this format (they blame the question or \
             the KG{})",
            if matches!(format, Format::HaluFactJudge) {
                ", or the answer was not about its entity, or the label disputes the chain \
                 without saying which fact"
            } else {
                ""
            }
        )
        .expect("writing to a String");
    }
    if ties > 0 {
        write!(
            said,
            "; {ties} question(s) have no majority (tied votes) and were left out"
        )
        .expect("writing to a String");
    }
    if unknown > 0 {
        write!(
            said,
            "; {unknown} labelled question(s) are not in results.jsonl"
        )
        .expect("writing to a String");
    }
    if let Some((path, _)) = &states_path {
        write!(said, "; hidden states in {}", path.display()).expect("writing to a String");
    }
    eprintln!("{said}");
    let agree = Agreement::of(&book);
    if agree.annotators.len() > 1 {
        eprintln!("{}", agree.summary());
    }
    Ok(ExitCode::SUCCESS)
}

/// `--reviewed DIR`: the run's labelled questions merged into DIR/KG.jsonl and
/// DIR/KG.verdicts.jsonl.
fn export_reviewed(
    dir: &std::path::Path,
    run_id: &str,
    manifest: &Manifest,
    records: &[kgscope::run::ResultRecord],
    book: &LabelBook,
    who: Option<&str>,
) -> anyhow::Result<ExitCode> {
    use kgscope::report::reviewed_set;
    let set = reviewed_set::reviewed(manifest, records, book, who);
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let questions_path = dir.join(format!("{}.jsonl", set.kg));
    let verdicts_path = dir.join(format!("{}.verdicts.jsonl", set.kg));
    let read = |path: &std::path::Path| -> anyhow::Result<Vec<String>> {
        if !path.exists() {
            return Ok(vec![]);
        }
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        Ok(text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(String::from)
            .collect())
    };
    let new: Vec<(String, String, String)> = set
        .lines
        .iter()
        .map(|(q, v)| {
            (
                q.id.clone(),
                reviewed_set::to_line(q),
                reviewed_set::to_line(v),
            )
        })
        .collect();
    let merged = reviewed_set::merge(&read(&questions_path)?, &read(&verdicts_path)?, &new)
        .map_err(|e| {
            anyhow::anyhow!("the reviewed set in {} is not in pairs: {e}", dir.display())
        })?;
    let write = |path: &std::path::Path, lines: Vec<&String>| -> anyhow::Result<()> {
        let mut out = String::new();
        for l in lines {
            out.push_str(l);
            out.push('\n');
        }
        super::write_atomically(path, out.as_bytes())
    };
    write(&questions_path, merged.iter().map(|(q, _)| q).collect())?;
    write(&verdicts_path, merged.iter().map(|(_, v)| v).collect())?;
    let mut said = format!(
        "added {} labelled question(s) of run {run_id} to {} and {} ({} rejected; {} in the set)",
        set.lines.len(),
        questions_path.display(),
        verdicts_path.display(),
        set.rejected,
        merged.len()
    );
    match who {
        Some(name) => write!(said, " (labels by {})", clean(name)),
        None => write!(said, " (majority of annotators)"),
    }
    .expect("writing to a String");
    if set.without_cause > 0 {
        write!(
            said,
            "; {} rejection(s) have no cause (labelled before the TUI asked for one)",
            set.without_cause
        )
        .expect("writing to a String");
    }
    if set.ties > 0 {
        write!(
            said,
            "; {} question(s) have no majority (tied votes) and were left out",
            set.ties
        )
        .expect("writing to a String");
    }
    if set.unknown > 0 {
        write!(
            said,
            "; {} labelled question(s) are not in results.jsonl",
            set.unknown
        )
        .expect("writing to a String");
    }
    eprintln!("{said}");
    Ok(ExitCode::SUCCESS)
}

/// How far a run's annotators agree on the questions they all judged.
pub struct Agreement {
    /// Each annotator and how many questions they currently judge, by name.
    pub annotators: Vec<(String, usize)>,
    /// Questions every annotator judged: what kappa is computed over.
    pub common: usize,
    /// Of those, the questions every annotator gave the same verdict.
    pub agreeing: usize,
    /// Cohen's kappa for two annotators, Fleiss' for more; `None` when undefined.
    pub kappa: Option<f64>,
    /// Gwet's AC1 over the same questions, on the labels' whole scale: agreement beyond
    /// chance that does not collapse when one verdict dominates, as kappa does.
    pub ac1: Option<f64>,
}

impl Agreement {
    pub fn of(book: &LabelBook) -> Agreement {
        let names = book.annotators();
        let questions = book.questions();
        let annotators = names
            .iter()
            .map(|n| {
                let count = questions
                    .iter()
                    .filter(|q| book.get(q, n).is_some())
                    .count();
                (n.clone(), count)
            })
            .collect();
        // Per question judged by all: every annotator's verdict, in name order.
        let rows: Vec<Vec<LabelVerdict>> = questions
            .iter()
            .filter_map(|q| names.iter().map(|n| Some(book.get(q, n)?.label)).collect())
            .collect();
        // Per question, how many annotators gave each verdict of the scale.
        let counts: Vec<Vec<usize>> = rows
            .iter()
            .map(|r| {
                LabelVerdict::ALL
                    .iter()
                    .map(|v| r.iter().filter(|x| *x == v).count())
                    .collect()
            })
            .collect();
        let many = names.len() > 1;
        let kappa = match names.len() {
            0 | 1 => None,
            2 => cohen_kappa(&rows.iter().map(|r| (r[0], r[1])).collect::<Vec<_>>()),
            _ => fleiss_kappa(&counts),
        };
        Agreement {
            annotators,
            common: rows.len(),
            agreeing: raw_agreement(&counts).0,
            kappa,
            ac1: gwet_ac1(&counts).filter(|_| many),
        }
    }

    /// One line: who labelled how much, then over the questions they share how many they
    /// agree on, kappa and AC1. The raw share comes first: kappa alone reads 0.00 where 4 of 5
    /// agree but one verdict dominates.
    pub fn summary(&self) -> String {
        let who: Vec<String> = self
            .annotators
            .iter()
            .map(|(n, c)| format!("{} {c}", clean(n)))
            .collect();
        let method = if self.annotators.len() == 2 {
            "Cohen's"
        } else {
            "Fleiss'"
        };
        let kappa = match self.kappa {
            Some(k) => format!("{k:.2}"),
            None if self.common == 0 => "undefined (no question judged by all)".into(),
            None => "undefined (one verdict throughout)".into(),
        };
        let raw = if self.common == 0 {
            String::new()
        } else {
            let both = if self.annotators.len() == 2 {
                "agree"
            } else {
                "all agree"
            };
            format!(
                ": {} of {} {both} ({:.0}%)",
                self.agreeing,
                self.common,
                self.agreeing as f64 * 100.0 / self.common as f64
            )
        };
        let ac1 = self.ac1.map_or("undefined".into(), |a| format!("{a:.2}"));
        format!(
            "agreement: {} annotators ({}); {} question(s) judged by all{raw}; {method} kappa \
             {kappa}; Gwet's AC1 {ac1}",
            self.annotators.len(),
            who.join(", "),
            self.common
        )
    }
}

/// `kgscope labels agreement RUN`: per-annotator counts by verdict, then kappa.
fn agreement_command(a: AgreementArgs) -> anyhow::Result<ExitCode> {
    let run = RunDir::open(&a.runs_dir, &a.run)?;
    let book = read_book(&run)?;
    let agree = Agreement::of(&book);
    if agree.annotators.is_empty() {
        println!("run {} has no labels yet", run.id);
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = format!("{:<20} {:>6}", "annotator", "labels");
    for v in LabelVerdict::ALL {
        write!(out, " {:>12}", v.name()).expect("writing to a String");
    }
    out.push('\n');
    let questions = book.questions();
    for (name, count) in &agree.annotators {
        let shown: String = clean(name).chars().take(20).collect();
        write!(out, "{shown:<20} {count:>6}").expect("writing to a String");
        for v in LabelVerdict::ALL {
            let n = questions
                .iter()
                .filter(|q| book.get(q, name).is_some_and(|l| l.label == v))
                .count();
            write!(out, " {n:>12}").expect("writing to a String");
        }
        out.push('\n');
    }
    // With three or more, each pair too: which annotator is the odd one out.
    if agree.annotators.len() > 2 {
        for (i, (a, _)) in agree.annotators.iter().enumerate() {
            for (b, _) in &agree.annotators[i + 1..] {
                let pairs: Vec<(LabelVerdict, LabelVerdict)> = questions
                    .iter()
                    .filter_map(|q| Some((book.get(q, a)?.label, book.get(q, b)?.label)))
                    .collect();
                let kappa = cohen_kappa(&pairs).map_or("undefined".into(), |k| format!("{k:.2}"));
                let same = pairs.iter().filter(|(x, y)| x == y).count();
                writeln!(
                    out,
                    "{} and {}: Cohen's kappa {kappa} over {} question(s), {same} agree",
                    clean(a),
                    clean(b),
                    pairs.len()
                )
                .expect("writing to a String");
            }
        }
    }
    println!("{out}{}", agree.summary());
    Ok(ExitCode::SUCCESS)
}

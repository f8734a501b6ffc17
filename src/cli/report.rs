//! `kgscope report`: a run's metrics, from its results, in the format asked.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use kgscope::method;
use kgscope::report;

#[derive(Args)]
pub struct ReportArgs {
    /// Run id (or run directory).
    pub run: String,
    /// Where runs are kept.
    #[arg(long, default_value = "runs", env = "KGSCOPE_RUNS")]
    pub runs_dir: PathBuf,
    /// Output format: text (for the terminal), md (Markdown tables), html (one self-contained
    /// page with the figures inlined as SVG), csv (one row per group and metric) or json.
    #[arg(long, value_enum, default_value_t)]
    pub format: ReportFormat,
    /// The same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Where to write the report; `-` for standard output.
    #[arg(long, default_value = super::STDOUT, value_name = "FILE")]
    pub out: String,
    /// How many of the worst relations to list.
    #[arg(long, default_value_t = 10)]
    pub worst: usize,
    /// Score the machine's decisions only: hand labels in labels.jsonl do not override them.
    #[arg(long)]
    pub no_labels: bool,
}

#[derive(Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    #[default]
    Text,
    Md,
    Html,
    Csv,
    Json,
}

/// A run's report in the format asked (`--json` for `--format json`), written where `--out` says.
pub fn run(a: ReportArgs) -> anyhow::Result<ExitCode> {
    use kgscope::document;
    use kgscope::report::doc;
    let r = report::loaded::LoadedRun::load(&a.runs_dir, &a.run, !a.no_labels)?;
    let format = if a.json { ReportFormat::Json } else { a.format };
    let by_judge = r.by_judge;
    let text = match format {
        ReportFormat::Json => {
            let judges = r.judges()?;
            kgscope::sanitize::json_pretty(&serde_json::json!({
                "run_id": r.run.id,
                "run_dir": r.run.path,
                "answered": r.answered,
                "questions": r.manifest.questions,
                "not_asked": r.manifest.not_asked,
                "schema_version": r.manifest.schema_version,
                "decided_by": {
                    "rules": r.answered - by_judge,
                    "judge": by_judge,
                    "hand_labels": r.labelled,
                },
                "metrics": r.snapshot,
                "chance": r.chance,
                "kglens": r.kglens,
                "kghalubench": (r.halu.answers > 0).then_some(&r.halu),
                "judges": judges.shown().then_some(&*judges),
            }))? + "\n"
        }
        ReportFormat::Md => doc::markdown(&document::blocks(&r, false)?),
        ReportFormat::Html => doc::html(
            &format!("kgscope report: run {}", r.run.id),
            &document::blocks(&r, true)?,
        ),
        ReportFormat::Csv => doc::csv(&document::CSV_HEADER, &document::csv_rows(&r)),
        ReportFormat::Text => text_report(&r, by_judge, a.worst),
    };
    super::write_output(&a.out, text.as_bytes())?;
    if a.out != super::STDOUT {
        eprintln!("wrote {}", super::describe_output(&a.out));
    }
    Ok(ExitCode::SUCCESS)
}

/// The terminal report: what the run was, who decided, the summary and the method's views.
fn text_report(r: &report::loaded::LoadedRun, by_judge: usize, worst: usize) -> String {
    use std::fmt::Write;
    let (manifest, labelled) = (&r.manifest, &r.labelled);
    let mut out = String::new();
    let answered = r.answered_of_planned();
    let _ = writeln!(
        out,
        "run {} ({} on {}, model {}): {answered}{}",
        r.run.id,
        r.method(),
        r.kg(),
        r.model(),
        if manifest.finished_at.is_some() {
            ""
        } else {
            " (unfinished: `kgscope run --resume` continues it)"
        }
    );
    let _ = writeln!(
        out,
        "decided by: rules {}, judge {}; hand labels decided {} ({} changed), left out {} as bad question or KG wrong{}",
        r.answered - by_judge,
        by_judge,
        labelled.decided,
        labelled.changed,
        labelled.left_out,
        if labelled.tied > 0 {
            format!(", {} tied (machine decision kept)", labelled.tied)
        } else {
            String::new()
        }
    );
    let metrics = method::of(manifest.config.task).metrics();
    out.push_str(&report::table::summary(&r.snapshot, metrics, worst));
    out.push_str(&report::chance::text(&r.chance));
    if let Some(k) = &r.kglens {
        out.push_str(&report::kglens::text(k));
    }
    out.push_str(&report::fpq::text(&r.snapshot));
    out.push_str(&report::halu::text(&r.snapshot, &r.halu));
    out.push_str(&report::calibration::text(r));
    match r.judges() {
        Ok(j) => out.push_str(&report::judges::text(&j, r.labels_read())),
        Err(e) => out.push_str(&format!("\nverifiers against hand labels: {e:#}\n")),
    }
    out
}

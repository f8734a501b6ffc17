//! `kgscope bench report`: what reading a big run costs. A run of `--answers` yes/no answers
//! (1,000,000 by default) is written, and a copy of it; then `report`, `compare` (the run
//! against its copy), `plot` and `export` run on it, each as a process of its own, timed, with
//! its peak resident memory as the kernel counts it. The baseline, in the same command: a
//! process that reads results.jsonl whole into memory and does nothing else, as every one of
//! these commands did before they read runs as streams.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use clap::Args;
use kgscope::questions::Task;
use kgscope::run::engine::verify_record;
use kgscope::run::{session, ModelSpec, RunConfig};
use kgscope::verify::Verdict;

#[derive(Args)]
pub struct ReportBenchArgs {
    /// Answers in the run.
    #[arg(long, default_value_t = 1_000_000)]
    pub answers: usize,
    /// Working directory [default: a fresh temporary directory, removed afterwards].
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
    /// (The baseline's own process: read this run's results.jsonl whole, then exit) [default:
    /// run the benchmark]
    #[arg(long, hide = true, value_name = "RUN_DIR")]
    pub read_whole: Option<PathBuf>,
}

/// A yes/no run of `n` answers under `dir`: the sample KG's questions over and over, each
/// pass with fresh ids (distinct questions, as in a real run), with a mix of verdicts.
pub(super) fn write_run(dir: &Path, n: usize) -> anyhow::Result<String> {
    let model = ModelSpec::Llama {
        path: "bench.gguf".into(),
    };
    let cfg = RunConfig::new("sample:countries", model, Task::Yesno, 2_000);
    let prepared = session::prepare_new(cfg, "bench", dir, &|_| {})?;
    let verdicts = [Verdict::True, Verdict::False, Verdict::Idk, Verdict::True];
    let mut log = prepared.run.results_appender()?;
    let qs = &prepared.questions;
    for i in 0..n {
        let mut q = qs[i % qs.len()].clone();
        let pass = i / qs.len();
        q.id = format!("{}.{pass}", q.id);
        q.positive_id = format!("{}.{pass}", q.positive_id);
        let verdict = verdicts[i % verdicts.len()];
        let response =
            format!("{verdict:?}. A response of a typical length for a yes/no question.");
        let attempt = super::bench_attempt(verdict, response);
        log.push(&verify_record(q, vec![attempt]))?;
        if i % 10_000 == 9_999 {
            log.flush()?;
        }
    }
    log.flush()?;
    let mut manifest = prepared.manifest.clone();
    manifest.questions = n;
    prepared.run.write_manifest(&manifest)?;
    Ok(prepared.run.id.clone())
}

pub fn run(a: ReportBenchArgs) -> anyhow::Result<ExitCode> {
    if let Some(run) = a.read_whole {
        let run = kgscope::store::RunDir::open(
            run.parent().unwrap_or(Path::new(".")),
            &run.to_string_lossy(),
        )?;
        let records: Vec<kgscope::run::ResultRecord> = run.read_results()?;
        eprintln!("{} records", records.len());
        return Ok(ExitCode::SUCCESS);
    }
    let _tmp;
    let dir = match a.dir {
        Some(d) => d,
        None => {
            _tmp = super::tempdir()?;
            _tmp.0.clone()
        }
    };
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs)?;
    let t = Instant::now();
    let id = write_run(&runs, a.answers)?;
    let copy = format!("{id}-copy");
    std::fs::create_dir_all(runs.join(&copy))?;
    for f in ["manifest.json", "results.jsonl"] {
        std::fs::copy(runs.join(&id).join(f), runs.join(&copy).join(f))?;
    }
    let bytes = std::fs::metadata(runs.join(&id).join("results.jsonl"))?.len();
    eprintln!(
        "wrote a run of {} answers ({:.0} MiB of results.jsonl) in {:.1} s",
        a.answers,
        bytes as f64 / 1048576.0,
        t.elapsed().as_secs_f64()
    );
    let exe = std::env::current_exe()?;
    let kgscope = |args: &[&str]| {
        let mut c = Command::new(&exe);
        c.args(args).arg("--runs-dir").arg(&runs);
        c
    };
    let out = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let run_dir = runs.join(&id).to_string_lossy().into_owned();
    let mut whole = Command::new(&exe);
    whole.args(["bench", "report", "--read-whole", &run_dir]);
    let cases: Vec<(&str, Command)> = vec![
        ("read whole (baseline)", whole),
        (
            "report",
            kgscope(&["report", &id, "--out", &out("report.txt")]),
        ),
        (
            "report --format html",
            kgscope(&[
                "report",
                &id,
                "--format",
                "html",
                "--out",
                &out("report.html"),
            ]),
        ),
        (
            "compare",
            kgscope(&["compare", &id, &copy, "--out", &out("compare.md")]),
        ),
        (
            "plot",
            kgscope(&[
                "plot",
                &id,
                "--kind",
                "heatmap",
                "--out",
                &out("heatmap.svg"),
            ]),
        ),
        (
            "export",
            kgscope(&["export", &id, "--out", &out("export.jsonl")]),
        ),
    ];
    let mut rows = Vec::new();
    for (name, mut cmd) in cases {
        let (secs, rss, _) = super::measure(&mut cmd)?;
        eprintln!("{name:<22} {secs:>7.1} s  {rss:>7.0} MiB peak");
        rows.push(serde_json::json!({"command": name, "seconds": secs, "peak_rss_mib": rss}));
    }
    let base = &rows[0];
    let (base_s, base_rss) = (
        base["seconds"].as_f64().unwrap_or(1.0),
        base["peak_rss_mib"].as_f64().unwrap_or(1.0),
    );
    for r in &mut rows[1..] {
        let s = r["seconds"].as_f64().unwrap_or(0.0);
        let m = r["peak_rss_mib"].as_f64().unwrap_or(0.0);
        r["time_vs_baseline"] = serde_json::json!(s / base_s);
        r["rss_vs_baseline"] = serde_json::json!(m / base_rss);
    }
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "answers": a.answers,
                "results_bytes": bytes,
                "commands": rows,
            }))?
        );
    } else {
        println!(
            "{} answers, {:.0} MiB of results.jsonl",
            a.answers,
            bytes as f64 / 1048576.0
        );
        for r in &rows {
            println!(
                "{:<22} {:>7.1} s {:>8.0} MiB peak{}",
                r["command"].as_str().unwrap_or(""),
                r["seconds"].as_f64().unwrap_or(0.0),
                r["peak_rss_mib"].as_f64().unwrap_or(0.0),
                match r["rss_vs_baseline"].as_f64() {
                    Some(x) => format!(
                        "  ({:.2}× the baseline's memory, {:.2}× its time)",
                        x,
                        r["time_vs_baseline"].as_f64().unwrap_or(0.0)
                    ),
                    None => String::new(),
                }
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

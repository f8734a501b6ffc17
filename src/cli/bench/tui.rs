//! `kgscope bench tui`: the terminal UI under a flood of outcomes. Per 50 ms frame, the
//! outcomes of that frame are folded into the app and the screen is drawn off-screen, as the
//! event loop does; the baseline, in the same command, folds the same outcomes without drawing.
//! Resident memory is sampled as the run goes on: it must stay flat (aggregates in memory, rows
//! on disk). Last, the biggest run written is opened as `--run` opens it, against reading all
//! its records into memory, the way the TUI used to.

use std::process::ExitCode;

use clap::Args;
use kgscope::questions::Task;
use kgscope::run::engine::verify_record;
use kgscope::run::{session, ModelSpec, ResultRecord, RunConfig};
use kgscope::tui::app::{RunData, Screen};
use kgscope::tui::bench::frame_times;
use kgscope::tui::theme::Theme;
use kgscope::tui::App;
use kgscope::verify::Verdict;

#[derive(Args)]
pub struct TuiBenchArgs {
    /// Outcomes per second fed to the UI (at 20 frames/s).
    #[arg(long, default_value_t = 2_000)]
    pub outcomes_per_s: usize,
    /// Simulated seconds of a run, per screen.
    #[arg(long, default_value_t = 60)]
    pub seconds: usize,
    /// Also open a recorded run of this many yes/no answers as `--run` does, and follow it
    /// while 10,000 answers a second arrive: open time and memory, frame times [default: 0,
    /// none]
    #[arg(long, default_value_t = 0)]
    pub open_answers: usize,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Resident set size of this process, in MiB (Linux; 0 elsewhere).
fn rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<f64>().ok())
        .map_or(0.0, |pages| pages * 4096.0 / (1024.0 * 1024.0))
}

/// Answered statement questions from a sample KG, with a mix of verdicts, as a fast stand-in
/// for a model (the UI's cost does not depend on where answers come from).
fn sample_records(dir: &std::path::Path) -> anyhow::Result<(RunData, Vec<ResultRecord>)> {
    let model = ModelSpec::Llama {
        path: "bench.gguf".into(),
    };
    let cfg = RunConfig::new("sample:countries", model, Task::Statement, 2_000);
    let prepared = session::prepare_new(cfg, "bench", dir, &|_| {})?;
    let verdicts = [
        Verdict::True,
        Verdict::False,
        Verdict::Idk,
        Verdict::Invalid,
        Verdict::True,
    ];
    let records = prepared
        .questions
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let verdict = verdicts[i % verdicts.len()];
            let response = format!("{verdict:?}: a response of a typical length for a statement.");
            verify_record(q.clone(), vec![super::bench_attempt(verdict, response)])
        })
        .collect();
    Ok((RunData::open(prepared.run, prepared.manifest)?, records))
}

pub fn run(a: TuiBenchArgs) -> anyhow::Result<ExitCode> {
    let tmp = super::tempdir()?;
    let per_frame = (a.outcomes_per_s / 20).max(1);
    let chunks = 6;
    let frames_per_chunk = (a.seconds * 20 / chunks).max(1);
    let mut rows = Vec::new();
    let mut written = None;
    for screen in [Screen::Live, Screen::Heatmaps, Screen::Errors] {
        let (data, records) = sample_records(&tmp.0)?;
        let mut app = App::new(Theme::default(), "sample:countries", None);
        app.run_prepared(data, &[]);
        let mut rss = vec![rss_mib()];
        let mut medians = Vec::new();
        let mut fed = 0;
        for _ in 0..chunks {
            let s = frame_times(
                &mut app,
                &records,
                fed,
                per_frame,
                frames_per_chunk,
                screen,
                (120, 40),
                true,
            );
            fed += s.outcomes;
            medians.push(s.median_ms);
            rss.push(rss_mib());
        }
        // Baseline: the same outcomes folded into a fresh app, without drawing.
        let (data, records) = sample_records(&tmp.0)?;
        let mut base = App::new(Theme::default(), "sample:countries", None);
        base.run_prepared(data, &[]);
        let b = frame_times(
            &mut base,
            &records,
            0,
            per_frame,
            frames_per_chunk * chunks,
            screen,
            (120, 40),
            false,
        );
        let median = medians.iter().copied().fold(0.0, f64::max);
        rows.push(serde_json::json!({
            "screen": format!("{screen:?}"),
            "outcomes": per_frame * frames_per_chunk * chunks,
            "worst_chunk_median_frame_ms": median,
            "chunk_median_frame_ms": medians,
            "fold_only_median_ms": b.median_ms,
            "frame_vs_fold_only_ratio": median / b.median_ms.max(1e-6),
            "rss_mib": rss,
        }));
        written = app.data.map(|d| d.run);
    }
    let open = match written {
        Some(run) => open_cost(run)?,
        None => serde_json::Value::Null,
    };
    let big = if a.open_answers > 0 {
        big_run(&tmp.0.join("big"), a.open_answers)?
    } else {
        serde_json::Value::Null
    };
    if a.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({
                "outcomes_per_s": a.outcomes_per_s,
                "screens": rows,
                "open_recorded_run": open,
                "big_run": big,
            }))?
        );
    } else {
        println!(
            "{} outcomes/s for {} s per screen, drawn at 120x40 every 50 ms frame:",
            a.outcomes_per_s, a.seconds
        );
        for r in &rows {
            let rss: Vec<String> = r["rss_mib"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| format!("{:.0}", v.as_f64().unwrap()))
                .collect();
            println!(
                "{:<9} median frame {:>6.2} ms (worst of {chunks} chunks; fold only {:.2} ms, {:.1}x)  RSS MiB over time: {}",
                r["screen"].as_str().unwrap(),
                r["worst_chunk_median_frame_ms"].as_f64().unwrap(),
                r["fold_only_median_ms"].as_f64().unwrap(),
                r["frame_vs_fold_only_ratio"].as_f64().unwrap(),
                rss.join(" → ")
            );
        }
        if !big.is_null() {
            println!(
                "a recorded run of {} answers: opened in {:.2} s, +{:.0} MiB (every record in memory: {:.2} s, +{:.0} MiB); followed at 10,000 answers/s, Heatmaps drawn: median frame {:.2} ms, p99 {:.2} ms, max {:.2} ms; RSS {:.0} MiB while followed",
                big["open"]["answers"],
                big["open"]["rows_on_disk_s"].as_f64().unwrap_or(0.0),
                big["open"]["rows_on_disk_mib"].as_f64().unwrap_or(0.0),
                big["open"]["all_records_s"].as_f64().unwrap_or(0.0),
                big["open"]["all_records_mib"].as_f64().unwrap_or(0.0),
                big["median_frame_ms"].as_f64().unwrap_or(0.0),
                big["p99_frame_ms"].as_f64().unwrap_or(0.0),
                big["max_frame_ms"].as_f64().unwrap_or(0.0),
                big["rss_mib"].as_f64().unwrap_or(0.0),
            );
        }
        if !open.is_null() {
            println!(
                "opening a recorded run of {} answers: rows on disk {:.2} s, +{:.0} MiB; every record in memory, as before (baseline) {:.2} s, +{:.0} MiB",
                open["answers"],
                open["rows_on_disk_s"].as_f64().unwrap_or(0.0),
                open["rows_on_disk_mib"].as_f64().unwrap_or(0.0),
                open["all_records_s"].as_f64().unwrap_or(0.0),
                open["all_records_mib"].as_f64().unwrap_or(0.0),
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A recorded run of `answers` yes/no answers under `dir`: what opening it costs (and the
/// baseline, every record in memory), then the frame times of Heatmaps while it is followed
/// and 10,000 answers a second are appended to it (500 a 50 ms frame, for 200 frames).
fn big_run(dir: &std::path::Path, answers: usize) -> anyhow::Result<serde_json::Value> {
    std::fs::create_dir_all(dir)?;
    let id = super::report::write_run(dir, answers)?;
    let run = kgscope::store::RunDir::open(dir, &id)?;
    let (_, sample) = sample_records(&dir.join("sample"))?;
    // The run as `--run` opens it, then followed; the baseline last, so the memory it takes
    // and frees cannot hide in these figures.
    let (before, t) = (rss_mib(), std::time::Instant::now());
    let data = RunData::open(run.clone(), run.read_manifest()?)?;
    let (open_s, open_mib) = (t.elapsed().as_secs_f64(), rss_mib() - before);
    let mut app = App::new(Theme::default(), "sample:countries", None);
    app.open_run(data);
    let s = frame_times(
        &mut app,
        &sample,
        answers,
        500,
        200,
        Screen::Heatmaps,
        (120, 40),
        true,
    );
    let rss_following = rss_mib();
    drop(app);
    let (all_s, all_mib, _) = all_in_memory(&run)?;
    Ok(serde_json::json!({
        "open": {
            "answers": answers,
            "rows_on_disk_s": open_s,
            "rows_on_disk_mib": open_mib,
            "all_records_s": all_s,
            "all_records_mib": all_mib,
        },
        "median_frame_ms": s.median_ms,
        "p99_frame_ms": s.p99_ms,
        "max_frame_ms": s.max_ms,
        "rss_mib": rss_following,
    }))
}

/// The baseline: every record of `run` read into memory, then folded into the aggregates, as
/// the TUI used to open a run. Seconds, MiB it added, records.
fn all_in_memory(run: &kgscope::store::RunDir) -> anyhow::Result<(f64, f64, usize)> {
    let (before, t) = (rss_mib(), std::time::Instant::now());
    let all: Vec<ResultRecord> = run.read_results()?;
    let mut tally = kgscope::report::Tally::default();
    for r in &all {
        tally.add(r);
    }
    Ok((t.elapsed().as_secs_f64(), rss_mib() - before, all.len()))
}

/// Time and resident memory to open `run` as `kgscope tui --run` does, and, as the baseline
/// in the same process, as it used to: every record read into memory, then folded into the
/// aggregates. Rows first: memory it frees can be reused by the baseline, which can only make
/// the baseline look cheaper.
fn open_cost(run: kgscope::store::RunDir) -> anyhow::Result<serde_json::Value> {
    let manifest = run.read_manifest()?;
    let (before, t) = (rss_mib(), std::time::Instant::now());
    let data = RunData::open(run.clone(), manifest)?;
    let (rows_s, rows_mib) = (t.elapsed().as_secs_f64(), rss_mib() - before);
    let answers = data.tally.answered;
    drop(data);
    let (all_s, all_mib, n) = all_in_memory(&run)?;
    anyhow::ensure!(n as u64 == answers, "the two reads disagree");
    Ok(serde_json::json!({
        "answers": answers,
        "rows_on_disk_s": rows_s,
        "rows_on_disk_mib": rows_mib,
        "all_records_s": all_s,
        "all_records_mib": all_mib,
    }))
}

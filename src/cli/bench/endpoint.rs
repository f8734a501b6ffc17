//! `kgscope bench endpoint`: the first questions of a run of each method (statement, yesno,
//! mcq-wh, KGLens from a hub, KG-FPQ) against a big KG served by a real `oxigraph
//! serve-read-only` on 127.0.0.1, drawn with bounded queries (`--kg-sample`): wall time, peak
//! resident memory and SPARQL requests, the first time (one answer cache for every method, as
//! a user's runs share it) and again. The baselines, in the same command: reading the whole KG
//! from the same endpoint into memory (what every run did before `--kg-sample`); the same KG as
//! a local store, scanned (the build before indexes were saved), opened the first time (scan
//! and save) and reopened (the saved index), and each method on it whole. Each measurement is
//! a process of its own (its peak memory from wait4).
//!
//! The KG is synthetic with a realistic shape: power-law out-degrees and preferential objects,
//! one to three types per entity, labels, aliases for a third of the entities, dates and
//! numbers as literals.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use rand::{Rng, SeedableRng};

use kgscope::questions::Task;
use kgscope::run::config::{ModelSpec, RunConfig};
use kgscope::run::session;

#[derive(Args)]
pub struct EndpointBenchArgs {
    /// Triples in the synthetic KG.
    #[arg(long, default_value_t = 1_000_000)]
    pub triples: u64,
    /// Questions per method.
    #[arg(long, default_value_t = 100)]
    pub questions: usize,
    /// Facts drawn per relation (`--kg-sample`).
    #[arg(long, default_value_t = 8)]
    pub per_relation: usize,
    /// The oxigraph CLI [default: $KGSCOPE_OXIGRAPH, else `oxigraph` on PATH, else the one
    /// `tools/setup.sh` installs].
    #[arg(long)]
    pub oxigraph: Option<PathBuf>,
    /// Working directory [default: a fresh temporary directory, removed afterwards].
    #[arg(long)]
    pub dir: Option<PathBuf>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
    /// (A measurement's own process: generate with METHOD, or `index` to read the KG only)
    /// [default: run the benchmark]
    #[arg(long, hide = true, value_name = "METHOD")]
    pub one: Option<String>,
    /// (With --one: the KG) [default: none]
    #[arg(long, hide = true)]
    pub kg: Option<String>,
    /// (With --one: how the KG is read)
    #[arg(long, hide = true, value_enum, default_value_t = Read::Sample)]
    pub read: Read,
}

const NS: &str = "https://kgscope.dev/kg/bench/";

/// The central entity of the KGLens measurement: low ids are the hubs of [`realistic_kg`].
const KGLENS_CENTRE: u64 = 5;

/// Writes the synthetic KG as N-Triples; returns its triple count.
fn realistic_kg(path: &Path, triples: u64) -> anyhow::Result<u64> {
    const RELATIONS: u64 = 40;
    const CLASSES: u64 = 30;
    let mut w = BufWriter::new(
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?,
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let label = "<http://www.w3.org/2000/01/rdf-schema#label>";
    let alias = "<http://www.w3.org/2004/02/skos/core#altLabel>";
    let typ = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
    let date = "<http://www.w3.org/2001/XMLSchema#date>";
    let mut n = 0u64;
    for r in 0..RELATIONS {
        writeln!(w, "<{NS}prop/r{r}> {label} \"relation {r}\"@en .")?;
        n += 1;
    }
    writeln!(w, "<{NS}prop/born> {label} \"date of founding\"@en .")?;
    writeln!(w, "<{NS}prop/size> {label} \"size\"@en .")?;
    for c in 0..CLASSES {
        writeln!(w, "<{NS}class/C{c}> {label} \"class {c}\"@en .")?;
        n += 1;
    }
    // About 9 triples an entity on average.
    let entities = (triples / 9).max(10);
    let mut e = 0u64;
    while n < triples {
        let id = e % entities;
        e += 1;
        writeln!(w, "<{NS}entity/E{id}> {label} \"entity {id}\"@en .")?;
        n += 1;
        if id.is_multiple_of(3) {
            writeln!(w, "<{NS}entity/E{id}> {alias} \"E-{id}\"@en .")?;
            n += 1;
        }
        for k in 0..1 + id % 3 {
            writeln!(
                w,
                "<{NS}entity/E{id}> {typ} <{NS}class/C{}> .",
                (id + 7 * k) % CLASSES
            )?;
            n += 1;
        }
        if id % 3 == 1 {
            let (y, m, d) = (1800 + id % 220, 1 + id % 12, 1 + id % 28);
            writeln!(
                w,
                "<{NS}entity/E{id}> <{NS}prop/born> \"{y}-{m:02}-{d:02}\"^^{date} ."
            )?;
            writeln!(w, "<{NS}entity/E{id}> <{NS}prop/size> \"{}\"^^<http://www.w3.org/2001/XMLSchema#integer> .", id % 9973)?;
            n += 2;
        }
        // Power-law out-degree (Pareto, α ≈ 1.5, capped), objects preferential (cubic skew).
        let degree = ((1.0 - rng.random::<f64>()).powf(-1.0 / 1.5)).min(200.0) as u64 + 1;
        for _ in 0..degree {
            let r = (RELATIONS as f64 * rng.random::<f64>().powi(2)) as u64;
            let o = (entities as f64 * rng.random::<f64>().powi(3)) as u64;
            writeln!(w, "<{NS}entity/E{id}> <{NS}prop/r{r}> <{NS}entity/E{o}> .")?;
            n += 1;
        }
    }
    w.flush()?;
    Ok(n)
}

/// The oxigraph CLI: `given`, else $KGSCOPE_OXIGRAPH, else `oxigraph` on PATH, else the one
/// `tools/setup.sh` installs.
pub(super) fn oxigraph_cli(given: Option<&Path>) -> PathBuf {
    if let Some(p) = given {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os("KGSCOPE_OXIGRAPH") {
        return p.into();
    }
    let venv = kgscope::backends::spec::kgscope_home().join("venv/bin/oxigraph");
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join("oxigraph").is_file()))
        .unwrap_or(false);
    if !on_path && venv.is_file() {
        venv
    } else {
        "oxigraph".into()
    }
}

/// How a measurement reads the KG.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Read {
    /// A sample drawn with bounded queries (`--kg-sample`).
    Sample,
    /// Whole, as `--kg` without `--kg-sample` does (a store: its saved index when there is one).
    Whole,
    /// Whole, from a scan of the store, never from a saved index (the build before indexes
    /// were saved).
    Scan,
}

/// `oxigraph load` of `file` into a new store at `store`, by the CLI `oxigraph`: its seconds.
pub(super) fn oxigraph_load(oxigraph: &Path, store: &Path, file: &Path) -> anyhow::Result<f64> {
    let t = Instant::now();
    let status = Command::new(oxigraph)
        .args(["load", "--location"])
        .arg(store)
        .arg("--file")
        .arg(file)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .with_context(|| format!("running {}", oxigraph.display()))?;
    anyhow::ensure!(status.success(), "oxigraph load failed");
    Ok(t.elapsed().as_secs_f64())
}

/// One measurement's own process: read the KG as `read` says and make `method`'s first
/// questions (`index`: only read the KG), and print what it cost in requests.
fn one(method: &str, read: Read, kg: &str, a: &EndpointBenchArgs) -> anyhow::Result<ExitCode> {
    let t = Instant::now();
    let opened = kgscope::kg::open(kg)?;
    let task = Task::ALL.into_iter().find(|t| t.as_str() == method);
    anyhow::ensure!(task.is_some() || method == "index", "no method {method}");
    let mut cfg = RunConfig::new(
        kg,
        ModelSpec::Llama {
            path: kgscope::run::config::default_model_path(),
        },
        task.unwrap_or(Task::Statement),
        a.questions,
    );
    cfg.seed = 1;
    cfg.kg_sample = (read == Read::Sample).then_some(a.per_relation);
    if cfg.kglens.is_some() {
        // A walk from a central entity, as KGLens evaluates: one of the KG's hubs.
        cfg.entities = vec![format!("{NS}entity/E{KGLENS_CENTRE}")];
    }
    let index = match read {
        Read::Sample => {
            let draw = cfg.draw().expect("a sample is drawn");
            kgscope::kg::bounded::build(opened.as_ref(), &draw, &|_| {})?
        }
        Read::Whole => {
            // What is measured is the whole read, which an endpoint gets only when asked.
            kgscope::kg::bounded::set_whole(true);
            kgscope::kg::KgIndex::build(opened.as_ref(), &|_| {})?
        }
        Read::Scan => kgscope::kg::KgIndex::build_fresh(opened.as_ref(), &|_| {})?,
    };
    let items = match task {
        Some(_) => session::first_questions(&cfg, &index, &|_| {})?.len(),
        None => index.facts().len(),
    };
    println!(
        "{}",
        serde_json::json!({
            "items": items,
            "requests": opened.requests(),
            "seconds": t.elapsed().as_secs_f64(),
        })
    );
    Ok(ExitCode::SUCCESS)
}

/// The methods measured, each on the first questions a run of it asks.
const METHODS: [&str; 5] = ["statement", "yesno", "mcq-wh", "kglens", "kg-fpq"];

pub fn run(a: EndpointBenchArgs) -> anyhow::Result<ExitCode> {
    if let (Some(method), Some(kg)) = (&a.one, &a.kg) {
        return one(method, a.read, kg, &a);
    }
    let _tmp;
    let dir = match &a.dir {
        Some(d) => d.clone(),
        None => {
            _tmp = super::tempdir()?;
            _tmp.0.clone()
        }
    };
    std::fs::create_dir_all(&dir)?;
    let nt = dir.join("kg.nt");
    let t = Instant::now();
    let n = realistic_kg(&nt, a.triples)?;
    eprintln!("wrote {n} triples in {:.1} s", t.elapsed().as_secs_f64());
    let store = dir.join("store");
    let oxigraph = oxigraph_cli(a.oxigraph.as_deref());
    let load_s = oxigraph_load(&oxigraph, &store, &nt)?;
    eprintln!("oxigraph load: {load_s:.1} s");
    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let mut serve = Command::new(&oxigraph);
    serve
        .args(["serve-read-only", "--location"])
        .arg(&store)
        .args(["--bind", &format!("127.0.0.1:{port}")]);
    let mut server = kgscope::process::Server::spawn(&mut serve, &dir.join("server.log"))?;
    let base = format!("http://127.0.0.1:{port}");
    server.wait_ready(
        &format!("{base}/query?query=ASK%7B%7D"),
        Duration::from_secs(120),
    )?;
    let endpoint = format!("{base}/query");
    let exe = std::env::current_exe()?;
    let measure =
        |what: &str, read: &str, kg: &str, cache: &Path| -> anyhow::Result<serde_json::Value> {
            let mut c = Command::new(&exe);
            c.args([
                "bench", "endpoint", "--one", what, "--read", read, "--kg", kg,
            ])
            .args(["--per-relation", &a.per_relation.to_string()])
            .args(["--questions", &a.questions.to_string()])
            .arg("--sparql-cache")
            .arg(cache);
            let (secs, rss, out) = super::measure(&mut c)?;
            let mut v: serde_json::Value = serde_json::from_str(out.trim())
                .with_context(|| format!("reading what the {what} measurement said: {out}"))?;
            v["wall_seconds"] = serde_json::json!(secs);
            v["peak_rss_mib"] = serde_json::json!(rss);
            Ok(v)
        };
    let mut rows = Vec::new();
    let mut push = |source: &str, what: &str, pass: &str, v: serde_json::Value| {
        eprintln!(
            "{source:<9} {what:<10} {pass:<22} {:>7.1} s {:>7.0} MiB {:>6} requests {:>8} items",
            v["wall_seconds"].as_f64().unwrap_or(0.0),
            v["peak_rss_mib"].as_f64().unwrap_or(0.0),
            v["requests"].as_u64().map_or("-".into(), |r| r.to_string()),
            v["items"]
        );
        let mut row = v;
        row["source"] = source.into();
        row["what"] = what.into();
        row["pass"] = pass.into();
        rows.push(row);
    };
    // One answer cache for every method, as a user's runs share it: the first method pays
    // for the draw they all start from; each method's own queries (KGLens' walk, KG-FPQ's
    // neighbourhoods) are sent the first time it runs.
    let cache = dir.join("sparql-cache");
    for method in METHODS {
        push(
            "endpoint",
            method,
            "sample, first",
            measure(method, "sample", &endpoint, &cache)?,
        );
        push(
            "endpoint",
            method,
            "sample, again",
            measure(method, "sample", &endpoint, &cache)?,
        );
    }
    // The baseline: the KG read whole from the endpoint (every run did before --kg-sample).
    let none = dir.join("cache-none");
    push(
        "endpoint",
        "index",
        "whole",
        measure("index", "whole", &endpoint, &none)?,
    );
    // The same KG as a local store: today's build (a scan), the first open (scan and save),
    // the reopen (the saved index), then each method on the whole KG.
    let store_kg = store.to_string_lossy().into_owned();
    if let Some(slot) = kgscope::kg::index_file::Slot::for_store(&store) {
        let _ = std::fs::remove_file(&slot.path);
    }
    for (pass, read) in [
        ("scan, nothing saved", "scan"),
        ("first open: scan, save", "whole"),
        ("reopen: saved index", "whole"),
    ] {
        push(
            "store",
            "index",
            pass,
            measure("index", read, &store_kg, &none)?,
        );
    }
    for method in METHODS {
        push(
            "store",
            method,
            "whole, saved index",
            measure(method, "whole", &store_kg, &none)?,
        );
    }
    drop(server);
    let out = serde_json::json!({
        "triples": n,
        "oxigraph_load_seconds": load_s,
        "questions_per_method": a.questions,
        "per_relation": a.per_relation,
        "kglens": format!("first iteration, walking from entity E{KGLENS_CENTRE}"),
        "kg-fpq": "true-premise questions (the first batch), neighbourhoods drawn to 5 hops",
        "rows": rows,
    });
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "{n} triples; {} questions per method, {} facts drawn per relation",
            a.questions, a.per_relation
        );
        for r in out["rows"].as_array().into_iter().flatten() {
            println!(
                "{:<9} {:<10} {:<22} {:>7.1} s {:>7.0} MiB peak {:>6} requests",
                r["source"].as_str().unwrap_or(""),
                r["what"].as_str().unwrap_or(""),
                r["pass"].as_str().unwrap_or(""),
                r["wall_seconds"].as_f64().unwrap_or(0.0),
                r["peak_rss_mib"].as_f64().unwrap_or(0.0),
                r["requests"].as_u64().map_or("-".into(), |r| r.to_string()),
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

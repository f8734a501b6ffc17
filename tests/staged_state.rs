//! The state a staged run resumes from, corrupted: KGLens' `kglens.json` (posterior, counters,
//! history) and KG-FPQ's `results.jsonl` (which stage it reached, which premises the model
//! knew). Every variant is refused by the real binary with exit 1, a message naming the file and
//! what is wrong, and the run left byte for byte as it was; then the state files are fuzzed,
//! in process and through `run --resume`, for panics.

use crate::common;

use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use kgscope::run::kglens::{KglensRun, KglensState};
use kgscope::run::{Manifest, ResultRecord};
use kgscope::verify::OutcomeKind;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A loopback model that answers `text` while it has answers left, and refuses every later
/// request with HTTP 401 (which stops a run at once, all answers so far kept). The URL stays
/// the same for a resume: a run may only resume against the server it started with.
struct Model {
    url: String,
    left: Arc<AtomicUsize>,
}

impl Model {
    fn answering(text: &'static str, answers: usize) -> Model {
        let left = Arc::new(AtomicUsize::new(answers));
        let budget = left.clone();
        let url = common::handler_server(move |_, stream, _| {
            let more = budget
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok();
            let reply = if more {
                common::sse_completion(&[text], 1)
            } else {
                common::http("401 Unauthorized", "", "no")
            };
            let _ = stream.write_all(reply.as_bytes());
        })
        .base;
        Model { url, left }
    }

    /// From now on, answers everything.
    fn unlimited(&self) -> &str {
        self.left.store(usize::MAX, Ordering::SeqCst);
        &self.url
    }
}

const KGLENS: [&str; 18] = [
    "--model",
    "openai:m",
    "--kg",
    "sample:countries",
    "--method",
    "kglens",
    "--entity",
    "France",
    "--walk-steps",
    "2",
    "--iterations",
    "4",
    "--batch",
    "4",
    "--converge-tolerance",
    "0",
    "--concurrency",
    "1",
];

fn run(args: &[&str], base_url: &str, runs: &Path) -> Output {
    common::bin()
        .arg("run")
        .args(args)
        .args(["--base-url", base_url, "--runs-dir"])
        .arg(runs)
        .env_remove("OPENAI_API_KEY")
        .env_remove("KGSCOPE_BASE_URL")
        .output()
        .unwrap()
}

fn resume(dir: &Path, base_url: &str) -> Output {
    let id = dir.file_name().unwrap().to_str().unwrap();
    run(&["--resume", id], base_url, dir.parent().unwrap())
}

fn state_of(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("kglens.json")).unwrap()).unwrap()
}

/// A KGLens run of 4 iterations of 4 questions, stopped after 10 answers: 2 iterations done
/// and 2 questions of the third on record.
fn interrupted_kglens(runs: &Path, model: &Model) -> PathBuf {
    let out = run(&KGLENS, &model.url, runs);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("resume with"), "{}", text(&out));
    let dir = common::only_run(runs).unwrap();
    assert_eq!(state_of(&dir)["iterations_done"], 2);
    let lines = std::fs::read_to_string(dir.join("results.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 10);
    dir
}

/// A corrupted kglens.json: what it does to the saved state, and a word the refusal must say.
type Corruption = (&'static str, fn(&mut Value), &'static str);

fn posterior(v: &mut Value, which: &str) -> Vec<Value> {
    v["posterior"][which].as_array().unwrap().clone()
}

const CORRUPTIONS: &[Corruption] = &[
    (
        "α one short",
        |v| {
            let mut a = posterior(v, "alpha");
            a.pop();
            v["posterior"]["alpha"] = a.into();
        },
        "α and",
    ),
    (
        "β empty",
        |v| v["posterior"]["beta"] = Value::Array(vec![]),
        "α and",
    ),
    (
        "α zero",
        |v| v["posterior"]["alpha"][0] = 0.into(),
        "edge 0 has α = 0",
    ),
    (
        "α negative",
        |v| v["posterior"]["alpha"][3] = (-2.5).into(),
        "edge 3 has α = -2.5",
    ),
    (
        "β below the prior",
        |v| v["posterior"]["beta"][1] = 0.25.into(),
        "at least",
    ),
    (
        "α null",
        |v| v["posterior"]["alpha"][2] = Value::Null,
        "not a KGLens state file",
    ),
    (
        "counters and history reset",
        |v| {
            v["iterations_done"] = 0.into();
            v["history"] = Value::Array(vec![]);
        },
        "or was reset",
    ),
    (
        "counter reset",
        |v| v["iterations_done"] = 0.into(),
        "history has",
    ),
    (
        "counter ahead",
        |v| {
            v["iterations_done"] = 3.into();
            let mut h = v["history"].as_array().unwrap().clone();
            let mut third = h[1].clone();
            third["iteration"] = 3.into();
            h.push(third);
            v["history"] = h.into();
        },
        "results.jsonl holds 2",
    ),
    (
        "past the last iteration",
        |v| v["iterations_done"] = 9.into(),
        "of a run of 4",
    ),
    (
        "converged in the future",
        |v| v["converged_at"] = 7.into(),
        "converged after iteration 7",
    ),
    (
        "another subgraph",
        |v| v["edges"] = 3.into(),
        "another subgraph",
    ),
    (
        "rates out of range",
        |v| v["history"][0]["win_rate"] = 7.into(),
        "history entry 1",
    ),
];

#[test]
fn a_corrupted_kglens_state_is_refused_and_the_run_left_as_it_was() {
    let runs = tempfile::tempdir().unwrap();
    let model = Model::answering("Paris", 10);
    let dir = interrupted_kglens(runs.path(), &model);
    let good = std::fs::read(dir.join("kglens.json")).unwrap();
    let answers = model.unlimited();
    let mut refused = 0;
    let mut check = |name: &str, bytes: &[u8], says: &str| {
        std::fs::write(dir.join("kglens.json"), bytes).unwrap();
        let before = common::files(&dir);
        let out = resume(&dir, answers);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {said}");
        assert!(
            said.contains(&dir.join("kglens.json").display().to_string()) && said.contains(says),
            "{name}: {said}"
        );
        assert!(said.contains("move kglens.json aside"), "{name}: {said}");
        assert!(!said.contains("panicked"), "{name}: {said}");
        assert_eq!(
            common::changed(&before, &common::files(&dir)),
            Vec::<String>::new(),
            "{name}: the refused resume changed the run"
        );
        refused += 1;
    };
    for (name, corrupt, says) in CORRUPTIONS {
        let mut v: Value = serde_json::from_slice(&good).unwrap();
        corrupt(&mut v);
        check(name, &serde_json::to_vec_pretty(&v).unwrap(), says);
    }
    // Torn: cut anywhere, or empty.
    check(
        "torn in half",
        &good[..good.len() / 2],
        "not a KGLens state file",
    );
    check("empty", b"", "not a KGLens state file");
    assert_eq!(refused, CORRUPTIONS.len() + 2);

    // As the refusal says: with the state moved aside, the resume rebuilds it from the answers
    // on record and ends where an uninterrupted run ends.
    std::fs::remove_file(dir.join("kglens.json")).unwrap();
    let out = resume(&dir, answers);
    assert!(out.status.success(), "{}", text(&out));
    let whole = tempfile::tempdir().unwrap();
    let out = run(&KGLENS, answers, whole.path());
    assert!(out.status.success(), "{}", text(&out));
    let reference = state_of(&common::only_run(whole.path()).unwrap());
    let rebuilt = state_of(&dir);
    assert_eq!(rebuilt["iterations_done"], 4);
    assert_eq!(rebuilt["posterior"], reference["posterior"]);
    assert_eq!(rebuilt["history"], reference["history"]);
}

/// KG-FPQ's staged state is its answers: records that belong to no fact of the run, or a
/// false-premise question the gate would never have asked, are refused.
#[test]
fn kg_fpq_answers_the_gate_could_not_have_let_through_are_refused() {
    let runs = tempfile::tempdir().unwrap();
    let model = Model::answering("Yes", usize::MAX);
    let answers = model.url.as_str();
    let args = [
        "--model",
        "openai:m",
        "--kg",
        "sample:countries",
        "--method",
        "kg-fpq",
        "--limit",
        "3",
        "--concurrency",
        "1",
    ];
    let out = run(&args, answers, runs.path());
    assert!(out.status.success(), "{}", text(&out));
    let dir = common::only_run(runs.path()).unwrap();
    let path = dir.join("results.jsonl");
    let good = std::fs::read_to_string(&path).unwrap();
    let records: Vec<Value> = good
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let is_tpq = |r: &Value| r["question"]["premise"]["edit"].is_null();
    let fpq = records
        .iter()
        .find(|r| !is_tpq(r))
        .expect("a false premise was asked");
    let its_tpq = fpq["question"]["premise"]["tpq_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(records
        .iter()
        .any(|r| r["question"]["id"] == its_tpq.as_str() && r["verdict"] == "true"));

    // A resume of the run as it is goes through.
    let out = resume(&dir, answers);
    assert!(out.status.success(), "{}", text(&out));

    let tampered = |change: &dyn Fn(&mut Value) -> bool| -> String {
        records
            .iter()
            .map(|r| {
                let mut r = r.clone();
                change(&mut r);
                format!("{r}\n")
            })
            .collect()
    };
    let variants: Vec<(&str, String, &str)> = vec![
        (
            "the true premise denied",
            tampered(&|r| {
                (r["question"]["id"] == its_tpq.as_str())
                    .then(|| r["verdict"] = "false".into())
                    .is_some()
            }),
            "the gate never asks it",
        ),
        (
            "the true premise missing",
            records
                .iter()
                .filter(|r| r["question"]["id"] != its_tpq.as_str())
                .map(|r| format!("{r}\n"))
                .collect(),
            "the gate never asks it",
        ),
        (
            "a record of another run",
            tampered(&|r| {
                if is_tpq(r) {
                    return false;
                }
                r["question"]["premise"]["tpq_id"] = "elsewhere".into();
                true
            }),
            "is about none of this run's 3 facts",
        ),
    ];
    for (name, content, says) in variants {
        std::fs::write(&path, &content).unwrap();
        let before = common::files(&dir);
        let out = resume(&dir, answers);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(1), "{name}: {said}");
        assert!(
            said.contains(&path.display().to_string()) && said.contains(says),
            "{name}: {said}"
        );
        assert_eq!(
            common::changed(&before, &common::files(&dir)),
            Vec::<String>::new(),
            "{name}"
        );
    }
}

/// One random change to a JSON document: a number made 0, negative, huge, fractional or
/// another integer; an array shortened, emptied or grown; a key removed; a value nulled.
fn mutate_json(v: &mut Value, rng: &mut ChaCha8Rng) {
    // Every value's path, then one of them picked.
    fn paths(v: &Value, at: Vec<Value>, out: &mut Vec<Vec<Value>>) {
        out.push(at.clone());
        match v {
            Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
                let mut p = at.clone();
                p.push(i.into());
                paths(x, p, out)
            }),
            Value::Object(o) => o.iter().for_each(|(k, x)| {
                let mut p = at.clone();
                p.push(k.clone().into());
                paths(x, p, out)
            }),
            _ => {}
        }
    }
    let mut all = vec![];
    paths(v, vec![], &mut all);
    let path = &all[rng.random_range(0..all.len())];
    let mut target = &mut *v;
    for step in path {
        target = match step {
            Value::Number(i) => &mut target[i.as_u64().unwrap() as usize],
            Value::String(k) => &mut target[k.as_str()],
            _ => unreachable!(),
        };
    }
    let numbers: [Value; 7] = [
        0.into(),
        (-1).into(),
        (-0.5).into(),
        1e308.into(),
        u64::MAX.into(),
        rng.random_range(0..200).into(),
        rng.random_range(0.0..3.0).into(),
    ];
    match (target, rng.random_range(0..4)) {
        (Value::Array(a), 0) if !a.is_empty() => {
            a.truncate(rng.random_range(0..a.len()));
        }
        (Value::Array(a), 1) if !a.is_empty() => {
            let x = a[rng.random_range(0..a.len())].clone();
            a.push(x);
        }
        (Value::Object(o), 0) if !o.is_empty() => {
            let k = o.keys().nth(rng.random_range(0..o.len())).unwrap().clone();
            o.remove(&k);
        }
        (t, 3) => *t = Value::Null,
        (t, _) => *t = numbers[rng.random_range(0..numbers.len())].clone(),
    }
}

/// One random change to a file's bytes: cut, a byte flipped, a byte put in.
fn mutate_bytes(b: &mut Vec<u8>, rng: &mut ChaCha8Rng) {
    let at = rng.random_range(0..b.len().max(1));
    match rng.random_range(0..3) {
        0 => b.truncate(at),
        1 if !b.is_empty() => b[at] ^= 1 << rng.random_range(0..8),
        _ => b.insert(at, rng.random()),
    }
}

fn mutated(good: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut v: Value = serde_json::from_slice(good).unwrap();
    if rng.random_bool(0.8) {
        for _ in 0..rng.random_range(1..=3) {
            mutate_json(&mut v, rng);
        }
        serde_json::to_vec_pretty(&v).unwrap()
    } else {
        let mut b = good.to_vec();
        mutate_bytes(&mut b, rng);
        b
    }
}

/// kglens.json and the iteration numbers of results.jsonl, mutated at random: in process
/// (read, validate, and for a state that passes, draw and fold an iteration) and through the
/// real binary's `run --resume`. Nothing panics; whatever is refused leaves the run unchanged.
#[test]
fn fuzzed_staged_state_never_panics_a_resume() {
    let runs = tempfile::tempdir().unwrap();
    let model = Model::answering("Paris", 10);
    let dir = interrupted_kglens(runs.path(), &model);
    let good = std::fs::read(dir.join("kglens.json")).unwrap();
    let manifest: Manifest =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let done: Vec<ResultRecord> = std::fs::read_to_string(dir.join("results.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (_kg, index) = common::indexed("sample:countries");
    let cfg = manifest.config.clone();
    let fresh = || {
        KglensRun::new(
            &index,
            cfg.kglens.clone().unwrap(),
            &cfg.entities,
            &cfg.relations,
            cfg.seed,
        )
        .unwrap()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    let (mut executions, mut panics, mut accepted, mut unreadable, mut checked) = (0, 0, 0, 0, 0);
    const IN_PROCESS: usize = 4000;
    for i in 0..IN_PROCESS {
        let bytes = mutated(&good, &mut rng);
        // Every fourth execution also moves the answers' iterations and edges.
        let mut records = done.clone();
        if i % 4 == 0 {
            let r = &mut records[rng.random_range(0..done.len())];
            if let Some(p) = r.question.probe.as_mut() {
                match rng.random_range(0..3) {
                    0 => p.iteration = rng.random_range(0..8),
                    1 => p.edge = rng.random_range(0..u32::MAX),
                    _ => r.question.probe = None,
                }
            }
        }
        executions += 1;
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
            let Ok(state) = serde_json::from_slice::<KglensState>(&bytes) else {
                return None;
            };
            let mut run = fresh();
            if run.restore(state, &records).is_err() {
                return Some(false);
            }
            // A state that passes can be run on: draw the next iteration and fold it in.
            if !run.is_over() {
                let edges = run.draw();
                let next: Vec<ResultRecord> = edges
                    .iter()
                    .map(|&j| {
                        let mut r = done[0].clone();
                        r.question.probe = Some(kgscope::questions::Probe {
                            iteration: run.next_iteration(),
                            edge: j as u32,
                        });
                        r.outcome = OutcomeKind::Incorrect;
                        r
                    })
                    .collect();
                run.finish_iteration(&next.iter().collect::<Vec<_>>());
                run.weakest(&index, 5);
            }
            Some(true)
        }));
        match outcome {
            Err(_) => panics += 1,
            Ok(None) => unreadable += 1,
            Ok(Some(true)) => accepted += 1,
            Ok(Some(false)) => checked += 1,
        }
    }
    assert_eq!(
        panics, 0,
        "{panics} of {executions} mutated states panicked"
    );
    // The mutations reach the checks (not only the JSON parser), and the checks are not
    // so strict that a harmless change (a weakest-edge label, a 'since') is refused.
    assert!(
        checked > IN_PROCESS / 5,
        "{checked} refused by the checks, {unreadable} unreadable"
    );
    assert!(
        accepted > 0 && accepted < IN_PROCESS / 4,
        "{accepted} accepted"
    );

    // Through the binary: each mutant on a copy of the run, resumed against a model that
    // answers everything.
    let answers = model.unlimited();
    let (mut via_binary, mut refused, mut resumed) = (0, 0, 0);
    for _ in 0..60 {
        let copy = tempfile::tempdir().unwrap();
        let run_copy = copy.path().join(dir.file_name().unwrap());
        std::fs::create_dir(&run_copy).unwrap();
        for f in ["manifest.json", "results.jsonl", "writer.lock"] {
            std::fs::copy(dir.join(f), run_copy.join(f)).unwrap();
        }
        std::fs::write(run_copy.join("kglens.json"), mutated(&good, &mut rng)).unwrap();
        let before = common::files(&run_copy);
        let out = resume(&run_copy, answers);
        via_binary += 1;
        let said = text(&out);
        assert!(
            !said.contains("panicked") && out.status.code() != Some(101),
            "{said}"
        );
        match out.status.code() {
            Some(0) => resumed += 1,
            Some(1) => {
                refused += 1;
                assert_eq!(
                    common::changed(&before, &common::files(&run_copy)),
                    Vec::<String>::new(),
                    "a refused resume wrote: {said}"
                );
            }
            c => panic!("exit {c:?}: {said}"),
        }
    }
    eprintln!(
        "staged-state fuzz: {executions} in process ({unreadable} unreadable, {accepted} \
         accepted, {checked} refused by the checks, {panics} panics), {via_binary} through run --resume ({refused} refused, \
         {resumed} resumed, 0 panics)"
    );
    assert!(refused > 0);
}

//! Runs written before schema version 2 (by kgscope at f6ccb70: gold answers as strings, no
//! answer or stage per attempt, no `schema_version`) still open, report and resume, and give
//! the same metrics as the binary that wrote them.
//!
//! `tests/data/legacy-runs/` holds one GraphEval statement run (sample:elements, two negatives
//! per fact, temperature 0.3) and one KGLens yes/no run (sample:nba, temperature 1.5, many
//! invalid answers), each made by the old binary with the default model, beside that binary's
//! `report --json` and `report` output, and the sample:elements file the statement run was made
//! from (`elements-ec4a999.ttl`: the sample has been corrected since).

use crate::common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::Value;

const RUNS: [&str; 2] = [
    "20261124-091613-statement-5bd4",
    "20261124-091545-yesno-9a74",
];

fn fixtures() -> PathBuf {
    common::root().join("tests/data/legacy-runs")
}

/// A copy of the fixture runs in a fresh runs directory (the fixtures stay untouched).
fn copy_runs() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for id in RUNS {
        let to = tmp.path().join(id);
        std::fs::create_dir_all(&to).unwrap();
        for f in ["manifest.json", "results.jsonl"] {
            std::fs::copy(fixtures().join(id).join(f), to.join(f)).unwrap();
        }
    }
    tmp
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn old_runs_report_the_metrics_the_old_binary_reported() {
    let runs = copy_runs();
    let dir = runs.path().to_str().unwrap();
    for id in RUNS {
        let old = json(&fixtures().join(format!("{id}.report.json")));
        let new: Value =
            serde_json::from_str(&common::ok(&["report", id, "--runs-dir", dir, "--json"]))
                .unwrap();
        assert_eq!(new["metrics"], old["metrics"], "{id}: the metrics moved");
        assert_eq!(new["answered"], old["answered"]);
        assert_eq!(new["schema_version"], 1, "{id}");
        assert_eq!(new["decided_by"]["judge"], 0);
        // The table has every line the old one had, in order (and one line more, saying which
        // stage decided).
        let old_text =
            std::fs::read_to_string(fixtures().join(format!("{id}.report.txt"))).unwrap();
        let new_text = common::ok(&["report", id, "--runs-dir", dir]);
        let mut lines = new_text.lines();
        for l in old_text.lines() {
            // A relation's name cut to its 28 columns now ends in "…" where the old binary
            // cut it bare: the one change to the table's text.
            let chars: Vec<char> = l.chars().collect();
            let cut: Option<String> = (chars.len() > 28 && chars[27] != ' ' && chars[28] == ' ')
                .then(|| {
                    chars[..27]
                        .iter()
                        .chain(std::iter::once(&'…'))
                        .chain(&chars[28..])
                        .collect()
                });
            assert!(
                lines.any(|n| n == l || Some(n) == cut.as_deref()),
                "{id}: the new report lacks {l:?} (in order):\n{new_text}"
            );
        }
    }
}

/// An interrupted old run resumes: the questions the new generator makes from the old
/// manifest are the old ones (same ids), the recorded answers are kept as they were, and the
/// rest are asked once.
#[test]
fn an_interrupted_old_run_resumes_with_its_own_questions() {
    let model = PathBuf::from(common::ok(&["model", "path"]).trim());
    assert!(
        model.is_file(),
        "the default model is missing: run tools/setup.sh"
    );
    let runs = copy_runs();
    let id = RUNS[0];
    let run = runs.path().join(id);
    let full = std::fs::read_to_string(run.join("results.jsonl")).unwrap();
    let kept: Vec<&str> = full.lines().take(25).collect();
    std::fs::write(run.join("results.jsonl"), format!("{}\n", kept.join("\n"))).unwrap();
    // The fixture's model path is the machine's it was made on: point it at this one's.
    let mut manifest = json(&run.join("manifest.json"));
    manifest["config"]["model"]["path"] = Value::String(model.to_str().unwrap().into());
    // sample:elements has been corrected since (issue 24): the run resumes on the KG it was
    // made from, kept beside the fixture (same content, same fingerprint).
    manifest["config"]["kg"] = Value::String(
        fixtures()
            .join("elements-ec4a999.ttl")
            .to_str()
            .unwrap()
            .into(),
    );
    std::fs::write(run.join("manifest.json"), manifest.to_string()).unwrap();

    let out = common::run(&[
        "run",
        "--resume",
        id,
        "--runs-dir",
        runs.path().to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = std::fs::read_to_string(run.join("results.jsonl")).unwrap();
    let records: Vec<Value> = after
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 60);
    assert!(
        after.starts_with(&kept.join("\n")),
        "recorded answers changed"
    );
    let ids = |text: &str| -> HashSet<String> {
        text.lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).unwrap()["question"]["id"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    assert_eq!(
        ids(&after),
        ids(&full),
        "the resumed run asked other questions"
    );
    // The new answers are written in the new form, beside the old ones.
    assert!(
        records[59]["attempts"][0]["answer"].is_object(),
        "{}",
        records[59]
    );
    assert!(records[0]["attempts"][0].get("answer").is_none());
    let m = json(&run.join("manifest.json"));
    assert!(m["finished_at"].is_string());
}

/// A run written by a newer kgscope (run format 99, fields this build does not know) is read
/// for reports with a warning, and refused for resume with the version it needs; the refusal
/// leaves every file byte for byte as it was.
#[test]
fn a_run_from_a_newer_format_is_reported_but_never_written() {
    let runs = copy_runs();
    let dir = runs.path().to_str().unwrap();
    let id = RUNS[0];
    let run = runs.path().join(id);
    let mut m = json(&run.join("manifest.json"));
    m["schema_version"] = 99.into();
    m["tool_version"] = "9.9.0".into();
    m["provenance"] = serde_json::json!({"signed_by": "someone"});
    m["config"]["quantum_setting"] = 7.into();
    std::fs::write(
        run.join("manifest.json"),
        serde_json::to_vec_pretty(&m).unwrap(),
    )
    .unwrap();
    let before = common::files(&run);

    let out = common::run(&["run", "--resume", id, "--runs-dir", dir]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("run format 99 by kgscope 9.9.0") && err.contains("format 99 or later"),
        "{err}"
    );
    assert_eq!(
        common::files(&run),
        before,
        "the refused resume changed the run"
    );
    assert!(!run.join("writer.lock").exists(), "the lock was taken");

    let out = common::run(&["report", id, "--runs-dir", dir, "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("run format 99") && err.contains("reports only"),
        "{err}"
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["schema_version"], 99);
    assert_eq!(common::files(&run), before);
}

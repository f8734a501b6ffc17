//! Inputs kgscope refuses, with the real binary: a grouping no run has, a run directory without
//! its manifest, and a run whose results can no longer be written (the file-size limit, as a
//! full disk) still saying what it saved and how to resume, with `--json` too.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn yes_server() -> String {
    common::scripted_server(|_| common::sse_completion(&["True"], 1)).0
}

/// `kgscope run` of `limit` statements on sample:countries against `base_url`.
fn statement_run(
    cmd: &mut Command,
    base_url: &str,
    runs: &Path,
    limit: &str,
    extra: &[&str],
) -> Output {
    cmd.args(["run", "--kg", "sample:countries", "--model", "openai:m"])
        .args([
            "--base-url",
            base_url,
            "--limit",
            limit,
            "--concurrency",
            "1",
        ])
        .args(extra)
        .arg("--runs-dir")
        .arg(runs)
        .env_remove("OPENAI_API_KEY")
        .env_remove("KGSCOPE_BASE_URL")
        .output()
        .unwrap()
}

/// The ids of the runs in `runs`, sorted (oldest first).
fn run_ids(runs: &Path) -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(runs)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    ids
}

/// Two runs of 4 statements on sample:countries against `base`; their ids, oldest first.
fn two_statement_runs(base: &str, runs: &Path) -> Vec<String> {
    for _ in 0..2 {
        let out = statement_run(&mut common::bin(), base, runs, "4", &[]);
        assert!(out.status.success(), "{}", text(&out));
    }
    run_ids(runs)
}

#[test]
fn compare_by_a_grouping_no_run_has_is_refused() {
    let base = yes_server();
    let runs = tempfile::tempdir().unwrap();
    let ids = two_statement_runs(&base, runs.path());
    let dir = runs.path().to_str().unwrap();
    let compare =
        |by: &str| common::run(&["compare", &ids[0], &ids[1], "--runs-dir", dir, "--by", by]);
    let out = compare("relation");
    assert!(out.status.success(), "{}", text(&out));
    let out = compare("nosuchfacet");
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("unknown grouping \"nosuchfacet\"")
            && said.contains("relation, head-type, tail-type"),
        "{said}"
    );
    assert!(
        out.stdout.is_empty(),
        "a refused comparison printed: {said}"
    );
}

/// Two runs that match and a third on another KG: the refusal names the third, not the pair.
#[test]
fn a_comparison_names_the_run_that_shares_no_question() {
    let base = yes_server();
    let runs = tempfile::tempdir().unwrap();
    let ids = two_statement_runs(&base, runs.path());
    let out = common::bin()
        .args(["run", "--kg", "sample:elements", "--model", "openai:m"])
        .args(["--base-url", &base, "--limit", "4", "--concurrency", "1"])
        .arg("--runs-dir")
        .arg(runs.path())
        .env_remove("OPENAI_API_KEY")
        .env_remove("KGSCOPE_BASE_URL")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let third = run_ids(runs.path())
        .into_iter()
        .find(|id| !ids.contains(id))
        .unwrap();
    let dir = runs.path().to_str().unwrap();
    let out = common::run(&["compare", &ids[0], &ids[1], &third, "--runs-dir", dir]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&format!("C ({third}: statement on sample:elements"))
            && said.contains("shares no question with the baseline A"),
        "{said}"
    );
    assert!(!said.contains(&format!("B ({}", ids[1])), "{said}");
}

#[test]
fn a_run_directory_without_its_manifest_is_named_as_such() {
    let runs = tempfile::tempdir().unwrap();
    std::fs::create_dir(runs.path().join("half-made")).unwrap();
    std::fs::create_dir(runs.path().join("other")).unwrap();
    let dir = runs.path().to_str().unwrap();
    let out = common::run(&["report", "half-made", "--runs-dir", dir]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("half-made/manifest.json: no such file")
            && said.contains("is not a kgscope run"),
        "{said}"
    );
    // A wrong id lists the runs there, and a folder that is not a run is not one of them.
    let out = common::run(&["report", "nope", "--runs-dir", dir]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("runs there: none"), "{said}");
}

/// The results file stops growing mid-run (a file-size limit: writes fail with EFBIG, as they
/// fail with ENOSPC on a full disk): the run stops with exit 1, `--json` still prints its
/// summary, stderr says how to resume, and the resume asks every missing question once.
#[test]
fn a_run_that_cannot_write_its_results_says_how_to_resume_with_json_too() {
    let base = yes_server();
    let runs = tempfile::tempdir().unwrap();
    // 12 KiB: room for the manifest and a few records, not for 30. The signal a write past the
    // limit sends is ignored, so the write fails with an error instead of killing the process.
    let mut limited = Command::new("bash");
    limited.args([
        "-c",
        "ulimit -f 12 && trap '' XFSZ && exec \"$0\" \"$@\"",
        env!("CARGO_BIN_EXE_kgscope"),
    ]);
    let out = statement_run(&mut limited, &base, runs.path(), "30", &["--json"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let id = common::only_run_id(runs.path());
    let summary: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {said}"));
    assert_eq!(summary["run_id"], id.as_str());
    assert!(
        summary["stopped"]
            .as_str()
            .is_some_and(|s| s.contains("results.jsonl")),
        "{summary}"
    );
    let manifest: Value = serde_json::from_slice(
        &std::fs::read(runs.path().join(&id).join("manifest.json")).unwrap(),
    )
    .unwrap();
    let questions = manifest["questions"].as_u64().unwrap();
    let saved = summary["answered"].as_u64().unwrap();
    assert!(saved > 0 && saved < questions, "{summary}");
    assert!(
        said.contains(&format!("resume with: kgscope run --resume {id}")),
        "{said}"
    );

    let out = common::bin()
        .args(["run", "--resume", &id, "--base-url", &base, "--runs-dir"])
        .arg(runs.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let lines = std::fs::read_to_string(runs.path().join(&id).join("results.jsonl")).unwrap();
    let ids: Vec<String> = lines
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["question"]["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let unique: std::collections::HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "a question was recorded twice");
    assert_eq!(ids.len() as u64, questions);
}

//! The question reviewer (`--review-with`, issue 39) end to end with the bundled model: each
//! question carries its review in the set `kgscope questions` writes and in a run's records,
//! the rejected ones are said and not asked, and `kgscope audit` reports them with reasons.

use crate::common;

use std::path::Path;

use serde_json::Value;

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A review as kgscope writes it: the reviewer's identity, a verdict, and a reason (a
/// rejection always says why, read or not).
fn assert_review(q: &Value) {
    let r = &q["review"];
    assert!(r["model"].as_str().unwrap().contains("gemma-3-270m"), "{q}");
    let accept = r["accept"].as_bool().expect("a verdict");
    let reason = r["reason"].as_str().expect("a reason");
    if !accept {
        assert!(!reason.is_empty(), "a rejection without a reason: {q}");
    }
}

#[test]
fn the_bundled_model_reviews_each_question_and_the_audit_lists_its_rejections() {
    let model = common::default_model();
    let dir = tempfile::tempdir().unwrap();
    let all = dir.path().join("all.jsonl");
    let args = |out: &Path, keep: bool| {
        let mut v = vec![
            "questions".to_string(),
            "--kg".into(),
            "sample:countries".into(),
            "--task".into(),
            "yesno".into(),
            "--limit".into(),
            "8".into(),
            "--seed".into(),
            "41".into(),
            "--review-with".into(),
            model.display().to_string(),
            "--out".into(),
            out.display().to_string(),
        ];
        if keep {
            v.push("--keep-rejected".into());
        }
        v
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let out = common::run(&a);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stderr).unwrap()
    };
    let said = run(args(&all, true));
    let qs = lines(&all);
    assert_eq!(qs.len(), 8, "{said}");
    qs.iter().for_each(assert_review);
    let rejected = qs
        .iter()
        .filter(|q| q["review"]["accept"] == Value::Bool(false))
        .count();
    assert!(
        said.contains(&format!(
            "reviewer gemma-3-270m-q4_k_m.gguf rejected {rejected} of 8 questions (written with their review)"
        )),
        "{said}"
    );

    // Without --keep-rejected the set holds what a run would ask: accepted questions only.
    let kept = dir.path().join("kept.jsonl");
    let said = run(args(&kept, false));
    assert!(said.contains("(not written)"), "{said}");
    let kept = lines(&kept);
    kept.iter().for_each(assert_review);
    assert!(kept
        .iter()
        .all(|q| q["review"]["accept"] == Value::Bool(true)));

    // The audit reports the reviews the file carries, each rejection with its reason.
    let out = common::ok(&[
        "audit",
        all.to_str().unwrap(),
        "--kg",
        "sample:countries",
        "--json",
    ]);
    let audit: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(audit["review"]["reviewed"], 8);
    assert_eq!(audit["review"]["rejected"], rejected);
    assert_eq!(
        audit["review"]["rejections"].as_array().unwrap().len(),
        rejected
    );
}

#[test]
fn a_run_with_a_reviewer_asks_only_what_it_accepts_and_keeps_the_rest_with_reasons() {
    let model = common::default_model();
    let runs = tempfile::tempdir().unwrap();
    let m = model.to_str().unwrap();
    let out = common::run(&[
        "run",
        "--kg",
        "sample:elements",
        "--task",
        "statement",
        "--limit",
        "6",
        "--seed",
        "41",
        "--model",
        m,
        "--review-with",
        m,
        "--runs-dir",
        runs.path().to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    let dir = Path::new(summary["run_dir"].as_str().unwrap());
    let results = lines(&dir.join("results.jsonl"));
    let rejected = lines(&dir.join("rejected.jsonl"));
    for r in &results {
        assert_review(&r["question"]);
        assert_eq!(r["question"]["review"]["accept"], true, "{r}");
    }
    for q in &rejected {
        assert_review(q);
        assert_eq!(q["review"]["accept"], false, "{q}");
    }
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let planned = manifest["questions"].as_u64().unwrap() as usize;
    assert_eq!(results.len() + rejected.len(), planned);
    let entry = manifest["not_asked"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["reason"].as_str().unwrap().starts_with("the reviewer "))
        .expect("the reviewer's count in the manifest");
    assert_eq!(entry["count"], rejected.len());
    assert_eq!(summary["answered"], results.len());
    assert!(manifest["finished_at"].is_string(), "{manifest}");
}

//! KGHaluBench: the sentence embeddings its entity-level check compares an answer and a
//! description with, the similarity mix on real embeddings, and whole runs: the default model
//! evaluated, its facts judged by a real llama-server on 127.0.0.1, on two sample KGs.

use crate::common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use kgscope::backends::spec::default_embedder_dir as default_dir;
use kgscope::method::kghalubench::similarity::{cosine, entity_similarity, token_set_ratio};
use kgscope::verify::embed::Embedder;

const TEXTS: [&str; 3] = [
    "Paris is the capital and largest city of France.",
    "The capital of France is Paris.",
    "Bananas are a yellow fruit rich in potassium.",
];

/// The first six dimensions of each text's embedding and two cosines, from an independent
/// numpy implementation of the same model (tools/reference_minilm.py).
const REFERENCE: [[f32; 6]; 3] = [
    [0.11855, 0.01564, 0.02651, -0.06223, 0.07323, -0.02083],
    [0.10326, 0.03042, 0.0291, -0.03732, 0.07868, -0.05472],
    [-0.02329, -0.0222, 0.01423, 0.03008, -0.00762, 0.07069],
];
const COS_01: f64 = 0.9197351220201485;
const COS_02: f64 = -0.07090754089440467;

fn embedder() -> Embedder {
    let dir = default_dir();
    assert!(
        kgscope::models::embedder_is_present(&dir),
        "the embedding model is missing from {}: run tools/setup.sh (or `kgscope model fetch --embedder`)",
        dir.display()
    );
    Embedder::load(&dir).unwrap()
}

/// candle's BERT with mean pooling gives what the numpy reference gives, to 1e-4; every
/// embedding has unit length; a text embeds the same alone and padded in a batch.
#[test]
fn the_embedder_matches_an_independent_implementation() {
    let e = embedder();
    let v = e.embed(&TEXTS).unwrap();
    assert_eq!(v.len(), 3);
    for (got, want) in v.iter().zip(REFERENCE) {
        assert_eq!(got.len(), 384);
        let norm: f32 = got.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-4, "{got:?} against {want:?}");
        }
    }
    assert!((cosine(&v[0], &v[1]) - COS_01).abs() < 1e-4);
    assert!((cosine(&v[0], &v[2]) - COS_02).abs() < 1e-4);
    // Alone, the short text has no padding; in the batch it had some, masked out.
    let alone = e.embed(&[TEXTS[1]]).unwrap();
    assert!(cosine(&alone[0], &v[1]) > 0.99999);
    assert!(e.embed(&[]).unwrap().is_empty());
}

/// The entity-level similarity on real embeddings: an answer about the entity clears the
/// paper's threshold, one about something else does not.
#[test]
fn an_answer_about_another_entity_falls_under_the_threshold() {
    use kgscope::method::kghalubench::similarity::DEFAULT_THRESHOLD;
    let e = embedder();
    let description = "capital and largest city of France";
    let on_topic = "Paris is the capital of France and its largest city, on the Seine.";
    let off_topic = "Bananas are a yellow fruit rich in potassium, grown in the tropics.";
    let v = e.embed(&[description, on_topic, off_topic]).unwrap();
    let s_on = entity_similarity(cosine(&v[0], &v[1]), token_set_ratio(description, on_topic));
    let s_off = entity_similarity(
        cosine(&v[0], &v[2]),
        token_set_ratio(description, off_topic),
    );
    assert!(s_on >= DEFAULT_THRESHOLD, "{s_on}");
    assert!(s_off < DEFAULT_THRESHOLD, "{s_off}");
}

#[test]
fn a_missing_model_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let err = Embedder::load(tmp.path())
        .err()
        .expect("no model there")
        .to_string();
    assert!(err.contains("config.json"), "{err}");
    assert!(err.contains("kgscope model fetch --embedder"), "{err}");
}

/// Facts decided per stage of the chain, over a run's records.
fn stage_counts(records: &[serde_json::Value]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for r in records {
        let c = &r["attempts"][0]["compound"];
        *counts
            .entry(format!("answer {}", c["judged"]["kind"].as_str().unwrap()))
            .or_default() += 1;
        for f in c["facts"].as_array().into_iter().flatten() {
            *counts
                .entry(format!("fact {}", f["stage"].as_str().unwrap()))
                .or_default() += 1;
        }
    }
    counts
}

/// A whole KGHaluBench run on each of two sample KGs: every answer goes through the chain,
/// every stage is recorded (similarity scores, each fact's verdict and deciding stage, the
/// judge's raw words), the points add up to the metrics, and the report and the label export
/// read them back.
#[test]
fn the_default_model_judged_by_a_real_llama_server_on_two_sample_kgs() {
    let model = common::default_model();
    let server = common::llama_server(&model);
    let runs = tempfile::tempdir().unwrap();
    for kg in ["sample:countries", "sample:elements"] {
        let out = common::ok(&[
            "run",
            "--kg",
            kg,
            "--method",
            "kghalubench",
            "--model",
            model.to_str().unwrap(),
            "--limit",
            "6",
            "--repeats",
            "2",
            "--judge",
            "openai:judge",
            "--judge-base-url",
            &format!("{}/v1", server.base),
            // The served judge may queue a request for long on a busy machine.
            "--idle-timeout",
            "600",
            "--runs-dir",
            runs.path().to_str().unwrap(),
            "--json",
        ]);
        let summary: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(summary["answered"], 12, "{out}");
        let dir = PathBuf::from(summary["run_dir"].as_str().unwrap());
        let records: Vec<serde_json::Value> = std::fs::read_to_string(dir.join("results.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(records.len(), 12);
        let mut points = 0u64;
        let mut assessments = std::collections::BTreeSet::new();
        for r in &records {
            let c = &r["attempts"][0]["compound"];
            let kind = c["judged"]["kind"].as_str().unwrap();
            assessments.insert(r["question"]["compound"]["assessment"].as_u64().unwrap());
            let facts = c["facts"].as_array().cloned().unwrap_or_default();
            match kind {
                "abstained" => {
                    assert!(c["abstention"].is_string(), "{c}");
                    points += 1;
                }
                "breadth" => {
                    let s = &c["similarity"];
                    assert!(s["score"].as_f64().unwrap() <= s["threshold"].as_f64().unwrap());
                    assert!(facts.is_empty());
                }
                "aligned" => {
                    let s = &c["similarity"];
                    let score = s["score"].as_f64().unwrap();
                    let mix = 0.7 * s["cosine"].as_f64().unwrap().max(0.0)
                        + 0.3 * s["token_set"].as_f64().unwrap();
                    assert!((score - mix).abs() < 1e-9, "{s}");
                    assert!(score > 0.70);
                    assert_eq!(facts.len(), 3, "{c}");
                    let stated = facts.iter().filter(|f| f["verdict"] == "stated").count();
                    assert_eq!(c["judged"]["correct"].as_u64().unwrap() as usize, stated);
                    points += stated as u64;
                    for f in &facts {
                        let by_llm = matches!(f["stage"].as_str().unwrap(), "judge" | "expert");
                        // The judge's raw words are kept wherever it was asked.
                        assert_eq!(
                            by_llm,
                            f["judge_outputs"].as_array().is_some_and(|o| !o.is_empty()),
                            "{f}"
                        );
                    }
                }
                other => panic!("unknown answer kind {other}"),
            }
            // The trace shows every stage, for Inspect.
            let trace = r["trace"].as_str().unwrap();
            assert!(trace.contains("abstention:"), "{trace}");
            assert!(trace.contains("KGHaluBench:"), "{trace}");
        }
        assert_eq!(assessments.len(), 2, "--repeats 2 draws two assessments");
        // The points are the metrics' points: accuracy = points / (3 × answers).
        let halu = &summary["metrics"]["overall"]["halu"];
        let accuracy = halu["accuracy"]["value"].as_f64().unwrap();
        assert!((accuracy - points as f64 / 36.0).abs() < 1e-9, "{halu}");
        eprintln!("{kg}: chain stage counts {:?}", stage_counts(&records));
        eprintln!(
            "{kg}: point accuracy {:.3}, weighted {:.3}, breadth {}, depth {}, abstain {}",
            accuracy,
            halu["weighted_accuracy"]["value"].as_f64().unwrap(),
            halu["breadth_rate"]["value"],
            halu["depth_rate"]["value"],
            halu["abstain_rate"]["value"],
        );
        // The report reads the chain back: stage counts and the spread over the assessments.
        let report = common::ok(&[
            "report",
            dir.to_str().unwrap(),
            "--runs-dir",
            runs.path().to_str().unwrap(),
        ]);
        assert!(report.contains("KGHaluBench chain: 12 answers"), "{report}");
        assert!(report.contains("facts decided by: cheap check"), "{report}");
        assert!(report.contains("mean ± sd over 2 assessments"), "{report}");
        if kg == "sample:elements" {
            // The elements carry their descriptions; the countries' are rendered.
            assert!(!report.contains("descriptions: 0 from the KG"), "{report}");
        } else {
            assert!(report.contains("descriptions: 0 from the KG"), "{report}");
        }
    }
    // The second run learnt nothing from the first (another KG), a third on the countries
    // learns the relation weights from the first.
    let out = common::ok(&[
        "run",
        "--kg",
        "sample:countries",
        "--method",
        "kghalubench",
        "--model",
        model.to_str().unwrap(),
        "--limit",
        "2",
        "--runs-dir",
        runs.path().to_str().unwrap(),
        "--json",
    ]);
    let summary: serde_json::Value = serde_json::from_str(&out).unwrap();
    let dir = PathBuf::from(summary["run_dir"].as_str().unwrap());
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    let halu = &manifest["config"]["halu"];
    assert_eq!(halu["learnt_from"].as_array().unwrap().len(), 1, "{halu}");
    assert!(
        halu["relation_scores"]["country or territory"].is_object(),
        "{halu}"
    );
}

/// Without the embedding model a KGHaluBench run stops before it creates anything, and says
/// how to get the model; its flags are refused on another method.
#[test]
fn a_run_without_the_embedder_says_how_to_fetch_it_and_leaves_nothing() {
    let home = tempfile::tempdir().unwrap();
    let runs = tempfile::tempdir().unwrap();
    let out = common::bin()
        .args(["run", "--kg", "sample:countries", "--method", "kghalubench"])
        .args([
            "--limit",
            "2",
            "--model",
            "no-such-model.gguf",
            "--runs-dir",
        ])
        .arg(runs.path())
        .env("KGSCOPE_HOME", home.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("kgscope model fetch --embedder"), "{err}");
    assert_eq!(std::fs::read_dir(runs.path()).unwrap().count(), 0, "{err}");
    let out = common::run(&[
        "run",
        "--kg",
        "sample:countries",
        "--method",
        "statement",
        "--threshold",
        "0.5",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("are for --method kghalubench"), "{err}");
}

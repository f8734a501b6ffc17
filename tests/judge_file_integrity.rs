//! A trained judge's file is checked before it is trusted (issue 36): real judge files written
//! by the library's save, then damaged (a scalar tensor, one flipped bit, a width that is not
//! the model's, bit flips, truncations and appended bytes), applied by `kgscope run
//! --via-judge` on the real default model. A damaged judge is refused with its path and what
//! to do, never used; a judge whose output is not a probability distribution stops the run
//! with nothing recorded.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use kgscope::core::verdict::JudgeClass;
use kgscope::record::TrainedCall;
use kgscope::run::session;
use kgscope::verify::trained::file::DIGEST_KEY;
use kgscope::verify::trained::train::{train, Example, TrainOptions};
use kgscope::verify::trained::{Provenance, TrainedJudge};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use safetensors::tensor::TensorView;
use safetensors::{Dtype, SafeTensors};

/// Made-up hidden states of width `dim`, as the trainer takes them.
fn examples(dim: usize) -> Vec<Example> {
    (0..20)
        .map(|i| Example {
            id: i.to_string(),
            state: (0..dim).map(|k| ((i * 7 + k) % 13) as f32 / 13.0).collect(),
            positive: i % 2 == 0,
            class: JudgeClass::ALL[i % 3],
        })
        .collect()
}

/// A judge of width `dim` trained for one epoch on made-up states, saved at `path` by the
/// library, its provenance naming `model` by its hash (or no model).
fn save_judge(path: &Path, dim: usize, model: Option<&Path>) {
    let opts = TrainOptions {
        epochs: 1,
        ..TrainOptions::default()
    };
    let t = train(&examples(dim), &opts, &mut |_| {}).unwrap();
    let provenance = Provenance {
        format: 1,
        model_file: "gemma-3-270m-q4_k_m.gguf".into(),
        model_sha256: model.map_or_else(String::new, |m| kgscope::models::sha256_file(m).unwrap()),
        dim,
        ..Default::default()
    };
    TrainedJudge::from_weights(&t.last, provenance)
        .unwrap()
        .save(path)
        .unwrap();
}

/// A safetensors file taken apart: its metadata and its tensors (dtype, shape, bytes).
struct Parts {
    meta: HashMap<String, String>,
    tensors: Vec<(String, Dtype, Vec<usize>, Vec<u8>)>,
}

fn parts(path: &Path) -> Parts {
    let bytes = std::fs::read(path).unwrap();
    let (_, meta) = SafeTensors::read_metadata(&bytes).unwrap();
    let st = SafeTensors::deserialize(&bytes).unwrap();
    Parts {
        meta: meta.metadata().clone().unwrap(),
        tensors: st
            .tensors()
            .into_iter()
            .map(|(n, v)| (n, v.dtype(), v.shape().to_vec(), v.data().to_vec()))
            .collect(),
    }
}

/// Writes `p` as a safetensors file at `path` (safetensors' own writer: a well-formed file
/// whatever it holds).
fn write_parts(path: &Path, p: &Parts) {
    let views: Vec<(String, TensorView)> = p
        .tensors
        .iter()
        .map(|(n, d, s, b)| (n.clone(), TensorView::new(*d, s.clone(), b).unwrap()))
        .collect();
    let bytes = safetensors::serialize(views, Some(p.meta.clone())).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// Where tensor `name`'s data begins in the file at `path`.
fn data_offset(path: &Path, name: &str) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let st = SafeTensors::deserialize(&bytes).unwrap();
    st.tensor(name).unwrap().data().as_ptr() as usize - bytes.as_ptr() as usize
}

fn no_run_left(runs: &Path) -> bool {
    !runs.exists() || std::fs::read_dir(runs).unwrap().next().is_none()
}

/// Asserts the run was refused (exit 1, not a panic's 101) with the judge's path and what to
/// do, leaving no run; gives stderr.
fn refused(out: &std::process::Output, judge: &Path, runs: &Path) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // A file refused when read is named by its path; one refused against the model (read
    // whole) by its file name and sha256 beside the model's path.
    let name = judge.file_name().unwrap().to_str().unwrap();
    assert!(
        err.contains(judge.to_str().unwrap()) || err.contains(&format!("{name} (")),
        "the file: {err}"
    );
    assert!(err.contains("kgscope judge train"), "what to do: {err}");
    assert!(no_run_left(runs), "no run left behind: {err}");
    err
}

/// Defect 1: a scalar `trunk.weight` panicked at file.rs:100 (exit 101). Refused now, by the
/// digest, and in a file without one (an older kgscope's) by the shape check.
#[test]
fn a_judge_with_a_scalar_tensor_is_refused_not_a_panic() {
    let model = common::default_model();
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    let judge = tmp.path().join("scalar.judge");
    save_judge(&judge, 640, Some(&model));
    let mut p = parts(&judge);
    let trunk = p
        .tensors
        .iter_mut()
        .find(|t| t.0 == "trunk.weight")
        .unwrap();
    (trunk.2, trunk.3) = (vec![], 0.5f32.to_le_bytes().to_vec());
    write_parts(&judge, &p);
    let err = refused(
        &common::run_via_judge(&judge, &model, &runs, &["--json"]),
        &judge,
        &runs,
    );
    assert!(err.contains("the file is damaged"), "{err}");
    assert!(err.contains("does not match the sha256"), "{err}");

    p.meta.remove(DIGEST_KEY);
    write_parts(&judge, &p);
    let err = refused(
        &common::run_via_judge(&judge, &model, &runs, &["--json"]),
        &judge,
        &runs,
    );
    assert!(
        err.contains("tensor trunk.weight has shape []") && err.contains("[d, d]"),
        "{err}"
    );
}

/// Defect 2: one flipped bit (the top exponent bit of a trunk bias, 0.02 → ~5e36) made the
/// judge output NaN, recorded as `null` probabilities and outcome `correct`, and the run
/// could no longer be read. Now the digest refuses the file; a file without a digest (an
/// older kgscope's) passes the finiteness check (5e36 is finite), and its NaN output stops the
/// run with nothing recorded.
#[test]
fn a_judge_that_outputs_nan_is_refused_or_stops_the_run_with_nothing_recorded() {
    let model = common::default_model();
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    let judge = tmp.path().join("flipped.judge");
    save_judge(&judge, 640, Some(&model));
    // A positive bias, so the trunk's output overflows whatever the statement.
    let p = parts(&judge);
    let bias = &p.tensors.iter().find(|t| t.0 == "trunk.bias").unwrap().3;
    let k = (0..640)
        .find(|&k| f32::from_le_bytes(bias[4 * k..4 * k + 4].try_into().unwrap()) > 0.0)
        .unwrap();
    let at = data_offset(&judge, "trunk.bias") + 4 * k + 3;
    let mut bytes = std::fs::read(&judge).unwrap();
    bytes[at] ^= 0x40;
    std::fs::write(&judge, &bytes).unwrap();
    let flipped = f32::from_le_bytes(bytes[at - 3..=at].try_into().unwrap());
    assert!(flipped.is_finite() && flipped > 1e36, "{flipped}");

    let err = refused(
        &common::run_via_judge(&judge, &model, &runs, &["--json"]),
        &judge,
        &runs,
    );
    assert!(err.contains("does not match the sha256"), "{err}");

    // The same damage in a file without a digest.
    let mut p = parts(&judge);
    p.meta.remove(DIGEST_KEY);
    write_parts(&judge, &p);
    let out = common::run_via_judge(&judge, &model, &runs, &["--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "the run stops: {err}");
    assert!(err.contains("not a probability distribution"), "{err}");
    assert!(err.contains("kgscope judge train"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["answered"], 0, "{v}");
    let id = v["run_id"].as_str().unwrap();
    let (run, _, records) = session::open_results(&runs, id).unwrap();
    assert!(records.is_empty(), "nothing recorded as an outcome");
    let results = std::fs::read_to_string(run.results_path()).unwrap_or_default();
    assert!(!results.contains("null"), "{results}");
    // The run is still readable: resumed, it stops the same way (not on an unreadable record).
    let out = common::run(&["run", "--resume", id, "--runs-dir", runs.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("not a probability distribution"), "{err}");
    assert!(!err.contains("invalid type"), "{err}");
}

/// Smaller defect: a judge of the wrong width was refused only once the run existed (an empty
/// run left behind), and a provenance's width was never checked against the tensors'.
#[test]
fn a_judge_of_the_wrong_width_is_refused_before_the_run_exists() {
    let model = common::default_model();
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    // Width 8 throughout, for the right model file (by hash): the model's states are 640 wide.
    let judge = tmp.path().join("narrow.judge");
    save_judge(&judge, 8, Some(&model));
    let err = refused(
        &common::run_via_judge(&judge, &model, &runs, &["--json"]),
        &judge,
        &runs,
    );
    assert!(
        err.contains("width 8") && err.contains("width 640"),
        "{err}"
    );

    // Tensors of width 8 under a provenance saying 640 (an older kgscope's file, no digest).
    let mut p = parts(&judge);
    p.meta.remove(DIGEST_KEY);
    let json = p.meta.get_mut("kgscope.judge").unwrap();
    let mut prov: serde_json::Value = serde_json::from_str(json).unwrap();
    prov["dim"] = 640.into();
    *json = prov.to_string();
    write_parts(&judge, &p);
    let err = refused(
        &common::run_via_judge(&judge, &model, &runs, &["--json"]),
        &judge,
        &runs,
    );
    assert!(
        err.contains("provenance says it reads hidden states of width 640")
            && err.contains("tensors are of width 8"),
        "{err}"
    );
}

/// A judge's output row that is not a distribution is an error, never a prediction (checked
/// on the library's judge: a huge but finite trunk bias, as one flipped bit makes).
#[test]
fn a_prediction_that_is_not_a_distribution_is_an_error() {
    let opts = TrainOptions {
        epochs: 1,
        ..TrainOptions::default()
    };
    let t = train(&examples(8), &opts, &mut |_| {}).unwrap();
    let with_bias = |v: f32| {
        let mut w = t.last.clone();
        let bias = &mut w.iter_mut().find(|(n, _)| n == "trunk.bias").unwrap().1;
        *bias = candle_core::Tensor::new(&[v; 8], &candle_core::Device::Cpu).unwrap();
        w
    };
    let judge = TrainedJudge::from_weights(&with_bias(5.6e36), Provenance::default()).unwrap();
    let e = judge.predict(&[0.5; 8], true).unwrap_err().to_string();
    assert!(e.contains("not a probability distribution"), "{e}");
    // A non-finite weight is refused outright.
    let e = TrainedJudge::from_weights(&with_bias(f32::NAN), Provenance::default())
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("trunk.bias") && e.contains("not a finite number"),
        "{e}"
    );
}

/// A record holding a non-finite probability is refused by the writer, whole: the results log
/// never holds a `null` its reader cannot read.
#[test]
fn a_non_finite_probability_is_never_written() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("results.jsonl");
    let mut w = kgscope::store::jsonl::Appender::open(&log).unwrap();
    let call = |probs| TrainedCall {
        judge: "j".into(),
        probs,
    };
    w.push(&call([0.2, 0.3, 0.5])).unwrap();
    let e = w.push(&call([f32::NAN, 0.3, 0.5])).unwrap_err().to_string();
    assert!(e.contains("not a finite number"), "{e}");
    assert!(w.push(&call([0.2, f32::INFINITY, 0.5])).is_err());
    w.flush().unwrap();
    let read: Vec<TrainedCall> = kgscope::store::jsonl::read_all(&log).unwrap();
    assert_eq!(read, vec![call([0.2, 0.3, 0.5])]);
}

/// The judge is written durably and whole: saving over a judge replaces it and leaves no
/// temporary file beside it.
#[test]
fn saving_a_judge_replaces_it_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let judge = tmp.path().join("j.judge");
    save_judge(&judge, 8, None);
    save_judge(&judge, 16, None);
    assert_eq!(TrainedJudge::load(&judge).unwrap().dim(), 16);
    let names: Vec<PathBuf> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(names, vec![judge]);
}

/// Fuzzing a real judge file: single-bit flips in the header and in the data, truncations,
/// appended bytes. None panics, and every input that is accepted predicts exactly (bit for
/// bit) what the undamaged judge does.
#[test]
fn a_damaged_judge_is_refused_or_predicts_exactly_as_the_undamaged_one() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good.judge");
    let dim = 16;
    save_judge(&good, dim, None);
    let bytes = std::fs::read(&good).unwrap();
    let header_end = 8 + u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    let states: Vec<Vec<f32>> = (0..12)
        .map(|_| (0..dim).map(|_| rng.random_range(-2.0..2.0)).collect())
        .collect();
    let refs: Vec<&[f32]> = states.iter().map(Vec::as_slice).collect();
    let positive: Vec<bool> = (0..12).map(|i| i % 2 == 0).collect();
    let bits =
        |p: Vec<[f32; 3]>| -> Vec<[u32; 3]> { p.iter().map(|r| r.map(f32::to_bits)).collect() };
    let expected = bits(
        TrainedJudge::load(&good)
            .unwrap()
            .predict_many(&refs, &positive)
            .unwrap(),
    );

    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    let flip = |at: usize, bit: u32| {
        let mut b = bytes.clone();
        b[at] ^= 1 << bit;
        b
    };
    for _ in 0..150 {
        let at = rng.random_range(0..header_end);
        cases.push(("header flip", flip(at, rng.random_range(0..8))));
    }
    for _ in 0..150 {
        let at = rng.random_range(header_end..bytes.len());
        cases.push(("data flip", flip(at, rng.random_range(0..8))));
    }
    for _ in 0..50 {
        let len = rng.random_range(0..bytes.len());
        cases.push(("truncation", bytes[..len].to_vec()));
    }
    for _ in 0..50 {
        let mut b = bytes.clone();
        let n = rng.random_range(1..64);
        b.extend((0..n).map(|_| rng.random::<u8>()));
        cases.push(("appended", b));
    }

    let path = tmp.path().join("damaged.judge");
    let mut counts: HashMap<&str, (usize, usize)> = HashMap::new();
    for (i, (kind, case)) in cases.iter().enumerate() {
        std::fs::write(&path, case).unwrap();
        let got = std::panic::catch_unwind(|| {
            TrainedJudge::load(&path).map(|j| j.predict_many(&refs, &positive))
        });
        let got = got.unwrap_or_else(|_| panic!("case {i} ({kind}) panicked"));
        let entry = counts.entry(kind).or_default();
        match got {
            Ok(Ok(p)) => {
                assert_eq!(
                    bits(p),
                    expected,
                    "case {i} ({kind}) accepted, predicting otherwise"
                );
                entry.1 += 1;
            }
            Ok(Err(_)) | Err(_) => entry.0 += 1,
        }
    }
    let (refused, accepted) = counts
        .values()
        .fold((0, 0), |(r, a), (r2, a2)| (r + r2, a + a2));
    let mut kinds: Vec<_> = counts.into_iter().collect();
    kinds.sort();
    eprintln!(
        "judge file fuzz: {} cases, {refused} refused, {accepted} accepted (identical \
         predictions); by kind (refused, accepted): {kinds:?}",
        cases.len()
    );
    assert_eq!(refused + accepted, cases.len());
    // Every change to the data is caught.
    let data_accepted = kinds.iter().find(|(k, _)| *k == "data flip").unwrap().1 .1;
    assert_eq!(data_accepted, 0);
}

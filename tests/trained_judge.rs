//! GraphEval's trained judge on the real default model: hidden states read through
//! llama.cpp, a judge trained on a real statement run by `kgscope judge train`, applied by
//! `kgscope run --via-judge` (nothing generated), reopened in the TUI and reported, and
//! refusing a model file it was not trained on.

use crate::common;

use std::path::Path;

use kgscope::backends::llama::{LlamaCppBackend, LlamaOptions};
use kgscope::core::verdict::JudgeClass;
use kgscope::questions::Gold;
use kgscope::run::{session, ResultRecord};
use kgscope::tui::app::Screen;
use kgscope::tui::event_loop::{build_app, Options};
use kgscope::tui::ui;
use kgscope::verify::trained::TrainedJudge;
use kgscope::verify::Stage;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn prompt(statement: &str) -> kgscope::backends::Prompt {
    kgscope::core::prompts::spec("statement").ask(statement.to_string())
}

#[test]
fn hidden_states_come_from_the_real_model() {
    let model = common::default_model();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut o = LlamaOptions::new(&model);
    o.hidden_states = true;
    o.parallel = 4;
    let llama = LlamaCppBackend::load(o).unwrap();
    let dim = llama.hidden_dim().unwrap();
    assert_eq!(dim, 640, "Gemma 3 270M's width");
    let (a, b, a2) = rt.block_on(async {
        futures::join!(
            llama.hidden_state("a", prompt("Paris is the capital of France.")),
            llama.hidden_state("b", prompt("Lima is the capital of Japan.")),
            llama.hidden_state("a2", prompt("Paris is the capital of France.")),
        )
    });
    let (a, b, a2) = (a.unwrap(), b.unwrap(), a2.unwrap());
    assert_eq!(a.len(), dim);
    assert!(a.iter().all(|v| v.is_finite()));
    let dist = |x: &[f32], y: &[f32]| {
        x.iter()
            .zip(y)
            .map(|(p, q)| (p - q).powi(2))
            .sum::<f32>()
            .sqrt()
    };
    let norm = a.iter().map(|v| v * v).sum::<f32>().sqrt();
    // Not bit-equal: llama.cpp's CPU kernels are not batch-invariant (seen: 1.8% apart,
    // against 22% for another statement).
    assert!(
        dist(&a, &a2) < 5e-2 * norm,
        "one statement, one state (batched together): {} vs norm {norm}, other statement {}",
        dist(&a, &a2),
        dist(&a, &b)
    );
    assert!(dist(&a, &b) > 1e-1 * norm, "two statements, two states");
    assert!(dist(&a, &b) > 4.0 * dist(&a, &a2));

    // A model loaded for generation only refuses.
    let plain = LlamaCppBackend::load(LlamaOptions::new(&model)).unwrap();
    let e = rt
        .block_on(plain.hidden_state("x", prompt("A.")))
        .unwrap_err();
    assert!(
        e.to_string().contains("not loaded for hidden states"),
        "{e}"
    );
}

fn records(runs: &Path, id: &str) -> Vec<ResultRecord> {
    session::open_results(runs, id).unwrap().2
}

fn run_id(json: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    v["run_id"].as_str().unwrap().to_string()
}

#[test]
fn a_judge_trained_on_a_real_run_judges_without_generating() {
    let model = common::default_model();
    let model_s = model.to_str().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    let runs_s = runs.to_str().unwrap();
    let generated = run_id(&common::ok(&[
        "run",
        "--kg",
        "sample:countries",
        "--method",
        "statement",
        "--limit",
        "60",
        "--model",
        model_s,
        "--parallel",
        "4",
        "--runs-dir",
        runs_s,
        "--json",
    ]));
    // One hand label, overriding the outcome of the first answer: the annotator says the
    // model got it wrong, whatever the rules read.
    let first = records(&runs, &generated).remove(0);
    let run_dir = kgscope::store::RunDir::open(&runs, &generated).unwrap();
    run_dir
        .append_label(kgscope::store::labels::Label {
            question_id: first.question.id.clone(),
            label: kgscope::store::labels::LabelVerdict::Wrong,
            error_type: None,
            note: None,
            cause: None,
            annotator: "ann".into(),
            time: "2026-11-26T00:00:00Z".into(),
        })
        .unwrap();
    // Exported with its hidden state, for training elsewhere.
    let index = tmp.path().join("labelled.jsonl");
    common::ok(&[
        "labels",
        "export",
        &generated,
        "--runs-dir",
        runs_s,
        "--format",
        "grapheval",
        "--out",
        index.to_str().unwrap(),
        "--with-hidden-states",
    ]);
    let line: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&index).unwrap().trim()).unwrap();
    assert_eq!(
        (line["label"].as_str(), line["hidden_state_row"].as_u64()),
        (Some("incorrect"), Some(0))
    );
    let tensors = std::fs::read(tmp.path().join("labelled.safetensors")).unwrap();
    let st = safetensors::SafeTensors::deserialize(&tensors).unwrap();
    assert_eq!(st.tensor("hidden_states").unwrap().shape(), &[1, 640]);

    let judge = tmp.path().join("gemma.judge");
    let judge_s = judge.to_str().unwrap();
    let out = common::ok(&[
        "judge",
        "train",
        &generated,
        "--runs-dir",
        runs_s,
        "--out",
        judge_s,
        "--epochs",
        "8",
    ]);
    for needle in [
        "precision",
        "recall",
        "F1",
        "majority baseline",
        "majority by polarity",
    ] {
        assert!(out.contains(needle), "{needle} missing from:\n{out}");
    }
    let loaded = TrainedJudge::load(&judge).unwrap();
    let p = &loaded.provenance;
    assert_eq!(p.runs, vec![generated.clone()]);
    assert_eq!(p.model_file, "gemma-3-270m-q4_k_m.gguf");
    assert_eq!(
        p.model_sha256,
        kgscope::models::sha256_file(&model).unwrap()
    );
    assert_eq!(p.dim, 640);
    assert_eq!(
        p.from_hand_labels,
        [0, 1, 0],
        "the hand label set one class"
    );
    let labelled: usize = p.labelled.iter().sum();
    let answered = records(&runs, &generated).len();
    assert_eq!(
        labelled + p.left_out,
        answered,
        "every statement counted once"
    );
    let held: usize = p.held_out_best.iter().flatten().sum();
    assert_eq!(held, (labelled as f64 * 0.3).round() as usize);

    // Applied: nothing generated, the verdict is the class read through the polarity.
    let judge_run = || {
        run_id(&common::ok(&[
            "run",
            "--kg",
            "sample:elements",
            "--method",
            "statement",
            "--limit",
            "24",
            "--model",
            model_s,
            "--via-judge",
            judge_s,
            "--runs-dir",
            runs_s,
            "--json",
        ]))
    };
    let via = judge_run();
    let judged = records(&runs, &via);
    assert_eq!(judged.len(), 24);
    for r in &judged {
        let a = &r.attempts[0];
        assert_eq!((a.stage, r.stage()), (Stage::Trained, Stage::Trained));
        assert_eq!((a.response.as_str(), a.completion_tokens), ("", 0));
        let call = a.trained.as_ref().expect("the judge's probabilities");
        assert!((call.probs.iter().sum::<f32>() - 1.0).abs() < 1e-4);
        let Gold::Bool { value } = r.question.gold else {
            panic!("a statement")
        };
        assert_eq!(a.verdict, call.class().verdict(value));
        assert_eq!(JudgeClass::of_outcome(r.outcome), Some(call.class()));
        assert!(call.judge.starts_with("gemma.judge ("), "{}", call.judge);
    }
    // The same statement judged twice gives the same probabilities (a resumed run agrees),
    // within what llama.cpp allows: its kernels sum in another order for another batch size,
    // and the worker batches statements as they arrive, so a hidden state moves in its last
    // digits from run to run (0.021 seen on a loaded machine). The judged class does not
    // move unless the first two classes were within that of each other.
    let again = judge_run();
    let twice = records(&runs, &again);
    let margin = |p: &[f32]| {
        let mut s = p.to_vec();
        s.sort_by(|a, b| b.total_cmp(a));
        s[0] - s[1]
    };
    for (x, y) in judged.iter().zip(&twice) {
        let (a, b) = (
            x.attempts[0].trained.as_ref().unwrap(),
            y.attempts[0].trained.as_ref().unwrap(),
        );
        let (p, q) = (&a.probs, &b.probs);
        assert!(
            p.iter().zip(q).all(|(a, b)| (a - b).abs() < 0.05),
            "{p:?} vs {q:?}"
        );
        if margin(p) > 0.1 {
            assert_eq!(a.class(), b.class(), "{p:?} vs {q:?}");
        }
    }

    // It reports like any run.
    let report = common::ok(&["report", &via, "--runs-dir", runs_s]);
    assert!(report.contains("correctness"), "{report}");

    // And reopens in the TUI, where the Judge view names the verifier that decided.
    let mut app = build_app(&Options {
        kg: "sample:elements".into(),
        model: None,
        base_url: None,
        api_key_env: "OPENAI_API_KEY".into(),
        timeouts: Default::default(),
        run: Some(via.clone()),
        runs_dir: runs.clone(),
        theme: "dark".into(),
        log: None,
        kg_sample: None,
        ..Default::default()
    })
    .unwrap();
    app.go_to(Screen::Judge);
    app.prepare_view();
    let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap();
    term.draw(|f| ui::draw(f, &app)).unwrap();
    let buf = term.backend().buffer().clone();
    let screen: String = (0..40)
        .map(|y| (0..120).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
        .collect();
    assert!(screen.contains("trained judge"), "{screen}");
}

#[test]
fn a_judge_refuses_a_model_file_it_was_not_trained_on() {
    let model = common::default_model();
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    let runs_s = runs.to_str().unwrap();
    // A real judge file, for the default model, without training one: weights from a tiny
    // training on made-up states, provenance naming the model by its hash.
    let judge = tmp.path().join("j.judge");
    write_judge_for(&model, &judge);
    // The same bytes plus one: another file, whatever its name says.
    let other = tmp.path().join("gemma-3-270m-q4_k_m.gguf");
    let mut bytes = std::fs::read(&model).unwrap();
    bytes.push(0);
    std::fs::write(&other, bytes).unwrap();
    let out = common::run_via_judge(&judge, &other, &runs, &[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("another model file"), "{err}");
    assert!(
        !runs.exists() || std::fs::read_dir(&runs).unwrap().next().is_none(),
        "no run left behind"
    );

    // Another method is refused too.
    let out = common::run(&[
        "run",
        "--kg",
        "sample:countries",
        "--method",
        "yesno",
        "--limit",
        "4",
        "--model",
        model.to_str().unwrap(),
        "--via-judge",
        judge.to_str().unwrap(),
        "--runs-dir",
        runs_s,
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--method statement"));
}

fn write_judge_for(model: &Path, path: &Path) {
    use kgscope::verify::trained::train::{train, Example, TrainOptions};
    let examples: Vec<Example> = (0..20)
        .map(|i| Example {
            id: i.to_string(),
            state: (0..640).map(|k| ((i * 7 + k) % 13) as f32 / 13.0).collect(),
            positive: i % 2 == 0,
            class: JudgeClass::ALL[i % 3],
        })
        .collect();
    let opts = TrainOptions {
        epochs: 1,
        ..TrainOptions::default()
    };
    let t = train(&examples, &opts, &mut |_| {}).unwrap();
    let provenance = kgscope::verify::trained::Provenance {
        format: 1,
        model_file: "gemma-3-270m-q4_k_m.gguf".into(),
        model_sha256: kgscope::models::sha256_file(model).unwrap(),
        dim: 640,
        ..Default::default()
    };
    TrainedJudge::from_weights(&t.last, provenance)
        .unwrap()
        .save(path)
        .unwrap();
}

//! KG-FPQ's gate, through the real engine and run directory with a scripted backend: a fact
//! whose true-premise question (TPQ) is answered No gets no false-premise question; one
//! answered Yes gets every one its edits could make; and the report breaks accuracy down by
//! edit, hop and format.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use futures::stream::BoxStream;
use kgscope::backends::{Backend, BackendError, Capabilities, Chunk, Request};
use kgscope::questions::Task;
use kgscope::run::{adaptive, session, Control, EngineOptions, ModelSpec, RunConfig};

/// Answers Yes to a TPQ whose text hashes even, No otherwise, and No to every yes/no FPQ and
/// "Actually, that is not so." to every Wh-FPQ; remembers the inputs it was asked.
struct Scripted {
    asked: Mutex<Vec<String>>,
}

impl Backend for Scripted {
    fn model_id(&self) -> String {
        "scripted".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities::default()
    }
    fn ask(&self, req: Request) -> BoxStream<'static, Result<Chunk, BackendError>> {
        let input = req.prompt.input.clone();
        self.asked.lock().unwrap().push(input.clone());
        let text = if input.starts_with("What is the reason that") {
            "Actually, that is not so."
        } else if input.bytes().map(u32::from).sum::<u32>() % 2 == 0 {
            "Yes"
        } else {
            "No"
        };
        common::answer_stream(text)
    }
}

#[test]
fn a_fact_whose_true_premise_is_denied_gets_no_false_premise_question() {
    let runs = tempfile::tempdir().unwrap();
    let model = ModelSpec::Llama {
        path: "scripted.gguf".into(),
    };
    let cfg = RunConfig::new("sample:countries", model, Task::KgFpq, 24);
    let mut prepared = session::prepare_new(cfg, "scripted", runs.path(), &|_| {}).unwrap();
    let backend = Arc::new(Scripted {
        asked: Mutex::new(vec![]),
    });
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (tx, mut rx) = tokio::sync::mpsc::channel(4096);
    let templates = session::load_templates(&[]).unwrap();
    let events = rt.block_on(async {
        let drain = tokio::spawn(async move {
            let mut events = vec![];
            while let Some(ev) = rx.recv().await {
                events.push(ev);
            }
            events
        });
        adaptive::drive(
            &mut prepared,
            &templates,
            backend.clone(),
            EngineOptions {
                repeats: 1,
                concurrency: 4,
                params: Default::default(),
                checker: None,
                scoring: kgscope::run::config::AnswerScoring::Generate,
            },
            None,
            Control::default(),
            tx,
        )
        .await
        .unwrap();
        drain.await.unwrap()
    });
    let (_, manifest, records) = session::open_results(runs.path(), &prepared.run.id).unwrap();
    assert!(manifest.finished_at.is_some(), "the run is over");
    gate_says_what_it_left_out(runs.path(), &manifest, &records, events);
    let tpqs: HashMap<&str, bool> = records
        .iter()
        .filter(|r| r.question.premise.as_ref().unwrap().edit.is_none())
        .map(|r| {
            (
                r.question.id.as_str(),
                r.verdict == kgscope::verify::Verdict::True,
            )
        })
        .collect();
    assert_eq!(tpqs.len(), 24, "every fact's TPQ is asked first");
    let (yes, no) = (
        tpqs.values().filter(|k| **k).count(),
        tpqs.values().filter(|k| !**k).count(),
    );
    assert!(
        yes > 0 && no > 0,
        "the script says both: {yes} yes, {no} no"
    );
    let fpqs: Vec<_> = records
        .iter()
        .filter(|r| r.question.premise.as_ref().unwrap().edit.is_some())
        .collect();
    let gated: HashSet<&str> = fpqs
        .iter()
        .map(|r| r.question.premise.as_ref().unwrap().tpq_id.as_str())
        .collect();
    for tpq in &gated {
        assert!(
            tpqs[tpq],
            "an FPQ was asked about a fact whose TPQ was answered No"
        );
    }
    assert_eq!(
        gated.len(),
        yes,
        "every fact answered Yes gets its false-premise questions"
    );
    // Nothing was asked that is not on record, and no FPQ of a denied fact reached the model.
    let asked = backend.asked.lock().unwrap().clone();
    assert_eq!(asked.len(), records.len());
    for r in &records {
        if let kgscope::questions::Gold::Premise { premise, .. } = &r.question.gold {
            // The reason question takes the false premise for granted: it asks about the
            // premise's subject and ends in a question mark.
            let p = &r.question.prompt;
            assert!(
                p.starts_with("What is the reason that ") && p.ends_with('?'),
                "{p}"
            );
            assert!(premise.contains(&r.question.subject_label), "{premise}");
            assert!(p.contains(&r.question.subject_label), "{p}");
            assert_eq!(
                r.outcome,
                kgscope::verify::OutcomeKind::Correct,
                "it rejects"
            );
        }
    }
    // Both formats of each made edit, hop counts on the neighbour edits only.
    let snapshot = kgscope::report::snapshot_of(&records);
    let by_edit = &snapshot.by_facet["edit"];
    assert_eq!(by_edit["TPQ"].n, 24);
    for r in &fpqs {
        let p = r.question.premise.as_ref().unwrap();
        assert_eq!(p.hops.is_some(), p.edit.unwrap().is_neighbour(), "{p:?}");
    }
    let pair = &snapshot.by_facet_pair["edit × format"];
    for (edit, formats) in pair.iter().filter(|(e, _)| *e != "TPQ") {
        assert_eq!(formats.len(), 2, "{edit}: both formats");
        assert_eq!(
            formats["discriminative"].n, formats["generative"].n,
            "{edit}"
        );
    }
    assert!(snapshot.by_facet_pair.contains_key("edit × hop"));
    let text = kgscope::report::fpq::text(&snapshot);
    assert!(text.contains("TPQ"), "{text}");
}

/// The gated run's progress, as the engine tells it (events and the manifest) and as Live,
/// `kgscope report` and the Markdown report show it: N asked; M not asked because the true
/// premise was denied (and those no edit could make), N + M the planned total.
fn gate_says_what_it_left_out(
    runs: &std::path::Path,
    manifest: &kgscope::run::Manifest,
    records: &[kgscope::run::ResultRecord],
    events: Vec<kgscope::run::RunEvent>,
) {
    use kgscope::run::RunEvent;
    let denied = records
        .iter()
        .filter(|r| r.question.premise.as_ref().unwrap().edit.is_none())
        .filter(|r| r.verdict != kgscope::verify::Verdict::True)
        .count();
    let per_fact = manifest.questions / 24 - 1;
    let gated = manifest
        .not_asked
        .iter()
        .find(|n| n.reason == "the true premise was denied")
        .expect("the gate's share is recorded");
    assert_eq!(gated.count, denied * per_fact, "{:?}", manifest.not_asked);
    let left_out: usize = manifest.not_asked.iter().map(|n| n.count).sum();
    assert_eq!(
        records.len() + left_out,
        manifest.questions,
        "asked and not asked add up to the plan: {:?}",
        manifest.not_asked
    );
    // Compare's list and the run picker count what the run asks, not what it planned.
    assert_eq!(manifest.to_ask(), records.len());
    let listed = kgscope::tui::app::compare::list_runs(runs).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].questions, records.len());
    let said: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            RunEvent::NotAsked(n) => Some(n.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        said.last(),
        Some(&manifest.not_asked),
        "the engine says it as it decides"
    );
    // Live, fed the same events.
    let mut app =
        kgscope::tui::app::App::new(kgscope::tui::Theme::default(), "sample:countries", None);
    app.live.active = true;
    for ev in events {
        app.on_run_event(ev);
    }
    let want = format!(
        "{} asked; {} not asked because the true premise was denied",
        records.len(),
        gated.count
    );
    assert!(
        app.live.progress().starts_with(&want),
        "{}",
        app.live.progress()
    );
    assert!(app.live.status.contains(&want), "{}", app.live.status);
    assert_eq!(app.live.to_ask(), records.len());
    // `kgscope report` (text) and the Markdown report of the finished run.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kgscope"))
        .args(["report", &manifest.run_id, "--runs-dir"])
        .arg(runs)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let first = text.lines().next().unwrap_or_default();
    assert!(
        first.contains(&format!("{} questions planned: {want}", manifest.questions)),
        "{first}"
    );
    let md = std::process::Command::new(env!("CARGO_BIN_EXE_kgscope"))
        .args(["report", &manifest.run_id, "--format", "md", "--runs-dir"])
        .arg(runs)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&md.stdout).contains(&want));
}

/// Writes "Why is OBJECT the RELATION of SUBJECT?" from the writer's prompt, leaving the subject
/// out of every other question so the checks reject it.
struct ScriptedWriter {
    calls: Mutex<usize>,
}

impl Backend for ScriptedWriter {
    fn model_id(&self) -> String {
        "scripted-writer".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities::default()
    }
    fn ask(&self, req: Request) -> BoxStream<'static, Result<Chunk, BackendError>> {
        let field = |name: &str| {
            req.prompt
                .input
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .unwrap_or_default()
                .to_string()
        };
        let (s, o) = (field("Subject: "), field("Object: "));
        let mut n = self.calls.lock().unwrap();
        *n += 1;
        // The relation's name stays out: it may hold the true object's ("landlocked").
        let text = if *n % 2 == 1 {
            format!("Why is {o} said of {s}?")
        } else {
            format!("Why is {o} said?")
        };
        common::answer_stream(text)
    }
}

#[test]
fn the_writer_rewords_generative_questions_and_what_fails_its_checks_keeps_the_template() {
    let runs = tempfile::tempdir().unwrap();
    let model = ModelSpec::Llama {
        path: "scripted.gguf".into(),
    };
    let mut cfg = RunConfig::new("sample:countries", model, Task::KgFpq, 4);
    if let Some(f) = cfg.fpq.as_mut() {
        f.gate = false;
        f.options.max_hops = 2;
    }
    let mut prepared = session::prepare_new(cfg, "scripted", runs.path(), &|_| {}).unwrap();
    let writer = kgscope::method::kgfpq::writer::Writer::new(Arc::new(ScriptedWriter {
        calls: Mutex::new(0),
    }));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (tx, mut rx) = tokio::sync::mpsc::channel(4096);
    let templates = session::load_templates(&[]).unwrap();
    rt.block_on(async {
        let drain = tokio::spawn(async move { while rx.recv().await.is_some() {} });
        adaptive::drive(
            &mut prepared,
            &templates,
            Arc::new(Scripted {
                asked: Mutex::new(vec![]),
            }),
            EngineOptions {
                repeats: 1,
                concurrency: 4,
                params: Default::default(),
                checker: None,
                scoring: kgscope::run::config::AnswerScoring::Generate,
            },
            Some(&writer),
            Control::default(),
            tx,
        )
        .await
        .unwrap();
        drain.await.unwrap();
    });
    let (_, _, records) = session::open_results(runs.path(), &prepared.run.id).unwrap();
    let (mut taken, mut rejected) = (0, 0);
    for r in &records {
        let q = &r.question;
        let p = q.premise.as_ref().unwrap();
        let generative = p.format == kgscope::questions::FpqFormat::Generative && p.edit.is_some();
        assert_eq!(
            p.written.is_some(),
            generative,
            "only generative FPQs are written"
        );
        let Some(w) = &p.written else { continue };
        assert_eq!(w.model, "scripted-writer");
        if w.accepted {
            taken += 1;
            assert_eq!(q.prompt, w.text);
            assert!(q.prompt.contains(&q.subject_label) && q.prompt.contains(&q.object_label));
        } else {
            rejected += 1;
            assert!(w.reason.contains("subject"), "{}", w.reason);
            assert_eq!(
                q.prompt, w.template,
                "a rejected question keeps the template"
            );
            assert!(q.prompt.starts_with("What is the reason that"));
        }
    }
    assert!(
        taken > 0 && rejected > 0,
        "{taken} taken, {rejected} rejected"
    );
}

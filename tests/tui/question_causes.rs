//! A "bad question" label asks why (issue 39 §5): the cause picker with the reviewed set's
//! codes, the cause shown on Inspect and Errors, and `labels export --reviewed` writing the
//! labels as reviewed-set lines.

use super::*;
use kgscope::store::labels::QuestionCause;

/// The TUI on the fixture run, on Inspect, with the id of the answer inspected.
fn on_inspect(dir: &Path, run: &RunDir) -> (App, String) {
    let mut app = open_app(dir, run);
    key(&mut app, KeyCode::Char('5'));
    assert_eq!(app.screen, Screen::Inspect);
    let qid = app
        .inspected()
        .expect("an error inspected")
        .question
        .id
        .clone();
    (app, qid)
}

#[test]
fn b_asks_the_cause_a_digit_records_it_and_inspect_and_errors_show_it() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let (mut app, qid) = on_inspect(tmp.path(), &run);

    key(&mut app, KeyCode::Char('b'));
    let screen = render(&app, 80, 24);
    assert!(screen.contains("Why is the question bad?"), "{screen}");
    // Every cause with its key and meaning, the way out, on an 80x24 terminal.
    for (i, c) in QuestionCause::ALL.iter().enumerate() {
        assert!(
            screen.contains(&format!(" {} {}", i + 1, c.name())),
            "{c:?}\n{screen}"
        );
    }
    assert!(
        screen.contains("the name or an alias gives the answer"),
        "{screen}"
    );
    assert!(screen.contains("Esc labels nothing"), "{screen}");
    assert!(
        book_of(&run).get(&qid, "tester").is_none(),
        "nothing is recorded before the cause"
    );
    // A key that picks nothing leaves the picker open and records nothing.
    key(&mut app, KeyCode::Char('r'));
    assert!(app.inspect.asking_cause.is_some());
    assert!(book_of(&run).get(&qid, "tester").is_none());

    key(&mut app, KeyCode::Char('6'));
    assert!(app.inspect.asking_cause.is_none());
    let label = book_of(&run)
        .get(&qid, "tester")
        .cloned()
        .expect("labelled");
    assert_eq!(label.label, LabelVerdict::BadQuestion);
    assert_eq!(label.cause, Some(QuestionCause::Giveaway));
    assert!(
        app.status.contains("saved bad question / give-away"),
        "{}",
        app.status
    );

    // Labelling moved on; back on the labelled answer, Inspect shows the cause...
    key(&mut app, KeyCode::Char('p'));
    assert_eq!(app.inspected().unwrap().question.id, qid);
    let screen = render(&app, 80, 24);
    assert!(!screen.contains("Why is the question bad?"), "{screen}");
    assert!(screen.contains("bad question / give-away"), "{screen}");
    // ... and so does Errors, on the same answer.
    key(&mut app, KeyCode::Char('4'));
    let screen = render(&app, 80, 24);
    assert!(screen.contains("bad question / give-away"), "{screen}");
}

#[test]
fn esc_in_the_cause_picker_labels_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let (mut app, qid) = on_inspect(tmp.path(), &run);
    key(&mut app, KeyCode::Char('b'));
    assert!(app.inspect.asking_cause.is_some());
    key(&mut app, KeyCode::Esc);
    assert!(app.inspect.asking_cause.is_none());
    assert!(run.read_labels().unwrap().is_empty(), "no line written");
    assert_eq!(app.inspected().unwrap().question.id, qid, "still on it");
    assert!(app.status.contains("not labelled"), "{}", app.status);
    let screen = render(&app, 80, 24);
    assert!(!screen.contains("Why is the question bad?"), "{screen}");
    // The keys are Inspect's again: `r` labels right at once.
    key(&mut app, KeyCode::Char('r'));
    assert_eq!(
        book_of(&run).get(&qid, "tester").unwrap().label,
        LabelVerdict::Right
    );
}

#[test]
fn kg_wrong_is_gold_wrong_without_asking() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let (mut app, qid) = on_inspect(tmp.path(), &run);
    key(&mut app, KeyCode::Char('g'));
    assert!(app.inspect.asking_cause.is_none());
    let label = book_of(&run).get(&qid, "tester").cloned().unwrap();
    assert_eq!(label.label, LabelVerdict::KgWrong);
    assert_eq!(label.cause, Some(QuestionCause::GoldWrong));
}

#[test]
fn the_judge_screen_asks_the_cause_too() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    key(&mut app, KeyCode::Char('7'));
    assert_eq!(app.screen, Screen::Judge);
    let before = run.read_labels().unwrap().len();
    key(&mut app, KeyCode::Char('b'));
    if app.inspect.asking_cause.is_none() {
        // Nothing queued on this fixture: `b` had nothing to label and said so.
        assert!(app.status.contains("nothing queued"), "{}", app.status);
        return;
    }
    let screen = render(&app, 80, 24);
    assert!(screen.contains("Why is the question bad?"), "{screen}");
    assert!(!screen.contains("(n)"), "Judge has no notes: {screen}");
    key(&mut app, KeyCode::Char('1'));
    let labels = run.read_labels().unwrap();
    assert_eq!(labels.len(), before + 1);
    let l = labels.last().unwrap().as_label().unwrap();
    assert_eq!(l.cause, Some(QuestionCause::Ungrammatical));
}

/// Labels given through the TUI's keys, exported for real with `labels export --reviewed`.
#[test]
fn labels_export_reviewed_writes_the_sets_lines_and_grows_it_without_repeats() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let (mut app, bad) = on_inspect(tmp.path(), &run);
    // A note written first goes with the label, and into the verdict line.
    key(&mut app, KeyCode::Char('e'));
    keys(&mut app, "the name gives it");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('b'));
    key(&mut app, KeyCode::Char('6'));
    let good = app.inspected().unwrap().question.id.clone();
    assert_ne!(good, bad);
    key(&mut app, KeyCode::Char('w'));
    let stored = book_of(&run);
    assert_eq!(
        stored.get(&bad, "tester").unwrap().note.as_deref(),
        Some("the name gives it"),
        "the note written first is saved with the label"
    );

    let set = tmp.path().join("reviewed");
    let export = || {
        common::ok(&[
            "labels",
            "export",
            &run.id,
            "--reviewed",
            set.to_str().unwrap(),
            "--runs-dir",
            tmp.path().to_str().unwrap(),
        ])
    };
    export();
    let read = |name: &str| std::fs::read_to_string(set.join(name)).unwrap();
    let questions = read("countries.jsonl");
    let verdicts = read("countries.verdicts.jsonl");
    let q: Vec<serde_json::Value> = questions
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let v: Vec<serde_json::Value> = verdicts
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(q.len(), 2, "{questions}");
    assert_eq!(v.len(), 2, "{verdicts}");
    let records: Vec<ResultRecord> = run.read_results().unwrap();
    for (qi, vi) in q.iter().zip(&v) {
        assert_eq!(qi["id"], vi["id"], "the files are pairs in one order");
        let r = records
            .iter()
            .find(|r| r.question.id == qi["id"].as_str().unwrap())
            .unwrap();
        assert_eq!(qi["kg"], "countries");
        assert_eq!(qi["task"], "statement");
        assert_eq!(qi["prompt"], r.question.prompt.as_str());
        let gold = if matches!(
            r.question.gold,
            kgscope::questions::Gold::Bool { value: true }
        ) {
            "TRUE"
        } else {
            "FALSE"
        };
        assert_eq!(qi["gold"], gold);
        assert_eq!(
            qi["asked_triple"],
            format!(
                "{} · {} · {}",
                r.question.subject_label, r.question.relation, r.question.object_label
            )
        );
        assert!(qi["aliases"].is_array());
    }
    // The set's key order and spelling, as tests/data/reviewed/seed41 has them.
    let first = questions.lines().next().unwrap();
    assert!(
        first.starts_with(r#"{"id": ""#)
            && first.contains(r#"", "kg": "countries", "task": "statement", "prompt": "#),
        "{first}"
    );
    let by_id = |id: &str| v.iter().find(|x| x["id"] == id).unwrap().clone();
    let rejected = by_id(&bad);
    assert_eq!(rejected["verdict"], "reject");
    assert_eq!(rejected["cause"], "giveaway");
    assert_eq!(rejected["note"], "the name gives it");
    let accepted = by_id(&good);
    assert_eq!(accepted["verdict"], "accept");
    assert!(accepted["cause"].is_null());
    assert_eq!(accepted["note"], "");
    let line = verdicts.lines().find(|l| l.contains(&good)).unwrap();
    assert_eq!(
        line,
        format!(
            r#"{{"id": "{good}", "kg": "countries", "task": "statement", "verdict": "accept", "cause": null, "note": ""}}"#
        )
    );

    // Exporting again after a change of mind replaces the question's lines: no repeats.
    key(&mut app, KeyCode::Char('p'));
    assert_eq!(app.inspected().unwrap().question.id, good);
    key(&mut app, KeyCode::Char('g'));
    export();
    let verdicts = read("countries.verdicts.jsonl");
    assert_eq!(verdicts.lines().count(), 2, "{verdicts}");
    assert_eq!(read("countries.jsonl").lines().count(), 2);
    let changed: serde_json::Value =
        serde_json::from_str(verdicts.lines().find(|l| l.contains(&good)).unwrap()).unwrap();
    assert_eq!(changed["verdict"], "reject");
    assert_eq!(changed["cause"], "gold_wrong");
}

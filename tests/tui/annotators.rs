//! The annotators' workflow (issue 26 §4): correct answers reached with the outcome filter
//! and labelled with Inspect's keys (balanced judge data), the run picker (`O`), and the
//! labels exported with a key (`X`) in the shape the run's method's judge learns from.

use super::*;
use kgscope::report::label_export::LabelFormat;
use kgscope::tui::app::{export_path, KindFilter};

/// Presses `o` on Errors until the list shows `want`.
fn filter_to(app: &mut App, want: KindFilter) {
    key(app, KeyCode::Char('4'));
    for _ in 0..6 {
        if app.errors.kind == Some(want) {
            return;
        }
        key(app, KeyCode::Char('o'));
    }
    assert_eq!(app.errors.kind, Some(want));
}

#[test]
fn a_correct_answer_is_found_with_the_filter_labelled_right_and_exported() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    let d = app.data.as_ref().unwrap();
    let correct = d
        .rows
        .iter()
        .filter(|r| r.outcome == OutcomeKind::Correct)
        .count();
    assert!(correct >= 2, "the fixture has correct answers");
    // The default list is the errors alone, as before.
    let errors = app.error_indices().len();
    assert_eq!(errors, d.error_count());
    assert_eq!(errors + correct, d.rows.len());

    filter_to(&mut app, KindFilter::Only(OutcomeKind::Correct));
    let list = app.error_indices();
    assert_eq!(list.len(), correct);
    let d = app.data.as_ref().unwrap();
    assert!(list
        .iter()
        .all(|&i| d.rows[i].outcome == OutcomeKind::Correct));
    // The status and the list's title say what is counted.
    assert!(
        app.status
            .contains(&format!("{correct} correct answers listed")),
        "{}",
        app.status
    );
    let screen = render(&app, 100, 30);
    assert!(
        screen.contains(&format!("Errors: {correct} correct")),
        "{screen}"
    );

    // Inspect walks the correct answers (n), and `r` labels one right.
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, Screen::Inspect);
    let first = app.inspected().unwrap();
    assert_eq!(first.outcome, OutcomeKind::Correct);
    key(&mut app, KeyCode::Char('n'));
    let second = app.inspected().unwrap();
    assert_eq!(second.outcome, OutcomeKind::Correct);
    assert_ne!(first.question.id, second.question.id);
    let screen = render(&app, 100, 30);
    assert!(
        screen.contains(&format!("Inspect 2 of {correct} correct answers")),
        "{screen}"
    );
    let qid = second.question.id.clone();
    key(&mut app, KeyCode::Char('r'));
    let stored = book_of(&run);
    let label = stored.get(&qid, "tester").expect("the label is stored");
    assert_eq!(label.label, LabelVerdict::Right);
    // Progress counts the correct answers listed, and says so.
    assert_eq!(app.label_progress(), (1, correct));
    assert!(
        app.status
            .contains(&format!("1 of {correct} correct answers labelled")),
        "{}",
        app.status
    );
    // The label filter finds it among the correct answers.
    key(&mut app, KeyCode::Char('4'));
    key(&mut app, KeyCode::Char('l'));
    let labelled = app.error_indices();
    assert_eq!(labelled.len(), 1);
    let d = app.data.as_ref().unwrap();
    assert_eq!(d.record(labelled[0]).unwrap().question.id, qid);

    // Every format of `kgscope labels export` takes a "right" label on a correct answer.
    let jsonl = export_labels(tmp.path(), &run, "jsonl");
    assert_eq!(jsonl.len(), 1);
    assert_eq!(jsonl[0]["question_id"], qid.as_str());
    assert_eq!(jsonl[0]["label"], "right");
    assert_eq!(jsonl[0]["outcome"], "correct");
    let grapheval = export_labels(tmp.path(), &run, "grapheval");
    assert_eq!(grapheval.len(), 1);
    assert_eq!(grapheval[0]["label"], "correct");
    assert_eq!(grapheval[0]["statement"], second.question.prompt.as_str());
    let fpq = export_labels(tmp.path(), &run, "fpq-judge");
    assert_eq!(fpq.len(), 1);
    assert_eq!(fpq[0]["output"], "Yes");
    // A statement is no compound answer: nothing for the fact judge, and no error.
    assert!(export_labels(tmp.path(), &run, "halu-fact-judge").is_empty());

    // The last two views: every answer, then the errors again.
    key(&mut app, KeyCode::Char('x'));
    filter_to(&mut app, KindFilter::AllAnswers);
    assert_eq!(app.error_indices().len(), errors + correct);
    key(&mut app, KeyCode::Char('o'));
    assert_eq!(app.errors.kind, Some(KindFilter::AllErrors));
    assert_eq!(app.error_indices().len(), errors);
}

#[test]
fn x_exports_the_runs_labels_in_its_methods_shape_as_the_cli_does() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    let path = export_path(&run.path, LabelFormat::Grapheval, "tester");

    // No labels yet: nothing is written, and the status says why.
    key(&mut app, KeyCode::Char('X'));
    app.wait_for_export();
    assert!(
        app.status
            .starts_with("no labels exported: tester has no labels"),
        "{}",
        app.status
    );
    assert!(!path.exists());

    // A wrong error and a right correct answer, then `X` from Inspect.
    key(&mut app, KeyCode::Char('5'));
    key(&mut app, KeyCode::Char('w'));
    filter_to(&mut app, KindFilter::Only(OutcomeKind::Correct));
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('r'));
    // A label that blames the KG gives no GraphEval example.
    key(&mut app, KeyCode::Char('g'));
    assert_eq!(app.screen, Screen::Inspect);
    key(&mut app, KeyCode::Char('X'));
    app.wait_for_export();
    assert_eq!(
        app.status,
        format!(
            "labels exported: 2 grapheval line(s) to {} (1 label(s) give no example in this shape)",
            path.display()
        )
    );
    // The same file `kgscope labels export --format grapheval` writes.
    let cli = tmp.path().join("cli.jsonl");
    common::ok(&[
        "labels",
        "export",
        &run.id,
        "--format",
        "grapheval",
        "--out",
        cli.to_str().unwrap(),
        "--runs-dir",
        tmp.path().to_str().unwrap(),
    ]);
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(written, std::fs::read_to_string(&cli).unwrap());
    let mut labels: Vec<String> = written
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["label"].to_string())
        .collect();
    labels.sort();
    assert_eq!(labels, ["\"correct\"", "\"incorrect\""]);

    // Each method exports its own judge's shape.
    for (task, format) in [
        (Task::Statement, LabelFormat::Grapheval),
        (Task::KgFpq, LabelFormat::FpqJudge),
        (Task::Kghalubench, LabelFormat::HaluFactJudge),
        (Task::Yesno, LabelFormat::Jsonl),
        (Task::Saq, LabelFormat::Jsonl),
    ] {
        assert_eq!(kgscope::method::of(task).label_format(), format, "{task:?}");
    }
}

#[test]
fn x_on_a_yes_no_run_writes_plain_jsonl() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = yes_no_app(tmp.path());
    let run = app.data.as_ref().unwrap().run.clone();
    key(&mut app, KeyCode::Char('5'));
    key(&mut app, KeyCode::Char('a'));
    key(&mut app, KeyCode::Char('X'));
    app.wait_for_export();
    let path = export_path(&run.path, LabelFormat::Jsonl, "tester");
    assert!(app.status.contains("1 jsonl line(s)"), "{}", app.status);
    let line: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&path).unwrap().trim()).unwrap();
    assert_eq!(line["label"], "abstained");
    assert_eq!(line["run_id"], run.id.as_str());
}

#[test]
fn the_run_picker_lists_runs_newest_first_and_opens_one_with_its_kg() {
    let tmp = tempfile::tempdir().unwrap();
    let model = ModelSpec::Llama {
        path: PathBuf::from("no-model.gguf"),
    };
    // An unfinished run on countries, half answered, and a finished one on elements.
    let first = fixture_with(tmp.path(), model.clone(), 8, Task::Statement);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let second = fixture_on(
        "sample:elements",
        tmp.path(),
        model,
        usize::MAX,
        Task::Yesno,
    );
    let mut m: kgscope::run::Manifest = second.read_manifest().unwrap();
    m.finished_at = Some("2026-01-01T00:00:00Z".into());
    second.write_manifest(&m).unwrap();
    let planned_first = first
        .read_manifest::<kgscope::run::Manifest>()
        .unwrap()
        .questions;
    let answered_second = std::fs::read_to_string(second.results_path())
        .unwrap()
        .lines()
        .count();

    let mut app = open_app(tmp.path(), &first);
    key(&mut app, KeyCode::Char('3'));
    // Named in the footer and the help.
    assert!(render(&app, 80, 24).contains("O runs"));
    key(&mut app, KeyCode::Char('?'));
    assert!(render(&app, 80, 24).contains("open a run"));
    key(&mut app, KeyCode::Char('?'));

    key(&mut app, KeyCode::Char('O'));
    app.wait_for_picker();
    let p = app.picker.as_ref().expect("O opens the picker");
    let ids: Vec<&str> = p.runs.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, [second.id.as_str(), first.id.as_str()], "newest first");
    assert_eq!(p.cursor, 1, "on the open run");
    assert_eq!(p.answered, [Some(answered_second as u64), Some(8)]);
    let screen = render(&app, 100, 30);
    assert!(
        screen.contains(&format!("8 of {planned_first} answered")),
        "{screen}"
    );
    assert!(screen.contains("not finished"), "{screen}");
    assert!(screen.contains("· finished"), "{screen}");
    assert!(screen.contains("sample:elements"), "{screen}");
    assert!(screen.contains("Enter opens · Esc closes"), "{screen}");
    // The picker takes the keys: `q` does not quit, Esc closes it and nothing changes.
    key(&mut app, KeyCode::Char('q'));
    assert!(!app.quit);
    key(&mut app, KeyCode::Esc);
    assert!(app.picker.is_none());
    assert_eq!(app.data.as_ref().unwrap().run.id, first.id);

    // Enter on the other run opens it, on its own KG, as `kgscope tui --run` would.
    key(&mut app, KeyCode::Char('O'));
    key(&mut app, KeyCode::Char('k'));
    key(&mut app, KeyCode::Enter);
    assert!(app.picker.is_none());
    assert_eq!(app.data.as_ref().unwrap().run.id, second.id);
    assert_eq!(app.screen, Screen::Heatmaps);
    assert!(app.status.contains("loading its KG"), "{}", app.status);
    app.wait_for_kg();
    assert_eq!(app.kg_name, "sample:elements");
    let index = app.index.as_ref().expect("the run's KG is loaded");
    assert!(!index.facts().is_empty());
    // Its answers are the ones shown, and labelling goes on in it.
    let d = app.data.as_ref().unwrap();
    assert_eq!(d.tally.answered, answered_second as u64);
    key(&mut app, KeyCode::Char('5'));
    key(&mut app, KeyCode::Char('w'));
    assert_eq!(book_of(&second).annotators(), ["tester"]);
    assert!(book_of(&first).annotators().is_empty());
}

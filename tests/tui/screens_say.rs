//! Screens that never mislead (issue 38): the run dialog promises only what the run makes, a
//! refused run leaves nothing and says why whole, messages wrap instead of being cut and end
//! with what they describe, and annotators read the question, the response and the gold.

use super::*;
use kgscope::report::label_export::LabelFormat;
use kgscope::tui::app::export_path;

/// A screen's text with runs of blanks and borders folded into one space, so text wrapped
/// over several rows reads as one line.
fn flat(screen: &str) -> String {
    screen
        .replace(['│', '─', '┌', '┐', '└', '┘'], " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn fold(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The TUI on sample:elements with a model configured (the run dialog's check makes the
/// questions a run would, without the model), Explore on `relation`'s entry and its run
/// dialog open.
fn dialog_on(relation: &str) -> App {
    let index = Arc::new(load_index("sample:elements").unwrap());
    let mut app = App::new(Theme::default(), "sample:elements", Some(index));
    app.can_run = true;
    app.model = Some(ModelSpec::Llama {
        path: PathBuf::from("absent.gguf"),
    });
    search(&mut app, relation);
    assert_eq!(app.selected_entry().unwrap().label, relation);
    key(&mut app, KeyCode::Char('r'));
    assert!(app.explore.dialog.is_some());
    app
}

/// Presses `t` until the dialog's method is `task`.
fn choose(app: &mut App, task: Task) {
    for _ in 0..Task::ALL.len() {
        if app.explore.dialog.as_ref().unwrap().task == task {
            return;
        }
        key(app, KeyCode::Char('t'));
    }
    panic!("the dialog never offered {task:?}");
}

/// Issue 38 §5: the dialog said "688 askable" for mcq-fib on radioactivity, then the run
/// stopped with a cut "no questions could be made from the sel…". The dialog now counts what
/// the run would make, by the run's own generation, and refuses there with the reason and a
/// method that works.
#[test]
fn the_run_dialog_counts_what_the_run_asks_and_refuses_what_the_run_would() {
    let mut app = dialog_on("radioactivity");
    choose(&mut app, Task::Statement);
    let s = render(&app, 80, 24);
    let asks = match &app.explore.dialog.as_ref().unwrap().makes {
        Some((_, Ok(m))) => m.questions,
        other => panic!("statement makes questions from radioactivity: {other:?}"),
    };
    assert!(asks > 0);
    assert!(flat(&s).contains(&format!("asks {asks} questions")), "{s}");

    choose(&mut app, Task::McqFib);
    let s = render(&app, 80, 24);
    let why = match &app.explore.dialog.as_ref().unwrap().makes {
        Some((_, Err(e))) => e.clone(),
        other => panic!("mcq-fib made questions from radioactivity: {other:?}"),
    };
    assert!(
        why.starts_with("no mcq-fib questions could be made from the selection ("),
        "{why}"
    );
    assert!(why.contains(" makes "), "names a method that works: {why}");
    // Said whole in the dialog (it wraps), and again when Enter is pressed: no run starts.
    assert!(flat(&s).contains(&fold(&why)), "{s}");
    key(&mut app, KeyCode::Enter);
    assert!(app.explore.dialog.is_some(), "the dialog stays open");
    assert!(app.commands.is_empty(), "no run was started");
    assert_eq!(app.status, why);
    assert!(flat(&render(&app, 80, 24)).contains(&fold(&why)));
}

/// Issue 38 §5 and §6: a run the engine refuses leaves no run directory; Live says why whole
/// at 80×24, over none of the run shown before (its cards, its answers).
#[test]
fn a_refused_run_leaves_nothing_and_live_says_why_whole_over_no_old_cards() {
    use kgscope::tui::app::{Live, RunRequest};
    use kgscope::tui::runner::{self, RunBase};
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    let shown = fixture(&runs);
    let mut app = open_app(&runs, &shown);
    key(&mut app, KeyCode::Char('2'));
    assert!(
        render(&app, 80, 24).contains("accuracy"),
        "the old run's cards"
    );
    // As the dialog's Enter does.
    app.live = Live {
        active: true,
        status: "preparing the run".into(),
        ..Live::default()
    };
    let preparing = render(&app, 80, 24);
    assert!(!preparing.contains("accuracy"), "{preparing}");
    assert!(!preparing.contains("Latest answers"), "{preparing}");

    let rt = tokio::runtime::Runtime::new().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let base = RunBase {
        kg: "sample:elements".into(),
        kg_sample: None,
        // A real model file: the model is checked before the questions are made, and the
        // run must be refused for its questions.
        model: ModelSpec::Llama {
            path: common::default_model(),
        },
        runs_dir: runs.clone(),
    };
    let req = RunRequest {
        relations: vec!["radioactivity".into()],
        entities: vec![],
        task: Task::McqFib,
        context: None,
        limit: 20,
        judge: None,
        writer: None,
    };
    let before = std::fs::read_dir(&runs).unwrap().count();
    runner::start(rt.handle(), &base, &req, tx);
    follow_run(&mut app, rx);
    assert_eq!(
        std::fs::read_dir(&runs).unwrap().count(),
        before,
        "no run directory left behind"
    );
    let s = render(&app, 80, 24);
    let said = flat(&s);
    assert!(
        said.contains("the run did not start: no mcq-fib questions could be made"),
        "{s}"
    );
    assert!(said.contains("--task statement makes "), "{s}");
    assert!(
        !s.contains("accuracy"),
        "no old cards under the refusal: {s}"
    );
}

/// Issue 38 §6: the exported labels' path was cut at the status line; a status message now
/// wraps (the screen gives up the rows it needs) at 80 columns.
#[test]
fn a_status_message_with_a_path_is_never_cut() {
    let tmp = tempfile::tempdir().unwrap();
    // A deep runs directory: the path is longer than an 80-column status line.
    let runs = tmp
        .path()
        .join("an annotator's runs/kept for the judge training of November");
    let run = fixture(&runs);
    let mut app = open_app(&runs, &run);
    key(&mut app, KeyCode::Char('5'));
    key(&mut app, KeyCode::Char('w'));
    key(&mut app, KeyCode::Char('X'));
    app.wait_for_export();
    let path = export_path(&run.path, LabelFormat::Grapheval, "tester");
    assert!(
        app.status.contains(&path.display().to_string()),
        "{}",
        app.status
    );
    assert!(app.status.chars().count() > 80, "{}", app.status);
    for (w, h) in [(80, 24), (120, 40)] {
        let s = render(&app, w, h);
        let last: Vec<&str> = s.lines().rev().take(4).collect();
        // A path is broken where the line ends, not only at its spaces.
        let squash = |t: &str| t.chars().filter(|c| !c.is_whitespace()).collect::<String>();
        let tail = squash(&last.into_iter().rev().collect::<Vec<_>>().join("\n"));
        assert!(tail.contains(&squash(&app.status)), "{w}×{h}:\n{s}");
        assert_eq!(s.lines().count(), h as usize);
    }
}

/// Issue 38 §6: "statement takes none: a judge reads open answers…" stayed on the status line
/// through the run the dialog then started; what the dialog says ends with it.
#[test]
fn what_the_dialog_said_ends_with_the_dialog() {
    let mut app = dialog_on("radioactivity");
    choose(&mut app, Task::Statement);
    key(&mut app, KeyCode::Char('j'));
    assert!(
        app.status.starts_with("statement takes none"),
        "{}",
        app.status
    );
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.status, "");
    key(&mut app, KeyCode::Char('r'));
    choose(&mut app, Task::Statement);
    key(&mut app, KeyCode::Char('j'));
    assert!(!app.status.is_empty());
    key(&mut app, KeyCode::Enter);
    assert!(!app.commands.is_empty(), "the run starts");
    assert_eq!(
        app.status, "",
        "the run starts without the dialog's message"
    );
}

/// Asserts that `screen` shows `rec`'s question, response and gold answer whole, each after
/// its name (wrapped over rows, read as one line).
fn shows_the_answer_whole(screen: &str, rec: &ResultRecord) {
    let gold = kgscope::method::of(rec.question.task).gold_text(&rec.question);
    let said = flat(screen);
    for (name, text) in [
        ("question", rec.question.prompt.as_str()),
        ("response", rec.response()),
        ("gold", gold.as_str()),
    ] {
        assert!(
            said.contains(&format!("{name} {}", fold(text))),
            "{name}:\n{screen}"
        );
    }
}

/// A run of short answers on sample:countries whose model rambles: each response is a
/// sentence longer than its Errors column.
fn rambling_run(dir: &Path) -> RunDir {
    recorded_run(dir, "no-model.gguf", Task::Saq, |i, _| {
        let text = format!(
            "Well, I am fairly sure the answer is the city on the river, number {i}, though \
             I might be mixing it up with another one."
        );
        let mut a = attempt(Verdict::False, text.clone(), 30);
        a.answer = Some(kgscope::verify::Answer::Text { text });
        a
    })
}

/// Issue 38 §7: Errors at 120 columns gave the gold 5 characters while the label column was
/// empty. The selected answer's question, response and gold are now shown whole under the
/// list, at 80×24 and 120×40, before the annotator labels it.
#[test]
fn errors_shows_the_selected_answers_question_response_and_gold_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let run = rambling_run(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    key(&mut app, KeyCode::Char('4'));
    assert!(app.error_indices().len() > 2);
    key(&mut app, KeyCode::Down);
    for (w, h) in [(80, 24), (120, 40)] {
        let s = render(&app, w, h);
        capture(&format!("errors-card-{w}x{h}"), &s);
        snap(&format!("errors-card-{w}x{h}"), &s);
        let row = app.error_indices()[app.errors.selected];
        let rec = app.data.as_ref().unwrap().record(row).unwrap();
        shows_the_answer_whole(&s, &rec);
        // No label column while nobody has labelled: the gold has its room in the list.
        assert!(!s.contains(" label "), "{s}");
    }
    // Once someone has labelled, the label column comes back.
    key(&mut app, KeyCode::Char('5'));
    key(&mut app, KeyCode::Char('w'));
    key(&mut app, KeyCode::Char('4'));
    let s = render(&app, 120, 40);
    assert!(s.contains(" label "), "{s}");
    assert!(s.contains("wrong"), "{s}");
}

/// Issue 38 §7: the Judge view's "label next" list showed neither the response nor the gold,
/// yet `r`/`w` label straight from it. The answer to label is now shown whole under the list
/// at 80×24 (the confusion matrices give way, and say where they are) and at 120×40.
#[test]
fn the_judge_view_shows_the_answer_to_label_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let (run, _, _) = super::judge::judged_run(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    key(&mut app, KeyCode::Char('7'));
    app.wait_for_judge();
    key(&mut app, KeyCode::Down);
    for (w, h) in [(80, 24), (120, 40)] {
        let s = render(&app, w, h);
        capture(&format!("judge-card-{w}x{h}"), &s);
        snap(&format!("judge-card-{w}x{h}"), &s);
        let j = app.judged().unwrap();
        assert!(j.report.queue.len() > 1, "{s}");
        let d = app.data.as_ref().unwrap();
        let rec = d
            .prepared_at(j.offsets[app.judge.selected])
            .unwrap()
            .unwrap();
        assert!(s.contains("The answer to label"), "{s}");
        shows_the_answer_whole(&s, &rec);
        if h == 24 {
            assert!(
                flat(&s).contains("confusion matrices: on a taller terminal"),
                "{s}"
            );
        } else {
            assert!(s.contains("correct      3   1   0"), "{s}");
        }
    }
}

/// Issue 38 §1: a judge is offered with what it is worth — where the open run was judged by it
/// and has hand labels, the run dialog shows its measured agreement (the Judge view's figures)
/// instead of guessing from its size.
#[test]
fn the_run_dialog_shows_a_judges_measured_agreement_on_the_open_run() {
    let tmp = tempfile::tempdir().unwrap();
    let judge = ModelSpec::Llama {
        path: PathBuf::from("judge-model.gguf"),
    };
    let (run, ninth, tenth) = super::judge::judged_run_by(tmp.path(), Some(judge.clone()));
    // The judge made the ninth an error and the tenth right: the hand labels agree with both.
    label_as_tester(&run, &ninth, LabelVerdict::Wrong, None);
    label_as_tester(&run, &tenth, LabelVerdict::Right, None);
    let mut app = open_app(tmp.path(), &run);
    app.can_run = true;
    app.model = Some(ModelSpec::Llama {
        path: PathBuf::from("no-model.gguf"),
    });
    app.judge_given = Some(judge.clone());
    key(&mut app, KeyCode::Char('7'));
    app.wait_for_judge();
    key(&mut app, KeyCode::Char('1'));
    search(&mut app, "capital");
    key(&mut app, KeyCode::Char('r'));
    choose(&mut app, Task::Saq);
    let offered = app.helper_choices();
    for _ in 0..offered.len() {
        let d = app.explore.dialog.as_ref().unwrap();
        if offered[d.judge].as_ref() == Some(&judge) {
            break;
        }
        key(&mut app, KeyCode::Char('j'));
    }
    let s = render(&app, 120, 40);
    assert!(
        flat(&s)
            .contains("measured on the open run: agrees with the hand labels on 2 of 2 answers"),
        "{s}"
    );
    // Another judge has no measure here: its size and kind are all the dialog can say.
    key(&mut app, KeyCode::Char('j'));
    assert!(!flat(&render(&app, 120, 40)).contains("measured on the open run"));
}

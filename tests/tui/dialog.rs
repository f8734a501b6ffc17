//! The run dialog's judge and question writer (issue 26 §1), what it remembers (§4), and `R`
//! on a run the CLI started with `--judge` and `--writer`: the judge and the writer are real
//! (the bundled model, in process), the model asked is a loopback server that answers "Yes.".

use super::*;
use kgscope::tui::app::{Command, RunRequest};
use kgscope::tui::runner::{self, RunBase};

/// A loopback OpenAI-compatible server that answers "Yes." to everything: every true premise
/// passes KG-FPQ's gate, so its false-premise questions are asked too.
fn yes_server() -> String {
    common::scripted_server(|_| common::sse_completion(&["Yes."], 2)).0
}

fn fake_model(base_url: &str) -> ModelSpec {
    ModelSpec::parse("openai:fake", Some(base_url), "OPENAI_API_KEY").unwrap()
}

fn default_model() -> ModelSpec {
    ModelSpec::parse("default", None, "OPENAI_API_KEY").unwrap()
}

/// Every record's generative attempts carry a judge's call with something said, and each
/// generative question what the writer wrote; returns how many of each there are.
fn judged_and_written(records: &[serde_json::Value]) -> (usize, usize) {
    let (mut judged, mut written) = (0, 0);
    for r in records {
        let p = &r["question"]["premise"];
        if p["format"] != "generative" {
            continue;
        }
        for a in r["attempts"].as_array().unwrap() {
            let call = &a["judge"];
            assert!(call.is_object(), "a generative answer unjudged: {r}");
            assert!(call["model"].as_str().unwrap().contains("gemma"), "{call}");
            assert!(
                !call["output"].as_str().unwrap().trim().is_empty(),
                "{call}"
            );
            judged += 1;
        }
        let w = &p["written"];
        assert!(
            w.is_object(),
            "a generative question the writer never saw: {r}"
        );
        assert!(w["model"].as_str().unwrap().contains("gemma"), "{w}");
        written += 1;
    }
    (judged, written)
}

/// The line of a drawn screen that holds `what`.
fn line_of<'a>(screen: &'a str, what: &str) -> &'a str {
    screen
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no {what:?} in {screen}"))
}

fn records_of(run: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(run.join("results.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The dialog offers a judge only to the methods with open answers and a writer only to
/// KG-FPQ, proposes the models given to `kgscope tui --judge/--writer`, and `j` goes through
/// none, the run's model and those. A KG-FPQ run started from it records the judge's calls
/// and the writer's questions.
#[test]
fn a_run_started_from_the_dialog_with_a_judge_records_the_judges_calls() {
    let base_url = yes_server();
    let tmp = tempfile::tempdir().unwrap();
    let index = Arc::new(load_index("sample:countries").unwrap());
    let mut app = App::new(Theme::default(), "sample:countries", Some(index));
    app.can_run = true;
    app.model = Some(fake_model(&base_url));
    app.judge_given = Some(default_model());
    app.writer_given = Some(default_model());
    search(&mut app, "capital");
    assert_eq!(app.selected_entry().unwrap().label, "capital");
    key(&mut app, KeyCode::Char('r'));
    // Statements have closed answers: no judge, no writer.
    let statement = render(&app, 120, 40);
    assert!(!statement.contains("judge "), "{statement}");
    assert!(!statement.contains("writer "), "{statement}");
    key(&mut app, KeyCode::Char('j'));
    assert!(
        app.status.contains("statement takes none"),
        "{}",
        app.status
    );
    while app.explore.dialog.as_ref().unwrap().task != Task::Saq {
        key(&mut app, KeyCode::Char('t'));
    }
    let saq = render(&app, 120, 40);
    let judge = line_of(&saq, "judge     ");
    assert!(
        judge.contains("gemma-3-270m") && judge.contains("(--judge, --writer)"),
        "{saq}"
    );
    assert!(saq.contains("j changes"), "{saq}");
    // What the judge is worth, before it judges (issue 38 §1): the bundled model is a base
    // model of 270M parameters.
    assert!(
        saq.contains("⚠ a 270M base model, not instruction-tuned"),
        "{saq}"
    );
    assert!(!saq.contains("writer "), "SAQ has no writer: {saq}");
    // none, the run's model, the given one: j goes round.
    assert_eq!(app.helper_choices().len(), 3);
    key(&mut app, KeyCode::Char('j'));
    let none = render(&app, 120, 40);
    assert!(
        none.contains("none: the rules alone read the answers"),
        "{none}"
    );
    key(&mut app, KeyCode::Char('j'));
    let own = render(&app, 120, 40);
    assert!(
        own.contains("openai:fake") && own.contains("(the run's model)"),
        "{own}"
    );
    // A served model is not judged by its name.
    assert!(!own.contains("⚠ a "), "{own}");
    key(&mut app, KeyCode::Char('j'));
    while app.explore.dialog.as_ref().unwrap().task != Task::KgFpq {
        key(&mut app, KeyCode::Char('t'));
    }
    let fpq = render(&app, 120, 40);
    assert!(
        line_of(&fpq, "writer    ").contains("gemma-3-270m"),
        "{fpq}"
    );
    assert!(fpq.contains("w changes"), "{fpq}");
    keys(&mut app, "1");
    key(&mut app, KeyCode::Enter);
    let Some(Command::StartRun(req)) = app.commands.pop() else {
        panic!("no run was requested")
    };
    assert_eq!(req.task, Task::KgFpq);
    assert_eq!(req.judge, Some(default_model()));
    assert_eq!(req.writer, Some(default_model()));

    let rt = tokio::runtime::Runtime::new().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let base = RunBase {
        kg: "sample:countries".into(),
        kg_sample: None,
        model: fake_model(&base_url),
        runs_dir: tmp.path().to_path_buf(),
    };
    runner::start(rt.handle(), &base, &req, tx);
    follow_run(&mut app, rx);
    assert_eq!(app.live.finished, Some(false), "{}", app.live.status);
    let d = app.data.as_ref().unwrap();
    let config = &d.manifest.config;
    assert_eq!(config.judge, Some(default_model()));
    assert_eq!(config.fpq.as_ref().unwrap().writer, Some(default_model()));
    // Live flags verdicts a weak judge decided.
    key(&mut app, KeyCode::Char('2'));
    let live = render(&app, 120, 40);
    assert!(
        live.contains("⚠ verdicts decided by gemma-3-270m"),
        "{live}"
    );
    let d = app.data.as_ref().unwrap();
    let (judged, written) = judged_and_written(&records_of(&d.run.path));
    assert!(
        judged > 0 && written > 0,
        "{judged} judged, {written} written"
    );
}

/// A method without open answers asks no judge even when one was chosen for another method
/// in the same dialog: the request carries none.
#[test]
fn a_judge_chosen_for_one_method_does_not_follow_to_a_method_without_open_answers() {
    let index = Arc::new(load_index("sample:countries").unwrap());
    let mut app = App::new(Theme::default(), "sample:countries", Some(index));
    app.can_run = true;
    app.model = Some(default_model());
    app.judge_given = Some(default_model());
    search(&mut app, "capital");
    key(&mut app, KeyCode::Char('r'));
    key(&mut app, KeyCode::Enter);
    let Some(Command::StartRun(req)) = app.commands.pop() else {
        panic!("no run was requested")
    };
    assert_eq!(
        (req.task, req.judge, req.writer),
        (Task::Statement, None, None)
    );
    let base = RunBase {
        kg: "sample:countries".into(),
        kg_sample: None,
        model: default_model(),
        runs_dir: PathBuf::new(),
    };
    let saq = RunRequest {
        task: Task::Saq,
        judge: Some(default_model()),
        writer: Some(default_model()),
        ..req
    };
    let cfg = runner::config_for(&base, &saq);
    assert_eq!(cfg.judge, Some(default_model()));
    assert!(cfg.fpq.is_none(), "a writer is KG-FPQ's alone");
}

/// The dialog opens with the method, limit and context it was last set to: in the same
/// session, and in the next one through the state file; a broken state file is ignored.
#[test]
fn the_dialog_remembers_its_method_limit_and_context_across_sessions() {
    let tmp = tempfile::tempdir().unwrap();
    let state = tmp.path().join("home").join("tui-state.json");
    let index = Arc::new(load_index("sample:countries").unwrap());
    let session = |state: &Path| {
        let mut app = App::new(Theme::default(), "sample:countries", Some(index.clone()));
        app.can_run = true;
        app.model = Some(default_model());
        app.load_state(state.to_path_buf());
        search(&mut app, "capital");
        key(&mut app, KeyCode::Char('r'));
        app
    };
    let mut app = session(&state);
    let d = app.explore.dialog.as_ref().unwrap();
    assert_eq!((d.task, d.limit, d.context), (Task::Statement, 20, None));
    while app.explore.dialog.as_ref().unwrap().task != Task::Tfq {
        key(&mut app, KeyCode::Char('t'));
    }
    key(&mut app, KeyCode::Char('c'));
    keys(&mut app, "35");
    let context = app.explore.dialog.as_ref().unwrap().context;
    assert!(context.is_some());
    key(&mut app, KeyCode::Esc);
    // The same session: the next dialog.
    key(&mut app, KeyCode::Char('r'));
    let d = app.explore.dialog.as_ref().unwrap();
    assert_eq!((d.task, d.limit, d.context), (Task::Tfq, 35, context));
    key(&mut app, KeyCode::Enter);
    assert!(matches!(app.commands.pop(), Some(Command::StartRun(_))));

    // The next session.
    let app = session(&state);
    let d = app.explore.dialog.as_ref().unwrap();
    assert_eq!((d.task, d.limit, d.context), (Task::Tfq, 35, context));
    let shown = render(&app, 120, 40);
    assert!(shown.contains("task      tfq"), "{shown}");

    // A broken file: the defaults, no crash; the next choice writes it whole again.
    std::fs::write(&state, "{\"dialog\": {\"task\": 7").unwrap();
    let mut app = session(&state);
    let d = app.explore.dialog.as_ref().unwrap();
    assert_eq!((d.task, d.limit), (Task::Statement, 20));
    keys(&mut app, "5");
    key(&mut app, KeyCode::Esc);
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    assert_eq!(saved["dialog"]["limit"], 5);
    assert_eq!(saved["dialog"]["task"], "statement");
}

/// `R` on a run the CLI started with `--judge default --writer default`, interrupted after
/// its true-premise questions: the TUI continues it with the manifest's judge and writer, as
/// `kgscope run --resume` does, so the false-premise questions asked after `R` are written
/// and judged.
#[test]
fn r_on_a_judged_cli_run_keeps_the_judge_and_the_writer() {
    let base_url = yes_server();
    let tmp = tempfile::tempdir().unwrap();
    let out = common::run(&[
        "run",
        "--kg",
        "sample:countries",
        "--method",
        "kg-fpq",
        "--relation",
        "capital",
        "--limit",
        "2",
        "--format",
        "generative",
        "--repeats",
        "1",
        "--model",
        "openai:fake",
        "--base-url",
        &base_url,
        "--judge",
        "default",
        "--writer",
        "default",
        "--runs-dir",
        tmp.path().to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run_dir = common::only_run(tmp.path()).unwrap();
    let whole = records_of(&run_dir);
    let (judged, _) = judged_and_written(&whole);
    assert!(judged > 0, "the CLI run judged nothing: {whole:#?}");
    // Interrupted after the gate: only the true-premise answers are on record (results.jsonl
    // is append-only, so this is what a run stopped there leaves).
    let tpqs: Vec<String> = whole
        .iter()
        .filter(|r| r["question"]["premise"]["edit"].is_null())
        .map(|r| r.to_string() + "\n")
        .collect();
    assert!(tpqs.len() < whole.len());
    std::fs::write(run_dir.join("results.jsonl"), tpqs.concat()).unwrap();
    let manifest_path = run_dir.join("manifest.json");
    let mut manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest_path).unwrap()).unwrap();
    manifest["finished_at"] = serde_json::Value::Null;
    std::fs::write(&manifest_path, manifest.to_string()).unwrap();

    let run = RunDir::open(tmp.path(), run_dir.file_name().unwrap().to_str().unwrap()).unwrap();
    let mut app = open_app(tmp.path(), &run);
    app.can_run = true;
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Char('R'));
    let Some(Command::Continue(path)) = app.commands.pop() else {
        panic!("R did not ask to continue the run")
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    runner::resume(rt.handle(), tmp.path(), path.to_str().unwrap(), tx);
    follow_run(&mut app, rx);
    assert_eq!(app.live.finished, Some(false), "{}", app.live.status);
    let after = records_of(&run_dir);
    assert_eq!(
        after.len(),
        whole.len(),
        "the false premises were asked again"
    );
    let continued = &after[tpqs.len()..];
    let (judged, written) = judged_and_written(continued);
    assert!(
        judged > 0 && written > 0,
        "continued with {judged} judged and {written} written"
    );
}

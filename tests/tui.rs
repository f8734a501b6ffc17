//! The TUI on a fixed small run (no model): every screen drawn into a `TestBackend`, keys
//! driving the app, hand labels reaching labels.jsonl, and `kgscope labels export`.

use crate::common;
use common::Tmux;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use kgscope::questions::Task;
use kgscope::run::engine::verify_record;
use kgscope::run::{session, Attempt, ModelSpec, ResultRecord, RunConfig, RunEvent};
use kgscope::store::labels::{ErrorType, Label, LabelBook, LabelVerdict, Retract, Retraction};
use kgscope::store::RunDir;
use kgscope::tui::app::{App, Cell, LabelFilter, RunData, Screen};
use kgscope::tui::event_loop::{build_app, Options};
use kgscope::tui::kg_load::load_index;
use kgscope::tui::{keymap, ui, Theme};
use kgscope::verify::{OutcomeKind, Verdict};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

const EVIL: &str = "\u{1b}[2J\u{1b}]0;pwned\u{7}";

/// Writes a run of 16 statement questions from sample:countries with made-up answers that
/// cover every outcome; one response carries terminal escape sequences.
fn fixture(dir: &Path) -> RunDir {
    let model = ModelSpec::Llama {
        path: PathBuf::from("no-model.gguf"),
    };
    fixture_with(dir, model, usize::MAX, Task::Statement)
}

/// The fixture run with `model` in its manifest and only its first `answered` questions
/// answered (an interrupted run).
fn fixture_with(dir: &Path, model: ModelSpec, answered: usize, task: Task) -> RunDir {
    fixture_on("sample:countries", dir, model, answered, task)
}

/// [`fixture_with`] on another KG.
fn fixture_on(kg: &str, dir: &Path, model: ModelSpec, answered: usize, task: Task) -> RunDir {
    fixture_of(RunConfig::new(kg, model, task, 16), dir, answered)
}

/// A fixture's one attempt: the response and the verdict the rules "read" from it.
fn attempt(verdict: Verdict, response: String, completion_tokens: u32) -> Attempt {
    Attempt {
        response,
        verdict,
        answer: None,
        rule: "fixture".into(),
        stage: Default::default(),
        judge: None,
        compound: None,
        trained: None,
        likelihood: None,
        prompt_tokens: 10,
        completion_tokens,
        first_token_ms: 5,
        total_ms: 9,
        finish_reason: "stop".into(),
    }
}

/// [`fixture_with`] for any run configuration.
fn fixture_of(cfg: RunConfig, dir: &Path, answered: usize) -> RunDir {
    let prepared = session::prepare_new(cfg, "test-model", dir, &|_| {}).unwrap();
    assert!(prepared.questions.len() >= 8);
    let mut out = prepared.run.results_appender().unwrap();
    for (i, q) in prepared.questions.iter().enumerate().take(answered) {
        let (verdict, response) = match i % 4 {
            0 => (Verdict::True, "True.".to_string()),
            1 => (Verdict::False, "False.".to_string()),
            2 => (Verdict::Idk, "I don't know.".to_string()),
            _ => (Verdict::Invalid, format!("Hmm{EVIL} maybe")),
        };
        out.push(&verify_record(
            q.clone(),
            vec![attempt(verdict, response, 3)],
        ))
        .unwrap();
    }
    out.sync().unwrap();
    prepared.run
}

/// The TUI on the fixture run, in a temporary runs directory that lives as long as the result.
fn fixture_app() -> (tempfile::TempDir, App) {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let app = open_app(tmp.path(), &run);
    (tmp, app)
}

/// The TUI on a recorded run, labelling as "tester" (not the account running the tests, so
/// that what is drawn is the same on every machine).
fn open_app(dir: &Path, run: &RunDir) -> App {
    open_app_on("sample:countries", dir, run)
}

/// [`open_app`] on another KG.
fn open_app_on(kg: &str, dir: &Path, run: &RunDir) -> App {
    let mut app = build_app(&Options {
        kg: kg.into(),
        model: None,
        base_url: None,
        api_key_env: "OPENAI_API_KEY".into(),
        timeouts: Default::default(),
        run: Some(run.id.clone()),
        runs_dir: dir.to_path_buf(),
        theme: "dark".into(),
        log: None,
        kg_sample: None,
        ..Default::default()
    })
    .unwrap();
    app.annotator = "tester".into();
    app
}

/// A run with nothing answered yet (its results.jsonl empty), and the fixture's answers to
/// write into it, as the engine's recorder would.
fn empty_run_and_answers(dir: &Path) -> (RunData, Vec<ResultRecord>) {
    let answered = fixture(&dir.join("answers"));
    let (_, _, answers) = session::open_results(&dir.join("answers"), &answered.id).unwrap();
    let model = ModelSpec::Llama {
        path: PathBuf::from("no-model.gguf"),
    };
    let run = fixture_with(dir, model, 0, Task::Statement);
    let manifest = run.read_manifest().unwrap();
    (RunData::open(run, manifest).unwrap(), answers)
}

/// Appends answers to the open run's results.jsonl, as the engine's recorder does before it
/// hands their events over.
fn record(app: &App, answers: &[ResultRecord]) {
    let mut log = app.data.as_ref().unwrap().run.results_appender().unwrap();
    for r in answers {
        log.push(r).unwrap();
    }
    log.flush().unwrap();
}

/// Feeds the runner's messages to `app` until the run ends, as the event loop does; returns
/// the run's control if it got going.
fn follow_run(
    app: &mut App,
    rx: std::sync::mpsc::Receiver<kgscope::tui::runner::RunnerMsg>,
) -> Option<kgscope::run::Control> {
    use kgscope::tui::runner::RunnerMsg;
    let mut control = None;
    while app.live.finished.is_none() {
        match rx.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(msg) => {
                let answered = matches!(msg, RunnerMsg::Event(RunEvent::Answered(_)));
                if let Some(c) = kgscope::tui::event_loop::apply(app, msg) {
                    control = Some(c);
                }
                if answered {
                    // The next frame's aggregates hold every answer Live has been told of.
                    app.catch_up();
                    let told = app.live.already_done as u64 + app.live.answered;
                    let d = app.data.as_ref().unwrap();
                    assert!(d.tally.answered >= told, "{} < {told}", d.tally.answered);
                }
            }
            Err(e) => panic!("the runner went quiet: {e} ({})", app.live.status),
        }
    }
    control
}

/// Runs `limit` statement questions from sample:countries with `model` through the TUI's
/// runner, into `app`, until the run ends.
fn run_through_runner(app: &mut App, model: ModelSpec, runs_dir: &Path, limit: usize) {
    use kgscope::tui::app::RunRequest;
    use kgscope::tui::runner::{self, RunBase};
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let base = RunBase {
        kg: "sample:countries".into(),
        kg_sample: None,
        model,
        runs_dir: runs_dir.to_path_buf(),
    };
    let req = RunRequest {
        relations: vec![],
        entities: vec![],
        task: Task::Statement,
        context: None,
        limit,
        judge: None,
        writer: None,
    };
    runner::start(rt.handle(), &base, &req, tx);
    follow_run(app, rx);
}

fn render(app: &App, w: u16, h: u16) -> String {
    // As the event loop does before each frame.
    app.prepare_view();
    render_prepared(app, w, h)
}

/// The frame as drawn from what was prepared for it, without preparing it again.
fn render_prepared(app: &App, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| ui::draw(f, app)).unwrap();
    let buf = term.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..h {
        for x in 0..w {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    assert!(
        !out.chars().any(|c| c.is_control() && c != '\n'),
        "a control character reached the screen:\n{out}"
    );
    out
}

/// The IRIs of the relations at `relations` (indices into the index's relations), as a run
/// names them.
fn relation_iris(index: &kgscope::kg::KgIndex, relations: &[usize]) -> Vec<String> {
    relations
        .iter()
        .map(|&r| {
            let p = index.relations()[r].predicate;
            kgscope::kg::term_str(index.term(p)).to_string()
        })
        .collect()
}

fn key(app: &mut App, code: KeyCode) {
    app.on_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn keys(app: &mut App, s: &str) {
    for c in s.chars() {
        key(app, KeyCode::Char(c));
    }
}

/// A new search in Explore: `/`, Ctrl-U erases the old query, `text`, Enter.
fn search(app: &mut App, text: &str) {
    keys(app, "/");
    app.on_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    assert!(app.explore.query.is_empty());
    keys(app, text);
    key(app, KeyCode::Enter);
}

/// A label by "tester" on `question_id`, as the TUI writes one.
fn label_as_tester(
    run: &RunDir,
    question_id: &str,
    label: LabelVerdict,
    error_type: Option<ErrorType>,
) {
    label_as(run, "tester", question_id, label, error_type);
}

/// A label by `annotator` on `question_id`, as the TUI writes one.
fn label_as(
    run: &RunDir,
    annotator: &str,
    question_id: &str,
    label: LabelVerdict,
    error_type: Option<ErrorType>,
) {
    run.append_label(Label {
        question_id: question_id.to_string(),
        label,
        error_type,
        note: None,
        cause: None,
        annotator: annotator.into(),
        time: "2026-01-01T00:00:00Z".into(),
    })
    .unwrap();
}

/// `kgscope labels export RUN --format FORMAT --out -`, one JSON value per line.
fn export_labels(runs_dir: &Path, run: &RunDir, format: &str) -> Vec<serde_json::Value> {
    let out = common::ok(&[
        "labels",
        "export",
        &run.id,
        "--format",
        format,
        "--out",
        "-",
        "--runs-dir",
        runs_dir.to_str().unwrap(),
    ]);
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Screen captures at 100×30, written for the closing note of the TUI issue.
fn capture(name: &str, text: &str) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tui-captures");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(format!("{name}.txt")), text).unwrap();
}

/// An insta snapshot of a drawn screen. Run ids (time and a random suffix) are masked and
/// trailing blanks trimmed, so a snapshot changes only when what is drawn changes.
fn snap(name: &str, screen: &str) {
    let text: String = screen
        .lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect();
    insta::with_settings!({
        // The header cuts the id to fit, so mask whatever of it shows.
        filters => vec![(r"run \d{8}-[\w-]*", "run [id]")],
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn every_screen_draws_the_fixed_run() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    assert_eq!(app.screen, Screen::Heatmaps, "--run opens on the heatmaps");

    key(&mut app, KeyCode::Char('1'));
    keys(&mut app, "/France");
    key(&mut app, KeyCode::Enter);
    let explore = render(&app, 100, 30);
    capture("explore", &explore);
    snap("explore", &explore);
    assert!(explore.contains("entity   France"), "{explore}");
    assert!(explore.contains("French Republic"), "{explore}");
    assert!(explore.contains("capital → Paris"), "{explore}");
    assert!(explore.contains("degree"), "{explore}");
    key(&mut app, KeyCode::Char('h'));
    let two_hops = render(&app, 100, 90);
    assert!(two_hops.contains("via Paris"), "{two_hops}");
    key(&mut app, KeyCode::Char('h'));

    key(&mut app, KeyCode::Char('2'));
    let live = render(&app, 100, 30);
    capture("live", &live);
    snap("live", &live);
    assert!(live.contains("Browsing a recorded run"), "{live}");
    // The latest answers on disk stand in for the token stream of a run going on.
    assert!(live.contains("Latest answers"), "{live}");
    assert!(live.contains("⇒ I don't know."), "{live}");
    assert!(
        live.contains("accuracy") && live.contains("correctness"),
        "{live}"
    );
    assert!(!live.contains("win rate"), "{live}");

    key(&mut app, KeyCode::Char('3'));
    let heat = render(&app, 100, 30);
    capture("heatmaps", &heat);
    snap("heatmaps", &heat);
    // A statement run opens on accuracy per answer; its n counts answers, and says so.
    assert!(heat.contains("accuracy by relation"), "{heat}");
    assert!(
        heat.contains("n=") && heat.contains("n = answers"),
        "{heat}"
    );

    key(&mut app, KeyCode::Char('v'));
    let heat2 = render(&app, 100, 30);
    capture("heatmaps-head-tail", &heat2);
    snap("heatmaps-head-tail", &heat2);
    assert!(heat2.contains("head \\ tail"), "{heat2}");
    // The fixed run's facts have no dates: no year view to land on ("no groups yet"), `v`
    // goes from head × tail back to the relations.
    assert!(app.data.as_ref().unwrap().snapshot.by_year.is_empty());
    key(&mut app, KeyCode::Char('v'));
    key(&mut app, KeyCode::Char('m'));
    let heat3 = render(&app, 100, 30);
    // From accuracy, the statement run's default, `m` goes on to the abstain rate.
    assert!(heat3.contains("abstain rate by relation"), "{heat3}");
    assert!(!heat3.contains("no groups yet"), "{heat3}");

    key(&mut app, KeyCode::Char('4'));
    let errors = render(&app, 100, 30);
    capture("errors", &errors);
    snap("errors", &errors);
    assert!(errors.contains("Errors: "), "{errors}");
    assert!(
        errors.contains("invalid") && errors.contains("abstained"),
        "{errors}"
    );

    key(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, Screen::Inspect);
    let inspect = render(&app, 100, 30);
    capture("inspect", &inspect);
    snap("inspect", &inspect);
    assert!(inspect.contains("prompt"), "{inspect}");
    assert!(inspect.contains("verifier trace"), "{inspect}");
    assert!(inspect.contains("KG facts"), "{inspect}");
    assert!(inspect.contains("not labelled"), "{inspect}");
    // The KG facts pane scrolls through both ends' edges, clamped at the end.
    assert!(inspect.contains("KG facts 1–"), "{inspect}");
    key(&mut app, KeyCode::Char('J'));
    let facts = render(&app, 100, 30);
    assert!(facts.contains("KG facts 6–"), "{facts}");
    for _ in 0..200 {
        key(&mut app, KeyCode::Char('J'));
    }
    let facts_end = render(&app, 100, 30);
    // The end shows the asked object's incoming edges (which object, and whether its header is
    // still in view, depends on the sample KG's facts).
    assert!(facts_end.contains(" ← "), "{facts_end}");
    let of = |s: &str| {
        s.split(" lines")
            .next()
            .unwrap()
            .rsplit(' ')
            .next()
            .unwrap()
            .to_string()
    };
    assert!(
        facts_end.contains(&format!("–{0} of {0} lines", of(&facts_end))),
        "{facts_end}"
    );
    key(&mut app, KeyCode::Char('n'));
    key(&mut app, KeyCode::Char('p'));
    assert_eq!(
        app.inspect.facts_scroll, 0,
        "moving to another error starts at the top"
    );
    key(&mut app, KeyCode::PageDown);
    let scrolled = render(&app, 100, 30);
    assert!(!scrolled.contains("prompt    "), "{scrolled}");
    assert!(scrolled.contains("verifier trace"), "{scrolled}");
    key(&mut app, KeyCode::PageUp);

    key(&mut app, KeyCode::Char('?'));
    let help = render(&app, 100, 30);
    capture("help", &help);
    snap("help", &help);
    for row in keymap::ROWS {
        assert!(help.contains(row.keys), "help lacks {}:\n{help}", row.keys);
        assert!(help.contains(row.what), "help cuts {:?}:\n{help}", row.what);
    }
    key(&mut app, KeyCode::Esc);
    assert!(!app.help);
    // Every key fits the smallest supported terminal.
    key(&mut app, KeyCode::Char('?'));
    let small_help = render(&app, 80, 24);
    assert!(
        small_help.contains("e  u  c         note · undo your latest label · clear yours"),
        "{small_help}"
    );
    key(&mut app, KeyCode::Esc);

    // The smallest supported size still draws every screen; below it, a clear message.
    for n in ['1', '2', '3', '4', '5'] {
        key(&mut app, KeyCode::Char(n));
        let s = render(&app, 80, 24);
        assert!(!s.contains("terminal too small"));
    }
    let small = render(&app, 79, 24);
    snap("too-small", &small);
    assert!(small.contains("terminal too small"), "{small}");
    assert!(small.contains("80×24"), "{small}");
}

#[test]
fn model_responses_with_escape_sequences_draw_harmlessly() {
    let (_tmp, mut app) = fixture_app();
    key(&mut app, KeyCode::Char('4'));
    key(&mut app, KeyCode::Char('o'));
    key(&mut app, KeyCode::Char('o'));
    key(&mut app, KeyCode::Char('o')); // invalid only: the responses with the escapes
    let errors = render(&app, 100, 30);
    assert!(errors.contains("Hmm maybe"), "{errors}");
    key(&mut app, KeyCode::Enter);
    let inspect = render(&app, 100, 30);
    assert!(inspect.contains("Hmm maybe"), "{inspect}");
    assert!(!inspect.contains("pwned"), "{inspect}");
}

#[test]
fn kg_labels_with_escape_sequences_draw_harmlessly() {
    let tmp = tempfile::tempdir().unwrap();
    let ttl = tmp.path().join("evil.ttl");
    std::fs::write(
        &ttl,
        "@prefix ex: <http://example.org/> .\n\
         @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
         @prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n\
         ex:a rdfs:label \"Evil\\u001B[2J\\u001B]0;pwned\\u0007 City\"@en ;\n\
         \x20   skos:altLabel \"Alias\\u001B[31m red\"@en ;\n\
         \x20   ex:partOf ex:b .\n\
         ex:b rdfs:label \"Bee\\u009B1;1H land\"@en .\n\
         ex:partOf rdfs:label \"part\\u0007 of\"@en .\n",
    )
    .unwrap();
    let spec = ttl.to_str().unwrap();
    let index = Arc::new(load_index(spec).unwrap());
    let mut app = App::new(Theme::default(), spec, Some(index));
    keys(&mut app, "/Evil");
    key(&mut app, KeyCode::Enter);
    let s = render(&app, 100, 30);
    assert!(s.contains("Evil City"), "{s}");
    assert!(s.contains("Alias red"), "{s}");
    assert!(s.contains("part of → Bee"), "{s}");
    assert!(!s.contains("pwned"), "{s}");
}

/// A KG with a hub: several labels, two dates, `spokes` entities pointing at it.
fn hub_app(dir: &Path, spokes: usize) -> App {
    let mut ttl = String::from(
        "@prefix ex: <http://example.org/> .\n\
         @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
         @prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n\
         @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\
         ex:hub rdfs:label \"Hub\"@en, \"Moyeu\"@fr ; skos:prefLabel \"The Hub\"@en ;\n\
         \x20   <http://schema.org/name> \"Hub Town\" ; skos:altLabel \"Centre\"@en ;\n\
         \x20   ex:founded \"1776-07-04\"^^xsd:date ;\n\
         \x20   ex:opened \"2001-01-01T10:00:00Z\"^^xsd:dateTime ; ex:partOf ex:region .\n\
         ex:region rdfs:label \"Region\"@en ; ex:in ex:country .\n",
    );
    for i in 0..spokes {
        ttl.push_str(&format!(
            "ex:s{i:03} rdfs:label \"Spoke {i:03}\"@en ; ex:linksTo ex:hub .\n"
        ));
    }
    let path = dir.join("hub.ttl");
    std::fs::write(&path, ttl).unwrap();
    let spec = path.to_str().unwrap();
    let index = Arc::new(load_index(spec).unwrap());
    let mut app = App::new(Theme::default(), spec, Some(index));
    keys(&mut app, "/Hub");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.selected_entry().unwrap().label, "Hub");
    app
}

#[test]
fn explore_scrolls_a_hub_edge_list_with_shift_j_and_k() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = hub_app(tmp.path(), 300);
    let top = render(&app, 100, 30);
    // 3 outgoing edges, 300 incoming; the pane shows the first ones and says where it is.
    assert!(top.contains("edges 1–"), "{top}");
    assert!(top.contains("of 303 · J/K scroll"), "{top}");
    assert!(top.contains("linksTo ← Spoke 000"), "{top}");
    assert!(!top.contains("Spoke 040"), "{top}");
    for _ in 0..4 {
        key(&mut app, KeyCode::Char('J'));
    }
    assert_eq!(app.explore.scroll, 40);
    let down = render(&app, 100, 30);
    capture("explore-hub-scrolled", &down);
    // Line 40 is the 36th incoming edge, edge number 3 + 36.
    assert!(down.contains("edges 39–"), "{down}");
    assert!(down.contains("linksTo ← Spoke 035"), "{down}");
    assert!(!down.contains("Spoke 034"), "{down}");
    key(&mut app, KeyCode::Char('K'));
    assert_eq!(app.explore.scroll, 30);
    // Scrolling stops at the last line, and K comes straight back from there.
    for _ in 0..100 {
        key(&mut app, KeyCode::Char('J'));
    }
    assert_eq!(app.explore.scroll, 304);
    let end = render(&app, 100, 30);
    assert!(end.contains("edges 303–303 of 303"), "{end}");
    assert!(end.contains("Spoke 299"), "{end}");
    key(&mut app, KeyCode::Char('K'));
    assert_eq!(app.explore.scroll, 294);
    // Another number of hops, or another selection, starts from the top.
    key(&mut app, KeyCode::Char('h'));
    assert_eq!(app.explore.scroll, 0);
    key(&mut app, KeyCode::Char('J'));
    keys(&mut app, "/Spoke 001");
    assert_eq!(app.explore.scroll, 0);
    while !app.explore.query.is_empty() {
        key(&mut app, KeyCode::Backspace);
    }
    key(&mut app, KeyCode::Esc);
    while app.selected_entry().unwrap().label != "Hub" {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Char('J'));
    assert_eq!(app.explore.scroll, 10);
    key(&mut app, KeyCode::Down);
    assert_eq!(app.explore.scroll, 0);
    // The keys are in the help table, which still fits the smallest terminal.
    key(&mut app, KeyCode::Char('?'));
    let help = render(&app, 80, 24);
    assert!(help.contains("h  J K"), "{help}");
    assert!(help.contains("e  u  c         note · undo"), "{help}");
}

#[test]
fn explore_card_shows_every_label_the_dates_and_incoming_neighbours() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = hub_app(tmp.path(), 3);
    let s = render(&app, 100, 30);
    assert!(s.contains("labels   Hub | Hub Town | The Hub"), "{s}");
    assert!(s.contains("aliases  Centre"), "{s}");
    assert!(!s.contains("Moyeu"), "{s}");
    assert!(
        s.contains("dates    founded 1776-07-04 | opened 2001-01-01T10:00:00Z"),
        "{s}"
    );
    assert!(s.contains("edges: all 6"), "{s}");
    key(&mut app, KeyCode::Char('h'));
    let two = render(&app, 100, 40);
    capture("explore-two-hops", &two);
    assert!(two.contains("via Region"), "{two}");
    assert!(two.contains("in → country"), "{two}");
    assert!(two.contains("via Spoke 000, which links here"), "{two}");
    assert!(two.contains("via Spoke 002, which links here"), "{two}");
}

/// The current labels of a run as a reopened run reads them.
fn book_of(run: &RunDir) -> LabelBook {
    LabelBook::from_entries(run.read_labels().unwrap())
}

/// Two annotators label in one window in turn: a note written first goes with the label,
/// labelling moves on to the next unlabelled error, a change of mind is a whole new
/// judgement, undo and clear touch only one's own labels, and progress counts one's own.
#[test]
fn labelling_flow_two_annotators_change_of_mind_undo_advance_progress() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    app.annotator = "ann".into();
    key(&mut app, KeyCode::Char('5'));
    let errors = app.error_indices();
    let of = errors.len();
    assert!(of >= 6, "{of}");
    assert_eq!(app.inspect.current, Some(errors[0]));
    assert_eq!(app.label_progress(), (0, of));
    let qid = |app: &App| app.inspected().unwrap().question.id.clone();
    let first = qid(&app);

    // A note written before the label is kept, then saved with it; q and 3 are text here.
    key(&mut app, KeyCode::Char('e'));
    keys(&mut app, "capital moved in 2019; q and 3 are text");
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        app.screen,
        Screen::Inspect,
        "typing a note switches nothing"
    );
    assert!(!app.quit);
    assert!(
        run.read_labels().unwrap().is_empty(),
        "no label without a verdict"
    );
    assert!(render(&app, 100, 30).contains("note to save with it: capital moved"));
    // An error type is a verdict too: wrong, of that type. It advances.
    key(&mut app, KeyCode::Char('f'));
    assert_eq!(app.inspect.current, Some(errors[1]));
    assert_eq!(app.label_progress(), (1, of));
    let l = book_of(&run).get(&first, "ann").cloned().unwrap();
    assert_eq!(l.label, LabelVerdict::Wrong);
    assert_eq!(l.error_type, Some(ErrorType::FactualError));
    assert_eq!(
        l.note.as_deref(),
        Some("capital moved in 2019; q and 3 are text")
    );
    assert_eq!(l.annotator, "ann");
    assert!(!l.time.is_empty());
    let second = qid(&app);
    key(&mut app, KeyCode::Char('r'));
    assert_eq!(app.inspect.current, Some(errors[2]));
    assert_eq!(app.label_progress(), (2, of));

    // A change of mind: back to the first (k moves, it labels nothing), KG wrong. The new
    // judgement keeps neither the earlier type nor the note, and labelling moves on to the
    // next error ann has not labelled, past the labelled second one.
    keys(&mut app, "kk");
    assert_eq!(qid(&app), first);
    key(&mut app, KeyCode::Char('g'));
    let l = book_of(&run).get(&first, "ann").cloned().unwrap();
    assert_eq!(l.label, LabelVerdict::KgWrong);
    assert_eq!((l.error_type, l.note), (None, None));
    assert_eq!(app.inspect.current, Some(errors[2]));
    assert_eq!(app.label_progress(), (2, of));

    // Undo takes back ann's latest label wherever it was, shows it, and restores the state
    // before it: the first error's wrong / factual error with its note.
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(qid(&app), first);
    let l = app.inspected_label().unwrap();
    assert_eq!(l.label, LabelVerdict::Wrong);
    assert_eq!(l.error_type, Some(ErrorType::FactualError));
    assert!(
        app.status.contains("back to wrong / factual error"),
        "{}",
        app.status
    );

    // A second annotator: their own progress, the first annotator's labels untouched.
    app.annotator = "bob".into();
    assert_eq!(app.label_progress(), (0, of));
    key(&mut app, KeyCode::Char('w'));
    assert_eq!(app.inspect.current, Some(errors[1]));
    key(&mut app, KeyCode::Char('a'));
    key(&mut app, KeyCode::Char('p'));
    key(&mut app, KeyCode::Char('p'));
    assert_eq!(qid(&app), first);
    assert_eq!(app.label_progress(), (2, of));
    let book = book_of(&run);
    assert_eq!(book.get(&first, "bob").unwrap().label, LabelVerdict::Wrong);
    assert_eq!(
        book.get(&first, "bob").unwrap().note,
        None,
        "ann's note is not bob's"
    );
    assert_eq!(book.get(&first, "ann").unwrap().label, LabelVerdict::Wrong);
    assert_eq!(book.get(&second, "ann").unwrap().label, LabelVerdict::Right);
    assert_eq!(
        book.get(&second, "bob").unwrap().label,
        LabelVerdict::Abstained
    );

    for (w, h) in [(80, 24), (200, 60)] {
        let s = render(&app, w, h);
        assert!(s.contains("2 of"), "{s}");
        assert!(s.contains("labelled by bob"), "{s}");
        assert!(s.contains("yours  wrong"), "{s}");
        assert!(s.contains("ann: wrong / factual error"), "{s}");
        snap(&format!("inspect-labelling-{w}x{h}"), &s);
    }
    capture("inspect-labelling", &render(&app, 100, 30));

    // Clear removes bob's label only; undo brings it back.
    key(&mut app, KeyCode::Char('c'));
    assert_eq!(app.inspected_label(), None);
    assert_eq!(app.label_progress(), (1, of));
    assert!(book_of(&run).get(&first, "ann").is_some());
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.inspected_label().unwrap().label, LabelVerdict::Wrong);
    key(&mut app, KeyCode::Char('c'));
    key(&mut app, KeyCode::Char('c'));
    assert!(app.status.contains("nothing to clear"), "{}", app.status);

    // Jump to the next error bob has not labelled.
    key(&mut app, KeyCode::Char('N'));
    assert_eq!(app.inspect.current, Some(errors[2]));

    // The file is append-only: one line per key that changed something, replayed alike.
    assert_eq!(run.read_labels().unwrap().len(), 9);
    let reopened = open_app(tmp.path(), &run);
    let d = reopened.data.as_ref().unwrap();
    assert_eq!(d.labels.get(&first, "bob"), None);
    assert_eq!(
        d.labels.get(&first, "ann").unwrap().label,
        LabelVerdict::Wrong
    );
}

/// Every key that moves anywhere (j k h l n p, arrows, Page keys) moves in Inspect too and
/// never writes a label.
#[test]
fn no_navigation_key_labels_in_inspect() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    key(&mut app, KeyCode::Char('5'));
    let errors = app.error_indices();
    keys(&mut app, "jj");
    assert_eq!(app.inspect.current, Some(errors[2]));
    keys(&mut app, "k");
    assert_eq!(app.inspect.current, Some(errors[1]));
    keys(&mut app, "hlnpJK");
    for k in [KeyCode::Down, KeyCode::Up, KeyCode::Left, KeyCode::Right] {
        key(&mut app, k);
    }
    key(&mut app, KeyCode::PageDown);
    key(&mut app, KeyCode::PageUp);
    assert!(run.read_labels().unwrap().is_empty());
    // And the labelling keys are none of them.
    for row in keymap::ROWS {
        if row.scope == keymap::Scope::On(Screen::Inspect) {
            continue;
        }
        if row.what.contains("select") || row.what.contains("move") {
            for c in "rwabgfosixeuc".chars() {
                assert!(
                    !row.keys.split(' ').any(|w| w == c.to_string()),
                    "{c} moves in {}",
                    row.scope.name()
                );
            }
        }
    }
}

/// Errors filters by the current annotator's labels; a reopened run resumes at the first
/// error that annotator has not labelled; labels.jsonl from before retractions still loads.
#[test]
fn errors_filter_by_label_and_a_reopened_run_resumes_labelling() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let records: Vec<ResultRecord> = run.read_results().unwrap();
    let wrong: Vec<&ResultRecord> = records
        .iter()
        .filter(|r| r.outcome != OutcomeKind::Correct)
        .collect();
    // Lines as kgscope wrote them before this format (no retractions, no tags).
    let old = format!(
        "{{\"question_id\":\"{}\",\"label\":\"wrong\",\"error_type\":\"factual_error\",\"note\":null,\"annotator\":\"ann\",\"time\":\"2026-01-01T00:00:00Z\"}}\n\
         {{\"question_id\":\"{}\",\"label\":\"kg_wrong\",\"error_type\":null,\"note\":\"old\",\"annotator\":\"ann\",\"time\":\"2026-01-01T00:00:01Z\"}}\n",
        wrong[0].question.id, wrong[1].question.id
    );
    std::fs::write(run.labels_path(), old).unwrap();
    let mut app = open_app(tmp.path(), &run);
    app.annotator = "ann".into();
    // open_app resumed for the environment's annotator: reopen the run as "ann".
    app.open_run(RunData::open(run.clone(), run.read_manifest().unwrap()).unwrap());
    let all = app.error_indices();
    assert_eq!(all.len(), wrong.len());
    assert_eq!(
        app.inspected().unwrap().question.id,
        wrong[2].question.id,
        "resumes at the first error ann has not labelled"
    );
    key(&mut app, KeyCode::Char('4'));
    assert_eq!(app.errors.selected, 2, "Errors selects it too");
    key(&mut app, KeyCode::Char('l'));
    assert_eq!(app.error_indices().len(), 2);
    let s = render(&app, 100, 30);
    assert!(s.contains("labelled by ann"), "{s}");
    assert!(s.contains("KG wrong"), "{s}");
    key(&mut app, KeyCode::Char('l'));
    assert_eq!(app.error_indices().len(), all.len() - 2);
    assert!(render(&app, 100, 30).contains("not labelled by ann"));
    key(&mut app, KeyCode::Char('l'));
    key(&mut app, KeyCode::Char('l'));
    assert_eq!(app.errors.label, Some(LabelFilter::Is(LabelVerdict::Wrong)));
    assert_eq!(*app.error_indices(), vec![all[0]]);
    for _ in 0..4 {
        key(&mut app, KeyCode::Char('l'));
    }
    assert_eq!(app.errors.label, None, "after the last verdict, no filter");
    key(&mut app, KeyCode::Char('l'));
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(app.errors.label, None, "x clears the label filter too");
    assert_eq!(app.error_indices().len(), all.len());
}

/// Inspect names the triple asked (for a negative, the corrupted one, and which part was
/// replaced) and unfolds the whole prompt as it was sent.
#[test]
fn inspect_shows_the_asked_triple_and_unfolds_the_prompt() {
    let (_tmp, mut app) = fixture_app();
    key(&mut app, KeyCode::Char('5'));
    while app.inspected().unwrap().question.negative.is_none() {
        key(&mut app, KeyCode::Char('j'));
    }
    let q = app.inspected().unwrap().question.clone();
    let s = render(&app, 200, 60);
    assert!(s.contains("replaced)"), "{s}");
    assert!(
        s.contains(&format!("asked     {} · ", q.subject_label)),
        "{s}"
    );
    assert!(s.contains(&q.object_label), "{s}");
    assert!(!s.contains("GraphEval") && !s.contains("Decide whether the statement below"));
    key(&mut app, KeyCode::Char('v'));
    capture("inspect-negative-prompt", &render(&app, 100, 30));
    let s = render(&app, 200, 60);
    assert!(s.contains("prompt as sent"), "{s}");
    assert!(
        s.contains("Decide whether the statement below is true or false"),
        "{s}"
    );
    assert!(
        s.contains("example 1 The capital of Japan is Tokyo. ⇒ Yes, the statement is true."),
        "{s}"
    );
    assert!(s.contains(&format!("input     {}", q.prompt)), "{s}");
    key(&mut app, KeyCode::Char('v'));
    assert!(!render(&app, 200, 60).contains("prompt as sent"));
}

#[test]
fn enter_on_a_heatmap_cell_filters_the_errors() {
    let (_tmp, mut app) = fixture_app();
    key(&mut app, KeyCode::Char('3'));
    let rows = app.heat_grid().rows;
    assert!(!rows.is_empty());
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, Screen::Errors);
    assert_eq!(app.errors.cell, Some(Cell::Relation(rows[0].clone())));
    let d = app.data.as_ref().unwrap();
    for &i in app.error_indices().iter() {
        assert_eq!(d.record(i).unwrap().question.relation, rows[0]);
        assert_ne!(d.rows[i].outcome, OutcomeKind::Correct);
    }
    let s = render(&app, 100, 30);
    assert!(s.contains("relation "), "{s}");
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(app.errors.cell, None);

    // s sorts: by relation, then by outcome (incorrect, abstained, invalid).
    key(&mut app, KeyCode::Char('s'));
    let d = app.data.as_ref().unwrap();
    let rels: Vec<&str> = app
        .error_indices()
        .iter()
        .map(|&i| d.relation(&d.rows[i]))
        .collect();
    assert!(rels.windows(2).all(|w| w[0] <= w[1]), "{rels:?}");
    key(&mut app, KeyCode::Char('s'));
    let d = app.data.as_ref().unwrap();
    let kinds: Vec<u8> = app
        .error_indices()
        .iter()
        .map(|&i| d.rows[i].outcome as u8)
        .collect();
    assert!(kinds.windows(2).all(|w| w[0] <= w[1]), "{kinds:?}");
    assert!(render(&app, 100, 30).contains("sorted by outcome"));
}

#[test]
fn live_shows_streamed_tokens_and_updates_the_aggregates() {
    let tmp = tempfile::tempdir().unwrap();
    let (live_run, records) = empty_run_and_answers(tmp.path());
    let questions: Vec<_> = records.iter().map(|r| r.question.clone()).collect();
    let mut app = App::new(
        Theme::named("high-contrast").unwrap(),
        "sample:countries",
        None,
    );
    app.live.active = true;
    app.run_prepared(live_run, &questions);
    app.on_run_event(RunEvent::Started {
        total: records.len(),
        already_done: 0,
    });
    let r: &ResultRecord = &records[0];
    app.on_run_event(RunEvent::Asked {
        qid: r.question.id.clone(),
        repeat: 0,
    });
    for t in ["Tr", "ue", EVIL] {
        app.on_run_event(RunEvent::Token {
            qid: r.question.id.clone(),
            text: t.into(),
        });
    }
    key(&mut app, KeyCode::Char('2'));
    let s = render(&app, 100, 30);
    assert!(s.contains("⇒ True"), "{s}");
    assert!(s.contains("0 / "), "{s}");
    assert_eq!(app.data.as_ref().unwrap().snapshot.overall.n, 0);

    record(&app, std::slice::from_ref(r));
    app.on_run_event(RunEvent::Answered(Box::new(r.clone())));
    app.catch_up();
    assert_eq!(app.data.as_ref().unwrap().snapshot.overall.n, 1);
    key(&mut app, KeyCode::Char('p'));
    assert_eq!(app.commands, vec![kgscope::tui::app::Command::Pause]);
    let s = render(&app, 100, 30);
    capture("live-running", &s);
    assert!(s.contains("1 / "), "{s}");
    assert!(s.contains("paused"), "{s}");
    app.on_run_event(RunEvent::Finished { cancelled: false });
    let s = render(&app, 100, 30);
    assert!(s.contains("finished"), "{s}");
}

/// An app following a new, empty run that has started with `total` questions planned.
fn live_app_started(dir: &Path, total: usize) -> App {
    let (live_run, _) = empty_run_and_answers(dir);
    let mut app = App::new(Theme::default(), "sample:countries", None);
    app.live.active = true;
    app.run_prepared(live_run, &[]);
    app.on_run_event(RunEvent::Started {
        total,
        already_done: 0,
    });
    app
}

/// An app open on a recorded yes/no run of the fixture.
fn yes_no_app(dir: &Path) -> App {
    let model = ModelSpec::Llama {
        path: PathBuf::from("no-model.gguf"),
    };
    let run = fixture_with(dir, model, usize::MAX, Task::Yesno);
    open_app(dir, &run)
}

/// A run whose plan leaves questions out (KG-FPQ's gate) says so on Live: the gauge reads
/// "N asked; M not asked because …" and fills to what is asked, and the finished status says
/// it again, not "12 / 104 · finished".
#[test]
fn live_shows_the_questions_a_gate_left_out_with_why() {
    use kgscope::core::not_asked::NotAsked;
    let tmp = tempfile::tempdir().unwrap();
    let mut app = live_app_started(tmp.path(), 104);
    key(&mut app, KeyCode::Char('2'));
    let s = render(&app, 100, 30);
    assert!(s.contains("0 / 104"), "before the gate decides: {s}");
    app.on_run_event(RunEvent::NotAsked(vec![NotAsked {
        count: 92,
        reason: "the true premise was denied".into(),
    }]));
    app.live.answered = 12;
    app.on_run_event(RunEvent::Finished { cancelled: false });
    let s = render(&app, 120, 30);
    capture("live-gated", &s);
    assert!(
        s.contains("12 asked; 92 not asked because the true premise was denied · finished"),
        "{s}"
    );
    assert!(!s.contains("12 / 104"), "{s}");
    assert!(
        app.live
            .status
            .starts_with("finished: 12 asked; 92 not asked"),
        "{}",
        app.live.status
    );
    assert_eq!(app.live.to_ask(), 12);
}

/// A KGLens run on Live: the iteration counter, the convergence curve and the edges the
/// sampler believes weakest, from the engine's iteration reports; KG text is sanitised.
#[test]
fn live_shows_kglens_iterations_the_convergence_curve_and_the_weakest_edges() {
    use kgscope::metrics::kglens::EdgeTally;
    use kgscope::run::kglens::{IterationReport, IterationStats, WeakEdge};
    let tmp = tempfile::tempdir().unwrap();
    let mut app = live_app_started(tmp.path(), 3840);
    let history: Vec<IterationStats> = (1..=7)
        .map(|i| IterationStats {
            iteration: i,
            asked: 64,
            correct: 30,
            examined: 60 * i as u64,
            win_rate: 0.3 + 0.05 * i as f64,
            zero_sense_rate: 0.6 - 0.05 * i as f64,
            mean_failure: 0.5,
        })
        .collect();
    let weak = |s: &str, o: &str, failure: f64| WeakEdge {
        subject: s.into(),
        relation: "capital".into(),
        object: o.into(),
        failure,
        tally: EdgeTally {
            correct: 0,
            incorrect: 2,
        },
    };
    let report = IterationReport {
        stats: history[6].clone(),
        of: 60,
        edges: 2345,
        weakest: vec![
            weak("Peru", "Lima", 0.91),
            weak(&format!("Evil{EVIL}"), "X", 0.8),
        ],
        history,
        converged: false,
    };
    app.on_run_event(RunEvent::BatchDone(Box::new(report.event())));
    key(&mut app, KeyCode::Char('2'));
    let s = render(&app, 120, 30);
    capture("live-kglens", &s);
    assert!(s.contains("iteration 7/60"), "{s}");
    assert!(s.contains("420 of 2345 edges examined"), "{s}");
    assert!(s.contains("win    0.65"), "{s}");
    assert!(s.contains("0.91 0/2 Peru · capital · Lima"), "{s}");
    // The curve rises with the win rate: its last bar is higher than its first.
    let curve: Vec<char> = s
        .lines()
        .find(|l| l.contains("win    0.65"))
        .unwrap()
        .chars()
        .filter(|c| ('▁'..='█').contains(c))
        .collect();
    assert_eq!(curve.len(), 7, "{s}");
    assert!(curve[6] > curve[0], "{curve:?}");
    assert!(!s.contains('\u{1b}'), "escape sequences reached the screen");
    // Too narrow for the panel: the questions keep the whole width.
    assert!(!render(&app, 50, 30).contains("weakest edges"));
}

/// A KG-FPQ run in Heatmaps and Inspect: `v` reaches the edit × hop map, Enter filters the
/// errors by its cell, and Inspect shows the premise, the true fact and the hop path.
#[test]
fn kg_fpq_maps_edit_by_hop_and_inspect_traces_the_premise() {
    use kgscope::method::kgfpq::questions::FpqOptions;
    use kgscope::questions::{GenerateOptions, TemplateSet};
    let tmp = tempfile::tempdir().unwrap();
    let model = ModelSpec::Llama {
        path: PathBuf::from("no-model.gguf"),
    };
    let cfg = RunConfig::new("sample:countries", model, Task::KgFpq, 10);
    let prepared = session::prepare_new(cfg, "test-model", tmp.path(), &|_| {}).unwrap();
    let (questions, _) = kgscope::method::generate(
        &prepared.index,
        &TemplateSet::builtin(),
        &GenerateOptions {
            task: Task::KgFpq,
            limit: 10,
            fpq: Some(FpqOptions {
                max_hops: 2,
                ..FpqOptions::default()
            }),
            ..GenerateOptions::default()
        },
    )
    .unwrap();
    let mut out = prepared.run.results_appender().unwrap();
    for (i, q) in questions.iter().enumerate() {
        let (verdict, response) = if i % 3 == 0 {
            (Verdict::True, "Yes")
        } else {
            (Verdict::False, "No")
        };
        out.push(&verify_record(
            q.clone(),
            vec![attempt(verdict, response.into(), 1)],
        ))
        .unwrap();
    }
    out.sync().unwrap();
    let mut app = open_app(tmp.path(), &prepared.run);
    key(&mut app, KeyCode::Char('3'));
    // Relation, head × tail, (year, where the facts have dates), then the facet maps.
    for _ in 0..6 {
        if render(&app, 120, 40).contains("accuracy edit × hop") {
            break;
        }
        key(&mut app, KeyCode::Char('v'));
    }
    let s = render(&app, 120, 40);
    capture("heatmaps-edit-by-hop", &s);
    assert!(s.contains("accuracy edit × hop"), "{s}");
    assert!(s.contains("edit \\ hop"), "{s}");
    // Different-concept edits (NDC) keep to the kinds a relation takes (issue 39): the sample
    // relations take one kind each, so none is made here.
    for edit in ["NSC", "NNSC", "TPQ"] {
        assert!(s.contains(edit), "{edit}:\n{s}");
    }
    // The next maps, then back to the relation view.
    key(&mut app, KeyCode::Char('v'));
    assert!(render(&app, 120, 40).contains("edit × relation"));
    key(&mut app, KeyCode::Char('v'));
    assert!(render(&app, 120, 40).contains("edit × format"));
    key(&mut app, KeyCode::Char('v'));
    assert!(render(&app, 120, 40).contains("by relation"));
    // Head × tail, then edit × hop (these facts have no dates: no year view between).
    for _ in 0..2 {
        key(&mut app, KeyCode::Char('v'));
    }
    assert!(render(&app, 120, 40).contains("accuracy edit × hop"));
    // Enter on a cell lists that cell's errors only: the first NSC cell within two hops that
    // has any (a third of the answers are wrong, so one has).
    let g = app.heat_grid();
    let row = g.rows.iter().position(|r| r == "NSC").unwrap();
    let mut hop = None;
    for col in (0..g.cols.len()).filter(|&c| g.cols[c] == "1" || g.cols[c] == "2") {
        key(&mut app, KeyCode::Char('3'));
        app.heat.row = row;
        app.heat.col = col;
        key(&mut app, KeyCode::Enter);
        assert!(
            app.status
                .contains(&format!("edit NSC × hop {}", g.cols[col])),
            "{}",
            app.status
        );
        if !app.error_indices().is_empty() {
            hop = Some(g.cols[col].clone());
            break;
        }
    }
    let hop = hop.expect("an NSC cell within two hops with an error");
    key(&mut app, KeyCode::Enter);
    let r = app.inspected().unwrap();
    let p = r.question.premise.clone().unwrap();
    assert_eq!(p.edit.unwrap().as_str(), "NSC");
    assert_eq!(p.hops.unwrap().to_string(), hop);
    let s = render(&app, 200, 60);
    assert!(s.contains("premise   false: NSC"), "{s}");
    assert!(s.contains("true fact"), "{s}");
    assert!(s.contains("hop path"), "{s}");
    capture("inspect-fpq", &s);

    // Judge training data from this KG-FPQ run: false-premise questions only, each with the
    // annotator's yes/no on "misled by the premise".
    let records: Vec<ResultRecord> = prepared.run.read_results().unwrap();
    let tpq = records
        .iter()
        .find(|r| r.question.premise.as_ref().unwrap().edit.is_none())
        .unwrap();
    let fpqs: Vec<&ResultRecord> = records
        .iter()
        .filter(|r| r.question.premise.as_ref().unwrap().edit.is_some())
        .take(2)
        .collect();
    for (r, v) in [
        (tpq, LabelVerdict::Right),
        (fpqs[0], LabelVerdict::Wrong),
        (fpqs[1], LabelVerdict::Right),
    ] {
        label_as_tester(
            &prepared.run,
            &r.question.id,
            v,
            Some(ErrorType::FactualError),
        );
    }
    let lines = export_labels(tmp.path(), &prepared.run, "fpq-judge");
    let out = format!("{lines:?}");
    assert_eq!(lines.len(), 2, "the TPQ is no FPQ-judge example: {out}");
    assert_eq!(lines[0]["output"], "Yes", "labelled wrong: misled");
    assert_eq!(lines[1]["output"], "No", "labelled right: not misled");
    for (l, r) in lines.iter().zip(&fpqs) {
        let input = l["input"].as_str().unwrap();
        assert!(input.contains(&r.question.prompt), "{input}");
        assert!(input.contains("False premise"), "{input}");
        assert!(l["instruction"].as_str().unwrap().contains("misled"));
    }
}

#[test]
fn labels_export_writes_judge_training_data() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let records: Vec<ResultRecord> = run.read_results().unwrap();
    let label = |r: &ResultRecord, v, note: &str| Label {
        question_id: r.question.id.clone(),
        label: v,
        error_type: None,
        note: Some(note.into()),
        cause: None,
        annotator: "tester".into(),
        time: "2026-01-01T00:00:00Z".into(),
    };
    // records[0] and [1] are True / False claims; [2] abstained; [3] invalid.
    run.append_label(label(&records[0], LabelVerdict::Wrong, "first"))
        .unwrap();
    run.append_label(label(&records[0], LabelVerdict::Right, "latest wins"))
        .unwrap();
    run.append_label(label(&records[1], LabelVerdict::Wrong, "flip"))
        .unwrap();
    run.append_label(label(&records[2], LabelVerdict::Abstained, "idk"))
        .unwrap();
    run.append_label(label(&records[3], LabelVerdict::BadQuestion, "bad"))
        .unwrap();
    let dir = tmp.path().to_str().unwrap();
    let export = |format: &str| -> Vec<serde_json::Value> {
        let out = tmp.path().join(format!("{format}.jsonl"));
        common::ok(&[
            "labels",
            "export",
            &run.id,
            "--format",
            format,
            "--out",
            out.to_str().unwrap(),
            "--runs-dir",
            dir,
        ]);
        let to_stdout = common::ok(&[
            "labels",
            "export",
            &run.id,
            "--format",
            format,
            "--out",
            "-",
            "--runs-dir",
            dir,
        ]);
        let written = std::fs::read_to_string(out).unwrap();
        assert_eq!(to_stdout, written, "--out - prints what --out FILE writes");
        written
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let all = export("jsonl");
    assert_eq!(all.len(), 4);
    assert_eq!(all[0]["note"], "latest wins");
    assert_eq!(all[0]["prompt"], records[0].question.prompt.as_str());
    assert_eq!(all[3]["label"], "bad_question");
    // Enough to merge several runs' exports into one training set.
    let manifest: kgscope::run::Manifest = run.read_manifest().unwrap();
    assert_eq!(all[0]["run_id"], run.id.as_str());
    assert_eq!(all[0]["model"], manifest.model_id.as_str());
    assert_eq!(all[0]["kg"], "sample:countries");
    assert_eq!(all[0]["annotator"], "tester");
    assert_eq!(all[0]["time"], "2026-01-01T00:00:00Z");
    let q = &records[1].question;
    assert_eq!(all[1]["subject"], q.subject.as_str());
    assert_eq!(all[1]["predicate"], q.predicate.as_str());
    assert_eq!(all[1]["object"], q.object.as_str());
    assert_eq!(
        all[1]["replaced"],
        serde_json::to_value(q.negative).unwrap()
    );

    // Labels judge the model's answer, whatever the verifier said.
    let ge = export("grapheval");
    assert_eq!(ge.len(), 3, "a bad question is no training example");
    assert_eq!(ge[0]["statement"], records[0].question.prompt.as_str());
    assert_eq!(ge[0]["response"], "True.");
    assert_eq!(ge[0]["label"], "correct");
    assert_eq!(ge[1]["label"], "incorrect");
    assert_eq!(ge[2]["label"], "idk");

    let fpq = export("fpq-judge");
    assert_eq!(fpq.len(), 3);
    assert!(fpq[0]["instruction"]
        .as_str()
        .unwrap()
        .contains("Yes or No"));
    let input = fpq[0]["input"].as_str().unwrap();
    assert!(input.contains(&records[0].question.prompt) && input.contains("True."));
    assert_eq!(fpq[0]["output"], "Yes");
    assert_eq!(fpq[1]["output"], "No");
    assert_eq!(fpq[2]["output"], "No");

    let bad = common::run(&[
        "labels",
        "export",
        "no-such-run",
        "--format",
        "jsonl",
        "--out",
        "x.jsonl",
        "--runs-dir",
        dir,
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no run 'no-such-run'"));
}

/// Two annotators: an export names whose labels it takes or takes the majority (a tie is
/// left out), and reports Cohen's kappa; `labels agreement` prints the counts and kappa.
#[test]
fn labels_export_with_two_annotators_chooses_one_or_the_majority_and_reports_kappa() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let records: Vec<ResultRecord> = run.read_results().unwrap();
    let label = |i: usize, who: &str, v| Label {
        question_id: records[i].question.id.clone(),
        label: v,
        error_type: None,
        note: Some(format!("{who} on {i}")),
        cause: None,
        annotator: who.into(),
        time: format!("2026-01-01T00:00:0{i}Z"),
    };
    use LabelVerdict::{Right, Wrong};
    // ann: W W R R; bob: W R R R. p_o = 3/4, p_e = 1/2·1/4 + 1/2·3/4 = 1/2, kappa = 0.5.
    for (i, (a, b)) in [
        (Wrong, Wrong),
        (Wrong, Right),
        (Right, Right),
        (Right, Right),
    ]
    .into_iter()
    .enumerate()
    {
        run.append_label(label(i, "ann", a)).unwrap();
        run.append_label(label(i, "bob", b)).unwrap();
    }
    // A label bob took back counts for nothing.
    run.append_label(label(4, "bob", Wrong)).unwrap();
    run.append_label(Retraction {
        question_id: records[4].question.id.clone(),
        retract: Retract::Undo,
        annotator: "bob".into(),
        time: "2026-01-01T00:00:09Z".into(),
    })
    .unwrap();
    let dir = tmp.path().to_str().unwrap();
    let out = tmp.path().join("x.jsonl");
    let export = |extra: &[&str]| labels_export(&run.id, dir, &out, extra);
    let lines = || -> Vec<serde_json::Value> {
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };

    let unchosen = export(&[]);
    assert!(!unchosen.status.success());
    let why = String::from_utf8_lossy(&unchosen.stderr);
    assert!(
        why.contains("2 annotators (ann, bob)") && why.contains("--annotator NAME"),
        "{why}"
    );

    let bob = export(&["--annotator", "bob"]);
    assert!(
        bob.status.success(),
        "{}",
        String::from_utf8_lossy(&bob.stderr)
    );
    let said = String::from_utf8_lossy(&bob.stderr);
    assert!(said.contains("wrote 4 example(s)"), "{said}");
    assert!(said.contains("Cohen's kappa 0.50"), "{said}");
    assert!(said.contains("4 question(s) judged by all"), "{said}");
    let got = lines();
    assert_eq!(got[1]["label"], "right");
    assert_eq!(got[1]["annotator"], "bob");
    assert_eq!(got[1]["note"], "bob on 1", "bob's own note, not ann's");

    let majority = export(&["--majority"]);
    let said = String::from_utf8_lossy(&majority.stderr);
    assert!(majority.status.success(), "{said}");
    assert!(said.contains("wrote 3 example(s)"), "{said}");
    assert!(said.contains("1 question(s) have no majority"), "{said}");
    let got = lines();
    let ids: Vec<&str> = got
        .iter()
        .map(|l| l["question_id"].as_str().unwrap())
        .collect();
    assert!(
        !ids.contains(&records[1].question.id.as_str()),
        "the tie is left out"
    );
    assert_eq!(got[0]["label"], "wrong");
    assert_eq!(got[0]["annotator"], "majority");
    assert_eq!(got[0]["votes"]["for"], serde_json::json!(["ann", "bob"]));
    assert_eq!(got[0]["votes"]["of"], 2);

    let nobody = export(&["--annotator", "cat"]);
    assert!(!nobody.status.success());
    assert!(String::from_utf8_lossy(&nobody.stderr).contains("\"cat\" has no labels"));

    let stats = common::ok(&["labels", "agreement", &run.id, "--runs-dir", dir]);
    assert!(stats.contains("Cohen's kappa 0.50"), "{stats}");
    let bob_row = stats.lines().find(|l| l.starts_with("bob")).unwrap();
    let cells: Vec<&str> = bob_row.split_whitespace().collect();
    assert_eq!(&cells[..4], ["bob", "4", "3", "1"], "{stats}");
}

/// Issue 38: two annotators who agree on 4 of 5 answers, all but one "right": kappa is 0
/// (chance agreement from their own shares is 80% too), so `labels agreement` shows the raw
/// agreement and Gwet's AC1 beside it. AC1 by hand, on the five-verdict scale: π_right = 0.9,
/// π_wrong = 0.1, p_e = (0.09 + 0.09) / 4 = 0.045, AC1 = (0.8 − 0.045) / 0.955 = 0.79.
#[test]
fn labels_agreement_shows_raw_agreement_and_ac1_beside_kappa() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let records: Vec<ResultRecord> = run.read_results().unwrap();
    use LabelVerdict::{Right, Wrong};
    for i in 0..5 {
        for (who, v) in [("ann", Right), ("bob", if i == 4 { Wrong } else { Right })] {
            label_as(&run, who, &records[i].question.id, v, None);
        }
    }
    let dir = tmp.path().to_str().unwrap();
    let stats = common::ok(&["labels", "agreement", &run.id, "--runs-dir", dir]);
    assert!(
        stats.contains(
            "5 question(s) judged by all: 4 of 5 agree (80%); Cohen's kappa 0.00; Gwet's AC1 0.79"
        ),
        "{stats}"
    );
}

/// `kgscope labels export RUN --format jsonl --out OUT --runs-dir DIR` and `extra`.
fn labels_export(run: &str, dir: &str, out: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "labels",
        "export",
        run,
        "--format",
        "jsonl",
        "--out",
        out.to_str().unwrap(),
        "--runs-dir",
        dir,
    ];
    args.extend_from_slice(extra);
    common::run(&args)
}

/// An annotator whose name holds an escape sequence (written by another tool, or before names
/// were cleaned) is shown with it escaped, never stripped, and that shown form chooses them:
/// the name a refusal lists can be typed back.
#[test]
fn an_annotator_name_with_escapes_is_shown_escaped_and_taken_in_that_form() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let records: Vec<ResultRecord> = run.read_results().unwrap();
    for who in ["ann", "e\u{1b}[31mve"] {
        label_as(
            &run,
            who,
            &records[0].question.id,
            LabelVerdict::Wrong,
            None,
        );
    }
    let dir = tmp.path().to_str().unwrap();
    let out = tmp.path().join("x.jsonl");
    let export = |who: &str| labels_export(&run.id, dir, &out, &["--annotator", who]);
    let stripped = export("e[31mve");
    assert!(!stripped.status.success());
    let why = String::from_utf8_lossy(&stripped.stderr);
    assert!(
        why.contains("e\\u{1b}[31mve"),
        "the name is shown escaped: {why}"
    );
    assert!(!why.contains('\u{1b}'), "{why}");
    let shown = export("e\\u{1b}[31mve");
    assert!(
        shown.status.success(),
        "{}",
        String::from_utf8_lossy(&shown.stderr)
    );
    let line: serde_json::Value = serde_json::from_str(
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(line["annotator"], "e\u{1b}[31mve");
}

/// Three annotators: Fleiss' kappa over all, Cohen's for each pair, and the majority export.
#[test]
fn labels_agreement_with_three_annotators_reports_fleiss_and_pairwise_kappa() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let records: Vec<ResultRecord> = run.read_results().unwrap();
    use LabelVerdict::{Right as R, Wrong as W};
    // By hand: P_i = 1, 1/3, 1, 1/3, so P̄ = 2/3; p_right = p_wrong = 1/2, so P̄_e = 1/2;
    // Fleiss' kappa = (2/3 - 1/2) / (1/2) = 1/3. ann and bob agree throughout (kappa 1);
    // ann and cat agree on half with chance 1/2 (kappa 0).
    let votes = [[W, W, W], [W, W, R], [R, R, R], [R, R, W]];
    for (i, row) in votes.iter().enumerate() {
        for (who, v) in ["ann", "bob", "cat"].iter().zip(row) {
            run.append_label(Label {
                question_id: records[i].question.id.clone(),
                label: *v,
                error_type: None,
                note: None,
                cause: None,
                annotator: who.to_string(),
                time: "2026-01-01T00:00:00Z".into(),
            })
            .unwrap();
        }
    }
    let dir = tmp.path().to_str().unwrap();
    let stats = common::ok(&["labels", "agreement", &run.id, "--runs-dir", dir]);
    assert!(stats.contains("3 annotators"), "{stats}");
    assert!(stats.contains("Fleiss' kappa 0.33"), "{stats}");
    // Unanimous on 2 of 4; AC1: p_a = 2/3, π = 1/2 each, p_e = 0.5 / 4 = 0.125,
    // (2/3 − 0.125) / 0.875 = 0.62.
    assert!(
        stats.contains("4 question(s) judged by all: 2 of 4 all agree (50%)")
            && stats.contains("Gwet's AC1 0.62"),
        "{stats}"
    );
    assert!(
        stats.contains("ann and bob: Cohen's kappa 1.00 over 4"),
        "{stats}"
    );
    assert!(
        stats.contains("ann and cat: Cohen's kappa 0.00 over 4 question(s), 2 agree"),
        "{stats}"
    );
    let out = tmp.path().join("m.jsonl");
    let o = out.to_str().unwrap();
    let args = [
        "labels",
        "export",
        &run.id,
        "--format",
        "grapheval",
        "--out",
        o,
    ];
    let majority = common::run(&[&args[..], &["--majority", "--runs-dir", dir]].concat());
    assert!(majority.status.success());
    let got = std::fs::read_to_string(&out).unwrap();
    let labels: Vec<&str> = got
        .lines()
        .map(|l| {
            if l.contains("\"incorrect\"") {
                "W"
            } else {
                "R"
            }
        })
        .collect();
    assert_eq!(labels, ["W", "W", "R", "R"], "two of three decide");
}

#[test]
fn bare_kgscope_without_a_terminal_says_what_to_do() {
    let out = common::run(&[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("interactive terminal"), "{err}");
}

/// Flags on the bare command reach the TUI in a real terminal: a KG that does not exist fails
/// exactly as `kgscope tui --kg` does, before any screen opens; one that does opens the TUI on
/// it.
#[test]
fn the_bare_command_opens_the_tui_with_its_flags() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("tui.log");
    // The pane's text and exit status of `kgscope ARGS` once it has exited.
    let ended = |name: &str, args: &str| -> (String, String) {
        let done = tmp.path().join(name);
        let t = Tmux::start(&format!(
            "'{}' {args} --log '{}' 2>&1; echo $? > '{}'; sleep 30",
            env!("CARGO_BIN_EXE_kgscope"),
            log.display(),
            done.display()
        ));
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        while !done.exists() {
            assert!(
                std::time::Instant::now() < deadline,
                "kgscope {args} did not exit"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        let rc = std::fs::read_to_string(&done).unwrap().trim().to_string();
        (t.screen().trim().to_string(), rc)
    };
    let (bare, bare_rc) = ended("bare", "--kg nosuch:thing");
    let (tui, tui_rc) = ended("tui", "tui --kg nosuch:thing");
    assert_eq!(bare_rc, "1");
    assert_eq!(tui_rc, "1");
    assert!(
        bare.contains("--kg nosuch:thing: no such file or directory"),
        "{bare}"
    );
    assert!(!bare.contains("Explore"), "a screen was drawn:\n{bare}");
    assert_eq!(
        bare, tui,
        "the bare command and `kgscope tui` say different things"
    );

    let done = tmp.path().join("opened");
    let t = Tmux::start(&format!(
        "'{}' --kg sample:elements --runs-dir '{}' --log '{}'; echo $? > '{}'; sleep 5",
        env!("CARGO_BIN_EXE_kgscope"),
        tmp.path().join("runs").display(),
        log.display(),
        done.display()
    ));
    let screen = t.wait_for("1 Explore", 30);
    assert!(screen.contains("sample:elements"), "{screen}");
    t.keys(&["q"]);
    assert_eq!(common::exit_status_written_to(&done, 10), "0");
}

/// A loopback OpenAI-compatible server that streams "True" in two pieces to every request.
fn streaming_server() -> String {
    common::scripted_server(|_| common::sse_completion(&["Tr", "ue."], 2)).0
}

#[test]
fn a_run_started_from_explore_streams_into_live_and_is_recorded() {
    use kgscope::tui::app::Command;
    use kgscope::tui::runner::{self, RunBase};
    let tmp = tempfile::tempdir().unwrap();
    let base_url = streaming_server();
    let index = Arc::new(load_index("sample:countries").unwrap());
    let mut app = App::new(Theme::default(), "sample:countries", Some(index));
    app.can_run = true;
    keys(&mut app, "/capital");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.selected_entry().unwrap().label, "capital");
    key(&mut app, KeyCode::Char('r'));
    key(&mut app, KeyCode::Char('-')); // limit 20 → 10
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, Screen::Live);
    let Some(Command::StartRun(req)) = app.commands.pop() else {
        panic!("no run was requested")
    };
    assert_eq!(req.limit, 10);
    assert_eq!(req.relations.len(), 1);

    let rt = tokio::runtime::Runtime::new().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let base = RunBase {
        kg: "sample:countries".into(),
        kg_sample: None,
        model: ModelSpec::parse("openai:fake", Some(&base_url), "OPENAI_API_KEY").unwrap(),
        runs_dir: tmp.path().to_path_buf(),
    };
    runner::start(rt.handle(), &base, &req, tx);
    let control = follow_run(&mut app, rx);
    assert!(control.is_some());
    assert_eq!(app.live.finished, Some(false), "{}", app.live.status);
    app.catch_up();
    let d = app.data.as_ref().unwrap();
    assert_eq!(d.tally.answered, 10);
    assert_eq!(d.snapshot.overall.n, 10);
    // The errors: the five negatives, said "True".
    assert_eq!(d.error_count(), 5);
    assert!(d
        .rows
        .iter()
        .filter(|e| e.outcome != OutcomeKind::Correct)
        .all(|e| e.outcome == OutcomeKind::Incorrect));
    assert!(
        app.live.tokens >= 20,
        "tokens streamed: {}",
        app.live.tokens
    );
    let on_disk: Vec<ResultRecord> = d.run.read_results().unwrap();
    assert_eq!(on_disk.len(), 10);
    assert!(on_disk.iter().all(|r| r.question.relation == "capital"));
    let s = render(&app, 100, 30);
    assert!(s.contains("10 / 10 · finished"), "{s}");
    assert!(s.contains("⇒ True."), "{s}");
}

/// The real default model through the TUI's runner: while tokens stream (8 questions decoded
/// together), the aggregates never fall behind the answers Live has shown (`follow_run`
/// checks after every answer).
#[test]
fn a_default_model_run_keeps_the_aggregates_up_to_date() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = App::new(Theme::default(), "sample:countries", None);
    app.live.active = true;
    let model = ModelSpec::parse("default", None, "OPENAI_API_KEY").unwrap();
    run_through_runner(&mut app, model, tmp.path(), 20);
    assert_eq!(app.live.finished, Some(false), "{}", app.live.status);
    app.catch_up();
    let d = app.data.as_ref().unwrap();
    assert_eq!(d.tally.answered, d.manifest.questions as u64);
    assert!(
        app.live.tokens > d.tally.answered,
        "tokens streamed: {}",
        app.live.tokens
    );
}

/// The run dialog counts its scope's facts before the run starts, and says which are skipped
/// and why: nba's teams mostly spell their abbreviations ("Atlanta Dream", ATL).
#[test]
fn the_run_dialog_says_which_facts_make_no_question() {
    let index = Arc::new(load_index("sample:nba").unwrap());
    let mut app = App::new(Theme::default(), "sample:nba", Some(index));
    app.can_run = true;
    search(&mut app, "team abbreviation");
    assert_eq!(app.selected_entry().unwrap().label, "team abbreviation");
    key(&mut app, KeyCode::Char('r'));
    let dialog = render(&app, 120, 30);
    let p = app.explore.dialog.as_ref().unwrap().facts.clone().unwrap();
    assert!(p.askable < p.matching, "{p:?}");
    assert!(
        dialog.contains(&format!("{} match · {} askable", p.matching, p.askable)),
        "{dialog}"
    );
    assert!(
        dialog.contains("skipped, whose subject's name states"),
        "{dialog}"
    );
}

/// Space marks several relations (and entities); a run from Explore then covers them all, and
/// the dialog says so. Without marks it covers the selection.
#[test]
fn marked_relations_and_entities_make_one_run() {
    use kgscope::tui::app::Command;
    let index = Arc::new(load_index("sample:countries").unwrap());
    let mut app = App::new(Theme::default(), "sample:countries", Some(index.clone()));
    app.can_run = true;
    for name in ["capital", "currency"] {
        search(&mut app, name);
        assert_eq!(app.selected_entry().unwrap().label, name);
        key(&mut app, KeyCode::Char(' '));
    }
    search(&mut app, "France");
    key(&mut app, KeyCode::Char(' '));
    let marked = render(&app, 100, 30);
    assert!(marked.contains("3 marked"), "{marked}");
    key(&mut app, KeyCode::Char('r'));
    let dialog = render(&app, 100, 30);
    assert!(
        dialog.contains("relations capital, currency around France"),
        "{dialog}"
    );
    assert!(dialog.contains("2 match · 2 askable"), "{dialog}");
    key(&mut app, KeyCode::Enter);
    let Some(Command::StartRun(req)) = app.commands.pop() else {
        panic!("no run was requested")
    };
    assert_eq!(req.relations.len(), 2);
    assert_eq!(req.entities.len(), 1);
    // The generator keeps exactly the facts of those relations around France.
    let opts = kgscope::questions::GenerateOptions {
        relations: req.relations.clone(),
        entities: req.entities.clone(),
        ..Default::default()
    };
    let facts = kgscope::questions::candidate_facts(&index, &opts).unwrap();
    let france = index.iri_id(&req.entities[0]).unwrap();
    assert_eq!(facts.len(), 2, "France's capital and currency");
    assert!(facts.iter().all(|&i| index.facts()[i][0] == france));

    // Space again unmarks; u clears; a run then covers the selection alone.
    key(&mut app, KeyCode::Char('1'));
    key(&mut app, KeyCode::Char(' '));
    assert_eq!(app.explore.marked.len(), 2);
    key(&mut app, KeyCode::Char('u'));
    assert!(app.explore.marked.is_empty());
    app.live = Default::default();
    key(&mut app, KeyCode::Char('r'));
    key(&mut app, KeyCode::Enter);
    let Some(Command::StartRun(req)) = app.commands.pop() else {
        panic!("no run was requested")
    };
    assert_eq!((req.relations.len(), req.entities.len()), (0, 1));
}

/// A server error is retried by the backend, and Live counts the retry and says why.
#[test]
fn live_counts_retries_and_shows_the_reason() {
    let (base_url, seen) = common::scripted_server(|n| match n {
        0 => common::http("503 Service Unavailable", "", "warming up"),
        _ => common::sse_completion(&["Tr", "ue."], 2),
    });
    let tmp = tempfile::tempdir().unwrap();
    let mut app = App::new(Theme::default(), "sample:countries", None);
    app.live.active = true;
    let model = ModelSpec::parse("openai:fake", Some(&base_url), "OPENAI_API_KEY").unwrap();
    run_through_runner(&mut app, model, tmp.path(), 2);
    app.catch_up();
    assert_eq!(app.live.finished, Some(false), "{}", app.live.status);
    assert_eq!(app.live.retries, 1);
    assert_eq!(app.live.failed, 0);
    let questions = app.data.as_ref().unwrap().tally.answered as usize;
    assert_eq!(
        seen.load(std::sync::atomic::Ordering::SeqCst),
        questions + 1
    );
    key(&mut app, KeyCode::Char('2'));
    let s = render(&app, 100, 30);
    assert!(s.contains("1 retried"), "{s}");
    assert!(s.contains("retry 1: HTTP 503"), "{s}");
}

#[test]
fn the_mouse_picks_tabs_and_rows() {
    use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let click = |column, row| MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    };
    let (_tmp, mut app) = fixture_app();
    // Clicks land where the last frame drew things: a frame after each change, as the event
    // loop draws one.
    let tabs = render(&app, 100, 30);
    let first_line = tabs.lines().next().unwrap();
    let col = first_line.find("4 Errors").unwrap() as u16;
    app.on_mouse(click(col, 0));
    assert_eq!(app.screen, Screen::Errors);
    render(&app, 100, 30);
    app.on_mouse(click(10, 2)); // the column names: nothing
    assert_eq!(app.errors.selected, 0);
    app.on_mouse(click(10, 5)); // the third error
    assert_eq!(app.errors.selected, 2);
    render(&app, 100, 30);
    app.on_mouse(click(10, 5)); // again: open it
    assert_eq!(app.screen, Screen::Inspect);
    assert_eq!(app.inspect.current, Some(app.error_indices()[2]));
    render(&app, 100, 30);
    let explore = first_line.find("1 Explore").unwrap() as u16;
    app.on_mouse(click(explore, 0));
    render(&app, 100, 30);
    app.on_mouse(click(5, 7));
    assert_eq!(app.explore.selected, 2);
    render(&app, 100, 30);
    app.on_mouse(MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: 5,
        row: 7,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(app.explore.selected, 3);
}

/// The real binary in tmux against a streaming server: start a run from Explore, watch it in
/// Live, open Heatmaps, drill into an error, label it with a note, quit; then export it.
#[test]
fn end_to_end_in_tmux_run_inspect_label_export() {
    let base_url = streaming_server();
    end_to_end(
        &format!("--model openai:fake --base-url {base_url}"),
        &[],
        "20 / 20",
        "⇒ True.",
        60,
    );
}

/// The same with the bundled default model (Gemma 3 270M), ten questions.
#[test]
fn end_to_end_in_tmux_with_the_default_model() {
    let model = common::ok(&["model", "path"]);
    assert!(
        Path::new(model.trim()).is_file(),
        "the default model {} is missing: run tools/setup.sh (or `kgscope model fetch`)",
        model.trim()
    );
    end_to_end("--model default", &["-"], "10 / 10", "⇒ ", 300);
}

fn end_to_end(model_args: &str, limit_keys: &[&str], total: &str, answer: &str, secs: u64) {
    let tmp = tempfile::tempdir().unwrap();
    let runs = tmp.path().join("runs");
    let done = tmp.path().join("exit-code");
    let command = format!(
        "env KGSCOPE_ANNOTATOR=e2e '{}' tui {model_args} --runs-dir '{}'; echo $? > '{}'; sleep 5",
        env!("CARGO_BIN_EXE_kgscope"),
        runs.display(),
        done.display()
    );
    let t = Tmux::start(&command);
    t.wait_for("1 Explore", 30);
    t.keys(&["/"]);
    t.text("capital");
    t.keys(&["Enter", "r"]);
    t.keys(limit_keys);
    t.keys(&["Enter"]);
    let live = t.wait_for("finished", secs);
    assert!(live.contains(answer), "no streamed answer in Live:\n{live}");
    assert!(live.contains(total), "{live}");
    t.keys(&["3"]);
    // A wait ends as soon as its text shows: the limits are for a machine whose cores are
    // all busy (the whole suite in parallel).
    let heat = t.wait_for("accuracy by relation", 20);
    assert!(heat.contains("capital"), "{heat}");
    t.keys(&["Enter"]);
    t.wait_for("relation capital", 20);
    t.keys(&["Enter"]);
    t.wait_for("verifier trace", 20);
    // The note first: the verdict key saves it with the label and moves on.
    t.keys(&["e"]);
    t.text("said yes to a false capital");
    t.keys(&["Enter"]);
    t.wait_for("note to save with it: said yes to a false capital", 20);
    t.keys(&["w"]);
    t.wait_for("saved wrong", 20);
    t.keys(&["q"]);
    assert_eq!(common::exit_status_written_to(&done, 10), "0");

    let run_id = common::only_run_id(&runs);
    let run = RunDir::open(&runs, &run_id).unwrap();
    let labels = run.read_labels().unwrap();
    let last = labels
        .last()
        .and_then(|l| l.as_label())
        .expect("a label was saved");
    assert_eq!(last.note.as_deref(), Some("said yes to a false capital"));
    assert_eq!(last.annotator, "e2e");
    let out = tmp.path().join("judge.jsonl");
    common::ok(&[
        "labels",
        "export",
        &run_id,
        "--format",
        "grapheval",
        "--out",
        out.to_str().unwrap(),
        "--runs-dir",
        runs.to_str().unwrap(),
    ]);
    let exported = std::fs::read_to_string(out).unwrap();
    assert_eq!(exported.lines().count(), 1);
    assert!(exported.contains("\"label\":\"incorrect\""), "{exported}");
}

/// Not a timing assertion: checks the frame-cost harness runs and that every outcome it fed
/// reached the aggregates. `KGSCOPE_PRINT_FRAMES=1` prints the figures.
#[test]
fn frame_cost_harness_folds_every_outcome() {
    use kgscope::tui::bench::frame_times;
    let tmp = tempfile::tempdir().unwrap();
    for screen in [
        Screen::Live,
        Screen::Heatmaps,
        Screen::Errors,
        Screen::Judge,
    ] {
        // A run of its own per screen: the harness numbers its questions from the start.
        let (live_run, records) = empty_run_and_answers(&tmp.path().join(screen.title()));
        let mut app = App::new(Theme::default(), "sample:countries", None);
        app.run_prepared(live_run, &[]);
        let frames = if std::env::var_os("KGSCOPE_PRINT_FRAMES").is_some() {
            600
        } else {
            20
        };
        let s = frame_times(&mut app, &records, 0, 100, frames, screen, (100, 30), true);
        assert_eq!(s.outcomes, 100 * frames);
        // A second call on the same run goes on with new questions.
        let s = frame_times(
            &mut app,
            &records,
            s.outcomes,
            100,
            frames,
            screen,
            (100, 30),
            true,
        );
        assert_eq!(s.outcomes, 100 * frames);
        let d = app.data.as_ref().unwrap();
        assert_eq!(d.tally.answered, 2 * 100 * frames as u64);
        let on_disk: Vec<ResultRecord> = d.run.read_results().unwrap();
        let wrong = on_disk
            .iter()
            .filter(|r| r.outcome != OutcomeKind::Correct)
            .count();
        assert_eq!(d.error_count(), wrong);
        if screen == Screen::Judge {
            // Judge keeps what the verifiers made of every answer, as they come in.
            let judged = d.judged.as_ref().map_or(0, Vec::len);
            assert_eq!(judged, on_disk.len());
        }
        if std::env::var_os("KGSCOPE_PRINT_FRAMES").is_some() {
            eprintln!("{screen:?}: {s:?}");
        }
    }
}

/// SIGTERM from outside quits through the normal path: the alternate screen is left, raw mode
/// is off and the exit status is 0.
/// A shell line for tmux: `program`, then its exit status into `done`, then "mode:icanon" or
/// "mode:-icanon" on screen, telling whether the terminal was left in raw mode.
fn then_report_terminal(program: &str, done: &Path) -> String {
    format!(
        "{program}; echo $? > '{}'; stty -a | grep -o -- '-icanon\\|icanon' | head -1 | sed 's/^/mode:/'; sleep 5",
        done.display()
    )
}

#[test]
fn sigterm_restores_the_terminal() {
    let tmp = tempfile::tempdir().unwrap();
    let pid = tmp.path().join("pid");
    let done = tmp.path().join("exit-code");
    let command = then_report_terminal(
        &format!(
            "sh -c 'echo $$ > \"{}\"; exec \"{}\" tui --runs-dir \"{}\"'",
            pid.display(),
            env!("CARGO_BIN_EXE_kgscope"),
            tmp.path().display(),
        ),
        &done,
    );
    let t = Tmux::start(&command);
    t.wait_for("1 Explore", 30);
    let pid = std::fs::read_to_string(&pid).unwrap();
    let killed = std::process::Command::new("kill")
        .args(["-TERM", pid.trim()])
        .status()
        .unwrap();
    assert!(killed.success());
    let s = t.wait_for("mode:", 10);
    assert_eq!(std::fs::read_to_string(&done).unwrap().trim(), "0");
    assert!(s.contains("mode:icanon"), "raw mode was left on:\n{s}");
    assert!(!s.contains("1 Explore"), "the TUI is still on screen:\n{s}");
}

/// A panic with the screen taken leaves the terminal usable: raw mode off, the alternate
/// screen and mouse reporting gone, the panic message printed, and the panic in the log file.
#[test]
fn a_panic_restores_the_terminal_and_is_logged() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("tui.log");
    let done = tmp.path().join("exit-code");
    let command = then_report_terminal(
        &format!(
            "KGSCOPE_TEST_PANIC=1 \"{}\" tui --runs-dir \"{}\" --log \"{}\"",
            env!("CARGO_BIN_EXE_kgscope"),
            tmp.path().display(),
            log.display(),
        ),
        &done,
    );
    let t = Tmux::start(&command);
    let s = t.wait_for("mode:", 30);
    assert_eq!(std::fs::read_to_string(&done).unwrap().trim(), "101");
    assert!(s.contains("mode:icanon"), "raw mode was left on:\n{s}");
    assert!(s.contains("panicking with the screen drawn"), "{s}");
    assert!(!s.contains("1 Explore"), "the TUI is still on screen:\n{s}");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(logged.contains("kgscope tui started"), "{logged}");
    assert!(logged.contains("panic"), "{logged}");
}

#[test]
fn a_run_that_cannot_start_says_why_in_live() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = App::new(Theme::default(), "sample:countries", None);
    app.live.active = true;
    let model = ModelSpec::Llama {
        path: tmp.path().join("missing.gguf"),
    };
    run_through_runner(&mut app, model, tmp.path(), 4);
    key(&mut app, KeyCode::Char('2'));
    let s = render(&app, 100, 30);
    assert!(s.contains("missing.gguf does not exist"), "{s}");
}

/// Rows stay on disk: a long run keeps only a small row per error in memory, and its very
/// first error can still be opened and labelled at the end.
#[test]
fn a_long_live_run_keeps_every_error_reachable_with_rows_on_disk() {
    assert!(std::mem::size_of::<kgscope::tui::app::AnswerRow>() <= 32);
    let tmp = tempfile::tempdir().unwrap();
    let (live_run, answers) = empty_run_and_answers(tmp.path());
    let wrong: Vec<&ResultRecord> = answers
        .iter()
        .filter(|r| r.outcome != OutcomeKind::Correct)
        .collect();
    let mut app = App::new(Theme::default(), "sample:countries", None);
    app.live.active = true;
    app.run_prepared(live_run, &[]);
    let total = 25_000;
    let batch: Vec<ResultRecord> = (0..total)
        .map(|i| {
            let mut r = wrong[i % wrong.len()].clone();
            r.question.id = format!("q{i}");
            r
        })
        .collect();
    for chunk in batch.chunks(1_000) {
        record(&app, chunk);
        for r in chunk {
            app.on_run_event(RunEvent::Answered(Box::new(r.clone())));
        }
        app.catch_up();
    }
    let d = app.data.as_ref().unwrap();
    assert_eq!(d.tally.answered, total as u64);
    assert_eq!(d.error_count(), total);
    assert_eq!(d.record(0).unwrap().question.id, "q0");
    assert_eq!(
        d.record(total - 1).unwrap().question.id,
        format!("q{}", total - 1)
    );
    key(&mut app, KeyCode::Char('4'));
    let s = render(&app, 100, 30);
    assert!(s.contains("Errors: 25000"), "{s}");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('g'));
    let labels = app.data.as_ref().unwrap().run.read_labels().unwrap();
    assert_eq!(labels.len(), 1);
    assert_eq!(labels[0].question_id(), "q0");
}

/// A record written twice (a hand-edited log) counts once, as `kgscope report` counts it.
#[test]
fn a_repeated_record_counts_once_as_in_report() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let (_, _, records) = session::open_results(tmp.path(), &run.id).unwrap();
    let mut log = run.results_appender().unwrap();
    log.push(&records[3]).unwrap();
    log.sync().unwrap();
    let app = open_app(tmp.path(), &run);
    let d = app.data.as_ref().unwrap();
    assert_eq!(d.tally.answered, records.len() as u64);
    let wrong = records
        .iter()
        .filter(|r| r.outcome != OutcomeKind::Correct)
        .count();
    assert_eq!(d.error_count(), wrong);
}

/// The frame does no reading: results.jsonl is read and parsed on the following thread
/// (the records it parsed are folded in even once the file is gone), and the records a frame
/// shows are read back before drawing (Errors, Inspect and Live draw with the file gone).
#[test]
fn following_and_reading_back_happen_before_the_frame_is_drawn() {
    let tmp = tempfile::tempdir().unwrap();
    let (live_run, answers) = empty_run_and_answers(tmp.path());
    let mut app = App::new(Theme::default(), "sample:countries", None);
    app.run_prepared(live_run, &[]);
    let wrong: Vec<ResultRecord> = answers
        .iter()
        .filter(|r| r.outcome != OutcomeKind::Correct)
        .take(3)
        .cloned()
        .collect();
    assert_eq!(wrong.len(), 3);
    record(&app, &wrong);
    let path = app.data.as_ref().unwrap().run.results_path();
    app.data
        .as_ref()
        .unwrap()
        .wait_parsed(std::time::Duration::from_secs(10));
    let aside = path.with_extension("aside");
    std::fs::rename(&path, &aside).unwrap();
    // Parsed before the frame: the tick only folds.
    app.tick();
    assert_eq!(app.data.as_ref().unwrap().tally.answered, 3);
    assert_eq!(app.data.as_ref().unwrap().error_count(), 3);
    // Read back before drawing, drawn without the file.
    std::fs::rename(&aside, &path).unwrap();
    key(&mut app, KeyCode::Char('4'));
    app.prepare_view();
    std::fs::rename(&path, &aside).unwrap();
    let s = render_prepared(&app, 120, 30);
    let first = kgscope::sanitize::line(wrong[0].response().trim());
    assert!(s.contains(&first[..first.len().min(20)]), "{s}");
    key(&mut app, KeyCode::Char('2'));
    let s = render_prepared(&app, 120, 30);
    assert!(s.contains("Latest answers"), "{s}");
    let prompt = kgscope::sanitize::line(&wrong[2].question.prompt);
    assert!(s.contains(&prompt[..prompt.len().min(20)]), "{s}");
}

/// While a search is typed, its field's frame names the keys that edit it, from the keymap.
#[test]
fn the_search_field_shows_its_keys_while_typing() {
    let index = Arc::new(load_index("sample:countries").unwrap());
    let mut app = App::new(Theme::default(), "sample:countries", Some(index));
    keys(&mut app, "/pe");
    let s = render(&app, 140, 30);
    assert!(
        s.contains("Search · Enter/Esc ends · Backspace erases"),
        "{s}"
    );
    key(&mut app, KeyCode::Enter);
    assert!(!render(&app, 140, 30).contains("Backspace erases"));
}

/// A results.jsonl that turns bad while it is followed stops the following, says so, and
/// keeps what was read.
#[test]
fn a_corrupt_line_in_a_followed_run_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let (live_run, answers) = empty_run_and_answers(tmp.path());
    let mut app = App::new(Theme::default(), "sample:countries", None);
    app.run_prepared(live_run, &[]);
    record(&app, &answers[..2]);
    app.catch_up();
    let path = app.data.as_ref().unwrap().run.results_path();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    std::io::Write::write_all(&mut f, b"{not json\n").unwrap();
    record(&app, &answers[2..4]);
    app.catch_up();
    let d = app.data.as_ref().unwrap();
    assert_eq!(d.tally.answered, 2);
    assert!(
        d.broken.as_deref().unwrap().contains(":3:"),
        "{:?}",
        d.broken
    );
    assert!(
        app.status.contains("can no longer be read"),
        "{}",
        app.status
    );
}

#[test]
fn an_interrupted_run_opened_with_run_continues_with_shift_r() {
    use kgscope::tui::app::Command;
    let base_url = streaming_server();
    let tmp = tempfile::tempdir().unwrap();
    let model = ModelSpec::parse("openai:fake", Some(&base_url), "OPENAI_API_KEY").unwrap();
    let run = fixture_with(tmp.path(), model, 6, Task::Statement);
    let mut app = open_app(tmp.path(), &run);
    app.can_run = true;
    key(&mut app, KeyCode::Char('2'));
    let s = render(&app, 100, 30);
    assert!(s.contains("R continues it"), "{s}");
    key(&mut app, KeyCode::Char('R'));
    let Some(Command::Continue(path)) = app.commands.pop() else {
        panic!("R did not ask to continue the run")
    };
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    kgscope::tui::runner::resume(rt.handle(), tmp.path(), path.to_str().unwrap(), tx);
    follow_run(&mut app, rx);
    assert_eq!(app.live.finished, Some(false), "{}", app.live.status);
    app.catch_up();
    let (_, manifest, records) = session::open_results(tmp.path(), &run.id).unwrap();
    assert_eq!(records.len(), manifest.questions);
    assert!(manifest.finished_at.is_some());
    assert_eq!(
        app.data.as_ref().unwrap().tally.answered,
        manifest.questions as u64
    );
    let s = render(&app, 100, 30);
    assert!(
        s.contains(&format!("{0} / {0} · finished", manifest.questions)),
        "{s}"
    );
}

#[test]
fn live_shows_the_kglens_rates_for_a_yes_no_run() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = yes_no_app(tmp.path());
    key(&mut app, KeyCode::Char('2'));
    let live = render(&app, 100, 30);
    assert!(
        live.contains("win rate") && live.contains("zero-sense rate"),
        "{live}"
    );
    assert!(!live.contains("correctness"), "{live}");
    // The fixture answers in a fixed cycle: the win rate card shows a number, not "–".
    let d = app.data.as_ref().unwrap();
    let win = d
        .snapshot
        .overall
        .yesno
        .as_ref()
        .expect("edges examined")
        .win_rate
        .value;
    assert!(live.contains(&format!("{win:.3}")), "{live}");
}

/// The analyst's screens (issue 8 §5), in tests/tui/analyst.rs.
#[path = "tui/analyst.rs"]
mod analyst;

/// The Judge screen (issue 22 §4), in tests/tui/judge.rs.
#[path = "tui/judge.rs"]
mod judge;

/// The run dialog's judge and writer, what it remembers, and R on a judged run (issue 26),
/// in tests/tui/dialog.rs.
#[path = "tui/dialog.rs"]
mod dialog;

/// The annotators' workflow (issue 26 §4): labelling correct answers, the run picker, the
/// export key, in tests/tui/annotators.rs.
#[path = "tui/annotators.rs"]
mod annotators;

#[path = "tui/question_causes.rs"]
mod question_causes;

/// Rendering: complex scripts, Live's long questions, the welcome pane at 80×24 (issue 26
/// §5), in tests/tui/rendering.rs.
#[path = "tui/rendering.rs"]
mod rendering;

/// Screens that never mislead (issue 38 §5–§7), in tests/tui/screens_say.rs.
#[path = "tui/screens_say.rs"]
mod screens_say;

/// The demo for a presenter and smaller fixes (issue 38 §9, §10), in tests/tui/presenter.rs.
#[path = "tui/presenter.rs"]
mod presenter;

/// Runs written before schema version 2 (tests/data/legacy-runs, made by the previous binary)
/// open in every screen, and Inspect names their gold answers in the method's words.
#[test]
fn runs_from_before_schema_2_open_in_every_screen() {
    let fixtures = common::root().join("tests/data/legacy-runs");
    for (id, kg, gold_words) in [
        (
            "20261124-091613-statement-5bd4",
            "sample:elements",
            ["gold true", "gold false"],
        ),
        (
            "20261124-091545-yesno-9a74",
            "sample:nba",
            ["gold yes", "gold no"],
        ),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let to = tmp.path().join(id);
        std::fs::create_dir_all(&to).unwrap();
        for f in ["manifest.json", "results.jsonl"] {
            std::fs::copy(fixtures.join(id).join(f), to.join(f)).unwrap();
        }
        let mut app = build_app(&Options {
            kg: kg.into(),
            model: None,
            base_url: None,
            api_key_env: "OPENAI_API_KEY".into(),
            timeouts: Default::default(),
            run: Some(id.into()),
            runs_dir: tmp.path().to_path_buf(),
            theme: "dark".into(),
            log: None,
            kg_sample: None,
            ..Default::default()
        })
        .unwrap();
        assert_eq!(app.data.as_ref().unwrap().tally.answered, 60, "{id}");
        let heat = render(&app, 120, 40);
        assert!(
            gold_words.iter().all(|w| heat.contains(w)),
            "{id}: the Why panel does not split by {gold_words:?}:\n{heat}"
        );
        for screen in ['2', '4', '5'] {
            key(&mut app, KeyCode::Char(screen));
            let s = render(&app, 120, 40);
            assert!(!s.trim().is_empty(), "{id}: screen {screen} is blank");
        }
        let inspect = render(&app, 160, 50);
        assert!(
            inspect.contains("· rules"),
            "{id}: no deciding stage:\n{inspect}"
        );
        assert!(
            gold_words
                .iter()
                .any(|w| inspect.contains(&w.replace("gold ", "gold      "))),
            "{id}: the gold answer is not in the method's words:\n{inspect}"
        );
    }
}

/// Compare (6): two runs of the same questions, one interrupted, marked with Space; the
/// comparison is on the questions both answered, and `P` saves it as a figure. `P` on
/// Heatmaps saves the view as drawn into the run's figures/.
#[test]
fn compare_screen_marks_runs_compares_common_questions_and_saves_figures() {
    let tmp = tempfile::tempdir().unwrap();
    let a = fixture(tmp.path());
    let b = fixture_with(
        tmp.path(),
        ModelSpec::Llama {
            path: PathBuf::from("other-model.gguf"),
        },
        12,
        Task::Statement,
    );
    let mut app = open_app(tmp.path(), &a);
    keys(&mut app, "6");
    assert_eq!(app.screen, Screen::Compare);
    assert_eq!(app.compare.runs.len(), 2);
    let screen = render(&app, 120, 30);
    assert!(screen.contains("Mark two runs or more"), "{screen}");
    // Mark both: the first in the list (the newer) is the baseline A.
    let first = app.compare.runs[0].id.clone();
    assert!(first == a.id || first == b.id);
    key(&mut app, KeyCode::Char(' '));
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Char(' '));
    assert_eq!(app.compare.marked.len(), 2);
    let c = app.compare.result.as_ref().unwrap().as_ref().unwrap();
    assert_eq!(c.common, 12);
    assert_eq!(c.runs[0].id, first);
    let screen = render(&app, 120, 30);
    assert!(screen.contains("12 common questions"), "{screen}");
    assert!(screen.contains("[A]") && screen.contains("[B]"), "{screen}");
    assert!(screen.contains("overall"), "{screen}");
    let small = render(&app, 80, 24);
    capture("compare-80x24", &small);
    assert!(small.contains("common questions"), "{small}");
    // Issue 38 §8: at 80×24 run B's intervals were cut; every interval is now whole.
    let row = |name: &str| {
        small
            .lines()
            .find(|l| l.contains(&format!("│{name} ")))
            .unwrap_or_else(|| panic!("no {name} row:\n{small}"))
            .to_string()
    };
    for metric in ["accuracy", "abstain rate", "informativeness"] {
        let r = row(metric);
        assert_eq!(r.matches('[').count(), 2, "{r}");
        assert_eq!(r.matches(']').count(), 2, "{r}");
        assert!(!r.contains('…'), "{r}");
    }
    let overall = row("overall");
    assert!(!overall.contains('…'), "{overall}");
    // g: by head type.
    keys(&mut app, "g");
    assert_eq!(
        app.compare
            .result
            .as_ref()
            .unwrap()
            .as_ref()
            .unwrap()
            .grouping,
        "head type"
    );
    keys(&mut app, "P");
    assert!(app.status.starts_with("figure saved: "), "{}", app.status);
    let path = PathBuf::from(app.status.trim_start_matches("figure saved: "));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(path.starts_with(tmp.path().join("figures")));
    assert!(svg.contains("accuracy by head type"), "{svg}");
    // Unmarking one leaves nothing to compare.
    key(&mut app, KeyCode::Char(' '));
    assert!(app.compare.result.is_none());
    keys(&mut app, "P");
    assert!(app.status.starts_with("no figure saved"), "{}", app.status);
    // Heatmaps: the view as drawn.
    keys(&mut app, "3v");
    keys(&mut app, "P");
    // Saved in the background: the status says so until it is done.
    assert_eq!(app.status, "saving the figure…");
    app.wait_for_figure();
    assert!(app.status.starts_with("figure saved: "), "{}", app.status);
    let path = PathBuf::from(app.status.trim_start_matches("figure saved: "));
    assert!(
        path.starts_with(tmp.path().join(&a.id).join("figures")),
        "{path:?}"
    );
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.contains("head type × tail type"), "{svg}");
    // Errors has no figure, and says so.
    keys(&mut app, "4P");
    assert!(app.status.contains("no figure"), "{}", app.status);
}

/// A search through a KG too big to search between two frames runs in the background: the
/// keys are taken at once, the list says it is searching, and the newest query's matches
/// replace the list when they arrive, the same matches an immediate search finds.
#[test]
fn a_big_search_runs_in_the_background_and_the_newest_query_wins() {
    let (_tmp, mut inline) = fixture_app();
    key(&mut inline, KeyCode::Char('1'));
    search(&mut inline, "fra");
    let expected = inline.explore.matches.clone();
    assert!(!expected.is_empty() && !inline.searching());
    assert!(
        expected.len() < inline.entries.len(),
        "the query narrowed the list"
    );

    let (_tmp2, mut app) = fixture_app();
    app.search_inline_below = 0;
    key(&mut app, KeyCode::Char('1'));
    keys(&mut app, "/");
    // Letter by letter: a job per letter, only the last one's answer counts.
    keys(&mut app, "fr");
    keys(&mut app, "a");
    assert!(app.searching());
    assert!(render(&app, 100, 30).contains("searching…"));
    app.wait_for_search();
    assert!(!app.searching());
    assert_eq!(app.explore.matches, expected);
    // Late answers to "f" and "fr" never replace it.
    std::thread::sleep(std::time::Duration::from_millis(200));
    app.poll_search();
    assert_eq!(app.explore.matches, expected);
    assert!(!render(&app, 100, 30).contains("searching…"));
}

/// Runs too big to read between two frames are read in the background: marking them is
/// taken at once, the screen says it is reading, and the comparison appears when they are in,
/// the same as one read at once.
#[test]
fn compare_reads_big_runs_in_the_background() {
    let tmp = tempfile::tempdir().unwrap();
    let a = fixture(tmp.path());
    let _b = fixture_with(
        tmp.path(),
        ModelSpec::Llama {
            path: PathBuf::from("other-model.gguf"),
        },
        12,
        Task::Statement,
    );
    let mut app = open_app(tmp.path(), &a);
    app.compare.inline_below_bytes = 0;
    keys(&mut app, "6");
    key(&mut app, KeyCode::Char(' '));
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Char(' '));
    assert_eq!(app.compare.marked.len(), 2);
    assert!(app.compare_loading());
    assert!(app.compare.result.is_none());
    assert!(render(&app, 120, 30).contains("reading the marked runs"));
    app.wait_for_compare();
    assert!(!app.compare_loading());
    let c = app.compare.result.as_ref().unwrap().as_ref().unwrap();
    assert_eq!(c.common, 12);
    assert!(render(&app, 120, 30).contains("12 common questions"));
}

/// The Errors list is filtered and sorted once per change, not once per frame: drawing twice
/// reuses the list, and a new filter makes a new one.
#[test]
fn the_errors_list_is_made_once_per_change() {
    let (_tmp, mut app) = fixture_app();
    key(&mut app, KeyCode::Char('4'));
    render(&app, 100, 30);
    let first = app.error_indices();
    render(&app, 100, 30);
    assert!(std::sync::Arc::ptr_eq(&first, &app.error_indices()));
    key(&mut app, KeyCode::Char('s'));
    let sorted = app.error_indices();
    assert!(!std::sync::Arc::ptr_eq(&first, &sorted));
    assert_eq!(first.len(), sorted.len());
}

/// `kgscope tui --kg sample:countries --kg-sample N`, with no model, its runs under `runs`.
fn sampled_app(runs: &std::path::Path, per_relation: usize) -> App {
    build_app(&Options {
        kg: "sample:countries".into(),
        model: None,
        base_url: None,
        api_key_env: "OPENAI_API_KEY".into(),
        timeouts: Default::default(),
        run: None,
        runs_dir: runs.to_path_buf(),
        theme: "dark".into(),
        log: None,
        kg_sample: Some(per_relation),
        ..Default::default()
    })
    .unwrap()
}

/// `kgscope tui --kg-sample N`: Explore shows a sample drawn with bounded queries, runs
/// started from it draw the same way (their manifest says so, so a resume draws again), and
/// KGLens' walk from a marked entity is drawn as far out as it goes.
#[test]
fn a_tui_on_a_sample_explores_it_and_its_runs_draw_from_it() {
    use kgscope::tui::app::RunRequest;
    use kgscope::tui::runner::RunBase;
    let tmp = tempfile::tempdir().unwrap();
    let app = sampled_app(tmp.path(), 4);
    let index = app.index.as_ref().unwrap();
    let whole = load_index("sample:countries").unwrap();
    assert!(index.is_sample());
    assert!(index.facts().len() < whole.facts().len());
    let model = ModelSpec::Llama {
        path: PathBuf::from("no-model.gguf"),
    };
    let base = RunBase {
        kg: "sample:countries".into(),
        kg_sample: app.kg_sample,
        model,
        runs_dir: tmp.path().to_path_buf(),
    };
    let mut req = RunRequest {
        relations: vec![],
        entities: vec![],
        task: Task::Yesno,
        context: None,
        limit: 6,
        judge: None,
        writer: None,
    };
    let cfg = kgscope::tui::runner::config_for(&base, &req);
    assert_eq!(cfg.kg_sample, Some(4));
    let prepared = session::prepare_new(cfg, "test-model", tmp.path(), &|_| {}).unwrap();
    assert_eq!(prepared.manifest.config.kg_sample, Some(4));
    assert!(prepared.index.is_sample());
    // KGLens around a marked entity: the draw reaches out from it as far as the walk goes,
    // and every fact of the centre is there to walk.
    let peru = "https://kgscope.dev/kg/countries/entity/Peru";
    req.task = Task::Kglens;
    req.entities = vec![peru.into()];
    let cfg = kgscope::tui::runner::config_for(&base, &req);
    let prepared = session::prepare_new(cfg, "test-model", tmp.path(), &|_| {}).unwrap();
    let index = &prepared.index;
    assert!(index.is_sample());
    assert!(prepared.plan.is_some());
    let (sampled, whole_peru) = (index.iri_id(peru).unwrap(), whole.iri_id(peru).unwrap());
    assert!(index.is_closed(sampled));
    assert_eq!(
        index.facts_from(sampled).len(),
        whole.facts_from(whole_peru).len()
    );
}

/// Explore on a sample: an entity the sample lacks is found by a search of the whole KG
/// (Enter), drawn into the sample with its facts and what points at it, and shown like any
/// other; marks stay on their entities; a search that finds nothing new says so.
#[test]
fn explore_on_a_sample_finds_what_the_sample_lacks_in_the_whole_kg() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = sampled_app(tmp.path(), 1);
    let whole = load_index("sample:countries").unwrap();
    // An entity of the KG that the sample has not drawn.
    let missing = whole
        .entities()
        .iter()
        .map(|&e| (e, whole.label(e)))
        .find(|(e, label)| {
            let index = app.index.as_ref().unwrap();
            whole.facts_from(*e).len() >= 3
                && label.len() >= 5
                && index
                    .iri_id(kgscope::kg::term_str(whole.term(*e)))
                    .is_none()
                && !app
                    .entries
                    .iter()
                    .any(|x| x.label.eq_ignore_ascii_case(label))
        })
        .expect("the sample lacks some entity");
    let (e, label) = missing;
    let iri = kgscope::kg::term_str(whole.term(e)).to_string();
    // A relation marked before the search stays marked after it.
    key(&mut app, KeyCode::Char('/'));
    keys(&mut app, "currency");
    app.wait_for_search();
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char(' '));
    let marked = app.entries[app.explore.marked[0]].label.clone();
    key(&mut app, KeyCode::Char('/'));
    app.on_key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL));
    keys(&mut app, &label.to_lowercase());
    app.wait_for_search();
    key(&mut app, KeyCode::Enter);
    app.wait_for_kg_search();
    app.wait_for_search();
    assert!(app.status.contains("found in the KG"), "{}", app.status);
    let index = app.index.clone().unwrap();
    let id = index.iri_id(&iri).expect("drawn into the sample");
    assert!(index.is_closed(id));
    assert_eq!(index.facts_from(id).len(), whole.facts_from(e).len());
    assert_eq!(index.facts_to(id).len(), whole.facts_to(e).len());
    let selected = app.selected_entry().expect("a match");
    assert_eq!(selected.id, id, "the entity found is the first match");
    assert!(app.selected_card().unwrap().row_count() >= whole.facts_from(e).len());
    assert_eq!(app.entries[app.explore.marked[0]].label, marked);
    // Searching again for the same name finds nothing new.
    key(&mut app, KeyCode::Char('/'));
    key(&mut app, KeyCode::Enter);
    app.wait_for_kg_search();
    assert!(app.status.contains("nothing more"), "{}", app.status);
}

/// A KGHaluBench run in Inspect: the compound answer, the description it was compared with,
/// the entity-level scores, and each fact with its verdict and the stage that decided it; the
/// heatmaps group by band and entity type.
#[test]
fn kghalubench_inspect_shows_the_chain_fact_by_fact() {
    use kgscope::core::compound::{
        CompoundCheck, FactCheck, FactStage, FactVerdict, Judged, Similarity,
    };
    let tmp = tempfile::tempdir().unwrap();
    let model = ModelSpec::Llama {
        path: PathBuf::from("no-model.gguf"),
    };
    let cfg = RunConfig::new("sample:countries", model, Task::Kghalubench, 8);
    let prepared = session::prepare_new(cfg, "test-model", tmp.path(), &|_| {}).unwrap();
    assert_eq!(prepared.questions.len(), 8);
    let mut out = prepared.run.results_appender().unwrap();
    for (i, q) in prepared.questions.iter().enumerate() {
        let kgscope::questions::Gold::Compound { facts } = &q.gold else {
            panic!("{:?}", q.gold)
        };
        let similarity = |score: f64| Similarity {
            cosine: score + 0.05,
            token_set: score - 0.1,
            score,
            threshold: 0.7,
        };
        let (check, verdict, response) = match i % 3 {
            0 => (
                CompoundCheck {
                    judged: Judged::Aligned { correct: 1 },
                    abstention: None,
                    similarity: Some(similarity(0.81)),
                    facts: vec![
                        FactCheck {
                            relation: facts[0].relation.clone(),
                            verdict: Some(FactVerdict::Stated),
                            stage: FactStage::Cheap,
                            judge_outputs: vec![],
                        },
                        FactCheck {
                            relation: facts[1].relation.clone(),
                            verdict: Some(FactVerdict::Contradicted),
                            stage: FactStage::Judge,
                            judge_outputs: vec!["NO".into()],
                        },
                        FactCheck {
                            relation: facts[2].relation.clone(),
                            verdict: Some(FactVerdict::NotMentioned),
                            stage: FactStage::Expert,
                            judge_outputs: vec!["YES".into(), "reading: NONE".into()],
                        },
                    ],
                },
                Verdict::False,
                format!(
                    "{} is a country. Its capital is far away{EVIL}.",
                    q.subject_label
                ),
            ),
            1 => (
                CompoundCheck {
                    judged: Judged::Breadth,
                    abstention: None,
                    similarity: Some(similarity(0.42)),
                    facts: vec![],
                },
                Verdict::False,
                "Bananas are a yellow fruit.".to_string(),
            ),
            _ => (
                CompoundCheck {
                    judged: Judged::Abstained,
                    abstention: Some("abstention: \"don't know\"".into()),
                    similarity: None,
                    facts: vec![],
                },
                Verdict::Idk,
                "I don't know this country.".to_string(),
            ),
        };
        let mut a = attempt(verdict, response, 30);
        a.compound = Some(check);
        out.push(&verify_record(q.clone(), vec![a])).unwrap();
    }
    out.sync().unwrap();
    let mut app = open_app(tmp.path(), &prepared.run);
    // Errors, then the first one (an aligned answer with a wrong fact comes first).
    key(&mut app, KeyCode::Char('4'));
    key(&mut app, KeyCode::Enter);
    let mut shown = render(&app, 140, 60);
    for _ in 0..8 {
        if shown.contains("KGHaluBench chain") {
            break;
        }
        key(&mut app, KeyCode::Char('n'));
        shown = render(&app, 140, 60);
    }
    capture("inspect-kghalubench", &shown);
    for want in [
        "KGHaluBench chain",
        "aligned, 1 of 3 facts stated",
        "alignment S 0.810 > 0.70",
        // The second asked fact, whichever relation the draw gave it.
        ": contradicted  · judge: NO",
        "cheap check",
        "expert: YES / reading: NONE",
        "described",
        "question  difficulty 0.",
    ] {
        assert!(shown.contains(want), "{want}:\n{shown}");
    }
    // Issue 38 §10: the asked line names every asked fact, not only the first one's object.
    // The line wraps onto the next row of the left pane.
    let rows: Vec<&str> = shown.lines().collect();
    let at = rows
        .iter()
        .position(|l| l.contains("asked "))
        .unwrap_or_else(|| panic!("no asked line:\n{shown}"));
    let left = |l: &str| {
        l.split("││")
            .next()
            .unwrap()
            .trim_matches(['│', ' '])
            .to_string()
    };
    let asked = format!("{} {}", left(rows[at]), left(rows[at + 1]));
    let inspected = app.inspected().unwrap();
    let kgscope::core::gold::Gold::Compound { facts } = &inspected.question.gold else {
        panic!("a compound question");
    };
    for f in facts {
        let said = format!("{} {}", f.relation, f.accepted[0].label);
        assert!(asked.contains(&said), "{said} missing: {asked}");
    }
    assert!(
        !shown.contains('\u{1b}'),
        "escape sequences reached the screen"
    );
    // Live shows the method's own metrics.
    key(&mut app, KeyCode::Char('2'));
    let live = render(&app, 140, 40);
    capture("live-kghalubench", &live);
    for want in [
        "point accuracy",
        "weighted accuracy",
        "breadth rate",
        "depth rate",
    ] {
        assert!(live.contains(want), "{want}:\n{live}");
    }
    // The heatmaps offer the band and the entity type.
    key(&mut app, KeyCode::Char('3'));
    let mut seen = String::new();
    for _ in 0..8 {
        key(&mut app, KeyCode::Char('v'));
        seen.push_str(&render(&app, 140, 40));
    }
    assert!(seen.contains("band × entity type"), "{seen}");
    assert!(seen.contains("very common"), "{seen}");

    // Fact-judge training data: a "wrong" label on the aligned answer (the chain said wrong
    // too) confirms its fact verdicts; a "right" label on another aligned answer says every
    // fact is stated; a label on a breadth hallucination gives none (no fact was checked).
    let records: Vec<ResultRecord> = prepared.run.read_results().unwrap();
    let kind = |r: &ResultRecord| r.attempts[0].compound.as_ref().unwrap().judged;
    let aligned: Vec<&ResultRecord> = records
        .iter()
        .filter(|r| matches!(kind(r), Judged::Aligned { .. }))
        .take(2)
        .collect();
    let breadth = records.iter().find(|r| kind(r) == Judged::Breadth).unwrap();
    for (r, v) in [
        (aligned[0], LabelVerdict::Wrong),
        (aligned[1], LabelVerdict::Right),
        (breadth, LabelVerdict::Wrong),
    ] {
        label_as_tester(&prepared.run, &r.question.id, v, None);
    }
    let lines = export_labels(tmp.path(), &prepared.run, "halu-fact-judge");
    let out = format!("{lines:?}");
    assert_eq!(lines.len(), 6, "three facts of each aligned answer: {out}");
    let outputs: Vec<&str> = lines
        .iter()
        .map(|l| l["output"].as_str().unwrap())
        .collect();
    assert_eq!(
        outputs,
        ["YES", "NO", "UNCLEAR", "YES", "YES", "YES"],
        "{out}"
    );
    for l in &lines {
        let input = l["input"].as_str().unwrap();
        assert!(
            input.starts_with("Text: ") && input.contains("\nFact: "),
            "{input}"
        );
        assert!(l["instruction"].as_str().unwrap().contains("UNCLEAR"));
    }
    // The jsonl export carries the whole chain.
    let first = &export_labels(tmp.path(), &prepared.run, "jsonl")[0];
    assert_eq!(
        first["compound"]["facts"].as_array().unwrap().len(),
        3,
        "{first}"
    );
}

/// A recorded run of `task` on sample:countries by `model`, each question answered by
/// `attempt(i, n)` (the i-th of n).
fn recorded_run(
    dir: &Path,
    model: &str,
    task: Task,
    attempt_for: impl Fn(usize, usize) -> Attempt,
) -> RunDir {
    let model = ModelSpec::Llama {
        path: PathBuf::from(model),
    };
    let cfg = RunConfig::new("sample:countries", model, task, 16);
    let prepared = session::prepare_new(cfg, "test-model", dir, &|_| {}).unwrap();
    let n = prepared.questions.len();
    let mut out = prepared.run.results_appender().unwrap();
    for (i, q) in prepared.questions.iter().enumerate() {
        out.push(&verify_record(q.clone(), vec![attempt_for(i, n)]))
            .unwrap();
    }
    out.sync().unwrap();
    prepared.run
}

/// A run of statements (true and false) where the model said "True." to every one: a
/// yes-sayer, at chance.
fn yes_sayer(dir: &Path, model: &str) -> RunDir {
    recorded_run(dir, model, Task::Statement, |_, _| {
        attempt(Verdict::True, "True.".into(), 2)
    })
}

/// Marks the first two runs of Compare's list and waits for their comparison.
fn compare_first_two(app: &mut App) {
    keys(app, "6");
    key(app, KeyCode::Char(' '));
    key(app, KeyCode::Down);
    key(app, KeyCode::Char(' '));
    app.wait_for_compare();
}

/// Live shows what the model answered, the chance baseline, and the warning.
#[test]
fn live_says_when_the_results_are_near_chance() {
    let tmp = tempfile::tempdir().unwrap();
    let run = yes_sayer(tmp.path(), "no-model.gguf");
    let n = run
        .read_manifest::<kgscope::run::Manifest>()
        .unwrap()
        .questions;
    let mut app = open_app(tmp.path(), &run);
    key(&mut app, KeyCode::Char('2'));
    let s = render(&app, 100, 30);
    assert!(s.contains(&format!("answers: true {n}")), "{s}");
    assert!(s.contains(" · chance "), "{s}");
    assert!(
        s.contains("⚠ near chance: the model answered 'true' to"),
        "{s}"
    );
    // The fixture with every kind of answer is not flagged.
    let (_tmp, mut mixed) = fixture_app();
    key(&mut mixed, KeyCode::Char('2'));
    let s = render(&mixed, 100, 30);
    assert!(s.contains("answers: "), "{s}");
    assert!(!s.contains("answered 'true' to"), "{s}");
}

/// Compare shows each run's answers against chance: two runs can differ and both be blind.
#[test]
fn compare_says_which_runs_are_near_chance() {
    let tmp = tempfile::tempdir().unwrap();
    let a = yes_sayer(tmp.path(), "no-model.gguf");
    let _b = yes_sayer(tmp.path(), "other-model.gguf");
    let mut app = open_app(tmp.path(), &a);
    compare_first_two(&mut app);
    let c = app.compare.result.as_ref().unwrap().as_ref().unwrap();
    assert!(c.runs.iter().all(|r| r.chance.near_chance()));
    let s = render(&app, 160, 40);
    assert_eq!(s.matches("⚠ near chance").count(), 2, "{s}");
    assert!(s.contains(" · chance "), "{s}");
    // At the demo's width the warnings wrap rather than lose their end, which says how the
    // accuracy stands against chance.
    let s = render(&app, 100, 40);
    assert_eq!(s.matches("⚠ near chance").count(), 2, "{s}");
    assert_eq!(s.matches("is at chance").count(), 2, "{s}");
}

/// An SAQ run where the model says "pe" to every question, the judge deciding the last four:
/// short answers are open, so chance is not defined for them.
fn open_answers_run(dir: &Path, model: &str) -> RunDir {
    recorded_run(dir, model, Task::Saq, |i, n| {
        assert!(n >= 8, "{n}");
        let mut a = attempt(Verdict::False, "pe".into(), 2);
        a.answer = Some(kgscope::verify::Answer::Text { text: "pe".into() });
        if i + 4 >= n {
            a.stage = kgscope::verify::Stage::Judge;
        }
        a
    })
}

/// Issue 38: an SAQ run read "chance 15% (always answering 'pe', …)" and "⚠ near chance".
/// Open answers now get no chance line and no warning, in Live, Compare and `report`, but a
/// line saying how they were decided.
#[test]
fn open_answers_get_no_chance_line_but_say_how_they_were_decided() {
    let tmp = tempfile::tempdir().unwrap();
    let run = open_answers_run(tmp.path(), "no-model.gguf");
    let _other = open_answers_run(tmp.path(), "other-model.gguf");
    let n = run
        .read_manifest::<kgscope::run::Manifest>()
        .unwrap()
        .questions;
    let said = format!(
        "open answers {n}, no chance baseline: the rules decided {}, the judge 4 · 0 abstained (0%)",
        n - 4
    );
    let mut app = open_app(tmp.path(), &run);
    // Heatmaps' "why": wrong to every question is no answer habit when the answers are open
    // (before: `⚠ says "false" to 100% of questions`).
    key(&mut app, KeyCode::Char('3'));
    let heat = render(&app, 120, 40);
    assert!(
        heat.contains("open answers: not one of a fixed set, so no distribution"),
        "{heat}"
    );
    assert!(!heat.contains("⚠ says"), "{heat}");
    key(&mut app, KeyCode::Char('2'));
    let live = render(&app, 120, 30);
    assert!(live.contains(&said), "{live}");
    assert!(
        !live.contains("chance ") || live.contains("no chance baseline"),
        "{live}"
    );
    assert!(
        !live.contains("near chance") && !live.contains("answers: pe"),
        "{live}"
    );

    compare_first_two(&mut app);
    let c = app.compare.result.as_ref().unwrap().as_ref().unwrap();
    assert!(c.runs.iter().all(|r| !r.chance.near_chance()));
    let cmp = render(&app, 160, 40);
    assert_eq!(cmp.matches("no chance baseline").count(), 2, "{cmp}");
    assert!(
        !cmp.contains("near chance") && !cmp.contains("always answering"),
        "{cmp}"
    );

    let dir = tmp.path().to_str().unwrap();
    let text = common::ok(&["report", &run.id, "--runs-dir", dir]);
    assert!(text.contains(&said), "{text}");
    assert!(
        !text.contains("near chance") && !text.contains("always answering"),
        "{text}"
    );
    let md = common::ok(&["report", &run.id, "--runs-dir", dir, "--format", "md"]);
    assert!(
        md.contains(&format!("Open answers {n}, no chance baseline")),
        "{md}"
    );
    assert!(
        !md.contains("Baseline: chance") && !md.contains("Warning: near chance"),
        "{md}"
    );
    let json = common::ok(&["report", &run.id, "--runs-dir", dir, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["chance"]["open"]["n"], n, "{json}");
    assert_eq!(v["chance"]["open"]["judge"], 4, "{json}");
    assert_eq!(v["chance"]["n"], 0, "{json}");
    assert!(
        v["chance"]["warnings"].as_array().unwrap().is_empty(),
        "{json}"
    );
}

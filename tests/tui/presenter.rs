//! Issue 38 §9 and §10: the demo for a presenter (its model kept loaded between rounds, its
//! steps paced to be read, each round ending on its finding in words, a tie for worst said to
//! be one), and three smaller fixes: the type matrix's column names, the help overlay at
//! 80×24, Explore's section headings when scrolled.

use super::*;
use futures::stream::BoxStream;
use kgscope::backends::{Backend, BackendError, Capabilities, Chunk, Request};
use kgscope::metrics::Metric;
use kgscope::tui::app::demo::{DemoOptions, DemoStep};
use kgscope::tui::app::demo_finding;
use kgscope::tui::app::demo_size::round_size;
use kgscope::tui::app::{HeatView, RunRequest};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A model that says "True." to everything, counting what it is asked.
struct YesSayer {
    asked: AtomicUsize,
}

impl Backend for YesSayer {
    fn model_id(&self) -> String {
        "yes-sayer".into()
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities::default()
    }
    fn ask(&self, _req: Request) -> BoxStream<'static, Result<Chunk, BackendError>> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        common::answer_stream("True.")
    }
}

/// Two rounds through the TUI's runner on one local model: the first run's model is the one
/// loaded (here by the test, standing in for the weights), and neither round loads it again —
/// no "loading the model" while the next round prepares, and Live shows no card of the last
/// round under the preparation.
#[test]
fn the_demo_keeps_its_model_loaded_across_rounds() {
    use kgscope::tui::runner::{self, RunBase, RunnerMsg};
    let tmp = tempfile::tempdir().unwrap();
    let weights = tmp.path().join("kept-model.gguf");
    std::fs::write(&weights, b"").unwrap();
    let model = ModelSpec::Llama { path: weights };
    let base = RunBase {
        kg: "sample:countries".into(),
        kg_sample: None,
        model: model.clone(),
        runs_dir: tmp.path().join("runs"),
    };
    let index = Arc::new(load_index("sample:countries").unwrap());
    let mut app = App::new(Theme::default(), "sample:countries", Some(index));
    app.can_run = true;
    app.model = Some(model.clone());
    let yes = Arc::new(YesSayer {
        asked: AtomicUsize::new(0),
    });
    let req = RunRequest {
        relations: vec![],
        entities: vec![],
        task: Task::Statement,
        context: None,
        limit: 10,
        judge: None,
        writer: None,
    };
    let backend: Arc<dyn Backend> = yes.clone();
    runner::keep_loaded(&runner::config_for(&base, &req), &backend);
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut asked_before = 0;
    for round in 0..2 {
        // As the run dialog starts a run: Live reset, preparing.
        key(&mut app, KeyCode::Char('1'));
        key(&mut app, KeyCode::Char('r'));
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.screen, Screen::Live);
        app.commands.clear();
        let preparing = render(&app, 80, 24);
        assert!(
            preparing.contains("metrics appear here once its first answers are in"),
            "round {round}: {preparing}"
        );
        if round == 1 {
            assert!(
                !preparing.contains("n=") && !preparing.contains("answers:"),
                "round one's cards under round two's preparation:\n{preparing}"
            );
        }
        let (tx, rx) = std::sync::mpsc::channel();
        runner::start(rt.handle(), &base, &req, tx);
        let mut said = vec![];
        while app.live.finished.is_none() {
            let msg = rx
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|e| panic!("the runner went quiet: {e} ({said:?})"));
            if let RunnerMsg::Status(s) = &msg {
                said.push(s.clone());
            }
            kgscope::tui::event_loop::apply(&mut app, msg);
        }
        assert_eq!(app.live.finished, Some(false), "{said:?}");
        assert!(
            said.iter().all(|s| !s.contains("loading the model")),
            "round {round} loaded the model again: {said:?}"
        );
        assert!(
            said.iter().any(|s| s.contains("is loaded already")),
            "{said:?}"
        );
        let asked = yes.asked.load(Ordering::SeqCst);
        assert!(
            asked > asked_before,
            "round {round}: the kept model answered"
        );
        asked_before = asked;
    }
    assert_eq!(
        runner::times_loaded(&model),
        1,
        "loaded once, for both rounds"
    );
}

/// A statement run of the demo's own size on sample:countries (four relations of twelve
/// facts and their negatives) where the model said "true" to every statement.
fn yes_run(dir: &Path) -> (RunDir, usize) {
    let index = load_index("sample:countries").unwrap();
    let size = round_size(&index, Task::Statement, 4, 0);
    let relations = relation_iris(&index, &size.relations);
    let cfg = RunConfig {
        relations,
        ..RunConfig::new("sample:countries", no_model(), Task::Statement, size.limit)
    };
    let prepared = session::prepare_new(cfg, "test-model", dir, &|_| {}).unwrap();
    let mut out = prepared.run.results_appender().unwrap();
    for q in &prepared.questions {
        out.push(&verify_record(
            q.clone(),
            vec![attempt(Verdict::True, "True.".into(), 2)],
        ))
        .unwrap();
    }
    out.sync().unwrap();
    (prepared.run, size.relations.len())
}

fn no_model() -> ModelSpec {
    ModelSpec::Llama {
        path: PathBuf::from("no-model.gguf"),
    }
}

/// The words inside the box titled `title`, its lines joined: a finding wrapped over lines
/// reads as one.
fn boxed(screen: &str, title: &str) -> String {
    let lines: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
    let top = screen
        .lines()
        .position(|l| l.contains(title))
        .unwrap_or_else(|| panic!("no box {title:?}:\n{screen}"));
    let left = lines[top].iter().position(|c| *c == '┌').unwrap();
    let right = left + lines[top][left..].iter().position(|c| *c == '┐').unwrap();
    let mut text = vec![];
    for l in &lines[top + 1..] {
        if l.get(left) == Some(&'└') {
            break;
        }
        text.push(l[left + 1..right].iter().collect::<String>());
    }
    text.join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The findings of a yes-sayer's round, as the screens compute them: its habit, and the
/// worst relation — a tie (every relation at the same value) said to be a tie of that many,
/// none named as the worst.
#[test]
fn a_round_finds_the_habit_and_reports_a_tie_for_worst_as_a_tie() {
    let tmp = tempfile::tempdir().unwrap();
    let (run, relations) = yes_run(tmp.path());
    assert_eq!(relations, 4);
    let app = open_app(tmp.path(), &run);
    let d = app.data.as_ref().unwrap();
    let habit = demo_finding::habit(d).expect("a habit");
    assert_eq!(habit.answer, "true");
    assert!(
        habit
            .describe()
            .contains("no-model.gguf says \"true\" to 100% of questions"),
        "{}",
        habit.describe()
    );
    // Correctness (GraphEval): 0.00 for every relation of a yes-sayer; accuracy: 0.50 for
    // every one (each true statement right, each negative wrong).
    for (metric, value) in [(Metric::Correctness, "0.00"), (Metric::Accuracy, "0.50")] {
        let worst = demo_finding::worst_relation(d, metric).unwrap();
        assert!(
            worst.contains("a 4-way tie") && worst.contains("4 relations score"),
            "{worst}"
        );
        assert!(worst.contains(value), "{worst}");
        for name in &d.snapshot.by_relation {
            assert!(!worst.contains(name.0.as_str()), "names one: {worst}");
        }
    }
}

/// A whole round, paced with the demo's default pauses, on the yes-sayer's run: every step
/// stays at least the shortest pause, every screen of findings at least the reading time
/// (and longer the more it lists), and the round ends on its finding, in words, on screen for
/// at least 12 s at 80×24 and 120×40.
#[test]
fn a_demo_round_is_paced_to_be_read_and_ends_on_its_finding() {
    let tmp = tempfile::tempdir().unwrap();
    let (run, _) = yes_run(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    app.can_run = true;
    app.model = Some(no_model());
    let opts = DemoOptions::default();
    assert_eq!(
        (opts.step, opts.read, opts.finding),
        (
            Duration::from_secs(4),
            Duration::from_secs(8),
            Duration::from_secs(12)
        )
    );
    let t0 = Instant::now();
    app.start_demo(opts.clone(), t0);
    // Each step as it came on screen: when, and how long the demo said it stays.
    let mut shown: Vec<(DemoStep, Duration, Duration)> = vec![];
    let mut finding_screens = vec![];
    let tick = Duration::from_millis(100);
    let mut now = t0;
    while now - t0 < Duration::from_secs(300) {
        app.demo_tick(now);
        let d = app.demo.as_ref().unwrap();
        if let Some((step, dwell)) = d.shown() {
            if shown.last().is_none_or(|(s, _, _)| *s != step) {
                shown.push((step, now - t0, dwell));
            }
        }
        let (found, round) = (d.finding().is_some(), d.round);
        if found && finding_screens.is_empty() {
            finding_screens = vec![render(&app, 80, 24), render(&app, 120, 40)];
        }
        if round == 1 {
            break;
        }
        if matches!(shown.last(), Some((DemoStep::Start, ..))) && app.live.finished.is_none() {
            // The run "ends" at once: the recorded run is its result.
            app.live.finished = Some(false);
        }
        now += tick;
    }
    let steps: Vec<DemoStep> = shown.iter().map(|s| s.0).collect();
    assert_eq!(steps.first(), Some(&DemoStep::Mark), "{shown:?}");
    assert!(steps.contains(&DemoStep::Heatmap), "{shown:?}");
    assert_eq!(steps.last(), Some(&DemoStep::Finding), "{shown:?}");
    for (step, _, dwell) in &shown {
        assert!(*dwell >= opts.step, "{step:?} {dwell:?}");
        let findings = !matches!(step, DemoStep::Mark | DemoStep::Dialog | DemoStep::Start);
        if findings {
            assert!(*dwell >= Duration::from_secs(8), "{step:?} {dwell:?}");
        }
    }
    // Each step really stays as long as it said: the next comes no sooner.
    for w in shown.windows(2) {
        assert!(w[1].1 - w[0].1 >= w[0].2, "{shown:?}");
    }
    // Proportional: the relation heatmap (4 rows) stays longer than the bare reading time.
    let heat = shown.iter().find(|s| s.0 == DemoStep::Heatmap).unwrap();
    assert_eq!(heat.2, opts.read_for(4), "{shown:?}");
    assert!(heat.2 > opts.read);
    let finding = shown.last().unwrap();
    assert!(finding.2 >= Duration::from_secs(12), "{finding:?}");
    assert_eq!(finding_screens.len(), 2, "the finding was drawn");
    for s in &finding_screens {
        let text = boxed(s, "what it found");
        assert!(
            text.contains("no-model.gguf says \"true\" to 100% of questions"),
            "{s}"
        );
        assert!(text.contains("the worst relation is a 4-way tie"), "{s}");
    }
    capture("demo-finding-80x24", &finding_screens[0]);
    capture("demo-finding-120x40", &finding_screens[1]);
}

/// The type matrix gives its column names the room its columns leave: at 80×24 and 120×40 no
/// column name is cut (no "…" in the header) while a cell has room to spare.
#[test]
fn the_type_matrix_never_cuts_a_column_name_beside_empty_room() {
    let (_tmp, mut app) = fixture_app();
    app.screen = Screen::Heatmaps;
    app.heat.view = HeatView::HeadTail;
    let cols = app.heat_grid().cols.clone();
    assert!(cols.len() >= 3, "{cols:?}");
    for (w, h) in [(80, 24), (120, 40)] {
        let s = render(&app, w, h);
        capture(&format!("heatmaps-head-tail-{w}x{h}"), &s);
        let lines: Vec<&str> = s.lines().collect();
        let corner = lines
            .iter()
            .position(|l| l.contains("head \\ tail"))
            .unwrap_or_else(|| panic!("{s}"));
        // The header: the corner's line, and the line above it when names take two.
        let header = if lines[corner - 1].contains("──") {
            lines[corner].to_string()
        } else {
            format!("{} {}", lines[corner - 1], lines[corner])
        };
        assert!(!header.contains('…'), "{w}×{h}: a name cut:\n{s}");
        let header_words = header.split_whitespace().collect::<Vec<_>>().join(" ");
        for c in &cols {
            for word in c.split_whitespace() {
                assert!(header_words.contains(word), "{w}×{h}: {c:?} missing:\n{s}");
            }
        }
        // Row names are not cut either where the columns leave room.
        assert!(s.contains("country or territory"), "{w}×{h}:\n{s}");
    }
}

/// At 80×24 the help overlay covers the screen from edge to edge: no sliver of the screen
/// below (a border, a letter) shows at its sides, and every key's line is whole.
#[test]
fn the_help_overlay_at_80x24_leaves_no_stray_characters() {
    let (_tmp, mut app) = fixture_app();
    app.screen = Screen::Heatmaps;
    key(&mut app, KeyCode::Char('?'));
    let s = render(&app, 80, 24);
    capture("help-80x24-clean", &s);
    for (i, l) in s.lines().enumerate() {
        let first = l.chars().next().unwrap();
        let last = l.chars().last().unwrap();
        assert!(
            "┌│└".contains(first) && "┐│┘".contains(last),
            "line {i} shows the screen below at its side: {l:?}\n{s}"
        );
    }
    for row in keymap::ROWS {
        assert!(s.contains(row.what), "help cuts {:?}:\n{s}", row.what);
    }
    // Where there is room around it, it stays a box over the screen.
    let big = render(&app, 120, 40);
    assert!(big.contains("┌ keys ─"), "{big}");
}

/// Explore's `J` keeps the heading of the section it scrolls into on top: a 2-hop
/// neighbour's edges never show without their "via …" line, at 80×24 and 120×40.
#[test]
fn explore_keeps_the_section_heading_in_view_when_scrolled() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = hub_app(tmp.path(), 40);
    key(&mut app, KeyCode::Char('h'));
    assert_eq!(app.explore.hops, 2);
    for (w, h) in [(80, 24), (120, 40)] {
        app.explore.scroll = 0;
        let mut seen_continued = false;
        for _ in 0..12 {
            key(&mut app, KeyCode::Char('J'));
            let s = render(&app, w, h);
            let edges: Vec<&str> = s
                .lines()
                .skip_while(|l| !l.contains("edges"))
                .skip(1)
                .map(|l| l.rsplit('│').nth(1).unwrap_or(""))
                .collect();
            let first = edges.first().copied().unwrap_or("").trim_end();
            assert!(
                !first.starts_with("  "),
                "{w}×{h}: an edge on top without its heading:\n{s}"
            );
            if first.contains("(continued)") {
                seen_continued = true;
                capture(&format!("explore-two-hops-scrolled-{w}x{h}"), &s);
            }
        }
        assert!(seen_continued, "{w}×{h}: never scrolled into a section");
    }
}

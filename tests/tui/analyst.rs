//! The analyst's screens (issue 8 §5): heatmaps sorted with intervals and a "why" panel,
//! year bins, a yes/no run's own metrics, Errors in columns with the gold answer, search that
//! says why a hit matched, the new-run dialog, the cancel question, 80-column fits, the
//! welcome pane and `kgscope demo`. Each screen change is drawn at 80×24 and 200×60.

use super::*;
use kgscope::questions::ContextKind;
use kgscope::tui::app::demo::DemoOptions;
use kgscope::tui::app::{Command, HeatSort, HeatView, Metric};
use std::time::{Duration, Instant};

const SIZES: [(u16, u16); 2] = [(80, 24), (200, 60)];

/// Renders at both sizes and snapshots each as `name-WxH`.
fn snap_both(app: &App, name: &str) -> [String; 2] {
    SIZES.map(|(w, h)| {
        let s = render(app, w, h);
        snap(&format!("{name}-{w}x{h}"), &s);
        s
    })
}

/// Every pause of the demo the same `step`, so a test's clock moves a step a tick.
pub(super) fn even(step: Duration) -> DemoOptions {
    DemoOptions {
        step,
        read: step,
        per_line: Duration::ZERO,
        finding: step,
        ..DemoOptions::paced(step)
    }
}

fn no_model() -> ModelSpec {
    ModelSpec::Llama {
        path: PathBuf::from("no-model.gguf"),
    }
}

#[test]
fn heatmaps_sort_by_value_with_intervals_and_explain_the_selected_cell() {
    let (_tmp, mut app) = fixture_app();
    // A statement run's screen opens on accuracy (every group has one), not on correctness,
    // which is 0.00 throughout for a model that says "true" to everything (issue 38).
    assert_eq!(app.heat.metric, Metric::Accuracy);
    key(&mut app, KeyCode::Char('s'));
    assert_eq!(app.heat.sort, HeatSort::Value);
    // Worst first: rankable rows by accuracy, then rows too wide to rank, by accuracy too.
    let g = app.heat_grid();
    let tiers: Vec<(u8, f64)> = g
        .stats
        .iter()
        .map(|r| {
            let a = r[0].as_ref().unwrap().accuracy.unwrap();
            (u8::from(!kgscope::tui::app::rankable(&a)), a.value)
        })
        .collect();
    assert!(
        tiers.windows(2).all(|w| w[0] <= w[1]),
        "not sorted worst first: {tiers:?}"
    );
    let [small, big] = snap_both(&app, "analyst-heatmaps-sorted");
    for s in [&small, &big] {
        assert!(s.contains("sorted by value, worst first"), "{s}");
        assert!(s.contains("too wide to rank"), "{s}");
        assert!(s.contains("Why: relation"), "{s}");
        assert!(s.contains("gold true") && s.contains("gold false"), "{s}");
        assert!(s.contains("answers"), "{s}");
    }
    // The whole interval where the terminal has room for it.
    assert!(big.contains(" [0."), "{big}");
    // n sorts largest first.
    key(&mut app, KeyCode::Char('s'));
    let ns: Vec<u64> = app
        .heat_grid()
        .stats
        .iter()
        .map(|r| r[0].as_ref().unwrap().n)
        .collect();
    assert!(ns.windows(2).all(|w| w[0] >= w[1]), "{ns:?}");
    assert!(render(&app, 80, 24).contains("sorted by n, largest first"));

    // Head × tail: the columns share the terminal's width.
    key(&mut app, KeyCode::Char('v'));
    assert_eq!(app.heat.view, HeatView::HeadTail);
    let [ht_small, ht_big] = snap_both(&app, "analyst-heatmaps-head-tail");
    // Every tail type has its column on a wide terminal; a narrow one scrolls them.
    let header = |s: &str| {
        s.lines()
            .find(|l| l.contains("head \\ tail"))
            .unwrap()
            .trim_end()
            .to_string()
    };
    for c in app.heat_grid().cols {
        let start: String = c.chars().take(8).collect();
        assert!(header(&ht_big).contains(&start), "{c}: {ht_big}");
    }
    assert!(header(&ht_small).chars().count() <= 80, "{ht_small}");
}

#[test]
fn the_year_view_bins_sparse_years_and_its_cells_filter_errors() {
    let tmp = tempfile::tempdir().unwrap();
    // Elements' discoveries are dated (countries have no dates); a question's year is its
    // fact's own, so the run asks about discoveries.
    let run = fixture_of(
        RunConfig {
            relations: vec!["year of discovery".into(), "discovered by".into()],
            ..RunConfig::new("sample:elements", no_model(), Task::Statement, 16)
        },
        tmp.path(),
        usize::MAX,
    );
    let mut app = open_app(tmp.path(), &run);
    key(&mut app, KeyCode::Char('v'));
    key(&mut app, KeyCode::Char('v'));
    assert_eq!(app.heat.view, HeatView::Year);
    let g = app.heat_grid();
    assert!(!g.rows.is_empty(), "the fixture has dated facts");
    // 16 answers cannot fill one year each: they are binned, and the frame says by how much.
    assert!(g.year_width > 1, "{:?}", g.rows);
    let [small, _] = snap_both(&app, "analyst-heatmaps-years");
    assert!(
        small.contains(&format!("years binned by {}", g.year_width)),
        "{small}"
    );
    key(&mut app, KeyCode::Enter);
    let Some(Cell::Years(a, b)) = app.errors.cell.clone() else {
        panic!("not a year bin: {:?}", app.errors.cell)
    };
    assert_eq!(b - a + 1, g.year_width);
    let d = app.data.as_ref().unwrap();
    for &i in app.error_indices().iter() {
        let y = d.record(i).unwrap().question.year.unwrap();
        assert!((a..=b).contains(&y), "{y} outside {a}–{b}");
    }
}

#[test]
fn a_yes_no_run_cycles_through_its_own_metrics() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture_with(tmp.path(), no_model(), usize::MAX, Task::Yesno);
    let mut app = open_app(tmp.path(), &run);
    assert_eq!(app.heat.metric, Metric::Accuracy);
    let mut seen = vec![];
    for _ in 0..5 {
        let s = render(&app, 80, 24);
        assert!(s.contains(app.heat.metric.name()), "{s}");
        // Every metric of a yes/no run has values: none of GraphEval's empty ones.
        let g = app.heat_grid();
        assert!(
            g.stats
                .iter()
                .any(|r| r[0].as_ref().and_then(|s| app.heat.metric.of(s)).is_some()),
            "{} is empty",
            app.heat.metric.name()
        );
        seen.push(app.heat.metric);
        key(&mut app, KeyCode::Char('m'));
    }
    assert_eq!(app.heat.metric, Metric::Accuracy, "m comes back round");
    assert_eq!(
        seen,
        [
            Metric::Accuracy,
            Metric::InvalidRate,
            Metric::WinRate,
            Metric::ZeroSense,
            Metric::AbstainRate
        ]
    );
    key(&mut app, KeyCode::Char('m'));
    key(&mut app, KeyCode::Char('m'));
    let [small, _] = snap_both(&app, "analyst-heatmaps-yesno-win-rate");
    assert!(small.contains("win rate by relation"), "{small}");
    assert!(
        small.contains("gold yes") && small.contains("gold no"),
        "{small}"
    );
}

/// A model that says "True." to everything: right on every true statement, wrong on every
/// false one. The why panel shows the split and says so.
#[test]
fn a_yes_sayer_is_obvious_in_the_why_panel() {
    let tmp = tempfile::tempdir().unwrap();
    let mut app = App::new(Theme::default(), "sample:countries", None);
    app.live.active = true;
    let model =
        ModelSpec::parse("openai:fake", Some(&streaming_server()), "OPENAI_API_KEY").unwrap();
    run_through_runner(&mut app, model, tmp.path(), 20);
    app.catch_up();
    key(&mut app, KeyCode::Char('3'));
    let (_, w) = app.heat_why().unwrap();
    assert_eq!(w.by_gold[0].incorrect, 0);
    assert_eq!(w.by_gold[1].correct, 0);
    assert_eq!(w.answers[0], w.n(), "every answer is true");
    let [small, big] = snap_both(&app, "analyst-why-yes-sayer");
    for s in [&small, &big] {
        // Two answers per relation are too few to judge a relation; the run's 20 are not.
        assert!(
            s.contains("says \"true\" to 100% of the run's questions"),
            "{s}"
        );
        assert!(
            s.contains(" acc 0.00 n="),
            "a replaced part, always wrong: {s}"
        );
    }
}

#[test]
fn errors_fill_the_width_show_the_gold_answer_and_x_clears_the_description() {
    let (_tmp, mut app) = fixture_app();
    key(&mut app, KeyCode::Char('4'));
    let [small, big] = snap_both(&app, "analyst-errors");
    for s in [&small, &big] {
        let header = s.lines().find(|l| l.contains("outcome")).unwrap();
        for col in ["gold", "relation", "prompt", "answer"] {
            assert!(header.contains(col), "{header}");
        }
        // No label column while nobody has labelled (issue 38 §7): the gold has its room.
        assert!(!header.contains("label"), "{header}");
        assert!(s.contains(" true ") || s.contains(" false "), "{s}");
    }
    // On a wide terminal the prompt is not cut where a 100-column one would cut it.
    let longest = |s: &str| {
        s.lines()
            .filter(|l| l.contains("incorrect") || l.contains("abstained"))
            .map(|l| l.trim_end().chars().count())
            .max()
            .unwrap_or(0)
    };
    assert!(longest(&big) > 140, "{big}");
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Enter); // errors of the first relation
    assert!(
        app.status.starts_with("errors of relation"),
        "{}",
        app.status
    );
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(app.errors.cell, None);
    let cleared = render(&app, 80, 24);
    assert!(!cleared.contains("errors of relation"), "{cleared}");
    assert!(cleared.contains("filters cleared"), "{cleared}");
}

#[test]
fn search_ranks_exact_names_first_and_says_which_alias_matched() {
    let index = Arc::new(load_index("sample:countries").unwrap());
    let mut app = App::new(Theme::default(), "sample:countries", Some(index));
    search(&mut app, "fra");
    assert_eq!(app.selected_entry().unwrap().label, "France");
    let [small, big] = snap_both(&app, "analyst-search-alias");
    for s in [&small, &big] {
        assert!(s.contains("France  alias: FRA"), "{s}");
    }
    search(&mut app, "france");
    assert_eq!(app.selected_entry().unwrap().label, "France");
}

#[test]
fn the_new_run_dialog_fits_takes_digits_and_names_the_settings() {
    let index = Arc::new(load_index("sample:countries").unwrap());
    let mut app = App::new(Theme::default(), "sample:countries", Some(index));
    app.can_run = true;
    app.model = Some(no_model());
    // Five relations marked: the dialog grows to hold them.
    for _ in 0..5 {
        key(&mut app, KeyCode::Char(' '));
        key(&mut app, KeyCode::Char('j'));
    }
    assert_eq!(app.explore.marked.len(), 5);
    key(&mut app, KeyCode::Char('r'));
    keys(&mut app, "2000");
    assert_eq!(app.explore.dialog.as_ref().unwrap().limit, 2000);
    let [small, big] = snap_both(&app, "analyst-new-run-dialog");
    for s in [&small, &big] {
        assert!(s.contains("Enter starts"), "{s}");
        assert!(s.contains("2000"), "{s}");
        assert!(s.contains("no-model.gguf"), "{s}");
        assert!(s.contains("1 per fact"), "{s}");
        assert!(s.contains("seed") && s.contains("42 · repeats 1"), "{s}");
    }
    key(&mut app, KeyCode::Backspace);
    key(&mut app, KeyCode::Char('+'));
    assert_eq!(app.explore.dialog.as_ref().unwrap().limit, 210);
    key(&mut app, KeyCode::Enter);
    let Some(Command::StartRun(req)) = app.commands.pop() else {
        panic!("no run was requested")
    };
    assert_eq!((req.limit, req.relations.len()), (210, 5));
}

/// `t` goes through every method of the registry and `T` back; each shows what it asks, only
/// GraphEval its negatives, only Luo et al.'s formats a context (`c` cycles it), and the run
/// requested is the method and context shown.
#[test]
fn the_run_dialog_offers_every_method_and_a_context_where_it_applies() {
    let index = Arc::new(load_index("sample:countries").unwrap());
    let mut app = App::new(Theme::default(), "sample:countries", Some(index));
    app.can_run = true;
    app.model = Some(no_model());
    key(&mut app, KeyCode::Char(' '));
    key(&mut app, KeyCode::Char('r'));
    let mut seen = vec![];
    for _ in 0..Task::ALL.len() {
        let task = app.explore.dialog.as_ref().unwrap().task;
        let m = kgscope::method::of(task);
        let s = render(&app, 100, 30);
        assert!(
            s.contains(task.as_str()) && s.contains(m.describe()),
            "{task:?}:\n{s}"
        );
        assert_eq!(
            s.contains("negatives "),
            m.takes_negatives(),
            "{task:?}:\n{s}"
        );
        assert_eq!(s.contains("context "), m.takes_context(), "{task:?}:\n{s}");
        seen.push(task);
        key(&mut app, KeyCode::Char('t'));
    }
    assert_eq!(
        seen,
        Task::ALL.to_vec(),
        "t visits every method once, in order"
    );
    key(&mut app, KeyCode::Char('T'));
    assert_eq!(app.explore.dialog.as_ref().unwrap().task, Task::Kghalubench);
    key(&mut app, KeyCode::Char('T'));
    assert_eq!(app.explore.dialog.as_ref().unwrap().task, Task::KgFpq);
    // KG-FPQ: the limit counts facts; every edit, both formats, gated, three asks each.
    let s = render(&app, 100, 30);
    assert!(s.contains("6 edits × 2 formats · gated by the TPQ"), "{s}");
    assert!(s.contains("repeats 3"), "{s}");
    key(&mut app, KeyCode::Char('T'));
    assert_eq!(app.explore.dialog.as_ref().unwrap().task, Task::Kglens);
    // KGLens takes the limit as its question budget; with a relation chosen and no entity
    // marked, it evaluates the whole KG (within that relation).
    let s = render(&app, 100, 30);
    assert!(s.contains("1 iteration × 20 edges · hard"), "{s}");
    assert!(s.contains("the whole KG"), "{s}");
    key(&mut app, KeyCode::Char('T'));
    assert_eq!(app.explore.dialog.as_ref().unwrap().task, Task::Saq);
    // Context: none → relevant → irrelevant → antifactual → none.
    let ctx = |app: &App| app.explore.dialog.as_ref().unwrap().context;
    assert_eq!(ctx(&app), None);
    key(&mut app, KeyCode::Char('c'));
    key(&mut app, KeyCode::Char('c'));
    key(&mut app, KeyCode::Char('c'));
    assert_eq!(ctx(&app), Some(ContextKind::Antifactual));
    assert!(render(&app, 100, 30).contains("antifactual"));
    key(&mut app, KeyCode::Enter);
    let Some(Command::StartRun(req)) = app.commands.pop() else {
        panic!("no run was requested")
    };
    assert_eq!(
        (req.task, req.context),
        (Task::Saq, Some(ContextKind::Antifactual))
    );
    let cfg = kgscope::tui::runner::config_for(
        &kgscope::tui::runner::RunBase {
            kg: "sample:countries".into(),
            kg_sample: None,
            model: no_model(),
            runs_dir: PathBuf::new(),
        },
        &req,
    );
    assert_eq!(
        (cfg.task, cfg.context),
        (Task::Saq, Some(ContextKind::Antifactual))
    );
}

#[test]
fn cancelling_asks_first_and_says_how_to_continue() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    app.live.active = true;
    // Going: prepared (before it, Live shows no cards: they would be the last run's).
    app.live.prepared = true;
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Char('c'));
    assert!(app.commands.is_empty(), "c alone must not cancel");
    // The question names the run to resume: its id, masked like the header's.
    let [small, _] = SIZES.map(|(w, h)| {
        let s = render(&app, w, h).replace(&run.id, "[id]");
        snap(&format!("analyst-cancel-{w}x{h}"), &s);
        s
    });
    assert!(small.contains("Cancel the run?"), "{small}");
    assert!(small.contains("kgscope run --resume"), "{small}");
    assert!(small.contains("y cancels"), "{small}");
    key(&mut app, KeyCode::Char('n'));
    assert!(app.commands.is_empty());
    assert!(app.status.contains("not cancelled"), "{}", app.status);
    key(&mut app, KeyCode::Char('c'));
    key(&mut app, KeyCode::Char('y'));
    assert_eq!(app.commands.pop(), Some(Command::Cancel));
}

/// `q` during a run asks as `c` does (it drops the questions in flight too); `y` cancels
/// and quits, any other key lets the run go on. With no run going, `q` quits at once.
#[test]
fn quitting_during_a_run_asks_first() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    app.live.active = true;
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('q'));
    assert!(!app.quit, "q quit a running run without asking");
    let s = render(&app, 80, 24);
    assert!(s.contains("Quit? The run is cancelled first."), "{s}");
    assert!(s.contains("kgscope run --resume"), "{s}");
    // Any other key, `q` included, keeps the run going.
    key(&mut app, KeyCode::Char('q'));
    assert!(!app.quit && app.commands.is_empty());
    assert!(app.status.contains("not quitting"), "{}", app.status);
    key(&mut app, KeyCode::Char('q'));
    key(&mut app, KeyCode::Char('y'));
    assert_eq!(app.commands.pop(), Some(Command::Cancel));
    assert!(app.quit);
    // A finished run: q quits.
    let mut done = open_app(tmp.path(), &run);
    done.live.active = true;
    done.live.finished = Some(true);
    key(&mut done, KeyCode::Char('q'));
    assert!(done.quit);
}

#[test]
fn the_header_and_live_cards_fit_80_columns() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    key(&mut app, KeyCode::Char('2'));
    let [small, _] = snap_both(&app, "analyst-live");
    let header = small.lines().next().unwrap();
    // The KG and run id are cut with a mark, not clipped at the edge: at 80 columns the tabs
    // give up their right padding to leave them some room.
    assert!(header.contains(" 6 Compare 7 Judge  sa"), "{header}");
    assert!(header.trim_end().ends_with('…'), "{header}");
    for title in [
        "accuracy", "abstain", "invalid", "correct", "truthful", "inform",
    ] {
        assert!(small.contains(&format!(" {title} ")), "{title}: {small}");
    }
}

#[test]
fn the_first_screen_says_what_kgscope_is_and_what_to_press() {
    let index = Arc::new(load_index("sample:countries").unwrap());
    let facts = index.facts().len();
    let mut app = App::new(Theme::default(), "sample:countries", Some(index));
    app.model = Some(no_model());
    let [small, big] = snap_both(&app, "analyst-welcome");
    for s in [&small, &big] {
        assert!(
            s.contains("kgscope measures what a language model knows"),
            "{s}"
        );
        assert!(s.contains("sample:countries"), "{s}");
        assert!(s.contains(&format!("{facts} facts")), "{s}");
        assert!(s.contains("no-model.gguf"), "{s}");
        assert!(s.contains("Start here"), "{s}");
    }
    key(&mut app, KeyCode::Char('j'));
    assert!(!render(&app, 80, 24).contains("Start here"));
}

/// The demo's script with a clock of its own: it marks relations, starts a run, waits for it,
/// walks through Heatmaps, Errors and Inspect, starts over with other relations, and stops on
/// a key.
#[test]
fn the_demo_walks_through_the_screens_and_stops_on_a_key() {
    let tmp = tempfile::tempdir().unwrap();
    let run = fixture(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    app.can_run = true;
    app.model = Some(no_model());
    let t0 = Instant::now();
    let step = Duration::from_secs(2);
    let opts = DemoOptions {
        limit: Some(12),
        relations: 2,
        ..even(step)
    };
    app.start_demo(opts, t0);
    let at = |k: u32| t0 + step * k;
    app.demo_tick(at(0));
    assert_eq!(app.screen, Screen::Explore);
    assert_eq!(app.explore.marked.len(), 2);
    let first_marks = app.explore.marked.clone();
    app.demo_tick(at(0) + Duration::from_millis(500));
    assert!(app.explore.dialog.is_none(), "the demo waits between steps");
    app.demo_tick(at(1));
    assert_eq!(app.explore.dialog.as_ref().unwrap().limit, 12);
    app.demo_tick(at(2));
    assert_eq!(app.screen, Screen::Live);
    let Some(Command::StartRun(req)) = app.commands.pop() else {
        panic!("the demo did not start a run")
    };
    assert_eq!((req.limit, req.relations.len()), (12, 2));
    app.demo_tick(at(3));
    assert_eq!(app.screen, Screen::Live, "it waits for the run");
    app.live.finished = Some(false);
    app.demo_tick(at(4));
    app.demo_tick(at(5));
    assert_eq!(app.screen, Screen::Heatmaps);
    assert_eq!(app.heat.sort, HeatSort::Value);
    app.demo_tick(at(6));
    assert_eq!(app.heat.view, HeatView::HeadTail);
    // sample:countries has no dates: the year view is passed over, Errors comes at once.
    app.demo_tick(at(7));
    assert_eq!(app.screen, Screen::Errors);
    assert!(matches!(app.errors.cell, Some(Cell::Relation(_))));
    app.demo_tick(at(8));
    assert_eq!(app.screen, Screen::Inspect);
    assert!(app.inspect.current.is_some());
    app.demo_tick(at(9));
    assert_eq!(app.screen, Screen::Inspect, "n: the next error");
    app.demo_tick(at(10));
    assert!(
        app.demo.as_ref().unwrap().finding().is_some(),
        "the round's finding"
    );
    app.demo_tick(at(11));
    assert_eq!(app.screen, Screen::Explore, "round two");
    assert!(
        app.demo.as_ref().unwrap().finding().is_none(),
        "gone in round two"
    );
    assert_ne!(app.explore.marked, first_marks, "with other relations");
    let s = render(&app, 80, 24);
    assert!(s.contains("any key stops it"), "{s}");
    key(&mut app, KeyCode::Char('x'));
    assert!(app.demo.is_none());
    app.demo_tick(at(20));
    assert_eq!(app.screen, Screen::Explore, "stopped: nothing moves");
    assert!(render(&app, 80, 24).contains("demo stopped"));
}

/// A whole round on a KG without dates, watched tick by tick: the year view, all "–", is never
/// on screen; every heatmap shown has a value in some cell. On a KG with dates the same
/// round shows it.
#[test]
fn a_demo_round_never_shows_a_view_with_nothing_in_it() {
    let tmp = tempfile::tempdir().unwrap();
    let shown_views = |kg: &str, relations: &[&str]| {
        let cfg = RunConfig {
            relations: relations.iter().map(|r| r.to_string()).collect(),
            ..RunConfig::new(kg, no_model(), Task::Statement, 16)
        };
        let run = fixture_of(cfg, tmp.path(), usize::MAX);
        let mut app = open_app_on(kg, tmp.path(), &run);
        app.can_run = true;
        app.model = Some(no_model());
        let t0 = Instant::now();
        let step = Duration::from_secs(2);
        app.start_demo(even(step), t0);
        let mut views = vec![];
        for k in 0..12 {
            if k == 3 {
                // The run "ends": the fixture is its result.
                app.live.finished = Some(false);
            }
            app.demo_tick(t0 + step * k);
            if app.screen == Screen::Heatmaps {
                let grid = app.heat_grid();
                assert!(grid.has_value(app.heat.metric), "{kg}: an empty view shown");
                views.push(app.heat.view);
            }
        }
        views
    };
    let countries = shown_views("sample:countries", &[]);
    assert!(countries.contains(&HeatView::Relation), "{countries:?}");
    assert!(!countries.contains(&HeatView::Year), "{countries:?}");
    // The run's questions are about dated facts (an isotope's year of discovery).
    let elements = shown_views("sample:elements", &["year of discovery"]);
    assert!(elements.contains(&HeatView::Year), "{elements:?}");
}

/// The demo's own limit, on each sample KG: a statement run of the relations it marks, every
/// question answered, has a rankable cell for each of them in the relation view.
#[test]
fn the_demo_sizes_its_runs_so_each_marked_relation_ranks() {
    use kgscope::tui::app::demo_size::{round_size, MAX_ROUND_QUESTIONS};
    let tmp = tempfile::tempdir().unwrap();
    for kg in ["sample:countries", "sample:elements", "sample:nba"] {
        let index = load_index(kg).unwrap();
        let size = round_size(&index, Task::Statement, 4, 1);
        assert!(size.relations.len() >= 3, "{kg}: {size:?}");
        assert!(size.limit <= MAX_ROUND_QUESTIONS, "{kg}: {size:?}");
        let relations = relation_iris(&index, &size.relations);
        let cfg = RunConfig {
            relations,
            ..RunConfig::new(kg, no_model(), Task::Statement, size.limit)
        };
        let run = fixture_of(cfg, tmp.path(), usize::MAX);
        let (_, _, records) = session::open_results(tmp.path(), &run.id).unwrap();
        let snapshot = kgscope::report::snapshot_of(&records);
        let grid = kgscope::report::grid::HeatGrid::build(
            &snapshot,
            HeatView::Relation,
            Metric::Correctness,
            HeatSort::Value,
        );
        assert_eq!(
            grid.rankable_cells(Metric::Correctness),
            size.relations.len(),
            "{kg}: {size:?}"
        );
    }
}

/// With a second model the round goes on after Inspect: the same request to the second model
/// (Live), then Compare with the round's two runs marked, the first as the baseline; then
/// round two. Without one (the test above) the round ends on Inspect.
#[test]
fn the_demo_asks_a_second_model_the_same_questions_and_ends_on_compare() {
    let tmp = tempfile::tempdir().unwrap();
    let first = fixture(tmp.path());
    let mut app = open_app(tmp.path(), &first);
    app.can_run = true;
    app.model = Some(no_model());
    let second_model = ModelSpec::Llama {
        path: PathBuf::from("second-model.gguf"),
    };
    let t0 = Instant::now();
    let step = Duration::from_secs(2);
    app.start_demo(
        DemoOptions {
            limit: Some(12),
            relations: 2,
            step,
            second: Some(second_model.clone()),
            ..even(step)
        },
        t0,
    );
    let mut now = t0;
    let mut tick = |app: &mut App| {
        app.demo_tick(now);
        now += step;
    };
    tick(&mut app); // Mark
    tick(&mut app); // Dialog
    tick(&mut app); // Start
    let Some(Command::StartRun(req)) = app.commands.last().cloned() else {
        panic!("the demo did not start a run")
    };
    app.live.finished = Some(false);
    tick(&mut app); // Watch: the first run (the fixture) is over
    for _ in 0..5 {
        tick(&mut app); // Heatmap … NextError, the year view passed over (no dates)
    }
    assert_eq!(app.screen, Screen::Inspect);
    tick(&mut app); // Second
    assert_eq!(app.screen, Screen::Live);
    assert_eq!(
        app.commands.last(),
        Some(&Command::StartRunWith(req, second_model)),
        "the same questions, to the second model"
    );
    // The second run starts and ends, as the event loop would report it.
    let second = fixture(tmp.path());
    assert_ne!(second.id, first.id);
    let manifest = second.read_manifest().unwrap();
    app.run_prepared(
        kgscope::tui::app::RunData::open(second.clone(), manifest).unwrap(),
        &[],
    );
    app.live.finished = Some(false);
    tick(&mut app); // WatchSecond
    tick(&mut app); // Compare
    assert_eq!(app.screen, Screen::Compare);
    assert_eq!(app.compare.marked, [first.id.clone(), second.id.clone()]);
    app.wait_for_compare();
    let compared = app.compare.result.as_ref().expect("compared").as_ref();
    assert!(compared.is_ok(), "{compared:?}");
    let s = render(&app, 120, 40);
    assert!(s.contains("any key stops it"), "{s}");
    tick(&mut app); // Finding: over Compare
    assert_eq!(app.screen, Screen::Compare);
    assert!(app.demo.as_ref().unwrap().finding().is_some());
    tick(&mut app);
    assert_eq!(app.screen, Screen::Explore, "round two");
}

/// The real `kgscope demo` in tmux against a model server that says "True." to everything:
/// it moves through the screens by itself, starts a second round, and stops on a key.
#[test]
fn kgscope_demo_in_tmux_moves_through_the_screens_and_stops_on_a_key() {
    let base_url = streaming_server();
    let tmp = tempfile::tempdir().unwrap();
    let done = tmp.path().join("exit-code");
    let command = format!(
        "'{}' demo --model openai:fake --base-url {base_url} --compare-with none --limit 6 --relations 2 \
         --step-secs 1 --runs-dir '{}'; echo $? > '{}'; sleep 5",
        env!("CARGO_BIN_EXE_kgscope"),
        tmp.path().join("runs").display(),
        done.display()
    );
    let t = Tmux::start(&command);
    t.wait_for("New run", 30);
    t.wait_for("· finished", 60);
    t.wait_for("sorted by value, worst first", 20);
    t.wait_for("Why: relation", 10);
    t.wait_for("head \\ tail", 10);
    t.wait_for("verifier trace", 20);
    // Round two: the dialog again, for the next relations.
    t.wait_for("New run", 30);
    t.keys(&["x"]);
    let stopped = t.wait_for("demo stopped", 5);
    assert!(stopped.contains("matches"), "back in Explore: {stopped}");
    // Nothing moves after the key: the same screen three steps later.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(stopped, t.screen());
    t.keys(&["q"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !done.exists() {
        assert!(Instant::now() < deadline, "kgscope demo did not quit");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(std::fs::read_to_string(&done).unwrap().trim(), "0");
    // One run: the key came while round two's dialog was open, before its run started.
    let runs = std::fs::read_dir(tmp.path().join("runs")).unwrap().count();
    assert_eq!(runs, 1);
}

/// Issue 38: a cell's n is the n its value and interval are computed from. A statement run's
/// correctness is scored per fact (a true statement with its false ones): its cells show the
/// facts, not the statements (before: `0.00? [0.00,0.79] n=2`, the interval of one fact and
/// the n of two statements), and the frame says what n counts.
#[test]
fn a_cells_n_is_the_unit_its_interval_comes_from() {
    let (_tmp, mut app) = fixture_app();
    app.heat.metric = Metric::Correctness;
    let g = app.heat_grid();
    let (name, stats) = g
        .rows
        .iter()
        .zip(&g.stats)
        .find_map(|(r, s)| Some((r.clone(), s[0].clone()?)))
        .unwrap();
    let facts = stats.grapheval.as_ref().unwrap().triples;
    assert!(
        stats.n > facts,
        "the fixture asks negatives: more statements ({}) than facts ({facts})",
        stats.n
    );
    let screen = render(&app, 120, 30);
    let row = screen
        .lines()
        .find(|l| l.trim_start_matches('│').starts_with(name.as_str()))
        .unwrap_or_else(|| panic!("no row {name}:\n{screen}"));
    let n: u64 = row
        .split("n=")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap();
    assert_eq!(n, facts, "{row}");
    assert!(screen.contains("n = facts"), "{screen}");
    // Accuracy counts answers: the same row's n is then the statements.
    app.heat.metric = Metric::Accuracy;
    let screen = render(&app, 120, 30);
    let row = screen
        .lines()
        .find(|l| l.trim_start_matches('│').starts_with(name.as_str()))
        .unwrap();
    assert!(row.contains(&format!("n={} ", stats.n)), "{row}");
    assert!(screen.contains("n = answers"), "{screen}");
}

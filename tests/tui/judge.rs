//! The Judge screen (issue 22 §4, agreement on screen): each verifier of a run against the
//! hand labels, with a kappa computed by hand for the fixture below, and the queue of answers
//! to label next, labelled with Inspect's keys (figures moving with each label).

use super::*;
use kgscope::core::verdict::JudgeClass::{self, Correct as C, Idk as K, Incorrect as I};
use kgscope::run::record::JudgeCall;
use kgscope::verify::{claim_for, Stage};

/// What the rules read from the first answers of the fixture (the rest: correct), and the
/// hand labels of the first eight.
const RULES: [JudgeClass; 10] = [C, C, C, I, I, C, K, C, C, I];
const HAND: [LabelVerdict; 8] = [
    LabelVerdict::Right,
    LabelVerdict::Right,
    LabelVerdict::Right,
    LabelVerdict::Right,
    LabelVerdict::Wrong,
    LabelVerdict::Wrong,
    LabelVerdict::Abstained,
    LabelVerdict::Abstained,
];

/// A statement run on sample:countries whose responses make the rules read the classes of
/// [`RULES`] ("True." or "False." by the statement's truth, "I don't know."). An LLM judge
/// overrode the rules on the ninth answer (rules: correct, judge: incorrect, recorded
/// incorrect: an error) and the tenth (rules: incorrect, judge: correct, recorded correct:
/// no error). The first eight are hand-labelled as [`HAND`] says. Returns the run and the
/// ids of the ninth and tenth questions.
pub(super) fn judged_run(dir: &Path) -> (RunDir, String, String) {
    judged_run_by(dir, None)
}

/// [`judged_run`] with `judge` as the run's configured LLM judge.
pub(super) fn judged_run_by(dir: &Path, judge: Option<ModelSpec>) -> (RunDir, String, String) {
    let cfg = RunConfig {
        judge,
        ..RunConfig::new(
            "sample:countries",
            ModelSpec::Llama {
                path: PathBuf::from("no-model.gguf"),
            },
            Task::Statement,
            16,
        )
    };
    let prepared = session::prepare_new(cfg, "test-model", dir, &|_| {}).unwrap();
    assert!(prepared.questions.len() >= RULES.len());
    let mut out = prepared.run.results_appender().unwrap();
    for (i, q) in prepared.questions.iter().enumerate() {
        let truth = q.gold.truth();
        let said = |claim: bool| {
            if claim {
                (Verdict::True, "True.")
            } else {
                (Verdict::False, "False.")
            }
        };
        let (verdict, response) = match RULES.get(i).copied().unwrap_or(C) {
            C => said(truth),
            I => said(!truth),
            K => (Verdict::Idk, "I don't know."),
        };
        let mut a = attempt(verdict, response.to_string(), 3);
        let overruled = match i {
            8 => Some(OutcomeKind::Incorrect),
            9 => Some(OutcomeKind::Correct),
            _ => None,
        };
        if let Some(o) = overruled {
            a.stage = Stage::Judge;
            a.verdict = claim_for(o, truth);
            a.judge = Some(JudgeCall {
                model: "judge-model".into(),
                output: format!("{o:?}").to_uppercase(),
                outcome: Some(o),
                reason: "every answer is judged (--judge-all)".into(),
            });
        }
        out.push(&verify_record(q.clone(), vec![a])).unwrap();
    }
    out.sync().unwrap();
    let run = prepared.run;
    for (q, h) in prepared.questions.iter().zip(HAND) {
        label_as_tester(&run, &q.id, h, None);
    }
    let ninth = prepared.questions[8].id.clone();
    let tenth = prepared.questions[9].id.clone();
    (run, ninth, tenth)
}

/// The figures line of verifier `name` on a drawn Judge screen, without its borders.
fn figures_of(screen: &str, name: &str) -> String {
    screen
        .lines()
        .map(|l| l.trim_matches('│').to_string())
        .find(|l| l.starts_with(&format!("{name}  ")))
        .unwrap_or_else(|| panic!("no line for {name}:\n{screen}"))
}

/// The kappa column of a figures line (the fifth from the right: F1 ×3 and macro F1 follow).
fn kappa_of(screen: &str, name: &str) -> String {
    figures_of(screen, name)
        .split_whitespace()
        .rev()
        .nth(4)
        .unwrap()
        .to_string()
}

#[test]
fn judge_shows_each_verifier_against_the_hand_labels_and_labels_the_queue() {
    let tmp = tempfile::tempdir().unwrap();
    let (run, ninth, tenth) = judged_run(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    key(&mut app, KeyCode::Char('7'));
    assert_eq!(app.screen, Screen::Judge);
    app.wait_for_judge();
    let screen = render(&app, 100, 30);
    capture("judge", &screen);
    snap("judge", &screen);
    // The rules against the eight hand labels:
    //   hand:  C C C C I I K K
    //   rules: C C C I I C K C
    // Matrix (rows hand, columns rules): C 3 1 0 | I 1 1 0 | K 1 0 1, n = 8.
    // p_o = 5/8 = 0.625; p_e = (4·5 + 2·2 + 2·1)/64 = 26/64;
    // kappa = (40/64 − 26/64) / (38/64) = 14/38 = 7/19 = 0.368.
    // What was recorded is the rules' decision on those eight: the same.
    assert!(screen.contains("kappa"), "{screen}");
    assert_eq!(kappa_of(&screen, "rules"), "0.368", "{screen}");
    assert_eq!(kappa_of(&screen, "recorded"), "0.368", "{screen}");
    assert!(figures_of(&screen, "rules").contains("0.625"), "{screen}");
    // The judge decided two answers, neither labelled: no kappa.
    assert_eq!(kappa_of(&screen, "LLM judge"), "–", "{screen}");
    assert!(screen.contains("correct      3   1   0"), "{screen}");
    assert!(
        screen.contains("The rules, where unsure: none labelled; where sure: 5 of 8 right"),
        "{screen}"
    );
    // The queue: the two answers the judge and the rules disagree on, in run order.
    assert!(screen.contains("Label next: 2 of 2"), "{screen}");
    assert!(
        screen.contains("rules: correct · LLM judge: incorrect"),
        "{screen}"
    );
    assert!(
        screen.contains("rules: incorrect · LLM judge: correct"),
        "{screen}"
    );

    // Enter inspects the selected answer (an error of the run); back on Judge, nothing moved.
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, Screen::Inspect);
    assert_eq!(app.inspected().unwrap().question.id, ninth);
    key(&mut app, KeyCode::Char('7'));
    assert_eq!(app.judge.selected, 0);

    // `r`, as in Inspect, labels the ninth answer right, in labels.jsonl.
    key(&mut app, KeyCode::Char('r'));
    assert_eq!(
        book_of(&run).get(&ninth, "tester").unwrap().label,
        LabelVerdict::Right
    );
    let screen = render(&app, 100, 30);
    // rules: one more (C, C): C 4 1 0 | I 1 1 0 | K 1 0 1, n = 9; p_o = 6/9;
    // p_e = (5·6 + 2·2 + 2·1)/81 = 36/81; kappa = (54 − 36)/(81 − 36) = 18/45 = 0.400.
    assert_eq!(kappa_of(&screen, "rules"), "0.400", "{screen}");
    // recorded: the judge's "incorrect" stood: C 3 2 0 | I 1 1 0 | K 1 0 1; p_o = 5/9;
    // columns C 5, I 3, K 1: p_e = (5·5 + 2·3 + 2·1)/81 = 33/81;
    // kappa = (45 − 33)/(81 − 33) = 12/48 = 0.250.
    assert_eq!(kappa_of(&screen, "recorded"), "0.250", "{screen}");
    // The judge: one pair (C, I): p_o = 0, p_e = 0, kappa = 0.
    assert_eq!(kappa_of(&screen, "LLM judge"), "0.000", "{screen}");
    assert!(screen.contains("Label next: 1 of 1"), "{screen}");
    assert!(
        !screen.contains("rules: correct · LLM judge: incorrect"),
        "{screen}"
    );

    // The tenth was recorded correct: not in the default (errors) list, so Enter inspects it
    // with the list showing every answer, and `w` labels it there.
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.screen, Screen::Inspect);
    assert_eq!(app.inspected().unwrap().question.id, tenth);
    assert_eq!(
        app.errors.kind,
        Some(kgscope::tui::app::KindFilter::AllAnswers)
    );
    assert!(app.status.contains("all answers"), "{}", app.status);
    key(&mut app, KeyCode::Char('w'));
    assert_eq!(
        book_of(&run).get(&tenth, "tester").unwrap().label,
        LabelVerdict::Wrong
    );
    key(&mut app, KeyCode::Char('7'));
    let screen = render(&app, 100, 30);
    // rules: (I, I) more: C 4 1 0 | I 1 2 0 | K 1 0 1, n = 10; p_o = 7/10;
    // rows C 5, I 3, K 2; columns C 6, I 3, K 1: p_e = (30 + 9 + 2)/100 = 0.41;
    // kappa = 0.29/0.59 = 0.492.
    assert_eq!(kappa_of(&screen, "rules"), "0.492", "{screen}");
    // recorded: (I, C) more: p_o = 5/10, p_e = 0.41; kappa = 0.09/0.59 = 0.153.
    assert_eq!(kappa_of(&screen, "recorded"), "0.153", "{screen}");
    // The judge: (C, I) and (I, C): p_o = 0, p_e = 1/2, kappa = −1.
    assert_eq!(kappa_of(&screen, "LLM judge"), "-1.000", "{screen}");
    assert!(screen.contains("Nothing to label next"), "{screen}");

    // Inspect's undo takes back the latest label, though it is of no error.
    key(&mut app, KeyCode::Char('5'));
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(book_of(&run).get(&tenth, "tester"), None);
    assert!(app.status.starts_with("undone"), "{}", app.status);
    key(&mut app, KeyCode::Char('7'));
    let screen = render(&app, 100, 30);
    assert_eq!(kappa_of(&screen, "rules"), "0.400", "{screen}");

    // The smallest terminal still draws the figures and the queue.
    let small = render(&app, 80, 24);
    capture("judge-80x24", &small);
    key(&mut app, KeyCode::Char('?'));
    let help = render(&app, 80, 24);
    capture("help-80x24", &help);
    for row in keymap::ROWS {
        assert!(help.contains(row.what), "help cuts {:?}:\n{help}", row.what);
    }
    key(&mut app, KeyCode::Esc);
    assert!(
        small.contains("kappa") && small.contains("Label next"),
        "{small}"
    );
}

/// A run without hand labels says so, and its queue is what to label first.
#[test]
fn judge_on_a_run_without_labels_says_so() {
    let (_tmp, mut app) = fixture_app();
    key(&mut app, KeyCode::Char('7'));
    let screen = render(&app, 100, 30);
    assert!(screen.contains("no hand labels yet"), "{screen}");
    assert!(screen.contains("rules"), "{screen}");
    // The fixture's unreadable answers are in no class: nothing to compare, nothing queued
    // unless the rules were unsure.
    assert!(!screen.contains("terminal too small"));
}

/// A big run's answers are read on a thread of their own; the answers recorded while that
/// read goes on, and after it, are each taken once, in run order.
#[test]
fn judge_reads_big_runs_in_the_background_and_follows_new_answers() {
    let tmp = tempfile::tempdir().unwrap();
    let (live_run, records) = empty_run_and_answers(tmp.path());
    let mut app = App::new(Theme::default(), "sample:countries", None);
    app.run_prepared(live_run, &[]);
    let (first, rest) = records.split_at(records.len() / 2);
    let (during, after) = rest.split_at(rest.len() / 2);
    record(&app, first);
    app.catch_up();
    // Every run counts as big: the read goes to a thread.
    app.judge.inline_below_bytes = 0;
    key(&mut app, KeyCode::Char('7'));
    record(&app, during);
    app.catch_up();
    app.wait_for_judge();
    record(&app, after);
    app.catch_up();
    let d = app.data.as_ref().unwrap();
    let rows = d.judged.as_ref().expect("read");
    assert_eq!(rows.len(), records.len());
    assert!(rows.windows(2).all(|w| w[0].0 < w[1].0), "each answer once");
    let judged = app.judged().unwrap();
    assert_eq!(judged.report.answers, records.len());
    let screen = render(&app, 100, 30);
    assert!(screen.contains("no hand labels yet"), "{screen}");
    assert!(screen.contains("rules"), "{screen}");
}

/// Issue 38: a second annotator labelling from another process (another TUI, `kgscope
/// labels`) appends to the run's labels.jsonl; the open window reads it again on its next
/// tick, so Inspect shows the label under "others" and the Judge view counts the tie.
#[test]
fn labels_written_by_another_annotator_reach_an_open_window_on_the_next_tick() {
    let tmp = tempfile::tempdir().unwrap();
    let (run, _, _) = judged_run(tmp.path());
    let mut app = open_app(tmp.path(), &run);
    key(&mut app, KeyCode::Char('7'));
    app.wait_for_judge();
    let screen = render(&app, 100, 30);
    assert!(screen.contains("· 0 tied ·"), "{screen}");

    // Inspect on the first error: the tester labelled it, nobody else has.
    key(&mut app, KeyCode::Char('5'));
    let inspected = app.inspected().unwrap().question.id.clone();
    let mine = book_of(&run).get(&inspected, "tester").unwrap().label;
    let screen = render(&app, 100, 30);
    assert!(screen.contains("others none"), "{screen}");

    // Bob, elsewhere, says the opposite: written to the file by another handle on the run.
    let theirs = if mine == LabelVerdict::Wrong {
        LabelVerdict::Right
    } else {
        LabelVerdict::Wrong
    };
    let elsewhere = RunDir::open(tmp.path(), &run.id).unwrap();
    elsewhere
        .append_label(Label {
            question_id: inspected.clone(),
            label: theirs,
            error_type: None,
            note: None,
            cause: None,
            annotator: "bob".into(),
            time: "2026-01-01T00:00:01Z".into(),
        })
        .unwrap();
    app.tick();
    let screen = render(&app, 100, 30);
    assert!(
        screen.contains(&format!("others bob: {}", theirs.name())),
        "{screen}"
    );
    // One question with no majority now (tester against bob).
    key(&mut app, KeyCode::Char('7'));
    let screen = render(&app, 100, 30);
    assert!(screen.contains("· 1 tied ·"), "{screen}");
}

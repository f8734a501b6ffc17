//! Frame cost under a flood of outcomes: events are folded into the app in per-frame batches
//! and the screen drawn into an off-screen buffer, as the event loop does, and each frame's
//! cost is recorded. Timings are reported, never asserted (that is a benchmark's job).

use std::time::Instant;

use ratatui::backend::TestBackend;
use ratatui::Terminal;

use super::app::{App, Screen};
use crate::run::{ResultRecord, RunEvent};

#[derive(Debug, Clone)]
pub struct FrameStats {
    pub frames: usize,
    pub outcomes: usize,
    pub median_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
}

/// Feeds `per_frame` outcomes (each asked, streamed in two tokens and answered) per frame for
/// `frames` frames, drawing `screen` at `size` after each batch unless `draw` is false (the
/// baseline: folding alone). `app` must have run data open. Each batch is first appended to
/// the run's results.jsonl, untimed, as the engine's recorder does before it hands the events
/// over; the app's following thread parses it, and the timed frame folds it in (its tick)
/// and draws. At the event loop's 50 ms frame,
/// `per_frame = 100` is 2,000 outcomes/s. Each pass over `sample` gets fresh question ids, so
/// the outcomes are distinct, as in a real run, and a statement still meets its negatives;
/// `first` is how many outcomes earlier calls on the same run fed, so ids never repeat (a
/// repeated id would be skipped, as `report` skips it).
#[allow(clippy::too_many_arguments)]
pub fn frame_times(
    app: &mut App,
    sample: &[ResultRecord],
    first: usize,
    per_frame: usize,
    frames: usize,
    screen: Screen,
    size: (u16, u16),
    draw: bool,
) -> FrameStats {
    assert!(!sample.is_empty(), "frame_times needs sample records");
    let mut term = Terminal::new(TestBackend::new(size.0, size.1)).expect("a test backend");
    app.screen = screen;
    app.live.active = true;
    app.on_run_event(RunEvent::Started {
        total: per_frame * frames,
        already_done: 0,
    });
    let mut log = app
        .data
        .as_ref()
        .expect("frame_times needs run data")
        .run
        .results_appender()
        .expect("opening results.jsonl");
    let mut times = Vec::with_capacity(frames);
    let mut n = first;
    for _ in 0..frames {
        let batch: Vec<RunEvent> = (0..per_frame)
            .flat_map(|_| {
                let mut r = sample[n % sample.len()].clone();
                let pass = n / sample.len();
                if pass > 0 {
                    let q = &mut r.question;
                    q.id = format!("{}.{pass}", q.id);
                    q.positive_id = format!("{}.{pass}", q.positive_id);
                }
                n += 1;
                log.push(&r).expect("writing results.jsonl");
                let qid = r.question.id.clone();
                [
                    RunEvent::Asked {
                        qid: qid.clone(),
                        repeat: 0,
                    },
                    RunEvent::Token {
                        qid: qid.clone(),
                        text: "Tr".into(),
                    },
                    RunEvent::Token {
                        qid,
                        text: "ue.".into(),
                    },
                    RunEvent::Answered(Box::new(r)),
                ]
            })
            .collect();
        log.flush().expect("writing results.jsonl");
        // The reading and parsing happen on the following thread, off the frame: the frame
        // is timed from when the batch is parsed and waiting to be folded.
        if let Some(d) = &app.data {
            d.wait_parsed(std::time::Duration::from_secs(10));
        }
        let t = Instant::now();
        for ev in batch {
            app.on_run_event(ev);
        }
        app.tick();
        app.prepare_view();
        if draw {
            term.draw(|f| super::ui::draw(f, app)).expect("drawing");
        }
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    FrameStats {
        frames,
        outcomes: n - first,
        median_ms: at(0.5),
        p99_ms: at(0.99),
        max_ms: at(1.0),
    }
}

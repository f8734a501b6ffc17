//! `O`: the run picker. Another run of the runs directory opens without leaving the TUI: the
//! runs are listed as Compare lists them (the same manifest reader), newest first, with how
//! far each got; Enter opens one as `kgscope tui --run` does (its KG with it), Esc closes.

use super::compare::{list_runs, RunListing};
use super::*;
use crate::kg::bounded::Draw;

/// The picker's state while it is open.
pub struct RunPicker {
    pub runs: Vec<RunListing>,
    pub cursor: usize,
    /// Why the runs directory could not be listed.
    pub error: Option<String>,
    /// Answers on record of each run (lines of its results.jsonl), in the order of `runs`;
    /// `None` until counted. Counted in the background: a runs directory may hold gigabytes.
    pub answered: Vec<Option<u64>>,
    counting: super::super::jobs::Latest<Vec<Option<u64>>>,
}

/// A KG being indexed for the run just opened, and what it is.
pub(super) type KgLoad = Result<(String, Option<Draw>, crate::kg::KgIndex), String>;

/// The lines of a run's results.jsonl: its answers on record (a line each).
fn answered(runs_dir: &std::path::Path, id: &str) -> Option<u64> {
    use std::io::Read;
    let run = crate::store::RunDir::open(runs_dir, id).ok()?;
    let mut f = std::fs::File::open(run.results_path()).ok()?;
    let mut buf = vec![0u8; 1 << 16];
    let mut n = 0u64;
    loop {
        match f.read(&mut buf) {
            Ok(0) => return Some(n),
            Ok(k) => n += buf[..k].iter().filter(|&&b| b == b'\n').count() as u64,
            Err(_) => return None,
        }
    }
}

impl App {
    /// Opens the picker on the runs directory as it is now.
    pub(super) fn open_picker(&mut self) {
        let (runs, error) = match list_runs(&self.runs_dir) {
            Ok(runs) => (runs, None),
            Err(e) => (vec![], Some(e)),
        };
        let current = self.data.as_ref().map(|d| d.run.id.clone());
        let cursor = runs
            .iter()
            .position(|r| Some(&r.id) == current.as_ref())
            .unwrap_or(0);
        let mut counting = super::super::jobs::Latest::default();
        let (dir, ids): (_, Vec<String>) = (
            self.runs_dir.clone(),
            runs.iter().map(|r| r.id.clone()).collect(),
        );
        counting.request(move || ids.iter().map(|id| answered(&dir, id)).collect());
        self.picker = Some(RunPicker {
            answered: vec![None; runs.len()],
            runs,
            cursor,
            error,
            counting,
        });
    }

    /// Takes the answer counts once they are in.
    pub(super) fn poll_picker(&mut self) {
        if let Some(p) = &mut self.picker {
            if let Some(counts) = p.counting.take() {
                p.answered = counts;
            }
        }
    }

    /// Waits for the answer counts (tests).
    pub fn wait_for_picker(&mut self) {
        if let Some(p) = &mut self.picker {
            if let Some(counts) = p.counting.wait(std::time::Duration::from_secs(60)) {
                p.answered = counts;
            }
        }
    }

    pub(super) fn picker_key(&mut self, k: KeyEvent) {
        let Some(p) = &mut self.picker else { return };
        let n = p.runs.len();
        match keymap::in_mode(Mode::RunPicker, &k) {
            Some(Action::Down) => p.cursor = step(p.cursor, 1, n),
            Some(Action::Up) => p.cursor = step(p.cursor, -1, n),
            Some(Action::PageDown) => p.cursor = step(p.cursor, 10, n),
            Some(Action::PageUp) => p.cursor = step(p.cursor, -10, n),
            Some(Action::Dismiss) => self.picker = None,
            Some(Action::Accept) => {
                if let Some(id) = p.runs.get(p.cursor).map(|r| r.id.clone()) {
                    self.open_picked(&id);
                }
            }
            _ => {}
        }
    }

    /// Opens run `id` of the runs directory, in place of the open one.
    fn open_picked(&mut self, id: &str) {
        if self.live.active && self.live.finished.is_none() {
            self.status = "a run is going in this window (Live: c cancels it): open another \
                           when it ends"
                .into();
            return;
        }
        let opened = crate::store::RunDir::open(&self.runs_dir, id)
            .map_err(|e| e.to_string())
            .and_then(|run| {
                let manifest = run.read_manifest().map_err(|e| e.to_string())?;
                RunData::open(run, manifest).map_err(|e| e.to_string())
            });
        match opened {
            Ok(data) => {
                self.picker = None;
                self.switch_run(data);
            }
            Err(e) => self.status = format!("cannot open run {}: {}", crate::sanitize::line(id), e),
        }
    }

    /// Shows `data` in place of the open run, as `kgscope tui --run` opens it: its KG (indexed
    /// in the background when it is not the one loaded, with the sample the run drew), its
    /// heatmaps first, and labelling resumed where this annotator stopped.
    pub fn switch_run(&mut self, data: RunData) {
        let cfg = &data.manifest.config;
        // A SPARQL URL's credentials are never shown; `kg::open` gets them back.
        let kg = crate::credentials::redact(&cfg.kg);
        let draw = cfg.draw();
        let same_kg = crate::sanitize::line(&kg) == self.kg_name && draw == self.draw;
        let id = data.run.id.clone();
        // Nothing of the last run's lists, Live or filters applies to this one.
        self.live = Live::default();
        self.errors = Errors::default();
        self.inspect = Inspect::default();
        self.heat.row = 0;
        self.heat.col = 0;
        self.open_run(data);
        self.screen = Screen::Heatmaps;
        if same_kg {
            self.status = format!("opened run {}", crate::sanitize::line(&id));
            return;
        }
        // Until it is indexed, no facts of the last KG are shown as this run's.
        self.kg_sample = cfg_sample(self.data.as_ref());
        self.index = None;
        self.entries = Arc::new(vec![]);
        self.kg_name = crate::sanitize::line(&kg);
        self.draw = draw.clone();
        self.refresh_matches();
        self.status = format!(
            "opened run {} · loading its KG {}…",
            crate::sanitize::line(&id),
            self.kg_name
        );
        self.kg_load.request(move || {
            super::super::kg_load::load_drawn(&kg, draw.as_ref())
                .map(|index| (kg, draw, index))
                .map_err(|e| format!("{e:#}"))
        });
    }

    /// Takes the KG of the run just opened once it is indexed.
    pub(super) fn poll_kg_load(&mut self) {
        if let Some(r) = self.kg_load.take() {
            self.kg_loaded(r);
        }
    }

    /// Waits for the KG of the run just opened (tests).
    pub fn wait_for_kg(&mut self) {
        if let Some(r) = self.kg_load.wait(std::time::Duration::from_secs(60)) {
            self.kg_loaded(r);
        }
    }

    fn kg_loaded(&mut self, r: KgLoad) {
        match r {
            // Only the KG of the run still open (another may have been opened since).
            Ok((kg, draw, index)) if crate::sanitize::line(&kg) == self.kg_name => {
                self.entries = Arc::new(kgview::entries(&index));
                self.index = Some(Arc::new(index));
                self.draw = draw;
                self.explore = Explore {
                    hops: 1,
                    last: self.explore.last.take(),
                    ..Explore::default()
                };
                self.refresh_matches();
                self.status = format!("loaded {}", self.kg_name);
            }
            Ok(_) => {}
            Err(e) => {
                self.status = format!(
                    "the run's KG could not be loaded ({}): Inspect shows no facts",
                    crate::sanitize::line(&e)
                )
            }
        }
    }
}

/// The per-relation sample the open run drew (`--kg-sample`), for runs started after it.
fn cfg_sample(d: Option<&RunData>) -> Option<usize> {
    d.and_then(|d| d.manifest.config.kg_sample)
}

//! The Compare screen's state: the runs in the runs directory, the ones marked for comparison
//! (the first marked is the baseline), and their comparison on their common questions.

use std::collections::HashMap;
use std::path::Path;

use super::*;
use crate::compare::{self, Comparison, Grouping};
use crate::report::loaded::LoadedRun;

/// One run of the runs directory as the list shows it.
#[derive(Debug, Clone)]
pub struct RunListing {
    pub id: String,
    pub method: String,
    pub model: String,
    pub temperature: f32,
    /// The questions it asks: planned, less those a gate left out once it finished.
    pub questions: usize,
    pub kg: String,
    /// Whether the run finished (its manifest says when), or stopped short.
    pub finished: bool,
}

/// The groupings `g` cycles through.
pub const GROUPINGS: [&str; 3] = ["relation", "head-type", "tail-type"];

pub struct CompareView {
    pub runs: Vec<RunListing>,
    pub cursor: usize,
    /// Marked run ids, in the order marked.
    pub marked: Vec<String>,
    pub grouping: usize,
    pub result: Option<Result<Comparison, String>>,
    /// First row of the comparison table shown.
    pub scroll: usize,
    loaded: HashMap<String, Arc<LoadedRun>>,
    /// Marked runs being read in the background (big runs take seconds to read).
    loading: crate::tui::jobs::Latest<Vec<(String, Result<LoadedRun, String>)>>,
    /// A comparison of big runs being made in the background (it reads their results again).
    computing: crate::tui::jobs::Latest<Result<Comparison, String>>,
    /// Why the runs directory could not be listed.
    pub list_error: Option<String>,
    /// Runs whose results files are smaller than this, together, are read at once.
    pub inline_below_bytes: u64,
}

impl Default for CompareView {
    fn default() -> Self {
        Self {
            runs: vec![],
            cursor: 0,
            marked: vec![],
            grouping: 0,
            result: None,
            scroll: 0,
            loaded: HashMap::new(),
            loading: Default::default(),
            computing: Default::default(),
            list_error: None,
            inline_below_bytes: 4 << 20,
        }
    }
}

/// The bytes of `results.jsonl` of the marked runs not loaded yet.
fn missing_sizes(
    runs_dir: &Path,
    marked: &[String],
    loaded: &HashMap<String, Arc<LoadedRun>>,
) -> u64 {
    results_sizes(
        runs_dir,
        marked.iter().filter(|id| !loaded.contains_key(*id)),
    )
}

/// The bytes of `results.jsonl` of `runs`.
fn results_sizes<'a>(runs_dir: &Path, runs: impl Iterator<Item = &'a String>) -> u64 {
    runs.filter_map(|id| crate::store::RunDir::open(runs_dir, id).ok())
        .filter_map(|r| std::fs::metadata(r.results_path()).ok())
        .map(|m| m.len())
        .sum()
}

/// Every run in `runs_dir` with a readable manifest, newest first.
pub fn list_runs(runs_dir: &Path) -> Result<Vec<RunListing>, String> {
    let entries = std::fs::read_dir(runs_dir)
        .map_err(|e| format!("cannot list runs in {}: {e}", runs_dir.display()))?;
    let mut out: Vec<RunListing> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let id = e.file_name().to_string_lossy().into_owned();
            let run = crate::store::RunDir::open(runs_dir, &id).ok()?;
            let m: crate::run::Manifest = run.read_manifest().ok()?;
            Some(RunListing {
                id,
                method: m.config.task.as_str().into(),
                model: m.model_shown(),
                temperature: m.config.params.temperature,
                questions: m.to_ask(),
                kg: m.kg_shown(),
                finished: m.finished_at.is_some(),
            })
        })
        .collect();
    out.sort_by(|a, b| b.id.cmp(&a.id));
    Ok(out)
}

impl App {
    /// Reads the runs directory again (on entering the screen, and on `r`).
    pub fn refresh_compare(&mut self) {
        match list_runs(&self.runs_dir) {
            Ok(runs) => {
                self.compare.runs = runs;
                self.compare.list_error = None;
            }
            Err(e) => self.compare.list_error = Some(e),
        }
        let n = self.compare.runs.len();
        self.compare.cursor = self.compare.cursor.min(n.saturating_sub(1));
    }

    fn recompute(&mut self) {
        let c = &mut self.compare;
        c.scroll = 0;
        if c.marked.len() < 2 {
            c.result = None;
            return;
        }
        let missing: Vec<String> = c
            .marked
            .iter()
            .filter(|id| !c.loaded.contains_key(*id))
            .cloned()
            .collect();
        if !missing.is_empty() {
            let dir = self.runs_dir.clone();
            let read = move || -> Vec<(String, Result<LoadedRun, String>)> {
                missing
                    .into_iter()
                    .map(|id| {
                        let r = LoadedRun::load(&dir, &id, true)
                            .map_err(|e| format!("run {id}: {e:#}"));
                        (id, r)
                    })
                    .collect()
            };
            // Small runs are read at once (less than a frame); big ones in the background,
            // the screen saying so until they are in.
            let bytes: u64 = missing_sizes(&self.runs_dir, &c.marked, &c.loaded);
            if bytes < c.inline_below_bytes {
                c.loading = Default::default();
                let loaded = read();
                self.take_loaded(loaded);
            } else {
                c.result = None;
                c.loading.request(read);
            }
            return;
        }
        let runs: Vec<Arc<LoadedRun>> = c.marked.iter().map(|id| c.loaded[id].clone()).collect();
        let by = Grouping::parse(GROUPINGS[c.grouping]);
        let compare = move || compare::compare(&runs, &by).map_err(|e| format!("{e:#}"));
        // A comparison reads the runs' results again: big runs are compared in the background.
        if results_sizes(&self.runs_dir, c.marked.iter()) < c.inline_below_bytes {
            c.computing = Default::default();
            c.result = Some(compare());
        } else {
            c.result = None;
            c.computing.request(compare);
        }
    }

    /// Keeps the runs a read brought in and compares them, or says which could not be read.
    fn take_loaded(&mut self, loaded: Vec<(String, Result<LoadedRun, String>)>) {
        for (id, r) in loaded {
            match r {
                Ok(run) => {
                    self.compare.loaded.insert(id, Arc::new(run));
                }
                Err(e) => {
                    self.compare.result = Some(Err(e));
                    return;
                }
            }
        }
        self.recompute();
    }

    /// Takes the runs a background read finished, and compares them.
    pub fn poll_compare(&mut self) {
        if let Some(loaded) = self.compare.loading.take() {
            self.take_loaded(loaded);
        }
        if let Some(result) = self.compare.computing.take() {
            self.compare.result = Some(result);
        }
    }

    /// Whether marked runs are still being read.
    pub fn compare_loading(&self) -> bool {
        self.compare.loading.pending() || self.compare.computing.pending()
    }

    /// Waits for the runs being read (tests).
    pub fn wait_for_compare(&mut self) {
        if let Some(loaded) = self
            .compare
            .loading
            .wait(std::time::Duration::from_secs(60))
        {
            self.take_loaded(loaded);
        }
        if let Some(result) = self
            .compare
            .computing
            .wait(std::time::Duration::from_secs(60))
        {
            self.compare.result = Some(result);
        }
    }

    /// The marked runs as loaded, in marking order (for the figure).
    pub fn compared_runs(&self) -> Vec<&LoadedRun> {
        self.compare
            .marked
            .iter()
            .filter_map(|id| self.compare.loaded.get(id).map(|r| r.as_ref()))
            .collect()
    }

    /// Marks these runs (the first the baseline) and compares them, the cursor on the first.
    pub(super) fn compare_runs(&mut self, ids: Vec<String>) {
        if let Some(i) = self
            .compare
            .runs
            .iter()
            .position(|r| Some(&r.id) == ids.first())
        {
            self.compare.cursor = i;
        }
        self.compare.marked = ids;
        self.recompute();
    }

    pub(super) fn compare_key(&mut self, k: KeyEvent) {
        let Some(action) = keymap::bound(Scope::On(Screen::Compare), k.code) else {
            return;
        };
        let n = self.compare.runs.len();
        match action {
            Action::Down => self.compare.cursor = step(self.compare.cursor, 1, n),
            Action::Up => self.compare.cursor = step(self.compare.cursor, -1, n),
            Action::Mark => {
                let Some(r) = self.compare.runs.get(self.compare.cursor) else {
                    return;
                };
                let id = r.id.clone();
                if let Some(i) = self.compare.marked.iter().position(|m| *m == id) {
                    self.compare.marked.remove(i);
                } else {
                    self.compare.marked.push(id);
                }
                self.recompute();
            }
            Action::NextGrouping => {
                self.compare.grouping = (self.compare.grouping + 1) % GROUPINGS.len();
                self.recompute();
            }
            Action::Reload => {
                // Runs may have grown since they were read: read the marked ones again too.
                self.compare.loaded.clear();
                self.refresh_compare();
                self.recompute();
            }
            Action::PageDown => self.compare.scroll += 10,
            Action::PageUp => self.compare.scroll = self.compare.scroll.saturating_sub(10),
            _ => {}
        }
    }
}

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
    pub questions: usize,
    pub kg: String,
}

/// The groupings `g` cycles through.
pub const GROUPINGS: [&str; 3] = ["relation", "head-type", "tail-type"];

#[derive(Default)]
pub struct CompareView {
    pub runs: Vec<RunListing>,
    pub cursor: usize,
    /// Marked run ids, in the order marked.
    pub marked: Vec<String>,
    pub grouping: usize,
    pub result: Option<Result<Comparison, String>>,
    /// First row of the comparison table shown.
    pub scroll: usize,
    loaded: HashMap<String, LoadedRun>,
    /// Why the runs directory could not be listed.
    pub list_error: Option<String>,
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
                questions: m.questions,
                kg: m.kg_shown(),
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
        for id in &c.marked {
            if !c.loaded.contains_key(id) {
                match LoadedRun::load(&self.runs_dir, id, true) {
                    Ok(r) => {
                        c.loaded.insert(id.clone(), r);
                    }
                    Err(e) => {
                        c.result = Some(Err(format!("run {id}: {e:#}")));
                        return;
                    }
                }
            }
        }
        let runs: Vec<&LoadedRun> = c.marked.iter().map(|id| &c.loaded[id]).collect();
        let by = Grouping::parse(GROUPINGS[c.grouping]);
        c.result = Some(compare::compare(&runs, &by).map_err(|e| format!("{e:#}")));
    }

    /// The marked runs as loaded, in marking order (for the figure).
    pub fn compared_runs(&self) -> Vec<&LoadedRun> {
        self.compare
            .marked
            .iter()
            .filter_map(|id| self.compare.loaded.get(id))
            .collect()
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

//! `P`: the figure of the current screen, saved as SVG: the Heatmaps view as drawn (view,
//! metric, order), Live's metric bars by relation, Compare's runs side by side.

use super::*;
use crate::figures::{self, Kind, Request, View};
use crate::report::loaded::LoadedRun;

impl App {
    /// Saves the current screen's figure and says where (or why not) in the status line.
    pub fn save_figure(&mut self) {
        match self.figure_job() {
            // A run's figure reads the run back from disk and draws it: in the background.
            Ok(Some(job)) => {
                self.status = "saving the figure…".into();
                self.figure
                    .request(move || job().map_err(|e| format!("{e:#}")));
            }
            Ok(None) => {}
            Err(e) => self.status = format!("no figure saved: {e:#}"),
        }
    }

    /// Says how the figure being saved in the background ended, once it has.
    pub fn poll_figure(&mut self) {
        if let Some(r) = self.figure.take() {
            self.status = saved(r);
        }
    }

    /// Waits for the figure being saved (tests).
    pub fn wait_for_figure(&mut self) {
        if let Some(r) = self.figure.wait(std::time::Duration::from_secs(60)) {
            self.status = saved(r);
        }
    }

    /// The work of saving the current screen's figure: `Some` to run in the background (a
    /// run's figure: read it back, draw, write), `None` when it was done at once (a
    /// comparison: its runs are in memory already).
    #[allow(clippy::type_complexity)]
    fn figure_job(
        &mut self,
    ) -> anyhow::Result<Option<Box<dyn FnOnce() -> anyhow::Result<std::path::PathBuf> + Send>>>
    {
        match self.screen {
            Screen::Heatmaps | Screen::Live => {
                let Some(d) = &self.data else {
                    anyhow::bail!("no run open");
                };
                let req = if self.screen == Screen::Heatmaps {
                    Request {
                        kind: Kind::Heatmap,
                        view: View::Heat(self.heat.view),
                        metric: Some(self.heat.metric),
                        sort: self.heat.sort,
                        ..Request::default()
                    }
                } else {
                    Request {
                        kind: Kind::Bars,
                        metric: Some(self.heat.metric),
                        ..Request::default()
                    }
                };
                let name = format!(
                    "{}-{}-{}.svg",
                    req.kind.name(),
                    slug(&req.view.name()),
                    slug(self.heat.metric.name())
                );
                let (runs_dir, run_path) = (self.runs_dir.clone(), d.run.path.clone());
                Ok(Some(Box::new(move || {
                    // Read back from disk: the figure shows what the run has recorded, labels
                    // applied, exactly as `kgscope plot` would.
                    let run = LoadedRun::load(&runs_dir, &run_path.to_string_lossy(), true)?;
                    let fig = figures::build(&[run], &req)?;
                    let path = run_path.join("figures").join(name);
                    figures::save(&fig, &path)?;
                    Ok(path)
                })))
            }
            Screen::Compare => {
                let runs = self.compared_runs();
                if runs.len() < 2 {
                    anyhow::bail!("mark two runs or more with Space");
                }
                let Some(Ok(c)) = &self.compare.result else {
                    anyhow::bail!("nothing compared");
                };
                let by = crate::compare::Grouping::parse(compare::GROUPINGS[self.compare.grouping]);
                let fig = figures::comparison(&runs, c, &by)?;
                let ids: Vec<&str> = runs.iter().map(|r| r.run.id.as_str()).collect();
                let name = format!("compare-{}.svg", slug(&ids.join("-vs-")));
                let path = self.runs_dir.join("figures").join(name);
                figures::save(&fig, &path)?;
                self.status = saved(Ok(path));
                Ok(None)
            }
            _ => anyhow::bail!("this screen has no figure (Heatmaps, Live and Compare do)"),
        }
    }
}

fn saved(r: Result<std::path::PathBuf, String>) -> String {
    match r {
        Ok(path) => format!("figure saved: {}", path.display()),
        Err(e) => format!("no figure saved: {e}"),
    }
}

/// A file-name-safe form of a name: letters, digits and dashes.
pub(super) fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_matches('-').chars().take(120).collect()
}

//! `P`: the figure of the current screen, saved as SVG: the Heatmaps view as drawn (view,
//! metric, order), Live's metric bars by relation, Compare's runs side by side.

use super::*;
use crate::figures::{self, Kind, Request, View};
use crate::report::loaded::LoadedRun;

impl App {
    /// Saves the current screen's figure and says where (or why not) in the status line.
    pub fn save_figure(&mut self) {
        self.status = match self.try_save_figure() {
            Ok(path) => format!("figure saved: {}", path.display()),
            Err(e) => format!("no figure saved: {e:#}"),
        };
    }

    fn try_save_figure(&self) -> anyhow::Result<std::path::PathBuf> {
        let (fig, dir, name) = match self.screen {
            Screen::Heatmaps | Screen::Live => {
                let Some(d) = &self.data else {
                    anyhow::bail!("no run open");
                };
                // Read back from disk: the figure shows what the run has recorded, labels
                // applied, exactly as `kgscope plot` would.
                let run = LoadedRun::load(&self.runs_dir, &d.run.path.to_string_lossy(), true)?;
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
                let fig = figures::build(&[run], &req)?;
                (fig, d.run.path.join("figures"), name)
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
                (fig, self.runs_dir.join("figures"), name)
            }
            _ => anyhow::bail!("this screen has no figure (Heatmaps, Live and Compare do)"),
        };
        let path = dir.join(name);
        figures::save(&fig, &path)?;
        Ok(path)
    }
}

/// A file-name-safe form of a name: letters, digits and dashes.
fn slug(s: &str) -> String {
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

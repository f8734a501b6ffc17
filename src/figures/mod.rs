//! Figures of recorded runs, drawn with plotters as SVG or PNG: the TUI's heatmaps, metric
//! bars with 95% intervals, KGLens' per-predicate dot view and the reliability diagram, for
//! one run or several side by side.
//!
//! A figure is built in two steps: [`build`] turns runs into a [`Figure`] (plain data: what
//! each panel shows, already grouped and sorted, with its title), then [`svg`] or [`save`]
//! draws it. Text is laid out with the bundled DejaVu Sans, never a system font, so the same
//! figure comes out on every machine.

mod bars;
mod calibration;
mod canvas;
mod dots;
mod heatmap;
mod raster;

pub use bars::Bars;
pub use calibration::Reliability;
pub use dots::Dots;
pub use heatmap::Heatmap;

use std::path::Path;

use anyhow::{bail, Context};
use image::ImageEncoder;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::metrics::{GroupStats, Metric, Rate, Snapshot};
use crate::report::grid::{listed, sort_rows, HeatGrid, HeatSort, HeatView};
use crate::report::loaded::LoadedRun;

pub use canvas::register_fonts;

/// What to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A heatmap of the metric, as the TUI's Heatmaps screen shows it.
    Heatmap,
    /// The metric per group as bars with 95% intervals; several runs side by side per group.
    Bars,
    /// KGLens' per-predicate dot view: zero-sense rate with its interval, the dot's size the
    /// predicate's share of examined edges.
    Dots,
    /// Reliability diagram: accuracy against confidence (token probabilities of answers chosen
    /// by likelihood, else self-consistency over repeats).
    Calibration,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Heatmap => "heatmap",
            Kind::Bars => "bars",
            Kind::Dots => "dots",
            Kind::Calibration => "calibration",
        }
    }
}

/// The grouping a heatmap or bar chart shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum View {
    /// A view of the TUI's Heatmaps screen.
    Heat(HeatView),
    HeadType,
    TailType,
    /// One facet of a method (KG-FPQ's edit, hop or format).
    Facet(String),
}

impl View {
    /// `relation`, `types` (head × tail), `year`, `head-type`, `tail-type`, a facet pair
    /// (`edit-hop`, `edit-relation`, `edit-format`) or one facet's name (`edit`, `hop`, …).
    pub fn parse(s: &str) -> View {
        match s {
            "relation" => View::Heat(HeatView::Relation),
            "types" | "head-tail" => View::Heat(HeatView::HeadTail),
            "year" => View::Heat(HeatView::Year),
            "head-type" => View::HeadType,
            "tail-type" => View::TailType,
            other => {
                let pair = other.replacen('-', " × ", 1);
                match crate::report::grid::FACET_MAPS
                    .iter()
                    .position(|p| *p == pair)
                {
                    Some(i) => View::Heat(HeatView::Facets(i)),
                    None => View::Facet(other.to_string()),
                }
            }
        }
    }

    pub fn name(&self) -> String {
        match self {
            View::Heat(v) => v.name().to_string(),
            View::HeadType => "by head type".into(),
            View::TailType => "by tail type".into(),
            View::Facet(f) => format!("by {f}"),
        }
    }
}

/// What to draw of which runs.
#[derive(Debug, Clone)]
pub struct Request {
    pub kind: Kind,
    pub view: View,
    /// The metric of heatmaps and bars; `None` for the method's figure metric
    /// (`Method::figure_metric`).
    pub metric: Option<Metric>,
    pub sort: HeatSort,
    /// At most this many rows (groups); the subtitle says how many were left out.
    pub max_rows: usize,
}

impl Default for Request {
    fn default() -> Self {
        Request {
            kind: Kind::Heatmap,
            view: View::Heat(HeatView::Relation),
            metric: None,
            sort: HeatSort::Name,
            max_rows: 60,
        }
    }
}

/// One run's part of a figure drawn as panels side by side.
#[derive(Debug, Clone)]
pub struct Panel<T> {
    pub title: String,
    pub data: T,
}

/// One series of a bar chart or reliability diagram: a run.
#[derive(Debug, Clone)]
pub struct Series<T> {
    pub name: String,
    pub data: T,
}

/// One bar: the group's metric (with its interval) and its size.
pub type BarValue = (Option<Rate>, u64);

/// A figure as data: its title, and what it shows, grouped, sorted and ready to draw.
#[derive(Debug, Clone)]
pub struct Figure {
    pub title: String,
    /// What the figure is of: model, KG, method and n, or the runs.
    pub subtitle: String,
    pub body: Body,
}

#[derive(Debug, Clone)]
pub enum Body {
    Heatmap(Heatmap),
    Bars(Bars),
    Dots(Dots),
    Calibration(Reliability),
}

use crate::compare::names;

/// The subtitle naming the runs: one run in full, several by method, KG and count.
fn subtitle(runs: &[LoadedRun], extra: &str) -> String {
    let base = match runs {
        [one] => one.describe(),
        _ => {
            let mut kgs: Vec<String> = runs.iter().map(LoadedRun::kg).collect();
            kgs.dedup();
            let mut methods: Vec<&str> = runs.iter().map(LoadedRun::method).collect();
            methods.dedup();
            format!(
                "{} runs · KG {} · {}",
                runs.len(),
                kgs.join(", "),
                methods.join(", ")
            )
        }
    };
    if extra.is_empty() {
        base
    } else {
        format!("{base} · {extra}")
    }
}

fn metric_of(runs: &[LoadedRun], req: &Request) -> Metric {
    req.metric
        .unwrap_or_else(|| crate::method::of(runs[0].manifest.config.task).figure_metric())
}

/// The groups of a one-dimensional view, in the grid's order for the TUI's views.
fn groups_of(
    s: &Snapshot,
    view: &View,
    metric: Metric,
) -> anyhow::Result<Vec<(String, GroupStats)>> {
    Ok(match view {
        View::Heat(v @ (HeatView::Relation | HeatView::Year)) => {
            HeatGrid::build(s, *v, metric, HeatSort::Name).into_list()
        }
        View::Heat(v) => bail!(
            "bars show one grouping at a time, and \"{}\" is a grid: use --kind heatmap, or \
             one of relation, year, head-type, tail-type or a facet",
            v.name()
        ),
        View::HeadType => listed(&s.by_head_type),
        View::TailType => listed(&s.by_tail_type),
        View::Facet(f) => match s.by_facet.get(f) {
            Some(m) => listed(m),
            None => bail!("{}", unknown_view(s, f)),
        },
    })
}

fn unknown_view(s: &Snapshot, f: &str) -> String {
    let facets: Vec<&str> = s.by_facet.keys().map(String::as_str).collect();
    format!(
        "unknown view \"{f}\": the views are relation, types, year, head-type, tail-type{}",
        if facets.is_empty() {
            String::new()
        } else {
            format!(
                ", and this run's facets {} and their pairs (edit-hop, edit-relation, edit-format)",
                facets.join(", ")
            )
        }
    )
}

/// The figure of a comparison: accuracy per group of `by`, one bar per run, on the runs'
/// common questions only (as the comparison's tables are).
pub fn comparison<R: std::borrow::Borrow<LoadedRun>>(
    runs: &[R],
    c: &crate::compare::Comparison,
    by: &crate::compare::Grouping,
) -> anyhow::Result<Figure> {
    use crate::compare::Grouping;
    let keep: std::collections::HashSet<&str> = c.common_ids.iter().map(String::as_str).collect();
    let common: Vec<LoadedRun> = runs
        .iter()
        .map(|r| r.borrow().restricted(|id| keep.contains(id)))
        .collect::<anyhow::Result<_>>()?;
    let view = match by {
        Grouping::Relation => View::Heat(HeatView::Relation),
        Grouping::HeadType => View::HeadType,
        Grouping::TailType => View::TailType,
        Grouping::Facet(f) => View::Facet(f.clone()),
    };
    build(
        &common,
        &Request {
            kind: Kind::Bars,
            view,
            metric: Some(Metric::Accuracy),
            ..Request::default()
        },
    )
}

/// A figure that would have no value in any cell: refused, since a figure of "–" cells must
/// not pass for a result. A report that draws every view it has passes over it.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct NothingToDraw(String);

fn nothing_to_draw(metric: Metric, view: &str) -> NothingToDraw {
    NothingToDraw(format!(
        "nothing to draw: no group ({view}) of these runs has a {} value. Either the metric is \
         not one their method measures (`kgscope report RUN` lists those it does), or their \
         questions have no such groups (a KG without dates has no year view)",
        metric.name()
    ))
}

/// The figure `req` asks for, from `runs` (one, or several side by side).
pub fn build(runs: &[LoadedRun], req: &Request) -> anyhow::Result<Figure> {
    if runs.is_empty() {
        bail!("no run to draw");
    }
    let names = names(runs);
    Ok(match req.kind {
        Kind::Heatmap => {
            let metric = metric_of(runs, req);
            let View::Heat(view) = req.view else {
                bail!(
                    "a heatmap shows a view of the Heatmaps screen: relation, types, year or a \
                     facet pair (edit-hop, edit-relation, edit-format); for {} use --kind bars",
                    req.view.name()
                )
            };
            if let HeatView::Facets(i) = view {
                let pair = crate::report::grid::FACET_MAPS[i];
                if runs
                    .iter()
                    .all(|r| !r.snapshot.by_facet_pair.contains_key(pair))
                {
                    bail!("{}", unknown_view(&runs[0].snapshot, &req.view_arg()));
                }
            }
            let mut left_out = 0;
            let panels = runs
                .iter()
                .zip(&names)
                .map(|(r, name)| {
                    let mut g = HeatGrid::build(&r.snapshot, view, metric, req.sort);
                    left_out = left_out.max(g.rows.len().saturating_sub(req.max_rows));
                    g.rows.truncate(req.max_rows);
                    g.stats.truncate(req.max_rows);
                    Panel {
                        title: format!(
                            "{name} · n={} {}",
                            metric.n_of(&r.snapshot.overall).unwrap_or(0),
                            metric.unit()
                        ),
                        data: g,
                    }
                })
                .collect::<Vec<Panel<HeatGrid>>>();
            if !panels.iter().any(|p| p.data.has_value(metric)) {
                return Err(nothing_to_draw(metric, view.name()).into());
            }
            Figure {
                title: format!("{} {}", metric.name(), view.name()),
                subtitle: subtitle(runs, &rows_note(req, left_out)),
                body: Body::Heatmap(Heatmap {
                    metric,
                    corner: match view {
                        HeatView::HeadTail => "head \\ tail".into(),
                        HeatView::Facets(_) => view.name().replace(" × ", " \\ "),
                        _ => String::new(),
                    },
                    panels,
                }),
            }
        }
        Kind::Bars => {
            let metric = metric_of(runs, req);
            let per_run = runs
                .iter()
                .map(|r| groups_of(&r.snapshot, &req.view, metric))
                .collect::<anyhow::Result<Vec<_>>>()?;
            // Every run's groups, in first-seen order, then sorted on the first run's values.
            let mut seen = std::collections::HashSet::new();
            let mut groups: Vec<String> = per_run
                .iter()
                .flatten()
                .filter(|g| seen.insert(g.0.as_str()))
                .map(|g| g.0.clone())
                .collect();
            // Name order as the heatmaps read it (years stay in time order).
            if !matches!(req.view, View::Heat(HeatView::Year)) {
                groups.sort_by_key(|g| crate::report::grid::name_key(g));
            }
            let lookup: Vec<std::collections::HashMap<&str, &GroupStats>> = per_run
                .iter()
                .map(|run| run.iter().map(|(k, st)| (k.as_str(), st)).collect())
                .collect();
            let value = |run: &std::collections::HashMap<&str, &GroupStats>, g: &str| {
                // The n of the metric's own unit: the one its interval is computed from.
                run.get(g).map_or((None, 0), |st| {
                    (metric.of(st), metric.n_of(st).unwrap_or(0))
                })
            };
            let first: Vec<(Option<Rate>, u64)> =
                groups.iter().map(|g| value(&lookup[0], g)).collect();
            let order = sort_rows(&first, metric, req.sort);
            let left_out = groups.len().saturating_sub(req.max_rows);
            let groups: Vec<String> = order
                .iter()
                .take(req.max_rows)
                .map(|&i| groups[i].clone())
                .collect();
            let series = lookup
                .iter()
                .zip(&names)
                .map(|(run, name)| Series {
                    name: name.clone(),
                    data: groups.iter().map(|g| value(run, g)).collect(),
                })
                .collect::<Vec<Series<Vec<BarValue>>>>();
            if !series
                .iter()
                .flat_map(|s| &s.data)
                .any(|(v, _)| v.is_some())
            {
                return Err(nothing_to_draw(metric, &req.view.name()).into());
            }
            Figure {
                title: format!("{} {} with 95% intervals", metric.name(), req.view.name()),
                subtitle: subtitle(runs, &rows_note(req, left_out)),
                body: Body::Bars(Bars {
                    metric,
                    groups,
                    series,
                }),
            }
        }
        Kind::Dots => {
            let mut left_out = 0;
            let panels = runs
                .iter()
                .zip(&names)
                .map(|(r, name)| {
                    let Some(k) = &r.kglens else {
                        bail!(
                            "run {} is not a KGLens run: the dot view needs `--task kglens`",
                            r.run.id
                        )
                    };
                    let mut dots = k.by_predicate.clone();
                    left_out = left_out.max(dots.len().saturating_sub(req.max_rows));
                    dots.truncate(req.max_rows);
                    Ok(Panel {
                        title: format!("{name} · {} edges in the subgraph", k.edges),
                        data: dots,
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            Figure {
                title: "KGLens: zero-sense rate per predicate".into(),
                subtitle: subtitle(runs, &rows_note(req, left_out)),
                body: Body::Dots(Dots { panels }),
            }
        }
        Kind::Calibration => {
            let series = runs
                .iter()
                .zip(&names)
                .filter_map(|(r, name)| {
                    crate::metrics::calibration::of(
                        r.confidences.iter().map(|c| (c.p, c.correct)),
                        crate::report::calibration::BINS,
                    )
                    .map(|c| Series {
                        name: name.clone(),
                        data: c,
                    })
                })
                .collect::<Vec<_>>();
            if series.is_empty() {
                bail!(
                    "no probabilities in {}: the reliability diagram needs answers chosen by \
                     likelihood (`kgscope run --scoring logprob`), whose option probabilities \
                     are the confidence, or several attempts per question (`kgscope run \
                     --repeats 5 --temperature 0.8`), whose agreement is the confidence",
                    if runs.len() == 1 {
                        "this run"
                    } else {
                        "these runs"
                    }
                );
            }
            let mut sources: Vec<&str> = runs
                .iter()
                .map(crate::report::calibration::source_name)
                .collect();
            sources.sort_unstable();
            sources.dedup();
            Figure {
                title: format!(
                    "reliability: accuracy against confidence ({})",
                    sources.join(" or ")
                ),
                subtitle: subtitle(runs, "10 bins"),
                body: Body::Calibration(Reliability {
                    series,
                    confidence: match sources.as_slice() {
                        ["token probabilities"] => "the chosen option's probability".into(),
                        ["self-consistency"] => "share of attempts agreeing with the vote".into(),
                        _ => "option probability, or share of attempts agreeing".into(),
                    },
                    answers: match sources.as_slice() {
                        ["token probabilities"] => "answers chosen by likelihood".into(),
                        ["self-consistency"] => "answers asked more than once".into(),
                        _ => "answers with a confidence".into(),
                    },
                }),
            }
        }
    })
}

impl Request {
    /// The view as the command line names it, for messages.
    fn view_arg(&self) -> String {
        match &self.view {
            View::Heat(HeatView::Facets(i)) => {
                crate::report::grid::FACET_MAPS[*i].replace(" × ", "-")
            }
            v => v.name(),
        }
    }
}

fn rows_note(req: &Request, left_out: usize) -> String {
    if left_out == 0 {
        String::new()
    } else {
        format!(
            "first {} rows by {}, {left_out} more left out (--max-rows)",
            req.max_rows,
            req.sort.name()
        )
    }
}

/// The pixel size a figure needs.
fn size(fig: &Figure) -> (u32, u32) {
    match &fig.body {
        Body::Heatmap(b) => b.size(),
        Body::Bars(b) => b.size(),
        Body::Dots(b) => b.size(),
        Body::Calibration(b) => b.size(),
    }
}

fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    fig: &Figure,
    w: u32,
) -> anyhow::Result<()> {
    canvas::d(area.fill(&WHITE))?;
    let c = canvas::Canvas { area };
    c.title(&fig.title, &fig.subtitle, w)?;
    match &fig.body {
        Body::Heatmap(b) => b.draw(&c),
        Body::Bars(b) => b.draw(&c),
        Body::Dots(b) => b.draw(&c),
        Body::Calibration(b) => b.draw(&c),
    }
}

/// The figure as an SVG document.
pub fn svg(fig: &Figure) -> anyhow::Result<String> {
    register_fonts();
    let (w, h) = size(fig);
    let mut out = String::new();
    {
        let area = SVGBackend::with_string(&mut out, (w, h)).into_drawing_area();
        draw(&area, fig, w)?;
        canvas::d(area.present())?;
    }
    Ok(out)
}

/// The figure as a PNG image.
pub fn png(fig: &Figure) -> anyhow::Result<Vec<u8>> {
    register_fonts();
    let (w, h) = size(fig);
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    {
        // Text laid out by the font's metrics (plotters' own path spaces letters unevenly).
        let area =
            raster::GlyphText(BitMapBackend::with_buffer(&mut rgb, (w, h))).into_drawing_area();
        draw(&area, fig, w)?;
        canvas::d(area.present())?;
    }
    let mut out = vec![];
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(&rgb, w, h, image::ColorType::Rgb8)
        .context("encoding the PNG")?;
    Ok(out)
}

/// Whether `path` asks for a PNG (`true`) or an SVG (`false`); any other extension is an error.
pub fn is_png(path: &Path) -> anyhow::Result<bool> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => Ok(false),
        Some("png") => Ok(true),
        _ => bail!(
            "{}: a figure is written as .svg or .png (by the file's extension)",
            path.display()
        ),
    }
}

/// The figure in the format `path`'s extension names (.svg or .png).
pub fn encode_for(fig: &Figure, path: &Path) -> anyhow::Result<Vec<u8>> {
    if is_png(path)? {
        png(fig)
    } else {
        Ok(svg(fig)?.into_bytes())
    }
}

/// Writes the figure to `path`, as SVG or PNG by its extension; whole or not at all.
pub fn save(fig: &Figure, path: &Path) -> anyhow::Result<()> {
    let bytes = encode_for(fig, path)?;
    crate::store::write_atomically(path, &bytes)
}

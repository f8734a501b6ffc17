//! A run's report as a document (Markdown, HTML) or as a long table (CSV): overall metrics,
//! every group's metrics with 95% intervals, the method's own views, and in HTML the figures.
//! It sits above `figures` (it inlines them) and `report` (whose tables it lays out).

use crate::figures::{self, Kind, Request, View};
use crate::metrics::{GroupStats, Metric, Snapshot};
use crate::report::doc::{rate, Block};
use crate::report::grid::{listed, HeatGrid, HeatSort, HeatView};
use crate::report::loaded::LoadedRun;

fn metrics_of(run: &LoadedRun) -> Vec<Metric> {
    Metric::summary_of(crate::method::of(run.manifest.config.task).metrics())
}

/// Every grouping of a snapshot with its groups, in reading order: relation, head type, tail
/// type, year (binned as the heatmap bins it), then each facet.
pub fn groupings(s: &Snapshot) -> Vec<(String, Vec<(String, GroupStats)>)> {
    let mut out = vec![
        ("relation".to_string(), listed(&s.by_relation)),
        ("head type".to_string(), listed(&s.by_head_type)),
        ("tail type".to_string(), listed(&s.by_tail_type)),
    ];
    let years = HeatGrid::build(s, HeatView::Year, Metric::Accuracy, HeatSort::Name).into_list();
    if !years.is_empty() {
        out.push(("year".to_string(), years));
    }
    for (facet, m) in &s.by_facet {
        out.push((facet.clone(), listed(m)));
    }
    out
}

fn group_table(name: &str, rows: &[(String, GroupStats)], metrics: &[Metric]) -> Block {
    let mut header = vec![name.to_string(), "n".to_string()];
    header.extend(metrics.iter().map(|m| m.name().to_string()));
    Block::Table {
        header,
        rows: rows
            .iter()
            .map(|(k, g)| {
                let mut r = vec![k.clone(), g.n.to_string()];
                r.extend(metrics.iter().map(|m| rate(m.of(g))));
                r
            })
            .collect(),
        numeric: true,
    }
}

/// The report's blocks; `figures` adds the figures (for HTML).
pub fn blocks(run: &LoadedRun, figures: bool) -> anyhow::Result<Vec<Block>> {
    let m = &run.manifest;
    let s = &run.snapshot;
    let metrics = metrics_of(run);
    let mut b = vec![
        Block::Heading(1, format!("kgscope report: run {}", run.run.id)),
        Block::Para(format!(
            "Method {} on KG {}, model {} (temperature {}). {}{}. \
             Decided by the rules {}, the judge {}; hand labels decided {} ({} changed), left \
             out {}. Intervals are 95% Wilson intervals.",
            run.method(),
            run.kg(),
            run.model(),
            run.temperature(),
            run.answered_of_planned(),
            if m.finished_at.is_some() {
                ""
            } else {
                " (unfinished)"
            },
            run.answered - run.by_judge,
            run.by_judge,
            run.labelled.decided,
            run.labelled.changed,
            run.labelled.left_out,
        )),
        Block::Heading(2, "Overall".into()),
        Block::Table {
            header: vec!["metric".into(), "value [95% interval]".into()],
            rows: metrics
                .iter()
                .map(|mt| vec![mt.name().to_string(), rate(mt.of(&s.overall))])
                .collect(),
            numeric: true,
        },
    ];
    let c = &s.overall.counts;
    b.push(Block::Para(format!(
        "{} answered: {} correct, {} incorrect, {} abstained, {} invalid.",
        s.overall.n, c.correct, c.incorrect, c.abstained, c.invalid
    )));
    b.extend(crate::report::chance::blocks(&run.chance));
    for (name, rows) in groupings(s) {
        if rows.is_empty() {
            continue;
        }
        b.push(Block::Heading(2, format!("By {name}")));
        b.push(group_table(&name, &rows, &metrics));
    }
    if let Some(k) = &run.kglens {
        b.push(Block::Heading(2, "KGLens: by predicate".into()));
        b.push(Block::Para(format!(
            "{} of {} iterations, {} edges; {}.",
            k.iterations_done,
            k.iterations,
            k.edges,
            k.converged_at
                .map_or("not converged".to_string(), |i| format!(
                    "converged at iteration {i}"
                ))
        )));
        b.push(Block::Table {
            header: [
                "predicate",
                "edges",
                "share",
                "zero-sense rate [95%]",
                "win rate",
            ]
            .map(String::from)
            .to_vec(),
            rows: k
                .by_predicate
                .iter()
                .map(|g| {
                    vec![
                        g.name.clone(),
                        g.edges.to_string(),
                        format!("{:.1}%", 100.0 * g.share),
                        format!(
                            "{:.3} [{:.3}, {:.3}]",
                            g.zero_sense_rate, g.zero_sense_lo, g.zero_sense_hi
                        ),
                        format!("{:.3}", g.win_rate),
                    ]
                })
                .collect(),
            numeric: true,
        });
    }
    if run.halu.answers > 0 {
        b.push(Block::Heading(
            2,
            "KGHaluBench: the verification chain".into(),
        ));
        for line in crate::report::halu::chain_lines(&run.halu) {
            b.push(Block::Para(line));
        }
    }
    b.extend(crate::report::calibration::blocks(run));
    b.extend(crate::report::judges::blocks(
        &*run.judges()?,
        run.labels_read(),
    ));
    if figures {
        b.push(Block::Heading(2, "Figures".into()));
        for req in figure_requests(run) {
            let fig = match figures::build(std::slice::from_ref(run), &req) {
                Ok(fig) => fig,
                // A view with no value in any group is left out, not drawn empty.
                Err(e) if e.is::<figures::NothingToDraw>() => continue,
                Err(e) => return Err(e),
            };
            b.push(Block::Figure {
                caption: format!("{} — {}", fig.title, run.describe()),
                svg: figures::svg(&fig)?,
            });
        }
    }
    Ok(b)
}

/// The figures a report shows for a run: the heatmaps it has, bars by relation, and the
/// method's own views when it has them.
pub fn figure_requests(run: &LoadedRun) -> Vec<Request> {
    let s = &run.snapshot;
    let req = |kind, view| Request {
        kind,
        view,
        ..Request::default()
    };
    let mut out = vec![req(Kind::Bars, View::Heat(HeatView::Relation))];
    for v in HeatView::all_of(s) {
        if v.has_groups(s) {
            out.push(req(Kind::Heatmap, View::Heat(v)));
        }
    }
    if run.kglens.is_some() {
        out.push(req(Kind::Dots, View::Heat(HeatView::Relation)));
    }
    if !run.confidences.is_empty() {
        out.push(req(Kind::Calibration, View::Heat(HeatView::Relation)));
    }
    out
}

/// The long table of a run's metrics: one row per group and metric.
pub const CSV_HEADER: [&str; 11] = [
    "run_id", "model", "method", "grouping", "group", "n", "metric", "value", "lo", "hi", "kg",
];

pub fn csv_rows(run: &LoadedRun) -> Vec<Vec<String>> {
    let metrics = metrics_of(run);
    let s = &run.snapshot;
    let mut groups = vec![(
        "overall".to_string(),
        vec![("all".to_string(), s.overall.clone())],
    )];
    groups.extend(groupings(s));
    let mut rows = vec![];
    for (grouping, gs) in &groups {
        for (name, g) in gs {
            for mt in &metrics {
                let Some(r) = mt.of(g) else { continue };
                rows.push(vec![
                    run.run.id.clone(),
                    run.model(),
                    run.method().to_string(),
                    grouping.clone(),
                    name.clone(),
                    g.n.to_string(),
                    mt.name().to_string(),
                    format!("{:.6}", r.value),
                    format!("{:.6}", r.lo),
                    format!("{:.6}", r.hi),
                    run.kg(),
                ]);
            }
        }
    }
    rows
}

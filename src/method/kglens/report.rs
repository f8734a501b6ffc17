//! What `kgscope report` adds for a KGLens run: the iterations and the convergence curve, the
//! per-predicate dot view (share of examined edges, zero-sense rate), the temporal and entity
//! group views, and the edges the posterior believes weakest.

use std::fmt::Write;

use serde::Serialize;

use super::plan::{IterationStats, KglensConfig, KglensState, WeakEdge};
use crate::metrics::{EdgeStats, GroupStats, Snapshot};
use crate::sanitize::line as clean;

/// One group's edge rates (by predicate, year or entity group).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EdgeGroup {
    pub name: String,
    /// Examined edges in the group, and their share of all examined edges (the dot's size).
    pub edges: u64,
    pub share: f64,
    /// The dot's colour.
    pub zero_sense_rate: f64,
    pub zero_sense_lo: f64,
    pub zero_sense_hi: f64,
    pub win_rate: f64,
}

/// The KGLens part of a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KglensReport {
    pub iterations_done: u32,
    pub iterations: u32,
    pub batch: usize,
    pub difficulty: String,
    pub edges: usize,
    pub converged_at: Option<u32>,
    pub convergence_rule: String,
    pub history: Vec<IterationStats>,
    pub by_predicate: Vec<EdgeGroup>,
    pub by_year: Vec<EdgeGroup>,
    pub by_entity_group: Vec<EdgeGroup>,
    pub weakest: Vec<WeakEdge>,
}

fn groups<'a, K: ToString>(
    it: impl Iterator<Item = (K, &'a GroupStats)>,
    total: u64,
) -> Vec<EdgeGroup> {
    let mut out: Vec<EdgeGroup> = it
        .filter_map(|(k, g)| g.yesno.as_ref().map(|e| (k.to_string(), e)))
        .map(|(name, e): (String, &EdgeStats)| EdgeGroup {
            name,
            edges: e.edges,
            share: e.edges as f64 / total.max(1) as f64,
            zero_sense_rate: e.zero_sense_rate.value,
            zero_sense_lo: e.zero_sense_rate.lo,
            zero_sense_hi: e.zero_sense_rate.hi,
            win_rate: e.win_rate.value,
        })
        .collect();
    out.sort_by(|a, b| b.edges.cmp(&a.edges).then(a.name.cmp(&b.name)));
    out
}

/// The KGLens views of a run from its snapshot and its saved state.
pub fn of(snapshot: &Snapshot, state: &KglensState, cfg: &KglensConfig) -> KglensReport {
    let total = snapshot.overall.yesno.as_ref().map_or(0, |e| e.edges);
    // By year reads in time order, not by size.
    let mut by_year = groups(snapshot.by_year.iter(), total);
    by_year.sort_by_key(|g| g.name.parse::<i32>().unwrap_or(i32::MAX));
    KglensReport {
        iterations_done: state.iterations_done,
        iterations: cfg.iterations,
        batch: cfg.batch,
        difficulty: cfg.difficulty.as_str().into(),
        edges: state.edges,
        converged_at: state.converged_at,
        convergence_rule: cfg.convergence_rule(),
        history: state.history.clone(),
        by_predicate: groups(snapshot.by_relation.iter(), total),
        by_year,
        by_entity_group: groups(snapshot.by_head_type.iter(), total),
        weakest: state.weakest.clone(),
    }
}

fn table(out: &mut String, title: &str, rows: &[EdgeGroup], most: usize) {
    if rows.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{title}");
    let _ = writeln!(
        out,
        "{:<28} {:>6} {:>6}  {:<20} {:>6}",
        "", "edges", "share", "zero-sense [95%]", "win"
    );
    for g in rows.iter().take(most) {
        let _ = writeln!(
            out,
            "{} {:>6} {:>5.1}%  {:5.1}% [{:4.1}–{:4.1}] {:>5.1}%",
            crate::display_width::pad(&clean(&g.name), 28),
            g.edges,
            100.0 * g.share,
            100.0 * g.zero_sense_rate,
            100.0 * g.zero_sense_lo,
            100.0 * g.zero_sense_hi,
            100.0 * g.win_rate
        );
    }
    if rows.len() > most {
        let _ = writeln!(out, "… and {} more", rows.len() - most);
    }
}

/// The KGLens views as text, 80 columns.
pub fn text(r: &KglensReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nKGLens: {} of {} iterations of {} edges ({}), subgraph of {} edges",
        r.iterations_done, r.iterations, r.batch, r.difficulty, r.edges
    );
    let _ = writeln!(
        out,
        "{}",
        match r.converged_at {
            Some(i) => format!("converged after iteration {i}"),
            None => "not converged".into(),
        }
    );
    let _ = writeln!(out, "convergence rule: {}", r.convergence_rule);
    if !r.history.is_empty() {
        let _ = writeln!(
            out,
            "\niteration  asked  right  examined  win    0-sense  failure"
        );
        for h in r.history.iter().rev().take(10).rev() {
            let _ = writeln!(
                out,
                "{:>9} {:>6} {:>6} {:>9}  {:.3}  {:.3}    {:.3}",
                h.iteration,
                h.asked,
                h.correct,
                h.examined,
                h.win_rate,
                h.zero_sense_rate,
                h.mean_failure
            );
        }
    }
    table(
        &mut out,
        "per predicate (dot view: size = share, colour = zero-sense)",
        &r.by_predicate,
        15,
    );
    table(&mut out, "by year", &r.by_year, 20);
    table(
        &mut out,
        "by entity group (subject type)",
        &r.by_entity_group,
        10,
    );
    if !r.weakest.is_empty() {
        let _ = writeln!(out, "\nweakest edges by posterior failure probability");
        for w in &r.weakest {
            let _ = writeln!(out, "{}", w.line());
        }
    }
    out
}

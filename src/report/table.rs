//! The plain-text summary printed at the end of a run and by `kgscope report`.

use std::fmt::Write;

use crate::metrics::{GroupStats, Rate, Snapshot};
use crate::sanitize::line as clean;

fn rate(r: &Option<Rate>) -> String {
    match r {
        Some(r) => format!(
            "{:5.1}% [{:4.1}–{:4.1}]",
            100.0 * r.value,
            100.0 * r.lo,
            100.0 * r.hi
        ),
        None => "      -            ".into(),
    }
}

fn row(name: &str, g: &GroupStats) -> String {
    let mut s = format!(
        "{:<28} {:>6}  {}  {}  {}",
        clean(name).chars().take(28).collect::<String>(),
        g.n,
        rate(&g.accuracy),
        rate(&g.abstain_rate),
        rate(&g.invalid_rate)
    );
    if let Some(ge) = &g.grapheval {
        let _ = write!(
            s,
            "  {}  {}  {}",
            rate(&Some(ge.correctness.clone())),
            rate(&Some(ge.truthfulness.clone())),
            rate(&Some(ge.informativeness.clone()))
        );
    }
    if let Some(y) = &g.yesno {
        let _ = write!(
            s,
            "  {}  {}",
            rate(&Some(y.win_rate.clone())),
            rate(&Some(y.zero_sense_rate.clone()))
        );
    }
    s
}

fn header(g: &GroupStats) -> String {
    let mut s = format!(
        "{:<28} {:>6}  {:<19}  {:<19}  {:<19}",
        "group", "n", "accuracy", "abstained", "invalid"
    );
    if g.grapheval.is_some() {
        let _ = write!(
            s,
            "  {:<19}  {:<19}  {:<19}",
            "correctness", "truthfulness", "informativeness"
        );
    }
    if g.yesno.is_some() {
        let _ = write!(s, "  {:<19}  {:<19}", "win rate", "zero-sense rate");
    }
    s
}

/// Overall metrics and the `worst` relations by accuracy (95% Wilson intervals in brackets).
pub fn summary(s: &Snapshot, worst: usize) -> String {
    let mut out = String::new();
    let c = &s.overall.counts;
    let _ = writeln!(
        out,
        "{} answered: {} correct, {} incorrect, {} abstained, {} invalid",
        s.overall.n, c.correct, c.incorrect, c.abstained, c.invalid
    );
    let _ = writeln!(out, "{}", header(&s.overall));
    let _ = writeln!(out, "{}", row("overall", &s.overall));
    let mut rels: Vec<(&String, &GroupStats)> = s.by_relation.iter().collect();
    rels.sort_by(|a, b| {
        let acc = |g: &GroupStats| g.accuracy.as_ref().map_or(f64::INFINITY, |r| r.value);
        acc(a.1)
            .total_cmp(&acc(b.1))
            .then(b.1.n.cmp(&a.1.n))
            .then(a.0.cmp(b.0))
    });
    if !rels.is_empty() {
        let _ = writeln!(out, "\nworst relations by accuracy:");
        for (name, g) in rels.into_iter().take(worst) {
            let _ = writeln!(out, "{}", row(name, g));
        }
    }
    if s.pending_triples > 0 {
        let _ = writeln!(
            out,
            "\n{} true statements still wait for some of their negatives (not yet in GraphEval metrics)",
            s.pending_triples
        );
    }
    out
}

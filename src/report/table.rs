//! The plain-text summary printed at the end of a run and by `kgscope report`.

use std::fmt::Write;

use crate::metrics::{GroupStats, Metric, Rate, Snapshot};
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

/// The overall group's rates, one per line: the outcome rates, then the method's own, in 80
/// columns.
fn overall(g: &GroupStats, metrics: &[Metric]) -> String {
    let shown = Metric::summary_of(metrics);
    let w = shown
        .iter()
        .map(|m| m.name().len())
        .max()
        .unwrap_or(0)
        .max(16);
    let mut s = format!("{:<w$} {}\n", "overall", "value  [95% interval]");
    for m in shown {
        let _ = writeln!(s, "{:<w$} {}", m.name(), rate(&m.of(g)));
    }
    s
}

/// A relation's line: name, n, accuracy and the headline metric (76 columns).
fn row(name: &str, g: &GroupStats, headline: Option<Metric>) -> String {
    let mut s = format!(
        "{} {:>6}  {}",
        crate::display_width::pad(&clean(name), 28),
        g.n,
        rate(&g.accuracy),
    );
    if let Some(m) = headline {
        let _ = write!(s, "  {}", rate(&m.of(g)));
    }
    s
}

/// Overall metrics of a run whose method shows `metrics`, and the `worst` relations by
/// accuracy (95% Wilson intervals in brackets).
pub fn summary(s: &Snapshot, metrics: &[Metric], worst: usize) -> String {
    let mut out = String::new();
    let c = &s.overall.counts;
    let _ = writeln!(
        out,
        "{} answered: {} correct, {} incorrect, {} abstained, {} invalid",
        s.overall.n, c.correct, c.incorrect, c.abstained, c.invalid
    );
    out.push_str(&overall(&s.overall, metrics));
    let mut rels: Vec<(&String, &GroupStats)> = s.by_relation.iter().collect();
    rels.sort_by(|a, b| {
        let acc = |g: &GroupStats| g.accuracy.as_ref().map_or(f64::INFINITY, |r| r.value);
        acc(a.1)
            .total_cmp(&acc(b.1))
            .then(b.1.n.cmp(&a.1.n))
            .then(a.0.cmp(b.0))
    });
    if !rels.is_empty() {
        let main = Metric::headline_of(metrics);
        let _ = writeln!(out, "\nworst relations by accuracy:");
        let _ = writeln!(
            out,
            "{:<28} {:>6}  {:<19}  {}",
            "relation",
            "n",
            "accuracy",
            main.map_or("", Metric::name)
        );
        for (name, g) in rels.into_iter().take(worst) {
            let _ = writeln!(out, "{}", row(name, g, main));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{Aggregates, Scored, Scoring};
    use crate::verify::{OutcomeKind, Verdict};

    #[test]
    fn the_summary_fits_80_columns() {
        let mut a = Aggregates::new();
        // Names in other scripts take more or fewer columns than chars: the table is laid out
        // by display width (combining vowel signs take none, CJK two).
        let names = [
            "a relation with a very long name indeed, longer than 28",
            "फिजी गणराज्य की राजधानी और उसके आसपास",
            "東京都の首都圏にある非常に長い関係名",
            "short",
        ];
        for (i, (outcome, relation)) in [
            OutcomeKind::Correct,
            OutcomeKind::Incorrect,
            OutcomeKind::Incorrect,
            OutcomeKind::Correct,
        ]
        .into_iter()
        .zip(names)
        .enumerate()
        {
            a.add(&Scored {
                question_id: format!("q{i}"),
                scoring: Scoring::Triples,
                positive_id: format!("q{i}"),
                expected_members: 1,
                is_positive: true,
                verdict: Verdict::True,
                outcome,
                relation: relation.into(),
                head_type: "Country".into(),
                tail_type: "City".into(),
                year: None,
                edge_key: None,
                facets: vec![],
                compound: None,
            });
        }
        let metrics = crate::method::of(crate::questions::Task::Statement).metrics();
        let text = summary(&a.snapshot(), metrics, 10);
        let width = crate::display_width::width;
        for l in text.lines() {
            assert!(width(l) <= 80, "{} columns: {l}", width(l));
        }
        let rows: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("relation"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .collect();
        assert_eq!(rows.len(), names.len(), "{text}");
        // The n column (1 for each) starts at the same column after every name.
        for r in &rows {
            let at = r.find("     1  ").expect(r);
            assert_eq!(width(&r[..at]), 29, "columns line up: {r:?}");
        }
        assert!(text.contains("informativeness"), "{text}");
        assert!(text.contains("relation"), "{text}");
        assert!(text.contains("correctness"), "{text}");
    }
}

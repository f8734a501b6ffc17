//! The answer distribution, chance baseline and near-chance warning of a run, in the
//! report's formats (the figures are `metrics::chance`'s).

use super::doc::Block;
use crate::metrics::chance::Chance;

/// The terminal lines: under "against chance", the distribution, the baseline, the warning.
pub fn text(c: &Chance) -> String {
    if c.n == 0 {
        return String::new();
    }
    let mut out = String::from("\nagainst chance\n");
    for line in c.lines() {
        out.push_str("  ");
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Markdown / HTML: a heading, the distribution as a table, then the baseline and warning.
pub fn blocks(c: &Chance) -> Vec<Block> {
    if c.n == 0 {
        return Vec::new();
    }
    let shown = if c.open { 10 } else { usize::MAX };
    let mut rows: Vec<Vec<String>> = c
        .distribution
        .iter()
        .take(shown)
        .map(|(a, k)| {
            vec![
                a.clone(),
                k.to_string(),
                format!("{:.1}%", *k as f64 * 100.0 / c.n as f64),
            ]
        })
        .collect();
    let rest: u64 = c.distribution.iter().skip(shown).map(|(_, k)| k).sum();
    if rest > 0 {
        rows.push(vec![
            format!("{} other answers", c.distribution.len() - shown),
            rest.to_string(),
            format!("{:.1}%", rest as f64 * 100.0 / c.n as f64),
        ]);
    }
    let mut b = vec![
        Block::Heading(2, "Against chance".into()),
        Block::Table {
            header: vec!["answer".into(), "count".into(), "share".into()],
            rows,
            numeric: true,
        },
        Block::Para(format!("Baseline: {}.", c.baseline_line())),
    ];
    if let Some(w) = c.warning_line() {
        b.push(Block::Para(format!("Warning: {w}.")));
    }
    b
}

//! The answer distribution, chance baseline and near-chance warning of a run, in the
//! report's formats (the figures are `metrics::chance`'s).

use super::doc::Block;
use crate::metrics::chance::Chance;

/// The terminal lines: under "against chance", the distribution, the baseline, the warning.
pub fn text(c: &Chance) -> String {
    if c.answered() == 0 {
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

/// Markdown / HTML: a heading, the closed answers' distribution as a table, then the
/// baseline, the open answers' line and the warning.
pub fn blocks(c: &Chance) -> Vec<Block> {
    if c.answered() == 0 {
        return Vec::new();
    }
    let mut b = vec![Block::Heading(2, "Against chance".into())];
    if c.n > 0 {
        let rows: Vec<Vec<String>> = c
            .distribution
            .iter()
            .map(|(a, k)| {
                vec![
                    a.clone(),
                    k.to_string(),
                    format!("{:.1}%", *k as f64 * 100.0 / c.n as f64),
                ]
            })
            .collect();
        b.push(Block::Table {
            header: vec!["answer".into(), "count".into(), "share".into()],
            rows,
            numeric: true,
        });
    }
    if let Some(line) = c.baseline_line() {
        b.push(Block::Para(format!("Baseline: {line}.")));
    }
    if let Some(line) = c.open_line() {
        b.push(Block::Para(format!("{}.", capitalise(&line))));
    }
    if let Some(w) = c.warning_line() {
        b.push(Block::Para(format!("Warning: {w}.")));
    }
    b
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

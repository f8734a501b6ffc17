//! What `kgscope report` adds for a KG-FPQ run: accuracy per edit in each format, per hop
//! count, per relation and per format, and the true-premise questions' accuracy, each with its
//! 95% interval (Zhu et al., 2024, §4 and appendix C).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::metrics::{GroupStats, Rate, Snapshot};
use crate::sanitize::line as clean;

fn rate(r: &Option<Rate>) -> String {
    match r {
        Some(r) => format!(
            "{:5.1}% [{:4.1}–{:5.1}]",
            100.0 * r.value,
            100.0 * r.lo,
            100.0 * r.hi
        ),
        None => "      -             ".into(),
    }
}

fn rows(out: &mut String, title: &str, groups: Option<&BTreeMap<String, GroupStats>>) {
    let Some(groups) = groups.filter(|g| !g.is_empty()) else {
        return;
    };
    let _ = writeln!(out, "\n{title}");
    let _ = writeln!(out, "{:<28} {:>6}  accuracy [95%]", "", "n");
    for (name, g) in groups {
        let _ = writeln!(
            out,
            "{} {:>6}  {}",
            crate::display_width::pad(&clean(name), 28),
            g.n,
            rate(&g.accuracy)
        );
    }
}

/// The KG-FPQ tables, 80 columns; empty when the snapshot has no KG-FPQ facets.
pub fn text(s: &Snapshot) -> String {
    let mut out = String::new();
    if !s.by_facet.contains_key("edit") {
        return out;
    }
    let _ = writeln!(
        out,
        "\nKG-FPQ (accuracy: TPQ answered Yes, FPQ rejected or corrected)"
    );
    // Edit × format: the paper's main table, one column per format.
    if let Some(pairs) = s.by_facet_pair.get("edit × format") {
        let formats: Vec<&String> = {
            let mut f: Vec<&String> = pairs.values().flat_map(|c| c.keys()).collect();
            f.sort();
            f.dedup();
            f
        };
        let _ = write!(out, "\n{:<6}", "edit");
        for f in &formats {
            let _ = write!(out, " {:>6} {:<21}", "n", f);
        }
        let _ = writeln!(out);
        for (edit, cols) in pairs {
            let _ = write!(out, "{edit:<6}");
            for f in &formats {
                match cols.get(*f) {
                    Some(g) => {
                        let _ = write!(out, " {:>6} {}", g.n, rate(&g.accuracy));
                    }
                    None => {
                        let _ = write!(out, " {:>6} {:<21}", "-", "");
                    }
                }
            }
            let _ = writeln!(out);
        }
    }
    // Hops exist for the neighbour edits only ("-" is every other question).
    let hops: Option<BTreeMap<String, GroupStats>> = s.by_facet.get("hop").map(|h| {
        h.iter()
            .filter(|(k, _)| *k != "-")
            .map(|(k, g)| (k.clone(), g.clone()))
            .collect()
    });
    rows(&mut out, "by hop (NSC and NDC)", hops.as_ref());
    rows(&mut out, "by format", s.by_facet.get("format"));
    rows(&mut out, "by relation", s.by_facet.get("relation"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{Aggregates, Scored, Scoring};
    use crate::verify::{OutcomeKind, Verdict};

    #[test]
    fn the_edit_by_format_table_has_one_row_per_edit_and_hand_checked_rates() {
        let mut a = Aggregates::new();
        let add = |a: &mut Aggregates, i: usize, edit: &str, format: &str, o: OutcomeKind| {
            a.add(&Scored {
                question_id: format!("q{i}"),
                scoring: Scoring::Outcomes,
                positive_id: format!("q{i}"),
                expected_members: 1,
                is_positive: false,
                verdict: Verdict::False,
                outcome: o,
                relation: "capital".into(),
                head_type: "-".into(),
                tail_type: "-".into(),
                year: None,
                edge_key: None,
                facets: vec![
                    ("edit".into(), edit.into()),
                    ("hop".into(), "2".into()),
                    ("format".into(), format.into()),
                    ("relation".into(), "capital".into()),
                ],
                compound: None,
            })
        };
        use OutcomeKind::*;
        // NSC discriminative: 1 of 2 right; NSC generative: 1 of 1; TPQ: 3 of 4.
        add(&mut a, 0, "NSC", "discriminative", Correct);
        add(&mut a, 1, "NSC", "discriminative", Incorrect);
        add(&mut a, 2, "NSC", "generative", Correct);
        for (i, o) in [Correct, Correct, Correct, Incorrect]
            .into_iter()
            .enumerate()
        {
            add(&mut a, 10 + i, "TPQ", "discriminative", o);
        }
        let s = a.snapshot();
        let t = text(&s);
        assert!(t.contains("NSC         2  50.0%"), "{t}");
        assert!(t.contains("TPQ         4  75.0%"), "{t}");
        // NSC has no generative... it has: 1 of 1.
        assert!(t.contains("     1 100.0%"), "{t}");
        let g = &s.by_facet_pair["edit × format"]["NSC"]["generative"];
        assert_eq!((g.n, g.counts.correct), (1, 1));
        assert_eq!(s.by_facet["format"]["discriminative"].n, 6);
        assert!(t.lines().all(|l| l.chars().count() <= 80), "{t}");
    }
}

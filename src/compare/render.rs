//! A comparison as a document (Markdown, HTML) or a long table (CSV).

use crate::report::doc::rate;
use crate::report::doc::Block;

use super::paired::McNemarForm;
use super::Comparison;

/// Run labels in tables: A, B, C, …
pub fn letter(i: usize) -> String {
    crate::questions::gold::choice_letter(i).to_string()
}

fn p_value(p: f64) -> String {
    if p < 0.001 {
        "<0.001".into()
    } else {
        format!("{p:.3}")
    }
}

fn form(f: McNemarForm) -> &'static str {
    match f {
        McNemarForm::ExactBinomial => "exact",
        McNemarForm::ChiSquaredCorrected => "χ²",
        McNemarForm::NoDiscordantPairs => "none discordant",
    }
}

pub fn blocks(c: &Comparison) -> Vec<Block> {
    let mut b = vec![
        Block::Heading(1, "kgscope comparison".into()),
        Block::Table {
            header: [
                "run",
                "id",
                "model",
                "temperature",
                "KG",
                "method",
                "answered",
            ]
            .map(String::from)
            .to_vec(),
            rows: c
                .runs
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    vec![
                        letter(i),
                        r.id.clone(),
                        r.model.clone(),
                        r.temperature.to_string(),
                        r.kg.clone(),
                        r.method.clone(),
                        r.answered.to_string(),
                    ]
                })
                .collect(),
            numeric: false,
        },
        Block::Para(format!(
            "Compared on the {} question ids all runs answered ({}). {}.",
            c.common,
            c.runs
                .iter()
                .enumerate()
                .map(|(i, r)| format!("{} of {}'s {}", c.common, letter(i), r.answered))
                .collect::<Vec<_>>()
                .join(", "),
            c.test
        )),
        Block::Heading(2, "Metrics on the common questions".into()),
    ];
    let mut header = vec!["metric".to_string()];
    header.extend((0..c.runs.len()).map(letter));
    b.push(Block::Table {
        header,
        rows: c
            .metrics
            .iter()
            .map(|m| {
                let mut r = vec![m.metric.clone()];
                r.extend(m.values.iter().map(|v| rate(*v)));
                r
            })
            .collect(),
        numeric: true,
    });
    b.extend(chance_blocks(c));
    b.push(Block::Heading(
        2,
        format!("Accuracy by {}, each run against A", c.grouping),
    ));
    b.push(Block::Para(
        "b / c: questions only A got right / only the other run got right (McNemar's \
         discordant pairs); p: McNemar's two-sided p-value, its form in brackets."
            .into(),
    ));
    let mut header = vec![c.grouping.clone(), "n".into(), "A".into()];
    for i in 1..c.runs.len() {
        let x = letter(i);
        header.extend([
            x.clone(),
            format!("{x} − A [95%]"),
            "b / c".into(),
            "p (McNemar)".into(),
        ]);
    }
    let rows = c
        .groups
        .iter()
        .map(|g| {
            let mut r = vec![g.group.clone(), g.n.to_string(), rate(g.accuracy[0])];
            for (i, v) in g.vs_baseline.iter().enumerate() {
                r.push(rate(g.accuracy[i + 1]));
                r.push(v.difference.map_or("–".into(), |d| {
                    format!("{:+.3} [{:+.3}, {:+.3}]", d.value, d.lo, d.hi)
                }));
                r.push(format!("{} / {}", v.table.only_a, v.table.only_b));
                r.push(format!(
                    "{} ({})",
                    p_value(v.mcnemar.p),
                    form(v.mcnemar.form)
                ));
            }
            r
        })
        .collect();
    b.push(Block::Table {
        header,
        rows,
        numeric: true,
    });
    b
}

/// Each run's answers on the common questions, its chance baseline, and the warning when its
/// results are near chance: two runs can differ significantly and both be at chance.
fn chance_blocks(c: &Comparison) -> Vec<Block> {
    let rows = c
        .runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            vec![
                letter(i),
                r.chance.answers_line(),
                r.chance
                    .baseline_line()
                    .unwrap_or_else(|| "none: open answers".into()),
                r.chance.warning_line().unwrap_or_else(|| "–".into()),
            ]
        })
        .collect();
    vec![
        Block::Heading(2, "Answers against chance".into()),
        Block::Table {
            header: ["run", "answers", "baseline", "warning"]
                .map(String::from)
                .to_vec(),
            rows,
            numeric: false,
        },
    ]
}

pub const CSV_HEADER: [&str; 17] = [
    "grouping",
    "group",
    "n",
    "baseline_run",
    "run",
    "baseline_accuracy",
    "accuracy",
    "accuracy_lo",
    "accuracy_hi",
    "difference",
    "difference_lo",
    "difference_hi",
    "only_baseline_right",
    "only_run_right",
    "mcnemar_form",
    "mcnemar_chi2",
    "mcnemar_p",
];

pub fn csv_rows(c: &Comparison) -> Vec<Vec<String>> {
    let f = |x: f64| format!("{x:.6}");
    let opt = |x: Option<f64>| x.map_or(String::new(), f);
    let mut rows = vec![];
    for (gi, g) in c.groups.iter().enumerate() {
        // The first row is the overall one (see `Comparison::groups`).
        let grouping = if gi == 0 {
            "overall".to_string()
        } else {
            c.grouping.clone()
        };
        for (i, v) in g.vs_baseline.iter().enumerate() {
            let acc = g.accuracy[i + 1];
            rows.push(vec![
                grouping.clone(),
                g.group.clone(),
                g.n.to_string(),
                c.runs[0].id.clone(),
                c.runs[i + 1].id.clone(),
                opt(g.accuracy[0].map(|r| r.value)),
                opt(acc.map(|r| r.value)),
                opt(acc.map(|r| r.lo)),
                opt(acc.map(|r| r.hi)),
                opt(v.difference.map(|d| d.value)),
                opt(v.difference.map(|d| d.lo)),
                opt(v.difference.map(|d| d.hi)),
                v.table.only_a.to_string(),
                v.table.only_b.to_string(),
                serde_json::to_value(v.mcnemar.form)
                    .ok()
                    .and_then(|v| v.as_str().map(String::from))
                    .unwrap_or_default(),
                f(v.mcnemar.chi2),
                f(v.mcnemar.p),
            ]);
        }
    }
    rows
}

//! Runs side by side: the same metrics for several runs on the questions they share, and for
//! each run against the first (the baseline) the difference in accuracy with its interval and
//! McNemar's test on the paired outcomes, overall and per group.
//!
//! Questions are matched by id. Runs on different question sets are compared on the ids all
//! of them answered, and the comparison says how many that is of each run's.

pub mod paired;
pub mod render;

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use anyhow::bail;
use serde::Serialize;

use crate::metrics::{Metric, Rate};
use crate::report::loaded::{AnswerRow, Answers, GroupKeys, LoadedRun};
use paired::{Difference, McNemar, Table};
use render::letter;

/// What the per-group rows group by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Grouping {
    Relation,
    HeadType,
    TailType,
    /// One of the method's facets (KG-FPQ's edit, hop, format).
    Facet(String),
}

impl Grouping {
    pub fn parse(s: &str) -> Grouping {
        match s {
            "relation" => Grouping::Relation,
            "head-type" => Grouping::HeadType,
            "tail-type" => Grouping::TailType,
            other => Grouping::Facet(other.to_string()),
        }
    }
    pub fn name(&self) -> String {
        match self {
            Grouping::Relation => "relation".into(),
            Grouping::HeadType => "head type".into(),
            Grouping::TailType => "tail type".into(),
            Grouping::Facet(f) => f.clone(),
        }
    }
    fn key(&self, s: &GroupKeys) -> Option<String> {
        match self {
            Grouping::Relation => Some(s.relation.clone()),
            Grouping::HeadType => Some(s.head_type.clone()),
            Grouping::TailType => Some(s.tail_type.clone()),
            Grouping::Facet(f) => s
                .facets
                .iter()
                .find(|(k, _)| k == f)
                .map(|(_, v)| v.clone()),
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    pub id: String,
    /// Model and temperature (with the id where two runs would read the same).
    pub name: String,
    pub model: String,
    pub kg: String,
    pub method: String,
    pub temperature: f32,
    /// Questions the run answered (its own, before matching).
    pub answered: usize,
    /// What it answered on the common questions, and whether that is near chance.
    pub chance: crate::metrics::chance::Chance,
}

/// One metric for every run, on the common questions.
#[derive(Debug, Clone, Serialize)]
pub struct MetricRow {
    pub metric: String,
    pub values: Vec<Option<Rate>>,
}

/// A run against the baseline on one group's common questions.
#[derive(Debug, Clone, Serialize)]
pub struct VsBaseline {
    pub table: Table,
    /// This run's accuracy minus the baseline's, with Newcombe's 95% interval.
    pub difference: Option<Difference>,
    pub mcnemar: McNemar,
}

#[derive(Debug, Clone, Serialize)]
pub struct GroupRow {
    /// "overall", or the group's name.
    pub group: String,
    /// Common questions in the group.
    pub n: u64,
    /// Each run's accuracy on them.
    pub accuracy: Vec<Option<Rate>>,
    /// Runs 2… against run 1.
    pub vs_baseline: Vec<VsBaseline>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Comparison {
    pub runs: Vec<RunSummary>,
    /// Question ids every run answered: how many, and which (in the baseline's order).
    pub common: usize,
    #[serde(skip)]
    pub common_ids: Vec<String>,
    /// The test used on paired outcomes, in words.
    pub test: String,
    pub metrics: Vec<MetricRow>,
    pub grouping: String,
    /// Overall first, then each group by size.
    pub groups: Vec<GroupRow>,
}

/// The accuracy of every run on the common questions at positions `at`, and each run against
/// the baseline; `right[run][i]` is whether the run got common question `i` right.
fn group_row(group: String, at: &[u32], right: &[Vec<bool>]) -> GroupRow {
    let right: Vec<Vec<bool>> = right
        .iter()
        .map(|r| at.iter().map(|&i| r[i as usize]).collect())
        .collect();
    let n = at.len() as u64;
    let accuracy = right
        .iter()
        .map(|r| Rate::new(r.iter().filter(|x| **x).count() as f64, n as f64))
        .collect();
    let vs_baseline = right[1..]
        .iter()
        .map(|other| {
            let mut t = Table::default();
            for (a, b) in right[0].iter().zip(other) {
                t.add(*a, *b);
            }
            VsBaseline {
                table: t,
                difference: paired::difference(&t),
                mcnemar: paired::mcnemar(&t),
            }
        })
        .collect();
    GroupRow {
        group,
        n,
        accuracy,
        vs_baseline,
    }
}

/// Why runs that share no question cannot be compared, naming the runs that share none with
/// the baseline (a third run of another method, not the pair that matches), each with its
/// method, model and KG.
fn nothing_shared(runs: &[&LoadedRun], answers: &[Arc<Answers>]) -> String {
    let describe = |i: usize| {
        let r = runs[i];
        format!(
            "{} ({}: {} on {} by {}, {} answers)",
            letter(i),
            r.run.id,
            r.method(),
            r.kg(),
            r.model(),
            answers[i].rows.len()
        )
    };
    let baseline: std::collections::HashSet<&str> =
        answers[0].rows.iter().map(|row| row.id()).collect();
    let apart: Vec<usize> = (1..runs.len())
        .filter(|&i| {
            !answers[i]
                .rows
                .iter()
                .any(|row| baseline.contains(row.id()))
        })
        .collect();
    let why = "runs compare on the question ids they all have (the same KG, method, seed and \
               generator options give the same questions)";
    if apart.is_empty() {
        // Each shares some with the baseline, but no question is in all of them.
        return format!(
            "no question is in all {} runs, though each shares some with the baseline {}; {why}",
            runs.len(),
            describe(0)
        );
    }
    let named: Vec<String> = apart.iter().map(|&i| describe(i)).collect();
    format!(
        "{} share{} no question with the baseline {}; {why}",
        named.join(" and "),
        if apart.len() == 1 { "s" } else { "" },
        describe(0)
    )
}

/// Compares `runs` (at least two; the first is the baseline) on their common questions.
/// Takes the runs or references to them (the TUI keeps its loaded runs and lends them).
pub fn compare<R: Borrow<LoadedRun>>(runs: &[R], by: &Grouping) -> anyhow::Result<Comparison> {
    let runs: Vec<&LoadedRun> = runs.iter().map(Borrow::borrow).collect();
    if runs.len() < 2 {
        bail!("a comparison needs at least two runs");
    }
    if let Grouping::Facet(f) = by {
        // A facet no run has would leave the per-group section out without a word.
        let facets: std::collections::BTreeSet<&str> = runs
            .iter()
            .flat_map(|r| r.snapshot.by_facet.keys().map(String::as_str))
            .collect();
        if !facets.contains(f.as_str()) {
            bail!(
                "unknown grouping \"{}\": the groupings are relation, head-type, tail-type{}",
                crate::sanitize::line(f),
                if facets.is_empty() {
                    String::new()
                } else {
                    format!(
                        " and these runs' facets {}",
                        facets.into_iter().collect::<Vec<_>>().join(", ")
                    )
                }
            );
        }
    }
    let answers: Vec<Arc<Answers>> = runs
        .iter()
        .map(|r| r.answers())
        .collect::<anyhow::Result<_>>()?;
    // The common questions, in the baseline's order (as its rows), and whether each run got
    // each right. The other runs' answers are looked up by id; the maps go once this is known.
    let (common, right) = {
        let maps: Vec<HashMap<&str, &AnswerRow>> = answers[1..]
            .iter()
            .map(|a| a.rows.iter().map(|row| (row.id(), row)).collect())
            .collect();
        let common: Vec<&AnswerRow> = answers[0]
            .rows
            .iter()
            .filter(|row| maps.iter().all(|m| m.contains_key(row.id())))
            .collect();
        let mut right = vec![common.iter().map(|row| row.correct).collect::<Vec<bool>>()];
        right.extend(
            maps.iter()
                .map(|m| common.iter().map(|row| m[row.id()].correct).collect()),
        );
        (common, right)
    };
    if common.is_empty() {
        bail!("{}", nothing_shared(&runs, &answers));
    }
    // Each run's metrics and answers against chance on the common questions only.
    let common_set: std::collections::HashSet<&str> = common.iter().map(|r| r.id()).collect();
    let (snapshots, chances): (Vec<_>, Vec<_>) = runs
        .iter()
        .map(|r| r.snapshot_and_chance_where(|id| common_set.contains(id)))
        .collect::<anyhow::Result<Vec<_>>>()?
        .into_iter()
        .unzip();
    let names = names(&runs);
    let summaries = runs
        .iter()
        .zip(&names)
        .zip(&answers)
        .zip(chances)
        .map(|(((r, name), a), chance)| RunSummary {
            id: r.run.id.clone(),
            name: name.clone(),
            model: r.model(),
            kg: r.kg(),
            method: r.method().into(),
            temperature: r.temperature(),
            answered: a.rows.len(),
            chance,
        })
        .collect();
    let own = crate::method::of(runs[0].manifest.config.task).metrics();
    let metrics = Metric::summary_of(own)
        .into_iter()
        .map(|m| MetricRow {
            metric: m.name().into(),
            values: snapshots.iter().map(|s| m.of(&s.overall)).collect(),
        })
        .collect();
    drop(common_set);
    let all: Vec<u32> = (0..common.len() as u32).collect();
    let mut groups = vec![group_row("overall".into(), &all, &right)];
    drop(all);
    let mut by_group: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for (i, row) in common.iter().enumerate() {
        if let Some(k) = by.key(answers[0].keys(row)) {
            by_group.entry(k).or_default().push(i as u32);
        }
    }
    let mut rows: Vec<GroupRow> = by_group
        .into_iter()
        .map(|(k, at)| group_row(k, &at, &right))
        .collect();
    rows.sort_by(|a, b| b.n.cmp(&a.n).then(a.group.cmp(&b.group)));
    groups.extend(rows);
    let test = format!(
        "McNemar's test on paired correct/incorrect outcomes (exact binomial when the discordant \
         pairs number under {}, else χ² with continuity correction); differences with \
         Newcombe's 95% interval for paired proportions",
        paired::EXACT_BELOW
    );
    Ok(Comparison {
        runs: summaries,
        common: common.len(),
        common_ids: common.iter().map(|r| r.id().to_string()).collect(),
        test,
        metrics,
        grouping: by.name(),
        groups,
    })
}

/// Run names for headers: model and temperature, with the id where two would read the same.
pub fn names<R: Borrow<LoadedRun>>(runs: &[R]) -> Vec<String> {
    let short: Vec<String> = runs.iter().map(|r| r.borrow().short_name()).collect();
    short
        .iter()
        .zip(runs.iter().map(Borrow::borrow))
        .map(|(s, r)| {
            if short.iter().filter(|o| *o == s).count() > 1 {
                format!("{s} ({})", r.run.id)
            } else {
                s.clone()
            }
        })
        .collect()
}

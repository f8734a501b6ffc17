//! What a demo round found, in words: the line a presenter would say at the end of the round.
//! Each finding is read from what the screens already computed — a run's answer habit from
//! its "why" splits (the Heatmaps pane's `⚠ says "true" to …`), the gap between two models
//! from Compare's paired differences, the worst relation from the heatmap's own ranking — so
//! the finding never says what a screen would contradict.

use crate::compare::Comparison;
use crate::metrics::Metric;
use crate::report::grid::{rankable, HeatGrid, HeatSort, HeatView};
use crate::sanitize::line;
use crate::tui::app::why::{answer_name, Why};
use crate::tui::app::RunData;

/// A round's finding: the headline first, then what else the round showed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub headline: String,
    pub more: Vec<String>,
}

impl Finding {
    /// Every line, the headline first.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.headline.as_str()).chain(self.more.iter().map(String::as_str))
    }
}

/// One run's answer habit, taken when the run ended: the model and what it said to most
/// questions (`Why::dominant_answer`: at least 80% of at least 10).
#[derive(Debug, Clone, PartialEq)]
pub struct Habit {
    pub model: String,
    pub answer: &'static str,
    pub share: f64,
}

/// The habit of a run's model, if it has one.
pub fn habit(d: &RunData) -> Option<Habit> {
    habit_of(&d.why.overall, d)
}

fn habit_of(w: &Why, d: &RunData) -> Option<Habit> {
    let (v, share) = w.dominant_answer()?;
    let words = crate::method::of(d.manifest.config.task).truth_words();
    Some(Habit {
        model: spoken_model(&d.manifest.config.model).unwrap_or_else(|| d.manifest.model_shown()),
        answer: answer_name(v, words),
        share,
    })
}

impl Habit {
    /// `⚠ MODEL says "true" to 100% of questions`: the Heatmaps pane's warning, with the model.
    pub fn describe(&self) -> String {
        format!(
            "⚠ {} says \"{}\" to {:.0}% of questions: its accuracy reflects that habit, not \
             knowledge",
            short_model(&self.model),
            self.answer,
            self.share * 100.0
        )
    }
}

/// A model as a presenter names it: a known model by its name ("gemma-3-270m"), another
/// local one by its file name, a server's by the model it serves.
fn spoken_model(spec: &crate::run::ModelSpec) -> Option<String> {
    use crate::run::ModelSpec;
    Some(match spec {
        ModelSpec::Llama { path } => match crate::backends::spec::known_model_at(path) {
            Some(known) => known.name.to_string(),
            None => line(&path.file_name()?.to_string_lossy()),
        },
        ModelSpec::Openai { model, .. } => line(model),
    })
}

/// A model's path or name as a presenter says it: the file name of a path.
fn short_model(model: &str) -> String {
    let name = model.rsplit(['/', '\\']).next().unwrap_or(model);
    line(name)
}

/// The widest gap between the compared runs over Compare's groups (the second run against
/// the baseline), with its interval; a tie for the widest is said to be one.
pub fn widest_gap(c: &Comparison) -> Option<String> {
    if c.runs.len() < 2 {
        return None;
    }
    let gaps: Vec<(&str, f64, &crate::compare::GroupRow)> = c
        .groups
        .iter()
        .filter_map(|g| {
            let d = g.vs_baseline.first()?.difference?;
            Some((g.group.as_str(), d.value, g))
        })
        .collect();
    // The groups, not "overall", when there are any: the gap a group shows is the finding.
    let groups: Vec<_> = gaps.iter().filter(|g| g.0 != "overall").collect();
    let pool: Vec<_> = if groups.is_empty() {
        gaps.iter().collect()
    } else {
        groups
    };
    let widest = pool
        .iter()
        .map(|g| round2(g.1.abs()))
        .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))?;
    let at: Vec<_> = pool
        .iter()
        .filter(|g| round2(g.1.abs()) == widest)
        .collect();
    let (a, b) = (short_model(&c.runs[0].model), short_model(&c.runs[1].model));
    if widest == 0.0 {
        return Some(format!(
            "{b} and {a} score the same in every {}",
            line(&c.grouping)
        ));
    }
    if at.len() > 1 {
        return Some(format!(
            "the widest gap between {b} and {a} is a {}-way tie: {} {}s differ by {widest:.2}",
            at.len(),
            at.len(),
            line(&c.grouping)
        ));
    }
    let (group, value, row) = at[0];
    let acc = |i: usize| {
        row.accuracy
            .get(i)
            .copied()
            .flatten()
            .map_or("–".into(), |r| format!("{:.2}", r.value))
    };
    let d = row.vs_baseline[0].difference.expect("filtered");
    let better = if *value > 0.0 { &b } else { &a };
    Some(format!(
        "widest gap: {} — {b} {} vs {a} {}: {better} ahead by {:.2} [{:+.2}, {:+.2}], n={}",
        line(group),
        acc(1),
        acc(0),
        value.abs(),
        d.lo,
        d.hi,
        row.n
    ))
}

/// The worst relation by `metric`, as the heatmap ranks it (rankable cells first); when
/// several share the worst value, a tie of that many, none of them named as the worst.
pub fn worst_relation(d: &RunData, metric: Metric) -> Option<String> {
    let g = HeatGrid::build(&d.snapshot, HeatView::Relation, metric, HeatSort::Value);
    let rates: Vec<(&String, crate::metrics::Rate)> = g
        .rows
        .iter()
        .zip(&g.stats)
        .filter_map(|(r, s)| Some((r, metric.of(s.first()?.as_ref()?)?)))
        .collect();
    let ranked: Vec<_> = rates.iter().filter(|(_, r)| rankable(r)).collect();
    let Some((name, worst)) = ranked.first() else {
        return (!rates.is_empty()).then(|| {
            format!(
                "no relation has enough answers to rank by {}: every interval is wider than {}",
                metric.name(),
                crate::report::grid::RANKABLE_WIDTH
            )
        });
    };
    let shown = |v: f64| format!("{v:.2}");
    let tied = ranked
        .iter()
        .filter(|(_, r)| shown(r.value) == shown(worst.value))
        .count();
    if tied > 1 {
        return Some(format!(
            "the worst relation is a {tied}-way tie: {tied} relations score {} {} (of {} ranked)",
            metric.name(),
            shown(worst.value),
            ranked.len()
        ));
    }
    Some(format!(
        "worst relation: {} — {} {} [{:.2}, {:.2}]",
        line(name),
        metric.name(),
        shown(worst.value),
        worst.lo,
        worst.hi
    ))
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// The round's finding, the strongest first: a model answering by habit (the one line that
/// tells a base model's story), then the widest gap between the two models, then the worst
/// relation. `None` when the round has nothing to say (no run ended).
pub fn round_finding(
    habits: &[Habit],
    comparison: Option<&Comparison>,
    last: Option<&RunData>,
    metric: Metric,
) -> Option<Finding> {
    let mut lines: Vec<String> = habits.iter().map(Habit::describe).collect();
    lines.extend(comparison.and_then(widest_gap));
    lines.extend(last.and_then(|d| worst_relation(d, metric)));
    let mut it = lines.into_iter();
    Some(Finding {
        headline: it.next()?,
        more: it.collect(),
    })
}

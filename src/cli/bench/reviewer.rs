//! `kgscope bench reviewer`: how far a question reviewer (`--review-with`) agrees with a
//! reviewed set (`tests/data/reviewed/`: questions read one by one and labelled accepted or
//! rejected with a cause), counting a rejection as the positive class.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::Args;
use kgscope::core::review::Review;
use kgscope::run::review::{self, Item};
use serde::Deserialize;

use crate::cli::openai_args::OpenAiArgs;
use crate::cli::review::ReviewArgs;

#[derive(Args)]
pub struct ReviewerBenchArgs {
    /// The reviewed set: a folder of `KG.jsonl` questions with `KG.verdicts.jsonl` verdicts,
    /// line for line.
    #[arg(long, value_name = "DIR", default_value = "tests/data/reviewed/seed41")]
    pub set: PathBuf,
    #[command(flatten)]
    pub review: ReviewArgs,
    /// Review N questions spread evenly over the set (every KG and method) [default: all].
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// llama reviewer: sequences decoded together.
    #[arg(long, default_value_t = crate::cli::review::default_parallel())]
    pub parallel: usize,
    #[command(flatten)]
    pub openai: OpenAiArgs,
    /// Print the figures (and every review) as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Deserialize)]
struct SetQuestion {
    id: String,
    task: String,
    prompt: String,
    gold: String,
    asked_triple: String,
}

#[derive(Deserialize)]
struct SetVerdict {
    id: String,
    verdict: String,
    cause: Option<String>,
}

/// One reviewed question: what the reviewer is shown, and the readers' verdict.
struct Labelled {
    id: String,
    item: Item,
    rejected: bool,
    cause: Option<String>,
}

fn read_jsonl<T: for<'de> Deserialize<'de>>(path: &Path) -> anyhow::Result<Vec<T>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).with_context(|| format!("{}:{}", path.display(), i + 1))
        })
        .collect()
}

/// Every question of the set with its verdict, KG by KG in name order.
fn read_set(dir: &Path) -> anyhow::Result<Vec<Labelled>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading the reviewed set {}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".jsonl") && !name.ends_with(".verdicts.jsonl")
        })
        .collect();
    files.sort();
    let mut out = vec![];
    for f in files {
        let verdicts_path = f.with_extension("verdicts.jsonl");
        let qs: Vec<SetQuestion> = read_jsonl(&f)?;
        let vs: Vec<SetVerdict> = read_jsonl(&verdicts_path)?;
        if qs.len() != vs.len() {
            bail!(
                "{} has {} questions but {} has {} verdicts",
                f.display(),
                qs.len(),
                verdicts_path.display(),
                vs.len()
            );
        }
        for (q, v) in qs.into_iter().zip(vs) {
            if q.id != v.id {
                bail!(
                    "{}: question {} has the verdict of {}",
                    f.display(),
                    q.id,
                    v.id
                );
            }
            out.push(Labelled {
                item: Item {
                    task: q.task,
                    question: q.prompt,
                    key: q.gold,
                    fact: q.asked_triple,
                },
                id: q.id,
                rejected: v.verdict == "reject",
                cause: v.cause,
            });
        }
    }
    if out.is_empty() {
        bail!("no questions in {}", dir.display());
    }
    Ok(out)
}

/// `n` of `items` spread evenly over them (so every KG and method has its share).
fn spread<T>(items: Vec<T>, n: usize) -> Vec<T> {
    let total = items.len();
    if n >= total {
        return items;
    }
    let keep: std::collections::HashSet<usize> = (0..n).map(|i| i * total / n).collect();
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep.contains(i))
        .map(|(_, x)| x)
        .collect()
}

/// The reviewer against the readers, a rejection being the positive class.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Agreement {
    pub n: usize,
    /// Rejected by both.
    pub both_reject: usize,
    /// Rejected by the reviewer only (false alarms).
    pub reviewer_only: usize,
    /// Rejected by the readers only (missed).
    pub readers_only: usize,
    pub both_accept: usize,
}

impl Agreement {
    pub fn add(&mut self, readers_reject: bool, reviewer_reject: bool) {
        self.n += 1;
        match (readers_reject, reviewer_reject) {
            (true, true) => self.both_reject += 1,
            (false, true) => self.reviewer_only += 1,
            (true, false) => self.readers_only += 1,
            (false, false) => self.both_accept += 1,
        }
    }

    pub fn agreement(&self) -> f64 {
        (self.both_reject + self.both_accept) as f64 / self.n.max(1) as f64
    }

    /// Cohen's kappa: agreement beyond what the two sides' reject rates give by chance;
    /// `None` when chance agreement is total (one side always says the same).
    pub fn kappa(&self) -> Option<f64> {
        let n = self.n as f64;
        if self.n == 0 {
            return None;
        }
        let readers_reject = (self.both_reject + self.readers_only) as f64 / n;
        let reviewer_reject = (self.both_reject + self.reviewer_only) as f64 / n;
        let chance =
            readers_reject * reviewer_reject + (1.0 - readers_reject) * (1.0 - reviewer_reject);
        (chance < 1.0).then(|| (self.agreement() - chance) / (1.0 - chance))
    }

    /// Share of the readers' rejections the reviewer rejected too.
    pub fn recall(&self) -> Option<f64> {
        let r = self.both_reject + self.readers_only;
        (r > 0).then(|| self.both_reject as f64 / r as f64)
    }

    /// Share of the readers' accepted questions the reviewer rejected.
    pub fn false_alarms(&self) -> Option<f64> {
        let a = self.both_accept + self.reviewer_only;
        (a > 0).then(|| self.reviewer_only as f64 / a as f64)
    }
}

pub fn run(a: ReviewerBenchArgs) -> anyhow::Result<ExitCode> {
    let Some(spec) = a.review.spec(&a.openai)? else {
        bail!("give the reviewer to measure with --review-with MODEL");
    };
    let mut set = read_set(&a.set)?;
    if let Some(n) = a.limit {
        set = spread(set, n.max(1));
    }
    let reviewer = crate::cli::review::start(&spec, a.parallel.max(1))?;
    let items: Vec<(String, Item)> = set.iter().map(|l| (l.id.clone(), l.item.clone())).collect();
    let rt = tokio::runtime::Runtime::new()?;
    let bar = std::sync::Arc::new(crate::cli::progress::counter(
        Some(items.len() as u64),
        "reviewed",
    ));
    let b = bar.clone();
    let started = Instant::now();
    let reviews: Vec<Review> = rt
        .block_on(reviewer.review_all(&items, &move |n| b.set_position(n as u64)))
        .map_err(|e| anyhow::anyhow!("the reviewer cannot answer: {e}"))?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let mut all = Agreement::default();
    // Per cause: (caught, of).
    let mut causes: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut by_task: BTreeMap<String, Agreement> = BTreeMap::new();
    for (l, r) in set.iter().zip(&reviews) {
        all.add(l.rejected, !r.accept);
        by_task
            .entry(l.item.task.clone())
            .or_default()
            .add(l.rejected, !r.accept);
        if l.rejected {
            let c = causes
                .entry(l.cause.clone().unwrap_or_else(|| "other".into()))
                .or_default();
            c.0 += usize::from(!r.accept);
            c.1 += 1;
        }
    }
    let tally = review::Tally::of(&reviews);
    let model = review::short_model(reviewer.model()).to_string();
    if a.json {
        let out = serde_json::json!({
            "set": a.set,
            "reviewer": model,
            "n": all.n,
            "counts": all,
            "agreement": all.agreement(),
            "kappa": all.kappa(),
            "recall_on_rejected": all.recall(),
            "false_alarm_rate": all.false_alarms(),
            "unreadable": tally.unreadable,
            "per_cause": causes.iter().map(|(k, (c, of))| (k.clone(), serde_json::json!({"caught": c, "of": of}))).collect::<serde_json::Map<_, _>>(),
            "per_method": by_task,
            "seconds": secs,
            "reviews": set.iter().zip(&reviews).map(|(l, r)| serde_json::json!({
                "id": l.id, "readers": if l.rejected { "reject" } else { "accept" },
                "cause": l.cause, "reviewer": if r.accept { "accept" } else { "reject" },
                "reason": r.reason, "unreadable": r.unreadable,
            })).collect::<Vec<_>>(),
        });
        println!("{}", kgscope::sanitize::json_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    let pct = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{:.1}%", 100.0 * v));
    println!(
        "reviewer {} on {}: {} questions, {} rejected by the readers, {} by the reviewer",
        kgscope::sanitize::line(&model),
        a.set.display(),
        all.n,
        all.both_reject + all.readers_only,
        all.both_reject + all.reviewer_only
    );
    println!(
        "  agreement {}, Cohen's kappa {}",
        pct(Some(all.agreement())),
        all.kappa().map_or("–".into(), |k| format!("{k:.3}"))
    );
    println!(
        "  recall on rejected questions    {} of {} ({})",
        all.both_reject,
        all.both_reject + all.readers_only,
        pct(all.recall())
    );
    println!(
        "  false alarms on accepted ones   {} of {} ({})",
        all.reviewer_only,
        all.both_accept + all.reviewer_only,
        pct(all.false_alarms())
    );
    println!(
        "  unreadable reviews (kept)       {} of {}",
        tally.unreadable, tally.reviewed
    );
    println!("  caught per cause:");
    for (cause, (c, of)) in &causes {
        println!("    {cause:<18} {c} of {of}");
    }
    println!("  per method (agreement, kappa):");
    for (task, g) in &by_task {
        println!(
            "    {task:<12} {} of {} ({}), kappa {}",
            g.both_reject + g.both_accept,
            g.n,
            pct(Some(g.agreement())),
            g.kappa().map_or("–".into(), |k| format!("{k:.3}"))
        );
    }
    println!(
        "  {:.1} s, {:.2} questions/s",
        secs,
        all.n as f64 / secs.max(1e-3)
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kappa_recall_and_false_alarms_of_a_confusion() {
        let mut a = Agreement::default();
        // 20 rejected by the readers (15 caught), 80 accepted (10 flagged).
        for i in 0..100 {
            let readers = i < 20;
            let reviewer = if readers { i < 15 } else { i < 30 };
            a.add(readers, reviewer);
        }
        assert_eq!(a.agreement(), 0.85);
        assert_eq!(a.recall(), Some(0.75));
        assert_eq!(a.false_alarms(), Some(0.125));
        // chance = 0.2*0.25 + 0.8*0.75 = 0.65; kappa = (0.85-0.65)/0.35
        assert!((a.kappa().unwrap() - 0.2 / 0.35).abs() < 1e-9);
        // A reviewer that accepts everything agrees by chance only.
        let mut all_accept = Agreement::default();
        all_accept.add(true, false);
        all_accept.add(false, false);
        assert_eq!(all_accept.kappa(), Some(0.0));
    }

    #[test]
    fn a_spread_sample_reaches_the_end_of_the_set() {
        let s = spread((0..10).collect(), 3);
        assert_eq!(s, vec![0, 3, 6]);
        assert_eq!(spread((0..3).collect::<Vec<_>>(), 5).len(), 3);
    }
}

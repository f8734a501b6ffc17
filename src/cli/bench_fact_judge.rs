//! `kgscope bench fact-judge`: KGHaluBench's fact judge on a hand-labelled table — facts a
//! second, agreement with the labels per class, and how often its word could not be read —
//! against the first stage (the object named in the answer) on the same rows, which can only
//! ever confirm "stated".

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::Args;

use kgscope::backends::Request;
use kgscope::method::kghalubench::judge::{self, FactVerdict};

use super::openai_args::OpenAiArgs;

#[derive(Args)]
pub struct FactJudgeBenchArgs {
    /// The labelled table (label, fact, its object, answer; tab-separated, `#` comments).
    #[arg(
        long,
        value_name = "FILE",
        default_value = "tests/data/halu_fact_judgements.tsv"
    )]
    pub table: PathBuf,
    /// The judge: `default`, a .gguf path or openai:MODEL (at --base-url).
    #[arg(long, value_name = "MODEL", default_value = "default")]
    pub judge: String,
    /// Judge calls in flight at once.
    #[arg(long, default_value_t = 4)]
    pub concurrency: usize,
    #[command(flatten)]
    pub openai: OpenAiArgs,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

fn label(s: &str) -> Option<FactVerdict> {
    match s {
        "stated" => Some(FactVerdict::Stated),
        "contradicted" => Some(FactVerdict::Contradicted),
        "not_mentioned" => Some(FactVerdict::NotMentioned),
        _ => None,
    }
}

pub fn run(a: FactJudgeBenchArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&a.table)
        .with_context(|| format!("reading {}", a.table.display()))?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let (Some(l), [_, fact, object, answer]) = (label(cols[0]), cols.as_slice()) else {
            anyhow::bail!(
                "{}:{}: expected label<TAB>fact<TAB>object<TAB>answer with a label stated, \
                 contradicted or not_mentioned",
                a.table.display(),
                i + 1
            );
        };
        rows.push((l, fact.to_string(), object.to_string(), answer.to_string()));
    }
    anyhow::ensure!(!rows.is_empty(), "{} holds no rows", a.table.display());
    let spec = a.openai.model_spec(&a.judge).context("--judge")?;
    kgscope::run::driver::ensure_model(&spec, &|m| eprintln!("{m}")).map_err(anyhow::Error::msg)?;
    let backend =
        kgscope::backends::from_spec(&spec, a.concurrency.max(1), a.concurrency.max(1), None)
            .with_context(|| format!("starting the judge {}", spec.describe()))?;
    let rt = tokio::runtime::Runtime::new()?;
    let t = Instant::now();
    let outputs: Vec<Option<FactVerdict>> = rt.block_on(async {
        use futures::StreamExt;
        futures::stream::iter(rows.iter().enumerate().map(|(i, (_, fact, _, answer))| {
            let backend = backend.clone();
            async move {
                let req = Request {
                    id: format!("fact-judge:{i}"),
                    prompt: judge::prompt(fact, answer),
                    params: kgscope::run::judge::judge_params(),
                };
                match kgscope::backends::complete(backend.as_ref(), req).await? {
                    Ok(out) => anyhow::Ok(judge::read(&out)),
                    Err(_) => anyhow::Ok(None),
                }
            }
        }))
        .buffered(a.concurrency.max(1))
        .collect::<Vec<_>>()
        .await
        .into_iter()
        .collect::<anyhow::Result<Vec<_>>>()
    })?;
    let judge_s = t.elapsed().as_secs_f64();
    let n = rows.len();
    let agree = rows
        .iter()
        .zip(&outputs)
        .filter(|((l, ..), o)| **o == Some(*l))
        .count();
    let unread = outputs.iter().filter(|o| o.is_none()).count();
    let per_class = |c: FactVerdict| {
        let of: Vec<_> = rows
            .iter()
            .zip(&outputs)
            .filter(|((l, ..), _)| *l == c)
            .collect();
        (of.iter().filter(|(_, o)| **o == Some(c)).count(), of.len())
    };
    // The first stage on the same rows: it confirms "stated" when the fact's object is
    // named, and says nothing otherwise.
    let t = Instant::now();
    let confirmed: Vec<bool> = rows
        .iter()
        .map(|(_, _, object, answer)| {
            kgscope::method::kghalubench::facts::states(answer, &[object.as_str()])
        })
        .collect();
    let first_s = t.elapsed().as_secs_f64().max(1e-9);
    let first_right = rows
        .iter()
        .zip(&confirmed)
        .filter(|((l, ..), c)| **c && *l == FactVerdict::Stated)
        .count();
    let first_wrong = confirmed.iter().filter(|c| **c).count() - first_right;
    let out = serde_json::json!({
        "judge": spec.describe(),
        "facts": n,
        "judge_facts_per_s": n as f64 / judge_s,
        "judge_agreement": agree as f64 / n as f64,
        "judge_unreadable": unread,
        "stated": per_class(FactVerdict::Stated),
        "contradicted": per_class(FactVerdict::Contradicted),
        "not_mentioned": per_class(FactVerdict::NotMentioned),
        "first_stage_confirmed": first_right + first_wrong,
        "first_stage_confirmed_wrongly": first_wrong,
        "first_stage_facts_per_s": n as f64 / first_s,
    });
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        let (s, sn) = per_class(FactVerdict::Stated);
        let (c, cn) = per_class(FactVerdict::Contradicted);
        let (m, mn) = per_class(FactVerdict::NotMentioned);
        println!(
            "fact judge {}: {agree} of {n} agree with the labels (stated {s}/{sn}, contradicted {c}/{cn}, \
             not mentioned {m}/{mn}; {unread} unreadable), {:.2} facts/s",
            spec.describe(),
            n as f64 / judge_s
        );
        println!(
            "first stage (object named): {} confirmed as stated, {first_wrong} of them wrongly",
            first_right + first_wrong
        );
    }
    Ok(ExitCode::SUCCESS)
}

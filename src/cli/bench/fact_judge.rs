//! `kgscope bench fact-judge`: KGHaluBench's fact judge on a hand-labelled table — facts a
//! second, agreement with the labels per class, and how often its word could not be read —
//! against the first stage (the object named in the answer) on the same rows, which can only
//! ever confirm "stated", the expert stage's reading, and the chain they make together.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use clap::Args;

use kgscope::backends::Request;
use kgscope::method::kghalubench::judge::{self, FactVerdict};

use crate::cli::openai_args::OpenAiArgs;

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
    // Every row asked of the judge with `prompt_of`, `concurrency` at a time: its outputs,
    // in row order ("" for a failed call).
    let ask_all = |prompt_of: &dyn Fn(&str, &str, &str) -> kgscope::backends::Prompt,
                   max_tokens: u32|
     -> anyhow::Result<Vec<String>> {
        let prompts: Vec<_> = rows
            .iter()
            .map(|(_, fact, object, answer)| prompt_of(fact, object, answer))
            .collect();
        rt.block_on(async {
            use futures::StreamExt;
            futures::stream::iter(prompts.into_iter().enumerate().map(|(i, prompt)| {
                let backend = backend.clone();
                let mut params = kgscope::method::judge::judge_params();
                params.max_tokens = max_tokens;
                async move {
                    let req = Request {
                        id: format!("fact-judge:{i}"),
                        prompt,
                        params,
                    };
                    anyhow::Ok(
                        kgscope::backends::complete(backend.as_ref(), req)
                            .await?
                            .unwrap_or_default(),
                    )
                }
            }))
            .buffered(a.concurrency.max(1))
            .collect::<Vec<_>>()
            .await
            .into_iter()
            .collect()
        })
    };
    let t = Instant::now();
    let outputs: Vec<Option<FactVerdict>> =
        ask_all(&|fact, _, answer| judge::prompt(fact, answer), 8)?
            .iter()
            .map(|o| judge::read(o))
            .collect();
    let judge_s = t.elapsed().as_secs_f64();
    let n = rows.len();
    let agree = rows
        .iter()
        .zip(&outputs)
        .filter(|((l, ..), o)| **o == Some(*l))
        .count();
    // What the points rest on: stated or not (a contradicted fact and an unmentioned one
    // both earn nothing).
    let points_agree = rows
        .iter()
        .zip(&outputs)
        .filter(|((l, ..), o)| o.is_some_and(|o| o.is_stated() == l.is_stated()))
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
    // The expert stage's reading: the fact's sentence with its object hidden, filled from the
    // answer.
    let t = Instant::now();
    let readings: Vec<FactVerdict> = ask_all(
        &|fact, object, answer| judge::reader_prompt(&fact.replacen(object, "___", 1), answer),
        16,
    )?
    .iter()
    .zip(&rows)
    .map(|(o, (_, _, object, answer))| judge::verdict_of_reading(o, answer, &[object.as_str()]))
    .collect();
    let reading_s = t.elapsed().as_secs_f64();
    let reading_agree = rows
        .iter()
        .zip(&readings)
        .filter(|((l, ..), r)| r.is_stated() == l.is_stated())
        .count();
    let first_right = rows
        .iter()
        .zip(&confirmed)
        .filter(|((l, ..), c)| **c && *l == FactVerdict::Stated)
        .count();
    let first_wrong = confirmed.iter().filter(|c| **c).count() - first_right;
    // The chain as a run has it: the first stage's "stated"; else the judge's word, and where
    // it says "stated" the expert stage's reading, scored as the points are: stated or not.
    let chain_agree = rows
        .iter()
        .zip(confirmed.iter().zip(outputs.iter().zip(&readings)))
        .filter(|((l, ..), (c, (o, r)))| {
            // The expert (the reading) decides where the judge says "stated" or cannot be read.
            let stated = **c || (o.is_none_or(|o| o.is_stated()) && r.is_stated());
            stated == l.is_stated()
        })
        .count();
    let out = serde_json::json!({
        "judge": spec.describe(),
        "facts": n,
        "judge_facts_per_s": n as f64 / judge_s,
        "judge_agreement": agree as f64 / n as f64,
        "judge_points_agreement": points_agree as f64 / n as f64,
        "judge_unreadable": unread,
        "stated": per_class(FactVerdict::Stated),
        "contradicted": per_class(FactVerdict::Contradicted),
        "not_mentioned": per_class(FactVerdict::NotMentioned),
        "first_stage_confirmed": first_right + first_wrong,
        "first_stage_confirmed_wrongly": first_wrong,
        "first_stage_facts_per_s": n as f64 / first_s,
        "reading_points_agreement": reading_agree as f64 / n as f64,
        "reading_facts_per_s": n as f64 / reading_s,
        "chain_points_agreement": chain_agree as f64 / n as f64,
    });
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        let (s, sn) = per_class(FactVerdict::Stated);
        let (c, cn) = per_class(FactVerdict::Contradicted);
        let (m, mn) = per_class(FactVerdict::NotMentioned);
        println!(
            "fact judge {}: {agree} of {n} agree with the labels (stated {s}/{sn}, contradicted {c}/{cn}, \
             not mentioned {m}/{mn}; {unread} unreadable); stated or not, as the points \
             count: {points_agree} of {n}; {:.2} facts/s",
            spec.describe(),
            n as f64 / judge_s
        );
        println!(
            "first stage (object named): {} confirmed as stated, {first_wrong} of them wrongly; \
             {:.0} facts/s",
            first_right + first_wrong,
            n as f64 / first_s
        );
        println!(
            "expert stage's reading (value filled from the answer): stated or not right for \
             {reading_agree} of {n}; {:.2} facts/s",
            n as f64 / reading_s
        );
        println!(
            "the chain (first stage, judge, expert where the judge says stated): stated or not \
             right for {chain_agree} of {n}"
        );
    }
    Ok(ExitCode::SUCCESS)
}

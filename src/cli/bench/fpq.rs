//! `kgscope bench fpq`: how fast KG-FPQ's six edits are drawn, against building the KG's
//! index in the same command. Facts are taken in a seeded order, not the index's (which
//! groups each subject's facts), so the neighbourhood cache only helps as much as it would in
//! a sampled question set: once per fact's six edits, and for subjects drawn again.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use kgscope::kg::index::Fact;
use kgscope::kg::KgIndex;
use kgscope::method::kgfpq::edits::{Edit, Editor};
use kgscope::sampling;

#[derive(Args)]
pub struct FpqBenchArgs {
    /// The KG: sample:NAME, an RDF file, a store directory or a SPARQL endpoint URL.
    #[arg(long, default_value = "sample:countries")]
    pub kg: String,
    /// Edits to draw: (fact, edit) pairs, cycling over the facts with an entity object and,
    /// for each fact, over the edits.
    #[arg(long, default_value_t = 10_000)]
    pub edits: usize,
    /// Only these edits (repeat the flag, or separate with commas) [default: all six].
    #[arg(long, value_enum, ignore_case = true, value_delimiter = ',')]
    pub edit: Vec<Edit>,
    /// How far a neighbour of the subject may be, in facts (KG-FPQ's bound is 5).
    #[arg(long, default_value_t = 5)]
    pub max_hops: u8,
    /// Seed of the fact order and of the draws.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Times each of the two measurements is taken; the median is reported.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    made: usize,
    none: usize,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// One pass: a fresh editor (cold cache) drawing `n` edits over `facts`.
fn draw_all(
    index: &KgIndex,
    facts: &[Fact],
    edits: &[Edit],
    n: usize,
    a: &FpqBenchArgs,
) -> BTreeMap<Edit, Tally> {
    let mut editor = Editor::new(index, a.max_hops);
    let mut rng = sampling::rng(a.seed);
    let mut tally: BTreeMap<Edit, Tally> = edits.iter().map(|e| (*e, Tally::default())).collect();
    for i in 0..n {
        let fact = &facts[(i / edits.len()) % facts.len()];
        let edit = edits[i % edits.len()];
        let t = tally.entry(edit).or_default();
        match editor.edit(fact, edit, &mut rng) {
            Some(_) => t.made += 1,
            None => t.none += 1,
        }
    }
    tally
}

pub fn run(a: FpqBenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(a.rounds > 0, "--rounds must be at least 1");
    let kg = kgscope::kg::open(&a.kg)?;
    let edits: Vec<Edit> = if a.edit.is_empty() {
        Edit::ALL.to_vec()
    } else {
        let mut e = a.edit.clone();
        e.sort();
        e.dedup();
        e
    };

    // Baseline: building the index the edits are drawn from.
    let mut index_times = Vec::new();
    let mut index = None;
    for _ in 0..a.rounds {
        let t = Instant::now();
        index = Some(KgIndex::build(kg.as_ref(), &|_| {})?);
        index_times.push(t.elapsed().as_secs_f64());
    }
    let index = index.expect("at least one round");
    let index_s = median(index_times);

    let editable: Vec<Fact> = index
        .facts()
        .iter()
        .copied()
        .filter(|f| index.term(f[2]).is_named_node())
        .collect();
    anyhow::ensure!(
        !editable.is_empty(),
        "{}: no fact has an entity object, so there is nothing to edit",
        a.kg
    );
    let facts = sampling::uniform(
        &editable,
        editable.len(),
        &mut sampling::rng(a.seed ^ 0x5eed),
    );

    let mut edit_times = Vec::new();
    let mut tally = BTreeMap::new();
    for _ in 0..a.rounds {
        let t = Instant::now();
        tally = draw_all(&index, &facts, &edits, a.edits, &a);
        edit_times.push(t.elapsed().as_secs_f64());
    }
    let edit_s = median(edit_times);
    let made: usize = tally.values().map(|t| t.made).sum();
    let per_s = a.edits as f64 / edit_s;
    let ratio = edit_s / index_s;

    if a.json {
        let per_edit: serde_json::Map<String, serde_json::Value> = tally
            .iter()
            .map(|(e, t)| {
                (
                    e.as_str().to_string(),
                    serde_json::json!({"made": t.made, "none": t.none}),
                )
            })
            .collect();
        let out = serde_json::json!({
            "kg": a.kg,
            "facts": index.facts().len(),
            "facts_with_entity_object": editable.len(),
            "max_hops": a.max_hops,
            "rounds": a.rounds,
            "index_build_s": index_s,
            "edits": a.edits,
            "edits_made": made,
            "edit_s": edit_s,
            "edits_per_s": per_s,
            "edit_time_vs_index_build_ratio": ratio,
            "per_edit": per_edit,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: {} facts, {} with an entity object; neighbours within {} hops; median of {} round(s)",
        a.kg,
        index.facts().len(),
        editable.len(),
        a.max_hops,
        a.rounds
    );
    println!("{:<24}{index_s:>9.3} s", "index build (baseline):");
    println!(
        "{:<24}{edit_s:>9.3} s  {per_s:>10.0} edits/s  ({ratio:.2}× the index build time; {made} made)",
        format!("{} edits:", a.edits)
    );
    println!("  edit   made   none");
    for (e, t) in &tally {
        println!("  {:<5} {:>5}  {:>5}", e.as_str(), t.made, t.none);
    }
    Ok(ExitCode::SUCCESS)
}

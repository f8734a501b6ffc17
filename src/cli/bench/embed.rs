//! `kgscope bench embed`: throughput of KGHaluBench's checks on the CPU, on the same answers
//! in the same process: the entity-level similarity with its embeddings (all-MiniLM-L6-v2
//! through candle), against its lexical half alone (the token-set ratio); and the fact
//! check's first stage (is the object named in the answer), in facts a second.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use kgscope::backends::spec::default_embedder_dir as default_dir;
use kgscope::method::kghalubench::facts::states;
use kgscope::method::kghalubench::similarity::{cosine, entity_similarity, token_set_ratio};
use kgscope::verify::embed::Embedder;

#[derive(Args)]
pub struct EmbedBenchArgs {
    /// Answer/description pairs to score.
    #[arg(long, default_value_t = 256)]
    pub pairs: usize,
    /// Texts embedded together.
    #[arg(long, default_value_t = 32)]
    pub batch: usize,
    /// The embedding model's folder [default: the one `kgscope model fetch --embedder` installs].
    #[arg(long)]
    pub embed_model: Option<PathBuf>,
    /// Print the figures as JSON.
    #[arg(long)]
    pub json: bool,
}

/// An answer of about 60 words and a description of about 15, different for each pair.
fn pair(i: usize) -> (String, String) {
    let answer = format!(
        "Entity {i} is a city in the north of region {r}, founded in {y}. It is known for its \
         river port, a cathedral built in the {c}th century and a university with {u} students. \
         Its population is about {p} and it is the seat of district {d}. Notable people born \
         there include writer number {w} and the painter of series {s}.",
        r = i % 17,
        y = 1100 + i % 800,
        c = 11 + i % 8,
        u = 1000 + 37 * i,
        p = 20_000 + 911 * i,
        d = i % 41,
        w = i % 23,
        s = i % 13
    );
    let description = format!(
        "city in region {} and seat of district {}, with a river port and a university",
        i % 17,
        i % 41
    );
    (answer, description)
}

pub fn run(a: EmbedBenchArgs) -> anyhow::Result<ExitCode> {
    let dir = a.embed_model.clone().unwrap_or_else(default_dir);
    let embedder = Embedder::load(&dir)?;
    let pairs: Vec<(String, String)> = (0..a.pairs.max(1)).map(pair).collect();
    // Baseline: the token-set ratio of every pair.
    let t = Instant::now();
    let ratios: Vec<f64> = pairs.iter().map(|(x, d)| token_set_ratio(x, d)).collect();
    let ratio_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut scores = Vec::with_capacity(pairs.len());
    for (chunk, ratios) in pairs
        .chunks(a.batch.max(1))
        .zip(ratios.chunks(a.batch.max(1)))
    {
        let texts: Vec<&str> = chunk
            .iter()
            .flat_map(|(x, d)| [x.as_str(), d.as_str()])
            .collect();
        let v = embedder.embed(&texts)?;
        for (k, r) in ratios.iter().enumerate() {
            scores.push(entity_similarity(cosine(&v[2 * k], &v[2 * k + 1]), *r));
        }
    }
    let embed_s = t.elapsed().as_secs_f64();
    let n = pairs.len() as f64;
    // The fact check's first stage: three objects an answer, one of them not in it.
    let t = Instant::now();
    let mut found = 0usize;
    for (i, (answer, _)) in pairs.iter().enumerate() {
        let objects = [
            format!("region {}", i % 17),
            format!("{}", 20_000 + 911 * i),
            format!("painter {i}"),
        ];
        found += objects
            .iter()
            .filter(|o| states(answer, &[o.as_str()]))
            .count();
    }
    let facts_s = t.elapsed().as_secs_f64();
    let mean = scores.iter().sum::<f64>() / n;
    let out = serde_json::json!({
        "pairs": pairs.len(),
        "batch": a.batch,
        "pairs_per_s_with_embeddings": n / embed_s,
        "pairs_per_s_token_set_ratio_only": n / ratio_s,
        "embedding_vs_ratio_time": embed_s / ratio_s,
        "facts_per_s_first_stage": 3.0 * n / facts_s,
        "facts_found": found,
        "mean_similarity": mean,
    });
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "entity-level check, {} answer/description pairs: {:.1} pairs/s with embeddings (batches of {}); \
             the token-set ratio alone {:.0} pairs/s ({:.0}× faster); mean similarity {:.3}",
            pairs.len(),
            n / embed_s,
            a.batch,
            n / ratio_s,
            embed_s / ratio_s,
            mean
        );
        println!(
            "fact check, first stage: {:.0} facts/s ({found} of {} found)",
            3.0 * n / facts_s,
            3 * pairs.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

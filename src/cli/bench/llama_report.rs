//! What `kgscope bench llama` found, as a table or as JSON: each run's statements/s and its
//! worker's time split per step, llama.cpp's ceiling, the weights' bound, and the ratios
//! between them (one list, so the table and the JSON say the same).

use std::path::Path;
use std::time::Duration;

use anyhow::bail;
use kgscope::backends::llama;

use super::batched::BatchedRow;

pub(super) const GENERATE: &str = "kgscope generate";
pub(super) const GENERATE_LIBRARY: &str = "kgscope generate (library sampler)";
pub(super) const GENERATE_DEVICE: &str = "kgscope generate (device sampler)";
pub(super) const LIKELIHOOD: &str = "kgscope likelihood";
pub(super) const SERVER: &str = "llama-server";

/// One measured configuration.
pub(super) struct Measure {
    /// kgscope-generate, kgscope-likelihood or llama-server.
    pub side: &'static str,
    pub parallel: usize,
    pub questions: usize,
    pub seconds: f64,
    pub completion_tokens: u64,
    /// Right answers (by the statement rules), to show that both sides did the same work.
    pub correct: usize,
    /// Where kgscope's worker spent the measured stretch (not for llama-server).
    pub split: Option<llama::StepTimes>,
}

impl Measure {
    pub fn qps(&self) -> f64 {
        self.questions as f64 / self.seconds
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "side": self.side,
            "parallel": self.parallel,
            "questions": self.questions,
            "seconds": self.seconds,
            "questions_per_s": self.qps(),
            "completion_tokens": self.completion_tokens,
            "completion_tokens_per_s": self.completion_tokens as f64 / self.seconds,
            "correct": self.correct,
            "split": self.split.as_ref().map(split_json),
        })
    }
}

/// A run's split as JSON: milliseconds per phase, the counts, and the per-step means.
fn split_json(t: &llama::StepTimes) -> serde_json::Value {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let per_step = |x: f64| x / t.steps.max(1) as f64;
    let phases: serde_json::Map<String, serde_json::Value> = t
        .phases()
        .iter()
        .map(|(name, d)| (name.to_string(), ms(*d).into()))
        .collect();
    serde_json::json!({
        "ms": phases,
        "steps": t.steps,
        "prompt_steps": t.prompt_steps,
        "prompt_tokens": t.prompt_tokens,
        "generated_tokens": t.generated_tokens,
        "outputs": t.outputs,
        "mean_sequences_per_step": per_step(t.slot_steps as f64),
        "mean_tokens_per_step": per_step((t.prompt_tokens + t.generated_tokens) as f64),
        "busy_ms_per_step": per_step(ms(t.busy())),
    })
}

/// The speed that reading every weight once per forward pass allows: a decode step of any
/// number of sequences reads the whole model, so `parallel` answers of `n` tokens take at least
/// `n` passes, and `parallel` statements scored by likelihood at least one.
pub(super) struct WeightBound {
    bytes: u64,
    gb_per_s: f64,
}

impl WeightBound {
    pub fn new(path: &Path, gb_per_s: f64) -> anyhow::Result<Self> {
        if !(gb_per_s > 0.0) {
            bail!("--mem-bandwidth must be above 0 GB/s");
        }
        Ok(Self {
            bytes: std::fs::metadata(path)?.len(),
            gb_per_s,
        })
    }
    fn pass_s(&self) -> f64 {
        self.bytes as f64 / (self.gb_per_s * 1e9)
    }
    fn generate_per_s(&self, parallel: usize, tokens: u32) -> f64 {
        parallel as f64 / (self.pass_s() * (tokens.max(1) as f64 + 1.0))
    }
    fn likelihood_per_s(&self, parallel: usize) -> f64 {
        parallel as f64 / self.pass_s()
    }
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "model_bytes": self.bytes,
            "gb_per_s": self.gb_per_s,
            "pass_ms": self.pass_s() * 1000.0,
        })
    }
}

/// The worker's split per run: milliseconds per step in each phase and its share of the wall
/// time, the batch's mean fill and tokens per step.
fn print_splits(measures: &[Measure]) {
    let with: Vec<_> = measures
        .iter()
        .filter_map(|m| Some((m, m.split.as_ref()?)))
        .collect();
    if with.is_empty() {
        return;
    }
    println!("where kgscope's worker spent the time (ms per step, share of the run's wall time):");
    for (m, t) in with {
        let steps = t.steps.max(1) as f64;
        let wall = m.seconds * 1000.0;
        let phases: Vec<String> = t
            .phases()
            .iter()
            .map(|(name, d)| {
                let ms = d.as_secs_f64() * 1000.0;
                format!("{name} {:.2} ({:.0}%)", ms / steps, 100.0 * ms / wall)
            })
            .collect();
        println!(
            "  {} --parallel {}: {} steps, {:.1} sequences and {:.1} tokens per step; {}",
            m.side,
            m.parallel,
            t.steps,
            t.slot_steps as f64 / steps,
            (t.prompt_tokens + t.generated_tokens) as f64 / steps,
            phases.join(", ")
        );
    }
    println!();
}

/// Every measure of one command, with what they are compared with.
pub(super) struct Findings {
    pub measures: Vec<Measure>,
    pub ceiling: Vec<BatchedRow>,
    pub bound: Option<WeightBound>,
    pub parallels: Vec<usize>,
    pub max_tokens: u32,
}

impl Findings {
    fn qps(&self, side: &str, p: usize) -> Option<f64> {
        self.measures
            .iter()
            .find(|m| m.side == side && m.parallel == p)
            .map(Measure::qps)
    }

    /// The ratios for `--parallel p`: (JSON key, words in the table, value when both sides
    /// were measured).
    fn ratios(&self, p: usize) -> Vec<(&'static str, String, Option<f64>)> {
        let ratio = |a: Option<f64>, b: Option<f64>| Some(a? / b?);
        let row = self.ceiling.iter().find(|r| r.pl == p);
        let first = self.parallels[0];
        vec![
            (
                "likelihood_vs_generate",
                "likelihood vs generate".into(),
                ratio(self.qps(LIKELIHOOD, p), self.qps(GENERATE, p)),
            ),
            (
                "kgscope_vs_server",
                "kgscope vs llama-server".into(),
                ratio(self.qps(GENERATE, p), self.qps(SERVER, p)),
            ),
            (
                "argmax_vs_library_sampler",
                "argmax vs library sampler".into(),
                ratio(self.qps(GENERATE, p), self.qps(GENERATE_LIBRARY, p)),
            ),
            (
                "device_vs_argmax",
                "device vs argmax sampler".into(),
                ratio(self.qps(GENERATE_DEVICE, p), self.qps(GENERATE, p)),
            ),
            (
                "generate_vs_ceiling",
                "generate vs llama.cpp's ceiling".into(),
                ratio(self.qps(GENERATE, p), row.map(BatchedRow::generate_per_s)),
            ),
            (
                "likelihood_vs_ceiling",
                "likelihood vs its prompt-only ceiling".into(),
                ratio(self.qps(LIKELIHOOD, p), row.map(BatchedRow::prompt_per_s)),
            ),
            (
                "generate_bound",
                "weights' bound generating (q/s)".into(),
                self.bound
                    .as_ref()
                    .map(|b| b.generate_per_s(p, self.max_tokens)),
            ),
            (
                "likelihood_bound",
                "weights' bound scoring (q/s)".into(),
                self.bound.as_ref().map(|b| b.likelihood_per_s(p)),
            ),
            (
                "vs_first_parallel",
                format!("generate vs --parallel {first}"),
                ratio(self.qps(GENERATE, p), self.qps(GENERATE, first)),
            ),
        ]
    }

    pub fn ratios_json(&self) -> Vec<serde_json::Value> {
        self.parallels
            .iter()
            .map(|&p| {
                let mut o = serde_json::Map::new();
                o.insert("parallel".into(), p.into());
                for (key, _, v) in self.ratios(p) {
                    o.insert(key.into(), v.into());
                }
                serde_json::Value::Object(o)
            })
            .collect()
    }

    /// The table, the ceiling's rows, each run's split and the ratios.
    pub fn print(&self) {
        println!(
            "{:<34} {:>8} {:>12} {:>10} {:>9} {:>8}",
            "", "parallel", "questions/s", "tokens/s", "correct", "seconds"
        );
        for m in &self.measures {
            println!(
                "{:<34} {:>8} {:>12.2} {:>10.1} {:>9} {:>8.1}",
                m.side,
                m.parallel,
                m.qps(),
                m.completion_tokens as f64 / m.seconds,
                format!("{}/{}", m.correct, m.questions),
                m.seconds
            );
        }
        for r in &self.ceiling {
            println!(
                "{:<34} {:>8} {:>12.2} (generate; prompt alone {:.2}) llama-batched-bench, {} + {} tokens",
                "llama.cpp ceiling",
                r.pl,
                r.generate_per_s(),
                r.prompt_per_s(),
                r.pp,
                r.tg
            );
        }
        println!();
        print_splits(&self.measures);
        for &p in &self.parallels {
            let parts: Vec<String> = self
                .ratios(p)
                .into_iter()
                .filter_map(|(_, words, v)| Some(format!("{words} {:.2}", v?)))
                .collect();
            println!("--parallel {p}: {}", parts.join("; "));
        }
    }
}

//! llama.cpp's own ceiling for `kgscope bench llama`: `llama-batched-bench` on the same model,
//! build and settings, with as many sequences as kgscope decodes together, each with a prompt
//! as long as a statement's own tokens and an answer as long as kgscope's. Its prompt phase is
//! what likelihood scoring does (one forward pass over each statement), prompt and generation
//! together what generating does; so every kgscope figure is a fraction of what llama.cpp
//! itself reaches on the same work.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context};

/// One row of `llama-batched-bench --output-format jsonl`: `pl` sequences, each a `pp`-token
/// prompt then `tg` generated tokens.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize)]
pub struct BatchedRow {
    pub pl: usize,
    pub pp: usize,
    pub tg: usize,
    /// Seconds of the prompt phase (all `pl` prompts) and of the generation phase.
    pub t_pp: f64,
    pub t_tg: f64,
    /// Tokens per second of each phase, and of both.
    pub speed_pp: f64,
    pub speed_tg: f64,
    pub speed: f64,
}

impl BatchedRow {
    /// Statements per second if each were a prompt and an answer: the generating ceiling.
    pub fn generate_per_s(&self) -> f64 {
        self.pl as f64 / (self.t_pp + self.t_tg)
    }

    /// Statements per second if each were its prompt alone: the likelihood ceiling.
    pub fn prompt_per_s(&self) -> f64 {
        self.pl as f64 / self.t_pp
    }
}

/// The settings both sides share.
pub struct BatchedRun<'a> {
    pub bin: &'a Path,
    pub model: &'a Path,
    pub parallels: &'a [usize],
    pub prompt_tokens: usize,
    pub answer_tokens: usize,
    pub ctx_per_seq: u32,
    pub batch: u32,
    pub ubatch: u32,
    pub threads: i32,
    pub gpu_layers: u32,
    pub flash_attn: Option<bool>,
}

/// Runs `llama-batched-bench` once for every `--parallel` value and reads its rows.
pub fn run(r: &BatchedRun) -> anyhow::Result<Vec<BatchedRow>> {
    let most = r.parallels.iter().copied().max().unwrap_or(1);
    let list = r
        .parallels
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let mut cmd = Command::new(r.bin);
    cmd.arg("-m")
        .arg(r.model)
        .args(["-c", &(r.ctx_per_seq as usize * most).to_string()])
        .args(["-b", &r.batch.to_string(), "-ub", &r.ubatch.to_string()])
        .args(["-npp", &r.prompt_tokens.max(1).to_string()])
        .args(["-ntg", &r.answer_tokens.to_string()])
        .args(["-npl", &list])
        .args([
            "-t",
            &r.threads.to_string(),
            "-ngl",
            &r.gpu_layers.to_string(),
        ])
        // One cache for all sequences, as kgscope keeps.
        .arg("-kvu")
        .args(["--output-format", "jsonl"]);
    if let Some(on) = r.flash_attn {
        cmd.args(["-fa", if on { "on" } else { "off" }]);
    }
    eprintln!("running {cmd:?}");
    let out = cmd
        .output()
        .with_context(|| format!("running {}", r.bin.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(8).collect();
        bail!(
            "{} failed ({}): {}",
            r.bin.display(),
            out.status,
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
    }
    let rows = parse(&String::from_utf8_lossy(&out.stdout));
    if rows.is_empty() {
        bail!("{} printed no result rows", r.bin.display());
    }
    Ok(rows)
}

/// The JSON rows of its output; other lines (its log, when it goes to stdout) are skipped.
fn parse(stdout: &str) -> Vec<BatchedRow> {
    stdout
        .lines()
        .filter(|l| l.trim_start().starts_with('{'))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// `llama-batched-bench`: `$KGSCOPE_LLAMA_BATCHED_BENCH`, beside the llama-server in use
/// (tools/gpu builds both in one folder), on PATH, or in `$KGSCOPE_VENV/bin` (tools/setup.sh).
pub fn find(server: Option<&Path>) -> Option<PathBuf> {
    const NAME: &str = "llama-batched-bench";
    const ENV: &str = "KGSCOPE_LLAMA_BATCHED_BENCH";
    if let Some(p) = std::env::var_os(ENV) {
        return Some(PathBuf::from(p));
    }
    let beside = server.and_then(Path::parent).map(|d| d.join(NAME));
    beside
        .filter(|p| p.is_file())
        .or_else(|| super::llama_tools::find_tool(ENV, &[NAME]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_read_from_its_jsonl_and_give_both_ceilings() {
        // Two lines as llama-batched-bench b11434 prints them, with a log line between.
        let out = r#"{"n_kv_max": 8192, "n_batch": 512, "n_ubatch": 512, "flash_attn": 1, "is_pp_shared": 0, "n_gpu_layers": -1, "n_threads": 2, "n_threads_batch": 2, "pp": 20, "tg": 8, "pl": 16, "n_kv": 448, "t_pp": 0.541935, "speed_pp": 590.476685, "t_tg": 0.678586, "speed_tg": 188.627533, "t": 1.220521, "speed": 367.056366}
main: done
{"n_kv_max": 8192, "n_batch": 512, "n_ubatch": 512, "flash_attn": 1, "is_pp_shared": 0, "n_gpu_layers": -1, "n_threads": 2, "n_threads_batch": 2, "pp": 20, "tg": 8, "pl": 32, "n_kv": 896, "t_pp": 1.007747, "speed_pp": 635.080017, "t_tg": 1.071223, "speed_tg": 238.979187, "t": 2.078970, "speed": 430.982666}"#;
        let rows = parse(out);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[1].pl, rows[1].pp, rows[1].tg), (32, 20, 8));
        assert!((rows[1].generate_per_s() - 32.0 / 2.07897).abs() < 1e-3);
        assert!((rows[1].prompt_per_s() - 32.0 / 1.007747).abs() < 1e-3);
    }
}

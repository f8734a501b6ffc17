//! The run directory: `manifest.json`, `results.jsonl` (one line per answered question) and
//! `labels.jsonl` (hand labels, append-only: judgements and retractions, replayed per annotator).

pub mod jsonl;
pub mod labels;
pub mod rundir;

pub use rundir::RunDir;

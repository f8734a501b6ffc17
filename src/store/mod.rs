//! The run directory: `manifest.json`, `results.jsonl` (one line per answered question) and
//! `labels.jsonl` (hand labels, append-only: judgements and retractions, replayed per annotator),
//! and `writer.lock`, held by the one process that appends to the run.

pub mod jsonl;
pub mod labels;
pub mod lock;
pub mod rundir;

pub use lock::WriterLock;
pub use rundir::RunDir;

//! kgscope's integration tests, in one binary: each file beside this one is a module here, so
//! the library (with llama.cpp and RocksDB) is linked once for all of them rather than once per
//! file. Run one file's tests with `cargo test --release --test suite FILE::`.

mod answer_cache;
mod architecture;
mod bounded;
mod cli;
mod common;
mod endpoint;
mod endpoint_answers;
mod endpoint_profiles;
mod export;
mod figures;
mod fpq;
mod fpq_gate;
mod judge_file_integrity;
mod kg;
mod kghalubench;
mod kglens;
mod legacy_runs;
mod likelihood;
mod luo;
mod models;
mod options_and_keys;
mod profiles;
mod questions;
mod refusals;
mod reviewer;
mod run;
mod sample_kgs;
mod sample_questions;
mod saved_index;
mod secrets_stalls_output;
mod staged_state;
mod templates;
mod trained_judge;
mod tui;
mod verdict_table;
mod writer;

//! kgscope: measure what a language model knows, with a knowledge graph as the answer key.
//!
//! Data flows one way: KG source → sampler → question factory → backend → verifier → outcome,
//! then into the run log and the aggregates. Nothing in the engine depends on the terminal UI.

pub mod backends;
pub mod compare;
pub mod core;
pub mod credentials;
pub mod display_width;
pub mod document;
pub mod durable;
pub mod figures;
pub mod kg;
pub mod method;
pub mod metrics;
pub mod models;
pub mod process;
pub mod questions;
pub mod record;
pub mod report;
pub mod run;
pub mod sampling;
pub mod sanitize;
pub mod store;
pub mod tui;
pub mod verify;

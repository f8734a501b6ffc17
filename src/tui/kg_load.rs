//! Opening a KG and indexing it, whole or as a drawn sample: what the TUI starts with, and what
//! the run picker does again for a run on another KG. A leaf, so the app and the event loop
//! both load KGs without either reaching into the other.

use anyhow::Context;

use crate::kg::{self, bounded, KgIndex};

/// Loads a KG and its index, for Explore and Inspect.
pub fn load_index(spec: &str) -> anyhow::Result<KgIndex> {
    load_drawn(spec, None)
}

/// [`load_index`], or the index of the sample `draw` says.
pub fn load_drawn(spec: &str, draw: Option<&bounded::Draw>) -> anyhow::Result<KgIndex> {
    let kg = kg::open(spec).with_context(|| format!("opening the KG {spec}"))?;
    match draw {
        Some(d) => bounded::build(kg.as_ref(), d, &|_| {}),
        None => KgIndex::build(kg.as_ref(), &|_| {}),
    }
    .with_context(|| format!("indexing the KG {spec}"))
}

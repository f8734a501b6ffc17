//! Where a KG's index comes from: the profile the data calls for, a sample for an endpoint
//! (never read whole unless asked), the saved index beside a store, else a fresh build. Kept
//! apart from [`super::index`], the index itself, which the sampler and the saved file build on.

use std::sync::Arc;

use super::index::KgIndex;
use super::profile::Profile;
use super::{KnowledgeGraph, Result};

impl KgIndex {
    /// Builds the index: from a scan of the KG's quads where it has them (a local store),
    /// else by queries. `progress` receives a short description of each step.
    /// A store on disk keeps its index beside it: read back when the store has not changed
    /// since, else built and saved (a failure to save is only reported: the index is built).
    pub fn build(kg: &dyn KnowledgeGraph, progress: &dyn Fn(&str)) -> Result<Self> {
        progress("detecting the KG's profile");
        let profile = super::profile::chosen(kg)?;
        Self::build_with(kg, &profile, progress)
    }

    /// [`Self::build`] under `profile`. A saved index is reused only when it was built
    /// under the same profile (its key is part of the slot's).
    pub fn build_with(
        kg: &dyn KnowledgeGraph,
        profile: &Profile,
        progress: &dyn Fn(&str),
    ) -> Result<Self> {
        // An endpoint is never read whole unless the command asked for it: a sample of it
        // instead, said on stderr (a 2M-triple endpoint read whole took 928 MiB and 104 s).
        if kg.requests().is_some() && !super::bounded::whole() {
            let draw = super::bounded::Draw::of(
                Some(super::bounded::DEFAULT_SAMPLE),
                &[],
                crate::sampling::DEFAULT_SEED,
            )
            .expect("a sample size");
            tracing::warn!(
                "{}: {}",
                crate::credentials::redact(&kg.source()),
                super::bounded::default_sample_note(draw.per_relation)
            );
            return super::bounded::build_with(kg, &draw, profile, progress);
        }
        let Some(mut slot) = kg.index_slot() else {
            return Self::build_fresh_with(kg, profile, progress);
        };
        if !profile.is_generic() {
            slot = slot.keyed(&profile.key());
        }
        progress("reading the saved index");
        match slot.load() {
            Ok(Some(mut index)) => {
                index.profile = Arc::new(profile.clone());
                return Ok(index);
            }
            Ok(None) => {}
            Err(e) => tracing::warn!("the saved index is unreadable, building it again: {e}"),
        }
        let index = Self::build_fresh_with(kg, profile, progress)?;
        progress("saving the index");
        if let Err(e) = slot.save(&index) {
            tracing::warn!("the index could not be saved beside the store: {e}");
        }
        Ok(index)
    }

    /// Builds the index from the KG, never from a saved one, under the profile the data
    /// calls for.
    pub fn build_fresh(kg: &dyn KnowledgeGraph, progress: &dyn Fn(&str)) -> Result<Self> {
        let profile = super::profile::chosen(kg)?;
        Self::build_fresh_with(kg, &profile, progress)
    }
}

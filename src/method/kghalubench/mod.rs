//! KGHaluBench (Liang et al., 2025): compound questions about a focal entity, an entity-level
//! check (is the answer about this entity at all: breadth) and a fact-level check (are its
//! facts right: depth).
//!
//! What is here so far: the parts of the method that are arithmetic (issue 21) — the
//! entity-level similarity mix ([`similarity`]), the question difficulty and the weighted
//! accuracy ([`difficulty`]), and the point scheme with every metric ([`scoring`]). The method
//! joins the registry once its questions and its verification chain (embeddings, judge) land.

pub mod difficulty;
pub mod scoring;
pub mod similarity;

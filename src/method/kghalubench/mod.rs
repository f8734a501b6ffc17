//! KGHaluBench (`shared/papers/kghalubench.txt`): compound questions about a focal entity,
//! an entity-level check (is the answer about this entity at all: breadth) and a fact-level
//! check (are its facts right: depth).
//!
//! What is here so far (issue 21):
//! - which entities a question can be about ([`focal`]);
//! - the question's wording with its disambiguating context ([`compound`]);
//! - the description an answer is compared with ([`description`]: the KG's, else rendered
//!   from the entity's facts);
//! - the entity-level similarity mix ([`similarity`]; the embeddings are
//!   `crate::verify::embed`);
//! - the fact check's first stage ([`facts`]), then the judge's three-way verdict and the
//!   expert stage that settles a disagreement ([`judge`]);
//! - the question difficulty and the weighted accuracy ([`difficulty`]);
//! - the point scheme with every metric ([`scoring`]).
//!
//! The method joins the registry once the chain is wired into a run (the judge called per
//! fact, the stages recorded) with its reports and views.

pub mod compound;
pub mod description;
pub mod difficulty;
pub mod facts;
pub mod focal;
pub mod judge;
pub mod scoring;
pub mod similarity;

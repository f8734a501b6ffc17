//! Running an evaluation: configuration, the engine, its events, and resumable sessions.

pub mod adaptive;
pub mod config;
pub mod driver;
pub mod engine;
pub mod events;
pub use crate::method::kgfpq::plan as fpq;
pub use crate::method::kglens::plan as kglens;
pub use crate::record;
pub mod review;
pub mod session;
pub mod sweep;
pub mod trained;

pub use crate::record::{Attempt, ResultRecord};
pub use config::{Manifest, ModelSpec, RunConfig};
pub use engine::{Control, EngineOptions};
pub use events::RunEvent;

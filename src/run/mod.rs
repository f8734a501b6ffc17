//! Running an evaluation: configuration, the engine, its events, and resumable sessions.

pub mod adaptive;
pub mod config;
pub mod engine;
pub mod events;
pub mod fpq;
pub mod judge;
pub mod kglens;
pub mod record;
pub mod session;
pub mod writer;

pub use config::{Manifest, ModelSpec, RunConfig};
pub use engine::{Control, EngineOptions};
pub use events::RunEvent;
pub use record::{Attempt, ResultRecord};

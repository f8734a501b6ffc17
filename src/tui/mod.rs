//! The terminal UI: explore a KG, watch a run live, read its heatmaps, drill into its errors
//! and label them by hand.
//!
//! [`app::App`] holds all state and reacts to keys and run events without touching the
//! terminal; [`ui::draw`] renders it; [`event_loop`] owns the terminal and the runtime.

pub mod app;
pub mod bench;
pub mod event_loop;
pub mod hidden_cells;
pub mod jobs;
pub mod keymap;
pub mod kgview;
pub mod runner;
pub mod screens;
pub mod state;
pub mod theme;
pub mod ui;
pub mod wrap;

pub use app::App;
pub use event_loop::{run, Options};
pub use theme::Theme;

//! The terminal UI: explore a KG, watch a run live, read its heatmaps, drill into its errors
//! and label them by hand.
//!
//! [`app::App`] holds all state and reacts to keys and run events without touching the
//! terminal; [`ui::draw`] renders it; [`event_loop`] owns the terminal and the runtime.
//!
//! The children import one way, each only from those below it, so any layer can be read (and
//! tested) without the ones above:
//!
//! - leaves: [`theme`], [`wrap`], [`jobs`], [`kgview`], [`hidden_cells`], [`tabs`] (the
//!   screens' names), [`request`] (what a run asks for), [`kg_load`] (a KG and its index);
//! - [`state`] and [`keymap`], on the leaves;
//! - [`app`], the state and its keys;
//! - [`widgets`], the parts screens draw with; then [`screens`]; then [`ui`], the frame;
//! - [`runner`], which starts runs and sends what they make, in the app's types;
//! - [`event_loop`], which drives them all; [`bench`] times frames of the app as drawn.

pub mod app;
pub mod bench;
pub mod event_loop;
pub mod hidden_cells;
pub mod jobs;
pub mod keymap;
pub mod kg_load;
pub mod kgview;
pub mod request;
pub mod runner;
pub mod screens;
pub mod state;
pub mod tabs;
pub mod theme;
pub mod ui;
pub mod widgets;
pub mod wrap;

pub use app::App;
pub use event_loop::{run, Options};
pub use theme::Theme;

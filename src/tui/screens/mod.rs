//! One module per screen.

pub mod answer_card;
pub mod cause;
pub mod compare;
pub mod errors;
pub mod explore;
pub mod finding;
pub mod heatmaps;
pub mod inspect;
pub mod judge;
pub mod live;
pub mod panel;
pub mod picker;

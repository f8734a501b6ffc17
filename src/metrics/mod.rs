//! Metrics of the methods, grouped and with intervals.
//!
//! Pure arithmetic, no I/O: [`interval`] (Wilson score intervals), [`counts`] (accuracy,
//! abstain/invalid rates, Luo et al.'s P/R/F1), [`grapheval`] (per-triple correctness,
//! truthfulness, informativeness), [`kglens`] (edge win / zero-sense, Beta update), [`halu`] (KGHaluBench's points, breadth and
//! depth hallucination, weighted accuracy),
//! [`aggregate`] (incremental group-by over scored outcomes, with serialisable snapshots),
//! [`agreement`] (Cohen's and Fleiss' kappa between annotators), and [`judges`] (each
//! verifier against the hand labels, and what to label next); [`chance`] (the answer
//! distribution, the chance baseline, and a warning when results are near it).

pub mod aggregate;
pub mod agreement;
pub mod calibration;
pub mod chance;
pub mod confusion;
pub mod counts;
pub mod grapheval;
pub mod halu;
pub mod interval;
pub mod judges;
pub mod kglens;
pub mod metric;

pub use aggregate::{Aggregates, EdgeStats, GroupStats, Scored, Scoring, Snapshot};
pub use counts::Counts;
pub use interval::{wilson, Rate};
pub use metric::Metric;

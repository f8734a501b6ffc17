//! A reviewer model's reading of one generated question (`--review-with`): accepted or
//! rejected, with its one-line reason, kept beside the question so a set or a run shows why a
//! question was or was not asked.

use serde::{Deserialize, Serialize};

/// What the reviewer said of one question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Review {
    /// Which model reviewed (its identity, never a key).
    pub model: String,
    /// Whether the question may be asked.
    pub accept: bool,
    /// The reviewer's one-line reason (empty when it gave none).
    #[serde(default)]
    pub reason: String,
    /// The reviewer's output could not be read as ACCEPT or REJECT: the question is kept
    /// (a review that says nothing must not remove questions), and counted apart.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unreadable: bool,
}

//! Hand labels: what a person decided about one outcome. Append-only; the latest label of a
//! question wins, so relabelling never rewrites history.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LabelVerdict {
    /// The model's answer is right (whatever the verifier decided).
    Right,
    /// The model's answer is wrong.
    Wrong,
    /// The model abstained.
    Abstained,
    /// The question itself is bad (ungrammatical, ambiguous, unanswerable).
    BadQuestion,
    /// The KG's fact is wrong.
    KgWrong,
}

/// KGLens' error taxonomy (METHODS.md §3), plus "other".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorType {
    FactualError,
    ObsoleteKnowledge,
    SelfContradiction,
    InconsistentResponse,
    Other,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Label {
    pub question_id: String,
    pub label: LabelVerdict,
    #[serde(default)]
    pub error_type: Option<ErrorType>,
    #[serde(default)]
    pub note: Option<String>,
    pub annotator: String,
    /// RFC 3339.
    pub time: String,
}

/// The latest label per question, from labels in file order.
pub fn latest(labels: Vec<Label>) -> HashMap<String, Label> {
    let mut out = HashMap::new();
    for l in labels {
        out.insert(l.question_id.clone(), l);
    }
    out
}

/// Who is labelling: `$KGSCOPE_ANNOTATOR`, else `$USER`, else "unknown".
pub fn annotator() -> String {
    std::env::var("KGSCOPE_ANNOTATOR")
        .or_else(|_| std::env::var("USER"))
        .ok()
        .filter(|n| !n.is_empty())
        .or_else(login_name)
        .unwrap_or_else(|| "unknown".into())
}

/// The account's name from the password database, for sessions without `$USER` (containers,
/// tmux started by a service), where every label would otherwise say "unknown".
fn login_name() -> Option<String> {
    // SAFETY: getpwuid returns null or a pointer to a static record that stays valid until the
    // next getpw* call; the name is copied out before this function returns.
    unsafe {
        let pw = libc::getpwuid(libc::getuid());
        if pw.is_null() || (*pw).pw_name.is_null() {
            return None;
        }
        let name = std::ffi::CStr::from_ptr((*pw).pw_name)
            .to_string_lossy()
            .into_owned();
        (!name.is_empty()).then_some(name)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_login_name_is_found_without_user() {
        // This test process has an account (root in CI containers), so the lookup answers.
        let name = super::login_name().expect("an account name");
        assert!(!name.is_empty());
    }
}

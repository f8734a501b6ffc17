//! What the TUI remembers from one session to the next, in `$KGSCOPE_HOME/tui-state.json`:
//! the run dialog's last method, limit and context, so a user who runs KG-FPQ on 40 facts
//! does not pick them again every time the dialog opens.
//!
//! The file is a convenience, never a reason to fail: a missing one is a first session, a
//! broken one (hand-edited, cut short, written by a kgscope that knows other methods) is
//! ignored with a line in the log, and one that cannot be written is said on the status line.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::questions::{ContextKind, Task};

/// The file's name under `$KGSCOPE_HOME`.
pub const FILE: &str = "tui-state.json";

/// `$KGSCOPE_TUI_STATE` when set (a session of its own, as the tests that drive the binary
/// give each TUI), else `$KGSCOPE_HOME/tui-state.json`.
pub fn default_path() -> PathBuf {
    match std::env::var_os("KGSCOPE_TUI_STATE") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => crate::run::config::kgscope_home().join(FILE),
    }
}

/// What the run dialog proposes when it opens: what it was set to last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DialogChoice {
    pub task: Task,
    pub limit: usize,
    /// For the methods that take one; kept across methods that do not, as the dialog does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<ContextKind>,
}

/// Everything in the state file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TuiState {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dialog: Option<DialogChoice>,
    /// Fields another kgscope wrote, kept as they were when this one writes the file again.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// Reads the state at `path`: the default when there is none, and when it cannot be read or
/// parsed (logged, with why). A limit outside what the dialog takes is brought within it.
pub fn load(path: &Path) -> TuiState {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return TuiState::default(),
        Err(e) => {
            tracing::warn!("ignoring the TUI state {}: {e}", path.display());
            return TuiState::default();
        }
    };
    match serde_json::from_str::<TuiState>(&text) {
        Ok(mut s) => {
            if let Some(d) = &mut s.dialog {
                d.limit = d.limit.clamp(1, crate::tui::request::MAX_LIMIT);
            }
            s
        }
        Err(e) => {
            tracing::warn!("ignoring the TUI state {}: {e}", path.display());
            TuiState::default()
        }
    }
}

/// Writes the state to `path` whole or not at all, and durably
/// ([`crate::durable::write_atomic`]), so a crash or a power loss mid-write never leaves a
/// broken or empty file behind.
pub fn save(path: &Path, state: &TuiState) -> Result<(), String> {
    let write = || -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let text = serde_json::to_vec_pretty(state)?;
        crate::durable::write_atomic(path, |w| std::io::Write::write_all(w, &text))
    };
    write().map_err(|e| format!("saving the TUI state {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_round_trips_and_keeps_unknown_fields() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("home").join(FILE);
        assert_eq!(load(&path), TuiState::default(), "no file: a first session");
        let mut state = TuiState {
            dialog: Some(DialogChoice {
                task: Task::KgFpq,
                limit: 40,
                context: Some(ContextKind::ALL[0]),
            }),
            ..Default::default()
        };
        state
            .extra
            .insert("theme".into(), serde_json::json!("light"));
        save(&path, &state).unwrap();
        assert_eq!(load(&path), state);
    }

    #[test]
    fn a_broken_state_is_ignored_and_a_limit_is_brought_within_the_dialogs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        for broken in [
            "{\"dialog\": {\"task\": \"statement\", \"limit\":",
            "{\"dialog\": {\"task\": \"no-such-method\", \"limit\": 5}}",
            "[1, 2]",
            "",
        ] {
            std::fs::write(&path, broken).unwrap();
            assert_eq!(load(&path), TuiState::default(), "{broken:?}");
        }
        std::fs::write(&path, "{\"dialog\": {\"task\": \"saq\", \"limit\": 0}}").unwrap();
        let d = load(&path).dialog.unwrap();
        assert_eq!((d.task, d.limit, d.context), (Task::Saq, 1, None));
    }
}

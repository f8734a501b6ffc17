//! Where `tracing` output goes: standard error for headless commands (warnings only, unless
//! `KGSCOPE_LOG` says otherwise), a file while the TUI owns the screen, since a line written
//! to the terminal would tear through the drawn frame.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context;
use tracing_subscriber::EnvFilter;

/// `KGSCOPE_LOG` (the `RUST_LOG` syntax, e.g. `kgscope=debug`) or kgscope's own events from
/// `default` up, plus llama.cpp's log when `KGSCOPE_LLAMA_LOG` asks for it.
fn filter(default: &str) -> EnvFilter {
    EnvFilter::try_from_env("KGSCOPE_LOG").unwrap_or_else(|_| {
        let llama =
            std::env::var_os("KGSCOPE_LLAMA_LOG").is_some_and(|v| !v.is_empty() && v != "0");
        let extra = if llama { ",llama-cpp-2=info" } else { "" };
        EnvFilter::new(format!("kgscope={default}{extra}"))
    })
}

pub fn to_stderr() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter("warn"))
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}

/// The TUI's log: `$KGSCOPE_HOME/logs/tui.log` unless `--log` names another file.
pub fn default_tui_log() -> PathBuf {
    kgscope::run::config::kgscope_home()
        .join("logs")
        .join("tui.log")
}

/// Appends kgscope's events (info and up) to `path`.
pub fn to_file(path: &Path) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening the log file {}", path.display()))?;
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter("info"))
        .with_writer(Mutex::new(file))
        .with_ansi(false)
        .try_init();
    Ok(())
}

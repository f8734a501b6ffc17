//! Where `tracing` output goes: standard error for headless commands (warnings only, unless
//! `KGSCOPE_LOG` says otherwise), a file while the TUI owns the screen, since a line written
//! to the terminal would tear through the drawn frame. Either way the text is escaped so that
//! nothing in a logged value can steer the terminal that shows it.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context;
use tracing_subscriber::fmt::MakeWriter;
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

/// Colours only for a person at a terminal: not when stderr is a file or a pipe, and not when
/// `NO_COLOR` is set to anything non-empty (<https://no-color.org>).
pub fn stderr_colours() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

pub fn to_stderr() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter("warn"))
        .with_writer(Escaping(std::io::stderr))
        .with_ansi(stderr_colours())
        .with_target(false)
        .try_init();
}

/// A log writer that shows bidi overrides, C1 controls and carriage returns as `\u{..}`.
/// tracing escapes ESC and C1 in messages itself but lets bidi overrides and `\r` through,
/// and a field value may carry text from a server or a KG. The formatter's own output has
/// none of these (its colours are ESC sequences, which pass), so escaping whole lines is safe.
struct Escaping<M>(M);

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for Escaping<M> {
    type Writer = EscapingWriter<M::Writer>;
    fn make_writer(&'a self) -> Self::Writer {
        EscapingWriter(self.0.make_writer())
    }
}

struct EscapingWriter<W>(W);

impl<W: Write> Write for EscapingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // The formatter hands over one whole event per write, so characters are not split.
        match std::str::from_utf8(buf) {
            Ok(text) if text.chars().any(needs_escape) => {
                let escaped = kgscope::sanitize::escape_where(text, needs_escape);
                self.0.write_all(escaped.as_bytes())?;
            }
            _ => self.0.write_all(buf)?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

fn needs_escape(c: char) -> bool {
    c == '\r' || kgscope::sanitize::is_invisible_control(c)
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
        .with_writer(Escaping(Mutex::new(file)))
        .with_ansi(false)
        .try_init();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_lines_show_bidi_c1_and_carriage_returns_but_keep_colours() {
        let mut w = EscapingWriter(Vec::new());
        let line = "\u{1b}[33m WARN\u{1b}[0m failed: Fr\u{202e}ecnarF\u{9b}2J\rok\n";
        assert_eq!(w.write(line.as_bytes()).unwrap(), line.len());
        assert_eq!(
            String::from_utf8(w.0).unwrap(),
            "\u{1b}[33m WARN\u{1b}[0m failed: Fr\\u{202e}ecnarF\\u{9b}2J\\u{d}ok\n"
        );
    }
}

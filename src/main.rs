//! The `kgscope` command line: headless commands here, the terminal UI in `kgscope tui`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    // No command (or `tui`) opens the terminal UI.
    if !matches!(args.command, None | Some(cli::Command::Tui(_))) {
        exit_quietly_on_broken_pipe();
    }
    match cli::dispatch(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", kgscope::sanitize::line(&one_line(&e)));
            ExitCode::from(1)
        }
    }
}

/// The whole chain of causes on one line, as `{:#}` writes it (what failed, and why), but
/// without a cause whose text the line already holds: an error that quotes its source
/// (`runs/x/writer.lock: Read-only file system (os error 30)`) would otherwise say it twice.
fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if line.contains(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

/// `kgscope kg show … | head`: when the reader goes away, a headless command ends the way
/// Unix filters do, killed by SIGPIPE without a word, instead of Rust's default (SIGPIPE
/// ignored, so every later print fails and `println!` panics). Everything a command writes to
/// disk is already safe against a sudden end: appends are whole lines, outputs are renamed
/// into place. The TUI keeps the signal ignored: it owns the terminal and must always get to
/// restore it, so a broken pipe there is an error on its normal exit path.
fn exit_quietly_on_broken_pipe() {
    // SAFETY: called first thing in main, before any other thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_cause_the_line_already_holds_is_said_once() {
        let lock = kgscope::store::lock::LockError::Io {
            path: "runs/x/writer.lock".into(),
            source: std::io::Error::from_raw_os_error(30),
        };
        let e = anyhow::Error::new(lock).context("resuming run x");
        let line = super::one_line(&e);
        assert_eq!(line.matches("(os error 30)").count(), 1, "{line}");
        assert!(
            line.starts_with("resuming run x: runs/x/writer.lock: Read-only file system"),
            "{line}"
        );
        // Causes that add something are all kept, in order.
        let e = anyhow::anyhow!("disk gone").context("writing results.jsonl");
        assert_eq!(super::one_line(&e), "writing results.jsonl: disk gone");
    }
}

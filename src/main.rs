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
            // `{:#}` prints the whole context chain on one line: what failed, and why.
            eprintln!("error: {}", kgscope::sanitize::line(&format!("{e:#}")));
            ExitCode::from(1)
        }
    }
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

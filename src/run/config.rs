//! What a run is: everything needed to repeat it or to resume it, stored in its manifest.

use std::path::PathBuf;

use crate::core::panel::PanelLine;
use serde::{Deserialize, Serialize};

use crate::backends::GenParams;
use crate::questions::{ContextKind, GenerateOptions, NegativesFrom, Task};
use crate::sampling::Sampling;

fn legacy_negatives_from() -> NegativesFrom {
    NegativesFrom::Random
}

fn legacy_sampling() -> Sampling {
    Sampling::Uniform
}

pub use crate::backends::llama::default_parallel;

pub use crate::backends::spec::{
    default_model_path, kgscope_home, HttpTimeouts, ModelSpec, DEFAULT_IDLE_TIMEOUT_S,
    DEFAULT_MODEL_FILE, DEFAULT_OPENAI_BASE_URL, DEFAULT_REQUEST_TIMEOUT_S,
};

/// How a closed answer (true/false, yes/no, an option letter) is obtained.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "kebab-case")]
pub enum AnswerScoring {
    /// The model generates its answer and the rules read it.
    #[default]
    Generate,
    /// One forward pass over the prompt: the option the model finds most likely is its answer
    /// (options of several tokens: their log-probabilities summed), with every option's
    /// probability recorded.
    Logprob,
    /// As `logprob`, each option's log-probability divided by its token count.
    LogprobNorm,
}

impl AnswerScoring {
    pub fn is_generate(&self) -> bool {
        *self == Self::Generate
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Generate => "generate",
            Self::Logprob => "logprob",
            Self::LogprobNorm => "logprob-norm",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// The KG spec; a SPARQL endpoint URL is stored redacted (see [`crate::credentials`]).
    #[serde(serialize_with = "crate::credentials::serialize_redacted")]
    pub kg: String,
    pub model: ModelSpec,
    pub task: Task,
    pub limit: usize,
    pub negatives: usize,
    /// A manifest written before these existed was generated the old way: random negatives,
    /// uniform sampling. Resuming it must draw the same questions.
    #[serde(default = "legacy_negatives_from")]
    pub negatives_from: NegativesFrom,
    #[serde(default = "legacy_sampling")]
    pub sampling: Sampling,
    pub seed: u64,
    pub relations: Vec<String>,
    #[serde(default)]
    pub entities: Vec<String>,
    pub templates: Vec<PathBuf>,
    /// Each question is asked this many times; the verdicts are majority-voted.
    pub repeats: usize,
    /// Sequences decoded together by the llama backend.
    pub parallel: usize,
    /// Questions in flight at once.
    pub concurrency: usize,
    pub gpu_layers: Option<u32>,
    pub params: GenParams,
    /// Context put before each question (Luo et al.'s formats).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<ContextKind>,
    /// The LLM judge of the verification chain, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<ModelSpec>,
    /// Judge every answer, not only those the rules are unsure of.
    #[serde(default)]
    pub judge_all: bool,
    /// A model that reviews each question before it is asked (`--review-with`); the
    /// questions it rejects are not asked (see [`super::review`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer: Option<ModelSpec>,
    /// A KGLens run's iterations, subgraph and convergence rule (`task` kglens only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kglens: Option<super::kglens::KglensConfig>,
    /// A KG-FPQ run's edits, formats and gate (`task` kg-fpq only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fpq: Option<super::fpq::FpqConfig>,
    /// A KGHaluBench run's embedder, threshold and expert stage (`task` kghalubench only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub halu: Option<crate::method::kghalubench::settings::HaluConfig>,
    /// Facts drawn per relation from a KG too big to read whole (`--kg-sample`); `None`
    /// reads the whole KG.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kg_sample: Option<usize>,
    /// GraphEval's trained judge (a file written by `kgscope judge train`): each statement is
    /// judged from the model's hidden state and nothing is generated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via_judge: Option<PathBuf>,
    /// Closed answers generated, or chosen by likelihood (`--scoring`).
    #[serde(default, skip_serializing_if = "AnswerScoring::is_generate")]
    pub scoring: AnswerScoring,
    /// How the KG is read (`--profile`, `--lang`): kept so a resumed run reads it the same
    /// way. The profile actually used is the manifest's `kg_profile`.
    #[serde(default, skip_serializing_if = "is_default_choice")]
    pub profile: crate::kg::profile::Choice,
    /// Settings this build does not know (written by a newer kgscope), kept as they were.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl RunConfig {
    /// How the run reads its KG: its `--profile` and `--lang`, with its `--relation`s.
    pub fn profile_choice(&self) -> crate::kg::profile::Choice {
        crate::kg::profile::Choice {
            relations: self.relations.clone(),
            ..self.profile.clone()
        }
    }
}

fn is_default_choice(c: &crate::kg::profile::Choice) -> bool {
    c.profile.is_none() && c.lang.is_none()
}

impl RunConfig {
    /// `limit` questions of `task` from `kg` for `model`, with the defaults of `kgscope run`
    /// that need no model-specific choice (the generator's, [`GenerateOptions::default`], and
    /// the generation's, [`GenParams::default`]): no relation or entity filter, built-in
    /// templates, one attempt, one question at a time. Callers change the fields they care
    /// about.
    pub fn new(kg: &str, model: ModelSpec, task: Task, limit: usize) -> Self {
        let gen = GenerateOptions::default();
        Self {
            kg: kg.to_string(),
            model,
            task,
            limit,
            negatives: gen.negatives,
            negatives_from: gen.negatives_from,
            sampling: gen.sampling,
            seed: gen.seed,
            relations: vec![],
            entities: vec![],
            templates: vec![],
            repeats: 1,
            parallel: 1,
            concurrency: 1,
            gpu_layers: None,
            params: GenParams::default(),
            context: None,
            judge: None,
            judge_all: false,
            reviewer: None,
            kglens: crate::method::of(task)
                .takes_kglens_settings()
                .then(super::kglens::KglensConfig::default),
            fpq: crate::method::of(task)
                .takes_fpq_settings()
                .then(super::fpq::FpqConfig::default),
            halu: crate::method::of(task)
                .takes_halu_settings()
                .then(crate::method::kghalubench::settings::HaluConfig::default),
            kg_sample: None,
            via_judge: None,
            scoring: AnswerScoring::Generate,
            profile: Default::default(),
            extra: Default::default(),
        }
    }

    /// What to draw from the KG, when the run reads a sample of it: the entities the run
    /// names are drawn too, and the draw reaches as far out as the method looks (KGLens'
    /// walk from its central entities, KG-FPQ's neighbourhood).
    pub fn draw(&self) -> Option<crate::kg::bounded::Draw> {
        use crate::kg::bounded::{Draw, HOP_WIDTH};
        // KGLens walks from its central entities; KG-FPQ looks around every fact's subject.
        let (hops, width, from_sample) = match (&self.kglens, &self.fpq) {
            (Some(k), _) if !self.entities.is_empty() => (
                u8::try_from(k.walk_steps).unwrap_or(u8::MAX),
                // A step takes up to `walk_width` facts forward and as many backward.
                2 * k.walk_width,
                false,
            ),
            (_, Some(f)) => (f.options.max_hops, HOP_WIDTH, true),
            _ => (0, 0, false),
        };
        Draw::of(self.kg_sample, &self.relations, self.seed)
            .map(|d| d.reaching(&self.entities, hops, width, from_sample))
    }
}

impl RunConfig {
    /// The same run with `limit` read as the whole question budget (the TUI's dialog): a
    /// KGLens run's iterations are sized to fit it.
    pub fn limit_as_budget(mut self) -> Self {
        if let Some(k) = &self.kglens {
            self.kglens = Some(k.for_budget(self.limit));
        }
        self
    }

    /// The settings of the run's method that only the method reads (KGLens', KG-FPQ's or
    /// KGHaluBench's), handed to its plan and its checker opaquely: at most one is set.
    pub fn own_settings(&self) -> Option<&dyn std::any::Any> {
        if let Some(c) = &self.kglens {
            return Some(c);
        }
        if let Some(c) = &self.fpq {
            return Some(c);
        }
        self.halu.as_ref().map(|c| c as &dyn std::any::Any)
    }

    /// The run dialog's lines for the settings of the run's method: a staged method's own, or
    /// how facts are drawn.
    pub fn method_settings(&self) -> Vec<PanelLine> {
        let mut out = match &self.kglens {
            Some(k) => k.settings(&self.entities),
            None => vec![PanelLine::field("sampling", self.sampling.as_str())],
        };
        out.extend(self.fpq.iter().flat_map(|p| p.settings()));
        out
    }
}

pub use crate::store::rundir::SCHEMA_VERSION;

fn legacy_schema() -> u32 {
    1
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// The run format this run was written in (see [`SCHEMA_VERSION`]).
    #[serde(default = "legacy_schema")]
    pub schema_version: u32,
    pub run_id: String,
    pub tool_version: String,
    pub created_at: String,
    pub config: RunConfig,
    pub kg_source: String,
    pub kg_fingerprint: String,
    /// The profile the KG was read with ([`crate::kg::profile`]), with its language;
    /// `None`: the generic one (and every run recorded before profiles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kg_profile: Option<String>,
    pub model_id: String,
    /// How the prompts were laid out for a local model: chat (with which template) or
    /// completion. `None`: a server's model (its template is the server's), or a run made
    /// before this was recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<crate::backends::llama::PromptFormat>,
    pub questions: usize,
    #[serde(default)]
    pub finished_at: Option<String>,
    /// How the questions were drawn: facts matched, skipped and why (see
    /// [`crate::questions::GenerateReport::shortfall`]); for a run that makes its questions up
    /// front.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<crate::questions::GenerateReport>,
    /// Planned questions a staged run decided not to ask, and why (KG-FPQ's gate): `questions`
    /// less these is what it asks. Written when the run finishes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_asked: Vec<crate::core::not_asked::NotAsked>,
    /// Fields this build does not know (written by a newer kgscope), kept as they were so a
    /// manifest written again loses nothing.
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
}

impl Manifest {
    /// The questions the run asks: those planned less those a staged run decided not to ask
    /// (all planned ones until it has decided).
    pub fn to_ask(&self) -> usize {
        crate::core::not_asked::to_ask(self.questions, &self.not_asked)
    }

    /// The model as it may be shown: URLs' credentials masked (manifests written before
    /// masking was stored are masked again here), control characters removed.
    pub fn model_shown(&self) -> String {
        crate::sanitize::line(&crate::credentials::redact_urls_in(&self.model_id))
    }

    /// The KG as it may be shown, credentials masked.
    pub fn kg_shown(&self) -> String {
        crate::sanitize::line(&crate::credentials::redact(&self.config.kg))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A run made before typed negatives and balanced sampling resumes with the questions it
    /// was made with; a new run gets the new defaults.
    #[test]
    fn a_manifest_without_generator_choices_is_the_old_generator() {
        let new = RunConfig::new(
            "sample:nba",
            ModelSpec::parse("default", None, "K").unwrap(),
            Task::Statement,
            10,
        );
        assert_eq!(
            (new.negatives_from, new.sampling),
            (NegativesFrom::Fair, Sampling::ByRelation)
        );
        let mut json = serde_json::to_value(&new).unwrap();
        let obj = json.as_object_mut().unwrap();
        obj.remove("negatives_from");
        obj.remove("sampling");
        let old: RunConfig = serde_json::from_value(json).unwrap();
        assert_eq!(
            (old.negatives_from, old.sampling),
            (NegativesFrom::Random, Sampling::Uniform)
        );
        let round: RunConfig = serde_json::from_str(&serde_json::to_string(&new).unwrap()).unwrap();
        assert_eq!(round, new);
    }

    /// Fields a newer kgscope wrote survive a read and a write by this one, in the manifest
    /// and in its configuration.
    #[test]
    fn unknown_manifest_fields_are_kept() {
        let config = RunConfig::new(
            "sample:nba",
            ModelSpec::parse("default", None, "K").unwrap(),
            Task::Statement,
            10,
        );
        let mut json = serde_json::json!({
            "schema_version": 2, "run_id": "r", "tool_version": "0.9", "created_at": "t",
            "config": config, "kg_source": "s", "kg_fingerprint": "f", "model_id": "m",
            "questions": 3, "provenance": {"signed_by": "x"},
        });
        json["config"]["future_setting"] = serde_json::json!([1, 2]);
        let m: Manifest = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(m.extra["provenance"]["signed_by"], "x");
        let back = serde_json::to_value(&m).unwrap();
        assert_eq!(back["provenance"], json["provenance"]);
        assert_eq!(
            back["config"]["future_setting"],
            json["config"]["future_setting"]
        );
    }
}

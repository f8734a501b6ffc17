//! A recorded run as the reports, figures and comparisons read it: its manifest, the metrics
//! of its records with hand labels applied, and the KGLens views when it has them.
//!
//! `results.jsonl` is read as a stream: each record is scored and folded into the metrics as
//! it is read, and none is kept, so a run of a million answers is reported in the memory of
//! its aggregates. What a comparison needs of each answer (its groupings and outcome) is read
//! again, on demand, into compact rows ([`LoadedRun::answers`]).

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::metrics::{Aggregates, Snapshot};
use crate::run::kglens::{KglensState, STATE_FILE};
use crate::run::{Manifest, ResultRecord};
use crate::store::labels::LabelBook;
use crate::store::RunDir;
use crate::verify::{OutcomeKind, Stage};

use super::kglens::KglensReport;
use super::labels::LabelEffect;
use crate::metrics::judges::JudgeReport;

/// One answer as a comparison needs it: its id, whether it was right (hand labels applied)
/// and its groupings, as a number into [`Answers::keys`]. About 50 bytes: two runs of a
/// million answers compare in a few hundred MiB.
#[derive(Debug, Clone)]
pub struct AnswerRow {
    id: Box<str>,
    pub correct: bool,
    keys: u32,
}

impl AnswerRow {
    pub fn id(&self) -> &str {
        &self.id
    }
}

/// What an answer is grouped by (relation, types, the method's facets): shared by every
/// answer with the same groupings, so a run holds each combination once.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GroupKeys {
    pub relation: String,
    pub head_type: String,
    pub tail_type: String,
    pub facets: Vec<(String, String)>,
}

/// Every answer of a run as scored, in file order, with their groupings.
#[derive(Debug, Clone)]
pub struct Answers {
    pub rows: Vec<AnswerRow>,
    keys: Arc<Vec<GroupKeys>>,
}

impl Answers {
    /// The groupings of `row`.
    pub fn keys(&self, row: &AnswerRow) -> &GroupKeys {
        &self.keys[row.keys as usize]
    }
}

type Shared = Result<Arc<Answers>, String>;

#[derive(Clone)]
pub struct LoadedRun {
    pub run: RunDir,
    pub manifest: Manifest,
    /// Answers on record (each question's first), as the machine decided them.
    pub answered: usize,
    /// How many of them the LLM judge decided (the rules decided the rest).
    pub by_judge: usize,
    pub labelled: LabelEffect,
    pub snapshot: Snapshot,
    pub kglens: Option<KglensReport>,
    /// KGHaluBench's chain: what each filter and stage decided (empty for other methods).
    pub halu: super::halu::ChainCounts,
    /// Each answer with a confidence (chosen by likelihood, or asked more than once): the
    /// reliability diagram's points.
    pub confidences: Vec<super::confidence::Confident>,
    /// What the model answered, the chance baseline, and whether the results are near it.
    pub chance: crate::metrics::chance::Chance,
    /// Whether hand labels are applied.
    labels: bool,
    /// The compact answers, read when first asked for (comparisons), or the ones kept.
    answers: OnceLock<Shared>,
    /// The verifiers against the hand labels, read when first asked for (reports).
    judges: OnceLock<Result<Arc<JudgeReport>, String>>,
}

/// What one pass over results.jsonl counted besides the records it handed over.
struct Pass {
    answered: usize,
    by_judge: usize,
    labelled: LabelEffect,
}

/// Hands `each` every record of the run as scored, in file order: the first record of each
/// question (a log is append-only; a hand-edited one might repeat a question, and `report`
/// keeps the first), hand labels applied (records labelled bad question or KG wrong left out),
/// with whether the judge decided it.
fn stream(
    run: &RunDir,
    book: &LabelBook,
    mut each: impl FnMut(ResultRecord, bool),
) -> anyhow::Result<Pass> {
    let mut pass = Pass {
        answered: 0,
        by_judge: 0,
        labelled: LabelEffect::default(),
    };
    let labelled = &mut pass.labelled;
    let mut by_judge = 0;
    pass.answered = run.for_each_result(|r| {
        let judged = r.stage() == Stage::Judge;
        by_judge += usize::from(judged);
        if let Some(r) = super::labels::apply_one(r, book, labelled) {
            each(r, judged);
        }
    })?;
    pass.by_judge = by_judge;
    Ok(pass)
}

fn label_book(run: &RunDir, labels: bool) -> anyhow::Result<LabelBook> {
    Ok(if labels {
        LabelBook::from_entries(run.read_labels()?)
    } else {
        LabelBook::default()
    })
}

impl LoadedRun {
    /// Reads run `id` (or a run directory) under `runs_dir`; `labels: false` scores the
    /// machine's decisions only.
    pub fn load(runs_dir: &Path, id: &str, labels: bool) -> anyhow::Result<LoadedRun> {
        let run = RunDir::open(runs_dir, id)?;
        let manifest: Manifest = run.read_manifest()?;
        let book = label_book(&run, labels)?;
        let mut aggregates = Aggregates::default();
        let mut confidences = Vec::new();
        let mut halu = super::halu::ChainCounts::default();
        let mut chance = crate::metrics::chance::ChanceTally::default();
        let pass = stream(&run, &book, |r, _| {
            aggregates.add(&super::scored(&r));
            super::add_chance(&mut chance, &r);
            halu.add(&r);
            confidences.extend(super::confidence::point(&r));
        })?;
        let snapshot = aggregates.snapshot();
        let kglens = match &manifest.config.kglens {
            Some(cfg) => run
                .read_json::<KglensState>(STATE_FILE)?
                .map(|state| super::kglens::of(&snapshot, &state, cfg)),
            None => None,
        };
        Ok(LoadedRun {
            run,
            manifest,
            answered: pass.answered,
            by_judge: pass.by_judge,
            labelled: pass.labelled,
            snapshot,
            kglens,
            halu,
            confidences,
            chance: chance.summary(),
            labels,
            answers: OnceLock::new(),
            judges: OnceLock::new(),
        })
    }

    /// Hands `each` every record this run scores (hand labels applied) of the questions
    /// `keep` accepts, with whether the judge decided it, reading results.jsonl again.
    fn for_each_scored(
        &self,
        keep: &dyn Fn(&str) -> bool,
        mut each: impl FnMut(ResultRecord, bool),
    ) -> anyhow::Result<()> {
        let book = label_book(&self.run, self.labels)?;
        stream(&self.run, &book, |r, judged| {
            if keep(&r.question.id) {
                each(r, judged)
            }
        })?;
        Ok(())
    }

    /// Every answer as scored, in file order: read from results.jsonl the first time it is
    /// asked for, and kept.
    pub fn answers(&self) -> anyhow::Result<Arc<Answers>> {
        let read = || -> anyhow::Result<Answers> {
            let mut rows = Vec::new();
            let mut keys = Vec::new();
            let mut interned: std::collections::HashMap<GroupKeys, u32> = Default::default();
            self.for_each_scored(&|_| true, |r, _| {
                let s = super::scored(&r);
                let k = GroupKeys {
                    relation: s.relation,
                    head_type: s.head_type,
                    tail_type: s.tail_type,
                    facets: s.facets,
                };
                let n = *interned.entry(k).or_insert_with_key(|k| {
                    keys.push(k.clone());
                    keys.len() as u32 - 1
                });
                rows.push(AnswerRow {
                    id: r.question.id.into_boxed_str(),
                    correct: r.outcome == OutcomeKind::Correct,
                    keys: n,
                });
            })?;
            Ok(Answers {
                rows,
                keys: Arc::new(keys),
            })
        };
        self.answers
            .get_or_init(|| read().map(Arc::new).map_err(|e| format!("{e:#}")))
            .clone()
            .map_err(anyhow::Error::msg)
    }

    /// The metrics and the answer distribution against chance on the questions `keep`
    /// accepts only, computed again from results.jsonl in one pass.
    pub fn snapshot_and_chance_where(
        &self,
        keep: impl Fn(&str) -> bool,
    ) -> anyhow::Result<(Snapshot, crate::metrics::chance::Chance)> {
        let mut aggregates = Aggregates::default();
        let mut chance = crate::metrics::chance::ChanceTally::default();
        self.for_each_scored(&keep, |r, _| {
            aggregates.add(&super::scored(&r));
            super::add_chance(&mut chance, &r);
        })?;
        Ok((aggregates.snapshot(), chance.summary()))
    }

    /// The metrics on the questions `keep` accepts only, computed again from results.jsonl.
    pub fn snapshot_where(&self, keep: impl Fn(&str) -> bool) -> anyhow::Result<Snapshot> {
        let mut aggregates = Aggregates::default();
        self.for_each_scored(&keep, |r, _| aggregates.add(&super::scored(&r)))?;
        Ok(aggregates.snapshot())
    }

    /// The run on the questions `keep` accepts only (a comparison's common questions): its
    /// metrics computed again from results.jsonl, on those questions.
    pub fn restricted(&self, keep: impl Fn(&str) -> bool) -> anyhow::Result<LoadedRun> {
        let all = self.answers()?;
        let kept: Vec<AnswerRow> = all.rows.iter().filter(|a| keep(a.id())).cloned().collect();
        let mut r = self.clone();
        let mut aggregates = Aggregates::default();
        let (mut answered, mut by_judge, mut confidences) = (0, 0, Vec::new());
        let mut chance = crate::metrics::chance::ChanceTally::default();
        self.for_each_scored(&keep, |rec, judged| {
            aggregates.add(&super::scored(&rec));
            super::add_chance(&mut chance, &rec);
            answered += 1;
            by_judge += usize::from(judged);
            confidences.extend(super::confidence::point(&rec));
        })?;
        r.answered = answered;
        r.by_judge = by_judge;
        r.snapshot = aggregates.snapshot();
        r.confidences = confidences;
        r.chance = chance.summary();
        r.answers = OnceLock::from(Ok(Arc::new(Answers {
            rows: kept,
            keys: all.keys.clone(),
        })));
        Ok(r)
    }

    /// Whether hand labels are read (not under `--no-labels`).
    pub fn labels_read(&self) -> bool {
        self.labels
    }

    /// Each verifier of every answer on record against the hand labels (none under
    /// `--no-labels`), and what to label next: read from results.jsonl the first time it is
    /// asked for, and kept. Each answer as the machine decided it, before any hand label.
    pub fn judges(&self) -> anyhow::Result<Arc<JudgeReport>> {
        let read = || -> anyhow::Result<JudgeReport> {
            let book = label_book(&self.run, self.labels)?;
            let mut tally = crate::metrics::judges::JudgeTally::new(super::judges::QUEUE_MAX);
            self.run.for_each_result(|r| {
                let o = super::judges::observe(&r);
                tally.add(&o, super::judges::hand(&book, &o.question_id));
            })?;
            Ok(tally.finish())
        };
        self.judges
            .get_or_init(|| read().map(Arc::new).map_err(|e| format!("{e:#}")))
            .clone()
            .map_err(anyhow::Error::msg)
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

    /// How much of the run was answered: "40 of 100 questions answered", or for a run whose
    /// plan left questions out by design, "104 questions planned: 12 asked; 92 not asked
    /// because the true premise was denied".
    pub fn answered_of_planned(&self) -> String {
        let m = &self.manifest;
        match crate::core::not_asked::describe(self.answered as u64, &m.not_asked) {
            Some(line) => format!("{} questions planned: {line}", m.questions),
            None => format!("{} of {} questions answered", self.answered, m.questions),
        }
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

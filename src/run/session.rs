//! A run from start to finish: prepare (KG, questions, run directory, resume), then drive the
//! engine while a recorder appends every answer to `results.jsonl` before anyone else sees it.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use tokio::sync::mpsc;

use super::config::{Manifest, RunConfig};
use super::engine::{self, Control, EngineOptions};
use super::events::RunEvent;
use crate::backends::Backend;
use crate::kg::{self, KgIndex, KnowledgeGraph};
use crate::method::plan::Plan;
use crate::method::plan::PlanInput;
use crate::questions::{GenerateOptions, GenerateReport, Question, TemplateSet};
use crate::record::ResultRecord;
use crate::store::{RunDir, WriterLock};

#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error(transparent)]
    Kg(#[from] kg::KgError),
    #[error(transparent)]
    Store(#[from] crate::store::rundir::StoreError),
    #[error("{0}")]
    Invalid(String),
}

pub struct Prepared {
    pub run: RunDir,
    /// This process's writer lock on the run, held by the recorder too: a second process that
    /// tries to write the run is refused while either lives.
    pub lock: Arc<WriterLock>,
    pub manifest: Manifest,
    pub kg: Arc<dyn KnowledgeGraph>,
    pub index: Arc<KgIndex>,
    /// Every question of the run, in generation order.
    pub questions: Vec<Question>,
    /// Answers recorded by earlier sessions of this run.
    pub done: Vec<ResultRecord>,
    /// A run whose questions depend on earlier answers (KGLens' iterations): `questions` is
    /// empty and `run::adaptive::drive` asks the plan's batches.
    pub plan: Option<Box<dyn Plan>>,
}

impl Prepared {
    /// Questions not answered yet.
    pub fn remaining(&self) -> Vec<Question> {
        let done: HashSet<&str> = self.done.iter().map(|r| r.question.id.as_str()).collect();
        self.questions
            .iter()
            .filter(|q| !done.contains(q.id.as_str()))
            .cloned()
            .collect()
    }
}

pub fn load_templates(paths: &[std::path::PathBuf]) -> Result<TemplateSet, SessionError> {
    let mut set = TemplateSet::builtin();
    for p in paths {
        set.add_file(p).map_err(SessionError::Invalid)?;
    }
    Ok(set)
}

/// A KG opened and indexed for a run: what question generation reads.
pub struct OpenKg {
    pub kg: Arc<dyn KnowledgeGraph>,
    pub index: Arc<KgIndex>,
}

/// Opens and indexes the KG `spec` names: whole, or the sample `draw` says.
pub fn open_kg(
    spec: &str,
    draw: Option<&crate::kg::bounded::Draw>,
    progress: &dyn Fn(&str),
) -> Result<OpenKg, SessionError> {
    index_kg(Arc::from(kg::open(spec)?), draw, progress)
}

/// Indexes a KG opened already: whole, or the sample `draw` says.
pub fn index_kg(
    kg: Arc<dyn KnowledgeGraph>,
    draw: Option<&crate::kg::bounded::Draw>,
    progress: &dyn Fn(&str),
) -> Result<OpenKg, SessionError> {
    let index = Arc::new(match draw {
        Some(d) => crate::kg::bounded::build(kg.as_ref(), d, progress)?,
        None => KgIndex::build(kg.as_ref(), progress)?,
    });
    Ok(OpenKg { kg, index })
}

/// The run's questions, from its configuration, on the opened KG (a staged run makes its
/// questions batch by batch instead, from its plan).
fn questions_for(
    config: &RunConfig,
    kg: Option<&dyn KnowledgeGraph>,
    index: &KgIndex,
    progress: &dyn Fn(&str),
) -> Result<(Vec<Question>, GenerateReport), SessionError> {
    let templates = load_templates(&config.templates)?;
    progress("generating questions");
    let (mut qs, report) = crate::method::generate(index, &templates, &generate_options(config))?;
    if let Some(kg) = kg {
        let r = crate::questions::Renderer {
            index,
            templates: &templates,
            seed: config.seed,
        };
        crate::method::of(config.task).complete(kg, &r, &mut qs)?;
    }
    Ok((qs, report))
}

/// What a run's configuration asks the question generators for.
fn generate_options(config: &RunConfig) -> GenerateOptions {
    GenerateOptions {
        task: config.task,
        limit: config.limit,
        negatives: config.negatives,
        negatives_from: config.negatives_from,
        sampling: config.sampling,
        seed: config.seed,
        relations: config.relations.clone(),
        entities: config.entities.clone(),
        context: config.context,
        fpq: config.fpq.as_ref().map(|f| f.options.clone()),
        assessments: if crate::method::of(config.task).repeats_are_assessments() {
            config.repeats.max(1)
        } else {
            1
        },
        relation_scores: config
            .halu
            .as_ref()
            .map(|h| h.relation_scores.clone())
            .unwrap_or_default(),
    }
}

/// What this KG's recorded KGHaluBench runs in `runs_dir` say of each relation's hardness,
/// per entity type: the runs read, and the mean points per fact (see
/// [`crate::method::kghalubench::points::ScoreSums`]). A run that cannot be read is passed over.
fn learn_relation_scores(
    runs_dir: &Path,
    fingerprint: &str,
    progress: &dyn Fn(&str),
) -> (
    Vec<String>,
    std::collections::BTreeMap<String, std::collections::BTreeMap<String, f64>>,
) {
    let mut sums = crate::method::kghalubench::points::ScoreSums::default();
    let mut ids = Vec::new();
    let Ok(entries) = std::fs::read_dir(runs_dir) else {
        return (ids, Default::default());
    };
    let mut dirs: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    dirs.sort();
    for dir in dirs {
        let Some(id) = dir.file_name().and_then(|n| n.to_str()).map(str::to_string) else {
            continue;
        };
        let Ok(run) = RunDir::open(runs_dir, &id) else {
            continue;
        };
        let Ok(m) = run.read_manifest::<Manifest>() else {
            continue;
        };
        if !crate::method::of(m.config.task).takes_halu_settings()
            || m.kg_fingerprint != fingerprint
        {
            continue;
        }
        progress(&format!("learning relation weights from run {id}"));
        if run.for_each_result(|r| sums.add(&r)).is_ok() {
            ids.push(id);
        }
    }
    (ids, sums.means())
}

/// The plan of a run whose questions depend on earlier answers (KGLens, KG-FPQ), restored
/// from `run`'s saved state and `done` when it resumes; `None` for a run whose questions are
/// all made up front.
fn plan_for(
    config: &RunConfig,
    index: &KgIndex,
    resume: Option<(&RunDir, &[ResultRecord])>,
    progress: &dyn Fn(&str),
) -> Result<Option<Box<dyn Plan>>, SessionError> {
    let sweep = config.limit == super::sweep::ALL;
    if sweep && (config.kglens.is_some() || config.fpq.is_some()) {
        return Err(SessionError::Invalid(format!(
            "--limit all is for the methods whose questions are made up front: {} decides \
             its questions batch by batch (give a number)",
            config.task.as_str()
        )));
    }
    let options = generate_options(config);
    let input = PlanInput {
        index,
        options: &options,
        settings: config.own_settings(),
    };
    let plan = match crate::method::of(config.task).plan(&input, progress)? {
        Some(plan) => Some(plan),
        // KGHaluBench's "all" is every candidate entity once, drawn up front.
        None if sweep && !crate::method::of(config.task).repeats_are_assessments() => {
            progress("ordering every askable fact");
            let templates = load_templates(&config.templates)?;
            Some(Box::new(super::sweep::Sweep::new(index, &templates, &options)?) as Box<dyn Plan>)
        }
        None => None,
    };
    let Some(mut plan) = plan else {
        return Ok(None);
    };
    if let Some((dir, done)) = resume {
        plan.restore(dir, done).map_err(SessionError::Invalid)?;
    }
    Ok(Some(plan))
}

/// The questions a new run of `config` asks first: every question of a method that makes
/// them up front, the first batch of a staged one (KGLens' first iteration, KG-FPQ's true
/// premises). What `kgscope bench endpoint` and the endpoint-vs-store tests compare.
pub fn first_questions(
    config: &RunConfig,
    index: &KgIndex,
    progress: &dyn Fn(&str),
) -> Result<Vec<Question>, SessionError> {
    match questions_and_plan(config, None, index, None, progress)? {
        (questions, None, _) => Ok(questions),
        (_, Some(mut plan), _) => {
            let templates = load_templates(&config.templates)?;
            Ok(plan
                .next_batch(index, &templates, &Default::default())
                .map(|(_, qs)| qs)
                .unwrap_or_default())
        }
    }
}

/// The questions made up front (and how they were drawn), or the plan that makes them batch by
/// batch.
type QuestionsOrPlan = (Vec<Question>, Option<Box<dyn Plan>>, Option<GenerateReport>);

/// The questions made up front and the plan of a run: one or the other.
fn questions_and_plan(
    config: &RunConfig,
    kg: Option<&dyn KnowledgeGraph>,
    index: &KgIndex,
    resume: Option<(&RunDir, &[ResultRecord])>,
    progress: &dyn Fn(&str),
) -> Result<QuestionsOrPlan, SessionError> {
    let plan = plan_for(config, index, resume, progress)?;
    let (questions, report) = match plan {
        Some(_) => (vec![], None),
        None => {
            let (qs, report) = questions_for(config, kg, index, progress)?;
            (qs, Some(report))
        }
    };
    Ok((questions, plan, report))
}

/// What a run of `config` would ask, by the same generation the run does: how many questions
/// (a staged method: the most it may ask), or the run's own refusal when it would ask none.
/// What the TUI's run dialog shows before it promises a run.
pub fn what_it_makes(config: &RunConfig, index: &KgIndex) -> Result<Makes, String> {
    match questions_and_plan(config, None, index, None, &|_| {}) {
        Err(e) => Err(e.to_string()),
        Ok((_, Some(plan), _)) => Ok(Makes {
            questions: plan.most_questions(),
            staged: true,
        }),
        Ok((qs, None, report)) if qs.is_empty() => {
            Err(nothing_made(config, index, report.as_ref()))
        }
        Ok((qs, None, _)) => Ok(Makes {
            questions: qs.len(),
            staged: false,
        }),
    }
}

/// How many questions a run would ask ([`what_it_makes`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Makes {
    pub questions: usize,
    /// Decided batch by batch (KGLens, KG-FPQ): `questions` is the most it may ask.
    pub staged: bool,
}

/// Why `config` made no question, and the first other method that makes some from the same
/// selection (by the same generation the run does), for the refusal.
pub fn nothing_made(
    config: &RunConfig,
    index: &KgIndex,
    report: Option<&GenerateReport>,
) -> String {
    let task = config.task.as_str();
    let mut out = format!("no {task} questions could be made from the selection");
    if let Some(why) = report.and_then(|r| r.shortfall(config.limit.max(1))) {
        out.push_str(&format!(" ({why})"));
    }
    match other_method_that_works(config, index) {
        Some((t, n)) => out.push_str(&format!("; --task {} makes {n} from it", t.as_str())),
        None => out.push_str(
            "; no other method makes any from it either: choose other relations or entities",
        ),
    }
    out
}

/// The first method other than `config`'s, in the registry's order, that makes questions from
/// the same selection, and how many it asks first (a staged method's first batch), by the same
/// generation a run does.
pub fn other_method_that_works(
    config: &RunConfig,
    index: &KgIndex,
) -> Option<(crate::questions::Task, usize)> {
    crate::method::all().map(|m| m.task()).find_map(|t| {
        if t == config.task {
            return None;
        }
        let n = first_questions(&as_method(config, t), index, &|_| {})
            .ok()?
            .len();
        (n > 0).then_some((t, n))
    })
}

/// `config` as a run of `task` would be: the same selection, seed and model, with `task`'s own
/// settings at their defaults.
pub fn as_method(config: &RunConfig, task: crate::questions::Task) -> RunConfig {
    let fresh = RunConfig::new(&config.kg, config.model.clone(), task, config.limit);
    RunConfig {
        task,
        repeats: crate::method::of(task).default_repeats(),
        kglens: fresh.kglens,
        fpq: fresh.fpq,
        halu: fresh.halu,
        ..config.clone()
    }
}

/// How a local model's prompts will be laid out, from its file's metadata (see
/// [`crate::backends::llama::prompt_format`]); `None` for a server's model or an unreadable file
/// (the model's load then says what is wrong with it).
fn prompt_format(model: &super::ModelSpec) -> Option<crate::backends::llama::PromptFormat> {
    match model {
        super::ModelSpec::Llama { path } => crate::backends::llama::prompt_format(path).ok(),
        super::ModelSpec::Openai { .. } => None,
    }
}

/// Prepares a new run in a fresh directory under `runs_dir`.
pub fn prepare_new(
    config: RunConfig,
    model_id: &str,
    runs_dir: &Path,
    progress: &dyn Fn(&str),
) -> Result<Prepared, SessionError> {
    crate::kg::profile::set_choice(config.profile_choice());
    let opened = open_kg(&config.kg, config.draw().as_ref(), progress)?;
    prepare_new_on(opened, config, model_id, runs_dir, progress)
}

/// [`prepare_new`] on a KG the caller has opened already (`kgscope run` opens it first to
/// resolve `--entity` names), so it is not read twice.
pub fn prepare_new_on(
    opened: OpenKg,
    config: RunConfig,
    model_id: &str,
    runs_dir: &Path,
    progress: &dyn Fn(&str),
) -> Result<Prepared, SessionError> {
    let OpenKg { kg, index } = opened;
    let mut config = config;
    if let Some(h) = config.halu.as_mut() {
        let (ids, scores) = learn_relation_scores(runs_dir, index.fingerprint(), progress);
        h.learnt_from = ids;
        h.relation_scores = scores;
    }
    let (questions, plan, selection) =
        questions_and_plan(&config, Some(kg.as_ref()), &index, None, progress)?;
    // Refused before the run directory exists: a run that can ask nothing leaves nothing in
    // the picker or Compare, and the refusal says why and which method would work.
    if questions.is_empty() && plan.is_none() {
        return Err(SessionError::Invalid(nothing_made(
            &config,
            &index,
            selection.as_ref(),
        )));
    }
    let run = RunDir::create(runs_dir, config.task.as_str())?;
    let lock = Arc::new(run.lock_for_writing()?);
    let manifest = Manifest {
        schema_version: super::config::SCHEMA_VERSION,
        run_id: run.id.clone(),
        tool_version: env!("CARGO_PKG_VERSION").into(),
        created_at: crate::store::rundir::now(),
        kg_source: kg.source(),
        kg_fingerprint: index.fingerprint().into(),
        kg_profile: (!index.profile().is_generic()).then(|| index.profile().summary()),
        model_id: model_id.into(),
        prompt: prompt_format(&config.model),
        questions: plan
            .as_ref()
            .map_or(questions.len(), |p| p.most_questions()),
        config,
        finished_at: None,
        selection,
        not_asked: vec![],
        extra: Default::default(),
    };
    run.write_manifest(&manifest)?;
    Ok(Prepared {
        run,
        lock,
        manifest,
        kg,
        index,
        questions,
        done: vec![],
        plan,
    })
}

/// Reopens a run: the same questions are regenerated from the manifest's configuration, and
/// those already in `results.jsonl` are skipped.
pub fn prepare_resume(
    runs_dir: &Path,
    id: &str,
    progress: &dyn Fn(&str),
) -> Result<Prepared, SessionError> {
    // The lock comes before the results are read: what another writer appends after the read
    // would otherwise be asked again.
    let run = RunDir::open(runs_dir, id)?;
    let lock = Arc::new(run.lock_for_writing()?);
    let (run, manifest, done) = read_run(run)?;
    crate::kg::profile::set_choice(manifest.config.profile_choice());
    let OpenKg { kg, index } = open_kg(
        &manifest.config.kg,
        manifest.config.draw().as_ref(),
        progress,
    )?;
    if index.fingerprint() != manifest.kg_fingerprint {
        return Err(SessionError::Invalid(format!(
            "the KG {} changed since run {} started (fingerprint {} now, {} then): its questions would differ",
            manifest.config.kg,
            run.id,
            index.fingerprint(),
            manifest.kg_fingerprint
        )));
    }
    let (questions, plan, _) = questions_and_plan(
        &manifest.config,
        Some(kg.as_ref()),
        &index,
        Some((&run, &done)),
        progress,
    )?;
    Ok(Prepared {
        run,
        lock,
        manifest,
        kg,
        index,
        questions,
        done,
        plan,
    })
}

/// Opens a run to browse it, without regenerating anything.
pub fn open_results(
    runs_dir: &Path,
    id: &str,
) -> Result<(RunDir, Manifest, Vec<ResultRecord>), SessionError> {
    read_run(RunDir::open(runs_dir, id)?)
}

fn read_run(run: RunDir) -> Result<(RunDir, Manifest, Vec<ResultRecord>), SessionError> {
    let manifest: Manifest = run.read_manifest()?;
    let mut done = Vec::new();
    run.for_each_result(|r| done.push(r))?;
    Ok((run, manifest, done))
}

/// Questions to ask and where their answers go.
pub struct Batch {
    pub run: RunDir,
    pub lock: Arc<WriterLock>,
    /// Marks the run finished in this manifest once `total` answers are recorded; `None` when
    /// the caller decides that (an adaptive run, batch by batch).
    pub finish: Option<Manifest>,
    pub questions: Vec<Question>,
    pub total: usize,
    pub already_done: usize,
}

/// Asks `batch.questions` through the engine under `control`, appending every answer to
/// `results.jsonl` before its event goes on to the returned receiver.
pub fn spawn(
    batch: Batch,
    backend: Arc<dyn Backend>,
    opts: EngineOptions,
    control: Control,
) -> (
    mpsc::Receiver<RunEvent>,
    tokio::task::JoinHandle<Result<(), String>>,
) {
    let (engine_tx, mut engine_rx) = mpsc::channel::<RunEvent>(1024);
    let (out_tx, out_rx) = mpsc::channel::<RunEvent>(1024);
    let Batch {
        run,
        lock,
        finish,
        questions,
        total,
        already_done,
    } = batch;
    tokio::spawn(engine::run(backend, questions, opts, engine_tx, control));
    let recorder = tokio::spawn(async move {
        let _lock = lock;
        let mut appender = run.results_appender().map_err(|e| e.to_string())?;
        let _ = out_tx
            .send(RunEvent::Started {
                total,
                already_done,
            })
            .await;
        let mut answered = already_done;
        while let Some(event) = engine_rx.recv().await {
            let finished = match &event {
                RunEvent::Answered(record) => {
                    appender.push(record.as_ref()).map_err(|e| e.to_string())?;
                    answered += 1;
                    // Handed to the OS before the event goes on, so whoever reads the log
                    // (the TUI follows it) sees every answer it has been told about. Waiting
                    // for a quiet queue instead held answers back for as long as tokens kept
                    // streaming. One write per answer is nothing next to generating it.
                    appender.flush().map_err(|e| e.to_string())?;
                    false
                }
                RunEvent::Finished { .. } => true,
                _ => false,
            };
            if finished {
                appender.sync().map_err(|e| e.to_string())?;
                if let Some(manifest) = finish.as_ref().filter(|_| answered >= total) {
                    mark_finished(&run, manifest).map_err(|e| e.to_string())?;
                }
            }
            // The consumer may have gone (a headless run stopping); keep recording regardless.
            let _ = out_tx.send(event).await;
            if finished {
                break;
            }
        }
        appender.sync().map_err(|e| e.to_string())
    });
    (out_rx, recorder)
}

/// Writes the manifest again with the time the run finished.
pub fn mark_finished(
    run: &RunDir,
    manifest: &Manifest,
) -> Result<(), crate::store::rundir::StoreError> {
    let mut m = manifest.clone();
    m.finished_at = Some(crate::store::rundir::now());
    run.write_manifest(&m)
}

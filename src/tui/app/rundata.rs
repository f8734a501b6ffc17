//! The open run as the TUI holds it: aggregates in memory, rows on disk. `results.jsonl` is
//! the one source of truth, for a recorded run and for one going on alike: it is followed as
//! it grows, on a thread of its own that reads and parses the new lines, and each answer is
//! folded into the aggregates once, on the frame after it was parsed. Each answer keeps only
//! what the Errors list filters and sorts by, plus the byte offset of its line (correct
//! answers too, so an annotator can label them and judge data is balanced); the records a
//! frame shows are read back before it is drawn ([`RunData::prepare`]), never while drawing,
//! so memory stays flat however long the run.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet, VecDeque};
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::why::WhyIndex;
use super::Cell;
use crate::metrics::judges::Observation;
use crate::metrics::{Counts, Snapshot};
use crate::report::Tally;
use crate::run::{Manifest, ResultRecord};
use crate::store::jsonl::{self, Follower, JsonlError};
use crate::store::labels::{LabelBook, LabelEntry, LabelVerdict};
use crate::store::lock::Holder;
use crate::store::rundir::StoreError;
use crate::store::RunDir;
use crate::verify::OutcomeKind;

/// One answer: what the Errors list filters and sorts by, and where its record is. 32 bytes
/// (names are numbers into the run's [`Names`]), so a row for every answer of a run of tens of
/// thousands costs about a megabyte.
#[derive(Debug, Clone, Copy)]
pub struct AnswerRow {
    pub offset: u64,
    relation: u32,
    /// "-" when the KG gives no type, as the aggregates group it.
    head_type: u32,
    tail_type: u32,
    /// `NO_YEAR` when the question has none.
    year: i32,
    pub outcome: OutcomeKind,
    /// The method's facets (KG-FPQ's edit, hop, format, relation): an index into the run's
    /// distinct facet sets (rows share a handful of them).
    facets: u32,
}

const NO_YEAR: i32 = i32::MIN;

impl AnswerRow {
    pub fn year(&self) -> Option<i32> {
        (self.year != NO_YEAR).then_some(self.year)
    }
}

/// The distinct facet sets of a run's answer rows, each held once.
#[derive(Default)]
struct FacetSets {
    list: Vec<Vec<(u32, u32)>>,
    ids: HashMap<Vec<(u32, u32)>, u32>,
}

impl FacetSets {
    fn id(&mut self, set: Vec<(u32, u32)>) -> u32 {
        if let Some(&i) = self.ids.get(&set) {
            return i;
        }
        let i = self.list.len() as u32;
        self.list.push(set.clone());
        self.ids.insert(set, i);
        i
    }
}

/// Relation and type names, each held once; rows refer to them by number.
#[derive(Default)]
struct Names {
    list: Vec<Arc<str>>,
    ids: HashMap<Arc<str>, u32>,
}

impl Names {
    fn id(&mut self, s: &str) -> u32 {
        if let Some(&id) = self.ids.get(s) {
            return id;
        }
        let name: Arc<str> = Arc::from(s);
        let id = self.list.len() as u32;
        self.list.push(name.clone());
        self.ids.insert(name, id);
        id
    }

    fn get(&self, id: u32) -> &str {
        &self.list[id as usize]
    }
}

/// Records read back from disk for drawing: the rows in view and the inspected one. Cleared
/// when full; a page of rows is far smaller than this.
const CACHE_MAX: usize = 512;

/// Latest answers whose offsets are kept, for Live: more than any screen has rows.
const RECENT_MAX: usize = 200;

pub struct RunData {
    pub run: RunDir,
    pub manifest: Manifest,
    /// Every answer of the run (the first of each question), in the order of results.jsonl:
    /// the Errors list filters them (by default to the non-correct ones).
    pub rows: Vec<AnswerRow>,
    pub tally: Tally,
    pub snapshot: Snapshot,
    /// The answer distribution and chance baseline, taken with `snapshot`.
    pub chance: crate::metrics::chance::Chance,
    /// Every annotator's current label of each question.
    pub labels: LabelBook,
    /// Label lines taken in so far: what changes when a label does (a cache key).
    pub labels_seen: u64,
    /// Why labels.jsonl could not be read, when it could not (the run opens without labels).
    pub labels_error: Option<String>,
    /// labels.jsonl's length and modification time when it was last read. Other annotators
    /// (a second TUI, `kgscope labels`) append to it while this window is open: the tick
    /// compares these with the file's and reads it again when they differ, so their labels
    /// reach Inspect and the Judge view as they are written. A stat per tick is cheap.
    labels_stamp: Option<(u64, Option<std::time::SystemTime>)>,
    /// The answer row of each question labels.jsonl mentions, so the Errors list can filter
    /// by label without reading every record back from disk.
    label_rows: HashMap<String, usize>,
    /// Outcome counts per entity IRI (as subject or object), for Explore's card.
    pub by_entity: HashMap<String, Counts>,
    /// Each group's outcomes by gold answer and replaced part, and the answers given.
    pub why: WhyIndex,
    /// Why results.jsonl can no longer be followed, once it cannot.
    pub broken: Option<String>,
    /// Another process writing this run (a headless `run --resume`): while one does, the run
    /// is read-only here. Probed about once a second, in the tick, never while drawing.
    pub writer: Option<Holder>,
    writer_probed: Option<Instant>,
    /// The thread following results.jsonl, once the run is open.
    follow: Option<Following>,
    /// While the log is first read: hashes of the question ids, to keep only the first record
    /// of each, as `report` does (a collision would need 2^32 questions). Dropped afterwards:
    /// the engine never writes a question twice, so what follows needs no check and memory
    /// does not grow with every answer.
    seen: Option<(HashSet<u64>, std::collections::hash_map::RandomState)>,
    names: Names,
    facet_sets: FacetSets,
    /// Records read back by their offsets, for the frames that show them.
    cache: RefCell<HashMap<u64, Result<Arc<ResultRecord>, String>>>,
    /// The latest answers, at most `RECENT_MAX` (Live shows them without reading the disk).
    recent: VecDeque<Arc<ResultRecord>>,
    pub(super) snapshot_stale: bool,
    /// What the verifiers made of every answer, with the offset of its line, in file order:
    /// for the Judge screen. `None` until it first asks; kept up to date by `fold` from then.
    pub judged: Option<Vec<(u64, Observation)>>,
    /// While the answers before the Judge screen asked are read again: the answers folded
    /// since, to add to what that read finds.
    judge_tail: Option<Vec<(u64, Observation)>>,
    /// Where that read stopped: answers folded from there on are added to `judged` (those
    /// before it, parsed but not yet folded when it read them, it has already).
    judge_end: u64,
}

/// labels.jsonl's length and modification time; `None` while there is no such file.
fn labels_stamp(run: &RunDir) -> Option<(u64, Option<std::time::SystemTime>)> {
    let m = std::fs::metadata(run.labels_path()).ok()?;
    Some((m.len(), m.modified().ok()))
}

/// What [`RunData::observing`] reads: every answer's observation with its offset, in file
/// order, and where the read stopped.
pub type ObservedRead = Result<(Vec<(u64, Observation)>, u64), String>;

impl RunData {
    /// Opens a run and reads what results.jsonl holds so far.
    pub fn open(run: RunDir, manifest: Manifest) -> Result<RunData, JsonlError> {
        let labels_stamp = labels_stamp(&run);
        let (labels, labels_error) = match run.read_labels() {
            Ok(entries) => (LabelBook::from_entries(entries), None),
            Err(e) => (LabelBook::default(), Some(e.to_string())),
        };
        let mut d = RunData {
            labels,
            labels_seen: 0,
            labels_error,
            labels_stamp,
            label_rows: HashMap::new(),
            follow: None,
            run,
            manifest,
            rows: Vec::new(),
            tally: Tally::default(),
            snapshot: Tally::default().snapshot(),
            chance: Tally::default().chance.summary(),
            by_entity: HashMap::new(),
            why: WhyIndex::default(),
            broken: None,
            writer: None,
            writer_probed: None,
            seen: Some(Default::default()),
            names: Names::default(),
            facet_sets: FacetSets::default(),
            cache: RefCell::new(HashMap::new()),
            recent: VecDeque::new(),
            snapshot_stale: false,
            judged: None,
            judge_tail: None,
            judge_end: 0,
        };
        d.probe_writer();
        let mut results = Follower::new(&d.run.results_path());
        results.read_new(|offset, r: ResultRecord| d.fold(offset, r))?;
        d.follow = Some(Following::start(results));
        d.seen = None;
        d.snapshot = d.tally.snapshot();
        d.chance = d.tally.chance.summary();
        Ok(d)
    }

    /// Reads labels.jsonl again when it changed since it was last read (another annotator
    /// wrote to it, or this window did); returns whether it did. A file that cannot be read
    /// keeps the labels held and says why.
    pub fn reload_labels(&mut self) -> bool {
        let stamp = labels_stamp(&self.run);
        if stamp == self.labels_stamp {
            return false;
        }
        self.labels_stamp = stamp;
        match self.run.read_labels() {
            Ok(entries) => {
                self.labels = LabelBook::from_entries(entries);
                self.labels_error = None;
            }
            Err(e) => {
                self.labels_error = Some(e.to_string());
                return false;
            }
        }
        // Questions labelled elsewhere for the first time: their answer rows, where the
        // Judge screen's read has their offsets (the rows themselves hold no question ids).
        if let Some(judged) = &self.judged {
            for (offset, o) in judged {
                if !self.label_rows.contains_key(&o.question_id)
                    && self.labels.mentions(&o.question_id)
                {
                    if let Some(row) = self.row_at(*offset) {
                        self.label_rows.insert(o.question_id.clone(), row);
                    }
                }
            }
        }
        // What is cached on the labels (the Judge view's figures, the Errors filter) is
        // made again.
        self.labels_seen += 1;
        true
    }

    /// Asks the run's lock who writes the run, at most once a second. This process's own lock
    /// (a run this window drives) is no other writer.
    pub fn probe_writer(&mut self) {
        if self
            .writer_probed
            .is_some_and(|t| t.elapsed() < Duration::from_secs(1))
        {
            return;
        }
        self.writer_probed = Some(Instant::now());
        self.writer = self.run.writer().filter(|h| h.pid != std::process::id());
    }

    /// Folds in the answers the following thread has parsed since the last call; returns how
    /// many. Called once per frame while a run goes on. A log that turns bad stops being
    /// followed, and says why.
    pub fn refresh(&mut self) -> usize {
        let Some(follow) = &self.follow else {
            return 0;
        };
        let mut parsed = Vec::new();
        let mut broken = None;
        for msg in follow.rx.try_iter() {
            match msg {
                Ok(batch) => parsed.extend(batch),
                Err(why) => broken = Some(why),
            }
        }
        let n = parsed.len();
        for (offset, r) in parsed {
            self.fold(offset, r);
        }
        if broken.is_some() {
            self.broken = broken;
            self.follow = None;
        }
        self.snapshot_stale |= n > 0;
        n
    }

    /// Waits (at most `timeout`) until the following thread has parsed what results.jsonl
    /// holds now, for the next [`RunData::refresh`] to fold: for tests and benchmarks that
    /// write the log themselves.
    pub fn wait_parsed(&self, timeout: Duration) {
        let len = std::fs::metadata(self.run.results_path()).map_or(0, |m| m.len());
        let deadline = Instant::now() + timeout;
        if let Some(f) = &self.follow {
            while f.shared.read_to.load(Ordering::Acquire) < len
                && !f.shared.ended.load(Ordering::Acquire)
                && Instant::now() < deadline
            {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }

    fn fold(&mut self, offset: u64, r: ResultRecord) {
        if let Some((seen, hasher)) = &mut self.seen {
            if !seen.insert(hasher.hash_one(&r.question.id)) {
                return;
            }
        }
        self.tally.add(&r);
        let choice = match r.answer() {
            crate::core::answer::Answer::Choice { index } => Some(index),
            _ => None,
        };
        self.why.add_with(&r.question, r.verdict, r.outcome, choice);
        for iri in [&r.question.subject, &r.question.object] {
            // Look up before inserting: most answers are about entities already counted, and
            // `entry` would copy the IRI for each of them.
            match self.by_entity.get_mut(iri) {
                Some(c) => c.add(r.outcome),
                None => {
                    let mut c = Counts::default();
                    c.add(r.outcome);
                    self.by_entity.insert(iri.clone(), c);
                }
            }
        }
        let q = &r.question;
        let row = AnswerRow {
            offset,
            relation: self.names.id(&q.relation),
            head_type: self.names.id(q.head_type.as_deref().unwrap_or("-")),
            tail_type: self.names.id(q.tail_type.as_deref().unwrap_or("-")),
            year: q.year.unwrap_or(NO_YEAR),
            outcome: r.outcome,
            facets: {
                let set: Vec<(u32, u32)> = crate::method::of(q.task)
                    .facets(q)
                    .iter()
                    .map(|(f, v)| (self.names.id(f), self.names.id(v)))
                    .collect();
                self.facet_sets.id(set)
            },
        };
        if self.labels.mentions(&q.id) {
            self.label_rows.insert(q.id.clone(), self.rows.len());
        }
        self.rows.push(row);
        if let Some(rows) = self.judged.as_mut() {
            if offset >= self.judge_end {
                rows.push((offset, crate::report::judges::observe(&r)));
            }
        } else if let Some(rows) = self.judge_tail.as_mut() {
            rows.push((offset, crate::report::judges::observe(&r)));
        }
        if self.recent.len() == RECENT_MAX {
            self.recent.pop_front();
        }
        self.recent.push_back(Arc::new(r));
    }

    /// The answer rows the annotator currently has a label on, with its verdict.
    pub fn labelled_rows(&self, annotator: &str) -> HashMap<usize, LabelVerdict> {
        self.label_rows
            .iter()
            .filter_map(|(q, &row)| Some((row, self.labels.get(q, annotator)?.label)))
            .collect()
    }

    /// The answer row of a question that has been labelled, if it is an answer of this run.
    pub fn label_row(&self, qid: &str) -> Option<usize> {
        self.label_rows.get(qid).copied()
    }

    /// Appends a label line about a question to labels.jsonl, then takes it into account;
    /// `row` is its answer row (`None`: a question this run has no answer to, as a label
    /// file may hold).
    pub fn append_label(
        &mut self,
        row: Option<usize>,
        entry: LabelEntry,
    ) -> Result<(), StoreError> {
        self.run.append_label(entry.clone())?;
        if let Some(row) = row {
            self.label_rows.insert(entry.question_id().to_string(), row);
        }
        self.labels.apply(entry);
        self.labels_seen += 1;
        Ok(())
    }

    pub fn relation(&self, e: &AnswerRow) -> &str {
        self.names.get(e.relation)
    }

    /// Whether an error belongs to a heatmap cell.
    pub fn in_cell(&self, e: &AnswerRow, cell: &Cell) -> bool {
        match cell {
            Cell::Relation(r) => self.names.get(e.relation) == r,
            Cell::HeadTail(h, t) => {
                self.names.get(e.head_type) == h && self.names.get(e.tail_type) == t
            }
            Cell::Years(a, b) => e.year().is_some_and(|y| (*a..=*b).contains(&y)),
            Cell::Facets { pair, row, col } => {
                let has = |facet: &str, value: &str| {
                    self.facet_sets.list[e.facets as usize]
                        .iter()
                        .any(|(f, v)| self.names.get(*f) == facet && self.names.get(*v) == value)
                };
                let (a, b) = pair.split_once(" × ").unwrap_or((pair.as_str(), ""));
                has(a, row) && has(b, col)
            }
        }
    }

    /// The row of the answer on the line at `offset` (`None`: a repeat of a question, which
    /// no aggregate counts either).
    pub fn row_at(&self, offset: u64) -> Option<usize> {
        self.rows.binary_search_by_key(&offset, |e| e.offset).ok()
    }

    /// How many answers are not correct: what the Errors list holds by default.
    pub fn error_count(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.outcome != OutcomeKind::Correct)
            .count()
    }

    /// Starts keeping what the verifiers made of every answer (the Judge screen): returns the
    /// read of the answers on record so far, for the caller to run at once or on a thread of
    /// its own and hand to [`RunData::observed`]. Answers folded meanwhile are kept aside.
    pub fn observing(&mut self) -> impl FnOnce() -> ObservedRead + Send + 'static {
        self.judge_tail = Some(Vec::new());
        let path = self.run.results_path();
        move || {
            let mut seen = HashSet::new();
            let mut rows = Vec::new();
            let mut log = Follower::new(&path);
            log.read_new(|offset, r: ResultRecord| {
                // The first record of each question, as `fold` and `report` keep.
                if seen.insert(r.question.id.clone()) {
                    rows.push((offset, crate::report::judges::observe(&r)));
                }
            })
            .map_err(|e| e.to_string())?;
            Ok((rows, log.pos()))
        }
    }

    /// Whether the answers are being read again for the Judge screen.
    pub fn observing_pending(&self) -> bool {
        self.judge_tail.is_some()
    }

    /// Takes the read [`RunData::observing`] started: the answers it found, then those
    /// folded since that lie past where it stopped. A failed read leaves the screen without
    /// figures (it says why), and a later visit tries again.
    pub fn observed(&mut self, read: ObservedRead) -> Result<(), String> {
        let tail = self.judge_tail.take().unwrap_or_default();
        let (mut rows, end) = read?;
        rows.extend(tail.into_iter().filter(|(offset, _)| *offset >= end));
        self.judge_end = end;
        self.judged = Some(rows);
        Ok(())
    }

    /// The bytes of results.jsonl now.
    pub fn results_bytes(&self) -> u64 {
        std::fs::metadata(self.run.results_path()).map_or(0, |m| m.len())
    }

    /// Reads back the records on the lines at `offsets` not read yet (the Judge screen's
    /// queue), before a frame is drawn.
    pub fn prepare_at(&self, offsets: impl IntoIterator<Item = u64>) {
        self.prepare_offsets(offsets);
    }

    /// The record on the line at `offset` as [`RunData::prepare_at`] read it back.
    pub fn prepared_at(&self, offset: u64) -> Option<Result<Arc<ResultRecord>, String>> {
        self.cache.borrow().get(&offset).cloned()
    }

    /// The record of an answer row, read back from results.jsonl (or taken from the cache).
    pub fn record(&self, row: usize) -> Result<Arc<ResultRecord>, String> {
        let offset = self.offset(row)?;
        self.prepare_offsets([offset]);
        self.cache.borrow()[&offset].clone()
    }

    /// The record of an answer row as [`RunData::prepare`] read it back: what a frame draws.
    /// `None` when it was not prepared (the frame shows a placeholder, and the next one has it).
    pub fn prepared(&self, row: usize) -> Option<Result<Arc<ResultRecord>, String>> {
        let offset = self.offset(row).ok()?;
        self.cache.borrow().get(&offset).cloned()
    }

    /// Reads back the records of the answer rows the next frame may show, those not read yet;
    /// called before drawing, so drawing reads no file.
    pub fn prepare(&self, rows: impl IntoIterator<Item = usize>) {
        self.prepare_offsets(rows.into_iter().filter_map(|row| self.offset(row).ok()));
    }

    fn prepare_offsets(&self, offsets: impl IntoIterator<Item = u64>) {
        let path = self.run.results_path();
        let mut cache = self.cache.borrow_mut();
        for offset in offsets {
            if cache.contains_key(&offset) {
                continue;
            }
            if cache.len() >= CACHE_MAX {
                cache.clear();
            }
            let r = jsonl::read_at(&path, offset)
                .map(Arc::new)
                .map_err(|e| e.to_string());
            cache.insert(offset, r);
        }
    }

    fn offset(&self, row: usize) -> Result<u64, String> {
        Ok(self
            .rows
            .get(row)
            .ok_or_else(|| format!("no answer {row}"))?
            .offset)
    }

    /// The latest `n` answers of the run (oldest first): what Live shows of a run no
    /// evaluation in this window is driving.
    pub fn latest(&self, n: usize) -> impl Iterator<Item = &Arc<ResultRecord>> {
        self.recent.iter().skip(self.recent.len().saturating_sub(n))
    }
}

/// How often the following thread looks for new lines: soon after it found some, less often
/// while the log is quiet.
const FOLLOW_BUSY: Duration = Duration::from_millis(10);
const FOLLOW_IDLE: Duration = Duration::from_millis(50);

/// What the following thread parsed: a batch of records with their offsets, or why the log
/// can no longer be read (the thread stops then).
type Parsed = Result<Vec<(u64, ResultRecord)>, String>;

/// results.jsonl followed on a thread of its own, so that reading and parsing new answers
/// never takes a frame's time; the thread stops when this is dropped.
struct Following {
    rx: Receiver<Parsed>,
    shared: Arc<FollowState>,
}

struct FollowState {
    stop: AtomicBool,
    /// Bytes of the log parsed and sent so far.
    read_to: AtomicU64,
    /// The thread has stopped (a bad line, or the run was closed).
    ended: AtomicBool,
}

impl Following {
    /// Follows the log from where `results` stopped reading.
    fn start(mut results: Follower) -> Self {
        let (tx, rx) = mpsc::channel();
        let shared = Arc::new(FollowState {
            stop: AtomicBool::new(false),
            read_to: AtomicU64::new(results.pos()),
            ended: AtomicBool::new(false),
        });
        let state = shared.clone();
        let follow = move || {
            let mut wait = FOLLOW_BUSY;
            while !state.stop.load(Ordering::Relaxed) {
                let mut batch = Vec::new();
                match results.read_new(|offset, r: ResultRecord| batch.push((offset, r))) {
                    Ok(0) => wait = (wait * 2).min(FOLLOW_IDLE),
                    Ok(_) => {
                        if tx.send(Ok(batch)).is_err() {
                            break;
                        }
                        wait = FOLLOW_BUSY;
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e.to_string()));
                        break;
                    }
                }
                // After the send: whoever sees this offset finds the batch on the channel.
                state.read_to.store(results.pos(), Ordering::Release);
                std::thread::sleep(wait);
            }
            state.ended.store(true, Ordering::Release);
        };
        if let Err(e) = std::thread::Builder::new()
            .name("follow results.jsonl".into())
            .spawn(follow)
        {
            // No thread to be had: the run shows what it held when opened, and says why.
            shared.ended.store(true, Ordering::Release);
            let (tx, rx2) = mpsc::channel();
            let _ = tx.send(Err(format!("cannot follow results.jsonl: {e}")));
            return Self { rx: rx2, shared };
        }
        Self { rx, shared }
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

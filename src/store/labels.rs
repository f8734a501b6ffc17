//! Hand labels: what a person decided about one outcome.
//!
//! labels.jsonl is append-only. Each line is either a whole judgement (a [`Label`]: the
//! verdict, with the error type and note given with it, by one annotator) or a retraction of
//! one annotator's own judgement (undo or clear). Replaying the lines gives every annotator's
//! current judgement of every question ([`LabelBook`]), so relabelling never rewrites history
//! and annotators never overwrite each other. Files written before retractions existed hold
//! judgements only and replay the same way.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};

pub use crate::core::question_cause::QuestionCause;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LabelVerdict {
    /// The model's answer is right (whatever the verifier decided).
    Right,
    /// The model's answer is wrong.
    Wrong,
    /// The model abstained.
    Abstained,
    /// The question itself is bad (ungrammatical, ambiguous, unanswerable).
    BadQuestion,
    /// The KG's fact is wrong.
    KgWrong,
}

impl LabelVerdict {
    pub const ALL: [LabelVerdict; 5] = [
        LabelVerdict::Right,
        LabelVerdict::Wrong,
        LabelVerdict::Abstained,
        LabelVerdict::BadQuestion,
        LabelVerdict::KgWrong,
    ];

    /// The class of GraphEval's judge a label puts the answer in; `None` for a label that
    /// blames the question or the KG, which says nothing about the answer.
    pub fn class(self) -> Option<crate::core::verdict::JudgeClass> {
        use crate::core::verdict::JudgeClass;
        match self {
            LabelVerdict::Right => Some(JudgeClass::Correct),
            LabelVerdict::Wrong => Some(JudgeClass::Incorrect),
            LabelVerdict::Abstained => Some(JudgeClass::Idk),
            LabelVerdict::BadQuestion | LabelVerdict::KgWrong => None,
        }
    }

    /// Whether the label blames the question (the reviewed set's "reject"): a cause goes
    /// with it.
    pub fn rejects_question(self) -> bool {
        matches!(self, LabelVerdict::BadQuestion | LabelVerdict::KgWrong)
    }

    /// The cause the verdict itself says, without asking: a wrong KG fact is a wrong answer
    /// key. A bad question's cause is the annotator's to choose.
    pub fn implied_cause(self) -> Option<QuestionCause> {
        match self {
            LabelVerdict::KgWrong => Some(QuestionCause::GoldWrong),
            _ => None,
        }
    }

    /// The name a person reads ("KG wrong"); the file spells it in snake case.
    pub fn name(self) -> &'static str {
        match self {
            LabelVerdict::Right => "right",
            LabelVerdict::Wrong => "wrong",
            LabelVerdict::Abstained => "abstained",
            LabelVerdict::BadQuestion => "bad question",
            LabelVerdict::KgWrong => "KG wrong",
        }
    }
}

/// KGLens' error taxonomy (Zheng et al., 2024), plus "other".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorType {
    FactualError,
    ObsoleteKnowledge,
    SelfContradiction,
    InconsistentResponse,
    Other,
}

impl ErrorType {
    pub fn name(self) -> &'static str {
        match self {
            ErrorType::FactualError => "factual error",
            ErrorType::ObsoleteKnowledge => "obsolete knowledge",
            ErrorType::SelfContradiction => "self-contradiction",
            ErrorType::InconsistentResponse => "inconsistent response",
            ErrorType::Other => "other",
        }
    }
}

/// One annotator's whole judgement of one outcome. Every field is this annotator's own: a
/// new judgement never inherits a type or a note from an earlier one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Label {
    pub question_id: String,
    pub label: LabelVerdict,
    #[serde(default)]
    pub error_type: Option<ErrorType>,
    #[serde(default)]
    pub note: Option<String>,
    /// Why the question is bad, for a "bad question" or "KG wrong" label. Left out of the
    /// line when there is none, so files from before causes existed read and write the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<QuestionCause>,
    pub annotator: String,
    /// RFC 3339.
    pub time: String,
}

/// How an annotator takes back their own judgement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Retract {
    /// Back to what this annotator had before their latest line for the question.
    Undo,
    /// No judgement by this annotator any more (itself undoable).
    Clear,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Retraction {
    pub question_id: String,
    pub retract: Retract,
    pub annotator: String,
    pub time: String,
}

/// One line of labels.jsonl. Untagged, so that lines written before retractions existed
/// (judgements without any tag) read as they always did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum LabelEntry {
    Label(Label),
    Retraction(Retraction),
}

impl LabelEntry {
    pub fn question_id(&self) -> &str {
        match self {
            LabelEntry::Label(l) => &l.question_id,
            LabelEntry::Retraction(r) => &r.question_id,
        }
    }
    pub fn annotator(&self) -> &str {
        match self {
            LabelEntry::Label(l) => &l.annotator,
            LabelEntry::Retraction(r) => &r.annotator,
        }
    }
    pub fn as_label(&self) -> Option<&Label> {
        match self {
            LabelEntry::Label(l) => Some(l),
            LabelEntry::Retraction(_) => None,
        }
    }
}

impl From<Label> for LabelEntry {
    fn from(l: Label) -> Self {
        LabelEntry::Label(l)
    }
}

impl From<Retraction> for LabelEntry {
    fn from(r: Retraction) -> Self {
        LabelEntry::Retraction(r)
    }
}

/// Every annotator's labels of one run, replayed from labels.jsonl.
#[derive(Debug, Default, Clone)]
pub struct LabelBook {
    /// Question id → annotator → the states their lines went through, oldest first; `None`
    /// is a cleared judgement. The current state is the last; an undo pops it.
    states: HashMap<String, BTreeMap<String, Vec<Option<Label>>>>,
    /// Annotator → the questions of their lines not undone, oldest first: what undo takes
    /// back next.
    history: HashMap<String, Vec<String>>,
}

impl LabelBook {
    pub fn from_entries(entries: impl IntoIterator<Item = LabelEntry>) -> LabelBook {
        let mut book = LabelBook::default();
        for e in entries {
            book.apply(e);
        }
        book
    }

    /// Folds in one line. An undo with nothing left to undo changes nothing (a hand-edited
    /// file, or two windows of one annotator): the file stays readable whatever it holds.
    pub fn apply(&mut self, e: LabelEntry) {
        let qid = e.question_id().to_string();
        let who = e.annotator().to_string();
        let stack = self
            .states
            .entry(qid.clone())
            .or_default()
            .entry(who.clone())
            .or_default();
        let history = self.history.entry(who).or_default();
        match e {
            LabelEntry::Label(l) => {
                stack.push(Some(l));
                history.push(qid);
            }
            LabelEntry::Retraction(Retraction {
                retract: Retract::Clear,
                ..
            }) => {
                stack.push(None);
                history.push(qid);
            }
            LabelEntry::Retraction(Retraction {
                retract: Retract::Undo,
                ..
            }) => {
                if stack.pop().is_some() {
                    if let Some(at) = history.iter().rposition(|q| *q == qid) {
                        history.remove(at);
                    }
                }
            }
        }
    }

    /// The annotator's current judgement of the question.
    pub fn get(&self, qid: &str, annotator: &str) -> Option<&Label> {
        self.states.get(qid)?.get(annotator)?.last()?.as_ref()
    }

    /// Every annotator's current judgement of the question, by annotator name.
    pub fn of(&self, qid: &str) -> impl Iterator<Item = &Label> {
        self.states
            .get(qid)
            .into_iter()
            .flat_map(|m| m.values())
            .filter_map(|s| s.last()?.as_ref())
    }

    /// Whether any line is about the question, even one since cleared or undone.
    pub fn mentions(&self, qid: &str) -> bool {
        self.states.contains_key(qid)
    }

    /// Whether anyone currently has a judgement of the question.
    pub fn any(&self, qid: &str) -> bool {
        self.of(qid).next().is_some()
    }

    /// The question the annotator's next undo takes back.
    pub fn undo_target(&self, annotator: &str) -> Option<&str> {
        self.history.get(annotator)?.last().map(String::as_str)
    }

    /// Annotators with at least one current judgement, sorted.
    pub fn annotators(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .states
            .values()
            .flat_map(|m| m.iter())
            .filter(|(_, s)| matches!(s.last(), Some(Some(_))))
            .map(|(a, _)| a.clone())
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Question ids with at least one current judgement, sorted.
    pub fn questions(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .states
            .keys()
            .filter(|q| self.any(q))
            .map(String::as_str)
            .collect();
        out.sort_unstable();
        out
    }

    /// The judgement the majority of annotators agree on: the verdict more annotators gave
    /// than any other, carried by the latest of their labels (its type and note). `Err` with
    /// the number of annotators when the largest share is tied: no majority, nothing chosen.
    pub fn majority(&self, qid: &str) -> Option<Result<Majority<'_>, usize>> {
        let labels: Vec<&Label> = self.of(qid).collect();
        if labels.is_empty() {
            return None;
        }
        let mut votes: BTreeMap<LabelVerdict, Vec<&Label>> = BTreeMap::new();
        for l in &labels {
            votes.entry(l.label).or_default().push(l);
        }
        let top = votes.values().map(Vec::len).max().unwrap_or(0);
        let mut leaders = votes.into_values().filter(|v| v.len() == top);
        let winners = leaders.next().expect("some verdict has the most votes");
        if leaders.next().is_some() {
            return Some(Err(labels.len()));
        }
        let latest = winners
            .iter()
            .max_by(|a, b| a.time.cmp(&b.time))
            .copied()
            .expect("a winning verdict has voters");
        Some(Ok(Majority {
            label: latest,
            voters: winners.iter().map(|&l| l.annotator.as_str()).collect(),
            of: labels.len(),
        }))
    }
}

/// A majority judgement: the label that carries it and who voted for its verdict.
#[derive(Debug)]
pub struct Majority<'a> {
    pub label: &'a Label,
    pub voters: Vec<&'a str>,
    /// How many annotators judged the question.
    pub of: usize,
}

/// Who is labelling: `$KGSCOPE_ANNOTATOR`, else `$USER`, else "unknown". Control characters
/// and escape sequences are dropped: the name is shown on screens and typed back to
/// `--annotator`, and a name that reads one way and is stored another could not be.
pub fn annotator() -> String {
    std::env::var("KGSCOPE_ANNOTATOR")
        .or_else(|_| std::env::var("USER"))
        .ok()
        .map(|n| crate::sanitize::line(&n).trim().to_string())
        .filter(|n| !n.is_empty())
        .or_else(login_name)
        .unwrap_or_else(|| "unknown".into())
}

/// The account's name from the password database, for sessions without `$USER` (containers,
/// tmux started by a service), where every label would otherwise say "unknown".
fn login_name() -> Option<String> {
    // SAFETY: getpwuid returns null or a pointer to a static record that stays valid until the
    // next getpw* call; the name is copied out before this function returns.
    unsafe {
        let pw = libc::getpwuid(libc::getuid());
        if pw.is_null() || (*pw).pw_name.is_null() {
            return None;
        }
        let name = std::ffi::CStr::from_ptr((*pw).pw_name)
            .to_string_lossy()
            .into_owned();
        (!name.is_empty()).then_some(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(q: &str, who: &str, v: LabelVerdict, time: &str) -> LabelEntry {
        LabelEntry::Label(Label {
            question_id: q.into(),
            label: v,
            error_type: None,
            note: None,
            cause: None,
            annotator: who.into(),
            time: time.into(),
        })
    }

    fn retract(q: &str, who: &str, r: Retract) -> LabelEntry {
        LabelEntry::Retraction(Retraction {
            question_id: q.into(),
            retract: r,
            annotator: who.into(),
            time: "2026-01-01T00:00:09Z".into(),
        })
    }

    #[test]
    fn lines_written_before_retractions_existed_still_read() {
        // Verbatim lines of a labels.jsonl from before this format: judgements, no tag.
        let old = r#"{"question_id":"q1","label":"wrong","error_type":"factual_error","note":"n","annotator":"ann","time":"2026-01-01T00:00:00Z"}
{"question_id":"q2","label":"kg_wrong","annotator":"bob","time":"2026-01-01T00:00:01Z"}"#;
        let entries: Vec<LabelEntry> = old
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let book = LabelBook::from_entries(entries);
        let l = book.get("q1", "ann").unwrap();
        assert_eq!(l.label, LabelVerdict::Wrong);
        assert_eq!(l.error_type, Some(ErrorType::FactualError));
        assert_eq!(book.get("q2", "bob").unwrap().label, LabelVerdict::KgWrong);
        // A retraction round-trips as its own kind of line.
        let r = retract("q1", "ann", Retract::Undo);
        let text = serde_json::to_string(&r).unwrap();
        assert!(text.contains(r#""retract":"undo""#), "{text}");
        assert_eq!(serde_json::from_str::<LabelEntry>(&text).unwrap(), r);
    }

    #[test]
    fn a_label_file_without_causes_still_loads_and_causes_round_trip() {
        // A bad-question line written before causes existed: no `cause` key at all.
        let old = r#"{"question_id":"q1","label":"bad_question","error_type":null,"note":"odd","annotator":"ann","time":"2026-01-01T00:00:00Z"}"#;
        let book = LabelBook::from_entries([serde_json::from_str::<LabelEntry>(old).unwrap()]);
        let l = book.get("q1", "ann").unwrap();
        assert_eq!(l.label, LabelVerdict::BadQuestion);
        assert_eq!(l.cause, None);
        assert_eq!(l.note.as_deref(), Some("odd"));
        // A label without a cause is written as before (no new key); one with a cause names
        // it by the reviewed set's code and reads back.
        let text = serde_json::to_string(l).unwrap();
        assert!(!text.contains("cause"), "{text}");
        let mut with = l.clone();
        with.cause = Some(QuestionCause::Giveaway);
        let text = serde_json::to_string(&LabelEntry::Label(with.clone())).unwrap();
        assert!(text.contains(r#""cause":"giveaway""#), "{text}");
        assert_eq!(
            serde_json::from_str::<LabelEntry>(&text).unwrap(),
            LabelEntry::Label(with)
        );
    }

    #[test]
    fn each_annotator_keeps_their_own_latest_judgement() {
        let book = LabelBook::from_entries([
            label("q1", "ann", LabelVerdict::Wrong, "t1"),
            label("q1", "bob", LabelVerdict::Right, "t2"),
            label("q1", "ann", LabelVerdict::KgWrong, "t3"),
        ]);
        assert_eq!(book.get("q1", "ann").unwrap().label, LabelVerdict::KgWrong);
        assert_eq!(book.get("q1", "bob").unwrap().label, LabelVerdict::Right);
        assert_eq!(book.of("q1").count(), 2);
        assert_eq!(book.annotators(), ["ann", "bob"]);
    }

    #[test]
    fn undo_restores_the_previous_state_and_clear_is_undoable() {
        let mut book = LabelBook::from_entries([
            label("q1", "ann", LabelVerdict::Wrong, "t1"),
            label("q2", "ann", LabelVerdict::Right, "t2"),
            label("q1", "bob", LabelVerdict::Abstained, "t3"),
        ]);
        assert_eq!(book.undo_target("ann"), Some("q2"));
        book.apply(retract("q2", "ann", Retract::Undo));
        assert_eq!(book.get("q2", "ann"), None);
        assert_eq!(book.undo_target("ann"), Some("q1"));
        book.apply(retract("q1", "ann", Retract::Clear));
        assert_eq!(book.get("q1", "ann"), None);
        assert_eq!(
            book.get("q1", "bob").unwrap().label,
            LabelVerdict::Abstained,
            "clearing one's own label leaves the others'"
        );
        book.apply(retract("q1", "ann", Retract::Undo));
        assert_eq!(book.get("q1", "ann").unwrap().label, LabelVerdict::Wrong);
        book.apply(retract("q1", "ann", Retract::Undo));
        assert_eq!(book.get("q1", "ann"), None);
        assert_eq!(book.undo_target("ann"), None);
        // Nothing left: a further undo changes nothing.
        book.apply(retract("q1", "ann", Retract::Undo));
        assert_eq!(
            book.get("q1", "bob").unwrap().label,
            LabelVerdict::Abstained
        );
    }

    #[test]
    fn the_majority_needs_more_votes_than_any_other_verdict() {
        let book = LabelBook::from_entries([
            label("q1", "ann", LabelVerdict::Wrong, "t1"),
            label("q1", "bob", LabelVerdict::Wrong, "t3"),
            label("q1", "cat", LabelVerdict::Right, "t2"),
            label("q2", "ann", LabelVerdict::Wrong, "t1"),
            label("q2", "bob", LabelVerdict::Right, "t2"),
        ]);
        let m = book.majority("q1").unwrap().unwrap();
        assert_eq!(m.label.label, LabelVerdict::Wrong);
        assert_eq!(m.label.annotator, "bob", "the latest of the majority");
        assert_eq!(m.voters, ["ann", "bob"]);
        assert_eq!(m.of, 3);
        assert_eq!(book.majority("q2").unwrap().unwrap_err(), 2, "a tie");
        assert!(book.majority("q3").is_none());
    }

    #[test]
    fn the_login_name_is_found_without_user() {
        // This test process has an account (root in CI containers), so the lookup answers.
        let name = super::login_name().expect("an account name");
        assert!(!name.is_empty());
    }
}

//! The question reviewer (`--review-with MODEL`, issue 39): a model, run on any backend
//! kgscope has, reads each generated question with a short rubric (`assets/prompts/review.toml`,
//! from the reviewed set's `RUBRIC.md`) and accepts or rejects it with a one-line reason. The
//! review is kept on the question; a rejected question is not asked, and the rejections are
//! counted where the run says what it did not ask.
//!
//! An output that does not begin with ACCEPT or REJECT keeps the question (a reviewer that
//! says nothing readable must not thin the set) and is counted apart, so a weak reviewer shows
//! as one rather than as a strict one.

use std::sync::Arc;

use futures::StreamExt;

use crate::backends::{Backend, BackendError, GenParams, Prompt, Request};
use crate::core::not_asked::NotAsked;
use crate::core::review::Review;
use crate::method::{self, prompts};
use crate::questions::Question;

/// What the reviewer is shown of one question: the method, the text the model would see, the
/// answer key and the fact it is about. Made from a generated question, or from a line of the
/// reviewed set (`kgscope bench reviewer`).
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub task: String,
    pub question: String,
    pub key: String,
    pub fact: String,
}

impl Item {
    /// A generated question as its method asks it and keys it.
    pub fn of(q: &Question) -> Self {
        let m = method::of(q.task);
        Self {
            task: q.task.as_str().into(),
            question: m.prompt(q).input,
            key: m.gold_text(q),
            fact: format!("{} · {} · {}", q.subject_label, q.relation, q.object_label),
        }
    }
}

/// Short and greedy: one line, a verdict and a reason.
pub fn review_params() -> GenParams {
    GenParams {
        temperature: 0.0,
        top_p: 1.0,
        seed: 42,
        max_tokens: 48,
        stop: vec!["\n".into()],
    }
}

/// The reviewer's prompt for one question. Long texts (a context, a compound question) are
/// cut: the rubric is about the question's wording, and a small reviewer's window is short.
pub fn prompt(item: &Item) -> Prompt {
    let cut = |s: &str, n: usize| -> String { s.trim().chars().take(n).collect() };
    prompts::spec("review").ask(format!(
        "Method: {}\nQuestion: {}\nKey: {}\nFact: {}",
        item.task,
        cut(&item.question, 900),
        cut(&item.key, 300),
        cut(&item.fact, 200)
    ))
}

/// Reads the reviewer's output: ACCEPT or REJECT (any case, "accepted"/"rejected" too,
/// markup around it ignored) as its first word, the reason after it (its first line, without
/// the separator). `None` when the first word is neither.
pub fn read_output(output: &str) -> Option<(bool, String)> {
    let text = output.trim_start_matches(|c: char| !c.is_alphanumeric());
    let end = text
        .find(|c: char| !c.is_alphanumeric())
        .unwrap_or(text.len());
    let accept = match text[..end].to_lowercase().as_str() {
        "accept" | "accepted" | "acceptable" => true,
        "reject" | "rejected" => false,
        _ => return None,
    };
    let reason = text[end..]
        .lines()
        .next()
        .unwrap_or("")
        .trim_start_matches(|c: char| c.is_whitespace() || ":-–—.*,;)]".contains(c))
        .trim_end_matches(|c: char| c.is_whitespace() || c == '*');
    Some((accept, reason.chars().take(240).collect()))
}

/// The review an output gives: read, or kept as "accept, unreadable review" with what was said.
pub fn review_of(model: &str, output: &str) -> Review {
    match read_output(output) {
        Some((accept, reason)) => Review {
            model: model.into(),
            accept,
            reason,
            unreadable: false,
        },
        None => Review {
            model: model.into(),
            accept: true,
            reason: format!(
                "unreadable review: {:?}",
                output.trim().chars().take(80).collect::<String>()
            ),
            unreadable: true,
        },
    }
}

/// A reviewer model.
pub struct Reviewer {
    backend: Arc<dyn Backend>,
    model: String,
    /// Questions reviewed at once.
    concurrency: usize,
}

impl Reviewer {
    pub fn new(backend: Arc<dyn Backend>, concurrency: usize) -> Self {
        let model = backend.model_id();
        Self {
            backend,
            model,
            concurrency: concurrency.max(1),
        }
    }

    /// The reviewer's identity, as recorded in each review.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// Reviews one item. A failed call keeps the question as an unreadable review that says
    /// why; `Err` only when the reviewer can never answer (a rejected key or model).
    pub async fn review(&self, id: &str, item: &Item) -> Result<Review, BackendError> {
        let req = Request {
            id: format!("review:{id}"),
            prompt: prompt(item),
            params: review_params(),
        };
        Ok(
            match crate::backends::complete(self.backend.as_ref(), req).await? {
                Ok(output) => review_of(&self.model, &output),
                Err(e) => Review {
                    model: self.model.clone(),
                    accept: true,
                    reason: format!("unreadable review: the reviewer failed: {e}"),
                    unreadable: true,
                },
            },
        )
    }

    /// Reviews every item, `concurrency` at a time; the reviews in the items' order.
    /// `progress` gets the number done so far.
    pub async fn review_all(
        &self,
        items: &[(String, Item)],
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<Vec<Review>, BackendError> {
        let mut done = 0;
        let mut out = Vec::with_capacity(items.len());
        // The futures made first: a stream holding a closure over borrowed items is not
        // `Send` for every lifetime, and a run's driver is spawned.
        let calls: Vec<_> = items
            .iter()
            .map(|(id, item)| self.review(id, item))
            .collect();
        let mut stream = futures::stream::iter(calls).buffered(self.concurrency);
        while let Some(r) = stream.next().await {
            out.push(r?);
            done += 1;
            progress(done);
        }
        Ok(out)
    }

    /// Reviews `qs`, recording each review on its question.
    pub async fn review_questions(
        &self,
        qs: &mut [Question],
        progress: &(dyn Fn(usize) + Sync),
    ) -> Result<(), BackendError> {
        let items: Vec<(String, Item)> = qs.iter().map(|q| (q.id.clone(), Item::of(q))).collect();
        let reviews = self.review_all(&items, progress).await?;
        for (q, r) in qs.iter_mut().zip(reviews) {
            q.review = Some(r);
        }
        Ok(())
    }
}

/// How a set of questions fared with its reviewer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub reviewed: usize,
    pub rejected: usize,
    /// Kept because the review could not be read (or the call failed).
    pub unreadable: usize,
}

impl Tally {
    pub fn of<'a>(reviews: impl IntoIterator<Item = &'a Review>) -> Self {
        let mut t = Self::default();
        for r in reviews {
            t.reviewed += 1;
            t.rejected += usize::from(!r.accept);
            t.unreadable += usize::from(r.unreadable);
        }
        t
    }

    /// "reviewer M rejected 7 of 96 questions (not asked); 2 reviews unreadable (kept)":
    /// `fate` says what became of the rejected ones.
    pub fn line(&self, model: &str, fate: &str) -> String {
        let mut s = format!(
            "reviewer {} rejected {} of {} questions ({fate})",
            short_model(model),
            self.rejected,
            self.reviewed
        );
        if self.unreadable > 0 {
            s.push_str(&format!(
                "; {} review{} unreadable (question kept)",
                self.unreadable,
                if self.unreadable == 1 { "" } else { "s" }
            ));
        }
        s
    }

    /// The run's "not asked" entry for the rejected questions.
    pub fn not_asked(&self, model: &str) -> NotAsked {
        let mut reason = format!("the reviewer {} rejected them", short_model(model));
        if self.unreadable > 0 {
            reason.push_str(&format!(
                " ({} unreadable review{} kept their question)",
                self.unreadable,
                if self.unreadable == 1 { "" } else { "s" }
            ));
        }
        NotAsked {
            count: self.rejected,
            reason,
        }
    }
}

/// Whether `n` is the reviewer's entry among a run's "not asked" (a resumed run replaces it).
pub fn is_review_entry(n: &NotAsked) -> bool {
    n.reason.starts_with("the reviewer ")
}

/// A model's identity for a message: a GGUF file (identified as "PATH (N bytes)") by its file
/// name.
pub fn short_model(model: &str) -> &str {
    let path = model.split(" (").next().unwrap_or(model);
    if path.ends_with(".gguf") {
        path.rsplit(['/', '\\']).next().unwrap_or(path)
    } else {
        model
    }
}

/// The questions the reviewer let through, and those it rejected, each in order.
pub fn split(qs: Vec<Question>) -> (Vec<Question>, Vec<Question>) {
    qs.into_iter()
        .partition(|q| q.review.as_ref().is_none_or(|r| r.accept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backends::{Capabilities, Chunk, Completion};
    use futures::stream::BoxStream;

    #[test]
    fn reads_the_verdict_and_its_reason() {
        assert_eq!(
            read_output("ACCEPT: clear and right."),
            Some((true, "clear and right.".into()))
        );
        assert_eq!(
            read_output(" **REJECT** - giveaway: Miami is in Florida\nmore text"),
            Some((false, "giveaway: Miami is in Florida".into()))
        );
        assert_eq!(read_output("rejected"), Some((false, String::new())));
        assert_eq!(read_output("Accepted. Fine."), Some((true, "Fine.".into())));
        // Neither word first: not read, whatever follows.
        assert_eq!(read_output("I would reject this"), None);
        assert_eq!(read_output("ACCEPTANCE"), None);
        assert_eq!(read_output(""), None);
    }

    #[test]
    fn an_unreadable_review_keeps_the_question_and_says_so() {
        let r = review_of("m", "Question: Is Paris");
        assert!(r.accept && r.unreadable);
        assert!(r.reason.starts_with("unreadable review"), "{}", r.reason);
        let t = Tally::of([&r, &review_of("m", "REJECT: ambiguous")]);
        assert_eq!(
            t,
            Tally {
                reviewed: 2,
                rejected: 1,
                unreadable: 1
            }
        );
        assert_eq!(
            t.line("/x/models/gemma.gguf", "not asked"),
            "reviewer gemma.gguf rejected 1 of 2 questions (not asked); 1 review unreadable \
             (question kept)"
        );
        assert!(is_review_entry(&t.not_asked("m")));
        assert_eq!(short_model("/m/gemma.gguf (253113024 bytes)"), "gemma.gguf");
        assert_eq!(
            short_model("openai:gpt-4o at http://x"),
            "openai:gpt-4o at http://x"
        );
    }

    #[test]
    fn a_question_without_a_review_is_written_and_read_as_before() {
        let q = crate::questions::tests_support::question();
        let line = serde_json::to_string(&q).unwrap();
        assert!(!line.contains("review"), "{line}");
        let back: Question = serde_json::from_str(&line).unwrap();
        assert_eq!(back.review, None);
        let mut reviewed = q;
        reviewed.review = Some(review_of("m", "REJECT: ambiguous"));
        let line = serde_json::to_string(&reviewed).unwrap();
        assert!(line.contains(r#""review":{"model":"m","accept":false,"reason":"ambiguous"}"#));
        assert_eq!(serde_json::from_str::<Question>(&line).unwrap(), reviewed);
    }

    /// A reviewer double: rejects every question whose text holds "Miami", accepts the rest.
    struct Scripted;

    impl Backend for Scripted {
        fn model_id(&self) -> String {
            "scripted".into()
        }
        fn capabilities(&self) -> Capabilities {
            Capabilities::default()
        }
        fn ask(&self, req: Request) -> BoxStream<'static, Result<Chunk, BackendError>> {
            let text = if req.prompt.input.contains("Miami") {
                "REJECT: giveaway: the name gives the state"
            } else {
                "ACCEPT: fine"
            };
            let c = Completion {
                text: text.into(),
                ..Default::default()
            };
            futures::stream::once(async move { Ok(Chunk::Done(c)) }).boxed()
        }
    }

    #[tokio::test]
    async fn a_rejected_question_is_reviewed_and_left_out() {
        let mut a = crate::questions::tests_support::question();
        a.id = "a".into();
        a.prompt = "The Miami Heat are based in Florida.".into();
        let mut b = crate::questions::tests_support::question();
        b.id = "b".into();
        b.prompt = "Canberra is the capital of Australia.".into();
        let mut qs = vec![a, b];
        let reviewer = Reviewer::new(Arc::new(Scripted), 2);
        reviewer.review_questions(&mut qs, &|_| {}).await.unwrap();
        let (kept, rejected) = split(qs);
        assert_eq!(kept.iter().map(|q| &q.id[..]).collect::<Vec<_>>(), ["b"]);
        assert_eq!(rejected[0].id, "a");
        let r = rejected[0].review.as_ref().unwrap();
        assert!(!r.accept);
        assert_eq!(r.reason, "giveaway: the name gives the state");
        assert_eq!(r.model, "scripted");
        assert!(kept[0].review.as_ref().unwrap().accept);
    }
}

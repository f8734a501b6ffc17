//! KGHaluBench's verification chain on one answer (§3.2), run where the embedder and the
//! judge are: the abstention filter (the method's rules), then the entity-level check (the
//! answer's embedding and words against the entity's description), then, for an answer about
//! the entity, each asked fact: the cheap check, the judge, and the expert stage where the
//! judge is unsure. Every stage is recorded ([`CompoundCheck`]).
//!
//! When the judge is unsure: its output cannot be read, or it says "stated" while the cheap
//! check found none of the fact's names in the answer (the paper sends the judge's "stated" to
//! its expert when its NLI model disagrees; the cheap check stands in for the NLI model). The
//! expert stage then gathers more verdicts: a reading (the judge model fills the fact's
//! sentence, its value hidden, from the answer; the words must be the answer's and name one of
//! the KG's objects: `assets/prompts/halu-fact-reader.toml`), `expert_samples` more judge
//! samples (temperature 0.8, seeds of their own), and the second judge model's verdict when the
//! run has one (`--expert`). The strict majority of these decides (the judge's own verdict is
//! the one in dispute and has no vote: the paper's expert is "the final decision-maker"); a tie
//! leaves the fact undecided, and it earns no point. The paper's expert is an LLM choosing between two
//! experts' conflicting verdicts; a small judge picks by position there (Qwen2.5-0.5B-Instruct
//! chose "expert A" in 12 of 12 trials, whichever verdict A held), so kgscope asks for a
//! reading instead.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::{facts, judge, similarity};
use crate::backends::{BackendError, Request};
use crate::core::compound::{
    AskedFact, CompoundCheck, FactCheck, FactStage, FactVerdict, Judged, Similarity,
};
use crate::method::judge::{judge_params, Judge};
use futures::future::BoxFuture;

use crate::core::compound::FACTS_PER_QUESTION;
use crate::method::check::{CheckInput, Checked, Checker};
use crate::questions::Question;
use crate::verify::embed::Embedder;
use crate::verify::{Answer, Reading, Stage, Verdict};

/// The answer with each sentence kept once, in first-seen order: a small model stuck in a
/// loop ("It is a member of the UN. It is a member of the UN. …") says its sentence once,
/// and the repeats would otherwise weigh on the embedding as if they were content.
fn without_repeats(text: &str) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<&str> = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let ends = matches!(c, '.' | '!' | '?' | '\n')
            && chars.get(k + 1).is_none_or(|(_, n)| n.is_whitespace());
        if ends || k + 1 == chars.len() {
            let end = i + c.len_utf8();
            let sentence = text[start..end].trim();
            let key: String = sentence
                .chars()
                .filter(|c| c.is_alphanumeric() || c.is_whitespace())
                .flat_map(char::to_lowercase)
                .collect();
            if !sentence.is_empty() && seen.insert(key) {
                out.push(sentence);
            }
            start = end;
        }
    }
    out.join(" ")
}

/// A call's output as recorded: its words, or that it failed and why.
fn shown(out: &Result<String, String>) -> String {
    match out {
        Ok(text) => text.trim().to_string(),
        Err(e) => format!("(failed: {e})"),
    }
}

/// Tokens a reading takes at most: a name or a number.
const READING_TOKENS: u32 = 16;

use super::settings::HaluConfig;

/// The chain's parts for a run.
pub struct CompoundVerifier {
    embedder: Arc<Embedder>,
    threshold: f64,
    facts: FactJudges,
    /// Descriptions' embeddings: an entity asked about in several assessments is embedded once.
    described: Mutex<HashMap<String, Arc<Vec<f32>>>>,
}

/// The fact check's judges: the fact judge, and the expert stage's extra votes.
pub struct FactJudges {
    pub judge: Option<Arc<Judge>>,
    pub expert: Option<Arc<Judge>>,
    pub expert_samples: usize,
}

/// The fact judge's sampled calls in the expert stage.
const EXPERT_TEMPERATURE: f32 = 0.8;

impl CompoundVerifier {
    pub fn new(
        embedder: Embedder,
        config: &HaluConfig,
        judge: Option<Arc<Judge>>,
        expert: Option<Arc<Judge>>,
    ) -> Self {
        Self {
            embedder: Arc::new(embedder),
            threshold: config.threshold,
            facts: FactJudges {
                judge,
                expert,
                expert_samples: config.expert_samples,
            },
            described: Mutex::default(),
        }
    }

    /// Embeds `texts` off the async threads (the model runs on the CPU for milliseconds).
    async fn embed(&self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, String> {
        let embedder = self.embedder.clone();
        tokio::task::spawn_blocking(move || {
            let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
            embedder.embed(&refs).map_err(|e| e.to_string())
        })
        .await
        .map_err(|e| format!("the embedder stopped: {e}"))?
    }

    async fn similarity(&self, response: &str, description: &str) -> Result<Similarity, String> {
        let cached = self
            .described
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(description)
            .cloned();
        let (answer, described) = match cached {
            Some(d) => {
                let mut v = self.embed(vec![response.to_string()]).await?;
                (v.remove(0), d)
            }
            None => {
                let mut v = self
                    .embed(vec![response.to_string(), description.to_string()])
                    .await?;
                let d = Arc::new(v.remove(1));
                self.described
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(description.to_string(), d.clone());
                (v.remove(0), d)
            }
        };
        let cosine = similarity::cosine(&answer, &described);
        let token_set = similarity::token_set_ratio(response, description);
        Ok(Similarity {
            cosine,
            token_set,
            score: similarity::entity_similarity(cosine, token_set),
            threshold: self.threshold,
        })
    }

    /// The chain on one answer; `abstention` is why the abstention filter caught it, if it
    /// did. `Err` only when a judge can never answer (the run stops, as for the model).
    pub async fn run_chain(
        &self,
        q: &Question,
        response: &str,
        abstention: Option<String>,
    ) -> Result<CompoundCheck, String> {
        if let Some(why) = abstention {
            return Ok(CompoundCheck {
                judged: Judged::Abstained,
                abstention: Some(why),
                similarity: None,
                facts: vec![],
            });
        }
        let (crate::questions::Gold::Compound { facts }, Some(meta)) = (&q.gold, &q.compound)
        else {
            return Err(format!("question {} is not a compound question", q.id));
        };
        let text = without_repeats(&crate::verify::clean::clean_response(response));
        let similarity = self.similarity(&text, &meta.description).await?;
        if !similarity.is_aligned() {
            return Ok(CompoundCheck {
                judged: Judged::Breadth,
                abstention: None,
                similarity: Some(similarity),
                facts: vec![],
            });
        }
        let mut checks = Vec::with_capacity(facts.len());
        for fact in facts {
            checks.push(
                self.facts
                    .check_fact(q, fact, &text)
                    .await
                    .map_err(|e| format!("the fact judge: {e}"))?,
            );
        }
        let correct = checks.iter().filter(|c| c.is_stated()).count() as u32;
        Ok(CompoundCheck {
            judged: Judged::Aligned { correct },
            abstention: None,
            similarity: Some(similarity),
            facts: checks,
        })
    }
}

/// The chain as the run's checker, and the reading it makes: an abstention, a breadth
/// hallucination (a wrong answer), or an answer aligned with the entity, right when every
/// asked fact is stated. An empty answer claims nothing: it counts as an abstention.
impl Checker for CompoundVerifier {
    fn check<'a>(
        &'a self,
        q: &'a Question,
        response: &'a str,
        rules: Reading,
    ) -> BoxFuture<'a, Result<Checked, String>> {
        Box::pin(async move {
            let abstention = match rules.answer {
                Answer::Abstained => Some(rules.rule.clone()),
                Answer::Invalid => Some(format!("nothing claimed: {}", rules.rule)),
                _ => None,
            };
            let check = self.run_chain(q, response, abstention).await?;
            let verdict = match check.judged {
                Judged::Abstained => Verdict::Idk,
                Judged::Breadth => Verdict::False,
                Judged::Aligned { correct } if correct >= FACTS_PER_QUESTION => Verdict::True,
                Judged::Aligned { .. } => Verdict::False,
            };
            let answer = match check.judged {
                Judged::Abstained => Answer::Abstained,
                _ => rules.answer,
            };
            let judged = check
                .facts
                .iter()
                .any(|f| matches!(f.stage, FactStage::Judge | FactStage::Expert));
            Ok(Checked {
                reading: Reading {
                    answer,
                    verdict,
                    rule: check.judged.describe(),
                    confident: true,
                },
                stage: if judged { Stage::Judge } else { Stage::Rules },
                judge: None,
                compound: Some(check),
            })
        })
    }
}

/// The chain's parts for a run of KGHaluBench: the embedder its settings name, the run's judge
/// as the fact judge, and the expert (`--expert`) when the settings name one.
pub fn for_run(input: &CheckInput<'_>) -> Result<CompoundVerifier, String> {
    let halu = input.settings::<HaluConfig>().cloned().unwrap_or_default();
    let dir = halu.embed_dir();
    (input.say)(&format!("loading the embedding model {}", dir.display()));
    let embedder = Embedder::load(&dir).map_err(|e| e.to_string())?;
    let expert = match &halu.expert {
        Some(spec) => Some(Arc::new(Judge::new(
            (input.start)(spec, "the expert")?,
            false,
        ))),
        None => None,
    };
    Ok(CompoundVerifier::new(
        embedder,
        &halu,
        input.judge.clone(),
        expert,
    ))
}

impl FactJudges {
    /// One call of a judge model on one fact, as a verdict (`reading` false) or as a reading
    /// of the fact's value: its raw output, or why the call failed (a server error that
    /// retries did not get past): a failed call gives no vote, never an empty answer.
    async fn ask(
        judge: &Judge,
        q: &Question,
        fact: &AskedFact,
        response: &str,
        sample: Option<u64>,
        reading: bool,
    ) -> Result<Result<String, String>, BackendError> {
        let mut params = judge_params();
        // YES / NO / UNCLEAR is a token or two; a reading is a name or a number.
        params.max_tokens = if reading { READING_TOKENS } else { 6 };
        if let Some(k) = sample {
            params.temperature = EXPERT_TEMPERATURE;
            params.seed = crate::sampling::attempt_seed(params.seed, &q.id, k as usize + 1);
        }
        let prompt = if reading {
            judge::reader_prompt(&fact.blank, response)
        } else {
            judge::prompt(&fact.sentence, response)
        };
        let req = Request {
            id: format!("fact-judge:{}:{}", q.id, fact.relation),
            prompt,
            params,
        };
        judge.complete(req).await
    }

    /// The fact check of one asked fact.
    pub async fn check_fact(
        &self,
        q: &Question,
        fact: &AskedFact,
        response: &str,
    ) -> Result<FactCheck, BackendError> {
        let names: Vec<&str> = fact.accepted.iter().flat_map(|a| a.names()).collect();
        let found = facts::states(response, &names);
        let mut check = FactCheck {
            relation: fact.relation.clone(),
            verdict: None,
            stage: FactStage::Undecided,
            judge_outputs: vec![],
        };
        if found {
            check.verdict = Some(FactVerdict::Stated);
            check.stage = FactStage::Cheap;
            return Ok(check);
        }
        let Some(j) = &self.judge else {
            return Ok(check);
        };
        let first = Self::ask(j, q, fact, response, None, false).await?;
        let verdict = first.as_deref().ok().and_then(judge::read);
        check.judge_outputs.push(shown(&first));
        // The judge's "stated" with none of the fact's names in the answer is the disagreement
        // the paper's expert settles; so is an output that cannot be read.
        let unsure = verdict.is_none() || verdict == Some(FactVerdict::Stated);
        if !unsure {
            check.verdict = verdict;
            check.stage = FactStage::Judge;
            return Ok(check);
        }
        // The expert's votes: the judge's own verdict is the one in dispute, so it has none.
        let mut verdicts = Vec::new();
        if !fact.blank.is_empty() {
            let out = Self::ask(j, q, fact, response, None, true).await?;
            verdicts.push(
                out.as_deref()
                    .ok()
                    .map(|o| judge::verdict_of_reading(o, response, &names)),
            );
            check
                .judge_outputs
                .push(format!("reading: {}", shown(&out)));
        }
        for k in 0..self.expert_samples {
            let out = Self::ask(j, q, fact, response, Some(k as u64), false).await?;
            verdicts.push(out.as_deref().ok().and_then(judge::read));
            check.judge_outputs.push(shown(&out));
        }
        if let Some(e) = &self.expert {
            let out = Self::ask(e, q, fact, response, None, false).await?;
            verdicts.push(out.as_deref().ok().and_then(judge::read));
            check.judge_outputs.push(format!("expert: {}", shown(&out)));
        }
        if verdicts.is_empty() {
            // No expert to ask: the judge's word stands.
            check.verdict = verdict;
            check.stage = if verdict.is_some() {
                FactStage::Judge
            } else {
                FactStage::Undecided
            };
            return Ok(check);
        }
        check.verdict = judge::settle(&verdicts);
        check.stage = if check.verdict.is_some() {
            FactStage::Expert
        } else {
            FactStage::Undecided
        };
        Ok(check)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::backends::{Backend, Capabilities, Chunk, Completion};
    use crate::core::gold::Accepted;
    use futures::stream::{self, BoxStream, StreamExt};

    /// A judge that answers verdict prompts with `verdict` and readings with `reading`
    /// (`None`: the call fails after its retries).
    struct Scripted {
        verdict: &'static str,
        reading: Option<&'static str>,
    }

    impl Backend for Scripted {
        fn model_id(&self) -> String {
            "scripted".into()
        }
        fn capabilities(&self) -> Capabilities {
            Capabilities::default()
        }
        fn ask(
            &self,
            req: crate::backends::Request,
        ) -> BoxStream<'static, Result<Chunk, BackendError>> {
            let reading = req.prompt.input.contains("what fills the blank");
            let text = if reading {
                self.reading
            } else {
                Some(self.verdict)
            };
            let item = match text {
                Some(t) => Ok(Chunk::Done(Completion {
                    text: t.into(),
                    prompt_tokens: 1,
                    completion_tokens: 1,
                    first_token_ms: 0,
                    total_ms: 0,
                    finish_reason: "stop".into(),
                })),
                None => Err(BackendError::Transient("503 after 5 tries".into())),
            };
            stream::iter(vec![item]).boxed()
        }
    }

    fn judges(verdict: &'static str, reading: Option<&'static str>) -> FactJudges {
        FactJudges {
            judge: Some(Arc::new(Judge::new(
                Arc::new(Scripted { verdict, reading }),
                false,
            ))),
            expert: None,
            expert_samples: 0,
        }
    }

    fn capital() -> AskedFact {
        AskedFact {
            relation: "capital".into(),
            predicate: "http://ex.org/capital".into(),
            accepted: vec![Accepted {
                label: "Lima".into(),
                aliases: vec![],
                ..Default::default()
            }],
            sentence: "The capital of Peru is Lima.".into(),
            blank: "The capital of Peru is ___.".into(),
        }
    }

    fn check(j: &FactJudges, response: &str) -> FactCheck {
        let q = crate::questions::tests_support::question();
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(j.check_fact(&q, &capital(), response)).unwrap()
    }

    #[test]
    fn each_stage_of_the_fact_check_decides_where_it_should() {
        // Named in the answer: the cheap check, no judge asked.
        let c = check(&judges("NO", None), "Peru's capital is Lima.");
        assert_eq!(
            (c.verdict, c.stage),
            (Some(FactVerdict::Stated), FactStage::Cheap)
        );
        assert!(c.judge_outputs.is_empty());
        // The judge's NO stands.
        let c = check(&judges("NO", None), "Peru's capital is Cusco.");
        assert_eq!(
            (c.verdict, c.stage),
            (Some(FactVerdict::Contradicted), FactStage::Judge)
        );
        // The judge's YES with no name in the answer goes to the expert, whose reading is the
        // answer's own words: Cusco is not Lima.
        let c = check(&judges("YES", Some("Cusco")), "Peru's capital is Cusco.");
        assert_eq!(
            (c.verdict, c.stage),
            (Some(FactVerdict::Contradicted), FactStage::Expert)
        );
        assert_eq!(c.judge_outputs, ["YES", "reading: Cusco"]);
        // A reading that fails gives no vote: undecided, never "not mentioned".
        let c = check(&judges("YES", None), "Peru's capital is Cusco.");
        assert_eq!((c.verdict, c.stage), (None, FactStage::Undecided));
        assert!(
            c.judge_outputs[1].starts_with("reading: (failed: "),
            "{:?}",
            c.judge_outputs
        );
    }

    #[test]
    fn a_looping_answer_says_each_sentence_once() {
        assert_eq!(
            without_repeats("India is in Asia. It is a member of the UN. It is a member of the UN. it is a member of the UN. Its capital is New Delhi."),
            "India is in Asia. It is a member of the UN. Its capital is New Delhi."
        );
        assert_eq!(without_repeats("One sentence"), "One sentence");
    }
}

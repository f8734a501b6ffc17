//! `--review-with MODEL` on the command line (`kgscope questions`, `audit`, `run`): the
//! reviewer's options, and reviewing a question set with a progress bar.

use std::sync::Arc;

use clap::Args;
use kgscope::questions::Question;
use kgscope::run::review::{Reviewer, Tally};
use kgscope::run::{driver, ModelSpec};

use super::openai_args::OpenAiArgs;
use super::progress;

/// The reviewer's options, shared by `kgscope questions`, `audit` and `run`.
#[derive(Args, Clone, Default)]
pub struct ReviewArgs {
    /// Have a model review each question with a short rubric (fair, grammatical, unambiguous,
    /// key right, false items really false, distractors of the right kind, answer not given
    /// away) and record ACCEPT/REJECT with a one-line reason on the question; rejected
    /// questions are not asked (counted): `default`, a model name from `kgscope model list`, a
    /// .gguf path, or openai:MODEL (at --review-base-url, else --base-url) [default: no
    /// reviewer].
    #[arg(long, value_name = "MODEL")]
    pub review_with: Option<String>,
    /// An openai:MODEL reviewer's server [default: --base-url].
    #[arg(long, value_name = "URL", requires = "review_with")]
    pub review_base_url: Option<String>,
}

impl ReviewArgs {
    /// The reviewer's model, if one was given.
    pub fn spec(&self, openai: &OpenAiArgs) -> anyhow::Result<Option<ModelSpec>> {
        self.review_with
            .as_deref()
            .map(|s| openai.helper_spec(s, self.review_base_url.as_deref(), "--review-with"))
            .transpose()
    }
}

/// Starts the reviewer `spec` (fetching a model kgscope knows when it is missing): `parallel`
/// sequences for a local model.
pub fn start(spec: &ModelSpec, parallel: usize) -> anyhow::Result<Reviewer> {
    driver::ensure_model(spec, &|m| eprintln!("{m}")).map_err(anyhow::Error::msg)?;
    let sp = progress::spinner(&format!(
        "starting the reviewer {}",
        kgscope::sanitize::line(&spec.describe())
    ));
    let concurrency = spec.default_concurrency(parallel);
    let backend = kgscope::backends::from_spec(spec, parallel, concurrency, None)
        .map_err(|e| anyhow::anyhow!("starting the reviewer {}: {e:#}", spec.describe()))?;
    sp.finish_and_clear();
    Ok(Reviewer::new(backend, concurrency))
}

/// Reviews `qs` with `reviewer`, a progress bar counting; each question gets its review.
pub fn review(reviewer: &Reviewer, qs: &mut [Question]) -> anyhow::Result<Tally> {
    let rt = tokio::runtime::Runtime::new()?;
    let bar = Arc::new(progress::counter(Some(qs.len() as u64), "reviewed"));
    let b = bar.clone();
    rt.block_on(reviewer.review_questions(qs, &move |n| b.set_position(n as u64)))
        .map_err(|e| anyhow::anyhow!("the reviewer cannot answer: {e}"))?;
    bar.finish_and_clear();
    Ok(Tally::of(qs.iter().filter_map(|q| q.review.as_ref())))
}

/// Sequences a local reviewer decodes together: enough to keep a CPU busy on short answers.
pub fn default_parallel() -> usize {
    kgscope::run::config::default_parallel().min(16)
}

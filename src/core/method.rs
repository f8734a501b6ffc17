//! What a question method is, for every layer that asks: its prompt, how the rules read a
//! response, which sums and metrics its answers feed, how it names its gold answer, and the
//! defaults a run takes from it. The registry of methods, and how each makes its questions
//! (up front or in a staged plan), are the method layer's.

use super::answer::{AnswerKind, Reading};
use super::metric::{Metric, Scoring};
use super::panel::PanelLine;
use super::prompts::Prompt;
use super::question::{Question, Task};
use crate::kg::KgIndex;

/// One question format: how its questions are asked and read, and how its answers count.
/// How it makes its questions is the method layer's `Maker`, which every method also is.
pub trait Method: Send + Sync {
    fn task(&self) -> Task;
    /// One line for the run dialog: what is asked, and the paper it comes from.
    fn describe(&self) -> &'static str;
    /// How one question is asked.
    fn prompt(&self, q: &Question) -> Prompt;
    /// The rules stage of the verification chain.
    fn read(&self, q: &Question, response: &str) -> Reading;
    /// Which extra sums the aggregator keeps for this method.
    fn scoring(&self) -> Scoring;
    /// The metrics shown for a run of this method, headline first.
    fn metrics(&self) -> &'static [Metric];
    /// The metric a figure or the Heatmaps screen shows when nobody says which: the headline
    /// (the first of [`Method::metrics`]) unless the method says otherwise.
    fn figure_metric(&self) -> Metric {
        self.metrics()[0]
    }
    /// What the count of items `generate` could not make counts, after the number.
    fn unmade(&self) -> &'static str {
        "items could not be made"
    }
    /// How the method says true and false ("true"/"false", "yes"/"no").
    fn truth_words(&self) -> (&'static str, &'static str) {
        ("true", "false")
    }
    /// The gold answer in the method's own words ("yes", "B) Lima", ...).
    fn gold_text(&self, q: &Question) -> String {
        match q.gold.bool_value() {
            Some(value) => {
                let (t, f) = self.truth_words();
                if value { t } else { f }.to_string()
            }
            None => q.gold.describe(),
        }
    }
    /// Whether the method's questions come with negatives whose count the user sets.
    fn takes_negatives(&self) -> bool {
        false
    }
    /// Whether the method can put a context before its questions (`--context`).
    fn takes_context(&self) -> bool {
        false
    }
    /// What the drill-down shows of a question beyond the fields every method has (KG-FPQ:
    /// its premise); `index` is the KG when it is loaded.
    fn drill_down(&self, _q: &Question, _index: Option<&KgIndex>) -> Vec<PanelLine> {
        vec![]
    }
    /// The method's own groupings of a question, `(facet, value)`, beside relation, types and
    /// year (KG-FPQ: edit, hop, format). Pairs of facets become 2-D heatmaps.
    fn facets(&self, _q: &Question) -> Vec<(String, String)> {
        vec![]
    }
    /// How many times each question is asked when the user does not say (`--repeats`).
    fn default_repeats(&self) -> usize {
        1
    }
    /// Whether `--repeats N` draws N separate assessments of new questions (KGHaluBench's 10
    /// runs of 150 questions) rather than asking each question N times.
    fn repeats_are_assessments(&self) -> bool {
        false
    }
    /// The fewest tokens an answer to `q` needs: the run's `--max-tokens` is raised to this
    /// for it (a yes/no needs a word, KG-FPQ's generative answer up to three sentences).
    fn answer_tokens(&self, _q: &Question) -> u32 {
        0
    }
    /// The judge's prompt for one response, when the method asks its judge its own way.
    fn judge_prompt(&self, _q: &Question, _response: &str) -> Option<Prompt> {
        None
    }
    /// Whether a question's text is its fact's statement word for word (GraphEval's
    /// statements): a negative that reads true in words is then a bad question.
    fn asks_statements(&self) -> bool {
        false
    }
    /// Whether a run of this method carries KGLens' settings (`RunConfig::kglens`: iterations,
    /// subgraph walk, convergence) and takes their command-line flags.
    fn takes_kglens_settings(&self) -> bool {
        false
    }
    /// Whether a run of this method carries KGHaluBench's settings (`RunConfig::halu`:
    /// embedder, threshold, expert stage), takes their flags and runs its chain.
    fn takes_halu_settings(&self) -> bool {
        false
    }
    /// Whether GraphEval's trained judge applies: a run may judge this method's questions
    /// from the model's hidden state (`--via-judge`) and `kgscope judge train` learns from its
    /// runs. The judge's three classes (correct, incorrect, idk) and its two output layers
    /// (true statements, negatives) are the statement method's.
    fn has_trained_judge(&self) -> bool {
        false
    }
    /// The closed answers to `q`, for likelihood scoring (`--scoring logprob`): each as the
    /// model would begin its reply in the method's prompt (its shots' form), just long enough
    /// for the rules to read it as that answer. The tail that only repeats the format ("…, the
    /// statement is true.") is left out: it is the same for every question and would only
    /// cost decoding. `None` for an open answer (generated and read as usual).
    fn closed_answers(&self, _q: &Question) -> Option<Vec<String>> {
        None
    }
    /// Whether some of the method's questions have [`Method::closed_answers`] (a run may
    /// then score them by likelihood).
    fn has_closed_answers(&self) -> bool {
        false
    }
    /// Whether an answer to `q` is closed (true/false, yes/no, one of a fixed set of options)
    /// or open: what decides whether the run's answers are compared with chance
    /// (`metrics::chance`). By the gold answer's shape, which every method shares: a
    /// true/false or multiple-choice gold is closed, a short answer, a premise (KG-FPQ's
    /// generative format) or a set of facts (KGHaluBench) open. A mixed method (KG-FPQ's
    /// yes/no and generative formats, KGLens' yes/no and Wh questions) is closed on some
    /// questions and open on others.
    fn answer_kind(&self, q: &Question) -> AnswerKind {
        if q.gold.is_closed() {
            AnswerKind::Closed
        } else {
            AnswerKind::Open
        }
    }
    /// Whether some of the method's answers are free text that the rules may be unsure of,
    /// for an LLM judge to read (`--judge`): short answers, KGLens' HARD Wh answers, KG-FPQ's
    /// generative answers, KGHaluBench's facts. The run dialog offers a judge for these.
    fn has_open_answers(&self) -> bool {
        false
    }
    /// The shape its hand labels are exported in when nobody says which (the TUI's export
    /// key): the training data of the judge the method's paper uses; plain JSON Lines for a
    /// method without one.
    fn label_format(&self) -> super::label_format::LabelFormat {
        super::label_format::LabelFormat::Jsonl
    }
    /// Whether a run of this method carries KG-FPQ's settings (`RunConfig::fpq`: edits,
    /// formats, gate, writer) and takes their command-line flags.
    fn takes_fpq_settings(&self) -> bool {
        false
    }
}

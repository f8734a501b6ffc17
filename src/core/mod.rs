//! The types every layer shares, and nothing else: a question and its gold answer
//! ([`question`], [`gold`]), how a model is asked one ([`prompts`]: the request's prompt and
//! the prompt files each method asks with), what was read from its response ([`answer`],
//! [`verdict`]), a KGHaluBench compound question and its check ([`compound`]), the metrics a run can show ([`metric`]), what a method is ([`method`]: the
//! trait every layer asks), the shapes hand labels are exported in ([`label_format`]), why a question is bad ([`question_cause`]) and what it shows beyond the shared views ([`panel`]). Nothing here imports the rest of kgscope, so
//! everything can import it: the KG and sampling below are the only layers under it.

pub mod answer;
pub mod compound;
pub mod gold;
pub mod label_format;
pub mod method;
pub mod metric;
pub mod not_asked;
pub mod panel;
pub mod prompts;
pub mod question;
pub mod question_cause;
pub mod review;
pub mod verdict;

//! The types every layer shares, and nothing else: a question and its gold answer
//! ([`question`], [`gold`]) and how a model is asked one ([`prompts`]: the request's prompt and
//! the prompt files each method asks with). Nothing here imports the rest of kgscope, so
//! everything can import it: the KG and sampling below are the only layers under it.

pub mod gold;
pub mod prompts;
pub mod question;

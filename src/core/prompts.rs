//! The instructions and worked examples each method asks with, kept as data in
//! `assets/prompts/<name>.toml` (each file names the paper whose task and answer form it keeps).
//!
//! The files are compiled in, so a run never depends on where the binary was started; a broken
//! file is a build-time mistake caught by the tests.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// What the model is asked. Backends render it their own way: the OpenAI backend as chat
/// messages, the llama backend through the GGUF chat template or as a few-shot completion
/// prompt for base models. Everything but `input` is shared by all questions of a run, which
/// lets the llama backend evaluate that prefix once and reuse it from the KV cache.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prompt {
    /// The task instruction (e.g. GraphEval's Table 6 instruction).
    pub instruction: String,
    /// Worked examples shown before the input (few-shot); may be empty.
    pub shots: Vec<Shot>,
    /// The question-specific text: a statement or a question.
    pub input: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shot {
    pub input: String,
    pub output: String,
}

/// Every prompt file, by name.
pub const FILES: &[(&str, &str)] = &[
    (
        "statement",
        include_str!("../../assets/prompts/statement.toml"),
    ),
    ("yesno", include_str!("../../assets/prompts/yesno.toml")),
    ("tfq", include_str!("../../assets/prompts/tfq.toml")),
    ("mcq-fib", include_str!("../../assets/prompts/mcq-fib.toml")),
    ("mcq-wh", include_str!("../../assets/prompts/mcq-wh.toml")),
    ("saq", include_str!("../../assets/prompts/saq.toml")),
    (
        "kglens-wh",
        include_str!("../../assets/prompts/kglens-wh.toml"),
    ),
    ("judge", include_str!("../../assets/prompts/judge.toml")),
    ("review", include_str!("../../assets/prompts/review.toml")),
    (
        "halu-fact-reader",
        include_str!("../../assets/prompts/halu-fact-reader.toml"),
    ),
    (
        "kghalubench",
        include_str!("../../assets/prompts/kghalubench.toml"),
    ),
    (
        "fpq-yesno",
        include_str!("../../assets/prompts/fpq-yesno.toml"),
    ),
    ("fpq-wh", include_str!("../../assets/prompts/fpq-wh.toml")),
    (
        "fpq-judge",
        include_str!("../../assets/prompts/fpq-judge.toml"),
    ),
    (
        "fpq-writer",
        include_str!("../../assets/prompts/fpq-writer.toml"),
    ),
    (
        "halu-fact-judge",
        include_str!("../../assets/prompts/halu-fact-judge.toml"),
    ),
];

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    instruction: String,
    #[serde(default)]
    shots: Vec<FileShot>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileShot {
    input: String,
    output: String,
}

/// The instruction and examples of a prompt file.
#[derive(Debug, Clone)]
pub struct PromptSpec {
    pub instruction: String,
    pub shots: Vec<Shot>,
}

impl PromptSpec {
    /// The prompt for one input.
    pub fn ask(&self, input: String) -> Prompt {
        Prompt {
            instruction: self.instruction.clone(),
            shots: self.shots.clone(),
            input,
        }
    }
}

fn parse(name: &str, text: &str) -> Result<PromptSpec, String> {
    let f: File = toml::from_str(text).map_err(|e| format!("assets/prompts/{name}.toml: {e}"))?;
    Ok(PromptSpec {
        instruction: f.instruction.trim().to_string(),
        shots: f
            .shots
            .into_iter()
            .map(|s| Shot {
                input: s.input.trim().to_string(),
                output: s.output.trim().to_string(),
            })
            .collect(),
    })
}

/// The prompt file `name` (one of [`FILES`]).
pub fn spec(name: &str) -> &'static PromptSpec {
    static SPECS: OnceLock<Vec<(&'static str, PromptSpec)>> = OnceLock::new();
    let specs = SPECS.get_or_init(|| {
        FILES
            .iter()
            // The files are compiled in and parsed by a test: a failure here is a build error.
            .map(|(n, t)| (*n, parse(n, t).expect("a compiled-in prompt file parses")))
            .collect()
    });
    specs
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("no prompt file named {name}"))
}

/// The text a question is asked with: the context (when the run injects one), then the question.
pub fn with_context(context: Option<&str>, question: &str) -> String {
    match context {
        Some(c) if !c.is_empty() => format!("Context: {c}\n{question}"),
        _ => question.to_string(),
    }
}

/// `q` asked with prompt file `name`: `text` (the question as the method writes it) after the
/// question's context, if any.
pub fn ask(name: &str, q: &super::question::Question, text: &str) -> Prompt {
    spec(name).ask(with_context(q.context.as_deref(), text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_parses_with_an_instruction_and_examples() {
        for (name, text) in FILES {
            let s = parse(name, text).unwrap();
            assert!(!s.instruction.is_empty(), "{name}");
            assert!(!s.shots.is_empty(), "{name} has no examples");
            // Each file names its source in a comment.
            assert!(text.trim_start().starts_with('#'), "{name}");
        }
        assert!(parse("x", "instruction = 1").is_err());
    }
}

//! Prompt layouts. A prompt is rendered as `prefix + suffix` where the prefix depends only on the
//! instruction and the shots (shared by every question of a run) and ends right after a newline,
//! so it can be evaluated once and reused from the KV cache.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::backends::Shot;

/// How a [`Prompt`](crate::backends::Prompt) is turned into model input.
///
/// * `Chat`: the GGUF's chat template. The instruction is the system message (merged into the
///   first user turn when the template has no system role), each shot is a user/assistant turn
///   pair, the input is the last user message, followed by the assistant generation prompt.
/// * `Completion`: a few-shot completion layout for base models:
///   ```text
///   {instruction}
///
///   Input: {shot input}
///   Answer: {shot output}
///
///   Input: {input}
///   Answer:
///   ```
/// * `Auto`: `Chat` when the model has a chat template **and** its `general.name` or file name
///   marks it as instruction-tuned (a word `it` as in `-it`, or `instruct`, or `chat`);
///   otherwise `Completion`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PromptStyle {
    #[default]
    Auto,
    Chat,
    Completion,
}

impl FromStr for PromptStyle {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Self::Auto),
            "chat" => Ok(Self::Chat),
            "completion" => Ok(Self::Completion),
            other => Err(format!(
                "unknown prompt style {other:?}: expected auto, chat or completion"
            )),
        }
    }
}

impl std::fmt::Display for PromptStyle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Auto => "auto",
            Self::Chat => "chat",
            Self::Completion => "completion",
        })
    }
}

/// Whether a model name or file name says the model is instruction-tuned.
pub(crate) fn looks_instruction_tuned(name: &str) -> bool {
    let lower = name.to_lowercase();
    lower.contains("instruct")
        || lower.contains("chat")
        || lower
            .split(|c: char| !c.is_alphanumeric())
            .any(|word| word == "it")
}

/// Resolves `Auto` to `Chat` or `Completion`.
pub(crate) fn resolve_style(
    requested: PromptStyle,
    general_name: Option<&str>,
    file_name: &str,
    has_chat_template: bool,
) -> PromptStyle {
    match requested {
        PromptStyle::Auto => {
            let instruct = general_name.is_some_and(looks_instruction_tuned)
                || looks_instruction_tuned(file_name);
            if has_chat_template && instruct {
                PromptStyle::Chat
            } else {
                PromptStyle::Completion
            }
        }
        other => other,
    }
}

/// How a run's prompts were laid out for a local model, as its manifest records it: the style
/// [`resolve_style`] chose, and the chat template applied (from the GGUF's
/// `tokenizer.chat_template`), so two runs of one model file can be told apart by prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PromptFormat {
    /// `chat` (the model's chat template) or `completion` (kgscope's few-shot layout).
    pub style: PromptStyle,
    /// The chat template's family when recognised ([`template_family`]); `None` when no
    /// template was applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// sha256 of the model's chat template (hex), whether applied or not; `None`: it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_sha256: Option<String>,
    /// The model's `general.name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub general_name: Option<String>,
}

impl PromptFormat {
    /// The format of a model from its metadata, as the llama backend will lay its prompts out
    /// (the same [`resolve_style`] decides both).
    pub fn of(
        general_name: Option<&str>,
        file_name: &str,
        chat_template: Option<&str>,
    ) -> PromptFormat {
        let style = resolve_style(
            PromptStyle::Auto,
            general_name,
            file_name,
            chat_template.is_some(),
        );
        PromptFormat {
            style,
            template: chat_template
                .filter(|_| style == PromptStyle::Chat)
                .map(|t| template_family(t).to_string()),
            template_sha256: chat_template.map(|t| {
                use sha2::{Digest, Sha256};
                hex::encode(Sha256::digest(t.as_bytes()))
            }),
            general_name: general_name.map(str::to_string),
        }
    }

    /// One line for people: `chat (chatml template, sha256 1d96…)` or `completion`.
    pub fn describe(&self) -> String {
        match (&self.template, &self.template_sha256) {
            (Some(t), Some(h)) => format!("{} ({t} template, sha256 {})", self.style, &h[..12]),
            _ => format!("{} (kgscope's few-shot layout)", self.style),
        }
    }
}

/// The family of a chat template, named by the turn markers it writes (llama.cpp recognises
/// templates by the same markers); `custom` for any other. A label for people: the sha256
/// next to it is what identifies the template.
pub fn template_family(template: &str) -> &'static str {
    const MARKERS: [(&str, &str); 6] = [
        ("<|im_start|>", "chatml"),
        ("<start_of_turn>", "gemma"),
        ("<|start_header_id|>", "llama3"),
        ("[INST]", "llama2/mistral"),
        ("<|assistant|>", "phi/zephyr"),
        ("<|Assistant|>", "deepseek"),
    ];
    MARKERS
        .iter()
        .find(|(m, _)| template.contains(m))
        .map_or("custom", |(_, name)| name)
}

/// The shared part of the completion layout: instruction and shots.
pub(crate) fn completion_prefix(instruction: &str, shots: &[Shot]) -> String {
    let mut out = String::new();
    let instruction = instruction.trim_end();
    if !instruction.is_empty() {
        out.push_str(instruction);
        out.push_str("\n\n");
    }
    for shot in shots {
        out.push_str("Input: ");
        out.push_str(&shot.input);
        out.push_str("\nAnswer: ");
        out.push_str(&shot.output);
        out.push_str("\n\n");
    }
    out
}

/// The question-specific part of the completion layout.
pub(crate) fn completion_suffix(input: &str) -> String {
    format!("{}\nAnswer:", completion_input(input))
}

/// The question-specific part up to the end of the input: where a hidden state is read.
pub(crate) fn completion_input(input: &str) -> String {
    format!("Input: {input}")
}

/// A unique stand-in for the input, used to find where the input begins in a rendered chat
/// prompt. Plain ASCII letters so no template transforms it.
pub(crate) const INPUT_SENTINEL: &str = "KGSCOPEINPUTSENTINELQZX";

/// Given a prompt rendered with [`INPUT_SENTINEL`] as the input, the shared prefix: everything up
/// to and including the last newline before the input. `None` when the sentinel is missing.
pub(crate) fn prefix_before_sentinel(rendered: &str) -> Option<&str> {
    let at = rendered.find(INPUT_SENTINEL)?;
    let cut = rendered[..at].rfind('\n').map_or(0, |i| i + 1);
    Some(&rendered[..cut])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn completion_layout() {
        let shots = vec![Shot {
            input: "Paris is in France.".into(),
            output: "Yes".into(),
        }];
        let p = completion_prefix("Answer yes or no.\n", &shots);
        assert_eq!(
            p,
            "Answer yes or no.\n\nInput: Paris is in France.\nAnswer: Yes\n\n"
        );
        assert_eq!(completion_suffix("Q?"), "Input: Q?\nAnswer:");
        assert_eq!(completion_prefix("", &[]), "");
    }

    #[test]
    fn auto_detection() {
        assert!(looks_instruction_tuned("gemma-3-270m-it-Q4_K_M.gguf"));
        assert!(looks_instruction_tuned("Qwen2.5 7B Instruct"));
        assert!(looks_instruction_tuned("llama-2-7b-chat.Q4_0.gguf"));
        assert!(!looks_instruction_tuned("gemma-3-270m-q4_k_m.gguf"));
        assert!(!looks_instruction_tuned("Gemma 3 270m"));
        assert!(!looks_instruction_tuned("tinyllama-1.1b.gguf"));
        use PromptStyle::*;
        assert_eq!(
            resolve_style(Auto, Some("Gemma 3 270m"), "x.gguf", true),
            Completion
        );
        assert_eq!(resolve_style(Auto, None, "m-it.gguf", true), Chat);
        assert_eq!(resolve_style(Auto, None, "m-it.gguf", false), Completion);
        assert_eq!(resolve_style(Chat, None, "m.gguf", false), Chat);
        assert_eq!("Completion".parse::<PromptStyle>(), Ok(Completion));
    }

    /// An instruction-tuned model with a template is asked in chat style, and the record says
    /// which template; a base model without one is asked in the completion layout.
    #[test]
    fn the_recorded_format_follows_the_style_chosen() {
        let chatml = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>{% endfor %}";
        let qwen = PromptFormat::of(
            Some("Qwen2.5 Coder 0.5B Instruct"),
            "qwen.gguf",
            Some(chatml),
        );
        assert_eq!(qwen.style, PromptStyle::Chat);
        assert_eq!(qwen.template.as_deref(), Some("chatml"));
        assert_eq!(qwen.template_sha256.as_ref().map(String::len), Some(64));
        assert!(
            qwen.describe()
                .starts_with("chat (chatml template, sha256 "),
            "{}",
            qwen.describe()
        );
        let gemma = PromptFormat::of(Some("Gemma 3 270m"), "gemma-3-270m-q4_k_m.gguf", None);
        assert_eq!(gemma.style, PromptStyle::Completion);
        assert_eq!((gemma.template, gemma.template_sha256), (None, None));
        // A template the model has but that is not used is hashed, not named.
        let base = PromptFormat::of(Some("Base"), "base.gguf", Some(chatml));
        assert_eq!(base.style, PromptStyle::Completion);
        assert!(base.template.is_none() && base.template_sha256.is_some());
        assert_eq!(template_family("<start_of_turn>user"), "gemma");
        assert_eq!(template_family("{{ messages }}"), "custom");
        let json = serde_json::to_value(&qwen).unwrap();
        assert_eq!(json["style"], "chat");
        assert_eq!(serde_json::from_value::<PromptFormat>(json).unwrap(), qwen);
    }

    #[test]
    fn sentinel_prefix() {
        let r = format!("<s>user\nInstr\n\n{INPUT_SENTINEL}</s>\n<s>model\n");
        assert_eq!(prefix_before_sentinel(&r), Some("<s>user\nInstr\n\n"));
        assert_eq!(
            prefix_before_sentinel(&format!("a {INPUT_SENTINEL}")),
            Some("")
        );
        assert_eq!(prefix_before_sentinel("none"), None);
    }
}

//! Stripping what is not the answer: chat-template leftovers, prompt echoes, markdown, labels.
//!
//! Local models, raw completions and badly configured servers leak template tokens and echo the
//! prompt; a verdict parser that reads those would score the template, not the model. These rules
//! are ours (the papers assume clean answers) and are tested in `parse_table.rs`.

/// Tokens that end a turn. Text after one (once some answer text has been seen) is a new turn
/// the model went on to hallucinate, never part of its answer.
const TURN_MARKERS: &[&str] = &[
    "<|",
    "<start_of_turn>",
    "<end_of_turn>",
    "</s>",
    "<s>",
    "<eos>",
    "<bos>",
];

/// Plain-text starts of a hallucinated next turn or prompt section (ASCII case-insensitive).
const SECTION_STARTS: &[&str] = &[
    "\n###",
    "\nuser:",
    "\nhuman:",
    "\nquestion:",
    "\ninstruction:",
];

/// Lines of the LLaMA-style wrapper that a model may echo. A `### Input:` line carries the
/// statement itself, which must not be read as the model's claim.
const PROMPT_LINES: &[&str] = &["### instruction", "### input", "below is an instruction"];

/// Sentences of the GraphEval instruction and wrapper (paper Table 6), lowercase with straight
/// quotes. An echo of the instruction contains "I don't know." and "the statement is true",
/// so it must go before any verdict is read.
const INSTRUCTION_ECHOES: &[&str] = &[
    "below is an instruction that describes a task, paired with an input that provides further context.",
    "write a response that appropriately completes the request.",
    "you are given a statement.",
    "you are asked to judge whether the statement is true or false.",
    "answer 'yes, the statement is true.' if you know the statement is true.",
    "answer 'no, the statement is false.' if you know the statement is false.",
    "otherwise, answer 'i don't know.'",
];

/// Labels a model puts before its answer ("Answer: No"), removed when followed by `:` (or a
/// line break, for markdown headings such as `### Answer`).
const LABELS: &[&str] = &[
    "final answer",
    "answer",
    "response",
    "assistant",
    "model",
    "output",
    "verdict",
    "a",
];

/// Returns the part of `raw` that is the model's answer, in this order:
/// 1. curly quotes made straight;
/// 2. if the prompt's `### Response:` header was echoed, only the text after its first
///    occurrence is kept;
/// 3. echoed wrapper lines (`### Instruction`, `### Input: ...`, `Below is an instruction ...`)
///    are dropped;
/// 4. leading template tokens and role names (`<start_of_turn>model`, `<|im_start|>assistant`,
///    `<|start_header_id|>assistant<|end_header_id|>`, `<s>`, ...) are removed;
/// 5. the text is cut at the first end-of-turn token (`<end_of_turn>`, `<|im_end|>`,
///    `<|eot_id|>`, `</s>`, any `<|...|>`) or hallucinated new section (`\n###`, `\nUser:`);
/// 6. echoed sentences of the GraphEval instruction are removed;
/// 7. markdown emphasis (`**`, `__`, `*`, backticks), double quotes, and line-leading `#`, `>`,
///    `-`, `•` are removed;
/// 8. leading labels (`Answer:`, `A:`, `Response:`, `Final answer:` ...) are removed, repeatedly,
///    and surrounding quotes and brackets trimmed.
pub fn clean_response(raw: &str) -> String {
    let mut s: String = raw
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{02bc}' => '\'',
            '\u{201c}' | '\u{201d}' | '\u{00ab}' | '\u{00bb}' => '"',
            c => c,
        })
        .collect();
    if let Some(i) = find_ci(&s, "### response") {
        let rest = &s[i + "### response".len()..];
        s = rest.strip_prefix(':').unwrap_or(rest).to_string();
    }
    s = s
        .lines()
        .filter(|l| {
            let t = l.trim_start();
            !PROMPT_LINES.iter().any(|p| starts_with_ci(t, p))
        })
        .collect::<Vec<_>>()
        .join("\n");
    s = strip_leading_tokens(&s).to_string();
    s = cut_at_turn_end(&s).to_string();
    for echo in INSTRUCTION_ECHOES {
        while let Some(i) = find_ci(&s, echo) {
            s.replace_range(i..i + echo.len(), " ");
        }
    }
    s = strip_markdown(&s);
    strip_labels(&s).to_string()
}

/// Splits cleaned text into sentences: at line breaks, and after `.`, `!`, `?` or `:` that end
/// the text or are followed by whitespace (so "1961.5" stays whole). Pieces without any letter
/// or digit are dropped.
pub fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut start = 0;
        let mut it = line.char_indices().peekable();
        while let Some((i, c)) = it.next() {
            let ends = matches!(c, '.' | '!' | '?' | ':' | '。' | '！' | '？');
            let next_blank = it.peek().is_none_or(|(_, n)| n.is_whitespace());
            if ends && next_blank {
                out.push(&line[start..i]);
                start = i + c.len_utf8();
            }
        }
        out.push(&line[start..]);
    }
    out.into_iter()
        .map(str::trim)
        .filter(|s| s.chars().any(char::is_alphanumeric))
        .collect()
}

fn strip_leading_tokens(s: &str) -> &str {
    let mut t = s.trim_start();
    loop {
        let rest = if t.starts_with("<|") {
            match t.find("|>") {
                Some(j) => &t[j + 2..],
                None => break,
            }
        } else if let Some(m) = TURN_MARKERS.iter().find(|m| t.starts_with(**m)) {
            &t[m.len()..]
        } else {
            break;
        };
        t = strip_role(rest).trim_start();
    }
    t
}

/// A role name right after a start-of-turn token: `model`, `assistant`.
fn strip_role(s: &str) -> &str {
    for role in ["model", "assistant"] {
        if starts_with_ci(s, role) {
            let rest = &s[role.len()..];
            if rest.is_empty()
                || rest.starts_with(|c: char| c.is_whitespace() || c == '<' || c == ':')
            {
                return rest.strip_prefix(':').unwrap_or(rest);
            }
        }
    }
    s
}

fn cut_at_turn_end(s: &str) -> &str {
    let t = s.trim_start();
    let mut end = t.len();
    for m in TURN_MARKERS {
        if let Some(i) = t.find(m) {
            end = end.min(i);
        }
    }
    for m in SECTION_STARTS {
        if let Some(i) = find_ci(t, m) {
            end = end.min(i);
        }
    }
    &t[..end]
}

fn strip_markdown(s: &str) -> String {
    let s = s
        .replace("**", "")
        .replace("__", "")
        .replace(['*', '`', '"'], "");
    s.lines()
        .map(|l| {
            l.trim_start_matches(|c: char| matches!(c, '#' | '>' | '-' | '•') || c.is_whitespace())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn strip_labels(s: &str) -> &str {
    fn trim(t: &str) -> &str {
        t.trim_matches(|c: char| c.is_whitespace() || matches!(c, '\'' | '(' | ')' | '[' | ']'))
    }
    let mut t = trim(s);
    'outer: loop {
        for label in LABELS {
            if starts_with_ci(t, label) {
                let rest = &t[label.len()..];
                let after = rest.trim_start_matches([' ', '\t']);
                let newline_ok = *label != "a" && after.starts_with('\n');
                if after.starts_with(':') || newline_ok {
                    t = trim(&after[1..]);
                    continue 'outer;
                }
            }
        }
        break;
    }
    t
}

/// ASCII case-insensitive `find`; `needle` must be ASCII, so the returned index is a char
/// boundary.
fn find_ci(hay: &str, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    if n.is_empty() || n.len() > h.len() {
        return None;
    }
    (0..=h.len() - n.len()).find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

fn starts_with_ci(hay: &str, needle: &str) -> bool {
    hay.len() >= needle.len()
        && hay.as_bytes()[..needle.len()].eq_ignore_ascii_case(needle.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_templates_and_labels() {
        assert_eq!(
            clean_response("<start_of_turn>model\n**Yes**<end_of_turn>\n<start_of_turn>user\nNo"),
            "Yes"
        );
        assert_eq!(
            clean_response("<|start_header_id|>assistant<|end_header_id|>\n\nNo.<|eot_id|>"),
            "No."
        );
        assert_eq!(
            clean_response("Answer: A: \"No, the statement is false.\""),
            "No, the statement is false."
        );
        assert_eq!(clean_response("### Answer\nYes"), "Yes");
        assert_eq!(clean_response("   "), "");
    }

    #[test]
    fn splits_sentences() {
        assert_eq!(sentences("Yes. No!"), vec!["Yes", "No"]);
        assert_eq!(
            sentences("Born in 1961.5 days\nok"),
            vec!["Born in 1961.5 days", "ok"]
        );
        assert_eq!(
            sentences("Sure, here is my answer: Yes"),
            vec!["Sure, here is my answer", "Yes"]
        );
        assert!(sentences("... !").is_empty());
    }

    #[test]
    fn find_ci_is_ascii_case_insensitive_and_utf8_safe() {
        assert_eq!(find_ci("Ünïcode ### RESPONSE:", "### response"), Some(10));
        assert_eq!(find_ci("abc", "abcd"), None);
    }
}

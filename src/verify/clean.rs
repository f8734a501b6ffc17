//! Stripping what is not the answer: reasoning blocks, chat-template leftovers, invented next
//! turns, prompt echoes, JSON wrapping, markdown, labels.
//!
//! Local models, raw completions and badly configured servers leak template tokens, echo the
//! prompt and run on into a next example they make up; reasoning models think aloud before
//! answering. A verdict parser that reads those would score the template, the invented turn or
//! the reasoning, not the model's answer. These rules are ours (the papers assume clean answers)
//! and are tested here, in `parse_table.rs` and on `tests/data/verdict_responses.tsv`.

/// How a template marker changes whose text follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A user, system or prompt section starts: text after it is not the model's answer.
    Prompt,
    /// The model's turn starts (or an echoed response header): its text is the answer.
    Response,
    /// The turn ends; anything after it was invented.
    End,
    /// Carries no turn (`<s>`, `<bos>`): skipped.
    Ignore,
}

/// Template markers found anywhere in a response (ASCII case-insensitive). Base models run on past
/// their answer into a new example they make up ("### Input: ... ### Response: Yes"), chat models
/// served without their template leak its tokens; both are cut here so that only the model's first
/// turn is read. The lists cover the Alpaca layout GraphEval prompts base models with (paper
/// Table 6) and the chat templates of the common open model families (Gemma, ChatML/Qwen,
/// Llama 2 and 3, Phi, harmony).
const INLINE_MARKERS: &[(&str, Role)] = &[
    ("### instruction", Role::Prompt),
    ("### input", Role::Prompt),
    ("### question", Role::Prompt),
    ("### statement", Role::Prompt),
    ("### user", Role::Prompt),
    ("### human", Role::Prompt),
    ("### system", Role::Prompt),
    ("### response", Role::Response),
    ("### answer", Role::Response),
    ("### assistant", Role::Response),
    ("### output", Role::Response),
    ("<start_of_turn>user", Role::Prompt),
    ("<start_of_turn>model", Role::Response),
    ("<start_of_turn>assistant", Role::Response),
    ("<start_of_turn>", Role::Prompt),
    ("<end_of_turn>", Role::End),
    ("<|im_start|>assistant", Role::Response),
    ("<|im_start|>", Role::Prompt),
    (
        "<|start_header_id|>assistant<|end_header_id|>",
        Role::Response,
    ),
    ("<|start_header_id|>", Role::Prompt),
    ("<|start|>assistant", Role::Response),
    ("<|start|>", Role::Prompt),
    ("<|assistant|>", Role::Response),
    ("<|user|>", Role::Prompt),
    ("<|system|>", Role::Prompt),
    ("[/inst]", Role::Response),
    ("[inst]", Role::Prompt),
    ("<|begin_of_text|>", Role::Ignore),
    ("<s>", Role::Ignore),
    ("<bos>", Role::Ignore),
    ("</s>", Role::End),
    ("<eos>", Role::End),
    // Any other `<|...|>` token (`<|im_end|>`, `<|eot_id|>`, `<|endoftext|>`, `<|end|>`, ...).
    ("<|", Role::End),
    // Any other markdown section header: once the answer has started, a new section is not it.
    ("\n###", Role::End),
];

/// Plain-text turn labels, recognised at the start of a line and followed by `:` ("Question: ...",
/// "Q: ...", "User: ...", "A: ..."). A base model continuing its few-shot examples writes them.
const LINE_MARKERS: &[(&str, Role)] = &[
    ("below is an instruction", Role::Prompt),
    ("question", Role::Prompt),
    ("q", Role::Prompt),
    ("user", Role::Prompt),
    ("human", Role::Prompt),
    ("input", Role::Prompt),
    ("instruction", Role::Prompt),
    ("statement", Role::Prompt),
    ("system", Role::Prompt),
    ("context", Role::Prompt),
    ("final answer", Role::Response),
    ("answer", Role::Response),
    ("a", Role::Response),
    ("assistant", Role::Response),
    ("response", Role::Response),
    ("model", Role::Response),
    ("ai", Role::Response),
    ("output", Role::Response),
];

/// Tags around a reasoning model's hidden reasoning; the answer is what follows the block.
const REASONING_TAGS: &[&str] = &["think", "thinking", "reasoning", "thought"];

/// JSON keys that hold the answer when a model replies with an object (`{"answer": "true"}`),
/// in order of preference; every other key (an explanation, an echoed statement) is ignored.
const JSON_ANSWER_KEYS: &[&str] = &[
    "answer",
    "final_answer",
    "verdict",
    "result",
    "response",
    "label",
    "output",
    "prediction",
    "is_true",
    "is_correct",
    "correct",
    "truth",
    "value",
];
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

/// kgscope's own statement instruction (`assets/prompts/statement.toml`), whole and its
/// sentences that quote no answer, lowercase: a base model echoes it as it would the paper's.
fn own_echoes() -> &'static [String] {
    static ECHOES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    ECHOES.get_or_init(|| {
        let instruction = crate::core::prompts::spec("statement")
            .instruction
            .to_lowercase();
        let mut out: Vec<String> = instruction
            .split_inclusive(". ")
            .map(str::trim)
            .filter(|s| !s.contains('\'') && s.ends_with('.'))
            .map(str::to_string)
            .collect();
        // The whole instruction first, so its quoted answers go with it.
        out.insert(0, instruction);
        out
    })
}

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
/// 2. reasoning blocks (`<think>…</think>`, harmony's analysis channel) removed: the answer is
///    what follows them, and reasoning cut off before its end gave no answer at all;
/// 3. only the model's first turn is kept ([`answer_turn`]): text after an end-of-turn token or
///    a new prompt section (`### Input`, `Question:`, `<start_of_turn>user`, `[INST]`, ...) was
///    invented by the model; an echoed prompt before the response header is skipped;
/// 4. a JSON object is replaced by the value of its answer key (`{"answer": "true"}` → `true`);
/// 5. echoed sentences of the GraphEval instruction are removed;
/// 6. markdown emphasis (`**`, `__`, `*`, backticks), double quotes, and line-leading `#`, `>`,
///    `-`, `•` are removed;
/// 7. leading labels (`Answer:`, `A:`, `Response:`, `Final answer:` ...) are removed, repeatedly,
///    and surrounding quotes and brackets trimmed.
pub fn clean_response(raw: &str) -> String {
    let s: String = raw
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{02bc}' => '\'',
            '\u{201c}' | '\u{201d}' | '\u{00ab}' | '\u{00bb}' => '"',
            c => c,
        })
        .collect();
    let s = strip_reasoning(&s);
    let mut s = json_answer(&answer_turn(&s));
    for echo in INSTRUCTION_ECHOES
        .iter()
        .copied()
        .chain(own_echoes().iter().map(String::as_str))
    {
        while let Some(i) = find_ci(&s, echo) {
            s.replace_range(i..i + echo.len(), " ");
        }
    }
    s = strip_markdown(&s);
    strip_labels(&s).to_string()
}

/// Removes reasoning: closed `<think>…</think>` blocks (any of [`REASONING_TAGS`]), everything up
/// to a closing tag whose opening was in the prompt, and everything from an opening tag that is
/// never closed (the model ran out of tokens while reasoning: it never answered). For the harmony
/// format, only the `final` channel is the answer.
fn strip_reasoning(s: &str) -> String {
    let mut s = s.to_string();
    if let Some(i) = find_ci(&s, "<|channel|>final<|message|>") {
        s = s[i + "<|channel|>final<|message|>".len()..].to_string();
    } else if let Some(i) = find_ci(&s, "<|channel|>") {
        s.truncate(i);
    }
    for tag in REASONING_TAGS {
        let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
        loop {
            let o = find_ci(&s, &open);
            match (o, find_ci(&s, &close)) {
                (Some(o), Some(c)) if o < c => s.replace_range(o..c + close.len(), "\n"),
                (_, Some(c)) => s.replace_range(..c + close.len(), ""),
                (Some(o), None) => {
                    s.truncate(o);
                    break;
                }
                (None, None) => break,
            }
        }
    }
    s
}

/// The model's first turn: its text before any marker, or after a response marker, up to the
/// first prompt or end-of-turn marker once some answer text has been seen. Response markers after
/// the answer started ("Final answer:", "### Response") are the model labelling its own answer
/// and do not end it. Returns "" when the response holds only prompt text.
fn answer_turn(s: &str) -> String {
    let mut out = String::new();
    let mut role = Role::Response;
    let mut pos = 0;
    loop {
        let next = next_marker(s, pos);
        let end = next.map_or(s.len(), |(start, _, _)| start);
        if role == Role::Response {
            out.push_str(&s[pos..end]);
        }
        let started = out.chars().any(char::is_alphanumeric);
        let Some((_, after, r)) = next else {
            return out;
        };
        match r {
            Role::Prompt | Role::End if started => return out,
            Role::Prompt => role = Role::Prompt,
            // A stray end token before any answer: what follows is still the model's.
            Role::End | Role::Response => {
                role = Role::Response;
                out.push('\n');
            }
            Role::Ignore => {}
        }
        pos = after;
    }
}

/// The earliest marker at or after `from`: (start, end, role). On a tie the longest wins
/// (`<start_of_turn>model` over `<start_of_turn>`).
fn next_marker(s: &str, from: usize) -> Option<(usize, usize, Role)> {
    let mut best: Option<(usize, usize, Role)> = None;
    fn offer(best: &mut Option<(usize, usize, Role)>, start: usize, end: usize, role: Role) {
        let better = match *best {
            None => true,
            Some((bs, be, _)) => start < bs || (start == bs && end > be),
        };
        if better {
            *best = Some((start, end, role));
        }
    }
    let rest = &s[from..];
    for (m, role) in INLINE_MARKERS {
        if let Some(i) = find_ci(rest, m) {
            // The generic header starts at its `#`, so a specific header there (`### Input`)
            // ties with it and, being longer, wins.
            let start = from + i + usize::from(m.starts_with('\n'));
            let mut end = from + i + m.len();
            if *m == "<|" {
                end = s[start..].find("|>").map_or(s.len(), |j| start + j + 2);
            } else if *m == "<|start_header_id|>" || *m == "<|start|>" {
                // The role name that follows belongs to the marker.
                end = s[end..].find(['\n', '<']).map_or(s.len(), |j| end + j);
                if s[end..].starts_with("<|end_header_id|>") {
                    end += "<|end_header_id|>".len();
                }
            }
            // "### Response:", "<|user|>:": the colon belongs to the marker.
            if s[end..].starts_with(':') {
                end += 1;
            }
            offer(&mut best, start, end, *role);
        }
    }
    // Line-start labels: at `from` when it starts a line, and after every later line break.
    let line_starts = std::iter::once(from)
        .filter(|&i| i == 0 || s[..i].ends_with('\n'))
        .chain(rest.match_indices('\n').map(|(i, _)| from + i + 1));
    for ls in line_starts {
        if best.is_some_and(|(bs, _, _)| bs < ls) {
            break;
        }
        let line = &s[ls..];
        let body = line.trim_start_matches(|c: char| {
            matches!(c, '*' | '>' | '-' | '_') || c == ' ' || c == '\t'
        });
        let skipped = line.len() - body.len();
        for (m, role) in LINE_MARKERS {
            if !starts_with_ci(body, m) {
                continue;
            }
            let after = &body[m.len()..];
            if *m == "below is an instruction" {
                let end = line.find('\n').map_or(s.len(), |j| ls + j);
                offer(&mut best, ls, end, *role);
                break;
            }
            let t = after.trim_start_matches(['*', '_', ' ']);
            if let Some(t) = t.strip_prefix(':') {
                let t2 = t.trim_start_matches(['*', '_']);
                let end = ls + skipped + m.len() + (after.len() - t2.len());
                offer(&mut best, ls, end, *role);
                break;
            }
        }
    }
    best
}

/// A JSON object (possibly in a ```json fence) becomes the value of its answer key; booleans
/// become `true`/`false`. An object without an answer key has no answer (""). Anything else is
/// returned unchanged.
fn json_answer(s: &str) -> String {
    let t = s.trim();
    let t = match t.strip_prefix("```") {
        Some(rest) => {
            let body = rest.split_once('\n').map_or("", |(_, b)| b);
            body.trim_end().trim_end_matches("```").trim()
        }
        None => t,
    };
    let (Some(o), Some(c)) = (t.find('{'), t.rfind('}')) else {
        return s.to_string();
    };
    if o != 0 || c < o {
        return s.to_string();
    }
    let Ok(serde_json::Value::Object(map)) = serde_json::from_str(&t[o..=c]) else {
        return s.to_string();
    };
    for key in JSON_ANSWER_KEYS {
        let Some((_, v)) = map.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)) else {
            continue;
        };
        return match v {
            serde_json::Value::String(v) => v.clone(),
            serde_json::Value::Bool(b) => b.to_string(),
            serde_json::Value::Null => String::new(),
            v => v.to_string(),
        };
    }
    String::new()
}

/// Splits cleaned text into sentences: at line breaks, and after `.`, `!`, `?` or `:` that end
/// the text or are followed by whitespace (so "1961.5" stays whole). Pieces without any letter
/// or digit are dropped.
pub fn sentences(text: &str) -> Vec<&str> {
    split_sentences(text).into_iter().map(|(s, _)| s).collect()
}

/// [`sentences`], each with whether it is a question (ends with `?`): a question is an echo of
/// the prompt or a rhetorical aside, never the model's answer.
pub fn sentences_with_questions(text: &str) -> Vec<(&str, bool)> {
    split_sentences(text)
}

fn split_sentences(text: &str) -> Vec<(&str, bool)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut start = 0;
        let mut it = line.char_indices().peekable();
        while let Some((i, c)) = it.next() {
            let ends = matches!(c, '.' | '!' | '?' | ':' | '。' | '！' | '？' | '；' | '：');
            let cjk = matches!(c, '。' | '！' | '？' | '；' | '：');
            let next_blank = it.peek().is_none_or(|(_, n)| n.is_whitespace());
            if ends && (next_blank || cjk) {
                out.push((&line[start..i], matches!(c, '?' | '？')));
                start = i + c.len_utf8();
            }
        }
        out.push((&line[start..], false));
    }
    out.into_iter()
        .map(|(s, q)| (s.trim(), q))
        .filter(|(s, _)| s.chars().any(char::is_alphanumeric))
        .collect()
}

fn strip_markdown(s: &str) -> String {
    let s = s
        .replace("**", "")
        .replace("__", "")
        .replace(['*', '`', '"'], "");
    s.lines().map(strip_bullet).collect::<Vec<_>>().join("\n")
}

/// A line without its heading, quote or list marks; a minus sign before a digit stays ("-34.04
/// °C" is a temperature, not a list item).
fn strip_bullet(line: &str) -> &str {
    let mut rest = line;
    loop {
        let t = rest.trim_start();
        let mut chars = t.chars();
        match chars.next() {
            Some('-') if chars.next().is_some_and(|d| d.is_ascii_digit()) => return t,
            Some(c @ ('#' | '>' | '-' | '•')) => rest = &t[c.len_utf8()..],
            _ => return t,
        }
    }
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
    fn a_minus_sign_is_no_list_mark() {
        assert_eq!(strip_markdown("- -34.04 °C"), "-34.04 °C");
        assert_eq!(strip_markdown("  • Lima"), "Lima");
        assert_eq!(strip_markdown("## - Lima"), "Lima");
    }

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
    fn cuts_at_invented_turns() {
        // A base model running on into a new Alpaca example: only its first turn counts.
        assert_eq!(
            clean_response("No.\n\n### Input: Is Lima the capital?\n\n### Response: Yes"),
            "No."
        );
        assert_eq!(
            clean_response("Yes.\nQuestion: Is Quito in Peru?\nAnswer: No."),
            "Yes."
        );
        assert_eq!(clean_response("No.\nQ: Is it?\nA: Yes."), "No.");
        assert_eq!(
            clean_response("I don't know.<|endoftext|>Yes"),
            "I don't know."
        );
        assert_eq!(
            clean_response("[/INST] Yes. [INST] And? [/INST] No."),
            "Yes."
        );
        // An echoed prompt before the response header is skipped, not read.
        assert_eq!(
            clean_response("### Instruction:\nJudge it.\n### Input: X is Y.\n### Response:\nNo."),
            "No."
        );
        assert_eq!(clean_response("Human: Is it?\nAssistant: Yes."), "Yes.");
        assert_eq!(
            clean_response("### Input: X is Y. The statement is true."),
            ""
        );
        // The model labelling its own answer does not end it.
        assert_eq!(
            clean_response("Let me think.\nFinal answer: No"),
            "Let me think.\n\nNo"
        );
    }

    #[test]
    fn drops_reasoning() {
        assert_eq!(
            clean_response("<think>It is true? Not sure.</think>\nFalse."),
            "False."
        );
        assert_eq!(clean_response("reasoning in the prompt</think>Yes"), "Yes");
        assert_eq!(clean_response("<think>Lima is the capital. So yes"), "");
        assert_eq!(
            clean_response(
                "<|channel|>analysis<|message|>Yes.<|end|><|start|>assistant<|channel|>final<|message|>No.<|return|>"
            ),
            "No."
        );
        assert_eq!(clean_response("<|channel|>analysis<|message|>Yes."), "");
    }

    #[test]
    fn reads_json_answers() {
        assert_eq!(clean_response(r#"{"answer": "true"}"#), "true");
        assert_eq!(
            clean_response("```json\n{\"verdict\": \"No\", \"explanation\": \"yes it is\"}\n```"),
            "No"
        );
        assert_eq!(clean_response(r#"{"is_true": false}"#), "false");
        assert_eq!(clean_response(r#"{"capital": "Lima"}"#), "");
        // Braces inside prose are not JSON.
        assert_eq!(clean_response("Yes {see notes}"), "Yes {see notes}");
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
        assert_eq!(
            sentences_with_questions("Is it Lima? No."),
            vec![("Is it Lima", true), ("No", false)]
        );
        assert_eq!(sentences("是的。正确"), vec!["是的", "正确"]);
    }

    #[test]
    fn find_ci_is_ascii_case_insensitive_and_utf8_safe() {
        assert_eq!(find_ci("Ünïcode ### RESPONSE:", "### response"), Some(10));
        assert_eq!(find_ci("abc", "abcd"), None);
    }
}

//! Reading a verdict out of a response, for GraphEval statements and KGLens yes/no questions.
//!
//! Both parsers share the same steps:
//! 1. [`clean_response`] strips template tokens, prompt echoes, markdown and labels.
//! 2. The deciding sentence is the first sentence (or line) that is not filler such as "Sure!" or
//!    "Here is my answer:". Later sentences are never read: models often add a justification
//!    that restates or hedges, and GraphEval/KGLens both read the answer from its start. Skipping
//!    filler is ours.
//! 3. Abstention phrases in the deciding sentence → `Idk`. This runs BEFORE yes/no, so
//!    "I don't know whether it is true" is `Idk`, never `True`.
//! 4. Yes/no (see each parser). Both polarities in the deciding sentence ("Yes, but no") →
//!    `Invalid`. Nothing left, or no verdict → `Invalid`.
//!
//! Only English is read (ours): the prompts are English, and a reply in another language did not
//! follow the instruction; it is reported as `Invalid`, not guessed.

use serde::{Deserialize, Serialize};

use super::abstention::is_abstention;
use super::clean::{clean_response, sentences};
use super::verdict::Verdict;

/// A verdict and a short human-readable trace of why, for the drill-down view.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Parsed {
    pub verdict: Verdict,
    pub rule: String,
}

impl Parsed {
    fn new(verdict: Verdict, rule: impl Into<String>) -> Self {
        Parsed {
            verdict,
            rule: rule.into(),
        }
    }
}

/// Parses a response to a GraphEval statement (the model was told to answer
/// 'Yes, the statement is true.' / 'No, the statement is false.' / 'I don't know.').
///
/// In the deciding sentence, these count as a claim:
/// - `yes`, `yeah`, `yep` / `no`, `nope` when they start a clause ("No, ...", "Yes, but no") or
///   end it ("The answer is no."), not inside a phrase ("there is no doubt");
/// - `true`, `correct`, `accurate` / `false`, `incorrect`, `inaccurate`, `untrue`, `wrong`
///   anywhere, flipped by a negation up to two words before ("is not true", "not entirely
///   correct", "isn't false").
///
/// All claims agree → that verdict; both polarities → `Invalid`; none → `Invalid`.
pub fn parse_statement_verdict(response: &str) -> Parsed {
    let toks = match sentence_tokens(response) {
        Ok(t) => t,
        Err(p) => return p,
    };
    let claims = claims(&toks);
    let pos = claims.iter().find(|c| c.positive);
    let neg = claims.iter().find(|c| !c.positive);
    match (pos, neg) {
        (Some(p), Some(n)) => Parsed::new(
            Verdict::Invalid,
            format!(
                "both yes and no in first sentence ('{}', '{}')",
                p.text, n.text
            ),
        ),
        (Some(c), None) => Parsed::new(Verdict::True, c.describe()),
        (None, Some(c)) => Parsed::new(Verdict::False, c.describe()),
        (None, None) => Parsed::new(Verdict::Invalid, "no verdict in first sentence"),
    }
}

/// Parses a response to a KGLens yes/no question.
///
/// KGLens verifies on the first word: `Yes` (also `yeah`, `yep`, `true`, `correct`) or `No`
/// (also `nope`, `false`, `incorrect`). A first sentence that goes on to claim the opposite
/// ("Yes, but no", "No, it is true") is `Invalid`. "The answer is yes" is `Invalid` too: the
/// paper reads the first word only, and an unreadable answer is better counted than guessed.
pub fn parse_yesno_verdict(response: &str) -> Parsed {
    let toks = match sentence_tokens(response) {
        Ok(t) => t,
        Err(p) => return p,
    };
    let Some(first) = toks.first() else {
        return Parsed::new(Verdict::Invalid, "no words in first sentence");
    };
    let positive = match first.lower.as_str() {
        "yes" | "yeah" | "yep" | "true" | "correct" => true,
        "no" | "nope" | "false" | "incorrect" => false,
        _ => {
            return Parsed::new(
                Verdict::Invalid,
                format!("first word '{}' is not yes/no", first.text),
            )
        }
    };
    if let Some(c) = claims(&toks).iter().find(|c| c.positive != positive) {
        return Parsed::new(
            Verdict::Invalid,
            format!(
                "both yes and no in first sentence ('{}', '{}')",
                first.text, c.text
            ),
        );
    }
    let verdict = if positive {
        Verdict::True
    } else {
        Verdict::False
    };
    Parsed::new(verdict, format!("first word '{}'", first.text))
}

/// Sentences that carry no answer and are skipped, in normalised form (lowercase words joined
/// by one space).
const FILLER: &[&str] = &[
    "sure",
    "okay",
    "ok",
    "certainly",
    "of course",
    "alright",
    "well",
    "hmm",
    "let me think",
    "let's see",
    "great question",
    "my answer",
    "here is my answer",
    "here's my answer",
    "here is the answer",
    "here's the answer",
    "sure here is my answer",
    "sure here's my answer",
];

/// The steps both parsers share: the deciding sentence, abstention (which wins over any
/// yes/no), then its words. `Err` carries the verdict when no yes/no reading is needed.
fn sentence_tokens(response: &str) -> Result<Vec<Tok>, Parsed> {
    let sentence = deciding_sentence(response)?;
    match abstained(&sentence) {
        Some(p) => Err(p),
        None => Ok(tokens(&sentence)),
    }
}

fn deciding_sentence(response: &str) -> Result<String, Parsed> {
    if response.trim().is_empty() {
        return Err(Parsed::new(Verdict::Invalid, "empty response"));
    }
    let cleaned = clean_response(response);
    let all = sentences(&cleaned);
    if all.is_empty() {
        return Err(Parsed::new(
            Verdict::Invalid,
            "nothing left after removing template tokens and prompt echo",
        ));
    }
    all.iter()
        .find(|s| {
            let norm: Vec<String> = tokens(s).into_iter().map(|t| t.lower).collect();
            !FILLER.contains(&norm.join(" ").as_str())
        })
        .map(|s| s.to_string())
        .ok_or_else(|| Parsed::new(Verdict::Invalid, "only filler, no verdict"))
}

fn abstained(sentence: &str) -> Option<Parsed> {
    is_abstention(sentence).map(|p| Parsed::new(Verdict::Idk, format!("abstention phrase '{p}'")))
}

/// A word of the deciding sentence, with whether it starts a clause (first word, or after
/// punctuation).
struct Tok {
    text: String,
    lower: String,
    clause_start: bool,
}

fn tokens(sentence: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut clause_start = true;
    let flush = |word: &mut String, clause_start: &mut bool, out: &mut Vec<Tok>| {
        let w = word.trim_matches('\'');
        if !w.is_empty() {
            out.push(Tok {
                text: w.to_string(),
                lower: w.to_lowercase(),
                clause_start: *clause_start,
            });
            *clause_start = false;
        }
        word.clear();
    };
    for c in sentence.chars() {
        if c.is_alphanumeric() || c == '\'' {
            word.push(c);
        } else {
            flush(&mut word, &mut clause_start, &mut out);
            if !c.is_whitespace() {
                clause_start = true;
            }
        }
    }
    flush(&mut word, &mut clause_start, &mut out);
    out
}

/// One claim found in a sentence.
struct Claim {
    positive: bool,
    /// The words that made the claim, e.g. "Yes" or "not true".
    text: String,
    at_start: bool,
}

impl Claim {
    fn describe(&self) -> String {
        if self.at_start {
            format!("first sentence starts with '{}'", self.text)
        } else {
            format!("first sentence says '{}'", self.text)
        }
    }
}

const ANSWER_WORDS: &[(&str, bool)] = &[
    ("yes", true),
    ("yeah", true),
    ("yep", true),
    ("no", false),
    ("nope", false),
];

const TRUTH_WORDS: &[(&str, bool)] = &[
    ("true", true),
    ("correct", true),
    ("accurate", true),
    ("false", false),
    ("incorrect", false),
    ("inaccurate", false),
    ("untrue", false),
    ("wrong", false),
];

const NEGATORS: &[&str] = &[
    "not", "isn't", "wasn't", "aren't", "weren't", "never", "nor", "neither", "cannot", "can't",
    "doesn't", "don't", "didn't", "hardly",
];

fn claims(toks: &[Tok]) -> Vec<Claim> {
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let at_break = toks.get(i + 1).is_none_or(|n| n.clause_start);
        if let Some((_, pos)) = ANSWER_WORDS.iter().find(|(w, _)| *w == t.lower) {
            if t.clause_start || at_break {
                out.push(Claim {
                    positive: *pos,
                    text: t.text.clone(),
                    at_start: i == 0,
                });
            }
        } else if let Some((_, pos)) = TRUTH_WORDS.iter().find(|(w, _)| *w == t.lower) {
            // Look back up to two words within the same clause for a negation.
            let mut negator = None;
            let mut j = i;
            while j > 0 && i - j < 2 && !toks[j].clause_start {
                j -= 1;
                if NEGATORS.contains(&toks[j].lower.as_str()) {
                    negator = Some(j);
                    break;
                }
            }
            let text = match negator {
                Some(j) => toks[j..=i]
                    .iter()
                    .map(|t| t.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
                None => t.text.clone(),
            };
            out.push(Claim {
                positive: *pos != negator.is_some(),
                text,
                at_start: i == 0,
            });
        }
    }
    out
}

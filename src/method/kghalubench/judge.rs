//! The judge stages of KGHaluBench's fact-level check (§3.2.2): for an asked fact the first
//! stage could not confirm ([`super::facts`]), an LLM says whether the answer states it,
//! contradicts it or does not mention it (`assets/prompts/halu-fact-judge.toml`); where the
//! judge is unsure — its samples disagree, or a second judge model says otherwise — an
//! "expert" stage settles it by majority. The paper's expert is an LLM choosing between two
//! conflicting verdicts; kgscope settles by a strict majority of the verdicts it has, and a
//! fact without one is not counted as stated (1 point per fact stated, as the paper scores).

use crate::backends::Prompt;
use crate::core::prompts;

/// What the judge says of one fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FactVerdict {
    Stated,
    Contradicted,
    NotMentioned,
}

impl FactVerdict {
    /// Whether the fact earns its point.
    pub fn is_stated(self) -> bool {
        self == FactVerdict::Stated
    }
}

/// The judge's prompt for one fact, written as a sentence, and the answer (its first 1,200
/// characters: a long answer's facts come early, and the judge's context is small).
pub fn prompt(fact: &str, response: &str) -> Prompt {
    let response: String = response.trim().chars().take(1200).collect();
    prompts::spec("halu-fact-judge").ask(format!("Fact: {fact}\nResponse: {response}"))
}

/// Reads the judge's one word (its synonyms, any case, `NOT MENTIONED` spaced or not).
pub fn read(output: &str) -> Option<FactVerdict> {
    let words: Vec<String> = output
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(2)
        .map(str::to_lowercase)
        .collect();
    match words.first()?.as_str() {
        "stated" | "entailed" | "entailment" | "supported" | "yes" => Some(FactVerdict::Stated),
        "contradicted" | "contradiction" | "refuted" | "conflicts" => {
            Some(FactVerdict::Contradicted)
        }
        "not" if words.get(1).is_some_and(|w| w == "mentioned") => Some(FactVerdict::NotMentioned),
        "notmentioned" | "neutral" | "unmentioned" | "absent" => Some(FactVerdict::NotMentioned),
        _ => None,
    }
}

/// The expert stage: the strict majority of the verdicts read (judge samples, a second
/// judge), or `None` when there is none (a tie, or nothing readable).
pub fn settle(verdicts: &[Option<FactVerdict>]) -> Option<FactVerdict> {
    let read: Vec<FactVerdict> = verdicts.iter().flatten().copied().collect();
    [
        FactVerdict::Stated,
        FactVerdict::Contradicted,
        FactVerdict::NotMentioned,
    ]
    .into_iter()
    .find(|v| 2 * read.iter().filter(|x| *x == v).count() > read.len())
}

/// Whether the verdicts disagree, so the expert stage is needed.
pub fn unsure(verdicts: &[Option<FactVerdict>]) -> bool {
    let mut read = verdicts.iter().flatten();
    match read.next() {
        None => true,
        Some(first) => read.any(|v| v != first) || verdicts.iter().any(Option::is_none),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use FactVerdict::*;

    #[test]
    fn the_judges_word_is_read_in_its_forms() {
        assert_eq!(read("STATED"), Some(Stated));
        assert_eq!(read("stated."), Some(Stated));
        assert_eq!(read("Contradicted: it says peso"), Some(Contradicted));
        assert_eq!(read("NOT_MENTIONED"), Some(NotMentioned));
        assert_eq!(read("Not mentioned"), Some(NotMentioned));
        assert_eq!(read("neutral"), Some(NotMentioned));
        // "Not" alone is no verdict; nor is anything else.
        assert_eq!(read("Not sure"), None);
        assert_eq!(read("maybe"), None);
        assert_eq!(read(""), None);
    }

    #[test]
    fn the_expert_takes_a_strict_majority() {
        assert_eq!(
            settle(&[Some(Stated), Some(Stated), Some(Contradicted)]),
            Some(Stated)
        );
        assert_eq!(settle(&[Some(Stated), Some(Contradicted)]), None, "a tie");
        assert_eq!(
            settle(&[Some(NotMentioned), None, Some(NotMentioned)]),
            Some(NotMentioned)
        );
        assert_eq!(settle(&[None, None]), None);
        assert!(!unsure(&[Some(Stated), Some(Stated)]));
        assert!(unsure(&[Some(Stated), Some(NotMentioned)]));
        assert!(unsure(&[Some(Stated), None]));
        assert!(unsure(&[]));
    }

    #[test]
    fn the_prompt_holds_the_fact_and_the_answer() {
        let p = prompt("The capital of Peru is Lima.", &"Lima. ".repeat(500));
        assert!(p.instruction.contains("STATED"));
        assert!(p
            .input
            .starts_with("Fact: The capital of Peru is Lima.\nResponse: Lima."));
        assert!(p.input.len() < 1300);
        assert_eq!(p.shots.len(), 3);
    }
}

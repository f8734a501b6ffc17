//! The judge stages of KGHaluBench's fact-level check (§3.2.2): for an asked fact the first
//! stage could not confirm ([`super::facts`]), an LLM says whether the answer states it (YES),
//! contradicts it (NO) or does not mention it (UNCLEAR) (`assets/prompts/halu-fact-judge.toml`).
//! Where the judge is unsure, an "expert" stage decides: a reading of the fact's value from
//! the answer ([`reader_prompt`], [`verdict_of_reading`]) and any further votes, settled by a
//! strict majority ([`settle`]). A fact without a verdict is not counted as stated (1 point per
//! fact stated, as the paper scores). When the judge is unsure is decided by the chain that
//! calls these (`chain.rs`).

use crate::backends::Prompt;
use crate::core::prompts;

pub use crate::core::compound::FactVerdict;

/// The judge's prompt for one fact, written as a sentence, and the answer (its first 1,200
/// characters: a long answer's facts come early, and the judge's context is small).
pub fn prompt(fact: &str, response: &str) -> Prompt {
    let response: String = response.trim().chars().take(1200).collect();
    prompts::spec("halu-fact-judge").ask(format!(
        "Text: {response}\nFact: {fact}\nDoes the text say this fact?"
    ))
}

/// Reads the judge's answer: YES / NO / UNCLEAR as the prompt asks, or the three-way words
/// (`STATED`, `CONTRADICTED`, `NOT MENTIONED` spaced or not) and their synonyms, in any case.
pub fn read(output: &str) -> Option<FactVerdict> {
    let words: Vec<String> = output
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(2)
        .map(str::to_lowercase)
        .collect();
    match words.first()?.as_str() {
        "yes" | "stated" | "entailed" | "entailment" | "supported" => Some(FactVerdict::Stated),
        "no" | "contradicted" | "contradiction" | "refuted" | "conflicts" => {
            Some(FactVerdict::Contradicted)
        }
        "not" if words.get(1).is_some_and(|w| w == "mentioned") => Some(FactVerdict::NotMentioned),
        "unclear" | "notmentioned" | "neutral" | "unmentioned" | "absent" => {
            Some(FactVerdict::NotMentioned)
        }
        _ => None,
    }
}

/// The expert stage's reading of one fact: the fact's sentence with its value hidden
/// (`blank`, "The capital of Peru is ___."), to be filled from the answer.
pub fn reader_prompt(blank: &str, response: &str) -> Prompt {
    let response: String = response.trim().chars().take(1200).collect();
    prompts::spec("halu-fact-reader").ask(format!(
        "Text: {response}\nSentence: {blank}\nAccording to the text, what fills the blank?"
    ))
}

/// What a reading says of the fact whose objects are `names`: not mentioned when the reader
/// found nothing or gave words that are not in the answer (its own knowledge, not the
/// answer's); stated when its words name one of the objects (either containing the other);
/// contradicted when the answer gives something else.
pub fn verdict_of_reading(output: &str, response: &str, names: &[&str]) -> FactVerdict {
    let value = output
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | '*' | '.' | ' '));
    let none = value.is_empty()
        || value
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("none"));
    if none || !super::facts::states(response, &[value]) {
        return FactVerdict::NotMentioned;
    }
    let names_it = super::facts::states(value, names)
        || names.iter().any(|n| super::facts::states(n, &[value]));
    if names_it {
        FactVerdict::Stated
    } else {
        FactVerdict::Contradicted
    }
}

/// The expert stage: the strict majority of its verdicts (a reading, judge samples, a second
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

#[cfg(test)]
mod tests {
    use super::*;
    use FactVerdict::*;

    #[test]
    fn the_judges_word_is_read_in_its_forms() {
        assert_eq!(read("YES"), Some(Stated));
        assert_eq!(read("No."), Some(Contradicted));
        assert_eq!(read("UNCLEAR"), Some(NotMentioned));
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
    }

    #[test]
    fn a_reading_counts_only_in_the_answers_own_words() {
        let answer = "Peru is an Andean country whose capital is Cusco. It uses the sol.";
        let names = ["Lima", "Ciudad de los Reyes"];
        assert_eq!(verdict_of_reading("Cusco", answer, &names), Contradicted);
        assert_eq!(verdict_of_reading("NONE", answer, &names), NotMentioned);
        assert_eq!(verdict_of_reading("None.", answer, &names), NotMentioned);
        // The reader's own knowledge, not in the answer: not mentioned.
        assert_eq!(verdict_of_reading("Lima", answer, &names), NotMentioned);
        let answer = "Peru's capital, Lima, lies on the coast. Its currency is the Peruvian sol.";
        assert_eq!(verdict_of_reading("\"Lima\"", answer, &names), Stated);
        // The value inside an object's name, or the other way round.
        assert_eq!(verdict_of_reading("sol", answer, &["Peruvian sol"]), Stated);
        assert_eq!(
            verdict_of_reading("the Peruvian sol", answer, &["Peruvian sol"]),
            Stated
        );
    }

    #[test]
    fn the_prompt_holds_the_fact_and_the_answer() {
        let p = prompt("The capital of Peru is Lima.", &"Lima. ".repeat(500));
        assert!(p.instruction.contains("UNCLEAR"));
        assert!(p.input.starts_with("Text: Lima. Lima."));
        assert!(p
            .input
            .ends_with("\nFact: The capital of Peru is Lima.\nDoes the text say this fact?"));
        assert!(p.input.len() < 1300);
        assert_eq!(p.shots.len(), 3);
    }
}

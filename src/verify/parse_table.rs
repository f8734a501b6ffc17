//! Table test: realistic responses and the verdict each parser must read from them.

use super::parse::{parse_statement_verdict, parse_yesno_verdict};
use crate::core::verdict::Verdict::{self, *};

const ECHO: &str = "You are given a statement. You are asked to judge whether the statement is true or false. Answer 'Yes, the statement is true.' if you know the statement is true. Answer 'No, the statement is false.' if you know the statement is false. Otherwise, answer 'I don't know.'";

/// (response, statement parser, yes/no parser)
fn table() -> Vec<(String, Verdict, Verdict)> {
    let s = |r: &str, st: Verdict, yn: Verdict| (r.to_string(), st, yn);
    vec![
        // Empty and whitespace.
        s("", Invalid, Invalid),
        s("   \n\t ", Invalid, Invalid),
        s("....", Invalid, Invalid),
        // The three instructed answers and their short forms.
        s("Yes, the statement is true.", True, True),
        s("No, the statement is false.", False, False),
        s("I don't know.", Idk, Idk),
        s("yes", True, True),
        s("YES", True, True),
        s("No.", False, False),
        s("Nope.", False, False),
        s("False", False, False),
        s("True.", True, True),
        s("Correct.", True, True),
        s("yes, the statement is true", True, True),
        // Abstentions, including ones that mention "true": abstention wins.
        s("I don't know if it is true", Idk, Idk),
        s("I don't know whether it is true.", Idk, Idk),
        s("I think the statement is true, but I'm not sure.", Idk, Idk),
        s("I do not know.", Idk, Idk),
        s("IDK", Idk, Idk),
        s("Unknown", Idk, Idk),
        s("I cannot determine whether the statement is true or false.", Idk, Idk),
        s("There is not enough information to say.", Idk, Idk),
        s("I'm sorry, but I couldn't find any information about this person.", Idk, Idk),
        s("No information available.", Idk, Idk),
        // Contradictions in the first sentence.
        s("Yes, but no", Invalid, Invalid),
        s("Yes or no?", Invalid, Invalid),
        s("No, it is true.", Invalid, Invalid),
        s("True or false", Invalid, Invalid),
        s("The statement is neither true nor false.", Invalid, Invalid),
        // Only the first sentence counts.
        s("Yes. No.", True, True),
        s("No, the statement is false. Actually, I'm not sure.", False, False),
        s("Yes\nThe statement is true because he was born there.", True, True),
        s(
            "Yes, the statement is true. The statement is true. The statement is true.",
            True,
            True,
        ),
        // Rambling without a verdict.
        s(
            "The birthplace of Barack Obama has been discussed in many contexts, and several sources mention different places over the years",
            Invalid,
            Invalid,
        ),
        s(
            "Barack Obama is the 44th president of the United States. He served two terms. Many people admire him.",
            Invalid,
            Invalid,
        ),
        s("The birthplace of Barack Obama is Honolulu.", Invalid, Invalid),
        // Chat-template leftovers.
        s("Yes, the statement is true.<end_of_turn>", True, True),
        s(
            "<start_of_turn>model\nNo, the statement is false.<end_of_turn>\n<start_of_turn>user\nYes",
            False,
            False,
        ),
        s("No, the statement is false.<|im_end|>", False, False),
        s("<|im_start|>assistant\n**No**<|im_end|>", False, False),
        s(
            "<|start_header_id|>assistant<|end_header_id|>\n\nI don't know.<|eot_id|>",
            Idk,
            Idk,
        ),
        s("Yes</s>", True, True),
        s("<s> No </s> Yes", False, False),
        s("Yes, the statement is true.\n### Instruction:\nAnother question", True, True),
        // Markdown, quotes and labels.
        s("**Yes**", True, True),
        s("**Yes**, the statement is *true*.", True, True),
        s("\"Yes, the statement is true.\"", True, True),
        s("'No'", False, False),
        s("\u{201c}No, the statement is false.\u{201d}", False, False),
        s("Answer: No, the statement is false.", False, False),
        s("A: Yes", True, True),
        s("Answer: Answer: Yes", True, True),
        s("### Answer\nNo", False, False),
        s("- Yes", True, True),
        // Filler before the answer.
        s("Sure! Yes, the statement is true.", True, True),
        s("Sure, here is my answer: No, the statement is false.", False, False),
        // Verdicts not in first position: both tasks read them (a careful reader would; KGLens'
        // first-word rule called these Invalid before issue 10).
        s("The statement is true.", True, True),
        s(
            "The statement is false because Obama was born in Honolulu, not Chicago.",
            False,
            False,
        ),
        s("It is not true", False, False),
        s("It is not true that Paris is in Germany.", False, False),
        s("The statement is not false.", True, True),
        s("The statement is inaccurate.", False, False),
        s("The answer is yes.", True, True),
        s("There is no doubt that the statement is true.", True, True),
        s("Incorrect, the birthplace of Barack Obama is Honolulu.", False, False),
        s("Yes, Barack Obama was born in Honolulu in 1961.", True, True),
        s("No, he is not the director of Jaws.", False, False),
        // Numbers.
        s("42", Invalid, Invalid),
        s("1.", Invalid, Invalid),
        // Prompt echoes.
        s(
            "Below is an instruction that describes a task, paired with an input that provides further context. Write a response that appropriately completes the request.\n\n### Instruction:\nYou are given a statement.\n\n### Input: The birthplace of Barack Obama is Honolulu.\n\n### Response:\n\nYes, the statement is true.",
            True,
            True,
        ),
        s("### Response:\nNo, the statement is false.", False, False),
        s(ECHO, Invalid, Invalid),
        s(&format!("{ECHO} No, the statement is false."), False, False),
        s(
            "### Input: The birthplace of Barack Obama is Honolulu. The statement is true.",
            Invalid,
            Invalid,
        ),
        // Not English: read with the multilingual table (issue 10).
        s("Sí, la afirmación es verdadera.", True, True),
        s("Oui.", True, True),
        s("Nein, das stimmt nicht.", False, False),
        s("是的，这个说法是正确的。", True, True),
        s("No lo sé.", Idk, Idk),
        s("Я не знаю.", Idk, Idk),
        s("いいえ。", False, False),
        // Decisive leading answer: the explanation's other polarity does not undo it.
        s(
            "False — the real capital is Lima, so it is not true that Quito is.",
            False,
            False,
        ),
        s("No. While it is true that X is large, Y is the capital.", False, False),
        s("No, that is incorrect; the correct code is +51.", False, False),
        s("Yes, the yen, not the won, which is wrong.", True, True),
        // ... but answering again with the other polarity does.
        s("Yes, the statement is false.", Invalid, Invalid),
        // Apologies are politeness; an abstention must concern the question.
        s("Sorry, but no: that is wrong.", False, False),
        s("I'm unable to say whether this is true.", Idk, Idk),
        s("I have no way of knowing if that is correct.", Idk, Idk),
        s("Yes, but I'm not sure.", Idk, Idk),
        s("True, though I don't know the exact year.", True, True),
        // Answer words.
        s("Certainly not.", False, False),
        s("Nah.", False, False),
        s("Of course.", True, True),
        s("Of course! The answer is no.", False, False),
        s("That's right.", True, True),
        s("It is not.", False, False),
        s("Partially true.", Invalid, Invalid),
        s("Please answer yes or no.", Invalid, Invalid),
        // Questions are echoes, not answers.
        s("Is Lima the capital of Peru? Yes.", True, True),
        // Invented turns, reasoning, JSON.
        s("No.\n\n### Input: Is it?\n\n### Response: Yes", False, False),
        s("<think>true? not sure</think>\nFalse.", False, False),
        s("{\"answer\": \"no\", \"why\": \"yes, X is big\"}", False, False),
    ]
}

#[test]
fn statement_and_yesno_table() {
    let table = table();
    assert!(table.len() >= 40);
    let mut failures = Vec::new();
    for (response, st, yn) in &table {
        let a = parse_statement_verdict(response);
        if a.verdict != *st {
            failures.push(format!(
                "statement {response:?}: got {:?} ({}), want {st:?}",
                a.verdict, a.rule
            ));
        }
        let b = parse_yesno_verdict(response);
        if b.verdict != *yn {
            failures.push(format!(
                "yes/no {response:?}: got {:?} ({}), want {yn:?}",
                b.verdict, b.rule
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn rules_are_readable() {
    let rule = |r: &str| parse_statement_verdict(r).rule;
    assert_eq!(rule(""), "empty response");
    assert_eq!(
        rule("Yes, the statement is true."),
        "first sentence starts with 'Yes'"
    );
    assert_eq!(rule("It is not true"), "first sentence says 'not true'");
    assert_eq!(rule("I'm not sure."), "abstention phrase 'not sure'");
    assert_eq!(
        rule("Yes, but no"),
        "both yes and no in first sentence ('Yes', 'no')"
    );
    assert_eq!(rule("Paris is nice"), "no verdict in first sentence");
    assert_eq!(
        parse_yesno_verdict("**No**").rule,
        "first sentence starts with 'No'"
    );
    assert_eq!(
        parse_yesno_verdict("The answer is yes").rule,
        "first sentence says 'yes'"
    );
    assert_eq!(
        rule("I have no way of knowing whether that's true."),
        "abstention phrase 'no way … knowing'"
    );
    assert_eq!(rule("Certainly."), "first sentence says 'Certainly'");
    assert_eq!(rule("Sure, but is it?"), "no verdict in first sentence");
}

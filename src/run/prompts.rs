//! The instructions and few-shot examples each task is asked with.
//!
//! Instructions are verbatim from the papers (GraphEval Table 6; KGLens appendix 6.2). The
//! examples are kgscope's: a base model, which has no chat training, needs worked examples to
//! answer in the expected form at all; chat models get the same turns as conversation.

use crate::backends::{Prompt, Shot};
use crate::questions::{Question, Task};

/// GraphEval, Table 6.
pub const GRAPHEVAL_INSTRUCTION: &str = "You are given a statement. You are asked to judge whether the statement is true or false. Answer 'Yes, the statement is true.' if you know the statement is true. Answer 'No, the statement is false.' if you know the statement is false. Otherwise, answer 'I don't know.'";

/// KGLens, appendix 6.2 ("Yes No Question Answer").
pub const KGLENS_YESNO_INSTRUCTION: &str =
    "You are a helpful assistant, please answer Yes or No to the user's questions.";

fn shots(task: Task) -> Vec<Shot> {
    let s = |i: &str, o: &str| Shot {
        input: i.into(),
        output: o.into(),
    };
    match task {
        Task::Statement => vec![
            s(
                "The capital of Japan is Tokyo.",
                "Yes, the statement is true.",
            ),
            s(
                "The capital of Canada is Sydney.",
                "No, the statement is false.",
            ),
            s(
                "The chemical symbol of gold is Au.",
                "Yes, the statement is true.",
            ),
            s(
                "The 1911 mayor of the village of Ostrzeszów-Wielkie was Jan Wirski.",
                "I don't know.",
            ),
            s(
                "Mount Everest is located in Brazil.",
                "No, the statement is false.",
            ),
        ],
        // The paper's two demonstrations.
        Task::Yesno => vec![
            s("Is Belgium located in the continent of Europe?", "Yes."),
            s("Is Andrzej Duda the head of state of Belgium?", "No."),
        ],
    }
}

/// The prompt for one question; everything but `input` is shared by the whole run.
pub fn prompt_for(q: &Question) -> Prompt {
    let instruction = match q.task {
        Task::Statement => GRAPHEVAL_INSTRUCTION,
        Task::Yesno => KGLENS_YESNO_INSTRUCTION,
    };
    Prompt {
        instruction: instruction.into(),
        shots: shots(q.task),
        input: q.prompt.clone(),
    }
}

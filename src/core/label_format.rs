//! The shapes hand labels are exported in (`kgscope labels export --format`, and the TUI's
//! export key): each method names the one its judge learns from (`Method::label_format`).

/// One shape of exported labels: one JSON object per line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LabelFormat {
    /// Every label with its run, model, KG, asked triple, question, response and outcome.
    Jsonl,
    /// GraphEval judge data: statement, response, label correct/incorrect/idk.
    Grapheval,
    /// KG-FPQ judge data: instruction, input (question and answer), output Yes/No; from a
    /// KG-FPQ run, its false-premise questions with "misled by the premise?" as the output.
    FpqJudge,
    /// KGHaluBench fact-judge data, one example per asked fact of an answer about its entity:
    /// instruction, input (answer and fact), output YES/NO/UNCLEAR. A "right" label says every
    /// fact is stated; otherwise the chain's fact verdicts are exported where the label agrees
    /// with the chain's outcome, and nothing where it does not (which fact is wrong is unknown).
    HaluFactJudge,
}

impl LabelFormat {
    /// The name `--format` takes ("fpq-judge").
    pub fn name(self) -> String {
        clap::ValueEnum::to_possible_value(&self)
            .map(|v| v.get_name().to_string())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_command_lines() {
        assert_eq!(LabelFormat::FpqJudge.name(), "fpq-judge");
        assert_eq!(LabelFormat::HaluFactJudge.name(), "halu-fact-judge");
        assert_eq!(LabelFormat::Grapheval.name(), "grapheval");
    }
}

//! KGLens in full (Zheng et al., 2024): yes/no and Wh-questions about the edges that adaptive Beta
//! sampling draws, each iteration on the fly ([`plan`] drives the iterations).
//! A question's kind is its gold answer's: a truth value for yes/no, accepted texts for Wh.

pub mod args;
pub mod panel;
pub mod questions;
pub mod report;

pub mod plan;

pub mod posterior;

use self::questions as kglens;
use super::{prompts, Maker, Method};
use crate::backends::Prompt;
use crate::method::yesno::questions::Asker;
use crate::metrics::{Metric, Scoring};
use crate::questions::{GenerateOptions, Gold, Question, Renderer, Task};
use crate::verify::{self, Reading};

pub struct Kglens;

impl Method for Kglens {
    fn task(&self) -> Task {
        Task::Kglens
    }
    fn takes_kglens_settings(&self) -> bool {
        true
    }
    fn describe(&self) -> &'static str {
        "adaptive sampling over a subgraph's edges; yes/no and Wh-questions (KGLens)"
    }
    fn prompt(&self, q: &Question) -> Prompt {
        match q.gold {
            Gold::Bool { .. } => prompts::spec("yesno").ask(q.prompt.clone()),
            _ => prompts::spec("kglens-wh").ask(q.prompt.clone()),
        }
    }
    /// Yes/No on the answer's first word, as the paper verifies it. A Wh answer is read by the
    /// short-answer rules but never confidently: the paper has a judge decide every one, and so
    /// does kgscope when the run has a judge.
    fn read(&self, q: &Question, response: &str) -> Reading {
        match &q.gold {
            Gold::Bool { .. } => verify::bool_reading(verify::parse_yesno_verdict(response)),
            Gold::Texts { accepted } => Reading {
                confident: false,
                ..verify::short_answer::read(response, accepted)
            },
            other => Reading::unreadable(format!("a KGLens question cannot have gold {other:?}")),
        }
    }
    /// A Wh answer may list several objects.
    fn answer_tokens(&self, q: &Question) -> u32 {
        match q.gold {
            Gold::Texts { .. } => 48,
            _ => 0,
        }
    }
    fn has_open_answers(&self) -> bool {
        // HARD mode asks Wh questions, answered in free text.
        true
    }
    fn scoring(&self) -> Scoring {
        Scoring::Edges
    }
    fn metrics(&self) -> &'static [Metric] {
        &[
            Metric::WinRate,
            Metric::ZeroSense,
            Metric::Accuracy,
            Metric::AbstainRate,
            Metric::InvalidRate,
        ]
    }
    fn truth_words(&self) -> (&'static str, &'static str) {
        ("yes", "no")
    }
}

impl Maker for Kglens {
    /// Outside an adaptive run (`kgscope questions`): the first iteration's questions for the
    /// drawn facts, in HARD mode, every edge still at its prior.
    fn generate(
        &self,
        r: &Renderer<'_>,
        candidates: &[usize],
        opts: &GenerateOptions,
    ) -> (Vec<Question>, usize) {
        let picked =
            crate::questions::draw_facts(r.index, candidates, opts.limit, opts.sampling, opts.seed);
        let mut asker = Asker::new(r);
        let out = picked
            .into_iter()
            .enumerate()
            .map(|(i, fi)| {
                let fact = r.index.facts()[fi];
                kglens::question(&mut asker, r, &fact, i as u32, 1, kglens::Difficulty::Hard)
            })
            .collect();
        (out, 0)
    }
    fn plan(
        &self,
        input: &super::plan::PlanInput<'_>,
        progress: &dyn Fn(&str),
    ) -> Result<Option<Box<dyn super::plan::Plan>>, crate::kg::KgError> {
        progress("walking the subgraph");
        let o = input.options;
        let run = plan::KglensRun::new(
            input.index,
            input
                .settings::<plan::KglensConfig>()
                .cloned()
                .unwrap_or_default(),
            &o.entities,
            &o.relations,
            o.seed,
        )?;
        Ok(Some(Box::new(run)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::questions::{tests_support, Accepted};

    #[test]
    fn the_gold_answer_picks_the_prompt_and_the_reading() {
        let mut q = tests_support::question();
        q.task = Task::Kglens;
        q.prompt = "Is Lima the capital of Peru?".into();
        let yn = Kglens.prompt(&q);
        assert!(yn.instruction.contains("Yes or No"), "{}", yn.instruction);
        let r = Kglens.read(&q, "Yes, it is.");
        assert_eq!(r.verdict, verify::Verdict::True);
        assert!(r.confident);

        q.prompt = "What is the capital of Peru?".into();
        q.gold = Gold::Texts {
            accepted: vec![Accepted {
                label: "Lima".into(),
                aliases: vec!["Ciudad de los Reyes".into()],
                ..Default::default()
            }],
        };
        assert_ne!(Kglens.prompt(&q).instruction, yn.instruction);
        let r = Kglens.read(&q, "Lima.");
        assert_eq!(r.verdict, verify::Verdict::True);
        assert!(!r.confident, "a judge decides Wh answers when there is one");
        assert_eq!(Kglens.read(&q, "Cusco").verdict, verify::Verdict::False);
    }
}

//! Is the model doing better than chance? What it answered (the answer distribution), what a
//! model that knows nothing would score (the chance baseline), and a warning when the run's
//! accuracy cannot be told from that baseline or one answer was given to most questions.
//!
//! A small base model says "true" to nearly every statement; its accuracy then sits near the
//! share of true statements and looks like knowledge. These figures say so plainly, in `run`,
//! `report`, Live and Compare, from the same records the metrics are read from.
//!
//! Chance is defined only for closed answers (`AnswerKind::Closed`, the method's call:
//! true/false, yes/no, one of a fixed set of options). Its baseline is the better of two
//! strategies that need no knowledge: guessing uniformly among the options (1/2 for
//! true/false, 1/options for multiple choice) and always giving the most common gold answer
//! (the majority-class rate: the honest baseline when the gold answers are unbalanced, e.g.
//! more false statements than true ones, or the right option often "A").
//!
//! Open answers (short answers, answers judged against a premise or a set of facts) have no
//! chance: "always answering 'pe'" is no strategy a model could follow, and a 200-character
//! response is no category of a distribution. They get a line of their own instead: how many
//! there were, which stage decided them (the rules, the judge) and how many abstained. A run
//! that mixes both (KG-FPQ, KGLens) is compared with chance on its closed answers only, and
//! says how many those are.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::interval::Rate;
use crate::core::answer::{Answer, AnswerKind, Stage};
use crate::core::gold::{choice_letter, Gold};
use crate::verify::OutcomeKind;

/// Below this many answers neither warning says much about the model.
pub const MIN_N: u64 = 10;
/// One answer given to at least this share of the questions is an answer by habit.
pub const DOMINANT_SHARE: f64 = 0.8;

/// How the chance baseline was reached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Baseline {
    /// Guessing uniformly among `options` options (averaged over the questions).
    Uniform { rate: f64, options: f64 },
    /// Always giving `answer`, the most common gold answer.
    Majority { rate: f64, answer: String },
}

impl Baseline {
    pub fn rate(&self) -> f64 {
        match self {
            Baseline::Uniform { rate, .. } | Baseline::Majority { rate, .. } => *rate,
        }
    }

    /// "50% (guessing one of 2 options)", "62.5% (always answering 'no', the most common gold
    /// answer)".
    pub fn describe(&self) -> String {
        match self {
            Baseline::Uniform { rate, options } => {
                format!(
                    "{} (guessing one of {} options)",
                    pct(*rate),
                    trim(*options)
                )
            }
            Baseline::Majority { rate, answer } => format!(
                "{} (always answering '{answer}', the most common gold answer)",
                pct(*rate)
            ),
        }
    }
}

/// Why a run's results look like chance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Warning {
    /// One answer was given to `count` of `n` questions.
    OneAnswer { answer: String, count: u64, n: u64 },
    /// The baseline lies inside the accuracy's 95% interval.
    AtChance,
    /// The accuracy's whole 95% interval lies below the baseline.
    BelowChance,
}

/// What a run's open answers add up to: no chance is defined for them, so what is said is how
/// they were decided.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenAnswers {
    /// Open answers.
    pub n: u64,
    /// Decided by the LLM judge.
    pub judge: u64,
    /// Decided by the trained judge.
    pub trained: u64,
    /// The model abstained.
    pub abstained: u64,
}

impl OpenAnswers {
    /// Decided by the rules alone.
    pub fn rules(&self) -> u64 {
        self.n - self.judge - self.trained
    }
}

/// A run's answer distribution, baseline and warnings (over its closed answers), and what
/// its open answers add up to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chance {
    /// Closed answers: what the distribution, accuracy, baseline and warnings count.
    pub n: u64,
    /// Each closed answer and how often it was given, most frequent first (ties by name).
    pub distribution: Vec<(String, u64)>,
    /// The accuracy on the closed answers.
    pub accuracy: Option<Rate>,
    pub baseline: Option<Baseline>,
    pub warnings: Vec<Warning>,
    /// The open answers, which have no chance.
    #[serde(default)]
    pub open: OpenAnswers,
}

impl Chance {
    pub fn near_chance(&self) -> bool {
        !self.warnings.is_empty()
    }

    /// Answers counted, closed and open.
    pub fn answered(&self) -> u64 {
        self.n + self.open.n
    }

    /// "yes 36 · no 3 · idk 1": the closed answers; empty when there are none.
    pub fn distribution_line(&self) -> String {
        self.distribution
            .iter()
            .map(|(a, k)| format!("{a} {k}"))
            .collect::<Vec<_>>()
            .join(" · ")
    }

    /// "chance 50% (guessing one of 2 options)"; in a run with open answers too, over how
    /// many closed ones. `None` without closed answers: chance is then not defined.
    pub fn baseline_line(&self) -> Option<String> {
        if self.n == 0 {
            return None;
        }
        let over = if self.open.n > 0 {
            format!(" on the {} closed answers", self.n)
        } else {
            String::new()
        };
        Some(match &self.baseline {
            Some(b) => format!("chance{over} {}", b.describe()),
            None => format!("chance{over}: no single baseline for answers of mixed formats"),
        })
    }

    /// "open answers 30, no chance baseline: the rules decided 18, the judge 12 · 3 abstained
    /// (10%)"; `None` without open answers.
    pub fn open_line(&self) -> Option<String> {
        let o = &self.open;
        if o.n == 0 {
            return None;
        }
        let mut by = vec![format!("the rules decided {}", o.rules())];
        if o.judge > 0 {
            by.push(format!("the judge {}", o.judge));
        }
        if o.trained > 0 {
            by.push(format!("the trained judge {}", o.trained));
        }
        Some(format!(
            "open answers {}, no chance baseline: {} · {} abstained ({})",
            o.n,
            by.join(", "),
            o.abstained,
            pct(o.abstained as f64 / o.n as f64)
        ))
    }

    /// What was answered: the closed answers' distribution and the open answers' line, as
    /// there are.
    pub fn answers_line(&self) -> String {
        let closed = (self.n > 0).then(|| self.distribution_line());
        closed
            .into_iter()
            .chain(self.open_line())
            .collect::<Vec<_>>()
            .join(" · ")
    }

    /// One line for a screen: what was answered, then the baseline where there is one.
    pub fn summary_line(&self) -> String {
        let closed = (self.n > 0).then(|| format!("answers: {}", self.distribution_line()));
        closed
            .into_iter()
            .chain(self.baseline_line())
            .chain(self.open_line())
            .collect::<Vec<_>>()
            .join(" · ")
    }

    /// The warning in one sentence, e.g. "the model answered 'yes' to 36 of 40 questions: its
    /// accuracy 47.5% is at chance (50%)"; `None` when there is nothing to warn about. Only
    /// closed answers are ever warned about.
    pub fn warning_line(&self) -> Option<String> {
        if self.warnings.is_empty() {
            return None;
        }
        let mut parts = Vec::new();
        for w in &self.warnings {
            if let Warning::OneAnswer { answer, count, n } = w {
                parts.push(format!(
                    "the model answered '{answer}' to {count} of {n} questions"
                ));
            }
        }
        let acc = self.accuracy.map(|a| pct(a.value)).unwrap_or_default();
        let base = self.baseline.as_ref().map(|b| pct(b.rate()));
        let verdict = self.warnings.iter().find_map(|w| match w {
            Warning::AtChance => Some("is at chance"),
            Warning::BelowChance => Some("is below chance"),
            Warning::OneAnswer { .. } => None,
        });
        let on = if self.open.n > 0 {
            format!(" on the {} closed answers", self.n)
        } else {
            String::new()
        };
        match (verdict, base) {
            (Some(v), Some(b)) => parts.push(format!("its accuracy{on} {acc} {v} ({b})")),
            (None, Some(b)) => parts.push(format!("its accuracy{on} {acc} against chance {b}")),
            _ => {}
        }
        Some(format!("near chance: {}", parts.join(": ")))
    }

    /// The lines every surface shows: the closed answers' distribution and baseline, the open
    /// answers' line, and the warning when there is one.
    pub fn lines(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.n > 0 {
            v.push(format!("answers: {}", self.distribution_line()));
        }
        v.extend(self.baseline_line());
        v.extend(self.open_line());
        v.extend(self.warning_line().map(|w| format!("⚠ {w}")));
        v
    }
}

/// What the answers and golds of a run add up to, built one record at a time (Live adds as
/// answers come in).
#[derive(Debug, Clone, Default)]
pub struct ChanceTally {
    n: u64,
    correct: u64,
    open: OpenAnswers,
    answers: HashMap<String, u64>,
    /// The kind of every gold seen: a mixed run (KG-FPQ's formats) has no single baseline.
    gold_kinds: u8,
    /// Gold answers as a constant answer would name them, and how many questions each is right
    /// for (a short answer's question counts once for each distinct accepted name).
    gold_answers: HashMap<String, u64>,
    /// Sum over choice questions of 1/options.
    uniform_sum: f64,
    uniform_n: u64,
}

const GOLD_BOOL: u8 = 1;
const GOLD_CHOICE: u8 = 2;
const GOLD_TEXTS: u8 = 4;
const GOLD_OTHER: u8 = 8;

/// Lowercased, whitespace collapsed, surrounding punctuation trimmed: "Lima." and " lima" are
/// one answer.
fn normalise(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

impl ChanceTally {
    /// Adds one answered question: `kind` is whether its answer is closed
    /// (`Method::answer_kind`), `stage` what decided it. `words` are how the method says true
    /// and false (`Method::truth_words`), so a yes/no run counts "yes"/"no" and a statement
    /// run "true"/"false".
    pub fn add(
        &mut self,
        kind: AnswerKind,
        gold: &Gold,
        answer: &Answer,
        outcome: OutcomeKind,
        stage: Stage,
        words: (&str, &str),
    ) {
        if kind == AnswerKind::Open {
            self.open.n += 1;
            self.open.judge += u64::from(stage == Stage::Judge);
            self.open.trained += u64::from(stage == Stage::Trained);
            self.open.abstained += u64::from(outcome == OutcomeKind::Abstained);
            return;
        }
        self.n += 1;
        self.correct += u64::from(outcome == OutcomeKind::Correct);
        let key = match answer {
            Answer::Bool { value } => (if *value { words.0 } else { words.1 }).to_string(),
            Answer::Choice { index } => choice_letter(*index).to_string(),
            // A closed question read as free text (never made by the rules today): counted as
            // its text, so that nothing is lost.
            Answer::Text { text } => normalise(text),
            Answer::Abstained => "idk".into(),
            Answer::Invalid => "invalid".into(),
        };
        *self.answers.entry(key).or_default() += 1;
        if let Some(value) = gold.bool_value() {
            self.gold_kinds |= GOLD_BOOL;
            let w = if value { words.0 } else { words.1 };
            *self.gold_answers.entry(w.to_string()).or_default() += 1;
        } else if let Some((options, correct)) = gold.choice() {
            self.gold_kinds |= GOLD_CHOICE;
            *self
                .gold_answers
                .entry(choice_letter(correct).to_string())
                .or_default() += 1;
            if !options.is_empty() {
                self.uniform_sum += 1.0 / options.len() as f64;
                self.uniform_n += 1;
            }
        } else if !gold.accepted().is_empty() {
            self.gold_kinds |= GOLD_TEXTS;
            let mut names: Vec<String> = gold
                .accepted()
                .iter()
                .flat_map(|a| a.names())
                .map(normalise)
                .collect();
            names.sort();
            names.dedup();
            for name in names {
                *self.gold_answers.entry(name).or_default() += 1;
            }
        } else {
            // A premise, a set of facts: no closed key to count.
            self.gold_kinds |= GOLD_OTHER;
        }
    }

    fn baseline(&self) -> Option<Baseline> {
        if self.n == 0 || self.gold_kinds.count_ones() != 1 || self.gold_kinds == GOLD_OTHER {
            return None;
        }
        let majority = self
            .gold_answers
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
            .map(|(a, &k)| Baseline::Majority {
                rate: k as f64 / self.n as f64,
                answer: a.clone(),
            });
        let uniform = match self.gold_kinds {
            GOLD_BOOL => Some(Baseline::Uniform {
                rate: 0.5,
                options: 2.0,
            }),
            GOLD_CHOICE if self.uniform_n > 0 => {
                let rate = self.uniform_sum / self.uniform_n as f64;
                Some(Baseline::Uniform {
                    rate,
                    options: 1.0 / rate,
                })
            }
            _ => None,
        };
        // The uniform guess wins ties: "50% (guessing)" says more than "always 'true'" when
        // the golds are balanced.
        match (uniform, majority) {
            (Some(u), Some(m)) => Some(if m.rate() > u.rate() + 1e-9 { m } else { u }),
            (u, m) => u.or(m),
        }
    }

    /// The figures so far.
    pub fn summary(&self) -> Chance {
        let mut distribution: Vec<(String, u64)> =
            self.answers.iter().map(|(a, &k)| (a.clone(), k)).collect();
        distribution.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        let accuracy = Rate::new(self.correct as f64, self.n as f64);
        let baseline = self.baseline();
        let mut warnings = Vec::new();
        if self.n >= MIN_N {
            if let Some((answer, count)) = distribution.first() {
                if *count as f64 >= DOMINANT_SHARE * self.n as f64 {
                    warnings.push(Warning::OneAnswer {
                        answer: answer.clone(),
                        count: *count,
                        n: self.n,
                    });
                }
            }
            if let (Some(acc), Some(b)) = (accuracy, &baseline) {
                let b = b.rate();
                if acc.hi < b {
                    warnings.push(Warning::BelowChance);
                } else if acc.lo <= b {
                    warnings.push(Warning::AtChance);
                }
            }
        }
        Chance {
            n: self.n,
            distribution,
            accuracy,
            baseline,
            warnings,
            open: self.open.clone(),
        }
    }
}

fn pct(x: f64) -> String {
    let p = x * 100.0;
    if (p - p.round()).abs() < 0.05 {
        format!("{p:.0}%")
    } else {
        format!("{p:.1}%")
    }
}

fn trim(x: f64) -> String {
    if (x - x.round()).abs() < 0.05 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::gold::Accepted;

    const YN: (&str, &str) = ("yes", "no");

    fn bool_run(answers: &[(bool, bool)]) -> Chance {
        // (gold, answer) pairs.
        let mut t = ChanceTally::default();
        for &(g, a) in answers {
            let o = if g == a {
                OutcomeKind::Correct
            } else {
                OutcomeKind::Incorrect
            };
            t.add(
                AnswerKind::Closed,
                &Gold::Bool { value: g },
                &Answer::Bool { value: a },
                o,
                Stage::Rules,
                YN,
            );
        }
        t.summary()
    }

    #[test]
    fn a_model_saying_yes_to_balanced_questions_is_at_chance() {
        // 20 true, 20 false; the model says yes to half of each, as a coin would.
        let mut v = Vec::new();
        for i in 0..20 {
            v.push((true, i < 10));
            v.push((false, i < 10));
        }
        let c = bool_run(&v);
        assert_eq!(c.n, 40);
        // Ties are listed by name.
        assert_eq!(c.distribution, vec![("no".into(), 20), ("yes".into(), 20)]);
        // 10 + 10 = 20 right: accuracy 50%.
        assert_eq!(c.accuracy.unwrap().value, 0.5);
        assert_eq!(
            c.baseline,
            Some(Baseline::Uniform {
                rate: 0.5,
                options: 2.0
            })
        );
        assert_eq!(c.warnings, vec![Warning::AtChance]);
    }

    #[test]
    fn one_answer_to_most_questions_is_named() {
        // 20 true, 20 false; "yes" to all true, and to 16 of the false: 36 yes of 40.
        let mut v = Vec::new();
        for i in 0..20 {
            v.push((true, true));
            v.push((false, i < 16));
        }
        let c = bool_run(&v);
        assert_eq!(c.distribution[0], ("yes".into(), 36));
        assert!(c.warnings.contains(&Warning::OneAnswer {
            answer: "yes".into(),
            count: 36,
            n: 40
        }));
        // 20 + 4 = 24 right: 60%, Wilson (44.6%, 73.7%) contains 50%.
        assert!(c.warnings.contains(&Warning::AtChance));
        let w = c.warning_line().unwrap();
        assert!(
            w.contains("answered 'yes' to 36 of 40 questions")
                && w.contains("60% is at chance (50%)"),
            "{w}"
        );
    }

    #[test]
    fn a_knowing_model_has_no_warning() {
        // 38 of 40 right, answers balanced.
        let v: Vec<(bool, bool)> = (0..40)
            .map(|i| (i % 2 == 0, if i < 2 { i % 2 != 0 } else { i % 2 == 0 }))
            .collect();
        let c = bool_run(&v);
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
        assert_eq!(c.warning_line(), None);
    }

    #[test]
    fn unbalanced_golds_use_the_majority_rate() {
        // 30 false, 10 true: always "no" scores 75%, the honest baseline.
        let mut v = vec![(false, false); 30];
        v.extend(vec![(true, false); 10]);
        let c = bool_run(&v);
        assert_eq!(
            c.baseline,
            Some(Baseline::Majority {
                rate: 0.75,
                answer: "no".into()
            })
        );
        assert!(c.baseline_line().unwrap().contains("always answering 'no'"));
        assert!(c.warnings.contains(&Warning::AtChance));
    }

    #[test]
    fn below_chance_is_said() {
        // 40 balanced, 5 right: 12.5%, Wilson hi ≈ 26% < 50%.
        let v: Vec<(bool, bool)> = (0..40)
            .map(|i| (i % 2 == 0, (i % 2 == 0) == (i < 5)))
            .collect();
        let c = bool_run(&v);
        assert!(c.warnings.contains(&Warning::BelowChance));
        assert!(c.warning_line().unwrap().contains("below chance"));
    }

    #[test]
    fn mcq_letters_and_one_over_options() {
        // 30 four-option questions, gold spread over A-D; the model says B to 25.
        let mut t = ChanceTally::default();
        for i in 0..30usize {
            let gold = Gold::Choice {
                options: vec!["a".into(), "b".into(), "c".into(), "d".into()],
                correct: i % 4,
            };
            let ans = if i < 25 { 1 } else { 0 };
            let o = if ans == i % 4 {
                OutcomeKind::Correct
            } else {
                OutcomeKind::Incorrect
            };
            t.add(
                AnswerKind::Closed,
                &gold,
                &Answer::Choice { index: ans },
                o,
                Stage::Rules,
                ("right", "wrong"),
            );
        }
        let c = t.summary();
        assert_eq!(c.distribution, vec![("B".into(), 25), ("A".into(), 5)]);
        // Gold letters: A and B 8 each, C and D 7: the majority (8/30 = 26.7%) beats 1/4.
        match c.baseline.as_ref().unwrap() {
            Baseline::Majority { rate, answer } => {
                assert!((rate - 8.0 / 30.0).abs() < 1e-12);
                assert_eq!(answer, "A");
            }
            b => panic!("{b:?}"),
        }
        assert!(c
            .warnings
            .iter()
            .any(|w| matches!(w, Warning::OneAnswer { .. })));
    }

    #[test]
    fn balanced_mcq_gold_gives_the_uniform_baseline() {
        let mut t = ChanceTally::default();
        for i in 0..12usize {
            let gold = Gold::Choice {
                options: vec!["a".into(), "b".into(), "c".into()],
                correct: i % 3,
            };
            t.add(
                AnswerKind::Closed,
                &gold,
                &Answer::Choice { index: 0 },
                OutcomeKind::Incorrect,
                Stage::Rules,
                YN,
            );
        }
        let c = t.summary();
        let b = c.baseline.unwrap();
        assert!(matches!(b, Baseline::Uniform { .. }));
        assert!((b.rate() - 1.0 / 3.0).abs() < 1e-12);
        assert!(
            b.describe().contains("one of 3 options"),
            "{}",
            b.describe()
        );
    }

    #[test]
    fn open_answers_have_no_chance_and_say_how_they_were_decided() {
        // An SAQ run: 20 short answers, gold "Peru" for all; the model says "pe" to all of
        // them (as the bundled base model does). Before, this read "chance 15% (always
        // answering 'pe' …)" and "⚠ near chance". 6 were decided by the judge, 2 abstained.
        let mut t = ChanceTally::default();
        let gold = Gold::Texts {
            accepted: vec![Accepted {
                label: "Peru".into(),
                ..Default::default()
            }],
        };
        for i in 0..20 {
            let (answer, o) = if i < 2 {
                (Answer::Abstained, OutcomeKind::Abstained)
            } else {
                (Answer::Text { text: "pe".into() }, OutcomeKind::Incorrect)
            };
            let stage = if i >= 14 { Stage::Judge } else { Stage::Rules };
            t.add(AnswerKind::Open, &gold, &answer, o, stage, YN);
        }
        let c = t.summary();
        assert_eq!((c.n, c.answered()), (0, 20));
        assert!(c.distribution.is_empty() && c.baseline.is_none());
        assert!(!c.near_chance() && c.warning_line().is_none());
        assert_eq!(c.baseline_line(), None);
        assert_eq!(
            c.open_line().unwrap(),
            "open answers 20, no chance baseline: the rules decided 14, the judge 6 · 2 \
             abstained (10%)"
        );
        let lines = c.lines();
        assert_eq!(lines, vec![c.open_line().unwrap()]);
        assert!(!c.summary_line().contains("chance 15%") && !c.summary_line().contains('⚠'));
    }

    #[test]
    fn a_mixed_run_is_compared_with_chance_on_its_closed_answers_only() {
        // KG-FPQ: 12 yes/no questions (gold "no", the model says "yes" to all: below chance)
        // and 12 generative ones judged against a premise (all abstained).
        let mut t = ChanceTally::default();
        for _ in 0..12 {
            t.add(
                AnswerKind::Closed,
                &Gold::Bool { value: false },
                &Answer::Bool { value: true },
                OutcomeKind::Incorrect,
                Stage::Rules,
                YN,
            );
            t.add(
                AnswerKind::Open,
                &Gold::Premise {
                    premise: "p".into(),
                    truth: "t".into(),
                },
                &Answer::Abstained,
                OutcomeKind::Abstained,
                Stage::Rules,
                YN,
            );
        }
        let c = t.summary();
        assert_eq!((c.n, c.open.n), (12, 12));
        assert_eq!(c.distribution, vec![("yes".into(), 12)]);
        // Always "no" scores 100% of these: the majority baseline, over the 12 closed ones.
        assert_eq!(
            c.baseline_line().unwrap(),
            "chance on the 12 closed answers 100% (always answering 'no', the most common gold \
             answer)"
        );
        let w = c.warning_line().unwrap();
        assert!(
            w.contains("'yes' to 12 of 12 questions")
                && w.contains("its accuracy on the 12 closed answers 0% is below chance (100%)"),
            "{w}"
        );
        assert!(c.open_line().unwrap().starts_with("open answers 12"));
    }

    #[test]
    fn small_runs_have_no_warning() {
        let small = bool_run(&[(true, true); 5]);
        assert!(small.warnings.is_empty());
    }
}

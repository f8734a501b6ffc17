//! How far each verifier of a run agrees with the hand labels, and which answers a person
//! should label next.
//!
//! The verifiers are the stages of the verification chain as a run used them: the rules (read
//! again, so also where the LLM judge then overrode them), the LLM judge, the trained judge,
//! and what the run recorded in the end. Each is crossed with the annotators' majority label
//! in GraphEval's three classes ([`JudgeClass`]): a 3×3 confusion matrix, observed agreement,
//! Cohen's kappa, per-class precision, recall and F1, and macro F1 (as
//! [`super::confusion::Scores`] reads a matrix). The rules' "unsure" flag is checked against
//! the labels too: how often the rules are right when unsure, and when sure. Last, a queue of
//! unlabelled answers worth a person's time: those the verifiers disagree on, then those they
//! are least sure of.
//!
//! Pure arithmetic on [`Observation`]s: how an answer becomes one (reading the rules again,
//! the judges' calls, the majority label) is up to the caller (`report::judges`), since that
//! needs the records, the methods and the label book, which sit above the metrics.

use serde::Serialize;

use crate::core::verdict::JudgeClass;

/// One stage of the verification chain, as compared with the hand labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verifier {
    /// The rule parser, read again on every generated response.
    Rules,
    /// The LLM judge, where it decided an attempt.
    LlmJudge,
    /// GraphEval's trained judge (a `--via-judge` run).
    Trained,
    /// What the run recorded: the stage that decided, whichever it was.
    Recorded,
}

impl Verifier {
    pub const ALL: [Verifier; 4] = [
        Verifier::Rules,
        Verifier::LlmJudge,
        Verifier::Trained,
        Verifier::Recorded,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Verifier::Rules => "rules",
            Verifier::LlmJudge => "LLM judge",
            Verifier::Trained => "trained judge",
            Verifier::Recorded => "recorded",
        }
    }

    /// Position in [`Verifier::ALL`] (and in [`Observation::calls`]).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Whether it decides on its own (the recorded outcome is one of the others' decisions).
    pub fn is_machine(self) -> bool {
        self != Verifier::Recorded
    }
}

/// What a person's labels say about one answer, as the comparison takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hand {
    /// Nobody has labelled it.
    Unlabelled,
    /// The annotators' majority, as a class (right, wrong, abstained).
    Class(JudgeClass),
    /// The majority says the question is bad or the KG wrong: nothing to compare with.
    Uncomparable,
    /// The annotators are tied: no majority.
    Tied,
}

/// What the verifiers made of one answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    pub question_id: String,
    /// Each verifier's class, in [`Verifier::ALL`] order: `None` where the verifier did not
    /// look at the answer, `Some(None)` where it looked and read no class (an unreadable
    /// answer).
    pub calls: [Option<Option<JudgeClass>>; 4],
    /// The rules were not confident about some attempt.
    pub rules_unsure: bool,
    /// The trained judge's highest class probability.
    pub trained_top: Option<f32>,
}

impl Observation {
    pub fn call(&self, v: Verifier) -> Option<Option<JudgeClass>> {
        self.calls[v.index()]
    }

    /// Whether the verifiers that decide on their own (not the recorded outcome) read the
    /// answer differently, reading nothing counted as a reading of its own.
    pub fn disagreement(&self) -> bool {
        let mut seen: Option<Option<JudgeClass>> = None;
        for v in Verifier::ALL.into_iter().filter(|v| v.is_machine()) {
            if let Some(c) = self.call(v) {
                match seen {
                    Some(s) if s != c => return true,
                    _ => seen = Some(c),
                }
            }
        }
        false
    }
}

/// How the run's answers stand with the hand labels.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LabelCounts {
    /// Labelled right, wrong or abstained by a majority: what the verifiers are compared on.
    pub comparable: usize,
    /// Labelled bad question or KG wrong by a majority: left out.
    pub uncomparable: usize,
    /// Labelled, with the annotators tied: left out.
    pub tied: usize,
    pub unlabelled: usize,
}

impl LabelCounts {
    /// Answers anyone has labelled.
    pub fn labelled(&self) -> usize {
        self.comparable + self.uncomparable + self.tied
    }
}

/// One class's figures for one verifier, the hand labels taken as the truth.
pub use super::confusion::ClassScore;

/// One verifier against the hand labels.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Agreement {
    pub verifier: Verifier,
    /// Answers the verifier looked at.
    pub answers: usize,
    /// Comparable hand-labelled answers the verifier gave a class: the matrix's total.
    pub n: usize,
    /// Comparable hand-labelled answers the verifier read no class from (not in the matrix).
    pub unread: usize,
    /// `matrix[hand][verifier]`, both in [`JudgeClass::ALL`] order.
    pub matrix: [[usize; 3]; 3],
    /// The share of the matrix on its diagonal; `None` when it is empty.
    pub agreement: Option<f64>,
    /// Cohen's kappa; `None` when undefined (no answers, or both sides used one class only).
    pub kappa: Option<f64>,
    /// In [`JudgeClass::ALL`] order.
    pub classes: Vec<ClassScore>,
    /// The mean F1 of the classes that occur on either side; `None` when none does.
    pub macro_f1: Option<f64>,
}

impl Agreement {
    fn new(verifier: Verifier) -> Self {
        Agreement {
            verifier,
            answers: 0,
            n: 0,
            unread: 0,
            matrix: [[0; 3]; 3],
            agreement: None,
            kappa: None,
            classes: vec![],
            macro_f1: None,
        }
    }

    fn finish(&mut self) {
        let s = super::confusion::Scores::of(&self.matrix);
        self.agreement = s.accuracy;
        self.kappa = s.kappa;
        self.classes = s.classes;
        self.macro_f1 = s.macro_f1;
    }
}

/// How often the rules were right, among the hand-labelled answers they read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct RightOf {
    pub n: usize,
    /// The rules' class is the hand label's.
    pub right: usize,
}

impl RightOf {
    pub fn share(&self) -> Option<f64> {
        (self.n > 0).then(|| self.right as f64 / self.n as f64)
    }
}

/// The rules' unsure flag against the hand labels: is it raised where the rules go wrong?
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct UnsureSplit {
    pub unsure: RightOf,
    pub confident: RightOf,
}

/// Why an answer is in the queue to label.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum QueueReason {
    /// The verifiers read it differently.
    Disagree,
    /// The trained judge's most probable class had this probability (the lowest come first).
    LowConfidence { top: f32 },
    /// The rules were not confident.
    RulesUnsure,
}

/// One answer to label next.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QueueItem {
    pub question_id: String,
    pub reason: QueueReason,
    /// The reason in words: "rules: correct · LLM judge: incorrect".
    pub why: String,
}

/// Every verifier of a run against its hand labels, and what to label next.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct JudgeReport {
    /// Answers looked at.
    pub answers: usize,
    pub labels: LabelCounts,
    /// Each verifier present in the run (that looked at some answer), in [`Verifier::ALL`]
    /// order.
    pub verifiers: Vec<Agreement>,
    /// `None` when the rules read no answer.
    pub rules_unsure: Option<UnsureSplit>,
    /// Unlabelled answers to label next, the most useful first.
    pub queue: Vec<QueueItem>,
    /// How many unlabelled answers qualified for the queue, before it was cut.
    pub queue_candidates: usize,
}

impl JudgeReport {
    /// Verifiers that decide on their own present in the run.
    pub fn machine_verifiers(&self) -> usize {
        self.verifiers
            .iter()
            .filter(|a| a.verifier.is_machine())
            .count()
    }

    /// Whether there is anything to show: hand labels, or more than one verifier to set
    /// against each other.
    pub fn shown(&self) -> bool {
        self.labels.labelled() > 0 || self.machine_verifiers() > 1
    }

    pub fn agreement(&self, v: Verifier) -> Option<&Agreement> {
        self.verifiers.iter().find(|a| a.verifier == v)
    }
}

fn class_name(c: Option<JudgeClass>) -> &'static str {
    c.map_or("unreadable", JudgeClass::name)
}

/// The figures of [`compare`], one answer at a time: a run of a million answers is compared
/// in the memory of its matrices and its queue, not of its answers.
#[derive(Debug, Clone)]
pub struct JudgeTally {
    queue_max: usize,
    answers: usize,
    labels: LabelCounts,
    verifiers: Vec<Agreement>,
    unsure: UnsureSplit,
    /// The first `queue_max` of each kind of candidate (for the trained judge's, the
    /// `queue_max` least sure, with their place in the run to break ties), and how many
    /// there were in all.
    disagree: Vec<QueueItem>,
    low: Vec<(f32, usize, QueueItem)>,
    rules_unsure: Vec<QueueItem>,
    candidates: usize,
}

impl JudgeTally {
    pub fn new(queue_max: usize) -> Self {
        JudgeTally {
            queue_max,
            answers: 0,
            labels: LabelCounts::default(),
            verifiers: Verifier::ALL.into_iter().map(Agreement::new).collect(),
            unsure: UnsureSplit::default(),
            disagree: vec![],
            low: vec![],
            rules_unsure: vec![],
            candidates: 0,
        }
    }

    /// Takes in one answer and what the hand labels say of it.
    pub fn add(&mut self, o: &Observation, hand: Hand) {
        self.answers += 1;
        for v in Verifier::ALL {
            if o.call(v).is_some() {
                self.verifiers[v.index()].answers += 1;
            }
        }
        match hand {
            Hand::Class(h) => {
                self.labels.comparable += 1;
                for v in Verifier::ALL {
                    let a = &mut self.verifiers[v.index()];
                    match o.call(v) {
                        None => {}
                        Some(None) => a.unread += 1,
                        Some(Some(c)) => {
                            a.n += 1;
                            a.matrix[h.index()][c.index()] += 1;
                        }
                    }
                }
                if let Some(c) = o.call(Verifier::Rules) {
                    let side = if o.rules_unsure {
                        &mut self.unsure.unsure
                    } else {
                        &mut self.unsure.confident
                    };
                    side.n += 1;
                    side.right += usize::from(c == Some(h));
                }
            }
            Hand::Uncomparable => self.labels.uncomparable += 1,
            Hand::Tied => self.labels.tied += 1,
            Hand::Unlabelled => {
                self.labels.unlabelled += 1;
                self.queue(o);
            }
        }
    }

    /// Keeps an unlabelled answer as a candidate to label next, if it is one.
    fn queue(&mut self, o: &Observation) {
        let item = |reason, why| QueueItem {
            question_id: o.question_id.clone(),
            reason,
            why,
        };
        let max = self.queue_max;
        if o.disagreement() {
            self.candidates += 1;
            if self.disagree.len() < max {
                let why = Verifier::ALL
                    .into_iter()
                    .filter(|v| v.is_machine())
                    .filter_map(|v| Some(format!("{}: {}", v.name(), class_name(o.call(v)?))))
                    .collect::<Vec<_>>()
                    .join(" · ");
                self.disagree.push(item(QueueReason::Disagree, why));
            }
        } else if let (Some(top), Some(c)) = (o.trained_top, o.call(Verifier::Trained)) {
            self.candidates += 1;
            let why = format!("trained judge: {} at {top:.2}", class_name(c));
            let at = self.answers;
            self.low
                .push((top, at, item(QueueReason::LowConfidence { top }, why)));
            // Kept to at most twice the queue between sorts.
            if self.low.len() > 2 * max.max(1) {
                self.sort_low();
            }
        } else if o.rules_unsure {
            if let Some(c) = o.call(Verifier::Rules) {
                self.candidates += 1;
                if self.rules_unsure.len() < max {
                    let why = format!("rules unsure: read {}", class_name(c));
                    self.rules_unsure.push(item(QueueReason::RulesUnsure, why));
                }
            }
        }
    }

    /// The trained judge's candidates, least sure first (in run order among equals), cut to
    /// the queue's length.
    fn sort_low(&mut self) {
        self.low
            .sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        self.low.truncate(self.queue_max);
    }

    /// The figures: each verifier present in the run, and the queue.
    pub fn finish(mut self) -> JudgeReport {
        self.sort_low();
        for a in &mut self.verifiers {
            a.finish();
        }
        let queue = self
            .disagree
            .into_iter()
            .chain(self.low.into_iter().map(|(_, _, q)| q))
            .chain(self.rules_unsure)
            .take(self.queue_max)
            .collect();
        let rules_read = self.verifiers[Verifier::Rules.index()].answers > 0;
        JudgeReport {
            answers: self.answers,
            labels: self.labels,
            verifiers: self
                .verifiers
                .into_iter()
                .filter(|a| a.answers > 0)
                .collect(),
            rules_unsure: rules_read.then_some(self.unsure),
            queue,
            queue_candidates: self.candidates,
        }
    }
}

/// Crosses each verifier with the hand labels (`hand` gives an answer's, by question id) and
/// queues at most `queue_max` unlabelled answers to label next: first those the verifiers
/// disagree on (in run order), then those the trained judge is least sure of (lowest top
/// probability first), then those the rules were unsure of (in run order).
pub fn compare<'a>(
    observations: impl IntoIterator<Item = &'a Observation>,
    hand: impl Fn(&str) -> Hand,
    queue_max: usize,
) -> JudgeReport {
    let mut t = JudgeTally::new(queue_max);
    for o in observations {
        t.add(o, hand(&o.question_id));
    }
    t.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use JudgeClass::{Correct as C, Idk as K, Incorrect as I};

    fn close(a: Option<f64>, b: f64) {
        let a = a.expect("a value");
        assert!((a - b).abs() < 1e-9, "{a} is not {b}");
    }

    /// An answer the rules read as `rules` (sure or not) and the run recorded as `recorded`.
    fn obs(id: &str, rules: Option<JudgeClass>, unsure: bool, recorded: JudgeClass) -> Observation {
        Observation {
            question_id: id.into(),
            calls: [Some(rules), None, None, Some(Some(recorded))],
            rules_unsure: unsure,
            trained_top: None,
        }
    }

    fn book(labels: &[(&str, Hand)]) -> HashMap<String, Hand> {
        labels.iter().map(|(q, h)| (q.to_string(), *h)).collect()
    }

    fn hand_of(book: &HashMap<String, Hand>) -> impl Fn(&str) -> Hand + '_ {
        |q| book.get(q).copied().unwrap_or(Hand::Unlabelled)
    }

    #[test]
    fn the_rules_against_eight_hand_labels() {
        // hand:  C C C C I I K K
        // rules: C C C I I C K C
        //
        // Matrix (rows hand, columns rules):   C  I  K
        //                                   C  3  1  0   (4)
        //                                   I  1  1  0   (2)
        //                                   K  1  0  1   (2)
        //                                     (5)(2)(1)
        // p_o = (3 + 1 + 1) / 8 = 0.625
        // p_e = (4·5 + 2·2 + 2·1) / 64 = 26/64 = 0.40625
        // kappa = (0.625 − 0.40625) / (1 − 0.40625) = 14/38 = 7/19 ≈ 0.3684
        // F1: C 2·3/(4+5) = 2/3, I 2·1/(2+2) = 1/2, K 2·1/(2+1) = 2/3; macro 11/18.
        let hands = [C, C, C, C, I, I, K, K];
        let rules = [C, C, C, I, I, C, K, C];
        let observations: Vec<Observation> = (0..8)
            .map(|i| obs(&format!("q{i}"), Some(rules[i]), i == 3 || i == 7, rules[i]))
            .collect();
        let labels: Vec<(String, Hand)> = (0..8)
            .map(|i| (format!("q{i}"), Hand::Class(hands[i])))
            .collect();
        let b: HashMap<String, Hand> = labels.into_iter().collect();
        let r = compare(&observations, hand_of(&b), 10);
        assert_eq!(r.labels.comparable, 8);
        let a = r.agreement(Verifier::Rules).unwrap();
        assert_eq!(a.matrix, [[3, 1, 0], [1, 1, 0], [1, 0, 1]]);
        assert_eq!(a.n, 8);
        close(a.agreement, 0.625);
        close(a.kappa, 7.0 / 19.0);
        close(a.classes[0].precision, 0.6);
        close(a.classes[0].recall, 0.75);
        close(a.classes[0].f1, 2.0 / 3.0);
        close(a.classes[1].f1, 0.5);
        close(a.classes[2].precision, 1.0);
        close(a.classes[2].f1, 2.0 / 3.0);
        close(a.macro_f1, 11.0 / 18.0);
        // The recorded outcome is the rules' here: the same figures.
        assert_eq!(r.agreement(Verifier::Recorded).unwrap().kappa, a.kappa);
        assert_eq!(r.machine_verifiers(), 1);
        assert!(r.shown(), "hand labels are there");
        // q3 (C read as I) and q7 (K read as C) were unsure and wrong; of the 6 sure, 5 right
        // (q5, I read as C, is the sure mistake).
        let u = r.rules_unsure.unwrap();
        assert_eq!(u.unsure, RightOf { n: 2, right: 0 });
        assert_eq!(u.confident, RightOf { n: 6, right: 5 });
        assert!(r.queue.is_empty(), "everything is labelled");
    }

    #[test]
    fn undefined_kappa_and_what_is_left_out() {
        // Both sides say "correct" throughout: chance agreement is certain, kappa undefined.
        let observations = vec![
            obs("a", Some(C), false, C),
            obs("b", Some(C), false, C),
            obs("c", None, false, C),
            obs("d", Some(I), false, I),
            obs("e", Some(I), false, I),
            obs("f", Some(K), false, K),
        ];
        let b = book(&[
            ("a", Hand::Class(C)),
            ("b", Hand::Class(C)),
            ("c", Hand::Class(C)),
            ("d", Hand::Uncomparable),
            ("e", Hand::Tied),
        ]);
        let r = compare(&observations, hand_of(&b), 10);
        assert_eq!(
            r.labels,
            LabelCounts {
                comparable: 3,
                uncomparable: 1,
                tied: 1,
                unlabelled: 1
            }
        );
        let a = r.agreement(Verifier::Rules).unwrap();
        assert_eq!((a.n, a.unread, a.answers), (2, 1, 6));
        assert_eq!(a.kappa, None);
        close(a.agreement, 1.0);
        // Only "correct" occurs: the other classes have no F1 and the macro is its F1.
        assert_eq!(a.classes[1].f1, None);
        assert_eq!(a.classes[1].precision, None);
        close(a.macro_f1, 1.0);
        assert_eq!(
            r.agreement(Verifier::LlmJudge),
            None,
            "no judge in this run"
        );
        assert!(compare(&[], |_| Hand::Unlabelled, 5) == JudgeReport::default());
    }

    #[test]
    fn the_queue_puts_disagreements_first_then_the_least_sure() {
        let mut judged = obs("judge-disagrees", Some(C), true, I);
        judged.calls[Verifier::LlmJudge.index()] = Some(Some(I));
        let mut agreed = obs("judge-agrees", Some(C), true, C);
        agreed.calls[Verifier::LlmJudge.index()] = Some(Some(C));
        let trained = |id: &str, top: f32| Observation {
            question_id: id.into(),
            calls: [None, None, Some(Some(K)), Some(Some(K))],
            rules_unsure: false,
            trained_top: Some(top),
        };
        let observations = vec![
            obs("sure", Some(C), false, C),
            agreed,
            trained("fairly-sure", 0.7),
            judged,
            trained("torn", 0.4),
            obs("labelled", Some(C), true, C),
        ];
        let b = book(&[("labelled", Hand::Class(C))]);
        let r = compare(&observations, hand_of(&b), 10);
        let ids: Vec<&str> = r.queue.iter().map(|q| q.question_id.as_str()).collect();
        assert_eq!(
            ids,
            ["judge-disagrees", "torn", "fairly-sure", "judge-agrees"]
        );
        assert_eq!(r.queue[0].why, "rules: correct · LLM judge: incorrect");
        assert_eq!(r.queue[1].reason, QueueReason::LowConfidence { top: 0.4 });
        assert_eq!(r.queue[1].why, "trained judge: idk at 0.40");
        assert_eq!(r.queue[3].why, "rules unsure: read correct");
        assert_eq!(r.queue_candidates, 4);
        assert_eq!(r.machine_verifiers(), 3);
        assert!(r.shown(), "three verifiers");
        let capped = compare(&observations, hand_of(&b), 2);
        assert_eq!(capped.queue.len(), 2);
        assert_eq!(capped.queue_candidates, 4);
        // However many the trained judge is unsure of, the queue keeps the least sure (in run
        // order among equals), whatever order they came in.
        let tops = [0.9, 0.5, 0.35, 0.8, 0.35, 0.6, 0.34, 0.99, 0.7, 0.5];
        let many: Vec<Observation> = tops
            .iter()
            .enumerate()
            .map(|(i, &t)| trained(&format!("t{i}"), t))
            .collect();
        let m = compare(&many, |_| Hand::Unlabelled, 3);
        let ids: Vec<&str> = m.queue.iter().map(|q| q.question_id.as_str()).collect();
        assert_eq!(ids, ["t6", "t2", "t4"]);
        assert_eq!(m.queue_candidates, 10);
        // Reading nothing where another verifier read a class is a disagreement too.
        let mut unread = obs("x", None, false, C);
        unread.calls[Verifier::LlmJudge.index()] = Some(Some(C));
        assert!(unread.disagreement());
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["verifiers"][1]["verifier"], "llm_judge");
        assert_eq!(json["queue"][1]["reason"]["kind"], "low_confidence");
    }
}

//! Luo et al.'s (2023) formats on every sample KG, checked against the store with
//! SPARQL rather than with the generator's own index: TFQ pairs a true statement with a false
//! one whose object the relation has elsewhere; MCQ offers the object and three distractors,
//! none a right answer, in a seed-drawn order; SAQ accepts exactly the subject's objects for the
//! relation, with their aliases; each context kind puts the text it promises before the
//! question. And P/R/F1 per format and per relation, by hand.

use crate::common;

use std::collections::{BTreeMap, HashSet};

use common::{ask, indexed, node as term};

use kgscope::kg::KnowledgeGraph;
use kgscope::method;
use kgscope::questions::{self, ContextKind, GenerateOptions, Gold, Question, Task, TemplateSet};
use kgscope::run::engine::verify_record;
use kgscope::run::Attempt;
use kgscope::verify::Verdict;

const SAMPLES: [&str; 3] = ["sample:countries", "sample:elements", "sample:nba"];
const SKOS_ALT: &str = "http://www.w3.org/2004/02/skos/core#altLabel";

fn generate(
    spec: &str,
    task: Task,
    limit: usize,
    seed: u64,
    context: Option<ContextKind>,
) -> Vec<Question> {
    let (_kg, index) = indexed(spec);
    let opts = GenerateOptions {
        task,
        limit,
        seed,
        context,
        ..GenerateOptions::default()
    };
    kgscope::method::generate(&index, &TemplateSet::builtin(), &opts)
        .unwrap()
        .0
}

/// Whether `needle`'s words occur in a row in `text` (whole words, case kept: the code "IS"
/// is not the verb "is").
fn has_words(text: &str, needle: &str) -> bool {
    let words = |s: &str| {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let (t, n) = (words(text), words(needle));
    !n.is_empty() && t.windows(n.len()).any(|w| w == n.as_slice())
}

fn in_kg(kg: &dyn KnowledgeGraph, s: &str, p: &str, o: &str) -> bool {
    let (o, f) = term(o, "o");
    ask(kg, &format!("<{s}> <{p}> {o} . {f}"))
}

#[test]
fn tfq_pairs_each_true_statement_with_a_false_one_of_the_same_relation() {
    for spec in SAMPLES {
        let kg = kgscope::kg::open(spec).unwrap();
        let qs = generate(spec, Task::Tfq, 120, 7, None);
        let truths: Vec<&Question> = qs.iter().filter(|q| q.gold == Gold::yes()).collect();
        let falses: Vec<&Question> = qs.iter().filter(|q| q.gold == Gold::no()).collect();
        assert_eq!(truths.len() + falses.len(), qs.len());
        // 1:1, every false statement made from one of the true ones.
        assert_eq!(truths.len(), falses.len(), "{spec}");
        let true_ids: HashSet<&str> = truths.iter().map(|q| q.id.as_str()).collect();
        for q in &truths {
            assert!(
                in_kg(kg.as_ref(), &q.subject, &q.predicate, &q.object),
                "{spec}: {q:?}"
            );
        }
        for q in &falses {
            assert!(true_ids.contains(q.positive_id.as_str()), "{spec}: {q:?}");
            assert!(
                !in_kg(kg.as_ref(), &q.subject, &q.predicate, &q.object),
                "{spec}: a false statement is a KG fact: {}",
                q.prompt
            );
            let (o, f) = term(&q.object, "o");
            assert!(
                ask(kg.as_ref(), &format!("?x <{}> {o} . {f}", q.predicate)),
                "{spec}: the false object is not an object of the relation: {}",
                q.prompt
            );
        }
    }
}

#[test]
fn mcq_offers_the_object_and_three_wrong_options_in_a_drawn_order() {
    for task in [Task::McqFib, Task::McqWh] {
        for spec in SAMPLES {
            let kg = kgscope::kg::open(spec).unwrap();
            let (_, index) = indexed(spec);
            let qs = generate(spec, task, 80, 3, None);
            assert!(qs.len() >= 40, "{spec} {task:?}: only {}", qs.len());
            let mut positions = BTreeMap::new();
            for q in &qs {
                let Gold::Choice { options, correct } = &q.gold else {
                    panic!("{q:?}")
                };
                assert_eq!(options.len(), 4);
                // A blank's option carries the article its name takes ("the United States").
                let bare = |o: &str| o.strip_prefix("the ").unwrap_or(o).to_string();
                assert_eq!(bare(&options[*correct]), q.object_label, "{q:?}");
                let names: HashSet<String> = options.iter().map(|o| o.to_lowercase()).collect();
                assert_eq!(names.len(), 4, "options share a name: {options:?}");
                *positions.entry(*correct).or_insert(0) += 1;
                // No distractor is a right answer: the store has no (s, p, d) for its label.
                for (i, d) in options.iter().enumerate() {
                    if i == *correct {
                        continue;
                    }
                    let esc = bare(d).replace('"', "\\\"");
                    let right = ask(
                        kg.as_ref(),
                        &format!(
                            "<{}> <{}> ?o . {{ ?o <http://www.w3.org/2000/01/rdf-schema#label> ?l }} UNION {{ BIND(?o AS ?l) }} FILTER(LCASE(STR(?l)) = LCASE(\"{esc}\"))",
                            q.subject, q.predicate
                        ),
                    );
                    assert!(!right, "{spec}: distractor {d:?} is right for {}", q.prompt);
                }
                match task {
                    Task::McqFib => {
                        assert!(q.prompt.contains("[MASK]"), "{}", q.prompt);
                        assert!(!has_words(&q.prompt, &q.object_label), "{}", q.prompt);
                    }
                    _ => assert!(q.prompt.trim_end().ends_with('?'), "{}", q.prompt),
                }
                // The options reach the model, lettered.
                let input = method::of(task).prompt(q).input;
                assert!(input.contains(&format!("A) {}", options[0])), "{input}");
                assert!(input.contains(&format!("D) {}", options[3])), "{input}");
            }
            // Shuffled by the seed: the right option is not always in one place.
            assert!(positions.len() >= 3, "{spec} {task:?}: {positions:?}");
            let _ = &index;
        }
    }
}

#[test]
fn mcq_order_depends_on_the_seed_and_only_on_it() {
    let a = generate("sample:countries", Task::McqWh, 30, 1, None);
    let b = generate("sample:countries", Task::McqWh, 30, 1, None);
    assert_eq!(a, b);
    let golds = |qs: &[Question]| qs.iter().map(|q| q.gold.clone()).collect::<Vec<_>>();
    let c = generate("sample:countries", Task::McqWh, 30, 2, None);
    assert_ne!(golds(&a), golds(&c));
}

#[test]
fn saq_accepts_every_object_of_the_subject_with_its_aliases() {
    let mut several = 0;
    for spec in SAMPLES {
        let kg = kgscope::kg::open(spec).unwrap();
        for q in generate(spec, Task::Saq, 60, 5, None) {
            let Gold::Texts { accepted } = &q.gold else {
                panic!("{q:?}")
            };
            let rows = kg
                .select(
                    &format!("SELECT ?o WHERE {{ <{}> <{}> ?o }}", q.subject, q.predicate),
                    &["o"],
                )
                .unwrap();
            assert_eq!(accepted.len(), rows.len(), "{spec}: {}", q.prompt);
            several += usize::from(accepted.len() > 1);
            for a in accepted {
                // Each alias is one the store gives the object.
                for alias in &a.aliases {
                    let esc = alias.replace('\\', "\\\\").replace('"', "\\\"");
                    assert!(
                        ask(
                            kg.as_ref(),
                            &format!(
                                "<{}> <{}> ?o . ?o <{SKOS_ALT}> ?a . FILTER(STR(?a) = \"{esc}\")",
                                q.subject, q.predicate
                            )
                        ),
                        "{spec}: alias {alias:?} of {}",
                        a.label
                    );
                }
            }
            assert!(q.prompt.trim_end().ends_with('?'), "{}", q.prompt);
        }
    }
    assert!(
        several > 0,
        "no N-M relation was asked: the test would not show N-M answers"
    );
}

/// Each context kind, shown on one question: the injected text is what the kind promises, and
/// the prompt as sent puts it before the question.
#[test]
fn each_context_kind_injects_its_text() {
    let plain = generate("sample:countries", Task::Saq, 40, 11, None);
    let relevant = generate(
        "sample:countries",
        Task::Saq,
        40,
        11,
        Some(ContextKind::Relevant),
    );
    let irrelevant = generate(
        "sample:countries",
        Task::Saq,
        40,
        11,
        Some(ContextKind::Irrelevant),
    );
    let antifactual = generate(
        "sample:countries",
        Task::Saq,
        40,
        11,
        Some(ContextKind::Antifactual),
    );
    assert!(plain.iter().all(|q| q.context.is_none()));
    let (_, index) = indexed("sample:countries");
    let templates = TemplateSet::builtin();
    let r = questions::Renderer {
        index: &index,
        templates: &templates,
        seed: 11,
    };
    let fact_of = |q: &Question| {
        let id = |v: &str| index.iri_id(v);
        let o = index
            .objects_of(id(&q.subject).unwrap(), id(&q.predicate).unwrap())
            .into_iter()
            .find(|o| index.label(*o) == q.object_label)
            .unwrap();
        [id(&q.subject).unwrap(), id(&q.predicate).unwrap(), o]
    };
    let mut shown = 0;
    for (((p, rel), irr), anti) in plain
        .iter()
        .zip(&relevant)
        .zip(&irrelevant)
        .zip(&antifactual)
    {
        // The same fact, another question id for each context.
        assert_eq!(
            (p.subject.as_str(), p.predicate.as_str()),
            (rel.subject.as_str(), rel.predicate.as_str())
        );
        assert_ne!(p.id, rel.id);
        let true_statement = r.statement(&fact_of(p));
        let rel_text = rel.context.as_deref().expect("relevant context");
        assert!(
            rel_text.starts_with(&true_statement),
            "{rel_text:?} / {true_statement:?}"
        );
        let irr_text = irr.context.as_deref().expect("irrelevant context");
        assert!(
            !has_words(&irr_text.to_lowercase(), &p.subject_label.to_lowercase()),
            "{irr_text:?} names {}",
            p.subject_label
        );
        assert!(!irr_text.contains(&true_statement));
        if let Some(anti_text) = anti.context.as_deref() {
            assert!(!anti_text.contains(&true_statement), "{anti_text:?}");
            // The same sentence with another object: it names the subject, not the true object.
            assert!(
                anti_text.contains(&p.subject_label)
                    || anti_text.contains(&p.subject_label.to_lowercase()),
                "{anti_text:?}"
            );
        }
        let input = method::of(Task::Saq).prompt(rel).input;
        assert!(
            input.starts_with(&format!("Context: {rel_text}\n")),
            "{input}"
        );
        assert!(input.ends_with(&rel.prompt), "{input}");
        if shown < 1 {
            println!("relevant:    {rel_text}\nirrelevant:  {irr_text}\nantifactual: {:?}\nquestion:    {}", anti.context, p.prompt);
            shown += 1;
        }
    }
}

fn answered(q: &Question, verdict: Verdict) -> kgscope::run::ResultRecord {
    let a = Attempt {
        response: String::new(),
        verdict,
        answer: None,
        rule: "test".into(),
        stage: Default::default(),
        judge: None,
        compound: None,
        trained: None,
        likelihood: None,
        prompt_tokens: 0,
        completion_tokens: 0,
        first_token_ms: 0,
        total_ms: 0,
        finish_reason: "stop".into(),
    };
    verify_record(q.clone(), vec![a])
}

/// P = C/(C+I), R = C/(C+I+A), F1 = 2PR/(P+R) from summed counts, per format and per relation.
#[test]
fn precision_recall_and_f1_by_hand_per_format_and_relation() {
    let qs = generate("sample:countries", Task::Saq, 200, 1, None);
    let mut by_rel: BTreeMap<String, Vec<&Question>> = BTreeMap::new();
    for q in &qs {
        by_rel.entry(q.relation.clone()).or_default().push(q);
    }
    let (rel_a, a) = by_rel.iter().find(|(_, v)| v.len() >= 5).unwrap();
    let (rel_b, b) = by_rel.iter().rev().find(|(_, v)| v.len() >= 4).unwrap();
    assert_ne!(rel_a, rel_b);
    // Relation A: 3 right, 1 wrong, 1 abstained. Relation B: 1 right, 2 wrong, 1 abstained.
    let plan_a = [
        Verdict::True,
        Verdict::True,
        Verdict::True,
        Verdict::False,
        Verdict::Idk,
    ];
    let plan_b = [Verdict::True, Verdict::False, Verdict::False, Verdict::Idk];
    let mut records = vec![];
    records.extend(a.iter().zip(plan_a).map(|(q, v)| answered(q, v)));
    records.extend(b.iter().zip(plan_b).map(|(q, v)| answered(q, v)));
    let s = kgscope::report::snapshot_of(&records);
    let close = |x: Option<f64>, y: f64| assert!((x.unwrap() - y).abs() < 1e-12, "{x:?} vs {y}");
    // A: P = 3/4, R = 3/5, F1 = 2·0.75·0.6/1.35 = 2/3.
    let ga = &s.by_relation[rel_a];
    close(ga.precision, 0.75);
    close(ga.recall, 0.6);
    close(ga.f1, 2.0 / 3.0);
    // B: P = 1/3, R = 1/4, F1 = 2·(1/3)(1/4)/(7/12) = 2/7.
    let gb = &s.by_relation[rel_b];
    close(gb.precision, 1.0 / 3.0);
    close(gb.recall, 0.25);
    close(gb.f1, 2.0 / 7.0);
    // The format: summed counts C 4, I 3, A 2 (not the mean of the relations' F1):
    // P = 4/7, R = 4/9, F1 = 2·(4/7)(4/9)/(4/7 + 4/9) = 1/2.
    close(s.overall.precision, 4.0 / 7.0);
    close(s.overall.recall, 4.0 / 9.0);
    close(s.overall.f1, 0.5);
}

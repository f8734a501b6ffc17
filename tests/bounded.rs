//! A KG drawn from with bounded queries (`--kg-sample`): every negative, wrong object and
//! distractor made from the sample is false in the whole KG, and the sample's questions are
//! facts of the whole KG. The sample holds every fact of the entities it drew over the drawn
//! relations, so "not in the sample" means "not in the KG" for exactly those.

mod common;

use kgscope::kg::bounded::{self, Draw};
use kgscope::questions::{GenerateOptions, Gold, Task, TemplateSet};

#[test]
fn what_a_sample_calls_false_is_false_in_the_whole_kg() {
    for spec in ["sample:countries", "sample:elements", "sample:nba"] {
        let (kg, whole) = common::indexed(spec);
        let sample = bounded::build(
            kg.as_ref(),
            &Draw {
                per_relation: 6,
                relations: vec![],
                seed: 11,
            },
            &|_| {},
        )
        .unwrap();
        assert!(sample.is_sample());
        assert!(
            sample.facts().len() < whole.facts().len(),
            "{spec}: not a sample"
        );
        // Whether the whole KG states the question's (subject, relation, object).
        let stated = |q: &kgscope::questions::Question| {
            let (Some(s), Some(p)) = (whole.iri_id(&q.subject), whole.iri_id(&q.predicate)) else {
                return false;
            };
            whole
                .facts_from(s)
                .iter()
                .any(|f| f[1] == p && kgscope::kg::term_str(whole.term(f[2])) == q.object)
        };
        for task in [Task::Statement, Task::Yesno, Task::McqWh, Task::Saq] {
            let opts = GenerateOptions {
                task,
                limit: 150,
                negatives: 2,
                seed: 5,
                ..GenerateOptions::default()
            };
            let (qs, _) =
                kgscope::method::generate(&sample, &TemplateSet::builtin(), &opts).unwrap();
            assert!(qs.len() >= 50, "{spec} {task:?}: {} questions", qs.len());
            for q in &qs {
                match &q.gold {
                    Gold::Bool { value: false } => {
                        assert!(!stated(q), "{spec} {task:?}: a true negative: {}", q.prompt)
                    }
                    Gold::Choice { options, correct } => {
                        assert!(stated(q), "{spec} {task:?}: not a fact: {}", q.prompt);
                        let s = whole.iri_id(&q.subject).unwrap();
                        let p = whole.iri_id(&q.predicate).unwrap();
                        let truths: Vec<String> = whole
                            .objects_of(s, p)
                            .iter()
                            .map(|o| whole.label(*o))
                            .collect();
                        for (i, o) in options.iter().enumerate() {
                            if i != *correct {
                                assert!(
                                    !truths.contains(o),
                                    "{spec}: distractor {o} is true: {}",
                                    q.prompt
                                );
                            }
                        }
                    }
                    _ => assert!(stated(q), "{spec} {task:?}: not a fact: {}", q.prompt),
                }
            }
        }
    }
}

/// A KG that remembers the queries it was asked.
struct Recording {
    kg: Box<dyn kgscope::kg::KnowledgeGraph>,
    queries: std::sync::Mutex<Vec<String>>,
}

impl kgscope::kg::KnowledgeGraph for Recording {
    fn source(&self) -> String {
        self.kg.source()
    }
    fn select(&self, query: &str, vars: &[&str]) -> kgscope::kg::Result<Vec<kgscope::kg::Row>> {
        self.queries.lock().unwrap().push(query.to_string());
        self.kg.select(query, vars)
    }
}

/// Relations named by IRI are drawn from without listing every relation of the KG (a query a
/// big endpoint cuts); the sample holds those relations only.
#[test]
fn relations_given_by_iri_need_no_listing_of_the_kg() {
    let (kg, whole) = common::indexed("sample:countries");
    let capital = whole
        .relations()
        .iter()
        .map(|r| kgscope::kg::term_str(whole.term(r.predicate)).to_string())
        .find(|iri| iri.ends_with("capital"))
        .unwrap();
    let rec = Recording {
        kg,
        queries: Default::default(),
    };
    let sample = bounded::build(
        &rec,
        &Draw {
            per_relation: 5,
            relations: vec![capital.clone()],
            seed: 2,
        },
        &|_| {},
    )
    .unwrap();
    let queries = rec.queries.lock().unwrap();
    assert!(
        queries.iter().all(|q| !q.contains("GROUP BY")),
        "{queries:?}"
    );
    assert_eq!(sample.relations().len(), 1);
    assert_eq!(
        kgscope::kg::term_str(sample.term(sample.relations()[0].predicate)),
        capital
    );
    assert!(sample.facts().len() >= 5);
}

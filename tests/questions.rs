//! Questions worth asking (issue 9), on every sample KG: negatives of the right type (checked
//! against the store with SPARQL, not with the generator's index), none true in words, the
//! corrupted position uniform over the positions that can be filled, every relation covered
//! by a small balanced run, and `--negatives-from random` still GraphEval's draw.

use crate::common;

use std::collections::{HashMap, HashSet};

use common::{ask, indexed, node};

use kgscope::kg::{self, KgIndex, KnowledgeGraph};
use kgscope::questions::negatives::Corrupter;
use kgscope::questions::{
    self, grammar, Corruption, GenerateOptions, NegativesFrom, Question, Renderer, Task,
    TemplateSet,
};
use kgscope::sampling::Sampling;

const SAMPLES: [&str; 3] = ["sample:countries", "sample:elements", "sample:nba"];
const RDF_TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";

/// The replacement has the kind of what it replaced: it shares an rdf:type with it, or (a
/// tail) the relation has it as an object elsewhere in the KG.
fn same_kind(kg: &dyn KnowledgeGraph, p: &str, original: &str, new: &str, as_head: bool) -> bool {
    let (o, of) = node(original, "orig");
    let (n, nf) = node(new, "new");
    let shares_type = !o.starts_with('?')
        && !n.starts_with('?')
        && ask(kg, &format!("{o} <{RDF_TYPE}> ?t . {n} <{RDF_TYPE}> ?t ."));
    if shares_type {
        return true;
    }
    if as_head {
        // An untyped head may be replaced by another subject of the relation.
        !ask(kg, &format!("{o} <{RDF_TYPE}> ?t .")) && ask(kg, &format!("{n} <{p}> ?any ."))
    } else {
        ask(kg, &format!("?s <{p}> {n} . {nf}"))
            || (o.starts_with('?')
                && ask(
                    kg,
                    &format!(
                        "?a ?b {o} . {of} ?c ?d {n} . {nf} FILTER(DATATYPE({o}) = DATATYPE({n}))"
                    ),
                ))
    }
}

/// A replaced relation takes both ends: some subject of it shares a type with the head, and
/// some object of it shares a type with the tail (or, a literal, its datatype).
fn relation_fits(kg: &dyn KnowledgeGraph, q: &Question) -> bool {
    let p = &q.predicate;
    let head = format!("<{}>", q.subject);
    let head_fits = ask(
        kg,
        &format!("?x <{p}> ?y . ?x <{RDF_TYPE}> ?t . {head} <{RDF_TYPE}> ?t ."),
    );
    let (t, tf) = node(&q.object, "tail");
    let tail_fits = if t.starts_with('?') {
        ask(
            kg,
            &format!("?a ?b {t} . {tf} ?x <{p}> ?y . FILTER(isLiteral(?y) && DATATYPE(?y) = DATATYPE({t}))"),
        )
    } else {
        ask(
            kg,
            &format!("?x <{p}> ?y . ?y <{RDF_TYPE}> ?t . {t} <{RDF_TYPE}> ?t ."),
        )
    };
    head_fits && tail_fits
}

fn statements(index: &KgIndex, templates: &TemplateSet, opts: GenerateOptions) -> Vec<Question> {
    kgscope::method::generate(index, templates, &opts)
        .unwrap()
        .0
}

#[test]
fn typed_negatives_are_of_the_right_type_never_true_and_uniform_over_fillable_positions() {
    let templates = TemplateSet::builtin();
    for spec in SAMPLES {
        let (kg, index) = indexed(spec);
        let qs = statements(
            &index,
            &templates,
            GenerateOptions {
                limit: 2000,
                ..GenerateOptions::default()
            },
        );
        let negatives: Vec<&Question> = qs.iter().filter(|q| q.negative.is_some()).collect();
        // nba's players have two-valued leagues, whose negatives are unfair (issue 39): fewer.
        let least = if spec == "sample:nba" { 150 } else { 950 };
        assert!(
            negatives.len() >= least,
            "{spec}: {} negatives",
            negatives.len()
        );
        let by_id: HashMap<&str, &Question> = qs.iter().map(|q| (q.id.as_str(), q)).collect();

        // The type of every replacement, against the store.
        let mut bad = Vec::new();
        for n in &negatives {
            let pos = by_id[n.positive_id.as_str()];
            let ok = match n.negative.unwrap() {
                Corruption::Head => {
                    same_kind(kg.as_ref(), &pos.predicate, &pos.subject, &n.subject, true)
                }
                Corruption::Tail => {
                    same_kind(kg.as_ref(), &pos.predicate, &pos.object, &n.object, false)
                }
                Corruption::Relation => relation_fits(kg.as_ref(), n),
            };
            if !ok {
                bad.push(format!("{} (from: {})", n.prompt, pos.prompt));
            }
        }
        assert!(
            bad.is_empty(),
            "{spec}: {} negatives of the wrong type:\n{}",
            bad.len(),
            bad.join("\n")
        );

        // Every text reads grammatically, negatives too ("Austria shares a land border with
        // Austria." breaks the subject-is-object rule).
        let bad: Vec<(&str, Vec<&str>)> = qs
            .iter()
            .map(|q| {
                (
                    q.prompt.as_str(),
                    grammar::problems(&q.prompt, &q.subject_label, &q.object_label),
                )
            })
            .filter(|(_, p)| !p.is_empty())
            .collect();
        assert!(bad.is_empty(), "{spec}: {bad:#?}");

        // No negative reads like a true fact.
        let renderer = Renderer {
            index: &index,
            templates: &templates,
            seed: 42,
        };
        let true_texts: HashSet<String> = index
            .facts()
            .iter()
            .map(|f| renderer.statement(f).to_lowercase())
            .collect();
        let true_negatives: Vec<&str> = negatives
            .iter()
            .filter(|n| true_texts.contains(&n.prompt.to_lowercase()))
            .map(|n| n.prompt.as_str())
            .collect();
        assert!(
            true_negatives.is_empty(),
            "{spec}: negatives true in words: {true_negatives:?}"
        );

        // Positions: uniform over the positions each fact can fill, within 5 points.
        let corrupter = Corrupter::new(&renderer, NegativesFrom::Fair);
        let ids: HashMap<String, u32> = index
            .facts()
            .iter()
            .flat_map(|f| f.iter().copied())
            .map(|id| (kg::term_str(index.term(id)).to_string(), id))
            .collect();
        let mut expected: HashMap<Corruption, f64> = HashMap::new();
        let mut actual: HashMap<Corruption, f64> = HashMap::new();
        for n in &negatives {
            let pos = by_id[n.positive_id.as_str()];
            let fact = [ids[&pos.subject], ids[&pos.predicate], ids[&pos.object]];
            let fillable = corrupter.fillable(&fact);
            assert!(
                fillable.contains(&n.negative.unwrap()),
                "{spec}: {} drawn from an unfillable position",
                n.prompt
            );
            for f in &fillable {
                *expected.entry(*f).or_default() += 1.0 / fillable.len() as f64;
            }
            *actual.entry(n.negative.unwrap()).or_default() += 1.0;
        }
        let total = negatives.len() as f64;
        for how in [Corruption::Head, Corruption::Relation, Corruption::Tail] {
            let e = 100.0 * expected.get(&how).copied().unwrap_or(0.0) / total;
            let a = 100.0 * actual.get(&how).copied().unwrap_or(0.0) / total;
            eprintln!("{spec}: {how:?} {a:.1}% drawn, {e:.1}% expected");
            assert!(
                (a - e).abs() <= 5.0,
                "{spec}: {how:?} drawn {a:.1}%, expected {e:.1}%"
            );
        }
    }
}

#[test]
fn a_hundred_question_balanced_run_covers_every_askable_relation() {
    let templates = TemplateSet::builtin();
    for spec in SAMPLES {
        let (_kg, index) = indexed(spec);
        let opts = GenerateOptions {
            limit: 100,
            sampling: Sampling::ByRelation,
            ..GenerateOptions::default()
        };
        let askable: HashSet<u32> = questions::candidate_facts(&index, &opts)
            .unwrap()
            .iter()
            .map(|&i| index.facts()[i][1])
            .collect();
        // Only relations whose every fact names or implies its answer in the subject drop
        // out (the nba's championship years, "1985 NBA championship"; its home cities, "Utah
        // Jazz", "Golden State Warriors"), and not many.
        let given_away: HashSet<u32> = index
            .relations()
            .iter()
            .map(|r| r.predicate)
            .filter(|&p| {
                index.facts_of_predicate(p).iter().all(|&i| {
                    grammar::names_answer(&index, index.facts()[i][0], index.facts()[i][2])
                })
            })
            .collect();
        for r in index.relations() {
            assert!(
                askable.contains(&r.predicate) || given_away.contains(&r.predicate),
                "{spec}: {} not askable",
                index.label(r.predicate)
            );
        }
        assert!(
            given_away.len() <= 2,
            "{spec}: {} relations given away",
            given_away.len()
        );
        for task in [Task::Statement, Task::Yesno] {
            let qs = statements(
                &index,
                &templates,
                GenerateOptions {
                    task,
                    ..opts.clone()
                },
            );
            let covered: HashSet<&str> = qs.iter().map(|q| q.relation.as_str()).collect();
            let wanted: HashSet<String> = askable.iter().map(|p| index.label(*p)).collect();
            let missing: Vec<&String> = wanted
                .iter()
                .filter(|r| !covered.contains(r.as_str()))
                .collect();
            assert!(
                missing.is_empty(),
                "{spec} {task:?}: relations never asked: {missing:?}"
            );
        }
        // Uniform sampling does not: the KG's biggest relations crowd the others out.
        let uniform = statements(
            &index,
            &templates,
            GenerateOptions {
                sampling: Sampling::Uniform,
                ..opts.clone()
            },
        );
        let covered: HashSet<&str> = uniform.iter().map(|q| q.relation.as_str()).collect();
        eprintln!(
            "{spec}: uniform covers {} of {} relations",
            covered.len(),
            askable.len()
        );
    }
}

#[test]
fn same_seed_same_questions_in_every_mode() {
    let templates = TemplateSet::builtin();
    let (_kg, index) = indexed("sample:elements");
    for sampling in [Sampling::ByRelation, Sampling::ByType, Sampling::Uniform] {
        for negatives_from in [NegativesFrom::Typed, NegativesFrom::Random] {
            for task in [Task::Statement, Task::Yesno] {
                let opts = GenerateOptions {
                    task,
                    limit: 300,
                    negatives: 2,
                    sampling,
                    negatives_from,
                    ..GenerateOptions::default()
                };
                let json = |qs: Vec<Question>| serde_json::to_string(&qs).unwrap();
                let a = json(statements(&index, &templates, opts.clone()));
                assert_eq!(a, json(statements(&index, &templates, opts.clone())));
                let other = json(statements(
                    &index,
                    &templates,
                    GenerateOptions { seed: 7, ..opts },
                ));
                assert_ne!(
                    a, other,
                    "{sampling:?} {negatives_from:?} {task:?}: the seed changes nothing"
                );
            }
        }
    }
}

/// GraphEval's draw: the position uniform over all three, the replacement from the whole KG,
/// so most negatives are of the wrong type (what issue 9's audit measured, 79–92%). A head
/// drawn at random often lands on a true triple (most isotopes are radioactive) and is drawn
/// again, so heads come out rarer than a third, as they did before.
#[test]
fn random_negatives_keep_graphevals_draw() {
    let templates = TemplateSet::builtin();
    for spec in SAMPLES {
        let (_kg, index) = indexed(spec);
        let opts = GenerateOptions {
            limit: 2000,
            negatives_from: NegativesFrom::Random,
            sampling: Sampling::Uniform,
            ..GenerateOptions::default()
        };
        let qs = statements(&index, &templates, opts);
        let renderer = Renderer {
            index: &index,
            templates: &templates,
            seed: 42,
        };
        let corrupter = Corrupter::new(&renderer, NegativesFrom::Random);
        let audit = questions::audit::audit(&renderer, &corrupter, &qs, &|q| {
            kgscope::method::of(q.task).asks_statements()
        });
        let mut counts: HashMap<Corruption, usize> = HashMap::new();
        for q in &qs {
            if let Some(how) = q.negative {
                *counts.entry(how).or_default() += 1;
            }
        }
        for how in [Corruption::Head, Corruption::Relation, Corruption::Tail] {
            let share = 100.0 * counts[&how] as f64 / audit.negatives as f64;
            eprintln!("{spec}: random {how:?} {share:.1}%");
            assert!(
                (10.0..=45.0).contains(&share),
                "{spec}: {how:?} {share:.1}%"
            );
        }
        let mismatched = audit.share(audit.type_mismatched);
        eprintln!("{spec}: random negatives {mismatched:.1}% type-mismatched");
        assert!(
            mismatched > 60.0,
            "{spec}: only {mismatched:.1}% type-mismatched"
        );
        assert_eq!(audit.true_in_words, 0, "{spec}: {:?}", audit.examples);
    }
}

/// A subject that names its answer by one of the answer's aliases gives it away as surely as
/// by its label: "the 1985 NBA championship" is of the National Basketball Association,
/// alias NBA. No method asks it, and `audit` counts such a question.
#[test]
fn a_subject_naming_its_answer_by_an_alias_is_not_asked() {
    let (_kg, index) = indexed("sample:nba");
    let nba = index
        .entities()
        .iter()
        .copied()
        .find(|&e| index.label(e) == "National Basketball Association")
        .expect("the league");
    assert!(index.aliases_of(nba).iter().any(|a| a == "NBA"));
    let all = questions::candidate_facts(&index, &GenerateOptions::default()).unwrap();
    let named: Vec<String> = all
        .iter()
        .map(|&i| index.facts()[i])
        .filter(|f| f[2] == nba && grammar::words(&index.label(f[0])).contains(&"nba".into()))
        .map(|f| index.label(f[0]))
        .collect();
    assert!(named.is_empty(), "asked: {named:?}");
    let named_by = |label: &str| {
        let e = index
            .entities()
            .iter()
            .copied()
            .find(|&e| index.label(e) == label)
            .unwrap();
        grammar::names_answer(&index, e, nba)
    };
    assert!(named_by("1985 NBA championship"));
    assert!(!named_by("Boston Celtics"));
    // By implication through an alias: "Golden State" is California's nickname, and San
    // Francisco is a city of California.
    let id = |label: &str| {
        index
            .entities()
            .iter()
            .chain(index.objects())
            .copied()
            .find(|&e| index.label(e) == label)
            .unwrap_or_else(|| panic!("{label}"))
    };
    assert!(grammar::names_answer(
        &index,
        id("Golden State Warriors"),
        id("San Francisco")
    ));
    assert!(!grammar::names_answer(
        &index,
        id("Boston Celtics"),
        id("San Francisco")
    ));
    // Names shared by both ends tell nothing: "Congo" is in "DR Congo" and an alias of the
    // Republic of the Congo; "Saint-Martin" names both Saint Martin and Sint Maarten.
    let (_kg, countries) = indexed("sample:countries");
    let id = |label: &str| {
        countries
            .entities()
            .iter()
            .copied()
            .find(|&e| countries.label(e) == label)
            .unwrap()
    };
    assert!(!grammar::names_answer(
        &countries,
        id("DR Congo"),
        id("Republic of the Congo")
    ));
    assert!(!grammar::names_answer(
        &countries,
        id("Saint Martin"),
        id("Sint Maarten")
    ));
    // The facts are in the KG: the filter, not the data, keeps them out.
    let league_facts = index
        .facts()
        .iter()
        .filter(|f| f[2] == nba && index.label(f[0]).contains("NBA championship"))
        .count();
    assert!(league_facts > 10, "{league_facts}");
}

/// A selection smaller than asked says why, in numbers that add up: every matching fact is
/// either askable or skipped for a stated reason, and a run short of `--limit` names the
/// skipped facts (with an example), the askable ones left, or the whole groups, whichever
/// applies.
#[test]
fn a_run_smaller_than_its_limit_says_why() {
    for spec in SAMPLES {
        let (_kg, index) = indexed(spec);
        let templates = TemplateSet::builtin();
        let mut some_skipped = false;
        for r in index.relations() {
            let opts = GenerateOptions {
                relations: vec![kgscope::kg::term_str(index.term(r.predicate)).to_string()],
                limit: 21,
                ..GenerateOptions::default()
            };
            let Ok((qs, report)) = kgscope::method::generate(&index, &templates, &opts) else {
                continue;
            };
            let skipped: usize = report.skipped.iter().map(|s| s.facts).sum();
            assert_eq!(
                report.matching,
                report.candidates + skipped,
                "{spec} {}",
                index.label(r.predicate)
            );
            assert_eq!(report.questions, qs.len());
            let why = report.shortfall(21);
            assert_eq!(
                why.is_some(),
                qs.len() < 21,
                "{spec} {}: {why:?}",
                index.label(r.predicate)
            );
            let Some(why) = why else { continue };
            // Statements come in pairs: 21 asks 10 facts and their negatives at most.
            assert!(
                why.contains("whole groups")
                    || report.candidates * 2 < 21
                    || report.negatives_missing > 0,
                "{why}"
            );
            for s in &report.skipped {
                some_skipped = true;
                assert!(
                    why.contains(&format!(
                        "{} of the {} matching facts skipped",
                        s.facts, report.matching
                    )),
                    "{why}"
                );
                assert!(
                    s.example.as_deref().is_some_and(|e| e.contains(" → ")),
                    "{s:?}"
                );
            }
        }
        if spec == "sample:nba" {
            assert!(some_skipped, "nba's teams are named after their cities");
        }
    }
}

/// A name several entities go by is never left bare as a question's subject ("Washington"
/// the city and the state: "the city or area Washington"), and no question repeats another's
/// text, in every method that makes its questions up front, on every sample KG.
#[test]
fn subjects_that_share_a_name_get_their_context_and_no_question_repeats() {
    for spec in SAMPLES {
        let (_kg, index) = indexed(spec);
        let templates = TemplateSet::builtin();
        let r = Renderer {
            index: &index,
            templates: &templates,
            seed: 0,
        };
        let corrupter = Corrupter::new(&r, NegativesFrom::Fair);
        let shared = index
            .entities()
            .iter()
            .filter(|&&e| index.shares_name(e))
            .count();
        assert!(shared > 0, "{spec}: every sample KG has shared names");
        for task in [Task::Statement, Task::Yesno, Task::Tfq, Task::Saq] {
            let opts = GenerateOptions {
                task,
                limit: 2000,
                seed: 7,
                ..GenerateOptions::default()
            };
            let (qs, _) = kgscope::method::generate(&index, &templates, &opts).unwrap();
            let audit = questions::audit::audit(&r, &corrupter, &qs, &|_| false);
            assert_eq!(
                audit.ambiguous_subjects, 0,
                "{spec} {task:?}: {:?}",
                audit.examples
            );
            assert_eq!(audit.duplicates, 0, "{spec} {task:?}: {:?}", audit.examples);
            let with_context = qs
                .iter()
                .filter(|q| {
                    index
                        .iri_id(&q.subject)
                        .is_some_and(|s| index.shares_name(s))
                })
                .count();
            if spec == "sample:countries" {
                assert!(with_context > 0, "{task:?}: no shared name drawn");
            }
        }
    }
}

/// `audit` reads wording as a reader does: a name English writes with "the" written bare, and
/// template phrasing English does not use, are counted in sets made by any generator; the
/// built-in templates make none of either.
#[test]
fn audit_counts_bare_names_and_unnatural_wording() {
    let templates = TemplateSet::builtin();
    let (_kg, index) = indexed("sample:countries");
    let qs = statements(
        &index,
        &templates,
        GenerateOptions {
            limit: 2000,
            seed: 7,
            ..GenerateOptions::default()
        },
    );
    let renderer = Renderer {
        index: &index,
        templates: &templates,
        seed: 7,
    };
    let corrupter = Corrupter::new(&renderer, NegativesFrom::Fair);
    let audit = |qs: &[Question]| {
        questions::audit::audit(&renderer, &corrupter, qs, &|q| {
            kgscope::method::of(q.task).asks_statements()
        })
    };
    let clean = audit(&qs);
    assert_eq!(clean.article_errors, 0, "{:?}", clean.examples);
    assert_eq!(clean.unnatural_wording, 0, "{:?}", clean.examples);
    // The same questions as the previous generator wrote them: bare names, and a kind of place
    // named as "state or province".
    let with_the: Vec<Question> = qs
        .iter()
        .filter(|q| q.prompt.contains("the United States") || q.prompt.contains("the Bahamas"))
        .cloned()
        .collect();
    assert!(with_the.len() > 3, "{}", with_the.len());
    let bare: Vec<Question> = with_the
        .iter()
        .map(|q| Question {
            prompt: q
                .prompt
                .replace("The United States", "United States")
                .replace("the United States", "United States")
                .replace("The Bahamas", "Bahamas")
                .replace("the Bahamas", "Bahamas"),
            ..q.clone()
        })
        .collect();
    assert_eq!(audit(&bare).article_errors, bare.len());
    let mut odd = qs[0].clone();
    odd.prompt = "Washington is in the state or province of District of Columbia.".into();
    assert_eq!(audit(&[odd]).unnatural_wording, 1);
}

/// Issue 39: what `kgscope audit` flags, generation no longer makes: every method's
/// questions on every sample KG (a seed no reading used) have none the audit flags.
#[test]
fn generation_makes_nothing_the_reader_checks_flag() {
    let tmp = tempfile::tempdir().unwrap();
    for kg in ["countries", "elements", "nba", "wikidata-countries"] {
        for task in [
            "statement",
            "tfq",
            "yesno",
            "mcq-fib",
            "mcq-wh",
            "saq",
            "kglens",
            "kg-fpq",
            "kghalubench",
        ] {
            let file = tmp.path().join(format!("{kg}.{task}.jsonl"));
            let kg_spec = format!("sample:{kg}");
            let file_arg = file.to_str().unwrap();
            common::ok(&[
                "questions",
                "--kg",
                &kg_spec,
                "--task",
                task,
                "--limit",
                "12",
                "--seed",
                "101",
                "--out",
                file_arg,
            ]);
            let n = std::fs::read_to_string(&file).unwrap().lines().count();
            let text = common::ok(&["audit", file_arg, "--kg", &kg_spec]);
            assert!(
                text.contains(&format!("questions a reader would reject    0 of {n}")),
                "{kg} {task}: {text}"
            );
        }
    }
}

/// Issue 39: the audit measured against a reading (`tests/data/reviewed/seed19/`): its flags
/// find some of the questions the readers rejected, and the agreement is said per cause.
#[test]
fn the_audit_measures_the_reviewed_set() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/reviewed/seed19");
    let mut flagged_rejections = 0;
    for kg in ["countries", "elements", "nba", "wikidata-countries"] {
        let questions = dir.join(format!("full/{kg}.jsonl"));
        let verdicts = dir.join(format!("{kg}.verdicts.jsonl"));
        let text = common::ok(&[
            "audit",
            questions.to_str().unwrap(),
            "--kg",
            &format!("sample:{kg}"),
            "--reviewed",
            verdicts.to_str().unwrap(),
        ]);
        let n = std::fs::read_to_string(&questions).unwrap().lines().count();
        let line = text
            .lines()
            .find(|l| l.starts_with(&format!("against {n} reviewed questions: flags ")))
            .unwrap_or_else(|| panic!("{kg}: no agreement line:\n{text}"));
        let flagged: usize = line["against ".len()..]
            .split("flags ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|x| x.parse().ok())
            .unwrap_or_else(|| panic!("{line}"));
        flagged_rejections += flagged;
    }
    assert!(
        flagged_rejections > 0,
        "the audit finds none of the readers' rejections"
    );
}

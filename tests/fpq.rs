//! KG-FPQ's six edits (Zhu et al., 2024, §3.1) on the sample KGs, each edit checked against the store
//! with SPARQL rather than with the generator's own index and search: whether o' is within
//! five hops of the subject (a path query over the store's fact predicates, both directions,
//! through IRIs only), its hop count as the shortest path length, its type against o's most
//! specific one, the relations it is an object of, and that (s, p, o') is not in the KG.

use crate::common;

use std::collections::{BTreeMap, HashMap};

use common::{ask, indexed};

use kgscope::kg::index::{Fact, Id, KgIndex};
use kgscope::kg::{vocab, KnowledgeGraph};
use kgscope::method::kgfpq::edits::{Edit, Editor};
use kgscope::sampling;

const HOPS: u8 = 5;
const FACTS: usize = 250;

/// `?p NOT IN (…)`: the predicates the index does not count as facts (labels, aliases, types,
/// reification, descriptions), as vocab names them.
fn fact_predicate(var: &str) -> String {
    let meta: Vec<String> = vocab::LABELS
        .iter()
        .chain(&vocab::ALIASES)
        .chain(&vocab::TYPES)
        .chain(&vocab::REIFICATION)
        .chain(&[vocab::RDFS_COMMENT, vocab::SCHEMA_DESCRIPTION])
        .map(|i| format!("<{i}>"))
        .collect();
    format!("{var} NOT IN ({})", meta.join(", "))
}

/// A group pattern binding `?{out}` to every node at the end of a walk of exactly `j` facts
/// from `start`, each fact walked in either direction, through IRIs only (literals link
/// nothing, and the index's facts have IRI subjects and no blank objects). Each step is a
/// DISTINCT subquery, so a hub is expanded once per step, not once per walk through it.
fn walk_ends(start: &str, j: usize, side: &str, out: &str) -> String {
    if j == 0 {
        return format!("VALUES ?{out} {{ {start} }}");
    }
    let prev = format!("{side}{}", j - 1);
    let inner = walk_ends(start, j - 1, side, &prev);
    let (n, p) = (format!("?{out}"), format!("?{side}p{j}"));
    let keep = fact_predicate(&p);
    format!(
        "{{ SELECT DISTINCT {n} WHERE {{ {{ {inner} }} \
         {{ ?{prev} {p} {n} . FILTER(isIRI({n}) && {keep}) }} \
         UNION {{ {n} {p} ?{prev} . FILTER(isIRI({n}) && {keep}) }} }} }}"
    )
}

/// Whether the store has a walk of exactly `len` facts between `a` and `b`: meet in the
/// middle, walks of ⌈len/2⌉ facts from `a` and ⌊len/2⌋ from `b` ending on a common node.
fn walk(kg: &dyn KnowledgeGraph, a: &str, b: &str, len: usize) -> bool {
    let left = walk_ends(a, len.div_ceil(2), "l", "mid");
    let right = walk_ends(b, len / 2, "r", "mid");
    ask(kg, &format!("{{ {left} }} {{ {right} }}"))
}

/// Whether `a` and `b` (distinct) are at most `k` facts apart. A shorter walk is padded to
/// `k` or `k - 1` facts by going back and forth along one of its facts, so those two lengths
/// answer for all the shorter ones.
fn within(kg: &dyn KnowledgeGraph, a: &str, b: &str, k: u8) -> bool {
    let k = usize::from(k);
    k >= 1 && (walk(kg, a, b, k) || (k >= 2 && walk(kg, a, b, k - 1)))
}

/// o's concept as the store gives it: the type with the fewest typed IRIs, ties to the first
/// in N-Triples order.
fn concept(kg: &dyn KnowledgeGraph, o: &str) -> Option<String> {
    let types = vocab::iri_list(&vocab::TYPES);
    let rows = kg
        .select(
            &format!(
                "SELECT ?t (COUNT(DISTINCT ?m) AS ?n) WHERE {{ VALUES ?tp {{ {types} }} \
                 VALUES ?tq {{ {types} }} {o} ?tp ?t . ?m ?tq ?t . FILTER(isIRI(?t) && isIRI(?m)) }} \
                 GROUP BY ?t ORDER BY ?n (CONCAT(\"<\", STR(?t), \">\"))"
            ),
            &["t", "n"],
        )
        .unwrap();
    rows.first()
        .and_then(|r| r[0].as_ref())
        .map(|t| t.to_string())
}

fn has_type(kg: &dyn KnowledgeGraph, e: &str, t: &str) -> bool {
    let types = vocab::iri_list(&vocab::TYPES);
    ask(kg, &format!("VALUES ?tp {{ {types} }} {e} ?tp {t}"))
}

fn typed(kg: &dyn KnowledgeGraph, e: &str) -> bool {
    let types = vocab::iri_list(&vocab::TYPES);
    ask(
        kg,
        &format!("VALUES ?tp {{ {types} }} {e} ?tp ?t . FILTER(isIRI(?t))"),
    )
}

#[derive(Default)]
struct Counts {
    made: usize,
    none: usize,
    checks: usize,
    /// NSC / NDC edits by hop count.
    hops: BTreeMap<u8, usize>,
}

/// Checks one edit with SPARQL; returns how many queries it took.
fn check(
    kg: &dyn KnowledgeGraph,
    ix: &KgIndex,
    f: &Fact,
    edit: Edit,
    o2: Id,
    hops: Option<u8>,
    concepts: &mut HashMap<Id, Option<String>>,
) -> usize {
    let t = |id: Id| ix.term(id).to_string();
    let (s, p, o, e) = (t(f[0]), t(f[1]), t(f[2]), t(o2));
    let what = format!("{edit}: {s} {p} {o} -> {e} ({hops:?})");
    let n = std::cell::Cell::new(0);
    let q = |pattern: String| {
        n.set(n.get() + 1);
        ask(kg, &pattern)
    };
    let path = |h: u8| {
        n.set(n.get() + 1);
        within(kg, &s, &e, h)
    };
    assert!(e.starts_with('<'), "{what}: not an IRI");
    assert_ne!(e, o, "{what}");
    assert_ne!(e, s, "{what}");
    assert!(!q(format!("{s} {p} {e}")), "{what}: a KG triple");
    // Distance.
    match hops {
        Some(h) => {
            assert!(edit.is_neighbour(), "{what}");
            assert!((1..=HOPS).contains(&h), "{what}");
            assert!(path(h), "{what}: no path of {h} facts");
            assert!(!path(h - 1), "{what}: a path shorter than {h} facts");
        }
        None => {
            assert!(!edit.is_neighbour(), "{what}");
            assert!(!path(HOPS), "{what}: within {HOPS} hops");
        }
    }
    // Kinship with o.
    match edit {
        Edit::Nsc | Edit::Nnsc | Edit::Ndc | Edit::Nndc => {
            let c = concepts
                .entry(f[2])
                .or_insert_with(|| {
                    n.set(n.get() + 1);
                    concept(kg, &o)
                })
                .clone()
                .unwrap_or_else(|| panic!("{what}: o has no type"));
            n.set(n.get() + 1);
            let same = has_type(kg, &e, &c);
            if matches!(edit, Edit::Nsc | Edit::Nnsc) {
                assert!(same, "{what}: not of o's concept {c}");
            } else {
                assert!(!same, "{what}: of o's concept {c}");
                n.set(n.get() + 1);
                assert!(typed(kg, &e), "{what}: untyped");
            }
        }
        Edit::Nnsr => assert!(
            q(format!("?x {p} {e}")),
            "{what}: not an object of the relation"
        ),
        Edit::Nndr => {
            assert!(
                !q(format!("?x {p} {e}")),
                "{what}: an object of the relation"
            );
            let keep = fact_predicate("?q");
            assert!(
                q(format!("?x ?q {e} . FILTER({keep})")),
                "{what}: not an object of any relation"
            );
        }
    }
    n.get()
}

/// The path check itself, on a KG whose distances are known: a chain a → b → … → g, with
/// h → c; b and x share a literal, a and x a type, neither of which links anything.
#[test]
fn the_path_check_measures_known_distances() {
    let kg = kgscope::kg::local::LocalKg::from_turtle(
        "@prefix ex: <http://example.org/> .\n\
         @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n\
         ex:a ex:p ex:b . ex:b ex:p ex:c . ex:c ex:p ex:d . ex:d ex:p ex:e .\n\
         ex:e ex:p ex:f . ex:f ex:p ex:g . ex:h ex:q ex:c .\n\
         ex:b ex:year \"1900\" . ex:x ex:year \"1900\" .\n\
         ex:a rdf:type ex:T . ex:x rdf:type ex:T .\n",
        "test",
    )
    .unwrap();
    let e = |n: &str| format!("<http://example.org/{n}>");
    for (b, d) in [
        ("b", 1),
        ("c", 2),
        ("d", 3),
        ("h", 3),
        ("e", 4),
        ("f", 5),
        ("g", 6),
    ] {
        assert!(within(&kg, &e("a"), &e(b), d), "a-{b} within {d}");
        assert!(
            !within(&kg, &e("a"), &e(b), d - 1),
            "a-{b} within {}",
            d - 1
        );
        assert!(within(&kg, &e(b), &e("a"), d), "{b}-a within {d}");
    }
    // Walks go back and forth: g is 6 away, and within 7 too.
    assert!(within(&kg, &e("a"), &e("g"), 7));
    assert!(!within(&kg, &e("b"), &e("x"), 5));
    assert!(!within(&kg, &e("a"), &e("x"), 5));
}

#[test]
fn every_edit_checks_out_against_the_store_with_sparql() {
    let mut made_anywhere: BTreeMap<Edit, usize> = BTreeMap::new();
    for spec in ["sample:countries", "sample:nba", "sample:elements"] {
        let (kg, ix) = indexed(spec);
        let entity_facts: Vec<Fact> = ix
            .facts()
            .iter()
            .copied()
            .filter(|f| ix.term(f[2]).is_named_node())
            .collect();
        let facts = sampling::uniform(&entity_facts, FACTS, &mut sampling::rng(11));
        let mut editor = Editor::new(&ix, HOPS);
        let mut rng = sampling::rng(5);
        let mut counts: BTreeMap<Edit, Counts> = BTreeMap::new();
        let mut concepts = HashMap::new();
        for f in &facts {
            for edit in Edit::ALL {
                let c = counts.entry(edit).or_default();
                match editor.edit(f, edit, &mut rng) {
                    Some(e) => {
                        assert_eq!(e.edit, edit);
                        c.made += 1;
                        if let Some(h) = e.hops {
                            *c.hops.entry(h).or_default() += 1;
                        }
                        c.checks +=
                            check(kg.as_ref(), &ix, f, edit, e.object, e.hops, &mut concepts);
                    }
                    None => c.none += 1,
                }
            }
        }
        println!(
            "{spec}: {} facts with an entity object, {} drawn",
            entity_facts.len(),
            facts.len()
        );
        println!("  edit   made  none  SPARQL checks  by hops");
        for (edit, c) in &counts {
            let hops: Vec<String> = c.hops.iter().map(|(h, n)| format!("{h}:{n}")).collect();
            println!(
                "  {:<5} {:>5} {:>5} {:>14}  {}",
                edit.as_str(),
                c.made,
                c.none,
                c.checks,
                hops.join(" ")
            );
            *made_anywhere.entry(*edit).or_default() += c.made;
        }
    }
    // The edits to another kind (NDC, NNDC, NNDR) keep to kinds the relation takes as objects
    // (issue 39: readers reject "a city in Macedonian"); the sample KGs' relations take one kind
    // each, so those edits are refused there (edits.rs' unit tests draw them where a relation
    // takes two). The same-kind edits are made everywhere.
    for edit in Edit::ALL.into_iter().filter(|e| !e.other_kind()) {
        assert!(
            made_anywhere.get(&edit).copied().unwrap_or(0) > 0,
            "{edit} never made: {made_anywhere:?}"
        );
    }
}

/// `kgscope bench fpq` reports its figure next to its baseline, and takes edit names in any
/// case.
#[test]
fn bench_fpq_reports_edits_per_second_against_the_index_build() {
    let out = common::ok(&[
        "bench",
        "fpq",
        "--kg",
        "sample:nba",
        "--edits",
        "600",
        "--rounds",
        "1",
        "--edit",
        "NSC,nndr",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["edits"], 600);
    assert!(v["index_build_s"].as_f64().unwrap() > 0.0, "{v}");
    assert!(v["edits_per_s"].as_f64().unwrap() > 0.0, "{v}");
    assert!(v["edit_time_vs_index_build_ratio"].as_f64().unwrap() > 0.0);
    let per_edit = v["per_edit"].as_object().unwrap();
    assert_eq!(per_edit.keys().collect::<Vec<_>>(), ["NNDR", "NSC"], "{v}");
    let total: u64 = per_edit
        .values()
        .map(|t| t["made"].as_u64().unwrap() + t["none"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 600);
}

/// Issue 24: on every sample KG at the paper's 5 hops, no edit puts a schema or qualifier node
/// in a premise, no premise is true by the KG, no object is of a sort its slot does not take,
/// no prompt repeats, and each of the six edits is either in the set or has a reason in the
/// generation report.
#[test]
fn sample_sets_test_premises_and_say_why_an_edit_is_missing() {
    use kgscope::questions::{GenerateOptions, Task, TemplateSet};
    for spec in ["sample:countries", "sample:elements", "sample:nba"] {
        let (_kg, index) = indexed(spec);
        let opts = GenerateOptions {
            task: Task::KgFpq,
            limit: 400,
            seed: 7,
            ..GenerateOptions::default()
        };
        let (qs, report) =
            kgscope::method::generate(&index, &TemplateSet::builtin(), &opts).unwrap();
        let audit = kgscope::method::kgfpq::audit::audit(&index, &qs);
        assert!(audit.negatives > 0, "{spec}");
        assert_eq!(
            audit.checked, audit.negatives,
            "{spec}: every premise is checked"
        );
        assert_eq!(audit.meta, 0, "{spec}: {:?}", audit.examples);
        assert_eq!(audit.true_premise, 0, "{spec}: {:?}", audit.examples);
        assert_eq!(audit.slot_misfit, 0, "{spec}: {:?}", audit.examples);
        let mut prompts: Vec<&str> = qs.iter().map(|q| q.prompt.as_str()).collect();
        prompts.sort_unstable();
        let n = prompts.len();
        prompts.dedup();
        assert_eq!(prompts.len(), n, "{spec}: a prompt repeats");
        for edit in Edit::ALL {
            let made = qs
                .iter()
                .any(|q| q.premise.as_ref().is_some_and(|p| p.edit == Some(edit)));
            let why = report
                .unmade_why
                .iter()
                .any(|(line, n)| *n > 0 && line.starts_with(&format!("{}: ", edit.as_str())));
            assert!(made || why, "{spec}: {edit} neither made nor explained");
        }
        let explained: usize = report.unmade_why.iter().map(|(_, n)| n).sum();
        assert_eq!(explained, report.negatives_missing, "{spec}");
    }
}

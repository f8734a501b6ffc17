//! The KG layer and question generation, against the sample KGs, an on-disk store and a real
//! `oxigraph serve` SPARQL endpoint on 127.0.0.1.

use crate::common;

use std::collections::HashSet;

use common::*;
use kgscope::kg::{self, info, KgIndex, KnowledgeGraph, Term};
use kgscope::questions::{self, Corruption, GenerateOptions, Gold, Question, Task, TemplateSet};
use oxigraph::model::{Literal, NamedNode};

fn index(kg: &dyn KnowledgeGraph) -> KgIndex {
    KgIndex::build(kg, &|_| {}).unwrap()
}

fn term(s: &str) -> Term {
    if s.contains("://") {
        Term::NamedNode(NamedNode::new(s).unwrap())
    } else {
        Term::Literal(Literal::new_simple_literal(s))
    }
}

#[test]
fn every_sample_kg_is_big_labelled_and_typed() {
    let mut with_dates = 0;
    for file in sample_files() {
        let kg = kg::open(file.to_str().unwrap()).unwrap();
        let ix = index(kg.as_ref());
        let s = info::stats(kg.as_ref(), &ix).unwrap();
        assert!(
            s.triples >= 1000,
            "{}: {} triples",
            file.display(),
            s.triples
        );
        assert_eq!(
            s.labelled_entities,
            s.entities,
            "{}: unlabelled entities",
            file.display()
        );
        assert_eq!(
            s.typed_entities,
            s.entities,
            "{}: untyped entities",
            file.display()
        );
        assert!(!s.relations.is_empty());
        with_dates += usize::from(s.entities_with_dates > 0);
        // Every relation of a sample KG has a template written for it.
        let t = TemplateSet::builtin();
        for r in &s.relations {
            assert!(
                t.find(&r.iri, &r.label).is_some(),
                "no template for {} in {}",
                r.iri,
                file.display()
            );
        }
    }
    assert!(with_dates >= 1, "no sample KG has dates");
}

#[test]
fn stats_cli_reports_counts_and_json() {
    for file in sample_files() {
        let out = ok(&["kg", "stats", "--kg", file.to_str().unwrap(), "--json"]);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert!(v["triples"].as_u64().unwrap() >= 1000);
        assert!(v["label_coverage"].as_f64().unwrap() > 0.999);
    }
    let text = ok(&["kg", "stats", "--kg", "sample:countries"]);
    assert!(text.contains("relations ("), "{text}");
}

#[test]
fn show_finds_entities_by_label_alias_and_iri() {
    let kg = kg::open("sample:countries").unwrap();
    let ix = index(kg.as_ref());
    // Pick an entity that has an alias, from the KG itself.
    let e = *ix
        .entities()
        .iter()
        .find(|e| !ix.aliases_of(**e).is_empty())
        .expect("an entity with an alias");
    let iri = kg::term_str(ix.term(e)).to_string();
    let label = ix.label(e);
    let alias = ix.aliases_of(e)[0].clone();
    assert_eq!(
        info::find_entities(kg.as_ref(), &label.to_uppercase()).unwrap(),
        vec![iri.clone()]
    );
    assert!(info::find_entities(kg.as_ref(), &alias.to_lowercase())
        .unwrap()
        .contains(&iri));
    let out = ok(&["kg", "show", "--kg", "sample:countries", &alias, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["degree"].as_u64().unwrap() > 0);
    assert!(!v["types"].as_array().unwrap().is_empty());
    let two = ok(&[
        "kg",
        "show",
        "--kg",
        "sample:countries",
        &iri,
        "--hops",
        "2",
    ]);
    assert!(two.contains("via "), "{two}");
    let missing = run(&[
        "kg",
        "show",
        "--kg",
        "sample:countries",
        "No Such Place Anywhere",
    ]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no entity"));
}

fn biggest_sample() -> String {
    sample_files()
        .into_iter()
        .max_by_key(|f| {
            index(kg::open(f.to_str().unwrap()).unwrap().as_ref())
                .facts()
                .len()
        })
        .unwrap()
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn ten_thousand_statements_are_deterministic_and_negatives_are_false() {
    let file = biggest_sample();
    let dir = tempfile::tempdir().unwrap();
    let out = |name: &str, seed: &str| {
        let p = dir.path().join(name);
        ok(&[
            "questions",
            "--kg",
            &file,
            "--task",
            "statement",
            "--limit",
            "10000",
            "--negatives",
            "1",
            "--seed",
            seed,
            "--out",
            p.to_str().unwrap(),
        ]);
        std::fs::read(p).unwrap()
    };
    let a = out("a.jsonl", "7");
    let b = out("b.jsonl", "7");
    let c = out("c.jsonl", "8");
    assert_eq!(a, b, "same seed must give byte-identical files");
    assert_ne!(a, c, "another seed must give another file");

    let qs: Vec<Question> = a
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    // 5,000 facts, each with its negative, less the negatives that would only repeat another
    // fact's (drawn again a few times, then left out): no text is asked twice.
    assert!((9_800..=10_000).contains(&qs.len()), "{}", qs.len());
    let texts: HashSet<&str> = qs.iter().map(|q| q.prompt.as_str()).collect();
    assert_eq!(texts.len(), qs.len(), "a statement repeats");
    let ids: HashSet<&str> = qs.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids.len(), qs.len(), "question ids are unique");
    // Ask the store itself, not the index the generator used.
    let kg = kg::open(&file).unwrap();
    let objects = object_terms(kg.as_ref());
    let mut negatives = 0;
    for q in &qs {
        // A value such as "10" may stand for several typed literals: the triple is in the KG
        // when any of them completes it.
        let candidates = objects
            .get(&q.object)
            .cloned()
            .unwrap_or_else(|| vec![term(&q.object)]);
        let present = candidates.iter().any(|o| {
            kg.contains(&term(&q.subject), &term(&q.predicate), o)
                .unwrap()
        });
        match q.negative {
            None => {
                assert!(present, "positive not in KG: {q:?}");
                assert_eq!(q.gold, Gold::yes());
            }
            Some(_) => {
                negatives += 1;
                assert!(!present, "negative is a KG triple: {q:?}");
                assert_eq!(q.gold, Gold::no());
            }
        }
    }
    // Facts that read alike ("Fr" and "Fr." as a symbol) are asked once.
    assert!((4_990..=5_000).contains(&(qs.len() - negatives)));
    // Head and tail are replaced; the relation is only swapped for one that is no
    // near-synonym, which the countries have none of (an IOC code is the ISO alpha-3 code
    // for most countries).
    let positions: HashSet<_> = qs.iter().filter_map(|q| q.negative).collect();
    assert!(
        positions.contains(&Corruption::Head) && positions.contains(&Corruption::Tail),
        "head and tail are both replaced sometimes: {positions:?}"
    );
}

/// Objects may be literals with datatypes: the exact term of each object value, through the index.
fn object_terms(kg: &dyn KnowledgeGraph) -> std::collections::HashMap<String, Vec<Term>> {
    let ix = index(kg);
    let mut map: std::collections::HashMap<String, Vec<Term>> = Default::default();
    for f in ix.facts() {
        let t = ix.term(f[2]);
        let same = map.entry(kg::term_str(t).to_string()).or_default();
        if !same.contains(t) {
            same.push(t.clone());
        }
    }
    map
}

#[test]
fn syntax_error_names_the_line_and_leaves_the_store_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let good = dir.path().join("good.ttl");
    std::fs::write(&good, "@prefix ex: <http://example.org/> .\nex:a ex:p ex:b .\nex:a <http://www.w3.org/2000/01/rdf-schema#label> \"A\" .\n").unwrap();
    load_store(&good, &store);

    let mut bad = String::from("@prefix ex: <http://example.org/> .\n");
    for i in 2..37 {
        bad.push_str(&format!("ex:s{i} ex:p ex:o{i} .\n"));
    }
    bad.push_str("ex:s37 ex:p ex:o37 ex:extra ex:oops .\n");
    for i in 38..50 {
        bad.push_str(&format!("ex:s{i} ex:p ex:o{i} .\n"));
    }
    let bad_path = dir.path().join("bad.ttl");
    std::fs::write(&bad_path, bad).unwrap();
    let out = run(&[
        "kg",
        "load",
        bad_path.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("bad.ttl:37:"), "{err}");
    assert!(err.contains("unchanged"), "{err}");
    let stats: serde_json::Value = serde_json::from_str(&ok(&[
        "kg",
        "stats",
        "--kg",
        store.to_str().unwrap(),
        "--json",
    ]))
    .unwrap();
    assert_eq!(
        stats["triples"], 2,
        "store must hold only the good file's triples"
    );

    // --lenient skips the bad statement and loads the rest.
    let out = ok(&[
        "kg",
        "load",
        bad_path.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
        "--lenient",
        "--json",
    ]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["skipped"], 1, "{out}");
    assert_eq!(report["statements"], 47, "{out}");
    assert_eq!(report["store_triples"], 49, "{out}");
}

#[test]
fn loads_every_format_and_gzip() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let nt = "<http://example.org/a> <http://example.org/p> <http://example.org/b> .\n";
    let files = [
        ("x.nt", nt.to_string()),
        ("x.nq", "<http://example.org/a> <http://example.org/p> <http://example.org/c> <http://example.org/g> .\n".to_string()),
        ("x.rdf", r#"<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://example.org/"><rdf:Description rdf:about="http://example.org/a"><ex:p rdf:resource="http://example.org/d"/></rdf:Description></rdf:RDF>"#.to_string()),
        ("x.trig", "<http://example.org/g2> { <http://example.org/a> <http://example.org/p> <http://example.org/e> . }\n".to_string()),
    ];
    let mut paths = vec![];
    for (name, text) in &files {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        paths.push(p.to_str().unwrap().to_string());
    }
    let gz = dir.path().join("y.ttl.gz");
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(&gz).unwrap(),
        flate2::Compression::default(),
    );
    enc.write_all(b"@prefix ex: <http://example.org/> . ex:a ex:p ex:f .")
        .unwrap();
    enc.finish().unwrap();
    paths.push(gz.to_str().unwrap().to_string());
    let store = dir.path().join("store");
    let mut args = vec!["kg", "load", "--store", store.to_str().unwrap(), "--json"];
    args.extend(paths.iter().map(String::as_str));
    let report: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
    assert_eq!(report["store_triples"], 5);
    // Named graphs count as part of the KG.
    let kg = kg::open(store.to_str().unwrap()).unwrap();
    assert_eq!(index(kg.as_ref()).facts().len(), 5);

    let unknown = dir.path().join("x.csv");
    std::fs::write(&unknown, "a,b").unwrap();
    let out = run(&[
        "kg",
        "load",
        unknown.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown RDF extension"));
}

#[test]
fn empty_kg_and_unknown_relation_give_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.ttl");
    std::fs::write(&empty, "# nothing here\n").unwrap();
    let out = run(&["questions", "--kg", empty.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no facts"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&[
        "questions",
        "--kg",
        "sample:countries",
        "--relation",
        "noSuchRelation",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown relation 'noSuchRelation'"));
    let out = run(&["kg", "stats", "--kg", "/no/such/file.ttl"]);
    assert!(!out.status.success());
}

#[test]
fn yesno_questions_follow_kglens() {
    let kg = kg::open("sample:countries").unwrap();
    let ix = index(kg.as_ref());
    let opts = GenerateOptions {
        task: Task::Yesno,
        limit: 400,
        seed: 3,
        ..Default::default()
    };
    let (qs, _) = kgscope::method::generate(&ix, &TemplateSet::builtin(), &opts).unwrap();
    assert_eq!(qs.len(), 400);
    let no = qs.iter().filter(|q| q.gold == Gold::no()).count();
    assert!(
        (120..=280).contains(&no),
        "about half should be No questions, got {no}"
    );
    for q in &qs {
        let s = ix.iri_id(&q.subject).unwrap();
        let p = ix.iri_id(&q.predicate).unwrap();
        let truths: Vec<String> = ix
            .objects_of(s, p)
            .iter()
            .map(|o| kg::term_str(ix.term(*o)).to_string())
            .collect();
        assert_eq!(q.gold == Gold::yes(), truths.contains(&q.object), "{q:?}");
        let answers = questions::aliases::Answers::of_relation(&ix, p);
        // A name other entities go by is told apart by its context, not an alias.
        if ix.shares_name(s) {
            // Its context, or the template's own noun for its kind right before the name.
            let shown = questions::names::shown(&ix, s, p);
            let kind = questions::names::kind_word(&ix, s, p)
                .map(|k| format!("{k} {}", ix.label(s)).to_lowercase());
            let prompt = q.prompt.to_lowercase();
            assert!(
                q.prompt.contains(&shown) || kind.is_some_and(|k| prompt.contains(&k)),
                "{}",
                q.prompt
            );
        } else if let Some(alias) =
            questions::aliases::choose(&q.subject_label, &q.subject_aliases, &answers)
        {
            assert!(
                q.prompt.contains(&format!("(also known as {alias})")),
                "{}",
                q.prompt
            );
        }
        assert!(q.prompt.ends_with('?'));
    }
}

#[test]
fn file_store_and_sparql_endpoint_agree() {
    let file = sample_files()
        .into_iter()
        .find(|f| f.to_str().unwrap().contains("countries"))
        .unwrap_or_else(|| sample_files()[0].clone());
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    load_store(&file, &store);
    let server = oxigraph_server(&file);
    let endpoint = format!("{}/query", server.base);
    let specs = [
        file.to_str().unwrap().to_string(),
        store.to_str().unwrap().to_string(),
        endpoint,
    ];
    let mut stats = vec![];
    let mut question_sets = vec![];
    for spec in &specs {
        let mut s: serde_json::Value =
            // Read whole: an endpoint is otherwise sampled (files and stores ignore the flag).
            serde_json::from_str(&ok(&["kg", "stats", "--kg", spec, "--json", "--kg-whole"]))
                .unwrap();
        s.as_object_mut().unwrap().remove("source");
        stats.push(s);
        let mut q = ok(&[
            "questions",
            "--kg",
            spec,
            "--limit",
            "300",
            "--seed",
            "5",
            "--kg-whole",
        ]);
        q.push_str(&ok(&[
            "questions",
            "--kg",
            spec,
            "--kg-whole",
            "--task",
            "yesno",
            "--limit",
            "200",
            "--seed",
            "5",
        ]));
        question_sets.push(q);
    }
    assert_eq!(stats[0], stats[1], "file vs store");
    assert_eq!(stats[0], stats[2], "file vs endpoint");
    assert_eq!(question_sets[0], question_sets[1], "file vs store");
    assert_eq!(question_sets[0], question_sets[2], "file vs endpoint");
    let show: Vec<String> = specs
        .iter()
        .map(|s| {
            let kg = kg::open(s).unwrap();
            let ix = index(kg.as_ref());
            let e = ix.entities()[0];
            serde_json::to_string(
                &info::entity_info(kg.as_ref(), kg::term_str(ix.term(e)), 1).unwrap(),
            )
            .unwrap()
        })
        .collect();
    assert_eq!(show[0], show[2], "entity info, file vs endpoint");

    let bad = run(&[
        "kg",
        "stats",
        "--kg",
        &format!("http://127.0.0.1:{}/query", free_port()),
    ]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("SPARQL endpoint"));
}

#[test]
fn reference_template_tables_import_and_render() {
    let mut set = TemplateSet::default();
    let n = set
        .add_file(&shared("data/grapheval/relation_templates.tsv"))
        .unwrap();
    assert_eq!(n, 633);
    let text = std::fs::read_to_string(shared("data/grapheval/relation_templates.tsv")).unwrap();
    for line in text.lines().skip(1) {
        let rel = line.split('\t').next().unwrap();
        let t = set
            .find(&format!("http://dbpedia.org/ontology/{rel}"), rel)
            .expect("imported");
        let s = questions::templates::fill(&t.statement, "HEAD", "TAIL");
        assert!(
            s.contains("HEAD")
                && s.contains("TAIL")
                && !s.contains("{head}")
                && !s.contains("{tail}"),
            "{rel}: {s}"
        );
        let q = questions::templates::fill(&t.question, "HEAD", "TAIL");
        assert!(q.contains("HEAD") && !q.contains("{head}"), "{rel}: {q}");
        let y = questions::templates::fill(&t.yesno(), "HEAD", "TAIL");
        assert!(y.ends_with('?') && y.contains("TAIL"), "{rel}: {y}");
    }
    let mut lama = TemplateSet::default();
    assert_eq!(
        lama.add_file(&shared("data/lama/trex_relations.jsonl"))
            .unwrap(),
        41
    );
    let t = lama
        .find(
            "http://www.wikidata.org/prop/direct/P103",
            "native language",
        )
        .unwrap();
    assert_eq!(
        questions::templates::fill(&t.statement, "Ada", "English"),
        "The native language of Ada is English."
    );
}

/// The index of a local KG is built from one scan of its quads, no query: the same index, to
/// its fingerprint, as the queries build, on every sample KG and on a store with named graphs
/// and dated reifications.
#[test]
fn a_scan_of_the_store_builds_the_index_the_queries_build() {
    let mut specs: Vec<String> = kgscope::kg::samples::names()
        .iter()
        .map(|n| format!("sample:{n}"))
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    let trig = tmp.path().join("g.trig");
    std::fs::write(
        &trig,
        r#"@prefix ex: <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
@prefix skos: <http://www.w3.org/2004/02/skos/core#> .
ex:g1 { ex:curie ex:discovered ex:radium ; rdfs:label "Marie Curie"@en , "Maria Skłodowska"@pl ; a ex:Person .
        _:st rdf:subject ex:curie ; rdf:predicate ex:discovered ; rdf:object ex:radium ; ex:when "1898-12-26"^^xsd:date . }
ex:g2 { ex:curie ex:discovered ex:radium ; skos:altLabel "Madame Curie" . ex:radium rdfs:label "radium" ; a ex:Element . }
"#,
    )
    .unwrap();
    specs.push(trig.to_str().unwrap().to_string());
    for spec in specs {
        let kg = kgscope::kg::open(&spec).unwrap();
        // The scan and these queries are the generic profile's two ways in; a KG in
        // Wikidata's model is read from its triples under its own profile either way
        // (tests/endpoint_profiles.rs compares a file with an endpoint serving it).
        if !kgscope::kg::profile::detect(kg.as_ref())
            .unwrap()
            .is_generic()
        {
            continue;
        }
        assert!(kg.index_rows().is_some(), "{spec}: not scanned");
        let scanned = KgIndex::build(kg.as_ref(), &|_| {}).unwrap();
        let queried = KgIndex::build_by_queries(kg.as_ref(), &|_| {}).unwrap();
        assert_eq!(scanned.fingerprint(), queried.fingerprint(), "{spec}");
        assert_eq!(scanned.facts(), queried.facts(), "{spec}");
        assert_eq!(
            scanned.relations().len(),
            queried.relations().len(),
            "{spec}"
        );
    }
}

/// A store keeps its index beside it: the next open reads it back (the same index: same
/// questions for every method made up front), a store changed since (more loaded into it)
/// gets a new one, and a damaged file is built again, never read.
#[test]
fn a_store_keeps_its_index_until_the_store_changes() {
    use kgscope::kg::index_file::Slot;
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let load = |file: &str| {
        let ttl = root().join("sample-kgs").join(file);
        load_store(&ttl, &store);
    };
    load("countries.ttl");
    let questions = |index: &KgIndex| -> Vec<String> {
        [
            Task::Statement,
            Task::Yesno,
            Task::McqWh,
            Task::Saq,
            Task::KgFpq,
        ]
        .into_iter()
        .flat_map(|task| {
            let opts = GenerateOptions {
                task,
                limit: 40,
                ..GenerateOptions::default()
            };
            kgscope::method::generate(index, &TemplateSet::builtin(), &opts)
                .unwrap()
                .0
        })
        .map(|q| serde_json::to_string(&q).unwrap())
        .collect()
    };
    let kg = kg::open(store.to_str().unwrap()).unwrap();
    let slot = Slot::for_store(&store).unwrap();
    assert!(slot.load().unwrap().is_none(), "nothing saved yet");
    let built = index(kg.as_ref());
    assert!(slot.path.is_file(), "not saved beside the store");
    let read = slot.load().unwrap().expect("read back");
    assert_eq!(read.fingerprint(), built.fingerprint());
    assert_eq!(read.facts(), built.facts());
    assert_eq!(questions(&read), questions(&built));
    let reopened = index(kg::open(store.to_str().unwrap()).unwrap().as_ref());
    assert_eq!(reopened.fingerprint(), built.fingerprint());
    drop(kg);

    load("elements.ttl");
    let slot = Slot::for_store(&store).unwrap();
    assert!(
        slot.load().unwrap().is_none(),
        "saved for the store as it was"
    );
    let grown = index(kg::open(store.to_str().unwrap()).unwrap().as_ref());
    assert!(grown.facts().len() > built.facts().len());
    assert_eq!(
        slot.load().unwrap().unwrap().fingerprint(),
        grown.fingerprint()
    );

    let saved = std::fs::read(&slot.path).unwrap();
    std::fs::write(&slot.path, &saved[..saved.len() / 2]).unwrap();
    assert!(slot.load().is_err(), "a damaged file is reported");
    let rebuilt = index(kg::open(store.to_str().unwrap()).unwrap().as_ref());
    assert_eq!(rebuilt.fingerprint(), grown.fingerprint());
    assert!(slot.load().unwrap().is_some(), "saved again whole");
}

/// A load is all or nothing without a checking pass: a syntax error after more statements
/// than the bulk loader's batch (so sorted files were already written beside the store) still
/// leaves the store as it was, and no file behind.
#[test]
fn an_error_after_a_written_batch_leaves_the_store_and_its_directory_unchanged() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let good = dir.path().join("good.nt");
    std::fs::write(
        &good,
        "<http://ex.org/a> <http://ex.org/p> <http://ex.org/b> .\n",
    )
    .unwrap();
    load_store(&good, &store);
    let files_before = walk(&store).len();
    let bad = dir.path().join("big.nt");
    let mut w = std::io::BufWriter::new(std::fs::File::create(&bad).unwrap());
    let n = 1_100_000;
    for i in 0..n {
        writeln!(w, "<http://ex.org/s{i}> <http://ex.org/p> \"{i}\" .").unwrap();
    }
    writeln!(w, "<http://ex.org/broken> <http://ex.org/p> .").unwrap();
    w.flush().unwrap();
    drop(w);
    let out = run(&[
        "kg",
        "load",
        bad.to_str().unwrap(),
        "--store",
        store.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains(&format!("big.nt:{}:", n + 1)), "{err}");
    assert!(err.contains("unchanged"), "{err}");
    let stats: serde_json::Value = serde_json::from_str(&ok(&[
        "kg",
        "stats",
        "--kg",
        store.to_str().unwrap(),
        "--json",
    ]))
    .unwrap();
    assert_eq!(stats["triples"], 1);
    let left: Vec<_> = walk(&store)
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("bulk"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    assert!(
        walk(&store).len() <= files_before + 2,
        "files left in the store"
    );
}

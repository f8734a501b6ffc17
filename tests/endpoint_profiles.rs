//! KGs in Wikidata's and DBpedia's own models served by a real `oxigraph serve` (issue 37,
//! item 4): a sample drawn from the endpoint is read under the same profile as the file, so
//! every method's questions name relations and entities by their labels and never ask about
//! the model's machinery; the same draw from the file and from the endpoint gives the same
//! questions; and an endpoint is sampled by default, never pulled whole unless asked.

use crate::common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use kgscope::core::question::FpqOptions;
use kgscope::kg::bounded::{self, Draw};
use kgscope::kg::{self, KgIndex};
use kgscope::questions::{GenerateOptions, Question, Task, TemplateSet};

const WIKIDATA: &str = "tests/data/wikidata/countries.ttl";
const DBPEDIA: &str = "tests/data/dbpedia/scientists.ttl";

/// What a command's `--kg-sample 20` draws for every method (KG-FPQ's neighbourhoods too).
fn draw() -> Draw {
    Draw::of(Some(20), &[], 3).unwrap().reaching(
        &[],
        FpqOptions::default().max_hops,
        bounded::HOP_WIDTH,
        true,
    )
}

fn questions(index: &KgIndex, task: Task) -> Vec<Question> {
    let opts = GenerateOptions {
        task,
        limit: 40,
        seed: 3,
        fpq: (task == Task::KgFpq).then(FpqOptions::default),
        ..GenerateOptions::default()
    };
    kgscope::method::generate(index, &TemplateSet::builtin(), &opts)
        .unwrap()
        .0
}

#[test]
fn a_sampled_endpoint_asks_what_the_file_asks_by_labels_never_machinery() {
    for (path, profile) in [(WIKIDATA, "wikidata"), (DBPEDIA, "dbpedia")] {
        let file = common::root().join(path);
        let server = common::oxigraph_server(&file);
        let endpoint = kg::open(&format!("{}/query", server.base)).unwrap();
        let local = kg::open(file.to_str().unwrap()).unwrap();
        let remote = bounded::build(endpoint.as_ref(), &draw(), &|_| {}).unwrap();
        let sampled = bounded::build(local.as_ref(), &draw(), &|_| {}).unwrap();
        assert_eq!(remote.profile().name, profile, "{path}");
        assert!(remote.is_sample());
        // The same draw from the file and from the endpoint: the same index.
        assert_eq!(remote.fingerprint(), sampled.fingerprint(), "{path}");
        // Its relations are the profile's, named as the whole file names them.
        let whole = KgIndex::build(local.as_ref(), &|_| {}).unwrap();
        assert!(!remote.relations().is_empty(), "{path}: no relation drawn");
        for r in remote.relations() {
            let iri = kg::term_str(remote.term(r.predicate));
            let id = whole
                .iri_id(iri)
                .unwrap_or_else(|| panic!("{path}: {iri} is no relation of the file"));
            assert_eq!(remote.label(r.predicate), whole.label(id), "{path}: {iri}");
            assert!(
                !common::looks_like_an_id(&remote.label(r.predicate)),
                "{path}: {iri}"
            );
        }
        for task in Task::ALL {
            let qs = questions(&remote, task);
            let from_file: Vec<String> = questions(&sampled, task)
                .iter()
                .map(|q| q.prompt.clone())
                .collect();
            assert_eq!(
                qs.iter().map(|q| q.prompt.clone()).collect::<Vec<_>>(),
                from_file,
                "{path} {}: the file and the endpoint asked differently",
                task.as_str()
            );
            common::assert_asked_by_labels(path, task, &qs);
        }
        // The audit's own check of model machinery, over every method's questions.
        use kgscope::questions::negatives::Corrupter;
        use kgscope::questions::{NegativesFrom, Renderer};
        let templates = TemplateSet::builtin();
        let renderer = Renderer {
            index: &remote,
            templates: &templates,
            seed: 3,
        };
        let corrupter = Corrupter::new(&renderer, NegativesFrom::default());
        let qs: Vec<Question> = Task::ALL
            .iter()
            .flat_map(|&t| questions(&remote, t))
            .collect();
        let audit = kgscope::questions::audit::audit(&renderer, &corrupter, &qs, &|_| false);
        assert_eq!(audit.model_machinery, 0, "{path}: {:?}", audit.examples);
    }
}

#[test]
fn wikidata_types_and_qualifier_years_come_through_a_sample() {
    let file = common::root().join(WIKIDATA);
    let server = common::oxigraph_server(&file);
    let endpoint = kg::open(&format!("{}/query", server.base)).unwrap();
    let index = bounded::build(endpoint.as_ref(), &draw(), &|_| {}).unwrap();
    let mut typed = 0;
    for &e in index.entities() {
        for &t in index.types_of(e) {
            let iri = kg::term_str(index.term(t));
            assert!(
                iri.starts_with("http://www.wikidata.org/entity/Q"),
                "{iri} is a type"
            );
            assert!(!common::looks_like_an_id(&index.label(t)), "type {iri}");
            typed += 1;
        }
    }
    assert!(typed > 0, "no entity of the sample is typed");
    let dated = index
        .facts()
        .iter()
        .filter(|f| index.fact_year(f).is_some())
        .count();
    assert!(
        dated > 0,
        "no fact of the sample is dated by its qualifiers"
    );
}

/// Each query a proxy passed on, logged before its answer goes.
type Queries = Arc<Mutex<Vec<String>>>;

/// A proxy to `upstream` (an `oxigraph serve` query URL) that logs every query's text.
fn logging_proxy(upstream: String) -> (String, Queries) {
    let log: Queries = Arc::default();
    let seen = log.clone();
    let server = common::body_handler_server(move |_, stream, _, body| {
        let query = String::from_utf8_lossy(body).to_string();
        let r = reqwest::blocking::Client::new()
            .post(&upstream)
            .header("Content-Type", "application/sparql-query")
            .header("Accept", "text/tab-separated-values")
            .body(body.to_vec())
            .send()
            .unwrap();
        let status = r.status().as_u16();
        let text = r.text().unwrap();
        // Logged before the answer goes: once kgscope has its answer, the log holds it.
        seen.lock().unwrap().push(query);
        let _ = stream.write_all(
            common::http(
                &format!("{status} OK"),
                "Content-Type: text/tab-separated-values\r\n",
                &text,
            )
            .as_bytes(),
        );
    });
    (server.base.replace("/v1", "/sparql"), log)
}

/// A query that reads every triple of the KG (or every fact of it): no `VALUES` list of the
/// entities at hand, no `LIMIT`, and a pattern with nothing bound.
fn reads_whole(query: &str) -> bool {
    let q = query.split_whitespace().collect::<Vec<_>>().join(" ");
    !q.contains("VALUES") && !q.contains("LIMIT") && !q.contains("COUNT(") && q.contains("?s ?p ?o")
}

fn questions_cli(endpoint: &str, extra: &[&str]) -> std::process::Output {
    common::bin()
        .args([
            "questions",
            "--kg",
            endpoint,
            "--task",
            "statement",
            "--limit",
            "5",
        ])
        .args(["--seed", "3", "--no-sparql-cache"])
        .args(extra)
        .env_remove("KGSCOPE_SPARQL_CACHE")
        .env_remove("KGSCOPE_SPARQL_RATE")
        .output()
        .unwrap()
}

#[test]
fn an_endpoint_is_sampled_by_default_and_read_whole_only_when_asked() {
    let file = common::root().join(WIKIDATA);
    let server = common::oxigraph_server(&file);
    let (endpoint, log) = logging_proxy(format!("{}/query", server.base));

    let out = questions_cli(&endpoint, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("sample of 100 facts per relation") && stderr.contains("--kg-whole"),
        "the default sample is not said: {stderr}"
    );
    let sampled: Vec<String> = std::mem::take(&mut *log.lock().unwrap());
    assert!(!sampled.is_empty());
    for q in &sampled {
        assert!(!reads_whole(q), "a sampled read pulled the KG whole: {q}");
    }
    // The relation list comes from the property entities, not from a count over every triple.
    assert!(
        sampled.iter().any(|q| q.contains("wikibase:directClaim")
            || q.contains("<http://wikiba.se/ontology#directClaim>")),
        "{sampled:#?}"
    );
    assert!(
        !sampled
            .iter()
            .any(|q| q.contains("GROUP BY ?p") && !q.contains("VALUES")),
        "{sampled:#?}"
    );

    let out = questions_cli(&endpoint, &["--kg-whole"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("sample of"), "{stderr}");
    let whole = log.lock().unwrap().clone();
    assert!(
        whole.iter().any(|q| reads_whole(q)),
        "--kg-whole read no whole KG: {whole:#?}"
    );

    // Both at once is a contradiction, refused.
    let out = questions_cli(&endpoint, &["--kg-whole", "--kg-sample", "5"]);
    assert!(!out.status.success());
}

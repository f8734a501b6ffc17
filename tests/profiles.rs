//! KG profiles (issue 37) on KGs in Wikidata's and DBpedia's own data models: the profile is
//! detected from the data, the facts are the model's facts (truthy claims; ontology
//! properties) named by their labels, its machinery (statement, value and page nodes,
//! property entities, page metadata, ontology axioms) never becomes a question, and types and
//! years come from where the model keeps them.

use crate::common;

use kgscope::core::question::FpqOptions;
use kgscope::kg::profile::{self, shape::reason, Profile};
use kgscope::kg::{self, KgIndex, KnowledgeGraph};
use kgscope::questions::{GenerateOptions, Question, Task, TemplateSet};

const WIKIDATA: &str = "tests/data/wikidata/countries.ttl";
const DBPEDIA: &str = "tests/data/dbpedia/scientists.ttl";

fn open(path: &str) -> (Box<dyn KnowledgeGraph>, KgIndex) {
    let path = common::root().join(path);
    let kg = kg::open(path.to_str().unwrap()).unwrap();
    let index = KgIndex::build(kg.as_ref(), &|_| {}).unwrap();
    (kg, index)
}

#[test]
fn the_profile_is_detected_from_the_data() {
    for (path, name) in [(WIKIDATA, "wikidata"), (DBPEDIA, "dbpedia")] {
        let (kg, index) = open(path);
        assert_eq!(profile::detect(kg.as_ref()).unwrap().name, name, "{path}");
        assert_eq!(index.profile().name, name);
    }
    for sample in ["sample:countries", "sample:elements", "sample:nba"] {
        let kg = kg::open(sample).unwrap();
        assert!(
            profile::detect(kg.as_ref()).unwrap().is_generic(),
            "{sample}"
        );
    }
}

#[test]
fn the_generic_profile_builds_the_index_it_always_did() {
    // The same fingerprint with the profile given as without: the samples' questions and
    // their ids do not move.
    let kg = kg::open("sample:countries").unwrap();
    let detected = KgIndex::build(kg.as_ref(), &|_| {}).unwrap();
    let given = KgIndex::build_fresh_with(kg.as_ref(), &Profile::generic(), &|_| {}).unwrap();
    assert_eq!(detected.fingerprint(), given.fingerprint());
    // Read under another profile, the same KG is another index.
    let other = KgIndex::build_fresh_with(kg.as_ref(), &Profile::dbpedia(), &|_| {}).unwrap();
    assert_ne!(detected.fingerprint(), other.fingerprint());
}

#[test]
fn wikidata_facts_are_truthy_claims_named_by_their_property_entities() {
    let (kg, index) = open(WIKIDATA);
    assert!(!index.relations().is_empty());
    for r in index.relations() {
        let iri = kg::term_str(index.term(r.predicate));
        assert!(
            iri.starts_with("http://www.wikidata.org/prop/direct/"),
            "{iri} is not a truthy claim"
        );
        let name = index.label(r.predicate);
        assert!(!common::looks_like_an_id(&name), "{iri} is named {name}");
    }
    for &e in index.entities() {
        let iri = kg::term_str(index.term(e));
        assert!(!common::model_machinery(iri), "{iri} is an entity");
    }
    // Only the asked property types: no identifier, URL, media or coordinate relation.
    let (_, left_out) =
        KgIndex::build_profiled(kg.as_ref(), &Profile::wikidata(), &|_| {}).unwrap();
    let types: Vec<&String> = left_out
        .0
        .keys()
        .filter(|k| k.starts_with(reason::PROPERTY_TYPE))
        .collect();
    assert!(
        types.iter().any(|k| k.ends_with("ExternalId")),
        "no external identifier left out: {:?}",
        left_out.0.keys().collect::<Vec<_>>()
    );
    for k in &types {
        for asked in [
            "WikibaseItem",
            "Quantity",
            " Time",
            " String",
            "Monolingualtext",
        ] {
            assert!(!k.ends_with(asked), "{k} left out");
        }
    }
}

#[test]
fn wikidata_types_are_the_most_specific_readable_classes() {
    let (_, index) = open(WIKIDATA);
    let mut typed = 0;
    for &e in index.entities() {
        for &t in index.types_of(e) {
            let iri = kg::term_str(index.term(t));
            assert!(
                iri.starts_with("http://www.wikidata.org/entity/Q"),
                "{iri} is a type"
            );
            let name = index.label(t);
            assert!(
                !common::looks_like_an_id(&name),
                "type {iri} is named {name}"
            );
            typed += 1;
        }
    }
    assert!(typed > 0);
}

#[test]
fn wikidata_years_come_from_the_statements_qualifiers() {
    let (_, index) = open(WIKIDATA);
    let population = index
        .iri_id("http://www.wikidata.org/prop/direct/P1082")
        .expect("population is a relation");
    let dated: Vec<i32> = index
        .facts_of_predicate(population)
        .iter()
        .filter_map(|&i| index.fact_year(&index.facts()[i]))
        .collect();
    assert!(
        !dated.is_empty(),
        "no population is dated by its point in time"
    );
    assert!(dated.iter().all(|y| (1900..=2030).contains(y)), "{dated:?}");
}

#[test]
fn wikidata_deprecated_statements_are_never_facts() {
    let (kg, index) = open(WIKIDATA);
    // Every deprecated statement's (subject, property, value), checked against the index.
    let rows = kg
        .select(
            "PREFIX wikibase: <http://wikiba.se/ontology#> \
             SELECT ?s ?p ?v WHERE { ?st wikibase:rank wikibase:DeprecatedRank . ?s ?claim ?st . \
             ?prop wikibase:claim ?claim ; wikibase:directClaim ?p ; wikibase:statementProperty ?ps . \
             ?st ?ps ?v . FILTER NOT EXISTS { ?s ?claim ?other . ?other ?ps ?v . \
             FILTER(?other != ?st) FILTER NOT EXISTS { ?other wikibase:rank wikibase:DeprecatedRank } } }",
            &["s", "p", "v"],
        )
        .unwrap();
    assert!(!rows.is_empty(), "the fixture has a deprecated statement");
    for r in rows {
        let ids: Vec<Option<u32>> = r.iter().map(|t| index.id(t.as_ref().unwrap())).collect();
        if let [Some(s), Some(p), Some(o)] = ids[..] {
            assert!(!index.contains(&[s, p, o]), "{r:?} is a fact");
        }
    }
}

#[test]
fn dbpedia_facts_are_ontology_properties_without_page_metadata() {
    let (kg, index) = open(DBPEDIA);
    assert!(!index.relations().is_empty());
    let metadata = Profile::dbpedia().metadata.predicates;
    for r in index.relations() {
        let iri = kg::term_str(index.term(r.predicate));
        assert!(iri.starts_with("http://dbpedia.org/ontology/"), "{iri}");
        assert!(!metadata.iter().any(|m| m == iri), "{iri} is metadata");
    }
    for &e in index.entities() {
        let iri = kg::term_str(index.term(e));
        assert!(
            iri.starts_with("http://dbpedia.org/resource/"),
            "{iri} is an entity"
        );
        for &t in index.types_of(e) {
            let class = kg::term_str(index.term(t));
            assert!(
                class.starts_with("http://dbpedia.org/ontology/"),
                "{class} is a type"
            );
            // The most specific: no other type of the entity is a subclass of it.
            for &u in index.types_of(e) {
                let below = format!(
                    "SELECT (1 AS ?x) WHERE {{ {} <http://www.w3.org/2000/01/rdf-schema#subClassOf>+ {} }}",
                    index.term(u),
                    index.term(t)
                );
                assert!(
                    u == t || kg.select(&below, &["x"]).unwrap().is_empty(),
                    "{iri}: {class} and its subclass {}",
                    index.label(u)
                );
            }
        }
    }
}

#[test]
fn dbpedia_raw_properties_only_when_asked_for() {
    let path = common::root().join(DBPEDIA);
    let kg = kg::open(path.to_str().unwrap()).unwrap();
    let raw = kg
        .select(
            "SELECT DISTINCT ?p WHERE { ?s ?p ?o . FILTER(STRSTARTS(STR(?p), \"http://dbpedia.org/property/\")) } ORDER BY ?p LIMIT 1",
            &["p"],
        )
        .unwrap();
    let Some(Some(p)) = raw.first().map(|r| r[0].clone()) else {
        panic!("the fixture has no dbp: property");
    };
    let p = kg::term_str(&p).to_string();
    let plain = KgIndex::build_fresh_with(kg.as_ref(), &Profile::dbpedia(), &|_| {}).unwrap();
    assert!(plain
        .iri_id(&p)
        .is_none_or(|id| plain.facts_of_predicate(id).is_empty()));
    let asked = Profile::dbpedia().with_asked(&[p.clone()]);
    let with = KgIndex::build_fresh_with(kg.as_ref(), &asked, &|_| {}).unwrap();
    let id = with.iri_id(&p).unwrap();
    assert!(!with.facts_of_predicate(id).is_empty(), "{p} not asked");
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
fn every_method_asks_about_labelled_entities_and_relations_never_machinery() {
    for path in [WIKIDATA, DBPEDIA] {
        let (_, index) = open(path);
        for task in Task::ALL {
            common::assert_asked_by_labels(path, task, &questions(&index, task));
        }
    }
}

#[test]
fn the_audit_finds_no_question_about_model_machinery_on_either_model() {
    use kgscope::questions::negatives::Corrupter;
    use kgscope::questions::{NegativesFrom, Renderer};
    let templates = TemplateSet::builtin();
    for path in [WIKIDATA, DBPEDIA] {
        let (_, index) = open(path);
        let renderer = Renderer {
            index: &index,
            templates: &templates,
            seed: 3,
        };
        let corrupter = Corrupter::new(&renderer, NegativesFrom::default());
        let mut qs = Vec::new();
        for task in Task::ALL {
            qs.extend(questions(&index, task));
        }
        let audit = kgscope::questions::audit::audit(&renderer, &corrupter, &qs, &|_| false);
        assert!(
            audit.questions > 50,
            "{path}: {} questions",
            audit.questions
        );
        assert_eq!(audit.model_machinery, 0, "{path}: {:?}", audit.examples);
    }
}

#[test]
fn the_audit_counts_questions_about_machinery_when_a_kg_is_misread() {
    // The Wikidata-model KG read as if it were written for kgscope: its statement nodes and
    // page metadata become questions, and the audit says so.
    use kgscope::questions::negatives::Corrupter;
    use kgscope::questions::{NegativesFrom, Renderer};
    let path = common::root().join(WIKIDATA);
    let kg = kg::open(path.to_str().unwrap()).unwrap();
    let index = KgIndex::build_fresh_with(kg.as_ref(), &Profile::generic(), &|_| {}).unwrap();
    let templates = TemplateSet::builtin();
    let renderer = Renderer {
        index: &index,
        templates: &templates,
        seed: 3,
    };
    let corrupter = Corrupter::new(&renderer, NegativesFrom::default());
    let qs = questions(&index, Task::Statement);
    let audit = kgscope::questions::audit::audit(&renderer, &corrupter, &qs, &|_| false);
    assert!(audit.model_machinery > 0, "{:?}", audit.examples);
}

/// The `iri = … label = …` pairs of a built-in template file (the entries for one kind of
/// subject or object, which reword a labelled one, have no label of their own).
fn template_labels(file: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(common::root().join("assets/templates").join(file)).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap();
    doc["relation"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r.get("label").is_some())
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap().to_string();
            (s("iri"), s("label"))
        })
        .collect()
}

#[test]
fn every_relation_of_both_models_has_a_template_written_for_its_property() {
    let templates = TemplateSet::builtin();
    for (path, file) in [(WIKIDATA, "wikidata.toml"), (DBPEDIA, "dbpedia.toml")] {
        let (_, index) = open(path);
        let written = template_labels(file);
        let mut seen = 0;
        for p in index.relations().iter().map(|r| r.predicate) {
            let (iri, label) = (kg::term_str(index.term(p)).to_string(), index.label(p));
            assert!(
                templates.find(&iri, &label).is_some(),
                "{path}: no template for {iri} ({label})"
            );
            // The template was written for this property: the label it was written from is
            // the one the KG gives the property (a wrong id would name another property).
            let (_, theirs) = written
                .iter()
                .find(|(i, _)| *i == iri)
                .unwrap_or_else(|| panic!("{path}: {iri} is not in {file}"));
            assert_eq!(theirs, &label, "{path}: {iri}");
            seen += 1;
        }
        assert!(seen >= 10, "{path}: {seen} relations");
    }
}

#[test]
fn questions_on_both_models_read_as_english_sentences() {
    for path in [WIKIDATA, DBPEDIA] {
        let (_, index) = open(path);
        for task in Task::ALL {
            for q in questions(&index, task) {
                let p = &q.prompt;
                let words: Vec<&str> = p.split_whitespace().collect();
                // "the member of of Spain", "the is primary topic of of …"
                assert!(
                    !words.windows(2).any(|w| w[0] == w[1] && w[0].len() > 1),
                    "{path} {}: {p}",
                    task.as_str()
                );
                // No relation label in camel case or an ISO date left raw in a sentence.
                assert!(
                    !words.iter().any(|w| w.starts_with(char::is_lowercase)
                        && w.chars().skip(1).any(char::is_uppercase)),
                    "{path} {}: {p}",
                    task.as_str()
                );
                let iso_date = |w: &&str| {
                    let w = w.trim_matches(|c: char| !c.is_ascii_digit());
                    w.len() == 10 && w.as_bytes()[4] == b'-' && w.as_bytes()[7] == b'-'
                };
                assert!(!words.iter().any(iso_date), "{path} {}: {p}", task.as_str());
                assert!(
                    !p.starts_with(|c: char| c.is_lowercase()),
                    "{path} {}: {p}",
                    task.as_str()
                );
            }
        }
    }
}

/// A KG in YAGO's model (schema.org properties, `owl:sameAs` links, images, a class
/// hierarchy), read under the profile file shipped for it: no code knows YAGO.
#[test]
fn a_profile_file_describes_a_kg_no_built_in_profile_knows() {
    let tmp = tempfile::tempdir().unwrap();
    let ttl = tmp.path().join("yago.ttl");
    std::fs::write(
        &ttl,
        r#"@prefix yago: <http://yago-knowledge.org/resource/> . @prefix schema: <http://schema.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> . @prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
yago:Marie_Curie a schema:Person, yago:Scientist ; rdfs:label "Marie Curie"@en, "Marie Curie"@fr ;
  rdfs:comment "Polish and naturalised-French physicist and chemist"@en ;
  schema:alternateName "Maria Salomea Skłodowska"@en ;
  schema:birthPlace yago:Warsaw ; schema:spouse yago:Pierre_Curie ;
  schema:birthDate "1867-11-07"^^xsd:date ;
  schema:image <http://commons.wikimedia.org/wiki/Special:FilePath/Marie_Curie_c1920.jpg> ;
  schema:url <https://www.nobelprize.org/prizes/physics/1903/marie-curie/> ;
  owl:sameAs <http://www.wikidata.org/entity/Q7186> .
yago:Pierre_Curie a yago:Scientist ; rdfs:label "Pierre Curie"@en ; schema:birthPlace yago:Paris .
yago:Warsaw a schema:City ; rdfs:label "Warsaw"@en ; schema:containedInPlace yago:Poland .
yago:Paris a schema:City ; rdfs:label "Paris"@en ; schema:containedInPlace yago:France .
yago:Poland a schema:Country ; rdfs:label "Poland"@en .
yago:France a schema:Country ; rdfs:label "France"@en .
yago:Scientist rdfs:subClassOf schema:Person ; rdfs:label "scientist"@en .
schema:Person rdfs:label "person"@en . schema:City rdfs:label "city"@en . schema:Country rdfs:label "country"@en .
"#,
    )
    .unwrap();
    let file = common::root().join("profiles/yago.toml");
    let profile = Profile::named(file.to_str().unwrap()).unwrap();
    assert_eq!(profile.name, "yago");
    let kg = kg::open(ttl.to_str().unwrap()).unwrap();
    // Nothing in it names a built-in model: detected, it would be read as generic.
    assert_eq!(profile::detect(kg.as_ref()).unwrap().name, "generic");
    let index = KgIndex::build_with(kg.as_ref(), &profile, &|_| {}).unwrap();
    let mut relations: Vec<String> = index
        .relations()
        .iter()
        .map(|r| kg::term_str(index.term(r.predicate)).to_string())
        .collect();
    relations.sort();
    assert_eq!(
        relations,
        [
            "http://schema.org/birthDate",
            "http://schema.org/birthPlace",
            "http://schema.org/containedInPlace",
            "http://schema.org/spouse",
        ]
    );
    let curie = index
        .iri_id("http://yago-knowledge.org/resource/Marie_Curie")
        .unwrap();
    // The most specific type: scientist, not person.
    let types: Vec<String> = index
        .types_of(curie)
        .iter()
        .map(|&t| index.label(t))
        .collect();
    assert_eq!(types, ["scientist"]);
    assert!(index
        .aliases_of(curie)
        .iter()
        .any(|a| a == "Maria Salomea Skłodowska"));
    for q in questions(&index, Task::Saq) {
        assert!(!q.prompt.contains("://"), "{}", q.prompt);
        assert!(!common::model_machinery(&q.object), "{}", q.prompt);
    }
    let qs = questions(&index, Task::Statement);
    assert!(
        qs.iter().any(|q| q.prompt.contains("Marie Curie")),
        "{:?}",
        qs.iter().map(|q| &q.prompt).collect::<Vec<_>>()
    );
}

/// `--lang de`: names in German where the KG has them, else Wikidata's `mul`, else English;
/// a description in German where there is one.
#[test]
fn names_come_in_the_runs_language_with_muls_and_englishs_fallback() {
    let path = common::root().join(WIKIDATA);
    let kg = kg::open(path.to_str().unwrap()).unwrap();
    let german = Profile::wikidata().with_lang(Some("de"));
    assert_eq!(german.languages(), ["de", "mul", "en"]);
    let index = KgIndex::build_with(kg.as_ref(), &german, &|_| {}).unwrap();
    let label = |q: &str| {
        let id = index
            .iri_id(&format!("http://www.wikidata.org/entity/{q}"))
            .unwrap_or_else(|| panic!("{q} not an entity"));
        index.label(id)
    };
    assert_eq!(label("Q39"), "Schweiz");
    assert_eq!(label("Q142"), "Frankreich");
    // Berlin has no German label here, but a `mul` one.
    assert_eq!(label("Q64"), "Berlin");
    let english = KgIndex::build_with(kg.as_ref(), &Profile::wikidata(), &|_| {}).unwrap();
    let q39 = english
        .iri_id("http://www.wikidata.org/entity/Q39")
        .unwrap();
    assert_eq!(english.label(q39), "Switzerland");
    // Another language is another index, never mistaken for this one.
    assert_ne!(index.fingerprint(), english.fingerprint());
}

//! The built-in profiles, as data.

use super::super::vocab;
use super::{Facts, Metadata, Names, Popularity, Profile, Qualifiers, Types, Wikibase};

pub(super) const DBO: &str = "http://dbpedia.org/ontology/";
const DBP: &str = "http://dbpedia.org/property/";
const DBR: &str = "http://dbpedia.org/resource/";
const RDFS: &str = "http://www.w3.org/2000/01/rdf-schema#";
const OWL: &str = "http://www.w3.org/2002/07/owl#";
const FOAF: &str = "http://xmlns.com/foaf/0.1/";
const PROV: &str = "http://www.w3.org/ns/prov#";
const WIKIBASE: &str = "http://wikiba.se/ontology#";
const SCHEMA: &str = "http://schema.org/";
const WD: &str = "http://www.wikidata.org/entity/";
const WDT: &str = "http://www.wikidata.org/prop/direct/";
const PQ: &str = "http://www.wikidata.org/prop/qualifier/";

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// kgscope's own vocabulary ([`vocab`]): every predicate but names, types, descriptions and
/// reification is a fact; any date on a reified statement dates its fact.
pub(super) fn generic() -> Profile {
    Profile {
        name: "generic".into(),
        facts: Facts::default(),
        names: Names {
            labels: strings(&vocab::LABELS),
            aliases: strings(&vocab::ALIASES),
            descriptions: strings(&vocab::DESCRIPTIONS),
            lang: None,
            fallbacks: vec![],
        },
        types: Types {
            predicates: strings(&vocab::TYPES),
            subclass: None,
            namespaces: vec![],
        },
        qualifiers: Qualifiers::default(),
        popularity: Popularity::default(),
        metadata: Metadata {
            predicates: strings(&vocab::REIFICATION),
            namespaces: vec![],
            classes: vec![],
        },
        wikibase: None,
        asked: vec![],
    }
}

/// Wikidata as its RDF dumps and query service give it: truthy `wdt:` claims are the facts;
/// statements (`p:`/`ps:`/`pq:`), value nodes, references, page nodes and property entities
/// are the machinery around them.
pub(super) fn wikidata() -> Profile {
    Profile {
        name: "wikidata".into(),
        facts: Facts {
            namespaces: strings(&[WDT]),
            include: vec![],
            on_request: vec![],
            entity_namespaces: strings(&[WD]),
        },
        names: Names {
            labels: strings(&[
                vocab::RDFS_LABEL,
                vocab::SKOS_PREF_LABEL,
                vocab::SCHEMA_NAME,
            ]),
            aliases: strings(&[vocab::SKOS_ALT_LABEL]),
            descriptions: strings(&[vocab::SCHEMA_DESCRIPTION]),
            lang: None,
            fallbacks: strings(&["mul", "en"]),
        },
        types: Types {
            predicates: strings(&[vocab::WD_INSTANCE_OF]),
            subclass: Some(format!("{WDT}P279")),
            namespaces: strings(&[WD]),
        },
        qualifiers: Qualifiers {
            point_in_time: vec![format!("{PQ}P585")],
            start: vec![format!("{PQ}P580")],
            end: vec![format!("{PQ}P582")],
        },
        popularity: Popularity {
            about: Some(format!("{SCHEMA}about")),
            sitelinks: Some(format!("{WIKIBASE}sitelinks")),
            statements: Some(format!("{WIKIBASE}statements")),
            identifiers: Some(format!("{WIKIBASE}identifiers")),
        },
        metadata: Metadata {
            predicates: strings(&[
                vocab::RDF_TYPE,
                "http://schema.org/version",
                "http://schema.org/dateModified",
                "http://schema.org/isPartOf",
                "http://schema.org/inLanguage",
                "http://www.w3.org/2002/07/owl#sameAs",
            ]),
            namespaces: strings(&[
                WIKIBASE,
                "http://www.wikidata.org/entity/statement/",
                "http://www.wikidata.org/value/",
                "http://www.wikidata.org/reference/",
                "https://www.wikidata.org/wiki/Special:EntityData/",
                "http://www.wikidata.org/prop/",
                "http://www.wikidata.org/.well-known/genid/",
                PROV,
                OWL,
            ]),
            classes: strings(&[
                &format!("{WIKIBASE}Item"),
                &format!("{WIKIBASE}Property"),
                &format!("{WIKIBASE}Statement"),
                &format!("{WIKIBASE}BestRank"),
                &format!("{WIKIBASE}Reference"),
                "http://schema.org/Article",
                "http://schema.org/Dataset",
            ]),
        },
        wikibase: Some(Wikibase {
            entity: WD.into(),
            direct: WDT.into(),
            claim: "http://www.wikidata.org/prop/".into(),
            statement: "http://www.wikidata.org/prop/statement/".into(),
            statement_value: "http://www.wikidata.org/prop/statement/value/".into(),
            asked_property_types: [
                "WikibaseItem",
                "Quantity",
                "Time",
                "String",
                "Monolingualtext",
            ]
            .iter()
            .map(|t| format!("{WIKIBASE}{t}"))
            .collect(),
        }),
        asked: vec![],
    }
}

/// DBpedia as its dumps and endpoint give it: the ontology's `dbo:` properties are the
/// facts; raw infobox `dbp:` properties only when asked for; page and provenance metadata
/// and the ontology's axioms never.
pub(super) fn dbpedia() -> Profile {
    let dbo = |l: &str| format!("{DBO}{l}");
    Profile {
        name: "dbpedia".into(),
        facts: Facts {
            namespaces: strings(&[DBO]),
            include: vec![],
            on_request: strings(&[DBP]),
            entity_namespaces: strings(&[DBR]),
        },
        names: Names {
            labels: strings(&[vocab::RDFS_LABEL]),
            aliases: vec![format!("{FOAF}name"), vocab::SKOS_ALT_LABEL.into()],
            descriptions: vec![dbo("abstract"), vocab::RDFS_COMMENT.into()],
            lang: None,
            fallbacks: strings(&["en"]),
        },
        types: Types {
            predicates: strings(&[vocab::RDF_TYPE]),
            subclass: Some(format!("{RDFS}subClassOf")),
            namespaces: strings(&[DBO]),
        },
        qualifiers: Qualifiers::default(),
        popularity: Popularity::default(),
        metadata: Metadata {
            predicates: [
                "wikiPageWikiLink",
                "wikiPageWikiLinkText",
                "wikiPageID",
                "wikiPageRevisionID",
                "wikiPageExternalLink",
                "wikiPageRedirects",
                "wikiPageDisambiguates",
                "wikiPageLength",
                "wikiPageOutDegree",
                "wikiPageInterLanguageLink",
                "abstract",
                "thumbnail",
            ]
            .iter()
            .map(|l| dbo(l))
            .chain(
                [
                    format!("{FOAF}depiction"),
                    format!("{FOAF}isPrimaryTopicOf"),
                    format!("{FOAF}primaryTopic"),
                    format!("{PROV}wasDerivedFrom"),
                    format!("{OWL}sameAs"),
                    "http://purl.org/dc/terms/subject".into(),
                    format!("{RDFS}seeAlso"),
                    format!("{RDFS}domain"),
                    format!("{RDFS}range"),
                    format!("{RDFS}subPropertyOf"),
                    format!("{RDFS}isDefinedBy"),
                ]
                .into_iter(),
            )
            .collect(),
            namespaces: strings(&[OWL, PROV]),
            classes: vec![format!("{OWL}Thing")],
        },
        wikibase: None,
        asked: vec![],
    }
}

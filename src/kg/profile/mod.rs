//! KG profiles: what a KG's predicates mean to kgscope.
//!
//! A profile is data — predicate IRIs, namespaces and a few rules — that says which triples
//! are facts a question can ask about, which give an entity's labels, aliases, description,
//! types and popularity, which qualify a fact with a date, and which are metadata (pages,
//! provenance, ontology axioms, statement and value nodes) that never become a question, an
//! entity, a type or an Explore edge. It is applied to the rows the index is built from
//! ([`shape`]), so a file, a store and (through bounded queries built from the same lists) an
//! endpoint read a KG the same way.
//!
//! Built-ins: `generic` (kgscope's own vocabulary, [`super::vocab`]: the sample KGs),
//! `wikidata` (Wikibase's RDF dump format) and `dbpedia` (the DBpedia ontology's dumps); a
//! TOML file describes any other KG. Without `--profile`, [`detect`] picks one from the data.

mod builtin;
pub mod shape;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{KgError, KnowledgeGraph, Result};

pub use shape::{shape, LeftOut, Shaped};

/// Which triples are facts.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Facts {
    /// Namespaces whose predicates state facts; empty: every predicate that is not metadata
    /// or a name, type, description, qualifier or counter predicate.
    pub namespaces: Vec<String>,
    /// Predicates that state facts whatever their namespace.
    pub include: Vec<String>,
    /// Namespaces whose predicates are facts only when a run names them (`--relation`): raw
    /// data that duplicates the facts (DBpedia's infobox `dbp:` properties).
    pub on_request: Vec<String>,
    /// Namespaces of entities: an IRI outside them (a URL, an image, a page) is never an
    /// entity, so a fact pointing at one is left out. Empty: any IRI.
    pub entity_namespaces: Vec<String>,
}

/// Where names and descriptions come from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Names {
    /// Label predicates, in order of preference.
    pub labels: Vec<String>,
    pub aliases: Vec<String>,
    /// Description predicates, in order of preference (KGHaluBench's entity description).
    pub descriptions: Vec<String>,
    /// The language wanted (`--lang`); `None`: English, with no filtering where the profile
    /// names no fallbacks either (kgscope's own ranking: English, untagged, any other).
    pub lang: Option<String>,
    /// Languages tried after `lang`, in order (Wikidata: `mul`, then `en`).
    pub fallbacks: Vec<String>,
}

/// Where types come from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Types {
    /// Type predicates (`rdf:type`, `wdt:P31`).
    pub predicates: Vec<String>,
    /// The subclass predicate: of an entity's types, only the most specific are kept (a
    /// type that is a superclass of another of its types is dropped). `None`: all kept.
    pub subclass: Option<String>,
    /// Namespaces of the classes that count as types; empty: any class.
    pub namespaces: Vec<String>,
}

/// Predicates of a statement's qualifiers that date its fact.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Qualifiers {
    pub point_in_time: Vec<String>,
    pub start: Vec<String>,
    pub end: Vec<String>,
}

impl Qualifiers {
    pub fn all(&self) -> impl Iterator<Item = &String> {
        self.point_in_time
            .iter()
            .chain(&self.start)
            .chain(&self.end)
    }
}

/// Counters of an entity's popularity kept on a page node about it (Wikidata's
/// `wdata:` nodes, linked by `schema:about`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Popularity {
    /// The predicate from a page node to its entity; `None`: counters are on the entity.
    pub about: Option<String>,
    pub sitelinks: Option<String>,
    pub statements: Option<String>,
    pub identifiers: Option<String>,
}

impl Popularity {
    pub fn predicates(&self) -> impl Iterator<Item = &String> {
        self.about
            .iter()
            .chain(&self.sitelinks)
            .chain(&self.statements)
            .chain(&self.identifiers)
    }
}

/// What never becomes a question, an entity, a type or an Explore edge.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Metadata {
    /// Predicates, each with no fact behind it (page links, provenance, ontology axioms).
    pub predicates: Vec<String>,
    /// Namespaces of predicates and nodes that are metadata (statement and value nodes,
    /// page nodes, the ontology's own vocabulary).
    pub namespaces: Vec<String>,
    /// Classes that are never an entity's type (`wikibase:Item`, `owl:Thing`).
    pub classes: Vec<String>,
}

/// The Wikibase RDF model ([Wikibase's RDF dump format]): truthy claims, statements with
/// ranks, qualifiers and value nodes, property entities with their types.
///
/// [Wikibase's RDF dump format]: https://www.mediawiki.org/wiki/Wikibase/Indexing/RDF_Dump_Format
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Wikibase {
    /// `wd:`: items and properties.
    pub entity: String,
    /// `wdt:`: truthy claims (the facts).
    pub direct: String,
    /// `p:`: entity → statement node.
    pub claim: String,
    /// `ps:`: statement node → value.
    pub statement: String,
    /// `psv:`: statement node → value node.
    pub statement_value: String,
    /// `wikibase:propertyType`s whose claims can be asked (the rest are left out, counted).
    pub asked_property_types: Vec<String>,
}

/// A KG profile (see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub name: String,
    #[serde(default)]
    pub facts: Facts,
    #[serde(default)]
    pub names: Names,
    #[serde(default)]
    pub types: Types,
    #[serde(default)]
    pub qualifiers: Qualifiers,
    #[serde(default)]
    pub popularity: Popularity,
    #[serde(default)]
    pub metadata: Metadata,
    #[serde(default)]
    pub wikibase: Option<Wikibase>,
    /// Relations a run names (`--relation`): facts of [`Facts::on_request`] namespaces are
    /// kept for them. Set at run time, never read from a file.
    #[serde(skip)]
    pub asked: Vec<String>,
}

/// The built-in profiles' names.
pub const BUILTIN: [&str; 3] = ["generic", "wikidata", "dbpedia"];

impl Profile {
    /// kgscope's own vocabulary: today's behaviour for KGs written for it.
    pub fn generic() -> Self {
        builtin::generic()
    }
    pub fn wikidata() -> Self {
        builtin::wikidata()
    }
    pub fn dbpedia() -> Self {
        builtin::dbpedia()
    }

    /// A built-in profile by name.
    pub fn builtin(name: &str) -> Option<Self> {
        match name {
            "generic" => Some(Self::generic()),
            "wikidata" => Some(Self::wikidata()),
            "dbpedia" => Some(Self::dbpedia()),
            _ => None,
        }
    }

    /// A profile from TOML text (`path` for messages).
    pub fn from_toml(text: &str, path: &str) -> Result<Self> {
        toml::from_str(text).map_err(|e| KgError::Invalid(format!("profile {path}: {e}")))
    }

    /// `--profile`'s value: a built-in's name or a TOML file.
    pub fn named(spec: &str) -> Result<Self> {
        if let Some(p) = Self::builtin(spec) {
            return Ok(p);
        }
        let text = std::fs::read_to_string(spec).map_err(|e| {
            KgError::NotFound(format!(
                "--profile {spec}: not a built-in profile ({}) and not a readable TOML file: {e}",
                BUILTIN.join(", ")
            ))
        })?;
        Self::from_toml(&text, spec)
    }

    /// Whether this is the generic profile as built in (with no language asked for): the
    /// index is then built exactly as before profiles existed.
    pub fn is_generic(&self) -> bool {
        // The relations a run names change nothing where no namespace waits to be asked.
        Profile {
            asked: vec![],
            ..self.clone()
        } == Self::generic()
    }

    /// A digest of everything that decides how the index is built (the name, the rules, the
    /// language and the relations asked for): part of a non-generic index's fingerprint and
    /// of its saved file's key, so an index built under one profile is never reused under
    /// another.
    pub fn key(&self) -> String {
        let mut h = Sha256::new();
        h.update(serde_json::to_string(self).unwrap_or_default().as_bytes());
        // Asked relations matter only where they can add facts (on-request namespaces).
        if !self.facts.on_request.is_empty() {
            let mut asked: Vec<&String> = self
                .asked
                .iter()
                .filter(|a| self.asked_for_any(a))
                .collect();
            asked.sort();
            asked.dedup();
            for a in asked {
                h.update(a.as_bytes());
                h.update(b"\n");
            }
        }
        hex::encode(&h.finalize()[..8])
    }

    /// The profile with the run's language (`--lang`); `None` keeps the profile's own.
    pub fn with_lang(mut self, lang: Option<&str>) -> Self {
        if let Some(l) = lang {
            self.names.lang = Some(l.to_string());
        }
        self
    }

    /// The profile with the relations a run names (`--relation`).
    pub fn with_asked(mut self, relations: &[String]) -> Self {
        self.asked = relations.to_vec();
        self
    }

    /// The languages names are taken in, most wanted first; empty: no filtering.
    pub fn languages(&self) -> Vec<String> {
        if self.names.lang.is_none() && self.names.fallbacks.is_empty() {
            return vec![];
        }
        let mut out = vec![self.names.lang.clone().unwrap_or_else(|| "en".into())];
        for f in &self.names.fallbacks {
            if !out.contains(f) {
                out.push(f.clone());
            }
        }
        out
    }

    /// Predicates that name, describe, type or count rather than state a fact.
    pub fn describing(&self) -> impl Iterator<Item = &String> {
        self.names
            .labels
            .iter()
            .chain(&self.names.aliases)
            .chain(&self.names.descriptions)
            .chain(&self.types.predicates)
            .chain(&self.types.subclass)
            .chain(self.qualifiers.all())
            .chain(self.popularity.predicates())
    }

    /// Whether an IRI (a predicate or a node) is metadata: listed as such, or in a metadata
    /// namespace and not in a fact namespace (Wikidata's `wdt:` lies inside `p:`'s).
    pub fn is_metadata(&self, iri: &str) -> bool {
        if self.metadata.predicates.iter().any(|p| p == iri) {
            return true;
        }
        if self.in_fact_namespace(iri) {
            return false;
        }
        self.metadata
            .namespaces
            .iter()
            .any(|n| iri.starts_with(n.as_str()))
    }

    /// Whether a predicate is one of the profile's facts by its namespace or by name (not
    /// counting the on-request ones).
    pub fn in_fact_namespace(&self, iri: &str) -> bool {
        self.facts.include.iter().any(|p| p == iri)
            || self
                .facts
                .namespaces
                .iter()
                .any(|n| iri.starts_with(n.as_str()))
    }

    /// Whether a run's `--relation` value can name an on-request predicate (a full IRI in an
    /// on-request namespace, or `prefix:local`).
    fn asked_for_any(&self, a: &str) -> bool {
        self.facts
            .on_request
            .iter()
            .any(|n| a.starts_with(n.as_str()))
            || (!a.contains('/') && a.contains(':'))
    }

    /// Whether a predicate of an on-request namespace was asked for by the run: by IRI, by
    /// `prefix:local` (a bare local name means the fact namespaces' relation).
    pub fn asked_for(&self, iri: &str) -> bool {
        let Some(ns) = self
            .facts
            .on_request
            .iter()
            .find(|n| iri.starts_with(n.as_str()))
        else {
            return false;
        };
        let local = &iri[ns.len()..];
        self.asked.iter().any(|a| {
            a == iri
                || a.rsplit_once(':')
                    .is_some_and(|(_, l)| l == local && !a.contains('/'))
        })
    }

    /// Whether an IRI can be an entity: in an entity namespace (when the profile names
    /// any), not metadata, not a property entity of a Wikibase.
    pub fn is_entity_iri(&self, iri: &str) -> bool {
        if self.is_metadata(iri) {
            return false;
        }
        if let Some(w) = &self.wikibase {
            if let Some(id) = iri.strip_prefix(w.entity.as_str()) {
                if is_property_id(id) {
                    return false;
                }
            }
        }
        self.facts.entity_namespaces.is_empty()
            || self
                .facts
                .entity_namespaces
                .iter()
                .any(|n| iri.starts_with(n.as_str()))
    }

    /// One line for a header: the profile's name and language.
    pub fn summary(&self) -> String {
        match &self.names.lang {
            Some(l) => format!("{} ({l})", self.name),
            None => self.name.clone(),
        }
    }
}

/// What a question must never be about, whatever profile read the KG: the kind of model
/// machinery `(s, p, o)` touches, if any — an identifier, URL, image, coordinate, statement
/// node, page node, property entity, ontology axiom or page metadata (`kgscope audit`).
/// Judged by `profile` and by the built-in Wikidata and DBpedia profiles together, so a KG
/// read under the wrong profile is caught too.
pub fn machinery(profile: &Profile, s: &str, p: &str, o: &super::Term) -> Option<&'static str> {
    const WIKIBASE: &str = "http://wikiba.se/ontology#";
    let known = [Profile::wikidata(), Profile::dbpedia()];
    let node = |iri: &str| -> Option<&'static str> {
        if iri.starts_with("http://www.wikidata.org/entity/statement/")
            || iri.starts_with("http://www.wikidata.org/value/")
            || iri.starts_with("http://www.wikidata.org/reference/")
        {
            return Some("statement or value node");
        }
        if iri.starts_with("https://www.wikidata.org/wiki/Special:EntityData/")
            || iri.contains("wikipedia.org/wiki/")
        {
            return Some("page node");
        }
        if iri
            .strip_prefix("http://www.wikidata.org/entity/")
            .is_some_and(is_property_id)
        {
            return Some("property entity");
        }
        if iri.contains("commons.wikimedia.org/") || iri.contains("/Special:FilePath/") {
            return Some("image");
        }
        if iri.starts_with(WIKIBASE) || iri.starts_with("http://www.w3.org/2002/07/owl#") {
            return Some("ontology axiom");
        }
        None
    };
    if let Some(k) = node(s).or_else(|| node(p)) {
        return Some(k);
    }
    if let super::Term::NamedNode(n) = o {
        if let Some(k) = node(n.as_str()) {
            return Some(k);
        }
    }
    let axioms = ["domain", "range", "subClassOf", "subPropertyOf"]
        .map(|l| format!("http://www.w3.org/2000/01/rdf-schema#{l}"));
    if axioms.iter().any(|a| a == p) {
        return Some("ontology axiom");
    }
    if std::iter::once(profile)
        .chain(&known)
        .any(|x| x.metadata.predicates.iter().any(|m| m == p))
        || (p.starts_with("http://www.wikidata.org/prop/")
            && !p.starts_with("http://www.wikidata.org/prop/direct/"))
    {
        return Some("page metadata");
    }
    match o {
        super::Term::Literal(l) if l.datatype().as_str().ends_with("#wktLiteral") => {
            Some("coordinate")
        }
        super::Term::NamedNode(n) if !profile.is_entity_iri(n.as_str()) => Some("URL"),
        _ => None,
    }
}

/// `P36`: a Wikibase property id.
pub(crate) fn is_property_id(id: &str) -> bool {
    id.len() > 1 && id.starts_with('P') && id[1..].bytes().all(|b| b.is_ascii_digit())
}

/// The profile the data calls for: `wikidata` where the Wikibase ontology is used,
/// `dbpedia` where entities are typed with DBpedia ontology classes, else `generic`. Two
/// `LIMIT 1` queries, so an endpoint answers them from its indexes.
pub fn detect(kg: &dyn KnowledgeGraph) -> Result<Profile> {
    const WIKIBASE: &str = "http://wikiba.se/ontology#";
    let wikibase = format!(
        "SELECT ?x WHERE {{ {{ ?x <{WIKIBASE}directClaim> ?o }} UNION {{ ?x <{WIKIBASE}rank> ?o }} \
         UNION {{ ?x <{WIKIBASE}sitelinks> ?o }} UNION {{ ?x <{WIKIBASE}propertyType> ?o }} }} LIMIT 1"
    );
    if !kg.select(&wikibase, &["x"])?.is_empty() {
        return Ok(Profile::wikidata());
    }
    let dbpedia = format!(
        "SELECT ?x WHERE {{ ?x a ?c . FILTER(STRSTARTS(STR(?c), \"{}\")) }} LIMIT 1",
        builtin::DBO
    );
    if !kg.select(&dbpedia, &["x"])?.is_empty() {
        return Ok(Profile::dbpedia());
    }
    Ok(Profile::generic())
}

/// What the command line chose: `--profile` (`None`: detect), `--lang`, and the relations a
/// run names. Process-wide, like the command line it comes from: every index the command
/// builds (`KgIndex::build`) reads the KG the same way.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relations: Vec<String>,
}

static CHOICE: std::sync::RwLock<Option<Choice>> = std::sync::RwLock::new(None);

/// Sets the command line's choice (see [`Choice`]).
pub fn set_choice(c: Choice) {
    *CHOICE.write().unwrap_or_else(|e| e.into_inner()) = Some(c);
}

/// The command line's choice; the default (detect, English) when none was set.
pub fn choice() -> Choice {
    CHOICE
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_default()
}

/// The profile the command line chose for `kg` (detected when it named none).
pub fn chosen(kg: &dyn KnowledgeGraph) -> Result<Profile> {
    let c = choice();
    choose(kg, c.profile.as_deref(), c.lang.as_deref(), &c.relations)
}

/// `--profile`'s choice (`None`: detected from the data), with the run's language and
/// relations.
pub fn choose(
    kg: &dyn KnowledgeGraph,
    spec: Option<&str>,
    lang: Option<&str>,
    relations: &[String],
) -> Result<Profile> {
    let p = match spec {
        Some(s) => Profile::named(s)?,
        None => detect(kg)?,
    };
    Ok(p.with_lang(lang).with_asked(relations))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_round_trip_through_toml() {
        for name in BUILTIN {
            let p = Profile::builtin(name).unwrap();
            let text = toml::to_string(&p).unwrap();
            assert_eq!(Profile::from_toml(&text, name).unwrap(), p, "{text}");
        }
    }

    #[test]
    fn a_file_says_what_is_wrong_and_where() {
        let e = Profile::from_toml("name = \"x\"\n[facts]\nnamespace = []\n", "my.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("my.toml") && e.contains("namespace"), "{e}");
        let e = Profile::named("/no/such.toml").unwrap_err().to_string();
        assert!(e.contains("generic, wikidata, dbpedia"), "{e}");
    }

    #[test]
    fn keys_differ_by_profile_language_and_asked_relations() {
        let g = Profile::generic();
        assert!(g.is_generic());
        assert_ne!(g.key(), Profile::wikidata().key());
        assert_ne!(
            Profile::wikidata().key(),
            Profile::wikidata().with_lang(Some("fr")).key()
        );
        let asked = Profile::dbpedia().with_asked(&["dbp:capital".into()]);
        assert_ne!(asked.key(), Profile::dbpedia().key());
        // A relation named by its label adds no raw facts: the same index.
        let named = Profile::dbpedia().with_asked(&["capital".into()]);
        assert_eq!(named.key(), Profile::dbpedia().key());
        assert!(!Profile::generic().with_lang(Some("de")).is_generic());
        assert!(Profile::generic()
            .with_asked(&["year of discovery".into()])
            .is_generic());
    }

    #[test]
    fn languages_put_the_run_s_first_then_the_fallbacks() {
        assert!(Profile::generic().languages().is_empty());
        assert_eq!(Profile::wikidata().languages(), ["en", "mul"]);
        assert_eq!(
            Profile::wikidata().with_lang(Some("fr")).languages(),
            ["fr", "mul", "en"]
        );
    }
}

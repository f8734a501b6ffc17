//! The description of a focal entity, which KGHaluBench's entity-level check compares an
//! answer with: the KG's own where it has one (the profile's description predicates in
//! order: `schema:description`, else `rdfs:comment`; DBpedia's `dbo:abstract`; English or
//! untagged first), else one rendered from the entity's facts, and which of the
//! two it is, so a run can say how many of its descriptions the KG gave.

use std::collections::HashMap;

use crate::kg::index::{Id, KgIndex};
use crate::kg::vocab::iri_list;
use crate::kg::{term_str, KgError, KnowledgeGraph, Term};
use crate::questions::templates::slots::indefinite;
use crate::questions::Renderer;

/// Facts a rendered description names at most.
const RENDERED_FACTS: usize = 8;

/// Entities named in one query.
const BATCH: usize = 200;

/// The descriptions the KG states for `entities`, by entity (an entity without one is left
/// out: its question keeps the description rendered from its facts).
pub fn stated(
    kg: &dyn KnowledgeGraph,
    index: &KgIndex,
    entities: &[Id],
) -> Result<HashMap<Id, String>, KgError> {
    let descriptions: Vec<&str> = index
        .profile()
        .names
        .descriptions
        .iter()
        .map(String::as_str)
        .collect();
    if descriptions.is_empty() {
        return Ok(HashMap::new());
    }
    let wanted = index.profile().languages();
    let mut best: HashMap<Id, ((u8, usize), String)> = HashMap::new();
    for chunk in entities.chunks(BATCH) {
        let values: String = chunk
            .iter()
            .map(|&e| format!("{} ", index.term(e)))
            .collect();
        let query = format!(
            "SELECT ?e ?p ?d WHERE {{ VALUES ?e {{ {values} }} VALUES ?p {{ {} }} ?e ?p ?d . \
             FILTER(isLiteral(?d)) }}",
            iri_list(&descriptions)
        );
        for r in kg.select(&query, &["e", "p", "d"])? {
            let (Some(e), Some(p), Some(d)) = (&r[0], &r[1], &r[2]) else {
                continue;
            };
            let Some(id) = index.id(e) else { continue };
            let lang_rank = match d {
                // The profile's languages in order (Wikidata: the run's, `mul`, English),
                // then kgscope's own ranking.
                Term::Literal(l) if !wanted.is_empty() => match l.language() {
                    Some(t) => wanted
                        .iter()
                        .position(|w| w.eq_ignore_ascii_case(t))
                        .map_or(u8::MAX, |i| i as u8),
                    None => wanted.len() as u8,
                },
                Term::Literal(l) => crate::kg::index::lang_rank(l.language()),
                _ => continue,
            };
            if lang_rank == u8::MAX {
                continue;
            }
            let pred_rank = descriptions
                .iter()
                .position(|x| *x == term_str(p))
                .unwrap_or(descriptions.len());
            let rank = (lang_rank, pred_rank);
            let text = term_str(d).trim().to_string();
            if text.is_empty() {
                continue;
            }
            let slot = best.entry(id).or_insert((rank, text.clone()));
            // The lexically first among equals: never the order of the rows.
            if (rank, &text) < (slot.0, &slot.1) {
                *slot = (rank, text);
            }
        }
    }
    Ok(best.into_iter().map(|(e, (_, t))| (e, t)).collect())
}

/// A description made of the entity's facts, in the sentences of the KG's templates, so that
/// it reads like the overview it is compared with: "Peru is a country or territory. The
/// capital of Peru is Lima. …", one fact per relation (its first object) for its first
/// relations in the index's order that are not names, codes or identifiers.
pub fn rendered(r: &Renderer<'_>, e: Id) -> String {
    let index = r.index;
    let mut sentences: Vec<String> = index
        .types_of(e)
        .iter()
        .min_by_key(|t| (index.members_of(**t).len(), **t))
        .map(|t| {
            let t = index.label(*t);
            format!("{} is {} {t}.", index.label(e), indefinite(&t))
        })
        .into_iter()
        .collect();
    let mut seen = Vec::new();
    for f in index.facts_from(e) {
        if sentences.len() > RENDERED_FACTS {
            break;
        }
        if seen.contains(&f[1]) || super::focal::is_excluded(index, f[1], &[]) {
            continue;
        }
        seen.push(f[1]);
        sentences.push(r.statement(f));
    }
    if sentences.is_empty() {
        return index.label(e);
    }
    sentences.join(" ")
}

/// The KG's description of an entity as the entity-level check compares it: after "NAME is a
/// TYPE.", as a rendered description begins, unless it names the entity first itself. The
/// paper compares with Wikidata's descriptions, short phrases that give the entity's kind
/// ("chemical element with symbol S and atomic number 16"); a KG's comment may not
/// ("Yellow, nonmetallic element belonging to group 16 …", mendeleev's for sulfur), and its
/// filter is about "the entity's domain". Measured on 27 answers of the default model that
/// named the right element, the bare comments let none of them clear 0.70, "NAME is a TYPE."
/// before them 11.
pub fn named(label: &str, entity_type: &str, text: &str) -> String {
    if text.to_lowercase().starts_with(&label.to_lowercase()) {
        return text.to_string();
    }
    format!(
        "{label} is {} {entity_type}. {text}",
        indefinite(entity_type)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(spec: &str) -> (Box<dyn KnowledgeGraph>, KgIndex) {
        let kg = crate::kg::open(spec).unwrap();
        let index = KgIndex::build(kg.as_ref(), &|_| {}).unwrap();
        (kg, index)
    }

    fn rendered_of(index: &KgIndex, e: Id) -> String {
        let templates = crate::questions::TemplateSet::builtin();
        let r = Renderer {
            index,
            templates: &templates,
            seed: 0,
        };
        rendered(&r, e)
    }

    #[test]
    fn the_kg_description_first_else_one_from_the_facts() {
        let (kg, index) = open("sample:elements");
        let actinium = index
            .entities()
            .iter()
            .copied()
            .find(|e| index.label(*e) == "actinium" || index.label(*e) == "Actinium")
            .expect("actinium");
        let d = stated(kg.as_ref(), &index, &[actinium]).unwrap();
        assert!(d[&actinium].starts_with("Silvery radioactive metallic element"));

        let (kg, index) = open("sample:countries");
        let peru = index
            .iri_id("https://kgscope.dev/kg/countries/entity/Peru")
            .unwrap();
        assert!(stated(kg.as_ref(), &index, &[peru]).unwrap().is_empty());
        let text = &rendered_of(&index, peru);
        assert!(
            text.starts_with("Peru is a country or territory. "),
            "{text}"
        );
        assert!(text.matches(". ").count() <= RENDERED_FACTS, "{text}");
        assert!(text.contains("The capital of Peru is Lima."), "{text}");
        // Codes and identifiers are left out: an overview would not list them.
        assert!(!text.contains("PE"), "{text}");
    }

    #[test]
    fn a_kg_description_is_named_unless_it_names_its_entity() {
        assert_eq!(
            named("Sulfur", "chemical element", "Yellow, nonmetallic element."),
            "Sulfur is a chemical element. Yellow, nonmetallic element."
        );
        assert_eq!(
            named("Bromine-77", "isotope", "Made in cyclotrons."),
            "Bromine-77 is an isotope. Made in cyclotrons."
        );
        assert_eq!(
            named("Sulfur", "chemical element", "sulfur is yellow."),
            "sulfur is yellow."
        );
    }

    #[test]
    fn english_is_preferred_and_the_choice_never_depends_on_row_order() {
        let kg = crate::kg::local::LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            @prefix schema: <http://schema.org/> .
            ex:a rdfs:label "A" ; ex:p ex:b ; rdfs:comment "a comment"@en ;
              schema:description "une description"@fr , "a description"@en .
            ex:b rdfs:label "B" ; rdfs:comment "b comment" , "another b comment" ."#,
            "test",
        )
        .unwrap();
        let index = KgIndex::build(&kg, &|_| {}).unwrap();
        let (a, b) = (
            index.iri_id("http://ex.org/a").unwrap(),
            index.iri_id("http://ex.org/b").unwrap(),
        );
        let d = stated(&kg, &index, &[a, b]).unwrap();
        // English first, then schema:description before rdfs:comment.
        assert_eq!(d[&a], "a description");
        // Equals: the lexically first.
        assert_eq!(d[&b], "another b comment");
    }
}

//! Answer keys as wide as the question (issue 24): what a Wh-question (Luo et al.'s SAQ,
//! KGLens' Wh) accepts besides the object's label and aliases.
//!
//! - A number is a quantity in its template's unit (`tail = { unit = "kelvin" }`): the reader
//!   takes it in any unit of that dimension and to any precision it agrees with
//!   ([`crate::verify::numbers`]).
//! - A year is also named by a season spanning it ("1946–47" for the 1947 championship). Where
//!   the relation counts seasons (its label or its question says "season"), the next year is
//!   the season's other name ("1968" for the 1967–68 first season), a judgement: a KG may count
//!   seasons by their first year in one relation and by their last in another, and a league
//!   whose season is one calendar year has no other name.
//! - Judged names ([`Accepted::judged`]), left to the judge: an entity the KG gives the subject
//!   and ties ([`super::ties`]) to the answer by a third relation, a place inside or around it
//!   ("Caribbean", Cuba's subregion, part of its region "Americas"); and a calling code of the
//!   relation that the answer's code extends ("+1" for "+1809").

use super::signature::{literal_kind, LiteralKind};
use super::templates::template_for;
use super::ties::Ties;
use super::{Accepted, Gold, Renderer};
use crate::core::gold::ValueKind;
use crate::kg::index::{date_year, Fact, Id};
use crate::kg::Term;

/// How many objects in all a relation may have to be a checklist ([`checklist`]).
const CHECKLIST_OBJECTS: usize = 4;

/// Whether relation `p` is a checklist, whose Wh-question has a key no KG can close: a
/// relation with only a few objects in the whole KG, of which a subject may have several
/// (France is "a member of" the United Nations and the European Union, the two organisations
/// the KG lists; Monaco of the first). It records what the KG chose to list: "What is Monaco a
/// member of?" has as many right answers as the world has organisations, where "Is Monaco a
/// member of the United Nations?" has one. A relation with many objects (borders, languages)
/// lists what each subject has; one of a single object per subject (a continent, a league)
/// asks which.
///
/// A relation of two named values that split the subjects ([`super::fair::two_valued`]: a
/// player's league, the NBA or the WNBA) is one too: "In which league has George Karl played?"
/// has the ABA for an answer as well, which a KG of two leagues does not know.
pub fn checklist(index: &crate::kg::KgIndex, p: Id) -> bool {
    (index.objects_of_predicate(p).len() <= CHECKLIST_OBJECTS
        && index
            .facts_of_predicate(p)
            .windows(2)
            .any(|w| index.facts()[w[0]][0] == index.facts()[w[1]][0]))
        || super::fair::two_valued(index, p)
}

/// Whether `o` is a generic value of relation `p`: a text several subjects share (a currency
/// symbol of three currencies or more; a demonym two places share where most have their own).
/// "Fr" for the Djiboutian franc, "₨" for the Pakistani rupee, "Channel Islander" for Jersey
/// are right but not what a reader writes for that one subject ("Fdj", "Rs", "Jerseyman"),
/// which the KG does not hold: a Wh-question would mark the usual answer wrong. Entities are
/// never generic: a shared language or currency is the thing itself.
///
/// A number or a code of digits ("+1", "+44") is shared by design, not generic: it is each
/// holder's own answer (the North American Numbering Plan's members all dial +1).
pub fn generic_value(index: &crate::kg::KgIndex, p: Id, o: Id) -> bool {
    let Term::Literal(l) = index.term(o) else {
        return false;
    };
    if l.value()
        .chars()
        .all(|c| c.is_ascii_digit() || "+-. ".contains(c))
    {
        return false;
    }
    let sharing = index
        .facts_to(o)
        .iter()
        .filter(|&&i| index.facts()[i as usize][1] == p)
        .count();
    let facts = index.facts_of_predicate(p).len();
    let own = 4 * index.objects_of_predicate(p).len() >= 3 * facts;
    sharing >= 3 || (sharing == 2 && own)
}

/// Whether every answer to the Wh-question about `fact`'s subject and relation is a generic
/// value ([`generic_value`]).
pub fn generic_key(index: &crate::kg::KgIndex, fact: &Fact) -> bool {
    let [s, p, _] = *fact;
    index
        .objects_of(s, p)
        .into_iter()
        .all(|o| generic_value(index, p, o))
}

/// Every object the KG gives `fact`'s subject for its relation, with its aliases, how its
/// value is read and the names left to the judge.
pub fn accepted(r: &Renderer<'_>, fact: &Fact) -> Gold {
    let ix = r.index;
    let [s, p, _] = *fact;
    let objects = ix.objects_of(s, p);
    let template = template_for(ix, r.templates, fact);
    let season = counts_seasons(&ix.label(p)) || counts_seasons(&template.question);
    let mut ties = Ties::new(ix);
    // The subject's other entities, with the relation it has each under.
    let others: Vec<(Id, Id)> = ix
        .facts_from(s)
        .iter()
        .filter(|f| f[1] != p && !objects.contains(&f[2]))
        .filter(|f| matches!(ix.term(f[2]), Term::NamedNode(_)))
        .map(|f| (f[2], f[1]))
        .collect();
    let accepted = objects
        .iter()
        .map(|&o| {
            let label = ix.label(o);
            let value = match literal_kind(ix.term(o)) {
                _ if date_year(ix.term(o)).is_some() => ValueKind::Year { season },
                Some(LiteralKind::Number { .. }) => ValueKind::Quantity {
                    unit: template.tail.unit.clone(),
                },
                _ => ValueKind::Name,
            };
            // A tie by the question's relation or by the one that gives the subject `x` is a
            // value the two share (Belize, like Guatemala, is in the Americas), not a place
            // inside or around the answer (the Caribbean is part of the Americas).
            let entity = matches!(ix.term(o), Term::NamedNode(_));
            let mut judged: Vec<String> = others
                .iter()
                .filter(|_| entity)
                .filter(|&&(x, via)| ties.ties(x, o).iter().any(|&r| r != p && r != via))
                .map(|&(x, _)| ix.label(x))
                .collect();
            if label.starts_with('+') {
                judged.extend(
                    ix.objects_of_predicate(p)
                        .iter()
                        .map(|&c| ix.label(c))
                        .filter(|c| c.starts_with('+') && c.len() < label.len())
                        .filter(|c| label.starts_with(c.as_str())),
                );
            }
            judged.sort();
            judged.dedup();
            Accepted {
                label,
                aliases: ix.aliases_of(o).to_vec(),
                value,
                judged,
            }
        })
        .collect();
    Gold::Texts { accepted }
}

/// Whether a relation's label or question speaks of seasons.
fn counts_seasons(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("season") || w.eq_ignore_ascii_case("seasons"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kg::index::KgIndex;
    use crate::kg::local::LocalKg;
    use crate::questions::TemplateSet;

    #[test]
    fn checklists_and_generic_values_are_found() {
        let kg = LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> .
            ex:fr ex:memberOf ex:un, ex:eu . ex:mc ex:memberOf ex:un . ex:de ex:memberOf ex:un, ex:eu .
            ex:fr ex:border ex:de, ex:es . ex:de ex:border ex:fr, ex:pl . ex:es ex:border ex:fr, ex:pt .
            ex:pl ex:border ex:de . ex:pt ex:border ex:es .
            ex:dj ex:symbol "Fr" . ex:bi ex:symbol "Fr" . ex:km ex:symbol "Fr" . ex:eur ex:symbol "€" .
            ex:us ex:code "+1" . ex:ca ex:code "+1" . ex:jm ex:code "+1" ."#,
            "test",
        )
        .unwrap();
        let ix = KgIndex::build(&kg, &|_| {}).unwrap();
        let id = |l: &str| ix.iri_id(&format!("http://ex.org/{l}")).unwrap();
        assert!(
            checklist(&ix, id("memberOf")),
            "two organisations, several each"
        );
        assert!(!checklist(&ix, id("border")), "many objects");
        let fact = |s: &str, p: &str| [id(s), id(p), ix.objects_of(id(s), id(p))[0]];
        assert!(generic_key(&ix, &fact("dj", "symbol")));
        assert!(!generic_key(&ix, &fact("eur", "symbol")));
        assert!(
            !generic_key(&ix, &fact("us", "code")),
            "a code of digits is its own"
        );
    }

    #[test]
    fn keys_read_quantities_years_places_and_codes() {
        let kg = LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> .
            @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
            ex:Caribbean ex:partOfRegion ex:Americas .
            ex:Haiti ex:region ex:Americas .
            ex:Cuba ex:borders ex:Haiti . ex:Haiti ex:borders ex:Cuba .
            ex:Cuba ex:region ex:Americas ; ex:subregion ex:Caribbean ;
                ex:callingCode "+53" ; ex:official ex:Spanish .
            ex:Dominica ex:callingCode "+1767" .
            ex:USA ex:callingCode "+1" .
            ex:Lead ex:boilingPointK "2022.15"^^xsd:decimal .
            ex:Nets ex:firstSeason "1967"^^xsd:gYear .
            ex:C1947 ex:championshipYear "1947"^^xsd:gYear ."#,
            "test",
        )
        .unwrap();
        let ix = KgIndex::build(&kg, &|_| {}).unwrap();
        let mut templates = TemplateSet::default();
        templates
            .add_toml(
                "[[relation]]\niri = \"http://ex.org/boilingPointK\"\nlabel = \"boiling point\"\n\
                 tail = { unit = \"kelvin\" }\nstatement = \"{head} boils at {tail}.\"\n\
                 question = \"At what temperature does {head} boil?\"\n",
                "test",
            )
            .unwrap();
        let r = Renderer {
            index: &ix,
            templates: &templates,
            seed: 1,
        };
        let id = |n: &str| ix.iri_id(&format!("http://ex.org/{n}")).unwrap();
        let key = |s: &str, p: &str| {
            let (s, p) = (id(s), id(p));
            let o = ix.objects_of(s, p)[0];
            match accepted(&r, &[s, p, o]) {
                Gold::Texts { accepted } => accepted.into_iter().next().unwrap(),
                other => panic!("{other:?}"),
            }
        };
        let region = key("Cuba", "region");
        assert_eq!(region.judged, vec!["Caribbean".to_string()]);
        assert_eq!(region.value, ValueKind::Name);
        assert_eq!(
            key("Cuba", "subregion").judged,
            vec!["Americas".to_string()]
        );
        assert_eq!(
            key("Dominica", "callingCode").judged,
            vec!["+1".to_string()]
        );
        assert!(key("Cuba", "callingCode").judged.is_empty());
        assert_eq!(
            key("Lead", "boilingPointK").value,
            ValueKind::Quantity {
                unit: Some("kelvin".into())
            }
        );
        assert_eq!(
            key("Nets", "firstSeason").value,
            ValueKind::Year { season: true }
        );
        assert_eq!(
            key("C1947", "championshipYear").value,
            ValueKind::Year { season: false }
        );
    }
}

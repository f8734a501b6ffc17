//! Names that mean one thing. A label several entities go by ("Washington", the city and the
//! state; "Kingston" of Jamaica and of Norfolk Island) makes a question ambiguous: such a name
//! is written with the disambiguating context KGHaluBench gives its focal entities, a person's
//! lifespan, "(1934-2023)" or "(1968-)" while alive; for anything else, a person whose birth
//! year the KG lacks, or a question that asks for a birth or death date, the entity's type
//! (its most specific one: the type with the fewest members): "the city or area Washington".

use crate::kg::index::{Id, KgIndex};

/// Whether a type is "a person" (Wikidata's human, schema.org's and FOAF's Person).
fn is_person_type(index: &KgIndex, t: Id) -> bool {
    let iri = crate::kg::term_str(index.term(t));
    let local = crate::kg::vocab::local_name(iri).to_lowercase();
    let label = index.label(t).to_lowercase();
    iri == "http://www.wikidata.org/entity/Q5"
        || ["person", "human"].contains(&local.as_str())
        || ["person", "human"].contains(&label.as_str())
}

const BIRTH: [&str; 2] = ["birth", "born"];
const DEATH: [&str; 2] = ["death", "died"];

/// A relation's local name and label, lower-cased: the words that say what it is about.
pub(crate) fn relation_words(index: &KgIndex, p: Id) -> String {
    let iri = crate::kg::term_str(index.term(p));
    format!("{} {}", crate::kg::vocab::local_name(iri), index.label(p)).to_lowercase()
}

/// Whether the relation's local name or label names one of `words`.
fn names(index: &KgIndex, p: Id, words: &[&str]) -> bool {
    let text = relation_words(index, p);
    words.iter().any(|w| text.contains(w))
}

/// The year of the entity's fact whose relation names birth or death (`words`).
fn year_of_relation(index: &KgIndex, e: Id, words: &[&str]) -> Option<i32> {
    index
        .facts_from(e)
        .iter()
        .filter(|f| names(index, f[1], words))
        .filter_map(|f| crate::kg::index::date_year(index.term(f[2])))
        .min()
}

/// The disambiguating context, without its parentheses. A lifespan would give away the
/// answer when a birth or death relation is among those `asked`: the type is given then.
pub fn context(index: &KgIndex, e: Id, asked: &[Id]) -> Option<String> {
    let types = index.types_of(e);
    let gives_away = asked
        .iter()
        .any(|p| names(index, *p, &BIRTH) || names(index, *p, &DEATH));
    if !gives_away && types.iter().any(|&t| is_person_type(index, t)) {
        if let Some(born) = year_of_relation(index, e, &BIRTH) {
            return Some(match year_of_relation(index, e, &DEATH) {
                Some(died) => format!("{born}-{died}"),
                None => format!("{born}-"),
            });
        }
    }
    types
        .iter()
        .copied()
        .min_by_key(|t| (index.members_of(*t).len(), *t))
        .map(|t| index.label(t))
}

/// How a question names entity `e` about relation `asked`: its label, with its context when
/// another entity goes by the same name ([`KgIndex::shares_name`]): a lifespan in parentheses
/// ("Ada Lovelace (1815-1852)"), a type before the name ("the city or area Washington").
pub fn shown(index: &KgIndex, e: Id, asked: Id) -> String {
    let label = index.label(e);
    if !index.shares_name(e) {
        return label;
    }
    let own = context(index, e, &[asked]);
    // A context every other bearer of the name has too tells nothing apart ("the city or area
    // Toronto" beside Toronto, Ohio, another city): the name is written alone.
    let key = crate::kg::index::name_key(&label);
    let others = index.named(&key).iter().chain(index.aliased(&key)).copied();
    if others
        .filter(|&x| x != e)
        .all(|x| context(index, x, &[asked]) == own)
    {
        return label;
    }
    match own {
        Some(c) if c.starts_with(|ch: char| ch.is_ascii_digit()) => format!("{label} ({c})"),
        // A type before the name, as English tells things apart ("the landlocked country
        // Luxembourg"): a type in parentheses reads like a label's disambiguator.
        Some(c) if !c.trim().eq_ignore_ascii_case(label.trim()) => format!("the {c} {label}"),
        _ => label,
    }
}

/// [`shown`] in a slot whose template names the entity's kind right before it ("the subregion
/// {head}"): a type the name would get is left out when its last word is the template's, so
/// the kind is not said twice ("the subregion the world subregion Micronesia"); the template's
/// noun already tells the entity apart.
pub fn shown_after(index: &KgIndex, e: Id, asked: Id, before: &str) -> String {
    let noun = before.split_whitespace().last().map(str::to_lowercase);
    if index.shares_name(e) && noun.is_some() && kind_word(index, e, asked) == noun {
        return index.label(e);
    }
    shown(index, e, asked)
}

/// The noun that names a shared name's kind, lower-cased: the last word of the type
/// [`shown`] would put before it ("subregion" of "world subregion"); `None` for a name that
/// needs no context or gets a lifespan.
pub fn kind_word(index: &KgIndex, e: Id, asked: Id) -> Option<String> {
    if !index.shares_name(e) {
        return None;
    }
    let c = context(index, e, &[asked])?;
    if c.starts_with(|ch: char| ch.is_ascii_digit()) {
        return None;
    }
    c.split_whitespace().last().map(str::to_lowercase)
}

/// Whether another entity goes by `s`'s label, is named the same way in a question about `p`
/// ([`shown`]: a type or a lifespan would tell them apart), is about as well known ([`standing`]:
/// at least half as) and has other objects under `p`: "When was the Portland Fire founded?"
/// asks about the team of 2024 and the one of 1999 at once, and has two answers, whichever the
/// KG keys. A far lesser namesake does not make the question about it: "In which state is
/// Charlotte?" means Charlotte, North Carolina, not the town in Tennessee. (Where the namesake
/// makes a false claim true, "Is Charlotte in Tennessee?", the claim is unfair whatever its
/// standing: the fairness rules of wrong objects see to it.)
pub fn namesake_differs(index: &KgIndex, s: Id, p: Id) -> bool {
    let sorted = |mut v: Vec<Id>| {
        v.sort_unstable();
        v.dedup();
        v
    };
    let own = sorted(index.objects_of(s, p));
    let known = standing(index, s);
    namesakes(index, s, p).any(|x| {
        let theirs = sorted(index.objects_of(x, p));
        !theirs.is_empty() && theirs != own && 2 * standing(index, x) > known
    })
}

/// How well known an entity is, as far as the KG tells: its sitelinks where the KG counts them
/// (Wikidata), else the facts about it and those that point to it.
fn standing(index: &KgIndex, e: Id) -> u64 {
    index
        .counters(e)
        .and_then(|c| c.sitelinks)
        .unwrap_or_else(|| (index.facts_from(e).len() + index.facts_to(e).len()) as u64)
}

/// The other entities with `e`'s label that a question about `p` names just as it names `e`
/// ([`shown`]): nothing in the question tells them apart.
pub fn namesakes(index: &KgIndex, e: Id, p: Id) -> impl Iterator<Item = Id> + '_ {
    let same = index.shares_name(e).then(|| {
        let named_as = shown(index, e, p);
        index
            .named(&crate::kg::index::name_key(&index.label(e)))
            .iter()
            .copied()
            .filter(move |&x| x != e && shown(index, x, p) == named_as)
    });
    same.into_iter().flatten()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// People with and without dates, a city that is also a place: KGHaluBench's tests use it too.
    pub(crate) fn small() -> KgIndex {
        let kg = crate::kg::local::LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
            ex:Person rdfs:label "person" . ex:City rdfs:label "city" . ex:Place rdfs:label "place" .
            ex:knuth a ex:Person ; rdfs:label "Donald Knuth" ; ex:dateOfBirth "1938-01-10"^^xsd:date ;
              ex:employer ex:stanford ; ex:award ex:turing ; ex:fieldOfWork ex:cs .
            ex:dijkstra a ex:Person ; rdfs:label "Edsger Dijkstra" ; ex:dateOfBirth "1930-05-11"^^xsd:date ;
              ex:dateOfDeath "2002-08-06"^^xsd:date ; ex:award ex:turing .
            ex:anon a ex:Person ; rdfs:label "Someone" ; ex:award ex:turing .
            ex:lima a ex:City , ex:Place ; rdfs:label "Lima" ; ex:country ex:peru .
            ex:cusco a ex:Place ; rdfs:label "Cusco" .
            ex:employer rdfs:label "employer" . ex:award rdfs:label "award received" .
            ex:fieldOfWork rdfs:label "field of work" ."#,
            "test",
        )
        .unwrap();
        KgIndex::build(&kg, &|_| {}).unwrap()
    }

    #[test]
    fn people_get_their_lifespan_everything_else_its_type() {
        let ix = small();
        let e = |local: &str| ix.iri_id(&format!("http://ex.org/{local}")).unwrap();
        assert_eq!(context(&ix, e("knuth"), &[]).as_deref(), Some("1938-"));
        assert_eq!(
            context(&ix, e("dijkstra"), &[]).as_deref(),
            Some("1930-2002")
        );
        // Asked for the date of birth, the question must not hold it.
        let born = ix.iri_id("http://ex.org/dateOfBirth").unwrap();
        assert_eq!(context(&ix, e("knuth"), &[born]).as_deref(), Some("person"));
        // A person without a birth year is named by type.
        assert_eq!(context(&ix, e("anon"), &[]).as_deref(), Some("person"));
        // The most specific type: fewer cities than places.
        assert_eq!(context(&ix, e("lima"), &[]).as_deref(), Some("city"));
    }

    #[test]
    fn a_template_that_names_the_kind_is_not_doubled() {
        let kg = crate::kg::local::LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            ex:Sub rdfs:label "world subregion" . ex:Country rdfs:label "country" .
            ex:micronesia a ex:Sub ; rdfs:label "Micronesia" ; ex:partOf ex:oceania .
            ex:fsm a ex:Country ; rdfs:label "Micronesia" ; ex:subregion ex:micronesia ."#,
            "test",
        )
        .unwrap();
        let ix = KgIndex::build(&kg, &|_| {}).unwrap();
        let e = |l: &str| ix.iri_id(&format!("http://ex.org/{l}")).unwrap();
        let part_of = e("partOf");
        assert_eq!(
            shown(&ix, e("micronesia"), part_of),
            "the world subregion Micronesia"
        );
        assert_eq!(
            shown_after(
                &ix,
                e("micronesia"),
                part_of,
                "Which region is the subregion"
            ),
            "Micronesia"
        );
        // Another noun before the slot: the type stays.
        assert_eq!(
            shown_after(&ix, e("micronesia"), part_of, "Is"),
            "the world subregion Micronesia"
        );
    }

    #[test]
    fn a_shared_name_gets_its_type_and_a_unique_one_nothing() {
        let ix = small();
        let e = |local: &str| ix.iri_id(&format!("http://ex.org/{local}")).unwrap();
        let p = ix.iri_id("http://ex.org/country").unwrap();
        assert_eq!(shown(&ix, e("lima"), p), "Lima");
        let kg = crate::kg::local::LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            @prefix skos: <http://www.w3.org/2004/02/skos/core#> .
            ex:City rdfs:label "city" . ex:State rdfs:label "state" .
            ex:wc a ex:City ; rdfs:label "Washington" ; ex:in ex:dc .
            ex:ws a ex:State ; rdfs:label "Washington" ; ex:in ex:us .
            ex:dc rdfs:label "District of Columbia" . ex:us rdfs:label "United States" .
            ex:team rdfs:label "Wizards" ; skos:altLabel "United States" ; ex:home ex:wc ."#,
            "test",
        )
        .unwrap();
        let ix = KgIndex::build(&kg, &|_| {}).unwrap();
        let e = |local: &str| ix.iri_id(&format!("http://ex.org/{local}")).unwrap();
        let p = ix.iri_id("http://ex.org/in").unwrap();
        assert_eq!(shown(&ix, e("wc"), p), "the city Washington");
        assert_eq!(shown(&ix, e("ws"), p), "the state Washington");
        // Another entity's alias shares the name too; an untyped entity has no context.
        assert!(ix.shares_name(e("us")));
        assert_eq!(shown(&ix, e("us"), p), "United States");
        assert!(!ix.shares_name(e("dc")));
        // Told apart by their types, the two Washingtons are no namesakes to each other.
        assert!(!namesake_differs(&ix, e("wc"), p));
    }

    /// Two Charlottes in two states, one Memphis, two teams named alike: the sample KG's
    /// namesakes in small.
    pub(crate) fn namesakes_kg() -> KgIndex {
        let kg = crate::kg::local::LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            ex:City rdfs:label "city" . ex:State rdfs:label "state" . ex:Team rdfs:label "team" .
            ex:nc a ex:State ; rdfs:label "North Carolina" . ex:tn a ex:State ; rdfs:label "Tennessee" . ex:vt a ex:State ; rdfs:label "Vermont" .
            ex:charlotte a ex:City ; rdfs:label "Charlotte" ; ex:in ex:nc .
            ex:charlotteTn a ex:City ; rdfs:label "Charlotte" ; ex:in ex:tn .
            ex:memphis a ex:City ; rdfs:label "Memphis" ; ex:in ex:tn .
            ex:fire a ex:Team ; rdfs:label "Portland Fire" ; ex:founded 2024 ; ex:home ex:portland .
            ex:oldFire a ex:Team ; rdfs:label "Portland Fire" ; ex:founded 1999 ; ex:home ex:portland .
            ex:grizzlies a ex:Team ; rdfs:label "Memphis Grizzlies" ; ex:founded 1995 ; ex:home ex:memphis .
            ex:hornets a ex:Team ; rdfs:label "Charlotte Hornets" ; ex:home ex:charlotte .
            ex:village a ex:City ; rdfs:label "Charlotte" ; ex:in ex:vt .
            ex:portland a ex:City ; rdfs:label "Portland" ."#,
            "test",
        )
        .unwrap();
        KgIndex::build(&kg, &|_| {}).unwrap()
    }

    #[test]
    fn a_name_two_entities_go_by_with_two_answers_is_not_asked() {
        let ix = namesakes_kg();
        let e = |local: &str| ix.iri_id(&format!("http://ex.org/{local}")).unwrap();
        let (located, founded, home) = (e("in"), e("founded"), e("home"));
        // The city of the Hornets is better known than two towns of its name: it is asked
        // about; each town is not, the city being as well known as it.
        assert!(!namesake_differs(&ix, e("charlotte"), located));
        assert!(namesake_differs(&ix, e("charlotteTn"), located));
        assert!(!namesake_differs(&ix, e("memphis"), located));
        assert!(namesake_differs(&ix, e("fire"), founded));
        // Where the two agree, the question has one answer.
        assert!(!namesake_differs(&ix, e("fire"), home));
        assert_eq!(
            namesakes(&ix, e("charlotte"), located).collect::<Vec<_>>(),
            vec![e("charlotteTn"), e("village")]
        );
        assert_eq!(namesakes(&ix, e("memphis"), located).count(), 0);
    }
}

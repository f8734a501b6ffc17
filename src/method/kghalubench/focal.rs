//! KGHaluBench's focal entities (§3.1.1–3.1.3): which entities a compound question can be
//! about, how popular each is, and the frequency band of its type.
//!
//! - **Bands.** The KG's types sorted by how many entities they have, most first; the types
//!   that together hold the first half of all typing are *very common* (Wikidata: human), the
//!   next 35% *common* (business), the rest *uncommon* (painting). The paper names the bands
//!   and their examples, not the cuts: these are kgscope's, in the spirit of its examples. An
//!   entity's band is that of its rarest type.
//! - **Valid relations.** An entity's relations that ask for knowledge: not names, images,
//!   websites, identifiers or codes (the paper's "non-textual, trivial and irrelevant"), judged
//!   by the relation's IRI and label ([`is_excluded`], extensible with the user's words);
//!   nor relations whose answer the entity's name states or implies
//!   ([`crate::questions::grammar::names_answer`]) or that a namesake answers otherwise
//!   ([`crate::questions::names::namesake_differs`]), nor dated measurements (a population as of
//!   a year: the list of facts cannot say when).
//! - **Popularity** from the KG's own statistics ([`super::difficulty::Popularity`]): linked
//!   entities, statements, and external identifiers (the facts of the relations excluded as
//!   identifiers), or the KG's own counters where its profile names them (Wikidata's
//!   `wikibase:sitelinks`, `wikibase:statements`, `wikibase:identifiers`). An entity with fewer than 3 valid relations cannot be asked about.

use std::collections::{BTreeSet, HashMap};

use crate::kg::index::{Id, KgIndex};
use crate::questions::grammar::names_answer;

use super::difficulty::Popularity;

/// Relations a compound question asks about.
pub const RELATIONS_PER_QUESTION: usize = 3;

/// A type's frequency band, rarest last in declaration so that sorting puts rarer first
/// when reversed; [`Band::ALL`] lists them rarest first, the order entities are sampled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Band {
    VeryCommon,
    Common,
    Uncommon,
}

impl Band {
    /// Rarest first: the order the paper samples in.
    pub const ALL: [Band; 3] = [Band::Uncommon, Band::Common, Band::VeryCommon];

    pub fn as_str(self) -> &'static str {
        match self {
            Band::VeryCommon => "very common",
            Band::Common => "common",
            Band::Uncommon => "uncommon",
        }
    }
}

/// Share of all typing the very common types hold together, then the common ones.
const VERY_COMMON_SHARE: f64 = 0.50;
const COMMON_SHARE: f64 = 0.85;

/// Each type's band.
pub fn bands(index: &KgIndex) -> HashMap<Id, Band> {
    let mut types: Vec<(Id, usize)> = index
        .entities()
        .iter()
        .flat_map(|&e| index.types_of(e).iter().copied())
        .collect::<BTreeSet<Id>>()
        .into_iter()
        .map(|t| (t, index.members_of(t).len()))
        .collect();
    // Most members first; ties by id, so the bands never depend on hash order.
    types.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let total: usize = types.iter().map(|(_, n)| n).sum();
    let mut before = 0usize;
    types
        .into_iter()
        .map(|(t, n)| {
            let share = before as f64 / total.max(1) as f64;
            before += n;
            let band = if share < VERY_COMMON_SHARE {
                Band::VeryCommon
            } else if share < COMMON_SHARE {
                Band::Common
            } else {
                Band::Uncommon
            };
            (t, band)
        })
        .collect()
}

/// Words that mark a relation as not worth asking about, matched against the last segment
/// of its IRI and its label, as whole words, any case.
pub const EXCLUDED_WORDS: [&str; 14] = [
    "name",
    "label",
    "image",
    "logo",
    "signature",
    "website",
    "homepage",
    "url",
    "id",
    "identifier",
    "code",
    "isbn",
    "issn",
    "doi",
];

/// Whether a relation is one a question should not ask about. `extra`, the user's: more
/// words, or relations by IRI, local name or label.
pub fn is_excluded(index: &KgIndex, predicate: Id, extra: &[String]) -> bool {
    let iri = crate::kg::term_str(index.term(predicate));
    let local = crate::kg::vocab::local_name(iri);
    let label = index.label(predicate);
    if extra
        .iter()
        .any(|x| x == iri || x.eq_ignore_ascii_case(&local) || x.eq_ignore_ascii_case(&label))
    {
        return true;
    }
    let text = format!("{local} {label}");
    // camelCase and snake_case split into words: "officialWebsite", "isbn_13".
    let mut spaced = String::with_capacity(text.len() + 8);
    let mut prev_lower = false;
    for c in text.chars() {
        if c.is_uppercase() && prev_lower {
            spaced.push(' ');
        }
        prev_lower = c.is_lowercase();
        spaced.push(c);
    }
    let words: Vec<String> = spaced
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    EXCLUDED_WORDS
        .iter()
        .copied()
        .chain(extra.iter().map(String::as_str))
        .any(|x| words.iter().any(|w| w == &x.to_lowercase()))
}

/// An entity a compound question can be about.
#[derive(Debug, Clone, PartialEq)]
pub struct Focal {
    pub entity: Id,
    pub band: Band,
    /// Its valid relations (at least [`RELATIONS_PER_QUESTION`]), sorted.
    pub relations: Vec<Id>,
    pub popularity: Popularity,
}

/// Every entity of the KG that can be asked about, in entity order: typed (its band is its
/// rarest type's), with at least three valid relations.
pub fn candidates(index: &KgIndex, extra_excluded: &[String]) -> Vec<Focal> {
    let bands = bands(index);
    let mut excluded: HashMap<Id, bool> = HashMap::new();
    let mut out = Vec::new();
    for &e in index.entities() {
        let Some(band) = index
            .types_of(e)
            .iter()
            .filter_map(|t| bands.get(t))
            .max()
            .copied()
        else {
            continue;
        };
        let (mut relations, mut identifiers) = (BTreeSet::new(), 0u64);
        let mut given_away = BTreeSet::new();
        for f in index.facts_from(e) {
            let skip = *excluded
                .entry(f[1])
                .or_insert_with(|| is_excluded(index, f[1], extra_excluded));
            if skip {
                identifiers += u64::from(matches!(index.term(f[2]), crate::kg::Term::Literal(_)));
            } else {
                relations.insert(f[1]);
                // The entity's name states or implies the fact ("2015 WNBA championship":
                // its year and its league; "Charlotte Hornets": CHA): not asked.
                // A dated measurement (a population as of 2007) would be asked without
                // its date: the list of facts has no room for one.
                let dated = crate::kg::index::changes_over_time(index, f[2])
                    && index.qualifier_year(f).is_some();
                // A name another entity goes by, with another answer, makes the fact two
                // (the Portland Fire of 2024 and of 1999): not asked either.
                if names_answer(index, e, f[2])
                    || dated
                    || crate::questions::names::namesake_differs(index, e, f[1])
                {
                    given_away.insert(f[1]);
                }
            }
        }
        relations.retain(|p| !given_away.contains(p));
        if relations.len() < RELATIONS_PER_QUESTION {
            continue;
        }
        let linked: BTreeSet<Id> = index
            .facts_from(e)
            .iter()
            .map(|f| f[2])
            .filter(|o| index.entities().binary_search(o).is_ok())
            .chain(
                index
                    .facts_to(e)
                    .iter()
                    .map(|&i| index.facts()[i as usize][0]),
            )
            .collect();
        out.push(Focal {
            entity: e,
            band,
            relations: relations.into_iter().collect(),
            // The KG's own counters where it keeps them (Wikidata's page counters), else
            // what the index can count.
            popularity: {
                let kept = index.counters(e);
                Popularity {
                    linked_entities: Some(linked.len() as u64),
                    statements: kept
                        .and_then(|c| c.statements)
                        .or(Some(index.facts_from(e).len() as u64)),
                    identifiers: kept.and_then(|c| c.identifiers).or(Some(identifiers)),
                    sitelinks: kept.and_then(|c| c.sitelinks),
                }
            },
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> KgIndex {
        let kg = crate::kg::open("sample:countries").unwrap();
        KgIndex::build(kg.as_ref(), &|_| {}).unwrap()
    }

    #[test]
    fn names_images_sites_and_identifiers_are_not_asked() {
        let index = index();
        let by_label = |label: &str| {
            index
                .relations()
                .iter()
                .map(|r| r.predicate)
                .find(|p| index.label(*p) == label)
                .unwrap_or_else(|| panic!("no relation {label}"))
        };
        for label in ["ISO 3166-1 alpha-2 code", "international calling code"] {
            assert!(is_excluded(&index, by_label(label), &[]), "{label}");
        }
        for label in [
            "capital",
            "currency",
            "official language",
            "shares a land border with",
        ] {
            assert!(!is_excluded(&index, by_label(label), &[]), "{label}");
        }
        // The user's words exclude more.
        assert!(is_excluded(
            &index,
            by_label("capital"),
            &["Capital".into()]
        ));
        // IRIs in camelCase and snake_case are read word by word; "valid" is not "id".
        let kg = crate::kg::local::LocalKg::from_turtle(
            "@prefix ex: <http://ex.org/> . ex:a ex:officialWebsite ex:w ; ex:isbn_13 \"1\" ; \
             ex:validUntil \"2020\" ; ex:birthPlace ex:b .",
            "test",
        )
        .unwrap();
        let small = KgIndex::build(&kg, &|_| {}).unwrap();
        let p = |local: &str| small.iri_id(&format!("http://ex.org/{local}")).unwrap();
        assert!(is_excluded(&small, p("officialWebsite"), &[]));
        assert!(is_excluded(&small, p("isbn_13"), &[]));
        assert!(!is_excluded(&small, p("validUntil"), &[]));
        assert!(!is_excluded(&small, p("birthPlace"), &[]));
    }

    #[test]
    fn bands_split_the_typing_and_rarer_types_are_uncommon() {
        let index = index();
        let bands = bands(&index);
        assert!(bands.values().any(|b| *b == Band::VeryCommon));
        // A type with more members is never in a rarer band than one with fewer.
        for (a, ba) in &bands {
            for (b, bb) in &bands {
                if index.members_of(*a).len() > index.members_of(*b).len() {
                    assert!(
                        ba <= bb,
                        "{} ({ba:?}) vs {} ({bb:?})",
                        index.label(*a),
                        index.label(*b)
                    );
                }
            }
        }
        assert_eq!(Band::ALL[0], Band::Uncommon);
    }

    #[test]
    fn every_candidate_has_three_valid_relations_and_its_statistics() {
        let index = index();
        let all = candidates(&index, &[]);
        assert!(all.len() > 50, "{}", all.len());
        for f in &all {
            assert!(f.relations.len() >= RELATIONS_PER_QUESTION);
            assert!(f.relations.iter().all(|p| !is_excluded(&index, *p, &[])));
            assert_eq!(
                f.popularity.statements,
                Some(index.facts_from(f.entity).len() as u64)
            );
            assert!(f.popularity.score().is_some());
        }
        // Excluding all but two of an entity's relations leaves it nothing to be asked.
        let f = &all[0];
        let words: Vec<String> = f.relations[2..]
            .iter()
            .map(|p| crate::kg::vocab::local_name(crate::kg::term_str(index.term(*p))))
            .collect();
        assert!(candidates(&index, &words)
            .iter()
            .all(|g| g.entity != f.entity));
    }
}

//! KG-FPQ's six edits (Zhu et al., 2024, §3.1): a false triple (s, p, o') made
//! from a true one (s, p, o) by choosing o' by its distance from s in the KG and its kinship
//! with o. The closer o' is to s, and the more it has in common with o, the more confusing the
//! false premise.
//!
//! This module draws o'; wording the questions is left to the question formats.

use std::collections::HashMap;

use rand::Rng;

use crate::kg::index::{Fact, Id, KgIndex};
use crate::kg::neighbourhood::{self, is_entity_node};
use crate::questions::grammar::names_answer;
use crate::sampling::SeededRng;

pub use crate::core::question::{Edit, UnknownEdit};

/// The false object an edit chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edited {
    pub edit: Edit,
    pub object: Id,
    /// For NSC and NDC, the BFS distance from the subject to `object` (1 to the hop bound);
    /// `None` for the other edits.
    pub hops: Option<u8>,
}

/// The entity's concept. KoPL, the paper's KG, gives each entity exactly one concept; an RDF
/// entity may have several `rdf:type`s ("capital city" and "city", or "city" and "place"), and
/// the one that counts is the MOST SPECIFIC: the type with the fewest members in the KG, ties
/// going to the smaller id (the lexically first class IRI), so the choice never depends on the
/// order of the rows. An entity without a type has no concept.
pub fn concept_of(index: &KgIndex, e: Id) -> Option<Id> {
    index
        .types_of(e)
        .iter()
        .copied()
        .min_by_key(|t| (index.members_of(*t).len(), *t))
}

/// Random picks tried before a pool is filtered in full: most draws are accepted at once, and
/// a full filter per draw would cost a scan of every typed entity for each NDC/NNDC edit.
const TRIES: usize = 24;

/// Hop maps kept before the cache is emptied (entries over all subjects): bounds memory on a
/// big KG, where a five-hop neighbourhood can hold most of the graph.
const CACHE_ENTRIES: usize = 1 << 22;

/// Draws the edited objects of facts. Keeps each subject's neighbourhood, so the six edits
/// of a fact, and the facts of one subject, search the KG once.
pub struct Editor<'a> {
    index: &'a KgIndex,
    max_hops: u8,
    /// [`concept_of`] for every typed entity.
    concepts: HashMap<Id, Id>,
    /// Entities with a concept, sorted: the pool of the different-concept edits.
    typed: Vec<Id>,
    /// Fact objects that are entities, sorted: the pool of NNDR.
    entity_objects: Vec<Id>,
    hops: HashMap<Id, HashMap<Id, u8>>,
    cached_entries: usize,
}

impl<'a> Editor<'a> {
    /// An editor whose neighbours are within `max_hops` of the subject (the paper's is 5).
    pub fn new(index: &'a KgIndex, max_hops: u8) -> Self {
        let concepts: HashMap<Id, Id> = index
            .entities()
            .iter()
            .filter_map(|&e| concept_of(index, e).map(|c| (e, c)))
            .collect();
        let mut typed: Vec<Id> = concepts.keys().copied().collect();
        typed.sort_unstable();
        let entity_objects: Vec<Id> = index
            .objects()
            .iter()
            .copied()
            .filter(|o| index.entities().binary_search(o).is_ok())
            .collect();
        Self {
            index,
            max_hops,
            concepts,
            typed,
            entity_objects,
            hops: HashMap::new(),
            cached_entries: 0,
        }
    }

    pub fn max_hops(&self) -> u8 {
        self.max_hops
    }

    /// The entity's concept (see [`concept_of`]).
    pub fn concept(&self, e: Id) -> Option<Id> {
        self.concepts.get(&e).copied()
    }

    /// Hop distances from `s` within the bound ([`neighbourhood::hops_from`]), cached.
    pub fn neighbourhood(&mut self, s: Id) -> &HashMap<Id, u8> {
        if !self.hops.contains_key(&s) {
            let map = neighbourhood::hops_from(self.index, s, self.max_hops);
            if self.cached_entries + map.len() > CACHE_ENTRIES {
                self.hops.clear();
                self.cached_entries = 0;
            }
            self.cached_entries += map.len();
            self.hops.insert(s, map);
        }
        &self.hops[&s]
    }

    /// The object `edit` puts in place of `fact`'s, drawn uniformly among its candidates with
    /// `rng`, or `None` when there is none. Never for a fact whose object is a literal or
    /// names itself in the subject ("Utah" for the Utah Jazz: the paper's string replacement
    /// would edit the subject too), nor, for the concept edits, for an untyped object.
    ///
    /// A candidate o' is an entity other than s and o, (s, p, o') is not a KG fact, and o'
    /// does not read as right: its label (case-insensitive) is not that of one of s's true
    /// objects for p ("Kingston" for Jamaica when another Kingston is drawn), and it is not
    /// named inside the subject's label either.
    pub fn edit(&mut self, fact: &Fact, edit: Edit, rng: &mut SeededRng) -> Option<Edited> {
        let ix = self.index;
        let [s, p, o] = *fact;
        if !is_entity_node(ix, o) {
            return None;
        }
        if names_answer(ix, s, o) {
            return None;
        }
        let concept = self.concept(o);
        self.neighbourhood(s);
        let pool: &[Id] = match edit {
            Edit::Nsc | Edit::Nnsc => ix.members_of(concept?),
            // "Different from o's concept" means nothing when o has none.
            Edit::Ndc | Edit::Nndc => {
                concept?;
                &self.typed
            }
            Edit::Nnsr => ix.objects_of_predicate(p),
            Edit::Nndr => &self.entity_objects,
        };
        let mut true_labels: Vec<String> = ix
            .objects_of(s, p)
            .into_iter()
            .chain([o])
            .map(|t| ix.label(t).to_lowercase())
            .collect();
        true_labels.dedup();
        let hops = &self.hops[&s];
        let neighbour_hops = |c: Id| hops.get(&c).copied().filter(|d| *d > 0);
        let accept = |c: Id| -> bool {
            if c == o || c == s || ix.entities().binary_search(&c).is_err() {
                return false;
            }
            if edit.is_neighbour() != neighbour_hops(c).is_some() {
                return false;
            }
            let kin = match edit {
                // The pool is o's concept's members: every one is of o's concept, even one
                // whose own (more specific) concept is another.
                Edit::Nsc | Edit::Nnsc | Edit::Nnsr => true,
                // Of another concept: typed, and not one of the members of o's concept, so
                // that a capital is not "a different concept" from a city.
                Edit::Ndc | Edit::Nndc => concept.is_some_and(|k| {
                    self.concepts.contains_key(&c) && ix.types_of(c).binary_search(&k).is_err()
                }),
                Edit::Nndr => ix.objects_of_predicate(p).binary_search(&c).is_err(),
            };
            if !kin || ix.contains(&[s, p, c]) {
                return false;
            }
            !true_labels.contains(&ix.label(c).to_lowercase()) && !names_answer(ix, s, c)
        };
        let object = draw(pool, rng, accept)?;
        Some(Edited {
            edit,
            object,
            hops: if edit.is_neighbour() {
                neighbour_hops(object)
            } else {
                None
            },
        })
    }
}

/// A uniform draw among the members of `pool` (distinct ids) that `accept` takes: random
/// picks first, then, when those all fail, the whole pool filtered. Either way each accepted
/// member is equally likely.
fn draw(pool: &[Id], rng: &mut SeededRng, accept: impl Fn(Id) -> bool) -> Option<Id> {
    if pool.is_empty() {
        return None;
    }
    for _ in 0..TRIES {
        let c = pool[rng.random_range(0..pool.len())];
        if accept(c) {
            return Some(c);
        }
    }
    let all: Vec<Id> = pool.iter().copied().filter(|c| accept(*c)).collect();
    if all.is_empty() {
        None
    } else {
        Some(all[rng.random_range(0..all.len())])
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::kg::local::LocalKg;
    use crate::sampling::rng;

    /// The paper's figure 3, give or take: John Lennon died in New York City and was born in
    /// Liverpool, where the Beatles were formed. Paris, Canberra and the Mona Lisa are far
    /// away (not connected at all).
    const KG: &str = "@prefix ex: <http://example.org/> .\n\
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
        ex:lennon a ex:Person ; rdfs:label \"John Lennon\" ; ex:deathPlace ex:nyc ;\n\
        \x20   ex:birthPlace ex:liverpool ; ex:memberOf ex:beatles ; ex:born \"1940\" ;\n\
        \x20   ex:instrument ex:guitar .\n\
        ex:beatles a ex:Band ; rdfs:label \"The Beatles\" ; ex:formedIn ex:liverpool .\n\
        ex:liverpool a ex:City, ex:Place ; rdfs:label \"Liverpool\" ; ex:country ex:uk .\n\
        ex:nyc a ex:City, ex:Place ; rdfs:label \"New York City\" ; ex:country ex:usa .\n\
        ex:uk a ex:Country, ex:Place ; rdfs:label \"United Kingdom\" .\n\
        ex:usa a ex:Country, ex:Place ; rdfs:label \"United States\" ; ex:memberOf ex:nato .\n\
        ex:nato a ex:Organisation ; rdfs:label \"NATO\" .\n\
        ex:guitar rdfs:label \"guitar\" .\n\
        ex:nycfc a ex:Club ; rdfs:label \"New York City FC\" ; ex:city ex:nyc .\n\
        ex:piaf a ex:Person ; rdfs:label \"Edith Piaf\" ; ex:deathPlace ex:paris ; ex:instrument ex:voice .\n\
        ex:paris a ex:City, ex:Place ; rdfs:label \"Paris\" ; ex:country ex:france .\n\
        ex:france a ex:Country, ex:Place ; rdfs:label \"France\" .\n\
        ex:canberra a ex:City, ex:Capital, ex:Place ; rdfs:label \"Canberra\" .\n\
        ex:monalisa a ex:Painting ; rdfs:label \"Mona Lisa\" ; ex:location ex:louvre .\n\
        ex:louvre a ex:Museum ; rdfs:label \"Louvre\" ; ex:city ex:paris .\n\
        ex:z a ex:B, ex:A ; rdfs:label \"Z\" .\n";

    fn index() -> KgIndex {
        let kg = LocalKg::from_turtle(KG, "test").unwrap();
        KgIndex::build(&kg, &|_| {}).unwrap()
    }

    fn id(ix: &KgIndex, name: &str) -> Id {
        ix.iri_id(&format!("http://example.org/{name}"))
            .unwrap_or_else(|| panic!("no {name}"))
    }

    fn fact(ix: &KgIndex, s: &str, p: &str, o: &str) -> Fact {
        let f = [id(ix, s), id(ix, p), id(ix, o)];
        assert!(ix.contains(&f), "{s} {p} {o} is not a fact");
        f
    }

    /// Every o' (by name) and hop count `edit` draws for `f` over 200 seeds.
    fn draws(ix: &KgIndex, f: &Fact, edit: Edit) -> BTreeSet<(String, Option<u8>)> {
        let mut editor = Editor::new(ix, 5);
        (0..200)
            .filter_map(|seed| editor.edit(f, edit, &mut rng(seed)))
            .map(|e| {
                assert_eq!(e.edit, edit);
                let name = crate::kg::vocab::local_name(crate::kg::term_str(ix.term(e.object)));
                (name, e.hops)
            })
            .collect()
    }

    fn set(items: &[(&str, Option<u8>)]) -> BTreeSet<(String, Option<u8>)> {
        items.iter().map(|(n, h)| (n.to_string(), *h)).collect()
    }

    #[test]
    fn each_edit_draws_from_its_own_candidates() {
        let ix = index();
        let f = fact(&ix, "lennon", "deathPlace", "nyc");
        // Liverpool: a city one hop away (the paper's own example).
        assert_eq!(draws(&ix, &f, Edit::Nsc), set(&[("liverpool", Some(1))]));
        // The Beatles at one hop, the two countries and the football club of New York City
        // at two, NATO at three; the guitar is untyped, so of no concept, and does not count
        // as a different one.
        assert_eq!(
            draws(&ix, &f, Edit::Ndc),
            set(&[
                ("beatles", Some(1)),
                ("uk", Some(2)),
                ("usa", Some(2)),
                ("nycfc", Some(2)),
                ("nato", Some(3)),
            ])
        );
        // Cities out of reach; Canberra is a capital first, and a city still.
        assert_eq!(
            draws(&ix, &f, Edit::Nnsc),
            set(&[("paris", None), ("canberra", None)])
        );
        // Typed, not cities, out of reach; Z has a concept (A) too.
        assert_eq!(
            draws(&ix, &f, Edit::Nndc),
            set(&[
                ("piaf", None),
                ("france", None),
                ("monalisa", None),
                ("louvre", None),
                ("z", None),
            ])
        );
        // Where someone else died.
        assert_eq!(draws(&ix, &f, Edit::Nnsr), set(&[("paris", None)]));
        // Objects of other relations only, out of reach: Paris is a place of death too.
        assert_eq!(
            draws(&ix, &f, Edit::Nndr),
            set(&[("france", None), ("louvre", None), ("voice", None)])
        );
    }

    #[test]
    fn hops_are_the_shortest_distance() {
        let ix = index();
        // From the Beatles: Liverpool at 1, Lennon at 1, New York City at 2 (through Lennon),
        // the United States at 3.
        let f = fact(&ix, "beatles", "formedIn", "liverpool");
        assert_eq!(draws(&ix, &f, Edit::Nsc), set(&[("nyc", Some(2))]));
        let ndc = draws(&ix, &f, Edit::Ndc);
        assert!(ndc.contains(&("lennon".to_string(), Some(1))), "{ndc:?}");
        assert!(ndc.contains(&("usa".to_string(), Some(3))), "{ndc:?}");
        assert!(ndc.contains(&("nato".to_string(), Some(4))), "{ndc:?}");
        // A tighter bound leaves NATO out of the neighbours and in the far ones.
        let mut near = Editor::new(&ix, 3);
        let far: BTreeSet<Id> = (0..200)
            .filter_map(|seed| near.edit(&f, Edit::Nndc, &mut rng(seed)))
            .map(|e| e.object)
            .collect();
        assert!(far.contains(&id(&ix, "nato")));
        assert!(!far.contains(&id(&ix, "usa")));
    }

    #[test]
    fn the_concept_is_the_most_specific_type() {
        let ix = index();
        let editor = Editor::new(&ix, 5);
        // City (4 members) over Place (7).
        assert_eq!(editor.concept(id(&ix, "liverpool")), Some(id(&ix, "City")));
        // Capital (1) over City and Place.
        assert_eq!(
            editor.concept(id(&ix, "canberra")),
            Some(id(&ix, "Capital"))
        );
        // A tie goes to the smaller id: A before B.
        assert_eq!(editor.concept(id(&ix, "z")), Some(id(&ix, "A")));
        assert_eq!(editor.concept(id(&ix, "guitar")), None);
        assert_eq!(concept_of(&ix, id(&ix, "uk")), Some(id(&ix, "Country")));
    }

    #[test]
    fn facts_that_cannot_be_edited() {
        let ix = index();
        let mut editor = Editor::new(&ix, 5);
        let (lennon, nycfc) = (id(&ix, "lennon"), id(&ix, "nycfc"));
        let born = *ix
            .facts_from(lennon)
            .iter()
            .find(|f| f[1] == id(&ix, "born"))
            .unwrap();
        // A literal object; an object named in the subject ("New York City" FC).
        let city = fact(&ix, "nycfc", "city", "nyc");
        assert_eq!(ix.facts_from(nycfc).len(), 1);
        for edit in Edit::ALL {
            assert_eq!(editor.edit(&born, edit, &mut rng(1)), None, "{edit}");
            assert_eq!(editor.edit(&city, edit, &mut rng(1)), None, "{edit}");
        }
        // An untyped object has no concept: only the relation edits apply.
        let guitar = fact(&ix, "lennon", "instrument", "guitar");
        for edit in [Edit::Nsc, Edit::Ndc, Edit::Nnsc, Edit::Nndc] {
            assert_eq!(editor.edit(&guitar, edit, &mut rng(1)), None, "{edit}");
        }
        let nnsr = editor.edit(&guitar, Edit::Nnsr, &mut rng(1)).unwrap();
        assert_eq!(nnsr.object, id(&ix, "voice"));
    }

    #[test]
    fn an_edit_is_never_a_true_triple_nor_reads_like_one() {
        let ix = index();
        let mut editor = Editor::new(&ix, 5);
        let mut made = 0;
        for f in ix.facts() {
            for edit in Edit::ALL {
                for seed in 0..20 {
                    let Some(e) = editor.edit(f, edit, &mut rng(seed)) else {
                        continue;
                    };
                    made += 1;
                    let o2 = e.object;
                    assert!(!ix.contains(&[f[0], f[1], o2]), "{edit}: {f:?} -> {o2}");
                    assert!(o2 != f[0] && o2 != f[2]);
                    assert!(ix.entities().binary_search(&o2).is_ok());
                    assert_ne!(ix.label(o2).to_lowercase(), ix.label(f[2]).to_lowercase());
                    assert_eq!(e.hops.is_some(), edit.is_neighbour());
                }
            }
        }
        assert!(made > 100, "{made}");
    }

    #[test]
    fn an_object_sharing_a_true_objects_name_is_never_drawn() {
        let kg = LocalKg::from_turtle(
            "@prefix ex: <http://example.org/> .\n\
             @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
             ex:jam a ex:Country ; rdfs:label \"Jamaica\" ; ex:capital ex:k1 .\n\
             ex:nfk a ex:Country ; rdfs:label \"Norfolk Island\" ; ex:capital ex:k2 .\n\
             ex:k1 a ex:City ; rdfs:label \"Kingston\" . ex:k2 a ex:City ; rdfs:label \"kingston\" .\n",
            "test",
        )
        .unwrap();
        let ix = KgIndex::build(&kg, &|_| {}).unwrap();
        let mut editor = Editor::new(&ix, 5);
        let f = fact(&ix, "jam", "capital", "k1");
        for seed in 0..50 {
            for edit in Edit::ALL {
                assert_ne!(
                    editor.edit(&f, edit, &mut rng(seed)).map(|e| e.object),
                    Some(id(&ix, "k2"))
                );
            }
        }
    }

    #[test]
    fn draws_follow_the_seed() {
        let ix = index();
        let f = fact(&ix, "lennon", "deathPlace", "nyc");
        let mut a = Editor::new(&ix, 5);
        let mut b = Editor::new(&ix, 5);
        for seed in 0..30 {
            for edit in Edit::ALL {
                assert_eq!(
                    a.edit(&f, edit, &mut rng(seed)),
                    b.edit(&f, edit, &mut rng(seed))
                );
            }
        }
    }

    #[test]
    fn edit_names() {
        assert_eq!(Edit::parse("nsc"), Some(Edit::Nsc));
        assert_eq!(Edit::parse(" NNDR "), Some(Edit::Nndr));
        assert_eq!(Edit::parse("NnSr"), Some(Edit::Nnsr));
        assert_eq!(Edit::parse("nope"), None);
        assert!("xyz".parse::<Edit>().is_err());
        assert_eq!("ndc".parse::<Edit>().unwrap(), Edit::Ndc);
        for e in Edit::ALL {
            assert_eq!(Edit::parse(e.as_str()), Some(e));
            let json = serde_json::to_string(&e).unwrap();
            assert_eq!(json, format!("\"{}\"", e.as_str()));
            let name = clap::ValueEnum::to_possible_value(&e).unwrap();
            assert_eq!(name.get_name(), e.as_str().to_lowercase());
        }
        assert_eq!(Edit::ALL.iter().filter(|e| e.is_neighbour()).count(), 2);
    }
}

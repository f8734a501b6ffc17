//! KG-FPQ's six edits (Zhu et al., 2024, §3.1): a false triple (s, p, o') made
//! from a true one (s, p, o) by choosing o' by its distance from s in the KG and its kinship
//! with o. The closer o' is to s, and the more it has in common with o, the more confusing the
//! false premise.
//!
//! This module draws o'; wording the questions is left to the question formats.

use std::collections::{HashMap, HashSet};

use rand::Rng;

use crate::kg::index::{Fact, Id, KgIndex};
use crate::kg::neighbourhood::{self, is_entity_node};
use crate::questions::grammar::names_answer;
use crate::questions::{templates, TemplateSet};
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

/// Why an edit made no false premise for a fact: what the generation report counts per edit,
/// so that a run smaller than asked says which edit failed and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NoEdit {
    /// The object is a literal: there is no entity to replace it with.
    Literal,
    /// The subject's name states the object ("Utah" in "Utah Jazz"): the paper skips these.
    NamedInSubject,
    /// The object has no type, so no concept to be the same as or different from.
    NoConcept,
    /// Candidates exist, but all of them are on the wrong side of the hop bound: every one
    /// within it for a not-neighbour edit, none within it for a neighbour edit.
    Distance,
    /// No candidate survives the checks: a true premise, a name that reads as a true object,
    /// an object of a kind the relation's slot does not take, or a question already made.
    NoCandidate,
}

impl NoEdit {
    /// The reason, in words, after "<edit>: <n> facts with no candidate: ".
    pub fn describe(self, max_hops: u8, edit: Edit) -> String {
        match self {
            NoEdit::Literal => "the object is a literal".into(),
            NoEdit::NamedInSubject => "the subject's name states the object".into(),
            NoEdit::NoConcept => "the object has no type (no concept)".into(),
            NoEdit::Distance if edit.is_neighbour() => {
                format!("no candidate within {max_hops} hops of the subject")
            }
            NoEdit::Distance => format!(
                "every candidate is within {max_hops} hops of the subject (a smaller --max-hops \
                 leaves some out of reach)"
            ),
            NoEdit::NoCandidate => "every candidate would be true, of a kind the relation does \
                                    not take, or a question already made"
                .into(),
        }
    }
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

/// The KG's schema and reification nodes that the index may still list as entities: a
/// property declared with a type but used only on reified statements ("point in time", a
/// qualifier of blank `rdf:Statement` nodes, which the index leaves out of its facts), that
/// is, anything of a type that the KG's predicates or classes have. Such a node is never what a fact is
/// about, so no edit puts it in a premise. Derived from the KG's structure, not from names.
pub struct Meta {
    /// Types that some relation or class of the KG has (`rdf:Property`, `rdfs:Class`).
    schema_types: HashSet<Id>,
}

impl Meta {
    pub fn new(index: &KgIndex) -> Self {
        let mut schema_types = HashSet::new();
        let mut classes: HashSet<Id> = HashSet::new();
        for e in index.entities() {
            classes.extend(index.types_of(*e));
        }
        for r in index.relations() {
            schema_types.extend(index.types_of(r.predicate));
        }
        for c in classes {
            schema_types.extend(index.types_of(c));
        }
        Self { schema_types }
    }

    /// Whether `e` is a schema or reification node: of a type the KG's relations or classes
    /// have (a property that qualifies reified statements is declared like the relations).
    pub fn is_meta(&self, index: &KgIndex, e: Id) -> bool {
        index
            .types_of(e)
            .iter()
            .any(|t| self.schema_types.contains(t))
    }
}

/// Whether the premise (s, p, c) is true by the KG's own account: a KG fact, or stated for `s`
/// under another relation whose objects are of the same type ("Malawi is a sovereign state"
/// as its UN-membership status, when its sovereignty status says so; both are status values
/// and the templates word both "{head} is {tail}"). `o` is the true object being replaced.
pub fn premise_stated(index: &KgIndex, [s, p, o]: Fact, c: Id) -> bool {
    if index.contains(&[s, p, c]) {
        return true;
    }
    let tail_type = |q: Id| index.relation(q).and_then(|r| r.tail_type);
    let c_types = index.types_of(c);
    index.facts_from(s).iter().any(|f| {
        f[2] == c
            && (index.types_of(o).iter().any(|t| c_types.contains(t))
                || (tail_type(f[1]).is_some() && tail_type(f[1]) == tail_type(p)))
    })
}

/// Which kinds of thing can stand in for one another in a relation's slot: a kind and the
/// kinds the KG links it to by some relation (a city and its state, a country and its
/// continent, a subregion and its region). A different-concept edit puts a state where a
/// city was ("based in the state of Seattle"), never a player where a team was ("won by the
/// franchise now known as the Ron Bonham"), a person where a periodic-table group was, or a
/// language where a status was ("Is Norway Nepali?"): kinds the KG never relates to the
/// replaced object's kind are of another sort, and the slot's wording does not take them.
pub struct SlotKinds(HashSet<(Id, Id)>);

impl SlotKinds {
    pub fn new(index: &KgIndex) -> Self {
        let mut links = HashSet::new();
        for r in index.relations() {
            if let (Some(h), Some(t)) = (r.head_type, r.tail_type) {
                links.insert((h, t));
                links.insert((t, h));
            }
        }
        Self(links)
    }

    /// Whether `c` can take the place of `o` as the object of `s`: of one of `o`'s types, or
    /// of a type the KG links to one of them that is not the subject's own (the link from a
    /// player's league to players is the relation itself: "Has X played in Pete Chilcutt?").
    /// An untyped `o` or `c` says nothing against it.
    pub fn fits(&self, index: &KgIndex, s: Id, o: Id, c: Id) -> bool {
        let (o_types, c_types) = (index.types_of(o), index.types_of(c));
        if o_types.is_empty() || c_types.is_empty() {
            return true;
        }
        if o_types.iter().any(|t| c_types.contains(t)) {
            return true;
        }
        let s_types = index.types_of(s);
        !c_types.iter().any(|t| s_types.contains(t))
            && o_types
                .iter()
                .any(|ot| c_types.iter().any(|ct| self.0.contains(&(*ot, *ct))))
    }
}

/// Whether the true object `o` has `c` as the object of one of its facts: a premise about `c`
/// may then be true by what `o` is ("Madrid is in Europe" for Madrid in Spain, Spain in
/// Europe), so `c` is no false premise.
fn points_to(index: &KgIndex, o: Id, c: Id) -> bool {
    index.facts_from(o).iter().any(|f| f[2] == c)
}

/// A concept is a catch-all when its members are most of the KG's typed entities (players in
/// a league's KG, isotopes in one of elements): "the same concept" says little then.
fn is_catch_all(index: &KgIndex, concept: Id, typed: usize) -> bool {
    2 * index.members_of(concept).len() > typed
}

/// Random picks tried before a pool is filtered in full: most draws are accepted at once, and
/// a full filter per draw would cost a scan of every typed entity for each NDC/NNDC edit.
const TRIES: usize = 24;

/// Hop maps kept before the cache is emptied (entries over all subjects): bounds memory on a
/// big KG, where a five-hop neighbourhood can hold most of the graph.
const CACHE_ENTRIES: usize = 1 << 22;

/// A question already made, as its reader sees it: the subject's name, the relation's wording
/// (its yes/no template, or the relation itself without templates) and the object's name.
/// Two premises with one key read the same: "Washington" the city and the state, or two
/// status relations both worded "Is {head} {tail}?".
type Asked = (String, String, String);

/// Draws the edited objects of facts. Keeps each subject's neighbourhood, so the six edits
/// of a fact, and the facts of one subject, search the KG once.
pub struct Editor<'a> {
    index: &'a KgIndex,
    max_hops: u8,
    /// [`concept_of`] for every typed entity.
    concepts: HashMap<Id, Id>,
    /// Entities with a concept, sorted, schema nodes left out: the pool of the
    /// different-concept edits.
    typed: Vec<Id>,
    /// Fact objects that are entities, sorted: the pool of NNDR.
    entity_objects: Vec<Id>,
    meta: Meta,
    slots: SlotKinds,
    /// The types of each relation's objects, worked out on first use ([`Self::in_range`]).
    ranges: HashMap<Id, HashSet<Id>>,
    hops: HashMap<Id, HashMap<Id, u8>>,
    cached_entries: usize,
    /// Premises already asked in this set (and the true ones): a second edit that lands on
    /// one draws again, so no two questions of a set read the same.
    asked: HashSet<Asked>,
    /// The templates the questions are worded with, for [`Asked`].
    templates: Option<&'a TemplateSet>,
}

impl<'a> Editor<'a> {
    /// An editor whose neighbours are within `max_hops` of the subject (the paper's is 5).
    pub fn new(index: &'a KgIndex, max_hops: u8) -> Self {
        let meta = Meta::new(index);
        let concepts: HashMap<Id, Id> = index
            .entities()
            .iter()
            .filter(|&&e| !meta.is_meta(index, e))
            .filter_map(|&e| concept_of(index, e).map(|c| (e, c)))
            .collect();
        let mut typed: Vec<Id> = concepts.keys().copied().collect();
        typed.sort_unstable();
        let entity_objects: Vec<Id> = index
            .objects()
            .iter()
            .copied()
            .filter(|o| index.entities().binary_search(o).is_ok() && !meta.is_meta(index, *o))
            .collect();
        Self {
            index,
            max_hops,
            concepts,
            typed,
            entity_objects,
            meta,
            slots: SlotKinds::new(index),
            ranges: HashMap::new(),
            hops: HashMap::new(),
            cached_entries: 0,
            asked: HashSet::new(),
            templates: None,
        }
    }

    /// An editor that knows how premises are worded: two relations with one wording count as
    /// one when it keeps premises from repeating.
    pub fn with_templates(mut self, templates: &'a TemplateSet) -> Self {
        self.templates = Some(templates);
        self
    }

    pub fn max_hops(&self) -> u8 {
        self.max_hops
    }

    /// Whether `c` is of a kind relation `p` takes as its object somewhere in the KG: a
    /// different concept still fits the slot ("a city in Macedonia (region)", not "a city in
    /// Macedonian", a language; "won by the Boston Celtics", never "by the Denver", a city).
    /// An untyped `c`, or a relation whose objects are untyped, says nothing against it.
    fn in_range(&self, p: Id, c: Id) -> bool {
        let range = &self.ranges[&p];
        let types = self.index.types_of(c);
        range.is_empty() || types.is_empty() || types.iter().any(|t| range.contains(t))
    }

    /// The entity's concept (see [`concept_of`]).
    pub fn concept(&self, e: Id) -> Option<Id> {
        self.concepts.get(&e).copied()
    }

    /// How the relation of (s, p, ·) is worded: its yes/no template (which depends on the
    /// subject's types and the relation only), or the relation's IRI.
    /// Both forms a premise is asked in count: the yes/no question and the statement the
    /// generative question is built from ("Is it true that {head} is {tail}?" and "Is {head}
    /// {tail}?" share the statement "{head} is {tail}.").
    fn wordings(&self, s: Id, p: Id) -> Vec<String> {
        match self.templates {
            Some(set) => {
                let t = templates::template_for(self.index, set, &[s, p, s]);
                vec![t.yesno(), t.statement]
            }
            None => vec![crate::kg::term_str(self.index.term(p)).to_string()],
        }
    }

    fn asked_keys(&self, [s, p, o]: Fact) -> Vec<Asked> {
        let ix = self.index;
        let (s_label, o_label) = (ix.label(s).to_lowercase(), ix.label(o).to_lowercase());
        self.wordings(s, p)
            .into_iter()
            .map(|w| (s_label.clone(), w, o_label.clone()))
            .collect()
    }

    /// Records a premise as asked (a true-premise question), so no edit repeats it.
    pub fn reserve(&mut self, fact: &Fact) {
        let keys = self.asked_keys(*fact);
        self.asked.extend(keys);
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

    /// [`Editor::try_edit`], without the reason when there is no candidate.
    pub fn edit(&mut self, fact: &Fact, edit: Edit, rng: &mut SeededRng) -> Option<Edited> {
        self.try_edit(fact, edit, rng).ok()
    }

    /// The object `edit` puts in place of `fact`'s, drawn uniformly among its candidates with
    /// `rng`, or why there is none. Never for a fact whose object is a literal or names itself
    /// in the subject ("Utah" for the Utah Jazz: the paper's string replacement would edit the
    /// subject too), nor, for the concept edits, for an untyped object.
    ///
    /// A candidate o' is an entity other than s and o, not a schema node ([`Meta`]), of a kind
    /// that can take o's place ([`SlotKinds`]), and the premise (s, p, o') is not true by
    /// the KG ([`premise_stated`]), does not read as right (its label is not that of one of
    /// s's true objects for p, nor named inside the subject's label), and was not asked
    /// already. The same-concept edits prefer the members of o's concept that are objects of
    /// p when the concept is a catch-all or holds the values of several relations (status
    /// values of landlocked and of UN membership), and take the whole concept only when that
    /// leaves none.
    pub fn try_edit(
        &mut self,
        fact: &Fact,
        edit: Edit,
        rng: &mut SeededRng,
    ) -> Result<Edited, NoEdit> {
        let ix = self.index;
        let [s, p, o] = *fact;
        if !is_entity_node(ix, o) {
            return Err(NoEdit::Literal);
        }
        if names_answer(ix, s, o) {
            return Err(NoEdit::NamedInSubject);
        }
        let concept = self.concept(o).or_else(|| concept_of(ix, o));
        if edit != Edit::Nnsr && edit != Edit::Nndr && concept.is_none() {
            return Err(NoEdit::NoConcept);
        }
        self.neighbourhood(s);
        let narrow: Vec<Id>;
        let pools: Vec<&[Id]> = match edit {
            Edit::Nsc | Edit::Nnsc => {
                let k = concept.expect("checked above");
                let all = ix.members_of(k);
                let own = ix.objects_of_predicate(p);
                let shared = all
                    .iter()
                    .any(|m| own.binary_search(m).is_err() && ix.facts_to(*m).iter().any(|_| true));
                if is_catch_all(ix, k, self.typed.len()) || shared {
                    narrow = all
                        .iter()
                        .copied()
                        .filter(|m| own.binary_search(m).is_ok())
                        .collect();
                    vec![&narrow, all]
                } else {
                    vec![all]
                }
            }
            Edit::Ndc | Edit::Nndc => vec![&self.typed],
            Edit::Nnsr => vec![ix.objects_of_predicate(p)],
            Edit::Nndr => vec![&self.entity_objects],
        };
        self.ranges.entry(p).or_insert_with(|| {
            ix.objects_of_predicate(p)
                .iter()
                .flat_map(|&x| ix.types_of(x).iter().copied())
                .collect()
        });
        let mut true_labels: Vec<String> = ix
            .objects_of(s, p)
            .into_iter()
            .chain([o])
            .map(|t| ix.label(t).to_lowercase())
            .collect();
        true_labels.dedup();
        let subject_label = ix.label(s).to_lowercase();
        let wordings = self.wordings(s, p);
        let hops = &self.hops[&s];
        let neighbour_hops = |c: Id| hops.get(&c).copied().filter(|d| *d > 0);
        // Ok(()) for a candidate; Err(true) when only the hop bound rules it out.
        let check = |c: Id| -> Result<(), bool> {
            if c == o || c == s || ix.entities().binary_search(&c).is_err() {
                return Err(false);
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
            if !kin
                || self.meta.is_meta(ix, c)
                || !self.slots.fits(ix, s, o, c)
                || (edit.other_kind() && !self.in_range(p, c))
                || points_to(ix, o, c)
                || crate::questions::fair::unfair_object(ix, fact, c).is_some()
            {
                return Err(false);
            }
            let label = ix.label(c).to_lowercase();
            if true_labels.contains(&label)
                || premise_stated(ix, *fact, c)
                || names_answer(ix, s, c)
                || wordings.iter().any(|w| {
                    self.asked
                        .contains(&(subject_label.clone(), w.clone(), label.clone()))
                })
            {
                return Err(false);
            }
            if edit.is_neighbour() != neighbour_hops(c).is_some() {
                return Err(true);
            }
            Ok(())
        };
        let mut distance = false;
        let mut object = None;
        for pool in pools {
            match draw(pool, rng, check) {
                Ok(c) => {
                    object = Some(c);
                    break;
                }
                Err(d) => distance |= d,
            }
        }
        let Some(object) = object else {
            return Err(if distance {
                NoEdit::Distance
            } else {
                NoEdit::NoCandidate
            });
        };
        let edited = Edited {
            edit,
            object,
            hops: if edit.is_neighbour() {
                neighbour_hops(object)
            } else {
                None
            },
        };
        let keys = self.asked_keys([s, p, object]);
        self.asked.extend(keys);
        Ok(edited)
    }
}

/// A uniform draw among the members of `pool` (distinct ids) that `check` accepts: random
/// picks first, then, when those all fail, the whole pool filtered. Either way each accepted
/// member is equally likely. With none, whether some member failed on the hop bound alone.
fn draw(
    pool: &[Id],
    rng: &mut SeededRng,
    check: impl Fn(Id) -> Result<(), bool>,
) -> Result<Id, bool> {
    if pool.is_empty() {
        return Err(false);
    }
    for _ in 0..TRIES {
        let c = pool[rng.random_range(0..pool.len())];
        if check(c).is_ok() {
            return Ok(c);
        }
    }
    let mut distance = false;
    let mut all = Vec::new();
    for &c in pool {
        match check(c) {
            Ok(()) => all.push(c),
            Err(d) => distance |= d,
        }
    }
    if all.is_empty() {
        Err(distance)
    } else {
        Ok(all[rng.random_range(0..all.len())])
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
        // A fresh editor per seed: one editor never draws a premise twice.
        (0..200)
            .filter_map(|seed| Editor::new(ix, 5).edit(f, edit, &mut rng(seed)))
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
        // Liverpool, the paper's own NSC, is Lennon's birthplace: the KG states it for him
        // under a relation with city objects, so asking it tests the relation, not what a
        // model knows of him. No other city is within reach.
        assert_eq!(draws(&ix, &f, Edit::Nsc), set(&[]));
        assert_eq!(
            Editor::new(&ix, 5).try_edit(&f, Edit::Nsc, &mut rng(1)),
            Err(NoEdit::Distance)
        );
        // The United Kingdom at two hops: a place, which a place of death can be. The Beatles
        // and the football club of New York City are of kinds the relation never takes
        // ("died in the Beatles"), and the United States holds New York City: "died in the
        // United States" would be true. NATO and the guitar are no kin of cities.
        assert_eq!(draws(&ix, &f, Edit::Ndc), set(&[("uk", Some(2))]));
        // Cities out of reach, the objects of the relation first: Paris is a place of death.
        assert_eq!(draws(&ix, &f, Edit::Nnsc), set(&[("paris", None)]));
        // Out of reach, of a kind linked to cities, not a person (the subject's kind).
        assert_eq!(draws(&ix, &f, Edit::Nndc), set(&[("france", None)]));
        // Where someone else died.
        assert_eq!(draws(&ix, &f, Edit::Nnsr), set(&[("paris", None)]));
        // Objects of other relations only, out of reach: Paris is a place of death too.
        assert_eq!(
            draws(&ix, &f, Edit::Nndr),
            set(&[("france", None), ("voice", None)])
        );
    }

    #[test]
    fn hops_are_the_shortest_distance() {
        let ix = index();
        // From the Beatles: Liverpool at 1, Lennon at 1, New York City at 2 (through Lennon),
        // the United States at 3.
        let f = fact(&ix, "beatles", "formedIn", "liverpool");
        assert_eq!(draws(&ix, &f, Edit::Nsc), set(&[("nyc", Some(2))]));
        // Of another concept and a place: the United States at 3 (Lennon, a person, and the
        // club are no places a band is formed in).
        let ndc = draws(&ix, &f, Edit::Ndc);
        assert_eq!(ndc, set(&[("usa", Some(3))]));
        // A tighter bound leaves the United States (3 hops) out of the neighbours and in
        // the far ones.
        let far = |bound: u8| -> BTreeSet<Id> {
            (0..200)
                .filter_map(|seed| Editor::new(&ix, bound).edit(&f, Edit::Nndc, &mut rng(seed)))
                .map(|e| e.object)
                .collect()
        };
        assert!(far(2).contains(&id(&ix, "usa")));
        assert!(!far(3).contains(&id(&ix, "usa")));
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
        let mut made = 0;
        for f in ix.facts() {
            for edit in Edit::ALL {
                for seed in 0..20 {
                    let Some(e) = Editor::new(&ix, 5).edit(f, edit, &mut rng(seed)) else {
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

    /// A country KG with what went wrong on the samples: two status relations sharing one
    /// type of values, a qualifier property declared like the relations, a player linked to
    /// the league (of the subject's own kind for a league fact).
    const SAMPLE_LIKE: &str = "@prefix ex: <http://example.org/> .\n\
        @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n\
        @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
        @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\
        ex:un a rdf:Property ; rdfs:label \"UN status\" .\n\
        ex:when a rdf:Property ; rdfs:label \"point in time\" .\n\
        ex:mw a ex:Country ; rdfs:label \"Malawi\" ; ex:un ex:member ; ex:sov ex:sovereign .\n\
        ex:gu a ex:Country ; rdfs:label \"Guam\" ; ex:un ex:nonmember ; ex:sov ex:dependent .\n\
        ex:member a ex:Status ; rdfs:label \"a UN member\" .\n\
        ex:nonmember a ex:Status ; rdfs:label \"not a UN member\" .\n\
        ex:sovereign a ex:Status ; rdfs:label \"a sovereign state\" .\n\
        ex:dependent a ex:Status ; rdfs:label \"a dependent territory\" .\n\
        ex:bob a ex:Player ; rdfs:label \"Bob\" ; ex:league ex:nba .\n\
        ex:al a ex:Player ; rdfs:label \"Al\" ; ex:league ex:nba .\n\
        ex:nba a ex:League ; rdfs:label \"NBA\" . ex:wnba a ex:League ; rdfs:label \"WNBA\" .\n\
        [] a rdf:Statement ; rdf:subject ex:mw ; rdf:predicate ex:un ; rdf:object ex:member ;\n\
        \x20   ex:when \"1964\"^^xsd:gYear .\n";

    fn sample_like() -> KgIndex {
        let kg = LocalKg::from_turtle(SAMPLE_LIKE, "test").unwrap();
        KgIndex::build(&kg, &|_| {}).unwrap()
    }

    /// Every object any edit draws for `f`, over 100 seeds, each with a fresh editor.
    fn all_draws(ix: &KgIndex, f: &Fact) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for edit in Edit::ALL {
            for seed in 0..100 {
                if let Some(e) = Editor::new(ix, 5).edit(f, edit, &mut rng(seed)) {
                    out.insert(crate::kg::vocab::local_name(crate::kg::term_str(
                        ix.term(e.object),
                    )));
                }
            }
        }
        out
    }

    #[test]
    fn a_qualifier_property_is_schema_and_never_drawn() {
        let ix = sample_like();
        let when = id(&ix, "when");
        // The index lists it as an entity (typed, in no fact), the editor does not.
        assert!(ix.entities().binary_search(&when).is_ok());
        let meta = Meta::new(&ix);
        assert!(meta.is_meta(&ix, when));
        assert!(!meta.is_meta(&ix, id(&ix, "mw")));
        for f in ix.facts() {
            assert!(!all_draws(&ix, f).contains("when"), "{f:?}");
        }
    }

    #[test]
    fn a_premise_the_kg_states_under_another_relation_is_never_drawn() {
        let ix = sample_like();
        // Malawi's UN status: "a sovereign state" is its sovereignty status, a status value
        // too, so "Is Malawi a sovereign state?" would be true; Guam's values are not.
        let f = fact(&ix, "mw", "un", "member");
        assert!(premise_stated(&ix, f, id(&ix, "sovereign")));
        assert!(!premise_stated(&ix, f, id(&ix, "dependent")));
        let drawn = all_draws(&ix, &f);
        assert!(!drawn.contains("sovereign"), "{drawn:?}");
        // The UN status values come first (the concept holds several relations' values).
        assert!(drawn.contains("nonmember"), "{drawn:?}");
    }

    #[test]
    fn an_object_of_the_subjects_own_kind_never_replaces_another_kind() {
        let ix = sample_like();
        let f = fact(&ix, "bob", "league", "nba");
        let slots = SlotKinds::new(&ix);
        // Players and leagues are linked (by this very relation), but a player is the
        // subject's kind: "Has Bob played in Al?".
        assert!(!slots.fits(&ix, id(&ix, "bob"), id(&ix, "nba"), id(&ix, "al")));
        assert!(slots.fits(&ix, id(&ix, "bob"), id(&ix, "nba"), id(&ix, "wnba")));
        let drawn = all_draws(&ix, &f);
        assert!(!drawn.contains("al"), "{drawn:?}");
        assert_eq!(drawn, BTreeSet::from(["wnba".to_string()]));
    }

    #[test]
    fn one_editor_never_draws_a_premise_twice_and_says_why() {
        let ix = sample_like();
        let f = fact(&ix, "bob", "league", "nba");
        let mut editor = Editor::new(&ix, 5);
        // The only other league (out of Bob's reach), once: a second draw finds nothing.
        let first = editor.try_edit(&f, Edit::Nnsc, &mut rng(1)).unwrap();
        assert_eq!(first.object, id(&ix, "wnba"));
        assert_eq!(
            editor.try_edit(&f, Edit::Nnsc, &mut rng(2)),
            Err(NoEdit::NoCandidate)
        );
        // No other league is within 5 hops of Bob: the neighbour edit says so.
        assert_eq!(
            Editor::new(&ix, 5).try_edit(&f, Edit::Nsc, &mut rng(1)),
            Err(NoEdit::Distance)
        );
        // A reserved true premise is not asked again as a false one either.
        let mut reserved = Editor::new(&ix, 5);
        reserved.reserve(&[id(&ix, "bob"), id(&ix, "league"), id(&ix, "wnba")]);
        assert!(reserved.try_edit(&f, Edit::Nnsc, &mut rng(1)).is_err());
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

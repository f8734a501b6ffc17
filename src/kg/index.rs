//! An interned, in-memory snapshot of the parts of a KG that question generation needs.
//!
//! It is built from four bulk SELECT queries (facts, labels, aliases, types), so it costs the
//! same few round trips against a remote endpoint as against the embedded store. Terms are
//! numbered in the order of their N-Triples form, and facts are sorted, so the index — and
//! every question drawn from it with a given seed — is the same whichever source served the
//! rows and in whatever order.

use std::collections::HashMap;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::profile::shape::Counters;
use super::profile::{LeftOut, Profile};
use super::vocab::{self, iri_list};
use super::{KgError, KnowledgeGraph, Result, Term};

pub type Id = u32;

/// A fact: subject, predicate, object term ids.
pub type Fact = [Id; 3];

#[derive(Debug, Clone)]
pub struct RelationStat {
    pub predicate: Id,
    pub count: usize,
    /// The most frequent type among the relation's heads / tails (GraphEval's definition of a
    /// relation's head and tail entity type).
    pub head_type: Option<Id>,
    pub tail_type: Option<Id>,
}

pub struct KgIndex {
    pub(super) terms: Vec<Term>,
    ids: HashMap<Term, Id>,
    /// Sorted by (s, p, o); a binary search answers "is this a KG triple?".
    pub(super) facts: Vec<Fact>,
    pub(super) labels: HashMap<Id, String>,
    /// Labels other than the preferred one (English or untagged, as aliases), only for the
    /// entities that have any; for the entity card, not part of questions or the fingerprint.
    pub(super) other_labels: HashMap<Id, Vec<String>>,
    pub(super) aliases: HashMap<Id, Vec<String>>,
    pub(super) types: HashMap<Id, Vec<Id>>,
    /// The entities of each type, sorted: where a type-aware negative draws a replacement.
    members: HashMap<Id, Vec<Id>>,
    years: HashMap<Id, i32>,
    /// Years of facts dated by a qualifier on their reification (the earliest when several).
    pub(super) qualifier_years: HashMap<Fact, i32>,
    /// Fact indices per predicate, in fact order.
    by_predicate: HashMap<Id, Vec<usize>>,
    /// Every fact's index, sorted by object (then by index): the facts pointing at an entity
    /// are one run, found by binary search instead of a scan. 4 bytes a fact, a third of
    /// what the facts themselves take.
    by_object: Vec<u32>,
    /// Distinct objects seen with each predicate (KGLens' C_j), sorted.
    objects_by_predicate: HashMap<Id, Vec<Id>>,
    pub(super) relations: Vec<RelationStat>,
    /// IRIs that are subjects or objects of facts, or typed, minus classes and predicates.
    entities: Vec<Id>,
    /// Distinct fact objects, sorted.
    objects: Vec<Id>,
    pub(super) fingerprint: String,
    /// For an index of a sample of the KG (`kg::bounded`): the entities whose every fact
    /// over the index's relations is in the index, sorted. `None` for the whole KG.
    closed: Option<Vec<Id>>,
    /// Entities whose label another entity has as its label or an alias, found on first use
    /// ([`Self::shares_name`]).
    shared_names: std::sync::OnceLock<std::collections::HashSet<Id>>,
    /// Named entities by their label's words (lower-cased, joined by a space), built on first
    /// use ([`Self::named`]).
    by_name: std::sync::OnceLock<HashMap<String, Vec<Id>>>,
    /// Named entities by the words of their aliases and other labels, codes left out, built on
    /// first use ([`Self::aliased`]).
    by_alias: std::sync::OnceLock<HashMap<String, Vec<Id>>>,
    /// The profile the index was built under ([`super::profile`]).
    pub(super) profile: Arc<Profile>,
    /// Popularity counters the KG keeps for its entities (Wikidata's page counters).
    pub(super) counters: HashMap<Id, Counters>,
}

pub use super::IndexRows;

/// What an index is made of: the terms in N-Triples order (`ids` their inverse), the facts
/// sorted, and what the KG says about its entities. All the rest is derived from these
/// ([`KgIndex::from_parts`]); `kg::index_file` keeps them on disk.
pub(super) struct Parts {
    pub terms: Vec<Term>,
    pub ids: HashMap<Term, Id>,
    pub facts: Vec<Fact>,
    pub labels: HashMap<Id, String>,
    pub other_labels: HashMap<Id, Vec<String>>,
    pub aliases: HashMap<Id, Vec<String>>,
    pub types: HashMap<Id, Vec<Id>>,
    pub qualifier_years: HashMap<Fact, i32>,
    pub fingerprint: String,
    /// The relations with their head and tail types, when known already (a saved index):
    /// the one derived part that costs a pass over every fact's types.
    pub relations: Option<Vec<RelationStat>>,
    pub counters: HashMap<Id, Counters>,
}

/// Picks the preferred label among candidates: English or untagged first, then the order of
/// [`vocab::LABELS`], then the lexically smallest, so the choice never depends on row order.
pub(crate) fn label_rank(pred: &str, lang: Option<&str>) -> (u8, usize) {
    let pred_rank = vocab::LABELS.iter().position(|p| *p == pred).unwrap_or(9);
    (lang_rank(lang), pred_rank)
}

/// A text's language preference: English first, then untagged, then any other.
pub(crate) fn lang_rank(lang: Option<&str>) -> u8 {
    match lang {
        Some(l) if l.eq_ignore_ascii_case("en") || l.to_ascii_lowercase().starts_with("en-") => 0,
        None => 1,
        Some(_) => 2,
    }
}

fn lang_of(t: &Term) -> Option<&str> {
    match t {
        Term::Literal(l) => l.language(),
        _ => None,
    }
}

impl KgIndex {
    /// Builds the index from the KG under `profile`, never from a saved one: from a scan
    /// of its quads where it has them (a local store), else by queries.
    pub fn build_fresh_with(
        kg: &dyn KnowledgeGraph,
        profile: &Profile,
        progress: &dyn Fn(&str),
    ) -> Result<Self> {
        if !profile.is_generic() {
            return Ok(Self::build_profiled(kg, profile, progress)?.0);
        }
        if let Some(rows) = {
            progress("scanning the store");
            kg.index_rows()
        } {
            let r = rows?;
            progress("indexing");
            return Ok(Self::from_rows(
                r.facts,
                r.labels,
                r.aliases,
                r.types,
                r.qualifiers,
            ));
        }
        Self::build_by_queries(kg, progress)
    }

    /// Builds the index under a profile other than the generic one: every triple, read as
    /// the profile says ([`super::profile::shape`]), and what it left out of the facts.
    pub fn build_profiled(
        kg: &dyn KnowledgeGraph,
        profile: &Profile,
        progress: &dyn Fn(&str),
    ) -> Result<(Self, LeftOut)> {
        progress("reading the triples");
        let triples = match kg.triples() {
            Some(t) => t?,
            None => kg.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }", &["s", "p", "o"])?,
        };
        progress(&format!("reading the KG as {}", profile.name));
        Ok(Self::from_triples(profile, triples, progress))
    }

    /// The index of `triples` read under `profile` ([`super::profile::shape`]), and what the
    /// profile left out of the facts: the whole KG's triples, or a bounded draw's
    /// (`kg::bounded`).
    pub(crate) fn from_triples(
        profile: &Profile,
        triples: Vec<super::Row>,
        progress: &dyn Fn(&str),
    ) -> (Self, LeftOut) {
        let shaped = super::profile::shape(profile, triples);
        let r = shaped.rows;
        progress("indexing");
        let mut index = Self::from_rows(r.facts, r.labels, r.aliases, r.types, r.qualifiers);
        for (t, c) in shaped.counters {
            if let Some(id) = index.id(&t) {
                index.counters.insert(id, c);
            }
        }
        // The same triples read under another profile are another index: its questions'
        // ids and its saved file must not be taken for this one's.
        let mut h = Sha256::new();
        h.update(index.fingerprint.as_bytes());
        h.update(b" profile ");
        h.update(profile.key().as_bytes());
        index.fingerprint = hex::encode(&h.finalize()[..8]);
        index.profile = Arc::new(profile.clone());
        (index, shaped.left_out)
    }

    /// Builds the index from SPARQL queries (an endpoint's only way; the baseline of
    /// `kgscope bench kg` for a store).
    pub fn build_by_queries(kg: &dyn KnowledgeGraph, progress: &dyn Fn(&str)) -> Result<Self> {
        let meta = vocab::meta_predicates();
        progress("reading facts");
        let fact_rows = kg.select(
            &format!(
                "SELECT ?s ?p ?o WHERE {{ ?s ?p ?o . FILTER(isIRI(?s) && !isBlank(?o) && ?p NOT IN ({})) }}",
                iri_list(&meta).replace("> <", ">, <")
            ),
            &["s", "p", "o"],
        )?;
        progress("reading labels");
        let label_rows = kg.select(
            &format!(
                "SELECT ?s ?p ?l WHERE {{ VALUES ?p {{ {} }} ?s ?p ?l . FILTER(isLiteral(?l)) }}",
                iri_list(&vocab::LABELS)
            ),
            &["s", "p", "l"],
        )?;
        progress("reading aliases");
        let alias_rows = kg.select(
            &format!(
                "SELECT ?s ?l WHERE {{ VALUES ?p {{ {} }} ?s ?p ?l . FILTER(isLiteral(?l)) }}",
                iri_list(&vocab::ALIASES)
            ),
            &["s", "l"],
        )?;
        progress("reading types");
        let type_rows = kg.select(
            &format!(
                "SELECT ?s ?t WHERE {{ VALUES ?p {{ {} }} ?s ?p ?t . FILTER(isIRI(?s) && isIRI(?t)) }}",
                iri_list(&vocab::TYPES)
            ),
            &["s", "t"],
        )?;
        progress("reading date qualifiers");
        // A fact's own date when it is not its object: a date-valued property of the fact's
        // reification ("discovered by Curie", point in time 1898).
        let qualifier_rows = kg.select(
            &format!(
                "SELECT ?s ?p ?o ?d WHERE {{ ?st <{}> ?s ; <{}> ?p ; <{}> ?o ; ?q ?d . \
                 FILTER(isIRI(?s) && isLiteral(?d) && DATATYPE(?d) IN ({})) }}",
                vocab::RDF_SUBJECT,
                vocab::RDF_PREDICATE,
                vocab::RDF_OBJECT,
                iri_list(&vocab::DATES).replace("> <", ">, <")
            ),
            &["s", "p", "o", "d"],
        )?;
        progress("indexing");
        Ok(Self::from_rows(
            fact_rows,
            label_rows,
            alias_rows,
            type_rows,
            qualifier_rows,
        ))
    }

    pub(crate) fn from_rows(
        fact_rows: Vec<super::Row>,
        label_rows: Vec<super::Row>,
        alias_rows: Vec<super::Row>,
        type_rows: Vec<super::Row>,
        qualifier_rows: Vec<super::Row>,
    ) -> Self {
        let full = |r: &super::Row| r.iter().all(Option::is_some);
        // Number terms in N-Triples order.
        let mut distinct: HashMap<Term, ()> = HashMap::new();
        for r in fact_rows.iter().chain(&type_rows).filter(|r| full(r)) {
            for t in r.iter().flatten() {
                if !distinct.contains_key(t) {
                    distinct.insert(t.clone(), ());
                }
            }
        }
        for r in label_rows.iter().chain(&alias_rows).filter(|r| full(r)) {
            if let Some(t) = &r[0] {
                distinct.entry(t.clone()).or_default();
            }
        }
        let mut keyed: Vec<(String, Term)> =
            distinct.into_keys().map(|t| (t.to_string(), t)).collect();
        keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let terms: Vec<Term> = keyed.into_iter().map(|(_, t)| t).collect();
        let ids: HashMap<Term, Id> = terms
            .iter()
            .enumerate()
            .map(|(i, t)| (t.clone(), i as Id))
            .collect();
        let id = |t: &Term| ids[t];

        let mut facts: Vec<Fact> = fact_rows
            .iter()
            .filter(|r| full(r))
            .map(|r| {
                [
                    id(r[0].as_ref().unwrap()),
                    id(r[1].as_ref().unwrap()),
                    id(r[2].as_ref().unwrap()),
                ]
            })
            .collect();
        facts.sort_unstable();
        facts.dedup();

        let mut best_label: HashMap<Id, ((u8, usize), String)> = HashMap::new();
        for r in label_rows.iter().filter(|r| full(r)) {
            let (s, p, l) = (
                r[0].as_ref().unwrap(),
                r[1].as_ref().unwrap(),
                r[2].as_ref().unwrap(),
            );
            let rank = label_rank(super::term_str(p), lang_of(l));
            let text = super::term_str(l).to_string();
            let e = best_label.entry(id(s)).or_insert((rank, text.clone()));
            if (rank, &text) < (e.0, &e.1) {
                *e = (rank, text);
            }
        }
        let labels: HashMap<Id, String> =
            best_label.into_iter().map(|(k, (_, v))| (k, v)).collect();
        let other_labels = other_labels(&label_rows, &labels, &id);

        let mut aliases: HashMap<Id, Vec<String>> = HashMap::new();
        for r in alias_rows.iter().filter(|r| full(r)) {
            let (s, l) = (r[0].as_ref().unwrap(), r[1].as_ref().unwrap());
            if !english_or_untagged(l) {
                continue;
            }
            aliases
                .entry(id(s))
                .or_default()
                .push(super::term_str(l).to_string());
        }
        for (e, list) in aliases.iter_mut() {
            list.sort();
            list.dedup();
            if let Some(label) = labels.get(e) {
                list.retain(|a| a != label);
            }
        }

        let mut types: HashMap<Id, Vec<Id>> = HashMap::new();
        for r in type_rows.iter().filter(|r| full(r)) {
            types
                .entry(id(r[0].as_ref().unwrap()))
                .or_default()
                .push(id(r[1].as_ref().unwrap()));
        }
        for list in types.values_mut() {
            list.sort_unstable();
            list.dedup();
        }

        // A qualifier dates a fact of the KG only: one about a triple that is not a fact is
        // ignored (its terms may not even have ids).
        let mut qualifier_years: HashMap<Fact, i32> = HashMap::new();
        for r in qualifier_rows.iter().filter(|r| full(r)) {
            let ids3 = [&r[0], &r[1], &r[2]].map(|t| t.as_ref().and_then(|t| ids.get(t)).copied());
            let (Some(s), Some(p), Some(o)) = (ids3[0], ids3[1], ids3[2]) else {
                continue;
            };
            let (f, Some(y)) = ([s, p, o], date_year(r[3].as_ref().unwrap())) else {
                continue;
            };
            if facts.binary_search(&f).is_ok() {
                qualifier_years
                    .entry(f)
                    .and_modify(|v| *v = (*v).min(y))
                    .or_insert(y);
            }
        }

        let fingerprint = fingerprint(&terms, &facts, &labels, &aliases, &types, &qualifier_years);
        Self::from_parts(Parts {
            terms,
            ids,
            facts,
            labels,
            other_labels,
            aliases,
            types,
            qualifier_years,
            fingerprint,
            relations: None,
            counters: HashMap::new(),
        })
    }

    /// The index from what it is made of; everything else is derived (by predicate, by
    /// object, relations, entities, members, years).
    pub(super) fn from_parts(parts: Parts) -> Self {
        let Parts {
            terms,
            ids,
            facts,
            labels,
            other_labels,
            aliases,
            types,
            qualifier_years,
            fingerprint,
            relations,
            counters,
        } = parts;
        // Years: the earliest date among an entity's date-valued facts.
        let mut years: HashMap<Id, i32> = HashMap::new();
        for f in &facts {
            if let Some(y) = date_year(&terms[f[2] as usize]) {
                years
                    .entry(f[0])
                    .and_modify(|v| *v = (*v).min(y))
                    .or_insert(y);
            }
        }

        let mut by_predicate: HashMap<Id, Vec<usize>> = HashMap::new();
        let mut objects_by_predicate: HashMap<Id, Vec<Id>> = HashMap::new();
        for (i, f) in facts.iter().enumerate() {
            by_predicate.entry(f[1]).or_default().push(i);
            objects_by_predicate.entry(f[1]).or_default().push(f[2]);
        }
        for list in objects_by_predicate.values_mut() {
            list.sort_unstable();
            list.dedup();
        }
        let by_object = by_object(&facts);

        let most_frequent_type = |members: &mut dyn Iterator<Item = Id>| -> Option<Id> {
            let mut counts: HashMap<Id, usize> = HashMap::new();
            for m in members {
                for t in types.get(&m).into_iter().flatten() {
                    *counts.entry(*t).or_default() += 1;
                }
            }
            // Ties go to the smaller id, i.e. the lexically first class IRI.
            counts
                .into_iter()
                .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
                .map(|(t, _)| t)
        };
        let relations = relations.unwrap_or_else(|| {
            let mut relations: Vec<RelationStat> = by_predicate
                .iter()
                .map(|(p, idx)| RelationStat {
                    predicate: *p,
                    count: idx.len(),
                    head_type: most_frequent_type(&mut idx.iter().map(|i| facts[*i][0])),
                    tail_type: most_frequent_type(&mut idx.iter().map(|i| facts[*i][2])),
                })
                .collect();
            relations.sort_by(|a, b| b.count.cmp(&a.count).then(a.predicate.cmp(&b.predicate)));
            relations
        });

        let classes: std::collections::HashSet<Id> = types.values().flatten().copied().collect();
        let predicates: std::collections::HashSet<Id> = by_predicate.keys().copied().collect();
        let mut entities: Vec<Id> = facts
            .iter()
            .flat_map(|f| [f[0], f[2]])
            .chain(types.keys().copied())
            .filter(|e| terms[*e as usize].is_named_node())
            .filter(|e| !classes.contains(e) && !predicates.contains(e))
            .collect();
        entities.sort_unstable();
        entities.dedup();
        let mut objects: Vec<Id> = facts.iter().map(|f| f[2]).collect();
        objects.sort_unstable();
        objects.dedup();

        let mut members: HashMap<Id, Vec<Id>> = HashMap::new();
        for e in &entities {
            for t in types.get(e).into_iter().flatten() {
                members.entry(*t).or_default().push(*e);
            }
        }

        Self {
            terms,
            ids,
            facts,
            labels,
            other_labels,
            aliases,
            types,
            members,
            years,
            qualifier_years,
            by_predicate,
            by_object,
            objects_by_predicate,
            relations,
            entities,
            objects,
            fingerprint,
            closed: None,
            shared_names: Default::default(),
            by_name: Default::default(),
            by_alias: Default::default(),
            profile: Arc::new(Profile::generic()),
            counters,
        }
    }

    /// Marks the index as a sample of its KG in which only `closed` (IRIs) have all their
    /// facts over the index's relations.
    pub(crate) fn set_closed(&mut self, closed: &[Term]) {
        let mut ids: Vec<Id> = closed.iter().filter_map(|t| self.id(t)).collect();
        ids.sort_unstable();
        ids.dedup();
        self.closed = Some(ids);
    }

    /// Whether the index is a sample of the KG drawn with bounded queries, not the whole KG.
    pub fn is_sample(&self) -> bool {
        self.closed.is_some()
    }

    /// Whether every fact of `e` over the index's relations is in the index: always for the
    /// whole KG; for a sample, for the entities it drew.
    pub fn is_closed(&self, e: Id) -> bool {
        self.closed
            .as_ref()
            .is_none_or(|c| c.binary_search(&e).is_ok())
    }

    /// Whether `f` is known not to be a fact of the KG: it is not in the index, and the
    /// index holds every fact of its subject over its relation. A negative must be known
    /// false; in a sample, a triple about an entity it did not draw may be a fact it never saw.
    pub fn knows_false(&self, f: &Fact) -> bool {
        !self.contains(f) && self.is_closed(f[0]) && self.by_predicate.contains_key(&f[1])
    }

    pub fn term(&self, id: Id) -> &Term {
        &self.terms[id as usize]
    }
    pub fn id(&self, term: &Term) -> Option<Id> {
        self.ids.get(term).copied()
    }
    /// Looks up an IRI given as a plain string.
    pub fn iri_id(&self, iri: &str) -> Option<Id> {
        oxigraph::model::NamedNode::new(iri)
            .ok()
            .and_then(|n| self.id(&Term::NamedNode(n)))
    }
    pub fn facts(&self) -> &[Fact] {
        &self.facts
    }
    /// The facts whose subject is `s`: one contiguous run, since facts are sorted by subject.
    pub fn facts_from(&self, s: Id) -> &[Fact] {
        let start = self.facts.partition_point(|f| f[0] < s);
        let end = self.facts.partition_point(|f| f[0] <= s);
        &self.facts[start..end]
    }
    /// Indices into [`KgIndex::facts`] of the facts whose object is `o`, in fact order.
    pub fn facts_to(&self, o: Id) -> &[u32] {
        let object = |i: &u32| self.facts[*i as usize][2];
        let start = self.by_object.partition_point(|i| object(i) < o);
        let end = self.by_object.partition_point(|i| object(i) <= o);
        &self.by_object[start..end]
    }
    pub fn contains(&self, fact: &Fact) -> bool {
        self.facts.binary_search(fact).is_ok()
    }
    /// The objects of `(s, p)` in the KG (KGLens' T_j), sorted: facts are sorted by
    /// (s, p, o), so they form one contiguous run.
    pub fn objects_of(&self, s: Id, p: Id) -> Vec<Id> {
        let start = self.facts.partition_point(|f| (f[0], f[1]) < (s, p));
        let end = self.facts.partition_point(|f| (f[0], f[1]) <= (s, p));
        self.facts[start..end].iter().map(|f| f[2]).collect()
    }
    /// Distinct objects ever seen with predicate `p` (KGLens' C_j).
    pub fn objects_of_predicate(&self, p: Id) -> &[Id] {
        self.objects_by_predicate.get(&p).map_or(&[], Vec::as_slice)
    }
    pub fn facts_of_predicate(&self, p: Id) -> &[usize] {
        self.by_predicate.get(&p).map_or(&[], Vec::as_slice)
    }
    pub fn relations(&self) -> &[RelationStat] {
        &self.relations
    }
    pub fn relation(&self, p: Id) -> Option<&RelationStat> {
        self.relations.iter().find(|r| r.predicate == p)
    }
    pub fn entities(&self) -> &[Id] {
        &self.entities
    }
    pub fn objects(&self) -> &[Id] {
        &self.objects
    }
    pub fn types_of(&self, e: Id) -> &[Id] {
        self.types.get(&e).map_or(&[], Vec::as_slice)
    }
    /// The entities of type `t`, sorted.
    pub fn members_of(&self, t: Id) -> &[Id] {
        self.members.get(&t).map_or(&[], Vec::as_slice)
    }
    /// The year a fact is about: its object's when the object is a date, else a date
    /// qualifier's on the fact's reification. Never its subject's: a half-life is not dated
    /// by the year the isotope was discovered.
    pub fn fact_year(&self, f: &Fact) -> Option<i32> {
        date_year(self.term(f[2])).or_else(|| self.qualifier_years.get(f).copied())
    }
    /// The year a qualifier on the fact's statement gives it, if one does.
    pub fn qualifier_year(&self, f: &Fact) -> Option<i32> {
        self.qualifier_years.get(f).copied()
    }
    pub fn aliases_of(&self, e: Id) -> &[String] {
        self.aliases.get(&e).map_or(&[], Vec::as_slice)
    }
    /// Labels besides the preferred one ([`KgIndex::label`]), sorted.
    pub fn other_labels_of(&self, e: Id) -> &[String] {
        self.other_labels.get(&e).map_or(&[], Vec::as_slice)
    }
    pub fn has_label(&self, e: Id) -> bool {
        self.labels.contains_key(&e)
    }
    pub fn has_year(&self, e: Id) -> bool {
        self.years.contains_key(&e)
    }
    /// The earliest year among the entity's date-valued facts.
    pub fn year_of(&self, e: Id) -> Option<i32> {
        self.years.get(&e).copied()
    }
    /// The entity's date-valued facts (the ones [`KgIndex::year_of`] draws on), in fact order.
    pub fn dates_of(&self, e: Id) -> impl Iterator<Item = &Fact> {
        self.facts_from(e)
            .iter()
            .filter(|f| date_year(self.term(f[2])).is_some())
    }
    /// Human-readable name: the preferred label, a literal's value, or the IRI's last segment.
    pub fn label(&self, id: Id) -> String {
        if let Some(l) = self.labels.get(&id) {
            return l.clone();
        }
        match self.term(id) {
            Term::NamedNode(n) => vocab::local_name(n.as_str()),
            t => super::term_str(t).to_string(),
        }
    }
    /// Whether another entity goes by `e`'s label, as its own label or an alias (case and
    /// surrounding space aside): "Washington" the city and "Washington" the state. A question
    /// that names such an entity by its label alone may mean either.
    pub fn shares_name(&self, e: Id) -> bool {
        self.shared_names
            .get_or_init(|| {
                let mut by_name: HashMap<String, Vec<Id>> = HashMap::new();
                let named = self.entities.iter().chain(self.objects.iter());
                let mut seen = std::collections::HashSet::new();
                for &x in named {
                    if !seen.insert(x) || !matches!(self.term(x), Term::NamedNode(_)) {
                        continue;
                    }
                    let names = self.labels.get(&x).into_iter().chain(self.aliases_of(x));
                    for n in names {
                        let ids = by_name.entry(n.trim().to_lowercase()).or_default();
                        if !ids.contains(&x) {
                            ids.push(x);
                        }
                    }
                }
                seen.into_iter()
                    .filter(|x| {
                        self.labels.get(x).is_some_and(|l| {
                            by_name
                                .get(&l.trim().to_lowercase())
                                .is_some_and(|ids| ids.iter().any(|y| y != x))
                        })
                    })
                    .collect()
            })
            .contains(&e)
    }

    /// The named entities whose label has exactly the words `words` (lower-cased, as
    /// [`name_key`] writes them): "miami" finds
    /// the city Miami. Built on first use from every label the index holds.
    pub fn named(&self, words: &str) -> &[Id] {
        self.by_name
            .get_or_init(|| self.by_words(self.labels.iter().map(|(&x, l)| (x, l.as_str()))))
            .get(words)
            .map_or(&[], Vec::as_slice)
    }

    /// The named entities with an alias or another label of exactly the words `words` (as
    /// [`Self::named`]): "golden state" finds California where the KG gives it its nickname.
    /// Codes (aliases all in capitals: "NBA", "USA") are left out: a code in a name ("2014
    /// NBA championship") names what the name is about, not something else it implies.
    pub fn aliased(&self, words: &str) -> &[Id] {
        self.by_alias
            .get_or_init(|| {
                let names = self.aliases.iter().chain(self.other_labels.iter());
                self.by_words(
                    names
                        .flat_map(|(&x, list)| list.iter().map(move |l| (x, l.as_str())))
                        .filter(|(_, l)| l.chars().any(char::is_lowercase)),
                )
            })
            .get(words)
            .map_or(&[], Vec::as_slice)
    }

    /// Named entities by the words of the given names ([`name_key`]), each list sorted and
    /// without repeats.
    fn by_words<'a>(&self, names: impl Iterator<Item = (Id, &'a str)>) -> HashMap<String, Vec<Id>> {
        let mut by: HashMap<String, Vec<Id>> = HashMap::new();
        for (x, l) in names {
            let key = name_key(l);
            if !key.is_empty() && matches!(self.term(x), Term::NamedNode(_)) {
                by.entry(key).or_default().push(x);
            }
        }
        for ids in by.values_mut() {
            ids.sort_unstable();
            ids.dedup();
        }
        by
    }

    /// The profile the index was built under.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }
    /// The popularity counters the KG keeps for `e`, where it keeps any.
    pub fn counters(&self, e: Id) -> Option<&Counters> {
        self.counters.get(&e)
    }

    /// Content hash of everything questions are made of (facts, labels, aliases, types).
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }
    /// Resolves a relation given by IRI, by label or by local name (case-insensitive).
    pub fn resolve_relation(&self, name: &str) -> Result<Id> {
        if let Some(id) = self.iri_id(name) {
            if self.by_predicate.contains_key(&id) {
                return Ok(id);
            }
        }
        let wanted = name.to_lowercase();
        let found: Vec<Id> = self
            .relations
            .iter()
            .map(|r| r.predicate)
            .filter(|p| {
                self.label(*p).to_lowercase() == wanted
                    || vocab::local_name(super::term_str(self.term(*p))).to_lowercase() == wanted
            })
            .collect();
        match found.as_slice() {
            [one] => Ok(*one),
            [] => {
                let known: Vec<String> = self
                    .relations
                    .iter()
                    .take(30)
                    .map(|r| self.label(r.predicate))
                    .collect();
                Err(KgError::NotFound(format!(
                    "unknown relation '{name}'; this KG has: {}{}",
                    known.join(", "),
                    if self.relations.len() > 30 {
                        ", …"
                    } else {
                        ""
                    }
                )))
            }
            many => Err(KgError::Invalid(format!(
                "relation '{name}' is ambiguous: {}; give the full IRI",
                many.iter()
                    .map(|p| super::term_str(self.term(*p)).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}

/// Aliases and extra labels keep English and untagged literals only: a multilingual KG has
/// dozens per entity, which no card or answer check needs.
fn english_or_untagged(t: &Term) -> bool {
    !matches!(lang_of(t), Some(x) if !x.to_ascii_lowercase().starts_with("en"))
}

/// Every English or untagged label of each entity except its preferred one, sorted. A second
/// pass over the rows, so only the labels actually kept take memory.
fn other_labels(
    label_rows: &[super::Row],
    preferred: &HashMap<Id, String>,
    id: &dyn Fn(&Term) -> Id,
) -> HashMap<Id, Vec<String>> {
    let mut out: HashMap<Id, Vec<String>> = HashMap::new();
    for r in label_rows {
        let (Some(s), Some(l)) = (&r[0], &r[2]) else {
            continue;
        };
        let (s, text) = (id(s), super::term_str(l));
        if english_or_untagged(l) && preferred.get(&s).is_some_and(|p| p != text) {
            out.entry(s).or_default().push(text.to_string());
        }
    }
    for list in out.values_mut() {
        list.sort();
        list.dedup();
    }
    out
}

/// Fact indices sorted by object; ties keep fact order, so a run is sorted by subject.
fn by_object(facts: &[Fact]) -> Vec<u32> {
    let n = u32::try_from(facts.len())
        .expect("the by-object index holds fact indices as u32: at most 4 billion facts");
    let mut out: Vec<u32> = (0..n).collect();
    out.sort_unstable_by_key(|&i| (facts[i as usize][2], i));
    out
}

/// Whether a value of this term is a measurement that a date qualifier dates (a number: a
/// population, a GDP), rather than an event or a membership the qualifier only says began
/// then ("discovered in Russia" in 1998, "member of the United Nations" since 1945).
pub fn changes_over_time(index: &KgIndex, o: Id) -> bool {
    match index.term(o) {
        Term::Literal(l) => {
            date_year(index.term(o)).is_none() && l.value().trim().parse::<f64>().is_ok()
        }
        _ => false,
    }
}

/// A name's words, lower-cased and joined by a space: runs of letters and digits, as the
/// question layer splits names ("Argon-50" → "argon 50").
pub fn name_key(s: &str) -> String {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The year of a date-typed literal, if the term is one.
pub fn date_year(t: &Term) -> Option<i32> {
    match t {
        Term::Literal(l) if vocab::DATES.contains(&l.datatype().as_str()) => {
            vocab::year_of(l.value())
        }
        _ => None,
    }
}

fn fingerprint(
    terms: &[Term],
    facts: &[Fact],
    labels: &HashMap<Id, String>,
    aliases: &HashMap<Id, Vec<String>>,
    types: &HashMap<Id, Vec<Id>>,
    qualifier_years: &HashMap<Fact, i32>,
) -> String {
    let mut h = Sha256::new();
    for f in facts {
        for t in f {
            h.update(terms[*t as usize].to_string().as_bytes());
            h.update(b" ");
        }
        h.update(b"\n");
    }
    let mut sorted: Vec<_> = labels.iter().collect();
    sorted.sort();
    for (id, l) in sorted {
        h.update(format!("L {id} {l}\n").as_bytes());
    }
    let mut sorted: Vec<_> = aliases.iter().collect();
    sorted.sort();
    for (id, l) in sorted {
        h.update(format!("A {id} {}\n", l.join("\u{1f}")).as_bytes());
    }
    let mut sorted: Vec<_> = types.iter().collect();
    sorted.sort();
    for (id, t) in sorted {
        h.update(format!("T {id} {t:?}\n").as_bytes());
    }
    let mut sorted: Vec<_> = qualifier_years.iter().collect();
    sorted.sort();
    for (f, y) in sorted {
        h.update(format!("Y {f:?} {y}\n").as_bytes());
    }
    hex::encode(&h.finalize()[..8])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kg::local::LocalKg;

    fn index_of(ttl: &str) -> KgIndex {
        let kg = LocalKg::from_turtle(ttl, "test").unwrap();
        KgIndex::build(&kg, &|_| {}).unwrap()
    }

    #[test]
    fn facts_to_finds_what_a_scan_finds() {
        let kg = crate::kg::open("sample:countries").unwrap();
        let index = KgIndex::build(kg.as_ref(), &|_| {}).unwrap();
        let mut checked = 0;
        for &e in index.entities() {
            let scan: Vec<u32> = (0..index.facts().len() as u32)
                .filter(|&i| index.facts()[i as usize][2] == e)
                .collect();
            assert_eq!(index.facts_to(e), scan.as_slice(), "{}", index.label(e));
            checked += usize::from(!scan.is_empty());
        }
        assert!(checked > 100, "only {checked} entities with incoming facts");
        let subject = index.facts()[0][0];
        assert!(index.facts_from(subject).iter().all(|f| f[0] == subject));
        assert_eq!(
            index.facts_from(subject).len(),
            index.facts().iter().filter(|f| f[0] == subject).count()
        );
    }

    #[test]
    fn other_labels_keep_english_and_untagged_ones_besides_the_preferred() {
        let index = index_of(
            "@prefix ex: <http://example.org/> .\n\
             @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\
             @prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n\
             ex:a rdfs:label \"Alpha\"@en, \"Alfa\"@it ; skos:prefLabel \"The Alpha\"@en-GB ;\n\
             \x20   <http://schema.org/name> \"Alpha\", \"A.\" ; ex:p ex:b .\n\
             ex:b ex:p ex:c .\n",
        );
        let a = index.iri_id("http://example.org/a").unwrap();
        assert_eq!(index.label(a), "Alpha");
        assert_eq!(index.other_labels_of(a), ["A.", "The Alpha"]);
        let b = index.iri_id("http://example.org/b").unwrap();
        assert!(index.other_labels_of(b).is_empty());
    }

    #[test]
    fn dates_of_are_the_date_valued_facts() {
        let index = index_of(
            "@prefix ex: <http://example.org/> .\n\
             @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\
             ex:a ex:founded \"1776-07-04\"^^xsd:date ; ex:seen \"2001-01-01T10:00:00Z\"^^xsd:dateTime ;\n\
             \x20   ex:code \"1999\" ; ex:p ex:b .\n",
        );
        let a = index.iri_id("http://example.org/a").unwrap();
        let dates: Vec<(String, String)> = index
            .dates_of(a)
            .map(|f| (index.label(f[1]), index.label(f[2])))
            .collect();
        assert_eq!(
            dates,
            [
                ("founded".to_string(), "1776-07-04".to_string()),
                ("seen".to_string(), "2001-01-01T10:00:00Z".to_string())
            ]
        );
        assert_eq!(index.year_of(a), Some(1776));
    }

    #[test]
    fn a_fact_is_dated_by_its_object_or_its_qualifier_never_by_its_subject() {
        let index = index_of(
            "@prefix ex: <http://example.org/> .\n\
             @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n\
             @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\
             ex:po ex:discovered \"1898\"^^xsd:gYear ; ex:discoveredBy ex:curie ; ex:halfLife \"138 days\" .\n\
             [] a rdf:Statement ; rdf:subject ex:po ; rdf:predicate ex:discoveredBy ; rdf:object ex:curie ;\n\
             \x20  ex:pointInTime \"1898-07-18\"^^xsd:date, \"1899\"^^xsd:gYear .\n\
             [] rdf:subject ex:po ; rdf:predicate ex:discoveredBy ; rdf:object ex:nobody ;\n\
             \x20  ex:pointInTime \"1700\"^^xsd:gYear .\n",
        );
        let id = |l: &str| index.iri_id(&format!("http://example.org/{l}")).unwrap();
        let fact_with = |p: &str| {
            *index
                .facts()
                .iter()
                .find(|f| f[1] == id(p))
                .unwrap_or_else(|| panic!("no {p} fact"))
        };
        // The reification's own triples are not facts.
        assert_eq!(index.facts().len(), 3, "{:?}", index.facts());
        assert_eq!(index.fact_year(&fact_with("discovered")), Some(1898));
        assert_eq!(index.fact_year(&fact_with("discoveredBy")), Some(1898));
        assert_eq!(index.fact_year(&fact_with("halfLife")), None);
        assert_eq!(index.year_of(id("po")), Some(1898));
    }
}

//! A question set checked the way a careful annotator reads it: negatives a model can reject
//! by type alone, negatives that read exactly like a true fact, questions that give their
//! answer away, and grammar problems. `kgscope audit` prints it; the figures in issue 9's
//! closing note come from it, for the old generator's questions and for the new one's.

use std::collections::HashMap;

use serde::Serialize;

use super::aliases::{alias_in, Answers};
use super::grammar;
use super::negatives::Corrupter;
use super::option_audit::{self, OptionAudit};
use super::templates::articles;
use super::wording;
use super::{Corruption, Question, Renderer};
use crate::kg::index::{Fact, Id, KgIndex};
use crate::kg::term_str;

/// Examples kept per finding.
const EXAMPLES: usize = 5;

#[derive(Debug, Default, Serialize)]
pub struct Audit {
    pub questions: usize,
    pub negatives: usize,
    /// Negatives whose triple could be found in the KG's terms (the rest are not checked).
    pub negatives_checked: usize,
    /// Head or tail replacements not of the replaced one's kind, and relation replacements
    /// whose domain or range does not take the ends.
    pub type_mismatched: usize,
    /// Negatives whose statement reads like a true fact's.
    pub true_in_words: usize,
    /// Questions that name their answer: a positive whose subject's label contains its
    /// object's, or a yes/no question whose alias contains a candidate answer of its relation.
    pub gives_answer_away: usize,
    /// Questions whose text breaks a rule of [`grammar::problems`].
    pub grammar: usize,
    /// Questions that name their subject by a label other entities go by too, without the
    /// context that tells them apart ([`super::names::shown`]).
    pub ambiguous_subjects: usize,
    /// Questions whose object shares its label with another object of the same relation: a
    /// reader cannot tell which is meant (the generator leaves these to the relation's
    /// context; counted, not fixed).
    pub ambiguous_objects: usize,
    /// Questions whose text (prompt and context) an earlier question of the set already has.
    pub duplicates: usize,
    /// Questions that write a name English writes with "the" ("the United States") bare
    /// ([`wording::missing_article`]).
    pub article_errors: usize,
    /// Questions with a phrasing a reader rejects ([`wording::unnatural`]).
    pub unnatural_wording: usize,
    /// Questions about a data model's machinery rather than the world: an identifier, URL,
    /// image, coordinate, statement node, page node, property entity, ontology axiom or page
    /// metadata ([`crate::kg::profile::machinery`]).
    pub model_machinery: usize,
    /// Multiple-choice questions' options ([`super::option_audit`]).
    pub options: OptionAudit,
    pub examples: HashMap<&'static str, Vec<String>>,
    /// What a careful reader rejects, per defect ([`super::reader_checks`]): questions flagged.
    pub reader_flags: std::collections::BTreeMap<&'static str, usize>,
    /// Each flagged question by id, with what it was flagged for; questions with a grammar
    /// problem or a name without its article are flagged here too.
    pub flagged: Vec<Flagged>,
    /// What a method checks on its own questions (KG-FPQ's premises), added by the layer
    /// that knows the methods.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub method_checks: Vec<Check>,
}

/// A question the audit flags, with why.
#[derive(Debug, Clone, Serialize)]
pub struct Flagged {
    pub id: String,
    pub why: Vec<&'static str>,
}

/// One finding of a method's own audit: how many of how many, with examples.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub what: String,
    pub count: usize,
    pub of: usize,
    pub examples: Vec<String>,
}

impl Check {
    pub fn new(what: &str, count: usize, of: usize, examples: Vec<String>) -> Self {
        Self {
            what: what.into(),
            count,
            of,
            examples,
        }
    }
}

impl Audit {
    fn note(&mut self, what: &'static str, text: &str) {
        let list = self.examples.entry(what).or_default();
        if list.len() < EXAMPLES {
            list.push(text.to_string());
        }
    }

    /// Per 100 negatives checked (0 when none were).
    pub fn share(&self, count: usize) -> f64 {
        if self.negatives_checked == 0 {
            0.0
        } else {
            100.0 * count as f64 / self.negatives_checked as f64
        }
    }
}

/// Ids of the terms questions name. A question carries a term's value, not its N-Triples
/// form, so one value may name several terms (the integer 300, an area, and the string "300",
/// a numeric country code).
fn term_ids(index: &KgIndex) -> HashMap<&str, Vec<Id>> {
    let mut map: HashMap<&str, Vec<Id>> = HashMap::new();
    for f in index.facts() {
        for id in *f {
            let ids = map.entry(term_str(index.term(id))).or_default();
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    map
}

/// The question's triple: among the terms its object's value may name, a KG triple's first,
/// then one its relation has as an object, then any.
fn triple_of(index: &KgIndex, ids: &HashMap<&str, Vec<Id>>, q: &Question) -> Option<Fact> {
    // An IRI in no fact (a false premise's object may be any entity of the KG) is still one
    // of the KG's terms.
    let one = |v: &str| {
        ids.get(v)
            .and_then(|c| c.first().copied())
            .or_else(|| index.iri_id(v))
    };
    let (s, p) = (one(&q.subject)?, one(&q.predicate)?);
    let own;
    let objects = match ids.get(q.object.as_str()) {
        Some(o) => o,
        None => {
            own = vec![index.iri_id(&q.object)?];
            &own
        }
    };
    let o = objects
        .iter()
        .copied()
        .find(|&o| index.contains(&[s, p, o]))
        .or_else(|| {
            objects
                .iter()
                .copied()
                .find(|o| index.objects_of_predicate(p).binary_search(o).is_ok())
        })
        .unwrap_or(objects[0]);
    Some([s, p, o])
}

/// How many objects of relation `p` go by each label (trimmed, lower-cased): counted once per
/// relation, not per question.
fn object_names(index: &KgIndex, p: Id) -> HashMap<String, usize> {
    let mut names = HashMap::new();
    for &x in index.objects_of_predicate(p) {
        *names
            .entry(index.label(x).trim().to_lowercase())
            .or_insert(0) += 1;
    }
    names
}

/// `is_statement(q)` says whether `q`'s text is its fact's statement word for word (a method's
/// `Method::asks_statements`, in the layer above): only then does a negative that reads true
/// in words make a bad question.
pub fn audit(
    r: &Renderer<'_>,
    corrupter: &Corrupter<'_>,
    questions: &[Question],
    is_statement: &dyn Fn(&Question) -> bool,
) -> Audit {
    let index = r.index;
    let ids = term_ids(index);
    let fact_of = |q: &Question| triple_of(index, &ids, q);
    let by_id: HashMap<&str, &Question> = questions.iter().map(|q| (q.id.as_str(), q)).collect();
    let sigs = corrupter.signatures();
    let mut a = Audit {
        questions: questions.len(),
        ..Audit::default()
    };
    let mut answers: HashMap<Id, Answers> = HashMap::new();
    let mut seen = std::collections::HashSet::new();
    let mut object_names_of: HashMap<Id, HashMap<String, usize>> = HashMap::new();
    let mut reader = super::reader_checks::ReaderChecks::new(index);
    let term = super::reader_checks::term_lookup(&ids, index);
    for q in questions {
        let mut why = reader.flags(q, fact_of(q), &term);
        // What a model is shown: the text, its context, and a choice's options ("Tin is in
        // [MASK] of the periodic table" asks for a group with groups as options, and for a
        // period with periods).
        let options = q.gold.choice().map(|(options, _)| options);
        if !seen.insert((q.prompt.as_str(), q.context.as_deref(), options)) {
            a.duplicates += 1;
            a.note("duplicate", &q.prompt);
        }
        if let Some([s, p, o]) = fact_of(q) {
            let shown = super::names::shown(index, s, p);
            let prompt = q.prompt.to_lowercase();
            // "The country or territory Tonga ...": the context may open the sentence; or the
            // template names the kind right before the name ("the subregion Micronesia").
            let kind_named = super::names::kind_word(index, s, p).is_some_and(|k| {
                prompt.contains(&format!("{k} {}", index.label(s).to_lowercase()))
            });
            // Charlotte, North Carolina and Charlotte, Tennessee: two answers to one question.
            if super::names::namesake_differs(index, s, p) {
                why.push("is about a name another entity with another answer goes by");
            }
            if shown != index.label(s) && !prompt.contains(&shown.to_lowercase()) && !kind_named {
                a.ambiguous_subjects += 1;
                a.note("ambiguous subject", &q.prompt);
            }
            // Another object of the relation has `o`'s label.
            let shared = index.shares_name(o)
                && object_names_of
                    .entry(p)
                    .or_insert_with(|| object_names(index, p))
                    .get(&index.label(o).trim().to_lowercase())
                    .is_some_and(|&n| n > 1);
            if shared {
                a.ambiguous_objects += 1;
                a.note("ambiguous object", &q.prompt);
            }
        }
        let predicate = ids.get(q.predicate.as_str()).and_then(|c| c.first());
        let alias_gives_away = match (alias_in(&q.prompt), predicate) {
            (Some(alias), Some(&p)) => answers
                .entry(p)
                .or_insert_with(|| Answers::of_relation(index, p))
                .in_alias(alias),
            _ => false,
        };
        // The object's aliases count too: "NBA" names the National Basketball Association.
        let names_answer = || match fact_of(q) {
            Some([s, _, o]) => grammar::names_answer(index, s, o),
            None => grammar::answer_in_subject(&q.subject_label, &q.object_label),
        };
        if (q.negative.is_none() && names_answer()) || alias_gives_away {
            a.gives_answer_away += 1;
            a.note("gives its answer away", &q.prompt);
        }
        if !grammar::problems(&q.prompt, &q.subject_label, &q.object_label).is_empty() {
            a.grammar += 1;
            a.note("grammar problem", &q.prompt);
            why.push("has a grammar problem");
        }
        if misses_article(index, fact_of(q), q) {
            a.article_errors += 1;
            a.note("name without its article", &q.prompt);
            why.push("writes a name without its article");
        }
        for w in &why {
            *a.reader_flags.entry(w).or_insert(0) += 1;
            a.note(w, &q.prompt);
        }
        if !why.is_empty() {
            a.flagged.push(Flagged {
                id: q.id.clone(),
                why: std::mem::take(&mut why),
            });
        }
        if let Some(kind) = fact_of(q).and_then(|[s, p, o]| {
            crate::kg::profile::machinery(
                index.profile(),
                crate::kg::term_str(index.term(s)),
                crate::kg::term_str(index.term(p)),
                index.term(o),
            )
        }) {
            a.model_machinery += 1;
            a.note(
                "about the data model's machinery",
                &format!("{kind}: {}", q.prompt),
            );
        }
        if !wording::unnatural(&q.prompt, &q.relation).is_empty() {
            a.unnatural_wording += 1;
            a.note("unnatural wording", &q.prompt);
        }
        let Some(how) = q.negative else {
            continue;
        };
        a.negatives += 1;
        let Some(mut neg) = fact_of(q) else {
            continue;
        };
        // The true triple: the positive's for a statement; for a yes/no "no", whose positive
        // is not in the set, only the replaced object is unknown and relation/head are kept.
        let positive = by_id
            .get(q.positive_id.as_str())
            .filter(|p| p.id != q.id)
            .and_then(|p| fact_of(p));
        // A relation or head replacement keeps the positive's object: the same term, not
        // another one with the same value.
        if let Some(pos) = positive.filter(|_| how != Corruption::Tail) {
            neg[2] = pos[2];
        }
        a.negatives_checked += 1;
        let mismatched = match (how, positive) {
            (Corruption::Head, Some(pos)) => !sigs.same_kind(index, pos[1], pos[0], neg[0], true),
            (Corruption::Tail, Some(pos)) => !sigs.same_kind(index, pos[1], pos[2], neg[2], false),
            (Corruption::Tail, None) => {
                !sigs.of(neg[1]).is_some_and(|s| s.takes_tail(index, neg[2]))
            }
            (Corruption::Relation, _) => !sigs
                .of(neg[1])
                .is_some_and(|s| s.takes_head(index, neg[0]) && s.takes_tail(index, neg[2])),
            (Corruption::Head, None) => false,
        };
        if mismatched {
            a.type_mismatched += 1;
            a.note("type-mismatched negative", &q.prompt);
        }
        if is_statement(q) && corrupter.true_in_words(&neg) {
            a.true_in_words += 1;
            a.note("negative true in words", &q.prompt);
        }
    }
    let mut notes: Vec<(&'static str, String)> = Vec::new();
    a.options = option_audit::audit(index, questions, &fact_of, &mut |what, text| {
        notes.push((what, text.to_string()));
    });
    for (what, text) in notes {
        a.note(what, &text);
    }
    a
}

/// Whether `q` writes its subject or its object bare where English writes "the" before it:
/// which names take it is decided from the KG's names for the entity when the question's triple
/// is found, else from the label alone.
fn misses_article(index: &KgIndex, fact: Option<Fact>, q: &Question) -> bool {
    let ends = [
        (fact.map(|f| f[0]), &q.subject_label, &q.object_label),
        (fact.map(|f| f[2]), &q.object_label, &q.subject_label),
    ];
    ends.into_iter().any(|(id, label, other)| {
        let definite = match id {
            Some(id) => articles::definite(index, id),
            None => articles::takes_the(label, []),
        };
        definite && wording::missing_article(&q.prompt, label, other)
    })
}

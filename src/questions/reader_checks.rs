//! What a careful reader rejects in one question, beyond the set-wide counts of
//! `questions::audit`: learnt from the hand-reviewed set (`tests/data/reviewed/`), where readers
//! turned down questions the older audit passed. Each check names the defect class of the
//! reviewers' cause codes:
//!
//! - **give-away**: the subject's name states or implies an answer of the asked relation
//!   ([`super::grammar::names_answer`]: its label or an alias inside the name, a code spelt from
//!   it, or another entity named inside it that the KG links to the answer), for a negative too
//!   (its true answer is still given away: "Are the Detroit Pistons based in Texas?"), and for
//!   each fact of a compound question;
//! - **alias that helps nobody**: the shown alias is a code, a short form or a respelling of
//!   the label ([`super::aliases::helps`]);
//! - **negative decided by something else**: a wrong object, subject or option that a reader
//!   rejects without the asked knowledge ([`super::fair`]);
//! - **slot misfit**: a wrong object of a kind the relation never takes as its object;
//! - **disambiguator in the sentence**: a parenthesis that is neither an alias, a lifespan nor
//!   part of a name;
//! - **undated**: "currently" without a date, or a measured value the KG dates by a qualifier
//!   asked without its year (a compound question's facts included).

use std::collections::{HashMap, HashSet};

use super::aliases::{alias_in, helps};
use super::fair;
use super::grammar::names_answer;
use super::Question;
use crate::kg::index::{Fact, Id, KgIndex};

pub const GIVEAWAY: &str = "gives an answer away through the subject's name";
pub const ALIAS: &str = "shows an alias that helps nobody (a code, short form or respelling)";
pub const UNFAIR: &str = "has a wrong answer a reader rejects without the asked knowledge";
pub const MISFIT: &str = "puts a value of the wrong kind in the relation's slot";
pub const PARENTHESIS: &str = "has a disambiguator in parentheses inside the sentence";
pub const UNDATED: &str = "asks about a time without saying when";

/// The checks, with the state they keep across questions.
pub struct ReaderChecks<'a> {
    index: &'a KgIndex,
    /// The types of each relation's objects.
    ranges: HashMap<Id, HashSet<Id>>,
}

impl<'a> ReaderChecks<'a> {
    pub fn new(index: &'a KgIndex) -> Self {
        Self {
            index,
            ranges: HashMap::new(),
        }
    }

    /// What a reader would reject in `q`, whose triple is `fact` when the KG has its terms,
    /// and whose options and true object are found by `term` (a value to its ids).
    pub fn flags(
        &mut self,
        q: &Question,
        fact: Option<Fact>,
        term: &dyn Fn(&str) -> Vec<Id>,
    ) -> Vec<&'static str> {
        let ix = self.index;
        let mut out = Vec::new();
        if self.gives_away(q, fact, term) {
            out.push(GIVEAWAY);
        }
        if alias_in(&q.prompt).is_some_and(|a| !helps(&q.subject_label, a, &q.subject_aliases)) {
            out.push(ALIAS);
        }
        let facts = q.gold.facts();
        if let (false, Some(s)) = (facts.is_empty(), term(&q.subject).into_iter().next()) {
            let dated = facts
                .iter()
                .filter_map(|f| ix.iri_id(&f.predicate))
                .any(|p| {
                    ix.objects_of(s, p).into_iter().any(|o| {
                        crate::kg::index::changes_over_time(ix, o)
                            && ix.qualifier_year(&[s, p, o]).is_some()
                    })
                });
            if dated {
                out.push(UNDATED);
            }
        }
        if let Some([s, p, o]) = fact {
            let truth = q
                .true_object
                .as_deref()
                .and_then(|t| term(t).into_iter().find(|&x| ix.contains(&[s, p, x])))
                .or_else(|| ix.objects_of(s, p).into_iter().next());
            let unfair = match (q.negative, truth) {
                (Some(super::Corruption::Tail), Some(t)) if t != o => {
                    fair::unfair_object(ix, &[s, p, t], o).is_some()
                }
                (Some(super::Corruption::Head), _) => {
                    fair::unfair_subject(ix, &[s, p, o], s).is_some()
                }
                _ => false,
            } || self.unfair_option(q, [s, p, o], term);
            if unfair {
                out.push(UNFAIR);
            }
            if q.negative == Some(super::Corruption::Tail) && !self.in_range(p, o) {
                out.push(MISFIT);
            }
            let dated = ix
                .objects_of(s, p)
                .into_iter()
                .chain([o])
                .filter(|&x| crate::kg::index::changes_over_time(ix, x))
                .find_map(|x| ix.qualifier_year(&[s, p, x]));
            if dated.is_some_and(|y| !q.prompt.contains(&y.to_string())) {
                out.push(UNDATED);
            }
        }
        if stray_parenthesis(q) {
            out.push(PARENTHESIS);
        }
        // "Which current franchise won the 1951 championship?" names today's team for a dated
        // event, which is no question about the present.
        let now_words = ["currently", "presently", "nowadays"];
        let words = super::grammar::words(&q.prompt);
        if words.iter().any(|w| now_words.contains(&w.as_str())) && !out.contains(&UNDATED) {
            out.push(UNDATED);
        }
        out
    }

    /// The subject's name gives an answer of the asked relation, or of one of a compound
    /// question's relations.
    fn gives_away(&self, q: &Question, fact: Option<Fact>, term: &dyn Fn(&str) -> Vec<Id>) -> bool {
        let ix = self.index;
        let Some(s) = term(&q.subject)
            .into_iter()
            .next()
            .or_else(|| ix.iri_id(&q.subject))
        else {
            return false;
        };
        // Every answer the relation has for the subject is given away (one of several, as
        // "Haitian Creole" of Haiti's languages, leaves "Is French an official language of
        // Haiti?" to knowledge): as generation skips them.
        let relation_gives = |p: Id| {
            let objects = ix.objects_of(s, p);
            !objects.is_empty() && objects.into_iter().all(|o| names_answer(ix, s, o))
        };
        let facts = q.gold.facts();
        if !facts.is_empty() {
            return facts
                .iter()
                .filter_map(|f| ix.iri_id(&f.predicate))
                .any(relation_gives);
        }
        // A negative's subject still gives its own true answer away, which makes the wrong one
        // plainly wrong ("The Dallas Mavericks are based in the District of Columbia").
        match fact {
            Some([_, p, o]) => {
                relation_gives(p) || (q.negative.is_none() && names_answer(ix, s, o))
            }
            None => false,
        }
    }

    /// A multiple-choice question's wrong option is unfair as the wrong object of its fact.
    fn unfair_option(&self, q: &Question, fact: Fact, term: &dyn Fn(&str) -> Vec<Id>) -> bool {
        let Some((options, correct)) = q.gold.choice() else {
            return false;
        };
        let ix = self.index;
        let answer = options.get(correct).map_or("", String::as_str);
        options.iter().enumerate().any(|(i, label)| {
            i != correct
                && (fair::implausible_number(answer, label)
                    || self
                        .option_ids(label, term)
                        .into_iter()
                        .any(|o| o != fact[2] && fair::unfair_object(ix, &fact, o).is_some()))
        })
    }

    /// The terms an option's label may name: a value's, else the entities with that label.
    fn option_ids(&self, label: &str, term: &dyn Fn(&str) -> Vec<Id>) -> Vec<Id> {
        let ids = term(label);
        if !ids.is_empty() {
            return ids;
        }
        self.index
            .named(&crate::kg::index::name_key(label))
            .to_vec()
    }

    /// Whether `o` is of a kind relation `p` has as an object somewhere (an untyped value, or a
    /// relation with untyped objects, passes).
    fn in_range(&mut self, p: Id, o: Id) -> bool {
        let ix = self.index;
        let range = self.ranges.entry(p).or_insert_with(|| {
            ix.objects_of_predicate(p)
                .iter()
                .flat_map(|&x| ix.types_of(x).iter().copied())
                .collect()
        });
        let types = ix.types_of(o);
        range.is_empty() || types.is_empty() || types.iter().any(|t| range.contains(t))
    }
}

/// A parenthesis in the prompt that is not the subject's alias, a lifespan, or part of a name
/// or relation label the question holds ("Cocos (Keeling) Islands", "electronegativity
/// (Pauling scale)").
fn stray_parenthesis(q: &Question) -> bool {
    let mut rest = q.prompt.as_str();
    while let Some(start) = rest.find('(') {
        let Some(len) = rest[start..].find(')') else {
            return false;
        };
        let inside = &rest[start + 1..start + len];
        let whole = &rest[start..=start + len];
        let relations: Vec<&str> = match q.gold.facts() {
            [] => vec![q.relation.as_str()],
            facts => facts.iter().map(|f| f.relation.as_str()).collect(),
        };
        let named = [q.subject_label.as_str(), q.object_label.as_str()]
            .into_iter()
            .chain(relations)
            .any(|l| l.contains(whole));
        let lifespan = inside.starts_with(|c: char| c.is_ascii_digit());
        if !inside.starts_with("also known as") && !lifespan && !named {
            return true;
        }
        rest = &rest[start + len + 1..];
    }
    false
}

/// The ids a question's value names, from the KG's terms by their value.
pub fn term_lookup<'a>(
    ids: &'a HashMap<&str, Vec<Id>>,
    index: &'a KgIndex,
) -> impl Fn(&str) -> Vec<Id> + 'a {
    move |v: &str| {
        ids.get(v)
            .cloned()
            .or_else(|| index.iri_id(v).map(|i| vec![i]))
            .unwrap_or_default()
    }
}

//! Puts a KG fact into words with its relation's template: picks the template for the
//! subject's type, and decides how each end is shown (a literal the KG knows only as another
//! relation's code or measurement is shown as that).

use super::slots::{decorate, fill, Slot, Value};
use super::{Template, TemplateSet};
use crate::kg::index::{Fact, Id, KgIndex};
use crate::kg::{term_str, Term};

/// Which sentence of a template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Statement,
    /// The wh-question (it names only the subject).
    Question,
    YesNo,
}

/// The template for a fact: its relation's, specific to the subject's type where one is.
pub fn template_for(index: &KgIndex, set: &TemplateSet, fact: &Fact) -> Template {
    let types: Vec<(String, String)> = index
        .types_of(fact[0])
        .iter()
        .map(|&t| (term_str(index.term(t)).to_string(), index.label(t)))
        .collect();
    set.get_for(term_str(index.term(fact[1])), &index.label(fact[1]), &types)
}

/// The text of `fact` in the given form; `head` replaces the subject's label (e.g. with a
/// disambiguating alias).
pub fn render_fact(
    index: &KgIndex,
    set: &TemplateSet,
    fact: &Fact,
    form: Form,
    head: Option<&str>,
) -> String {
    let t = template_for(index, set, fact);
    let head_label = head.map_or_else(|| index.label(fact[0]), str::to_string);
    let head = decorate(
        &Value {
            text: &head_label,
            home: None,
        },
        &t.head,
    );
    let tail_label = index.label(fact[2]);
    let home = foreign_home(index, set, fact);
    let tail = decorate(
        &Value {
            text: &tail_label,
            home: home.as_ref(),
        },
        &t.tail,
    );
    let text = match form {
        Form::Statement => t.statement.clone(),
        Form::Question => t.question.clone(),
        Form::YesNo => t.yesno(),
    };
    fill(&text, &head, &tail)
}

/// For a literal object that the fact's relation never has (a negative's replacement), the
/// tail declaration of the relation the KG does know it from, when that one declares a code
/// or a unit: the first such relation by IRI, so the choice does not depend on fact order.
fn foreign_home(index: &KgIndex, set: &TemplateSet, fact: &Fact) -> Option<Slot> {
    let o = fact[2];
    if !matches!(index.term(o), Term::Literal(_))
        || index
            .objects_of_predicate(fact[1])
            .binary_search(&o)
            .is_ok()
    {
        return None;
    }
    let mut preds: Vec<Id> = index
        .facts_to(o)
        .iter()
        .map(|&i| index.facts()[i as usize][1])
        .collect();
    preds.sort_unstable();
    preds.dedup();
    let mut homes: Vec<(&str, Id)> = preds
        .into_iter()
        .map(|p| (term_str(index.term(p)), p))
        .collect();
    homes.sort_unstable();
    let (iri, p) = *homes.first()?;
    let slot = set.get(iri, &index.label(p)).tail;
    (slot.code.is_some() || slot.unit.is_some()).then_some(slot)
}

//! Puts a KG fact into words with its relation's template: picks the template for the
//! subject's type, and decides how each end is shown (a literal the KG knows only as another
//! relation's code or measurement is shown as that).

use super::articles;
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
    /// The statement with `[MASK]` in place of the object's name (Luo et al.'s fill-in-the-blank;
    /// a unit or article around the object stays).
    Blank,
}

/// The template for a fact: its relation's, specific to the subject's type where one is.
pub fn template_for(index: &KgIndex, set: &TemplateSet, fact: &Fact) -> Template {
    template_by(index, set, fact, true)
}

/// [`template_for`], the object's type counted or not: a blank hides the object, so its
/// words must not be chosen by the object's type ("in the province of [MASK]" beside
/// options that are states).
fn template_by(index: &KgIndex, set: &TemplateSet, fact: &Fact, by_object: bool) -> Template {
    let types = |e: Id| -> Vec<(String, String)> {
        index
            .types_of(e)
            .iter()
            .map(|&t| (term_str(index.term(t)).to_string(), index.label(t)))
            .collect()
    };
    let (p, label) = (term_str(index.term(fact[1])), index.label(fact[1]));
    let tail = if by_object { types(fact[2]) } else { vec![] };
    set.get_for_ends(p, &label, &types(fact[0]), &tail)
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
    let t = template_by(index, set, fact, form != Form::Blank);
    let text = match form {
        Form::Statement | Form::Blank => t.statement.clone(),
        Form::Question => t.question.clone(),
        Form::YesNo => t.yesno(),
    };
    let label = index.label(fact[0]);
    // A name several entities go by gets its context ("the city or area Washington"), unless
    // the template names its kind right before it ("the subregion {head}").
    let before_head = text.find("{head}").map_or("", |i| &text[..i]);
    // A head given as that same name with its context (the yes/no asker's) is treated alike.
    let names = crate::questions::names::shown;
    let head_label = match head {
        Some(h) if h != names(index, fact[0], fact[1]) => h.to_string(),
        _ => crate::questions::names::shown_after(index, fact[0], fact[1], before_head),
    };
    let head = decorate(
        &Value {
            text: &head_label,
            home: None,
            // A head given in other words ("France (also known as ...)") keeps the label's
            // article only when it starts with the label.
            definite: head_label.starts_with(label.as_str()) && articles::definite(index, fact[0]),
        },
        &t.head,
    );
    let tail_label = index.label(fact[2]);
    let home = foreign_home(index, set, fact);
    let tail = decorate(
        &Value {
            text: &tail_label,
            home: home.as_ref(),
            // A blank stands for the bare name: "the [MASK]" would tell that the answer takes
            // an article.
            definite: form != Form::Blank && articles::definite(index, fact[2]),
        },
        &t.tail,
    );
    let tail = match form {
        // A value written in other words (a date as "on 23 May 1949") is masked whole, and so
        // is a point in time with its preposition: the options carry theirs ("in 1850").
        Form::Blank if t.tail.time || !tail.contains(tail_label.trim()) => "[MASK]".to_string(),
        Form::Blank => tail.replacen(tail_label.trim(), "[MASK]", 1),
        _ => tail,
    };
    let text = fill(&text, &head, &tail);
    match fact_time(index, fact) {
        Some(year) if !text.contains(&year.to_string()) => as_of(year, &text),
        _ => text,
    }
}

/// The year a measured value holds in, by a qualifier on its statement (a population "as of
/// 2007"): the fact's own, or for a triple the KG does not state (a negative's replaced
/// object) the year of the subject's own facts of that relation, so a negative reads dated
/// like its positive and is not told apart by its wording.
fn fact_time(index: &KgIndex, fact: &Fact) -> Option<i32> {
    if !crate::kg::index::changes_over_time(index, fact[2]) {
        return None;
    }
    index.qualifier_year(fact).or_else(|| {
        index
            .objects_of(fact[0], fact[1])
            .into_iter()
            .filter_map(|o| index.qualifier_year(&[fact[0], fact[1], o]))
            .max()
    })
}

/// `text` dated: "As of 2007, what is the population of Italy?". The sentence's first word is
/// lowered when it is a function word; a name keeps its capital.
fn as_of(year: i32, text: &str) -> String {
    const LOWERED: [&str; 14] = [
        "The", "What", "Which", "Who", "Whom", "Is", "Are", "Was", "Were", "Does", "Did", "Do",
        "How", "In",
    ];
    let first = text.split_whitespace().next().unwrap_or("");
    let rest = if LOWERED.contains(&first) {
        let mut c = text.chars();
        c.next()
            .map(|f| f.to_lowercase().chain(c).collect())
            .unwrap_or_default()
    } else {
        text.to_string()
    };
    format!("As of {year}, {rest}")
}

/// For a literal object of a datatype the fact's relation never has (a random negative's
/// replacement), the tail declaration of the relation the KG does know it from, when that one declares a code
/// or a unit: the first such relation by IRI, so the choice does not depend on fact order.
fn foreign_home(index: &KgIndex, set: &TemplateSet, fact: &Fact) -> Option<Slot> {
    let o = fact[2];
    let Term::Literal(literal) = index.term(o) else {
        return None;
    };
    let own = index.objects_of_predicate(fact[1]);
    // Every positive is the relation's own object: a binary search settles it before any scan.
    if own.binary_search(&o).is_ok() {
        return None;
    }
    // A value of a datatype the relation has (a typed negative's replaced relation: "The
    // atomic weight of technetium is 11.") reads as that relation's own, with its unit.
    // Relations keep one datatype, so a sample of their objects tells.
    let same_datatype = own
        .iter()
        .take(256)
        .any(|x| matches!(index.term(*x), Term::Literal(l) if l.datatype() == literal.datatype()));
    if same_datatype {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_literal_takes_the_unit_of_the_relation_it_is_stated_with() {
        let kg = crate::kg::local::LocalKg::from_turtle(
            "@prefix ex: <http://example.org/> .\n\
             @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\
             ex:tc ex:density \"11\"^^xsd:decimal ; ex:weight \"98\"^^xsd:decimal ; ex:code \"TC\" .\n",
            "test",
        )
        .unwrap();
        let index = KgIndex::build(&kg, &|_| {}).unwrap();
        let mut set = TemplateSet::default();
        set.add_toml(
            "[[relation]]\nlabel = \"density\"\ntail = { unit = \"grams per cubic centimetre\" }\n\
             statement = \"The density of {head} is {tail}.\"\nquestion = \"{head}?\"\n\
             [[relation]]\nlabel = \"weight\"\n\
             statement = \"The atomic weight of {head} is {tail}.\"\nquestion = \"{head}?\"\n\
             [[relation]]\nlabel = \"code\"\n\
             statement = \"The code of {head} is {tail}.\"\nquestion = \"{head}?\"\n",
            "t.toml",
        )
        .unwrap();
        let id = |l: &str| index.iri_id(&format!("http://example.org/{l}")).unwrap();
        let density = *index
            .facts()
            .iter()
            .find(|f| f[1] == id("density"))
            .unwrap();
        let say = |f: &Fact| render_fact(&index, &set, f, Form::Statement, None);
        assert_eq!(
            say(&density),
            "The density of tc is 11 grams per cubic centimetre."
        );
        // A typed negative moves 11 to the weight relation: a weight, with no density unit.
        let swapped = [density[0], id("weight"), density[2]];
        assert_eq!(say(&swapped), "The atomic weight of tc is 11.");
        // A string in a decimal relation is out of place, and shown as what it is.
        let code = *index.facts().iter().find(|f| f[1] == id("code")).unwrap();
        assert_eq!(
            say(&[code[0], id("density"), code[2]]),
            "The density of tc is TC."
        );
    }

    #[test]
    fn a_blank_is_not_worded_by_the_type_it_hides() {
        let kg = crate::kg::local::LocalKg::from_turtle(
            "@prefix ex: <http://example.org/> .\n\
             ex:toronto ex:in ex:ontario . ex:ontario a ex:Province .\n",
            "test",
        )
        .unwrap();
        let index = KgIndex::build(&kg, &|_| {}).unwrap();
        let mut set = TemplateSet::default();
        set.add_toml(
            "[[relation]]\nlabel = \"in\"\n\
             statement = \"{head} is in {tail}.\"\nquestion = \"Where is {head}?\"\n\
             [[relation]]\nlabel = \"in\"\ntail_type = \"Province\"\n\
             statement = \"{head} is in the province of {tail}.\"\nquestion = \"Where is {head}?\"\n",
            "t.toml",
        )
        .unwrap();
        let fact = index.facts()[0];
        let say = |form| render_fact(&index, &set, &fact, form, None);
        assert_eq!(
            say(Form::Statement),
            "Toronto is in the province of ontario."
        );
        assert_eq!(say(Form::Blank), "Toronto is in [MASK].");
    }
}

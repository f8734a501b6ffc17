//! KGHaluBench's compound question (§3.1.4, appendix A.2.1): a request for a brief overview of
//! the focal entity, which the entity-level check compares with the entity's description,
//! plus three of its valid relations drawn at random, each to be stated. The paper's template
//! figure did not survive in its text; kgscope's wording keeps what the paper says it holds:
//! the entity's name, the disambiguating context, the overview and the three relations (by
//! their labels, as a list, since a relation's label is not always a noun: "shares a land
//! border with").
//!
//! The context tells apart entities that share a name without giving away an answer
//! ([`crate::questions::names::context`]).

use rand::seq::SliceRandom;

use crate::kg::index::Id;
use crate::questions::names::context;
use crate::questions::templates::articles::definite;
use crate::questions::templates::slots::indefinite;
use crate::questions::templates::{template_for, Article};
use crate::questions::Renderer;
use crate::sampling::SeededRng;

use super::focal::{Focal, RELATIONS_PER_QUESTION};

/// Three of the entity's valid relations, drawn with `rng`, in the order drawn.
pub fn draw_relations(focal: &Focal, rng: &mut SeededRng) -> Vec<Id> {
    let mut relations = focal.relations.clone();
    relations.shuffle(rng);
    relations.truncate(RELATIONS_PER_QUESTION);
    relations
}

/// The question about `focal` asking for `relations`.
pub fn question(r: &Renderer<'_>, focal: &Focal, relations: &[Id]) -> String {
    let index = r.index;
    let name = index.label(focal.entity);
    let name = if definite(index, focal.entity) || the_in_templates(r, focal.entity, relations) {
        format!("the {name}")
    } else {
        name
    };
    // A lifespan reads as a name's parenthesis ("Donald Knuth (1938-)"); a type, as an
    // apposition ("Mali, a country or territory"): a type in parentheses reads like a
    // label's disambiguator, which readers reject inside a sentence.
    let named = match context(index, focal.entity, relations) {
        Some(c) if c.starts_with(|ch: char| ch.is_ascii_digit()) => format!("{name} ({c})"),
        Some(c) => format!("{name}, {} {c},", indefinite(&c)),
        None => name,
    };
    let asked: Vec<String> = relations.iter().map(|p| index.label(*p)).collect();
    format!(
        "Give a brief overview of {}. Then state these facts about it: {}.",
        named.trim_end_matches(','),
        asked.join("; ")
    )
}

/// Whether the templates write the entity with "the" when it is the subject of one of
/// `relations` (a team: "the Brooklyn Nets play in ..."), as the question's sentences will.
fn the_in_templates(r: &Renderer<'_>, e: Id, relations: &[Id]) -> bool {
    relations.iter().any(|&p| {
        r.index.objects_of(e, p).first().is_some_and(|&o| {
            template_for(r.index, r.templates, &[e, p, o]).head.article == Some(Article::The)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::questions::names::tests::small;

    #[test]
    fn the_question_names_the_entity_its_context_and_three_relations() {
        let ix = small();
        let focal = super::super::focal::candidates(&ix, &[])
            .into_iter()
            .find(|f| ix.label(f.entity) == "Donald Knuth")
            .expect("Knuth has three valid relations");
        let mut rng = crate::sampling::item_rng(1, "knuth");
        let relations = draw_relations(&focal, &mut rng);
        assert_eq!(relations.len(), 3);
        let templates = crate::questions::TemplateSet::builtin();
        let r = Renderer {
            index: &ix,
            templates: &templates,
            seed: 1,
        };
        let q = question(&r, &focal, &relations);
        let named = if q.contains("date of birth") || q.contains("dateOfBirth") {
            "Donald Knuth, a person"
        } else {
            "Donald Knuth (1938-)"
        };
        assert!(
            q.starts_with(&format!("Give a brief overview of {named}.")),
            "{q}"
        );
        for p in &relations {
            assert!(q.contains(&ix.label(*p)), "{q}");
        }
        // The same seed and item draw the same relations.
        let again = draw_relations(&focal, &mut crate::sampling::item_rng(1, "knuth"));
        assert_eq!(again, relations);
    }
}

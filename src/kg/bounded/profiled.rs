//! A bounded draw read under a profile other than the generic one: the relations the profile
//! asks about (on a Wikibase, its property entities with an askable property type; else the
//! properties the KG declares in the profile's fact namespaces), the same first draw and
//! reach as the generic draw, then what the profile needs about the entities at hand — names
//! in its languages, types and the subclass links between them, Wikibase statements (ranks,
//! date qualifiers), their value nodes (precisions, units) and page counters — each by
//! `VALUES` over those entities. The rows go through [`crate::kg::profile::shape`], as a
//! file's do, so a sample reads the KG exactly as the whole would.

use oxigraph::model::Term;

use super::super::profile::Profile;
use super::super::vocab;
use super::super::{KgError, KgIndex, KnowledgeGraph, Result, Row};
use super::{batched, chosen, drawn_entities, during, first_draw, in_list, reach, Draw, Terms};

const WIKIBASE: &str = "http://wikiba.se/ontology#";
const OWL: &str = "http://www.w3.org/2002/07/owl#";
/// Relations past which a `FILTER(?p IN (…))` would make a query too long to send: the
/// predicates are then filtered by namespace there and by IRI here.
const LISTED: usize = 200;

fn named(iri: &str) -> Term {
    Term::NamedNode(oxigraph::model::NamedNode::new_unchecked(iri))
}

/// `(s, p, o)` as a row.
fn triple(s: &Term, p: &Term, o: &Term) -> Row {
    vec![Some(s.clone()), Some(p.clone()), Some(o.clone())]
}

/// A language tag as `--lang` gives it, if it is one (it goes into a query's text).
fn tag(l: &str) -> Option<String> {
    (!l.is_empty() && l.len() <= 35 && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .then(|| l.to_ascii_lowercase())
}

/// A filter keeping, of `?var`, non-literals, untagged literals and the profile's languages
/// (DBpedia holds an abstract in every language: only the wanted ones travel); `true` when
/// the profile takes any language.
fn language_filter(profile: &Profile, var: &str) -> String {
    let langs: Vec<String> = profile.languages().iter().filter_map(|l| tag(l)).collect();
    if langs.is_empty() {
        return "true".into();
    }
    let list = langs
        .iter()
        .map(|l| format!("\"{l}\""))
        .collect::<Vec<_>>()
        .join(", ");
    format!("(!isLiteral(?{var}) || LANG(?{var}) = \"\" || LCASE(LANG(?{var})) IN ({list}))")
}

/// Reads `(s, p, o)` of each of `subjects` for the predicates `preds` (a filter on `?p`),
/// as triples.
fn read(
    kg: &dyn KnowledgeGraph,
    what: &str,
    subjects: &[Term],
    preds: &[&str],
    extra: &str,
) -> Result<Vec<Row>> {
    if preds.is_empty() || subjects.is_empty() {
        return Ok(vec![]);
    }
    batched(kg, what, subjects, &["s", "p", "o"], |v| {
        format!(
            "SELECT ?s ?p ?o WHERE {{ VALUES ?s {{ {v} }} ?s ?p ?o . FILTER(?p IN ({}) && {extra}) }}",
            in_list(preds)
        )
    })
}

/// The relations to draw from, with what the profile needs to name them (their property
/// entities' rows, their labels) pushed to `triples`.
fn relations(
    kg: &dyn KnowledgeGraph,
    draw: &Draw,
    profile: &Profile,
    triples: &mut Vec<Row>,
    progress: &dyn Fn(&str),
) -> Result<Vec<Term>> {
    if let Some(given) = super::given_by_iri(&draw.relations)? {
        if let Some(w) = &profile.wikibase {
            // Their property entities still name them and say their types.
            let entities: Vec<Term> = given
                .iter()
                .filter_map(|p| super::super::term_str(p).strip_prefix(w.direct.as_str()))
                .map(|id| named(&format!("{}{id}", w.entity)))
                .collect();
            triples.extend(read(
                kg,
                "reading the relations' property entities",
                &entities,
                &[
                    &format!("{WIKIBASE}directClaim"),
                    &format!("{WIKIBASE}propertyType"),
                ],
                "true",
            )?);
            triples.extend(names(kg, profile, &entities, false)?);
        } else {
            triples.extend(names(kg, profile, &given, false)?);
        }
        return Ok(given);
    }
    progress("listing relations");
    let mut listed: Vec<Term> = Vec::new();
    let mut label_subjects: Vec<Term> = Vec::new();
    if let Some(w) = &profile.wikibase {
        // A few thousand rows (one a property), where a count over every triple is what
        // Wikidata's endpoint cuts.
        let rows = kg
            .select(
                &format!(
                    "SELECT ?e ?d ?t WHERE {{ ?e <{WIKIBASE}directClaim> ?d ; <{WIKIBASE}propertyType> ?t }}"
                ),
                &["e", "d", "t"],
            )
            .map_err(during("listing the KG's property entities"))?;
        let (claim, ty) = (
            named(&format!("{WIKIBASE}directClaim")),
            named(&format!("{WIKIBASE}propertyType")),
        );
        for r in rows {
            let (Some(e), Some(d), Some(t)) = (&r[0], &r[1], &r[2]) else {
                continue;
            };
            triples.push(triple(e, &claim, d));
            triples.push(triple(e, &ty, t));
            if w.asked_property_types
                .iter()
                .any(|a| a == super::super::term_str(t))
                && profile.in_fact_namespace(super::super::term_str(d))
            {
                listed.push(d.clone());
                label_subjects.push(e.clone());
            }
        }
    } else {
        // The properties the KG declares (the DBpedia ontology declares each of its own).
        let kinds = [
            format!("{OWL}ObjectProperty"),
            format!("{OWL}DatatypeProperty"),
            "http://www.w3.org/1999/02/22-rdf-syntax-ns#Property".to_string(),
        ];
        let kinds: Vec<&str> = kinds.iter().map(String::as_str).collect();
        let rows = kg
            .select(
                &format!(
                    "SELECT DISTINCT ?p WHERE {{ VALUES ?k {{ {} }} ?p a ?k }}",
                    vocab::iri_list(&kinds)
                ),
                &["p"],
            )
            .map_err(during("listing the properties the KG declares"))?;
        listed = rows
            .into_iter()
            .filter_map(|mut r| r.pop().flatten())
            .collect();
        // None declared: the relations as the generic draw lists them (a count over every
        // fact: only on a KG small enough for one).
        if listed.is_empty() {
            listed = super::relations(kg)?.into_iter().map(|(p, _)| p).collect();
        }
        listed.retain(|p| {
            let iri = super::super::term_str(p);
            let fact = profile.in_fact_namespace(iri)
                || (profile.facts.namespaces.is_empty() && !profile.is_metadata(iri));
            (fact || profile.asked_for(iri))
                && !profile.metadata.predicates.iter().any(|m| m == iri)
                && !profile.describing().any(|d| d == iri)
        });
        label_subjects = listed.clone();
    }
    let labels = names(kg, profile, &label_subjects, false)?;
    let mut all = Terms::default();
    listed.into_iter().for_each(|p| all.insert(p));
    let all: Vec<(Term, u64)> = all.into_vec().into_iter().map(|p| (p, 0)).collect();
    if all.is_empty() {
        return Err(KgError::NotFound(format!(
            "the KG has no relation the {} profile asks about",
            profile.name
        )));
    }
    let picked = if draw.relations.is_empty() {
        all.iter().map(|(p, _)| p.clone()).collect()
    } else {
        by_name(&all, &draw.relations, &labels, profile)?
    };
    triples.extend(labels);
    Ok(picked)
}

/// The relations `names` ask for: by IRI, local name (as the generic draw takes them), or
/// label (its property entity's, on a Wikibase).
fn by_name(
    all: &[(Term, u64)],
    names: &[String],
    labels: &[Row],
    profile: &Profile,
) -> Result<Vec<Term>> {
    let direct = |subject: &str| -> String {
        match &profile.wikibase {
            Some(w) => subject
                .strip_prefix(w.entity.as_str())
                .map(|id| format!("{}{id}", w.direct))
                .unwrap_or_else(|| subject.to_string()),
            None => subject.to_string(),
        }
    };
    let mut out = Vec::new();
    for name in names {
        let by_label = labels.iter().find_map(|r| {
            let (s, l) = (r[0].as_ref()?, r[2].as_ref()?);
            super::super::term_str(l)
                .eq_ignore_ascii_case(name)
                .then(|| direct(super::super::term_str(s)))
        });
        match by_label.and_then(|iri| all.iter().find(|(p, _)| super::super::term_str(p) == iri)) {
            Some((p, _)) => out.push(p.clone()),
            None => out.extend(chosen(all, std::slice::from_ref(name))?),
        }
    }
    Ok(out)
}

/// Names of `subjects` (labels and aliases in the profile's languages) and, with `typed`,
/// their types, as triples.
fn names(
    kg: &dyn KnowledgeGraph,
    profile: &Profile,
    subjects: &[Term],
    typed: bool,
) -> Result<Vec<Row>> {
    let mut preds: Vec<&str> = profile
        .names
        .labels
        .iter()
        .chain(&profile.names.aliases)
        .map(String::as_str)
        .collect();
    if typed {
        preds.extend(profile.types.predicates.iter().map(String::as_str));
    }
    read(
        kg,
        "reading the names and types of the entities drawn",
        subjects,
        &preds,
        &language_filter(profile, "o"),
    )
}

/// The index of a sample of `kg` as `draw` says, read under `profile`.
pub(super) fn build(
    kg: &dyn KnowledgeGraph,
    draw: &Draw,
    profile: &Profile,
    progress: &dyn Fn(&str),
) -> Result<KgIndex> {
    let mut triples: Vec<Row> = Vec::new();
    let relations = relations(kg, draw, profile, &mut triples, progress)?;
    let is_entity = |t: &Term| matches!(t, Term::NamedNode(n) if profile.is_entity_iri(n.as_str()));
    let counted: Vec<(Term, Option<u64>)> = relations.iter().map(|p| (p.clone(), None)).collect();
    let drawn = drawn_entities(first_draw(kg, &counted, draw, progress)?, &is_entity);
    // The predicates an entity's facts are read over: listed where the list is short, else by
    // the profile's fact namespaces, then by IRI here.
    let wanted: std::collections::HashSet<String> = relations.iter().map(Term::to_string).collect();
    let filter = if relations.len() <= LISTED || profile.facts.namespaces.is_empty() {
        super::in_filter("p", &relations)
    } else {
        let ns: Vec<String> = profile
            .facts
            .namespaces
            .iter()
            .map(|n| format!("STRSTARTS(STR(?p), \"{}\")", n.replace(['"', '\\'], "")))
            .collect();
        format!("({})", ns.join(" || "))
    };
    let (closed, mut facts) = reach(kg, draw, drawn, &filter, &is_entity, progress)?;
    facts.retain(|r| {
        r[1].as_ref()
            .is_some_and(|p| wanted.contains(&p.to_string()))
    });
    let mut named = Terms::default();
    closed.iter().cloned().for_each(|t| named.insert(t));
    for r in &facts {
        if let Some(o) = r[2].as_ref().filter(|o| is_entity(o)) {
            named.insert(o.clone());
        }
    }
    triples.extend(facts);
    if let Some(w) = &profile.wikibase {
        progress("reading the statements behind the facts");
        triples.extend(statements(kg, profile, w, &closed, &relations)?);
    }
    if profile.popularity.sitelinks.is_some()
        || profile.popularity.statements.is_some()
        || profile.popularity.identifiers.is_some()
    {
        progress("reading page counters");
        triples.extend(counters(kg, profile, &closed)?);
    }
    progress("reading names and types");
    let named = named.into_vec();
    let about = names(kg, profile, &named, true)?;
    // The classes, units and other nodes the rows name get their names (not their types: a
    // class is not an entity of the sample).
    let mut classes = Terms::default();
    let type_preds: Vec<&str> = profile
        .types
        .predicates
        .iter()
        .map(String::as_str)
        .collect();
    for r in &about {
        if r[1]
            .as_ref()
            .is_some_and(|p| type_preds.contains(&super::super::term_str(p)))
        {
            if let Some(t) = r[2].as_ref().filter(|t| t.is_named_node()) {
                classes.insert(t.clone());
            }
        }
    }
    triples.extend(about);
    let classes = classes.into_vec();
    if let Some(sub) = &profile.types.subclass {
        progress("reading how the types relate");
        triples.extend(subclasses(kg, sub, &classes)?);
    }
    let mut units = Terms::default();
    if profile.wikibase.is_some() {
        let unit = format!("{WIKIBASE}quantityUnit");
        for r in &triples {
            if r[1]
                .as_ref()
                .is_some_and(|p| super::super::term_str(p) == unit)
            {
                if let Some(u) = r[2].as_ref().filter(|u| u.is_named_node()) {
                    units.insert(u.clone());
                }
            }
        }
    }
    let mut more: Vec<Term> = classes;
    more.extend(units.into_vec());
    triples.extend(names(kg, profile, &more, false)?);
    let (mut index, _) = KgIndex::from_triples(profile, triples, progress);
    index.set_closed(&closed);
    Ok(index)
}

/// The Wikibase statements of `entities` about `relations` (their ranks, values, value nodes
/// and date qualifiers) and the value nodes' precisions and units, as triples.
fn statements(
    kg: &dyn KnowledgeGraph,
    profile: &Profile,
    w: &super::super::profile::Wikibase,
    entities: &[Term],
    relations: &[Term],
) -> Result<Vec<Row>> {
    let ids: Vec<&str> = relations
        .iter()
        .filter_map(|p| super::super::term_str(p).strip_prefix(w.direct.as_str()))
        .collect();
    let claims: Vec<Term> = ids
        .iter()
        .map(|id| named(&format!("{}{id}", w.claim)))
        .collect();
    let wanted_claims: std::collections::HashSet<String> =
        claims.iter().map(Term::to_string).collect();
    let rank = format!("{WIKIBASE}rank");
    let mut on_statement: Vec<String> = vec![rank.clone()];
    for id in &ids {
        on_statement.push(format!("{}{id}", w.statement));
        on_statement.push(format!("{}{id}", w.statement_value));
    }
    on_statement.extend(profile.qualifiers.all().cloned());
    let on_statement_refs: Vec<&str> = on_statement.iter().map(String::as_str).collect();
    // Every statement node has a rank: the pattern keeps `?st` to statement nodes where the
    // claim predicates are too many to list.
    let claim_filter = if claims.len() <= LISTED {
        super::in_filter("c", &claims)
    } else {
        "true".into()
    };
    let what = "reading the statements behind the facts";
    let rows = batched(kg, what, entities, &["s", "c", "st", "p", "o"], |v| {
        format!(
            "SELECT ?s ?c ?st ?p ?o WHERE {{ VALUES ?s {{ {v} }} ?s ?c ?st . FILTER({claim_filter}) \
             ?st <{rank}> ?r ; ?p ?o . FILTER(?p IN ({})) }}",
            in_list(&on_statement_refs)
        )
    })?;
    let mut out = Vec::new();
    let mut value_nodes = Terms::default();
    let psv = w.statement_value.as_str();
    for r in rows {
        let (Some(s), Some(c), Some(st), Some(p), Some(o)) = (&r[0], &r[1], &r[2], &r[3], &r[4])
        else {
            continue;
        };
        if !wanted_claims.contains(&c.to_string()) {
            continue;
        }
        out.push(triple(s, c, st));
        out.push(triple(st, p, o));
        if super::super::term_str(p).starts_with(psv) && o.is_named_node() {
            value_nodes.insert(o.clone());
        }
    }
    let precision = format!("{WIKIBASE}timePrecision");
    let unit = format!("{WIKIBASE}quantityUnit");
    out.extend(read(
        kg,
        "reading the values' precisions and units",
        &value_nodes.into_vec(),
        &[&precision, &unit],
        "true",
    )?);
    Ok(out)
}

/// Page counters of `entities` (on their page nodes where the profile keeps them there).
fn counters(kg: &dyn KnowledgeGraph, profile: &Profile, entities: &[Term]) -> Result<Vec<Row>> {
    let p = &profile.popularity;
    let preds: Vec<&str> = [&p.sitelinks, &p.statements, &p.identifiers]
        .into_iter()
        .flatten()
        .map(String::as_str)
        .collect();
    let Some(about) = &p.about else {
        return read(kg, "reading page counters", entities, &preds, "true");
    };
    let rows = batched(
        kg,
        "reading page counters",
        entities,
        &["e", "page", "c", "n"],
        |v| {
            format!(
                "SELECT ?e ?page ?c ?n WHERE {{ VALUES ?e {{ {v} }} ?page <{about}> ?e ; ?c ?n . \
             FILTER(?c IN ({})) }}",
                in_list(&preds)
            )
        },
    )?;
    let about = named(about);
    let mut out = Vec::new();
    for r in rows {
        let (Some(e), Some(page), Some(c), Some(n)) = (&r[0], &r[1], &r[2], &r[3]) else {
            continue;
        };
        out.push(triple(page, &about, e));
        out.push(triple(page, c, n));
    }
    Ok(out)
}

/// `(t, subclass, u)` for each of `classes` and each of them it is a subclass of, however
/// far up: the most specific of an entity's types is judged among its types only.
fn subclasses(kg: &dyn KnowledgeGraph, subclass: &str, classes: &[Term]) -> Result<Vec<Row>> {
    if classes.len() < 2 {
        return Ok(vec![]);
    }
    let all = super::in_filter("u", classes);
    let sub = named(subclass);
    let rows = batched(
        kg,
        "reading how the types relate",
        classes,
        &["t", "u"],
        |v| {
            format!("SELECT DISTINCT ?t ?u WHERE {{ VALUES ?t {{ {v} }} ?t <{subclass}>+ ?u . FILTER({all}) }}")
        },
    )?;
    Ok(rows
        .into_iter()
        .filter_map(|r| Some(triple(r[0].as_ref()?, &sub, r[1].as_ref()?)))
        .filter(|r| r[0] != r[2])
        .collect())
}

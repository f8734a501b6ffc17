//! A profile applied to the rows an index is built from: the facts it keeps (rewritten where
//! the model says more than the triple: a date's precision, a quantity's unit), the names,
//! types and date qualifiers it draws from the model's own structures, and a count of what
//! it leaves out and why.

use std::collections::{BTreeMap, HashMap, HashSet};

use oxigraph::model::{Literal, NamedNode};
use serde::Serialize;

use super::super::IndexRows;
use super::super::{term_str, vocab, Row, Term};
use super::Profile;

const WIKIBASE: &str = "http://wikiba.se/ontology#";
const XSD: &str = "http://www.w3.org/2001/XMLSchema#";
/// Wikidata's "1": the unit of a count.
const NO_UNIT: &str = "http://www.wikidata.org/entity/Q199";

/// What a profile left out of the facts, by reason, then by predicate IRI.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LeftOut(pub BTreeMap<String, BTreeMap<String, usize>>);

impl LeftOut {
    fn add(&mut self, reason: &str, predicate: &str) {
        *self
            .0
            .entry(reason.to_string())
            .or_default()
            .entry(predicate.to_string())
            .or_default() += 1;
    }
    /// Triples left out for `reason`.
    pub fn count(&self, reason: &str) -> usize {
        self.0.get(reason).map_or(0, |m| m.values().sum())
    }
}

/// An entity's popularity counters, where the KG keeps them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Counters {
    pub sitelinks: Option<u64>,
    pub statements: Option<u64>,
    pub identifiers: Option<u64>,
}

/// The rows as the profile reads them.
pub struct Shaped {
    pub rows: IndexRows,
    pub counters: Vec<(Term, Counters)>,
    pub left_out: LeftOut,
}

/// Reasons a triple is not a fact, as `kg profile` says them.
pub mod reason {
    pub const NAMES: &str = "a name, description, type, qualifier or counter";
    pub const METADATA: &str = "metadata (page, provenance, ontology, statement or value node)";
    pub const NOT_FACT: &str = "outside the profile's fact namespaces";
    pub const ON_REQUEST: &str = "raw data, asked only by --relation or the profile";
    pub const SUBJECT: &str = "subject is not an entity (a node, page or property)";
    pub const OBJECT: &str = "object is not an entity (a URL, image, page or node)";
    pub const DEPRECATED: &str = "deprecated rank";
    pub const NO_VALUE: &str = "no value or unknown value";
    /// Followed by the property type's name.
    pub const PROPERTY_TYPE: &str = "property type";
}

fn iri(t: &Option<Term>) -> Option<&str> {
    match t {
        Some(Term::NamedNode(n)) => Some(n.as_str()),
        _ => None,
    }
}

fn full(r: &Row) -> bool {
    r.iter().all(Option::is_some)
}

fn lang(t: &Term) -> Option<&str> {
    match t {
        Term::Literal(l) => l.language(),
        _ => None,
    }
}

fn named(iri: &str) -> Term {
    Term::NamedNode(NamedNode::new_unchecked(iri))
}

/// Applies `profile` to every triple of the KG (`(s, p, o)` rows): what the index is built
/// from under a profile other than the generic one (which the index reads directly, as it
/// always has).
pub fn shape(profile: &Profile, triples: Vec<Row>) -> Shaped {
    Shaper::new(profile).run(triples)
}

/// A Wikibase statement, as far as the rows tell it.
#[derive(Default)]
struct Statement {
    subject: Option<Term>,
    property: Option<String>,
    value: Option<Term>,
    value_node: Option<Term>,
    deprecated: bool,
    dates: Vec<Term>,
}

#[derive(Default)]
struct ValueNode {
    precision: Option<u8>,
    unit: Option<String>,
}

struct Shaper<'a> {
    p: &'a Profile,
    left_out: LeftOut,
}

impl<'a> Shaper<'a> {
    fn new(p: &'a Profile) -> Self {
        Self {
            p,
            left_out: LeftOut::default(),
        }
    }

    fn run(mut self, triples: Vec<Row>) -> Shaped {
        let p = self.p;
        let is = |list: &[String], x: &str| list.iter().any(|y| y == x);
        let describing: HashSet<&str> = p.describing().map(String::as_str).collect();

        let mut labels: Vec<Row> = Vec::new();
        let mut aliases: Vec<Row> = Vec::new();
        let mut type_rows: Vec<(Term, Term)> = Vec::new();
        let mut subclass: HashMap<Term, Vec<Term>> = HashMap::new();
        let mut facts: Vec<Row> = Vec::new();
        // Wikibase structures.
        let wb = p.wikibase.as_ref();
        let mut direct_of: HashMap<String, String> = HashMap::new(); // property entity → wdt:
        let mut property_type: HashMap<String, String> = HashMap::new();
        let mut statements: HashMap<Term, Statement> = HashMap::new();
        let mut value_nodes: HashMap<Term, ValueNode> = HashMap::new();
        let mut pages: HashMap<Term, (Option<Term>, Counters)> = HashMap::new();

        let mut candidates: Vec<Row> = Vec::new();
        for r in triples {
            if !full(&r) {
                continue;
            }
            let pred = iri(&r[1]).unwrap_or_default().to_string();
            let (s, o) = (r[0].clone().unwrap(), r[2].clone().unwrap());
            if let Some(w) = wb {
                let used = self.wikibase_row(
                    w,
                    &pred,
                    &s,
                    &o,
                    &mut direct_of,
                    &mut property_type,
                    &mut statements,
                    &mut value_nodes,
                );
                if used {
                    continue;
                }
            }
            if let Some(about) = &p.popularity.about {
                if &pred == about {
                    pages.entry(s).or_default().0 = Some(o);
                    continue;
                }
            }
            let counter = |x: &Option<String>| x.as_deref() == Some(pred.as_str());
            if counter(&p.popularity.sitelinks)
                || counter(&p.popularity.statements)
                || counter(&p.popularity.identifiers)
            {
                let n = super::super::literal_u64(&o);
                let c = &mut pages.entry(s).or_default().1;
                if counter(&p.popularity.sitelinks) {
                    c.sitelinks = n;
                } else if counter(&p.popularity.statements) {
                    c.statements = n;
                } else {
                    c.identifiers = n;
                }
                continue;
            }
            if o.is_literal() && is(&p.names.labels, &pred) {
                labels.push(r);
                continue;
            }
            if o.is_literal() && is(&p.names.aliases, &pred) {
                aliases.push(vec![Some(s), Some(o)]);
                continue;
            }
            if is(&p.types.predicates, &pred) {
                if s.is_named_node() && o.is_named_node() {
                    type_rows.push((s, o));
                }
                continue;
            }
            if p.types.subclass.as_deref() == Some(pred.as_str()) {
                if o.is_named_node() {
                    subclass.entry(s).or_default().push(o);
                }
                self.left_out.add(reason::NAMES, &pred);
                continue;
            }
            if describing.contains(pred.as_str()) {
                self.left_out.add(reason::NAMES, &pred);
                continue;
            }
            candidates.push(r);
        }

        // Relations are named by their property entities (Wikibase), so the wdt: predicate
        // gets the entity's labels and aliases.
        if wb.is_some() {
            let by_entity: HashMap<&str, &str> = direct_of
                .iter()
                .map(|(e, d)| (e.as_str(), d.as_str()))
                .collect();
            let relabel = |r: &Row| -> Option<Row> {
                let d = by_entity.get(iri(&r[0])?)?;
                let mut r = r.clone();
                r[0] = Some(named(d));
                Some(r)
            };
            let more: Vec<Row> = labels.iter().filter_map(relabel).collect();
            labels.extend(more);
            let more: Vec<Row> = aliases.iter().filter_map(relabel).collect();
            aliases.extend(more);
        }
        let (labels, aliases) = self.in_language(labels, aliases);
        let label_of: HashMap<String, String> = labels
            .iter()
            .filter_map(|r| {
                Some((
                    iri(&r[0])?.to_string(),
                    term_str(r[2].as_ref()?).to_string(),
                ))
            })
            .collect();

        // Facts.
        let excluded_type = |pred: &str| -> Option<String> {
            let w = wb?;
            let id = pred.strip_prefix(w.direct.as_str())?;
            let entity = direct_of
                .iter()
                .find(|(_, d)| d.as_str() == pred)
                .map(|(e, _)| e.clone())
                .unwrap_or_else(|| format!("{}{id}", w.entity));
            let t = property_type.get(&entity)?;
            (!w.asked_property_types.contains(t)).then(|| t.clone())
        };
        let mut type_verdict: HashMap<String, Option<String>> = HashMap::new();
        let deprecated: HashSet<(Term, String, Term)> = statements
            .values()
            .filter(|st| st.deprecated)
            .filter_map(|st| Some((st.subject.clone()?, st.property.clone()?, st.value.clone()?)))
            .collect();
        let kept_by_others: HashSet<(Term, String, Term)> = statements
            .values()
            .filter(|st| !st.deprecated)
            .filter_map(|st| Some((st.subject.clone()?, st.property.clone()?, st.value.clone()?)))
            .collect();
        // (subject, property id, value) → the value node of its statement.
        let mut value_node_of: HashMap<(Term, String, Term), &ValueNode> = HashMap::new();
        for st in statements.values() {
            if let (Some(s), Some(pr), Some(v), Some(n)) =
                (&st.subject, &st.property, &st.value, &st.value_node)
            {
                if let Some(node) = value_nodes.get(n) {
                    value_node_of.insert((s.clone(), pr.clone(), v.clone()), node);
                }
            }
        }
        for r in candidates {
            let pred = iri(&r[1]).unwrap_or_default().to_string();
            let (s, o) = (r[0].clone().unwrap(), r[2].clone().unwrap());
            let fact_ns = p.in_fact_namespace(&pred)
                || (p.facts.namespaces.is_empty() && !p.is_metadata(&pred));
            if !fact_ns && !p.asked_for(&pred) {
                let why = if p
                    .facts
                    .on_request
                    .iter()
                    .any(|n| pred.starts_with(n.as_str()))
                {
                    reason::ON_REQUEST
                } else if p.is_metadata(&pred) {
                    reason::METADATA
                } else {
                    reason::NOT_FACT
                };
                self.left_out.add(why, &pred);
                continue;
            }
            if p.metadata.predicates.contains(&pred) {
                self.left_out.add(reason::METADATA, &pred);
                continue;
            }
            if !matches!(&s, Term::NamedNode(n) if p.is_entity_iri(n.as_str())) {
                self.left_out.add(reason::SUBJECT, &pred);
                continue;
            }
            match &o {
                Term::NamedNode(n) if !p.is_entity_iri(n.as_str()) => {
                    let why = if wb.is_some() && n.as_str().contains("/.well-known/genid/") {
                        reason::NO_VALUE
                    } else {
                        reason::OBJECT
                    };
                    self.left_out.add(why, &pred);
                    continue;
                }
                Term::BlankNode(_) => {
                    self.left_out.add(reason::NO_VALUE, &pred);
                    continue;
                }
                _ => {}
            }
            if let Some(t) = type_verdict
                .entry(pred.clone())
                .or_insert_with(|| excluded_type(&pred))
            {
                let name = t.strip_prefix(WIKIBASE).unwrap_or(t);
                self.left_out
                    .add(&format!("{} {name}", reason::PROPERTY_TYPE), &pred);
                continue;
            }
            let id = wb
                .and_then(|w| pred.strip_prefix(w.direct.as_str()))
                .map(str::to_string);
            if let Some(id) = &id {
                let key = (s.clone(), id.clone(), o.clone());
                if deprecated.contains(&key) && !kept_by_others.contains(&key) {
                    self.left_out.add(reason::DEPRECATED, &pred);
                    continue;
                }
            }
            let node = id.as_ref().and_then(|id| {
                value_node_of
                    .get(&(s.clone(), id.clone(), o.clone()))
                    .copied()
            });
            let o = match &o {
                Term::Literal(_) if wb.is_some() => wikibase_value(&o, node, &label_of),
                _ => o,
            };
            facts.push(vec![Some(s), r[1].clone(), Some(o)]);
        }

        // Date qualifiers of Wikibase statements, on the truthy fact they back.
        let mut qualifiers = Vec::new();
        if let Some(w) = wb {
            for st in statements.values().filter(|st| !st.deprecated) {
                let (Some(s), Some(id), Some(v)) = (&st.subject, &st.property, &st.value) else {
                    continue;
                };
                let node = value_node_of
                    .get(&(s.clone(), id.clone(), v.clone()))
                    .copied();
                let v = match v {
                    Term::Literal(_) => wikibase_value(v, node, &label_of),
                    v => v.clone(),
                };
                for d in &st.dates {
                    qualifiers.push(vec![
                        Some(s.clone()),
                        Some(named(&format!("{}{id}", w.direct))),
                        Some(v.clone()),
                        Some(d.clone()),
                    ]);
                }
            }
        }

        let types = self.types(type_rows, &subclass);
        let counters = pages
            .into_iter()
            .filter_map(|(node, (about, c))| match about {
                Some(e) => Some((e, c)),
                // Counters on the entity itself (no page nodes in this KG).
                None if p.popularity.about.is_none() => Some((node, c)),
                None => None,
            })
            .collect();
        Shaped {
            rows: IndexRows {
                facts,
                labels,
                aliases,
                types,
                qualifiers,
            },
            counters,
            left_out: self.left_out,
        }
    }

    /// Reads one row of the Wikibase machinery; `true` when the row is used up.
    #[allow(clippy::too_many_arguments)]
    fn wikibase_row(
        &mut self,
        w: &super::Wikibase,
        pred: &str,
        s: &Term,
        o: &Term,
        direct_of: &mut HashMap<String, String>,
        property_type: &mut HashMap<String, String>,
        statements: &mut HashMap<Term, Statement>,
        value_nodes: &mut HashMap<Term, ValueNode>,
    ) -> bool {
        let p = self.p;
        let Some(local) = pred.strip_prefix(WIKIBASE) else {
            if pred.starts_with(w.direct.as_str()) {
                return false;
            }
            if let Some(id) = pred.strip_prefix(w.statement_value.as_str()) {
                let st = statements.entry(s.clone()).or_default();
                st.property.get_or_insert_with(|| id.to_string());
                st.value_node = Some(o.clone());
                self.left_out.add(reason::METADATA, pred);
                return true;
            }
            if let Some(id) = pred.strip_prefix(w.statement.as_str()) {
                if super::is_property_id(id) {
                    let st = statements.entry(s.clone()).or_default();
                    st.property = Some(id.to_string());
                    st.value = Some(o.clone());
                    self.left_out.add(reason::METADATA, pred);
                    return true;
                }
                return false;
            }
            if p.qualifiers.all().any(|q| q == pred) {
                if matches!(o, Term::Literal(_)) {
                    statements
                        .entry(s.clone())
                        .or_default()
                        .dates
                        .push(o.clone());
                }
                self.left_out.add(reason::NAMES, pred);
                return true;
            }
            if let Some(id) = pred.strip_prefix(w.claim.as_str()) {
                if super::is_property_id(id) {
                    let st = statements.entry(o.clone()).or_default();
                    st.subject = Some(s.clone());
                    st.property = Some(id.to_string());
                    self.left_out.add(reason::METADATA, pred);
                    return true;
                }
            }
            return false;
        };
        match local {
            "directClaim" => {
                if let (Term::NamedNode(e), Term::NamedNode(d)) = (s, o) {
                    direct_of.insert(e.as_str().into(), d.as_str().into());
                }
            }
            "propertyType" => {
                property_type.insert(term_str(s).into(), term_str(o).into());
            }
            "rank" => {
                if term_str(o) == format!("{WIKIBASE}DeprecatedRank") {
                    statements.entry(s.clone()).or_default().deprecated = true;
                }
            }
            "timePrecision" => {
                value_nodes.entry(s.clone()).or_default().precision = term_str(o).parse().ok();
            }
            "quantityUnit" => {
                value_nodes.entry(s.clone()).or_default().unit = Some(term_str(o).into());
            }
            _ => return false,
        }
        self.left_out.add(reason::METADATA, pred);
        true
    }

    /// Keeps, for each subject, the names in the most wanted language the profile's
    /// languages find (then untagged), as untagged text: the index's own ranking then
    /// only chooses among predicates.
    fn in_language(&self, labels: Vec<Row>, aliases: Vec<Row>) -> (Vec<Row>, Vec<Row>) {
        let langs = self.p.languages();
        if langs.is_empty() {
            return (labels, aliases);
        }
        let rank = |t: &Term| -> usize {
            match lang(t) {
                Some(l) => langs
                    .iter()
                    .position(|x| x.eq_ignore_ascii_case(l))
                    .unwrap_or(usize::MAX),
                None => langs.len(),
            }
        };
        let keep = |rows: Vec<Row>, text: usize| -> Vec<Row> {
            let mut best: HashMap<Term, usize> = HashMap::new();
            for r in rows.iter().filter(|r| full(r)) {
                let k = rank(r[text].as_ref().unwrap());
                let e = best.entry(r[0].clone().unwrap()).or_insert(k);
                *e = (*e).min(k);
            }
            rows.into_iter()
                .filter(|r| full(r))
                .filter(|r| {
                    let k = rank(r[text].as_ref().unwrap());
                    k != usize::MAX && best.get(r[0].as_ref().unwrap()) == Some(&k)
                })
                .map(|mut r| {
                    r[text] = Some(Term::Literal(Literal::new_simple_literal(term_str(
                        r[text].as_ref().unwrap(),
                    ))));
                    r
                })
                .collect()
        };
        (keep(labels, 2), keep(aliases, 1))
    }

    /// Each entity's most specific types among those the profile accepts.
    fn types(&mut self, rows: Vec<(Term, Term)>, subclass: &HashMap<Term, Vec<Term>>) -> Vec<Row> {
        let p = self.p;
        let accepted = |t: &Term| -> bool {
            let Term::NamedNode(n) = t else { return false };
            let c = n.as_str();
            !p.metadata.classes.iter().any(|x| x == c)
                && (p.types.namespaces.is_empty()
                    || p.types
                        .namespaces
                        .iter()
                        .any(|ns| c.starts_with(ns.as_str())))
        };
        let mut by_entity: HashMap<Term, Vec<Term>> = HashMap::new();
        for (s, t) in rows {
            let entity = matches!(&s, Term::NamedNode(n) if p.is_entity_iri(n.as_str()));
            if entity && accepted(&t) {
                by_entity.entry(s).or_default().push(t);
            }
        }
        let ancestors = |t: &Term| -> HashSet<Term> {
            let mut seen = HashSet::new();
            let mut stack: Vec<&Term> = subclass.get(t).into_iter().flatten().collect();
            while let Some(x) = stack.pop() {
                if seen.insert(x.clone()) {
                    stack.extend(subclass.get(x).into_iter().flatten());
                }
            }
            seen
        };
        let mut out = Vec::new();
        let mut by_entity: Vec<(Term, Vec<Term>)> = by_entity.into_iter().collect();
        by_entity.sort_by_cached_key(|(s, _)| s.to_string());
        for (s, mut ts) in by_entity {
            ts.sort_by_key(|t| t.to_string());
            ts.dedup();
            let above: HashSet<Term> = ts.iter().flat_map(|t| ancestors(t)).collect();
            for t in ts.into_iter().filter(|t| !above.contains(t)) {
                out.push(vec![Some(s.clone()), Some(t)]);
            }
        }
        out
    }
}

/// A Wikibase value as it is asked: a date at its precision (a year-precision date is a
/// year), a quantity without its sign and with its unit's name.
fn wikibase_value(o: &Term, node: Option<&ValueNode>, label_of: &HashMap<String, String>) -> Term {
    let Term::Literal(l) = o else {
        return o.clone();
    };
    let dt = l.datatype().as_str();
    let v = l.value();
    if dt == vocab::XSD_DATETIME {
        let (sign, rest) = match v.strip_prefix('-') {
            Some(r) => ("-", r),
            None => ("", v.trim_start_matches('+')),
        };
        let date = rest.split('T').next().unwrap_or(rest);
        let precision = node.and_then(|n| n.precision).unwrap_or(11);
        let (text, ty) = match precision {
            0..=9 => (date.split('-').next().unwrap_or(date).to_string(), "gYear"),
            10 => (
                date.splitn(3, '-').take(2).collect::<Vec<_>>().join("-"),
                "gYearMonth",
            ),
            _ => (date.to_string(), "date"),
        };
        return Term::Literal(Literal::new_typed_literal(
            format!("{sign}{text}"),
            NamedNode::new_unchecked(format!("{XSD}{ty}")),
        ));
    }
    if dt == format!("{XSD}decimal") {
        let amount = v.strip_prefix('+').unwrap_or(v);
        let unit = node
            .and_then(|n| n.unit.as_deref())
            .filter(|u| *u != NO_UNIT)
            .and_then(|u| label_of.get(u));
        return Term::Literal(match unit {
            Some(u) => Literal::new_simple_literal(format!("{amount} {}", unit_for(amount, u))),
            None => Literal::new_typed_literal(amount, NamedNode::new_unchecked(dt)),
        });
    }
    o.clone()
}

/// A unit's label as it follows an amount: plural unless the amount is one ("1 metre", "2.5
/// metres", "505992 square kilometres", "20 degrees Celsius", "3 kilometres per hour"). The
/// plural goes on the head noun: the word before "per", before a proper adjective
/// ("Celsius"), else the last.
fn unit_for(amount: &str, unit: &str) -> String {
    if amount.trim_start_matches(['+', '-']) == "1" {
        return unit.to_string();
    }
    let mut words: Vec<String> = unit.split(' ').map(str::to_string).collect();
    let head = match words.iter().position(|w| w == "per") {
        Some(p) if p > 0 => p - 1,
        _ => {
            let last = words.len() - 1;
            if last > 0 && words[last].starts_with(char::is_uppercase) {
                last - 1
            } else {
                last
            }
        }
    };
    words[head] = plural(&words[head]);
    words.join(" ")
}

fn plural(word: &str) -> String {
    match word {
        "foot" => return "feet".into(),
        w if !w.starts_with(char::is_lowercase) => return w.to_string(),
        _ => {}
    }
    if word.ends_with(['s', 'x', 'z']) || word.len() < 3 {
        return word.to_string();
    }
    if word.ends_with("ch") || word.ends_with("sh") {
        return format!("{word}es");
    }
    if let Some(stem) = word.strip_suffix('y') {
        if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) {
            return format!("{stem}ies");
        }
    }
    format!("{word}s")
}

#[cfg(test)]
mod unit_tests {
    use super::unit_for;

    #[test]
    fn units_follow_their_amount() {
        assert_eq!(unit_for("1", "metre"), "metre");
        assert_eq!(unit_for("505992", "square kilometre"), "square kilometres");
        assert_eq!(unit_for("20", "degree Celsius"), "degrees Celsius");
        assert_eq!(unit_for("3", "kilometre per hour"), "kilometres per hour");
        assert_eq!(unit_for("12", "foot"), "feet");
        assert_eq!(unit_for("5", "inch"), "inches");
        assert_eq!(unit_for("2", "century"), "centuries");
        assert_eq!(unit_for("50", "hertz"), "hertz");
        assert_eq!(
            unit_for("7", "United States dollar"),
            "United States dollars"
        );
    }
}

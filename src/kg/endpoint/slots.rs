//! What kind of term each variable of a query can be bound to, read from the query itself
//! (oxigraph's SPARQL parser): a subject is an IRI or a blank node, a predicate an IRI, a
//! `COUNT` a whole number, and a `FILTER(isIRI(?x))` or `FILTER(isLiteral(?x))` says so. An
//! endpoint whose answer binds a variable to a term its slot cannot hold sent something
//! other than an answer to the query; the rows are refused, never read as facts or dropped.
//!
//! Only what holds for every solution counts: the required part of a pattern (not an
//! `OPTIONAL`'s or a `MINUS`'s right side), what both sides of a `UNION` agree on, and a
//! sub-select's projected variables only.

use std::collections::HashMap;

use oxigraph::model::Term;
use spargebra::algebra::{
    AggregateExpression, AggregateFunction, Expression, Function, GraphPattern,
};
use spargebra::term::{NamedNodePattern, TermPattern};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Iri,
    /// An IRI or a blank node (a subject).
    Resource,
    Literal,
    NotBlank,
    /// A whole number (a `COUNT`).
    Count,
}

impl Kind {
    pub fn admits(self, t: &Term) -> bool {
        match self {
            Kind::Iri => t.is_named_node(),
            Kind::Resource => t.is_named_node() || t.is_blank_node(),
            Kind::Literal => t.is_literal(),
            Kind::NotBlank => !t.is_blank_node(),
            Kind::Count => matches!(t, Term::Literal(l) if l.value().parse::<u64>().is_ok()),
        }
    }

    /// What the slot holds, for messages.
    pub fn needs(self) -> &'static str {
        match self {
            Kind::Iri => "an IRI",
            Kind::Resource => "an IRI or a blank node (it is a subject)",
            Kind::Literal => "a literal",
            Kind::NotBlank => "an IRI or a literal",
            Kind::Count => "a whole number (a count)",
        }
    }
}

/// Each variable's kinds (every one must admit its term).
pub type Kinds = HashMap<String, Vec<Kind>>;

/// The kinds of the variables of a `SELECT` query; none for a query the parser does not read
/// (an engine's own extension): the endpoint is then the judge of it.
pub fn of_query(query: &str) -> Kinds {
    let mut out = Kinds::new();
    if let Ok(spargebra::Query::Select { pattern, .. }) =
        spargebra::SparqlParser::new().parse_query(query)
    {
        walk(&pattern, &mut out);
    }
    out
}

fn add(out: &mut Kinds, var: &str, kind: Kind) {
    let kinds = out.entry(var.to_string()).or_default();
    if !kinds.contains(&kind) {
        kinds.push(kind);
    }
}

fn walk(p: &GraphPattern, out: &mut Kinds) {
    match p {
        GraphPattern::Bgp { patterns } => {
            for t in patterns {
                if let TermPattern::Variable(v) = &t.subject {
                    add(out, v.as_str(), Kind::Resource);
                }
                if let NamedNodePattern::Variable(v) = &t.predicate {
                    add(out, v.as_str(), Kind::Iri);
                }
            }
        }
        GraphPattern::Path { subject, .. } => {
            if let TermPattern::Variable(v) = subject {
                add(out, v.as_str(), Kind::Resource);
            }
        }
        GraphPattern::Join { left, right } => {
            walk(left, out);
            walk(right, out);
        }
        GraphPattern::LeftJoin { left, .. } | GraphPattern::Minus { left, .. } => walk(left, out),
        GraphPattern::Filter { expr, inner } => {
            walk(inner, out);
            filtered(expr, out);
        }
        GraphPattern::Union { left, right } => {
            let (mut l, mut r) = (Kinds::new(), Kinds::new());
            walk(left, &mut l);
            walk(right, &mut r);
            for (var, kinds) in l {
                for k in kinds {
                    if r.get(&var).is_some_and(|rk| rk.contains(&k)) {
                        add(out, &var, k);
                    }
                }
            }
        }
        GraphPattern::Extend {
            inner,
            variable,
            expression,
        } => {
            walk(inner, out);
            // `(COUNT(*) AS ?n)` is an aggregate's hidden variable bound to `?n`.
            if let Expression::Variable(from) = expression {
                for k in out.get(from.as_str()).cloned().unwrap_or_default() {
                    add(out, variable.as_str(), k);
                }
            }
        }
        GraphPattern::Graph { inner, .. }
        | GraphPattern::OrderBy { inner, .. }
        | GraphPattern::Distinct { inner }
        | GraphPattern::Reduced { inner }
        | GraphPattern::Slice { inner, .. } => walk(inner, out),
        GraphPattern::Project { inner, variables } => {
            let mut inside = Kinds::new();
            walk(inner, &mut inside);
            for v in variables {
                for k in inside.remove(v.as_str()).unwrap_or_default() {
                    add(out, v.as_str(), k);
                }
            }
        }
        GraphPattern::Group {
            inner,
            variables,
            aggregates,
        } => {
            let mut inside = Kinds::new();
            walk(inner, &mut inside);
            for v in variables {
                for k in inside.remove(v.as_str()).unwrap_or_default() {
                    add(out, v.as_str(), k);
                }
            }
            for (v, agg) in aggregates {
                let count = match agg {
                    AggregateExpression::CountSolutions { .. } => true,
                    AggregateExpression::FunctionCall { name, .. } => {
                        *name == AggregateFunction::Count
                    }
                };
                if count {
                    add(out, v.as_str(), Kind::Count);
                }
            }
        }
        // VALUES may hold UNDEF; a SERVICE or a LATERAL is left to the endpoint.
        _ => {}
    }
}

/// The kinds a filter demands: the conjuncts `isIRI(?x)`, `isLiteral(?x)`, `!isBlank(?x)`.
fn filtered(e: &Expression, out: &mut Kinds) {
    let var = |args: &[Expression]| match args {
        [Expression::Variable(v)] => Some(v.as_str().to_string()),
        _ => None,
    };
    match e {
        Expression::And(a, b) => {
            filtered(a, out);
            filtered(b, out);
        }
        Expression::FunctionCall(Function::IsIri, args) => {
            if let Some(v) = var(args.as_slice()) {
                add(out, &v, Kind::Iri);
            }
        }
        Expression::FunctionCall(Function::IsLiteral, args) => {
            if let Some(v) = var(args.as_slice()) {
                add(out, &v, Kind::Literal);
            }
        }
        Expression::Not(inner) => {
            if let Expression::FunctionCall(Function::IsBlank, args) = inner.as_ref() {
                if let Some(v) = var(args.as_slice()) {
                    add(out, &v, Kind::NotBlank);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_come_from_positions_filters_and_counts() {
        let k = of_query(
            "SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o . FILTER(isIRI(?s) && !isBlank(?o)) } GROUP BY ?p",
        );
        assert_eq!(k.get("p"), Some(&vec![Kind::Iri]));
        assert_eq!(k.get("n"), Some(&vec![Kind::Count]));
        assert!(!k.contains_key("s"), "not selected: {k:?}");
        let k = of_query("SELECT ?s ?l WHERE { ?s ?p ?l . FILTER(isLiteral(?l)) }");
        assert_eq!(k.get("s"), Some(&vec![Kind::Resource]));
        assert_eq!(k.get("l"), Some(&vec![Kind::Literal]));
        // Only what both sides of a UNION agree on, nothing from an OPTIONAL.
        let k = of_query(
            "SELECT ?x ?y WHERE { { ?x <http://e/p> ?y } UNION { ?y <http://e/p> ?x } OPTIONAL { ?y ?q ?z } }",
        );
        assert!(k.is_empty(), "{k:?}");
        let k = of_query(
            "SELECT ?x WHERE { OPTIONAL { ?x ?p ?o } FILTER(isIRI(?x) || isLiteral(?x)) }",
        );
        assert!(k.is_empty(), "{k:?}");
        assert!(of_query("not SPARQL").is_empty());
    }
}

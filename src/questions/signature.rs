//! What each relation takes at its two ends, as seen in the KG: the types of its heads, the
//! types of its entity tails, and the kinds of its literal tails. There are no `rdfs:domain`
//! or `rdfs:range` triples to trust in most KGs, so the facts themselves are the schema.
//!
//! Type-aware negatives use it to replace a relation only by one whose domain and range fit
//! both ends (GraphEval, Liu et al., 2024; issue 9), and the question audit uses it to count negatives a
//! model could reject by type alone.

use std::collections::{HashMap, HashSet};

use crate::kg::index::{Fact, Id, KgIndex};
use crate::kg::Term;

/// The kind of a literal, for range checks: numbers by their span, other literals by the
/// shape of their text (`FR` → `AA`, `+33` → `+9`, `5.7 thousand years` → `9.9 a a`), each
/// within its datatype. "The atomic number of iron is 1811" fits xsd:integer but not the
/// span of atomic numbers; "The ISO alpha-3 code of France is FR" fits xsd:string but not
/// the shape of alpha-3 codes.
#[derive(Debug, Clone, PartialEq)]
pub enum LiteralKind {
    Number { datatype: String, value: f64 },
    Text { datatype: String, shape: String },
}

const NUMERIC: [&str; 5] = [
    "integer",
    "decimal",
    "double",
    "float",
    "nonNegativeInteger",
];

pub fn literal_kind(t: &Term) -> Option<LiteralKind> {
    let Term::Literal(l) = t else {
        return None;
    };
    let datatype = l.datatype().as_str();
    let local = datatype.rsplit('#').next().unwrap_or(datatype);
    if NUMERIC.contains(&local) {
        if let Ok(value) = l.value().trim().parse::<f64>() {
            return Some(LiteralKind::Number {
                datatype: datatype.to_string(),
                value,
            });
        }
    }
    let mut key = datatype.to_string();
    if let Some(lang) = l.language() {
        key.push('@');
        key.push_str(&lang.to_ascii_lowercase());
    }
    Some(LiteralKind::Text {
        datatype: key,
        shape: shape(l.value()),
    })
}

/// Capitals stay one per letter (code lengths matter); runs of digits and of lower-case
/// letters collapse (a number's or a word's length does not).
fn shape(text: &str) -> String {
    let mut out = String::new();
    for c in text.trim().chars() {
        let class = if c.is_ascii_digit() {
            '9'
        } else if c.is_uppercase() {
            'A'
        } else if c.is_alphabetic() {
            'a'
        } else if c.is_whitespace() {
            ' '
        } else {
            c
        };
        if matches!(class, '9' | 'a' | ' ') && out.ends_with(class) {
            continue;
        }
        out.push(class);
    }
    out
}

#[derive(Debug, Default)]
pub struct Signature {
    /// Types of the relation's subjects; `untyped_heads` when some subject has none.
    pub head_types: HashSet<Id>,
    pub untyped_heads: bool,
    /// Types of its entity objects; `untyped_tails` when some entity object has none.
    pub tail_types: HashSet<Id>,
    pub untyped_tails: bool,
    /// Per numeric datatype, the span of its values.
    pub spans: HashMap<String, (f64, f64)>,
    /// Per other datatype, the shapes of its values.
    pub shapes: HashSet<(String, String)>,
    /// Distinct subjects, sorted.
    pub subjects: Vec<Id>,
}

impl Signature {
    pub fn takes_head(&self, index: &KgIndex, head: Id) -> bool {
        let types = index.types_of(head);
        if types.is_empty() {
            self.untyped_heads
        } else {
            types.iter().any(|t| self.head_types.contains(t))
        }
    }

    pub fn takes_tail(&self, index: &KgIndex, tail: Id) -> bool {
        self.takes_end(&End::of(index, tail))
    }

    fn takes_end(&self, end: &End<'_>) -> bool {
        match end {
            End::Literal(LiteralKind::Number { datatype, value }) => self
                .spans
                .get(datatype)
                .is_some_and(|(lo, hi)| lo <= value && value <= hi),
            End::Literal(LiteralKind::Text { datatype, shape }) => {
                self.shapes.contains(&(datatype.clone(), shape.clone()))
            }
            End::Entity([]) => self.untyped_tails,
            End::Entity(types) => types.iter().any(|t| self.tail_types.contains(t)),
        }
    }
}

/// A tail as range checks see it, worked out once for all relations.
enum End<'a> {
    Literal(LiteralKind),
    Entity(&'a [Id]),
}

impl<'a> End<'a> {
    fn of(index: &'a KgIndex, id: Id) -> Self {
        match literal_kind(index.term(id)) {
            Some(kind) => End::Literal(kind),
            None => End::Entity(index.types_of(id)),
        }
    }
}

/// Every relation's signature, built in one pass over the facts.
pub struct Signatures {
    by_predicate: HashMap<Id, Signature>,
    /// Predicates in a fixed order, for seeded draws.
    predicates: Vec<Id>,
}

impl Signatures {
    pub fn build(index: &KgIndex) -> Self {
        let mut by_predicate: HashMap<Id, Signature> = HashMap::new();
        for f in index.facts() {
            let sig = by_predicate.entry(f[1]).or_default();
            let head_types = index.types_of(f[0]);
            sig.untyped_heads |= head_types.is_empty();
            sig.head_types.extend(head_types);
            sig.subjects.push(f[0]);
            match literal_kind(index.term(f[2])) {
                Some(LiteralKind::Number { datatype, value }) => {
                    let span = sig.spans.entry(datatype).or_insert((value, value));
                    span.0 = span.0.min(value);
                    span.1 = span.1.max(value);
                }
                Some(LiteralKind::Text { datatype, shape }) => {
                    sig.shapes.insert((datatype, shape));
                }
                None => {
                    let tail_types = index.types_of(f[2]);
                    sig.untyped_tails |= tail_types.is_empty();
                    sig.tail_types.extend(tail_types);
                }
            }
        }
        for sig in by_predicate.values_mut() {
            // Facts are sorted by subject, so equal subjects are adjacent.
            sig.subjects.dedup();
        }
        let predicates = index.relations().iter().map(|r| r.predicate).collect();
        Self {
            by_predicate,
            predicates,
        }
    }

    pub fn of(&self, p: Id) -> Option<&Signature> {
        self.by_predicate.get(&p)
    }

    /// Relations other than `fact`'s whose domain takes its head and whose range takes its tail.
    pub fn fitting_relations(&self, index: &KgIndex, fact: &Fact) -> Vec<Id> {
        let tail = End::of(index, fact[2]);
        self.predicates
            .iter()
            .copied()
            .filter(|p| *p != fact[1])
            .filter(|p| {
                let sig = &self.by_predicate[p];
                sig.takes_head(index, fact[0]) && sig.takes_end(&tail)
            })
            .collect()
    }

    /// Whether `replacement` could stand where `original` stands as a head (`as_head`) or a
    /// tail of relation `p`: it shares a type with the original, or (a tail) the relation
    /// takes it elsewhere in the KG (KGLens' C).
    pub fn same_kind(
        &self,
        index: &KgIndex,
        p: Id,
        original: Id,
        replacement: Id,
        as_head: bool,
    ) -> bool {
        let shares_type = index
            .types_of(original)
            .iter()
            .any(|t| index.types_of(replacement).contains(t));
        if shares_type {
            return true;
        }
        let Some(sig) = self.of(p) else {
            return false;
        };
        if as_head {
            index.types_of(original).is_empty() && sig.subjects.binary_search(&replacement).is_ok()
        } else {
            index
                .objects_of_predicate(p)
                .binary_search(&replacement)
                .is_ok()
                || (index.term(original).is_literal()
                    && literal_kind(index.term(original)) == literal_kind(index.term(replacement)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_keep_code_lengths_and_collapse_words_and_numbers() {
        assert_eq!(shape("FR"), "AA");
        assert_eq!(shape("FRA"), "AAA");
        assert_eq!(shape(".fr"), ".a");
        assert_eq!(shape("+1 264"), "+9 9");
        assert_eq!(shape("5.7 thousand years"), "9.9 a a");
        assert_eq!(shape("Paraguái"), "Aa");
    }

    #[test]
    fn relations_fit_by_types_spans_and_shapes() {
        let kg = crate::kg::local::LocalKg::from_turtle(
            "@prefix ex: <http://example.org/> .\n\
             @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n\
             ex:fr a ex:Country ; ex:alpha2 \"FR\" ; ex:alpha3 \"FRA\" ; ex:ioc \"FRA\" ;\n\
             \x20 ex:capital ex:paris ; ex:melting \"1\"^^xsd:integer ; ex:number \"1\"^^xsd:integer .\n\
             ex:de a ex:Country ; ex:alpha2 \"DE\" ; ex:alpha3 \"DEU\" ; ex:ioc \"GER\" ;\n\
             \x20 ex:capital ex:berlin ; ex:melting \"2000\"^^xsd:integer ; ex:number \"3\"^^xsd:integer .\n\
             ex:paris a ex:City . ex:berlin a ex:City ; ex:locatedIn ex:de .\n",
            "test",
        )
        .unwrap();
        let index = KgIndex::build(&kg, &|_| {}).unwrap();
        let sigs = Signatures::build(&index);
        let id = |l: &str| index.iri_id(&format!("http://example.org/{l}")).unwrap();
        let find = |p: &str| {
            *index
                .facts()
                .iter()
                .find(|f| f[0] == id("de") && f[1] == id(p))
                .unwrap()
        };
        let names =
            |ps: Vec<Id>| -> Vec<String> { ps.into_iter().map(|p| index.label(p)).collect() };
        assert_eq!(
            names(sigs.fitting_relations(&index, &find("alpha3"))),
            ["ioc"]
        );
        assert!(sigs.fitting_relations(&index, &find("alpha2")).is_empty());
        // 2000 is outside the span of `number` (1–3); 3 is inside the span of `melting` (1–2000).
        assert!(sigs.fitting_relations(&index, &find("melting")).is_empty());
        assert_eq!(
            names(sigs.fitting_relations(&index, &find("number"))),
            ["melting"]
        );
        // A city is no country: `locatedIn` takes cities as heads.
        assert!(sigs.fitting_relations(&index, &find("capital")).is_empty());
    }
}

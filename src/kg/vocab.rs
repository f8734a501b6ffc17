//! IRIs kgscope gives meaning to.

pub const RDF_TYPE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
pub const RDFS_LABEL: &str = "http://www.w3.org/2000/01/rdf-schema#label";
pub const RDFS_COMMENT: &str = "http://www.w3.org/2000/01/rdf-schema#comment";
pub const SKOS_PREF_LABEL: &str = "http://www.w3.org/2004/02/skos/core#prefLabel";
pub const SKOS_ALT_LABEL: &str = "http://www.w3.org/2004/02/skos/core#altLabel";
pub const SCHEMA_NAME: &str = "http://schema.org/name";
pub const SCHEMA_ALTERNATE_NAME: &str = "http://schema.org/alternateName";
pub const SCHEMA_DESCRIPTION: &str = "http://schema.org/description";
pub const WD_INSTANCE_OF: &str = "http://www.wikidata.org/prop/direct/P31";
pub const RDF_SUBJECT: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#subject";
pub const RDF_PREDICATE: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#predicate";
pub const RDF_OBJECT: &str = "http://www.w3.org/1999/02/22-rdf-syntax-ns#object";
pub const XSD_DATE: &str = "http://www.w3.org/2001/XMLSchema#date";
pub const XSD_GYEAR: &str = "http://www.w3.org/2001/XMLSchema#gYear";
pub const XSD_DATETIME: &str = "http://www.w3.org/2001/XMLSchema#dateTime";
/// A month-precision date (how a Wikidata date of month precision is asked).
pub const XSD_GYEARMONTH: &str = "http://www.w3.org/2001/XMLSchema#gYearMonth";

/// Label predicates in order of preference.
pub const LABELS: [&str; 3] = [RDFS_LABEL, SKOS_PREF_LABEL, SCHEMA_NAME];
pub const ALIASES: [&str; 2] = [SKOS_ALT_LABEL, SCHEMA_ALTERNATE_NAME];
pub const TYPES: [&str; 2] = [RDF_TYPE, WD_INSTANCE_OF];
pub const DATES: [&str; 4] = [XSD_DATE, XSD_GYEAR, XSD_DATETIME, XSD_GYEARMONTH];
/// Description predicates in order of preference.
pub const DESCRIPTIONS: [&str; 2] = [SCHEMA_DESCRIPTION, RDFS_COMMENT];
/// The parts of an RDF reification (`[] rdf:subject s; rdf:predicate p; rdf:object o; …`): they
/// say something about a fact (a qualifier such as its date), they are not facts themselves.
pub const REIFICATION: [&str; 3] = [RDF_SUBJECT, RDF_PREDICATE, RDF_OBJECT];

/// Predicates that describe an entity rather than state a fact about the world; they never
/// become questions.
pub fn is_meta(predicate: &str) -> bool {
    LABELS.contains(&predicate)
        || ALIASES.contains(&predicate)
        || TYPES.contains(&predicate)
        || REIFICATION.contains(&predicate)
        || DESCRIPTIONS.contains(&predicate)
}

/// The predicates that describe entities rather than state facts about them: labels,
/// aliases, types, reification, comments.
pub fn meta_predicates() -> Vec<&'static str> {
    LABELS
        .iter()
        .chain(ALIASES.iter())
        .chain(TYPES.iter())
        .chain(REIFICATION.iter())
        .chain(DESCRIPTIONS.iter())
        .copied()
        .collect()
}

/// `VALUES`/`IN` list of IRIs for a SPARQL query.
pub fn iri_list(iris: &[&str]) -> String {
    iris.iter()
        .map(|i| format!("<{i}>"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Display name for an IRI without a label: the last path or fragment segment, `_` as spaces.
pub fn local_name(iri: &str) -> String {
    let trimmed = iri.trim_end_matches(['/', '#']);
    let tail = trimmed.rsplit(['/', '#', ':']).next().unwrap_or(trimmed);
    let name = tail.replace('_', " ");
    if name.is_empty() {
        iri.to_string()
    } else {
        name
    }
}

/// Year of an `xsd:date`, `xsd:gYear` or `xsd:dateTime` lexical value (negative years allowed).
pub fn year_of(lexical: &str) -> Option<i32> {
    let (sign, rest) = match lexical.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, lexical),
    };
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() < 4 {
        return None;
    }
    digits.parse::<i32>().ok().map(|y| sign * y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_names() {
        assert_eq!(
            local_name("http://dbpedia.org/resource/New_York_City"),
            "New York City"
        );
        assert_eq!(
            local_name("http://example.org/onto#birthPlace"),
            "birthPlace"
        );
        assert_eq!(local_name("http://example.org/x/"), "x");
    }

    #[test]
    fn years() {
        assert_eq!(year_of("1969-07-20"), Some(1969));
        assert_eq!(year_of("1898"), Some(1898));
        assert_eq!(year_of("2001-01-01T10:00:00Z"), Some(2001));
        assert_eq!(year_of("-0044-03-15"), Some(-44));
        assert_eq!(year_of("12"), None);
    }
}

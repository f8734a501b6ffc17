//! Wrong answers that a reader can reject without the knowledge a question asks for. A
//! negative, a "no" question's object, a distractor or a false premise should be false for
//! the reason the question is about; these are false for another one:
//!
//! - **Two-valued relations between named things**: a relation with exactly two objects, both
//!   with proper names (a player's league: the NBA or the WNBA). Every wrong object is "the
//!   other one", and what decides it is whatever splits the subjects in two (a player's sex),
//!   not the fact. Two values of a property ("landlocked", "not landlocked"), named in lower
//!   case, are the knowledge itself.
//! - **A group decides it**: the subject is in one group of such a two-valued relation, and
//!   the wrong object is of the other (the 1985 NBA championship is the NBA's; the Chicago Sky
//!   are the WNBA's), or a year before the group's first (a WNBA team founded in 1966).
//! - **Another era**: the wrong object began after the subject's year (a franchise whose first
//!   season or founding is later than the championship it is offered as the winner of), or a
//!   wrong date lies more than [`ERA_SPAN`] years from the true one, or the wrong object's own
//!   dated facts of the relation all come later than that (the USSR for a discovery of 1794).
//! - **Too close to tell**: a wrong number that is the true one after rounding or within the
//!   spread of its sources ([`super::options::too_close`]: Belgium's 2007 population offered
//!   for Portugal's, half a percent off), or so far from it that its order of magnitude rules
//!   it out ([`implausible_number`]: an area of 6 km² for Bolivia).

use super::names::namesakes;
use crate::kg::index::{Fact, Id, KgIndex};

/// Why `wrong` would be rejected for a reason other than the asked knowledge, as the wrong
/// object of `fact` ([s, p, o]); `None` when it is a fair wrong object.
pub fn unfair_object(index: &KgIndex, fact: &Fact, wrong: Id) -> Option<&'static str> {
    let [s, p, _] = *fact;
    let subject_namesakes: Vec<Id> = namesakes(index, s, p).collect();
    // "Is Charlotte in Tennessee?": true of Charlotte, Tennessee, however little known.
    if subject_namesakes
        .iter()
        .any(|&x| index.contains(&[x, p, wrong]))
    {
        return Some("another entity that goes by the subject's name holds the wrong object");
    }
    // A name that places in several of the relation's objects bear (Houston in Mississippi,
    // Missouri, Minnesota, ...) may be borne in the wrong one too, by a place too small for the
    // KG: Houston, Alabama. No wrong object is sure.
    if common_name(index, s, p, &subject_namesakes) {
        return Some("the subject's name is common to several of the relation's objects");
    }
    // A wrong object another entity goes by is read as either: it must be fair as both ("the
    // Portland Fire" offered as a 2006 champion is the team of 2026 as much as that of 2000).
    for x in namesakes(index, wrong, p) {
        if index.contains(&[s, p, x]) {
            return Some("another entity that goes by the wrong object's name is the true one");
        }
        if let Some(why) = unfair_object_itself(index, fact, x) {
            return Some(why);
        }
    }
    unfair_object_itself(index, fact, wrong)
}

/// [`unfair_object`] for `wrong` itself, not its namesakes.
fn unfair_object_itself(index: &KgIndex, fact: &Fact, wrong: Id) -> Option<&'static str> {
    let [s, p, o] = *fact;
    if two_valued(index, p) {
        return Some("the relation has two values only: the other one is decided by what splits its subjects");
    }
    if decided_by_another_relation(index, s, p, o, wrong) {
        return Some(
            "another relation the subject shares with the true object tells the wrong one apart",
        );
    }
    if names_its_own_subject(index, p, wrong) {
        return Some("the wrong object's name says whose it is");
    }
    if later_than(index, wrong, s) {
        return Some("the wrong object began after the subject's year");
    }
    if let (Some(truth), Some(other)) = (date_value(index, o), date_value(index, wrong)) {
        if (truth - other).abs() > ERA_SPAN {
            return Some("the wrong year is of another era than the true one");
        }
    }
    if later_era(index, fact, wrong) {
        return Some("the wrong object's own facts of the relation all date from a later era");
    }
    // Only values can be numbers: entities are not labelled and parsed on this hot path.
    let literal = |x: Id| matches!(index.term(x), crate::kg::Term::Literal(_));
    if literal(o) && literal(wrong) {
        let (truth, other) = (index.label(o), index.label(wrong));
        if super::options::too_close(&truth, &other) {
            return Some("the wrong number is the true one after rounding, or within its spread");
        }
        if implausible_number(&truth, &other) {
            return Some("the wrong number is an order of magnitude off the true one");
        }
        if across_room_temperature(index, p, &truth, &other) {
            return Some(
                "the wrong temperature puts the subject in another state at room temperature",
            );
        }
    }
    None
}

/// Whether `wrong`'s name holds the whole name of one of the subjects it is the object of under
/// `p`, and more: "Andorra la Vella" offered as the capital of Portugal says by its name that
/// it is Andorra's. A name that is only part of its subject's ("Portland" for the Portland
/// Trail Blazers, "Minnesota") says nothing: readers take it as a fair wrong answer.
fn names_its_own_subject(index: &KgIndex, p: Id, wrong: Id) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let name = words(&index.label(wrong));
    index
        .facts_to(wrong)
        .iter()
        .map(|&i| index.facts()[i as usize])
        .filter(|f| f[1] == p)
        .any(|f| {
            let subject = words(&index.label(f[0]));
            !subject.is_empty()
                && subject.len() < name.len()
                && name.windows(subject.len()).any(|w| w == subject.as_slice())
                && !crate::questions::grammar::same_kind(index, f[0], wrong)
        })
}

/// How many years a wrong date may lie from the true one: further off (2025 offered as the
/// founding year of a franchise of 2002, 1200 for an element isolated in 1898) it is
/// ruled out by the era alone, by anyone who knows roughly when the subject lived.
pub const ERA_SPAN: i32 = 15;

/// The year of a value typed as a date or a year (`xsd:date`, `xsd:gYear`, ...); plain
/// numbers are not taken for years here (a melting point of 1811 K is no year).
fn date_value(index: &KgIndex, t: Id) -> Option<i32> {
    crate::kg::index::date_year(index.term(t))
}

/// Whether replacing `fact`'s subject by `wrong` makes an unfair negative: the relation has two
/// values only (the other subject is of the other group), or the kept object is an unfair wrong
/// object for `wrong` ([`unfair_object`] against its own objects: "The Connecticut Sun were
/// founded in 1970" is false by the era of the WNBA, the Sun's own year being 1999).
pub fn unfair_subject(index: &KgIndex, fact: &Fact, wrong: Id) -> Option<&'static str> {
    let [_, p, object] = *fact;
    if two_valued(index, p) {
        return Some("the relation has two values only: the other subject is of the other group");
    }
    if namesake_holds(index, wrong, p, object) {
        return Some("another entity that goes by the wrong subject's name holds the fact");
    }
    // A lesser namesake (Portland, Maine) is read as the better-known one (Portland, Oregon):
    // the claim would be about another entity than the KG's.
    if super::names::namesake_differs(index, wrong, p) {
        return Some("the wrong subject's name is another entity's as much or more");
    }
    index
        .objects_of(wrong, p)
        .into_iter()
        .filter(|&own| own != object)
        .find_map(|own| unfair_object(index, &[wrong, p, own], object))
}

/// How many namesakes with other objects of `p` make a name common ([`common_name`]).
const COMMON_NAME: usize = 2;

/// Whether `s`'s name is borne by [`COMMON_NAME`] or more of its `namesakes` (under `p`) with
/// other objects of `p` than `s`'s own: a place name repeated across states.
fn common_name(index: &KgIndex, s: Id, p: Id, namesakes: &[Id]) -> bool {
    let own = index.objects_of(s, p);
    let mut others: Vec<Id> = namesakes
        .iter()
        .flat_map(|&x| index.objects_of(x, p))
        .filter(|o| !own.contains(o))
        .collect();
    others.sort_unstable();
    others.dedup();
    others.len() >= COMMON_NAME
}

/// Whether an entity named as `s` is ([`super::names::namesakes`]) holds `[_, p, o]`:
/// "Charlotte is in Tennessee", put for Memphis, is true of Charlotte, Tennessee.
fn namesake_holds(index: &KgIndex, s: Id, p: Id, o: Id) -> bool {
    namesakes(index, s, p).any(|x| index.contains(&[x, p, o]))
}

/// Whether relations `p` and `q` give the same object to most subjects that have both (a
/// franchise's founding year and its first season in its league; a country's capital and its
/// seat of government): one put for the other makes a claim that is false only by the KG's
/// fine distinction, or not at all for the many subjects where the two agree.
pub fn near_synonyms(index: &KgIndex, p: Id, q: Id) -> bool {
    let (mut both, mut same) = (0usize, 0usize);
    let mut last = None;
    for &i in index.facts_of_predicate(p) {
        let s = index.facts()[i][0];
        if last == Some(s) {
            continue;
        }
        last = Some(s);
        let theirs = index.objects_of(s, q);
        if theirs.is_empty() {
            continue;
        }
        both += 1;
        if index.objects_of(s, p).iter().any(|o| theirs.contains(o)) {
            same += 1;
        }
    }
    both > 0 && 2 * same > both
}

/// Facts a two-valued relation needs to be a split of its subjects.
const MIN_SPLIT: usize = 6;

/// Whether relation `p` has exactly two objects, both entities with proper names (a label
/// that starts with a capital: "National Basketball Association"). Labels in lower case
/// ("landlocked", "an active player") are a property's values, which the question is about.
pub fn two_valued(index: &KgIndex, p: Id) -> bool {
    let objects = index.objects_of_predicate(p);
    objects.len() == 2
        // Enough subjects to make it a split of them, not two facts that happen to differ.
        && index.facts_of_predicate(p).len() >= MIN_SPLIT
        && objects.iter().all(|&v| {
            matches!(index.term(v), crate::kg::Term::NamedNode(_))
                && index.label(v).starts_with(char::is_uppercase)
        })
        // A partition: nothing has both (a country can be in the United Nations and the
        // European Union; a team plays in one league).
        && !index
            .facts_of_predicate(p)
            .iter()
            .any(|&i| index.objects_of(index.facts()[i][0], p).len() > 1)
}

/// Whether a two-valued grouping relation `q` ([`two_valued`]; a league) tells `wrong` apart
/// from the subject: the subject is in group `v` and `wrong` in the other (a team of the other
/// league offered as a championship's winner); or `wrong` is a year before any of group `v`'s
/// values for `p` (a founding year before the subject's league had any team).
fn decided_by_another_relation(index: &KgIndex, s: Id, p: Id, _o: Id, wrong: Id) -> bool {
    index.facts_from(s).iter().any(|&[_, q, v]| {
        if q == p || !two_valued(index, q) {
            return false;
        }
        let own = index.objects_of(wrong, q);
        if !own.is_empty() {
            return !own.contains(&v);
        }
        let Some(year) = year_value(index, wrong) else {
            return false;
        };
        let first = index
            .facts_to(v)
            .iter()
            .map(|&i| index.facts()[i as usize])
            .filter(|f| f[1] == q)
            .flat_map(|f| index.objects_of(f[0], p))
            .filter_map(|x| year_value(index, x))
            .min();
        first.is_some_and(|first| year < first)
    })
}

/// A date's year, or a plain number that reads as a year.
fn year_value(index: &KgIndex, t: Id) -> Option<i32> {
    crate::kg::index::date_year(index.term(t)).or_else(|| year_literal(index, t))
}

/// How far apart, as a ratio, a count and a wrong count for it may be: beyond a factor of ten
/// (an area of 6 km² for Bolivia) the option is ruled out by its size alone.
pub const PLAUSIBLE_RATIO: f64 = 10.0;

/// [`PLAUSIBLE_RATIO`] for a measurement (a number written with decimals): physical quantities
/// spread less, and a reader knows roughly where one lies (a melting point of 53 K for
/// polonium's 527 K is below room temperature, for a metal).
pub const PLAUSIBLE_MEASURED_RATIO: f64 = 5.0;

/// Whether `option` is a number too far from the number `answer` to be a real choice
/// ([`PLAUSIBLE_RATIO`], [`PLAUSIBLE_MEASURED_RATIO`]), bare or with the same unit ("0.44
/// square kilometres" for Switzerland's 41284); anything that is not a pair of positive
/// numbers passes.
pub fn implausible_number(answer: &str, option: &str) -> bool {
    let measured = answer.contains('.') || option.contains('.');
    let limit = if measured {
        PLAUSIBLE_MEASURED_RATIO
    } else {
        PLAUSIBLE_RATIO
    };
    crate::verify::numbers::ratio(answer, option).is_some_and(|r| r > limit)
}

/// Room temperature in the scale a relation's name says its values are in: kelvin, degrees
/// Celsius or Fahrenheit (25 °C).
const ROOM_TEMPERATURE: [(&str, f64); 3] =
    [("kelvin", 298.15), ("celsius", 25.0), ("fahrenheit", 77.0)];

/// Whether `truth` and `other`, values of a melting, boiling or sublimation point (by the
/// relation's name, in a scale it names), lie on two sides of room temperature: a reader knows
/// whether the subject is a solid, a liquid or a gas in a room (rubidium, a metal, does not
/// boil at 239 K), so that side, not the value asked, rules the wrong one out.
fn across_room_temperature(index: &KgIndex, p: Id, truth: &str, other: &str) -> bool {
    // The numbers first: most wrong values are no numbers, and the name costs a string.
    let (Ok(a), Ok(b)) = (truth.trim().parse::<f64>(), other.trim().parse::<f64>()) else {
        return false;
    };
    let name = super::names::relation_words(index, p);
    if !["melting", "boiling", "sublimation"]
        .iter()
        .any(|w| name.contains(w))
    {
        return false;
    }
    let Some(&(_, room)) = ROOM_TEMPERATURE
        .iter()
        .find(|(unit, _)| name.contains(unit))
    else {
        return false;
    };
    (a > room) != (b > room)
}

/// Words in a relation's name that mark when its subject began.
const START_WORDS: [&str; 9] = [
    "first",
    "found",
    "inception",
    "establish",
    "start",
    "formed",
    "creat",
    "birth",
    "born",
];

/// The year entity `e` began, from a fact whose relation's name says so (founded, inception,
/// first season, date of birth), the latest when several do: a franchise founded in another
/// league (the Spurs, 1967, in the ABA) began in its current one later (1976), and a title of
/// that league from before then is none it could have won.
pub fn start_year(index: &KgIndex, e: Id) -> Option<i32> {
    index
        .facts_from(e)
        .iter()
        .filter(|f| {
            let name = super::names::relation_words(index, f[1]);
            START_WORDS.iter().any(|w| name.contains(w))
        })
        .filter_map(|f| year_value(index, f[2]))
        .max()
}

/// A plain number literal that reads as a year (1000–2999).
fn year_literal(index: &KgIndex, t: Id) -> Option<i32> {
    let text = crate::kg::term_str(index.term(t));
    let y: i32 = text.trim().parse().ok()?;
    (1000..3000).contains(&y).then_some(y)
}

/// The year the subject is about: a date or year among its facts whose relation does not mark
/// a start (a championship's year), else a year written in its name ("1960 NBA championship").
fn year_of_subject(index: &KgIndex, s: Id) -> Option<i32> {
    index.year_of(s).or_else(|| {
        index
            .label(s)
            .split(|c: char| !c.is_ascii_digit())
            .filter(|w| w.len() == 4)
            .filter_map(|w| w.parse::<i32>().ok())
            .find(|y| (1000..3000).contains(y))
    })
}

/// Whether the fact is dated (a qualifier year: an element's discovery in 1794) and every
/// dated fact of its relation that has `wrong` as object is more than [`ERA_SPAN`] years later:
/// "discovered in the USSR" (whose discoveries date from 1955 on) for yttrium is ruled out by
/// the era, as "discovered by Glenn Seaborg" would be.
fn later_era(index: &KgIndex, fact: &Fact, wrong: Id) -> bool {
    let [_, p, _] = *fact;
    let Some(year) = index.qualifier_year(fact) else {
        return false;
    };
    index
        .facts_to(wrong)
        .iter()
        .map(|&i| index.facts()[i as usize])
        .filter(|f| f[1] == p)
        .filter_map(|f| index.qualifier_year(&f))
        .min()
        .is_some_and(|first| first - year > ERA_SPAN)
}

/// Whether `wrong` began after the year `s` is about.
fn later_than(index: &KgIndex, wrong: Id, s: Id) -> bool {
    match (start_year(index, wrong), year_of_subject(index, s)) {
        (Some(began), Some(year)) => began > year,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> KgIndex {
        let kg = crate::kg::local::LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
            ex:nba rdfs:label "NBA" . ex:wnba rdfs:label "WNBA" .
            ex:yes rdfs:label "landlocked" . ex:no rdfs:label "not landlocked" .
            ex:p1 rdfs:label "Player One" ; ex:league ex:nba .
            ex:p2 rdfs:label "Player Two" ; ex:league ex:wnba .
            ex:p3 ex:league ex:nba . ex:p4 ex:league ex:nba . ex:p5 ex:league ex:wnba . ex:p6 ex:league ex:wnba .
            ex:lakers rdfs:label "Lakers" ; ex:teamLeague ex:nba ; ex:firstSeason "1948"^^xsd:gYear .
            ex:celtics rdfs:label "Celtics" ; ex:teamLeague ex:nba ; ex:firstSeason "1946"^^xsd:gYear ; ex:founded "1946"^^xsd:gYear .
            ex:heat rdfs:label "Heat" ; ex:teamLeague ex:nba ; ex:firstSeason "1988"^^xsd:gYear ; ex:founded "1988"^^xsd:gYear .
            ex:sky rdfs:label "Sky" ; ex:teamLeague ex:wnba ; ex:firstSeason "2006"^^xsd:gYear .
            ex:aces rdfs:label "Aces" ; ex:teamLeague ex:wnba ; ex:firstSeason "2008"^^xsd:gYear .
            ex:c1985 rdfs:label "1985 NBA championship" ; ex:teamLeague ex:nba ; ex:champion ex:lakers .
            ex:c2010 rdfs:label "2010 NBA championship" ; ex:teamLeague ex:nba ; ex:champion ex:lakers .
            ex:spurs rdfs:label "Spurs" ; ex:teamLeague ex:nba ; ex:founded "1967"^^xsd:gYear ; ex:firstSeason "1976"^^xsd:gYear .
            ex:c1971 rdfs:label "1971 NBA championship" ; ex:teamLeague ex:nba ; ex:champion ex:lakers .
            ex:at ex:landlocked ex:yes . ex:fr ex:landlocked ex:no .
            ex:ad rdfs:label "Andorra" ; ex:capital ex:alv . ex:alv rdfs:label "Andorra la Vella" .
            ex:pt rdfs:label "Portugal" ; ex:capital ex:lis . ex:lis rdfs:label "Lisbon" .
            ex:ptb rdfs:label "Portland Trail Blazers" ; ex:city ex:por . ex:por rdfs:label "Portland" .
            ex:storm rdfs:label "Seattle Storm" ; ex:city ex:sea . ex:sea rdfs:label "Seattle" ."#,
            "test",
        )
        .unwrap();
        KgIndex::build(&kg, &|_| {}).unwrap()
    }

    #[test]
    fn numbers_an_order_of_magnitude_off_are_implausible() {
        assert!(implausible_number("2973.15", "77.355"));
        assert!(implausible_number("1900.15", "13.99"));
        assert!(!implausible_number("1900.15", "577.15"));
        assert!(!implausible_number("1946", "2025"));
        assert!(!implausible_number("Paris", "Bern"));
        // Polonium melts at 527.15 K: 53.48 K is below room temperature, for a metal.
        assert!(implausible_number("527.15", "53.48"));
        assert!(implausible_number(
            "41284 square kilometres",
            "0.44 square kilometres"
        ));
        assert!(!implausible_number(
            "41284 square kilometres",
            "83871 square kilometres"
        ));
    }

    #[test]
    fn wrong_objects_decided_by_something_else_are_unfair() {
        let ix = index();
        let id = |l: &str| ix.iri_id(&format!("http://ex.org/{l}")).unwrap();
        let fact = |s, p, o| [id(s), id(p), id(o)];
        // The other league of a player: two values, both named elsewhere.
        assert!(unfair_object(&ix, &fact("p1", "league", "nba"), id("wnba")).is_some());
        assert!(unfair_subject(&ix, &fact("p1", "league", "nba"), id("p2")).is_some());
        // A status vocabulary of two values is the knowledge itself.
        assert!(unfair_object(&ix, &fact("at", "landlocked", "yes"), id("no")).is_none());
        // The Sky are of the other league than the championship and its winner.
        let won = fact("c1985", "champion", "lakers");
        assert!(unfair_object(&ix, &won, id("sky")).is_some());
        // The Heat began in 1988, after the 1985 championship; the Celtics are fair.
        assert!(unfair_object(&ix, &won, id("heat")).is_some());
        assert!(unfair_object(&ix, &won, id("celtics")).is_none());
        assert!(unfair_object(&ix, &fact("c2010", "champion", "lakers"), id("heat")).is_none());
        // Founded in 1967 in another league, first in this one in 1976: no 1971 champion.
        assert!(unfair_object(&ix, &fact("c1971", "champion", "lakers"), id("spurs")).is_some());
        assert!(unfair_object(&ix, &fact("c2010", "champion", "lakers"), id("spurs")).is_none());
        // A year before the league's first team.
        let lit = |y: &str| {
            ix.id(&crate::kg::Term::Literal(
                oxigraph::model::Literal::new_typed_literal(
                    y,
                    oxigraph::model::NamedNode::new_unchecked(
                        "http://www.w3.org/2001/XMLSchema#gYear",
                    ),
                ),
            ))
            .unwrap()
        };
        let first = [id("sky"), id("firstSeason"), lit("2006")];
        assert!(unfair_object(&ix, &first, lit("1946")).is_some());
        assert!(unfair_object(&ix, &first, lit("2008")).is_none());
        // A wrong object whose name says whose it is.
        let lisbon = fact("pt", "capital", "lis");
        assert!(unfair_object(&ix, &lisbon, id("alv")).is_some());
        assert!(unfair_object(&ix, &fact("ad", "capital", "alv"), id("lis")).is_none());
        // Part of its subject's name only: Portland is a fair wrong city for the Storm.
        let storm = fact("storm", "city", "sea");
        assert!(unfair_object(&ix, &storm, id("por")).is_none());
        // A date of another era: 2006 for a franchise of 1946 (the Lakers' 1948 is fair).
        let celtics = [id("celtics"), id("firstSeason"), lit("1946")];
        assert!(unfair_object(&ix, &celtics, lit("2006")).is_some());
        assert!(unfair_object(&ix, &celtics, lit("1948")).is_none());
        // Founding and first season: the same year for most teams.
        assert!(near_synonyms(&ix, id("founded"), id("firstSeason")));
        assert!(!near_synonyms(&ix, id("teamLeague"), id("firstSeason")));
        // Two facts that differ are no split of subjects.
        assert!(!two_valued(&ix, id("landlocked")));
        // The Celtics' 1946 kept for another subject: unfair for the Sky (a WNBA team, whose
        // league began later), fair for the Lakers.
        let celtics_first = [id("celtics"), id("firstSeason"), lit("1946")];
        assert!(unfair_subject(&ix, &celtics_first, id("sky")).is_some());
        assert!(unfair_subject(&ix, &celtics_first, id("lakers")).is_none());
    }

    #[test]
    fn a_wrong_melting_or_boiling_point_across_room_temperature_is_unfair() {
        let kg = crate::kg::local::LocalKg::from_turtle(
            r#"@prefix ex: <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
            ex:boilingPointK rdfs:label "boiling point in kelvin" . ex:density rdfs:label "density" .
            ex:rb rdfs:label "Rubidium" ; ex:boilingPointK "961.15"^^xsd:decimal ; ex:density "1.532"^^xsd:decimal .
            ex:cl rdfs:label "Chlorine" ; ex:boilingPointK "239.11"^^xsd:decimal ; ex:density "0.2"^^xsd:decimal .
            ex:na rdfs:label "Sodium" ; ex:boilingPointK "1156.09"^^xsd:decimal ."#,
            "test",
        )
        .unwrap();
        let ix = KgIndex::build(&kg, &|_| {}).unwrap();
        let e = |l: &str| ix.iri_id(&format!("http://ex.org/{l}")).unwrap();
        let bp = e("boilingPointK");
        let value = |s: &str| ix.objects_of(e(s), bp)[0];
        let rb = [e("rb"), bp, value("rb")];
        // Rubidium, a metal, boiling below room temperature: ruled out by its state.
        assert!(across_room_temperature(&ix, bp, "961.15", "239.11"));
        assert!(unfair_object(&ix, &rb, value("cl")).is_some());
        assert!(unfair_object(&ix, &rb, value("na")).is_none());
        // Not a phase-transition temperature: no room to be on either side of.
        assert!(!across_room_temperature(&ix, e("density"), "1.532", "0.2"));
    }

    #[test]
    fn a_wrong_name_true_of_a_namesake_is_unfair() {
        let ix = crate::questions::names::tests::namesakes_kg();
        let e = |local: &str| ix.iri_id(&format!("http://ex.org/{local}")).unwrap();
        // "Charlotte is in Tennessee", put for Memphis: true of Charlotte, Tennessee.
        let memphis_tn = [e("memphis"), e("in"), e("tn")];
        assert!(unfair_subject(&ix, &memphis_tn, e("charlotte")).is_some());
        // "Is Charlotte in Tennessee?", the wrong object of Charlotte, North Carolina; and with
        // namesakes in two other states, any state might hold another Charlotte.
        let charlotte_nc = [e("charlotte"), e("in"), e("nc")];
        assert!(unfair_object(&ix, &charlotte_nc, e("tn")).is_some());
        assert!(unfair_object(&ix, &memphis_tn, e("nc")).is_none());
        let common = |x: &str| {
            let found: Vec<Id> = namesakes(&ix, e(x), e("in")).collect();
            common_name(&ix, e(x), e("in"), &found)
        };
        assert!(common("charlotte"));
        assert!(!common("memphis"));
        // Read as either team, a wrong object is judged as both: the Portland Fire offered as
        // the Grizzlies' home is fine; offered where one of them is right, it is not.
        let grizzlies_home = [e("grizzlies"), e("home"), e("memphis")];
        assert!(unfair_object(&ix, &grizzlies_home, e("charlotte")).is_none());
        let fire_home = [e("oldFire"), e("home"), e("portland")];
        assert!(unfair_subject(&ix, &fire_home, e("grizzlies")).is_none());
    }
}

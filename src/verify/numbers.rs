//! Numbers in answers: a value with the precision it is written to, a scale word ("1.2
//! million") and a unit ("1749 °C"), and when two numbers say the same thing.
//!
//! A short answer names a quantity the way a person writes it, not the way the KG stores it:
//! "2022 K" and "1749 °C" are both the boiling point the KG gives as 2022.15 kelvin. Two numbers
//! agree when the intervals their written precision stands for overlap (2022 stands for
//! 2021.5–2022.5, 2022.15 for 2022.145–2022.155); a unit is converted to the KG's first. The
//! same test keeps a multiple-choice distractor from being right after rounding.

/// A number as written: its value and the step of its last written digit (1 for "2022", 0.01
/// for "2022.15"; a scale word scales both: "1.2 million" is 1 200 000 to the nearest 100 000).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    pub value: f64,
    pub step: f64,
}

impl Figure {
    /// Whether the two stand for overlapping intervals: each is right to half its step.
    pub fn agrees(&self, other: &Figure) -> bool {
        let slack = (self.step + other.step) / 2.0;
        // Strictly: 2022 and 2023 only touch at 2022.5.
        (self.value - other.value).abs() < slack * (1.0 - 1e-9)
    }
}

/// Whole numbers from here on count or measure something that changes or is surveyed
/// (people, square kilometres), not an identifier or a year: sources and dates differ on
/// them by more than their last digit.
pub const LARGE_COUNT: f64 = 10_000.0;

/// How far, relative to its size, a figure for a [`LARGE_COUNT`] may lie from the KG's and
/// still be the same figure from another source or date (Belgium's 2007 population is
/// 10,584,534 in Statbel's count of 1 January and 10,392,226 in the CIA's estimate of July).
pub const SURVEY_SPREAD: f64 = 0.02;

/// How far, relative to its size, a measured temperature or density may lie from the KG's and
/// still be the same measurement from another table: zinc's density is 7.134 g/cm³ in the CRC
/// Handbook and 7.14 in most others, indium's boiling point 2345 K or 2353 K. Far below the
/// 2% that multiple choice keeps a wrong option away from the right one.
pub const MEASURED_SPREAD: f64 = 0.005;

/// The spread within which a figure states `gold` (in `unit`, if any) though it does not agree
/// with it to the last digit: [`SURVEY_SPREAD`] for a surveyed count, [`MEASURED_SPREAD`] for a
/// temperature or a density; `None` for the rest (years, atomic weights, codes: exact).
pub fn spread(gold: &str, unit: Option<&str>) -> Option<f64> {
    spread_of(&parse(gold.trim())?, home_unit(unit))
}

/// [`spread`] of a parsed gold in its unit.
fn spread_of(g: &Figure, home: Option<&Unit>) -> Option<f64> {
    if g.surveyed() {
        return Some(SURVEY_SPREAD);
    }
    matches!(
        home.map(|u| u.dimension),
        Some(Dimension::Temperature | Dimension::Density)
    )
    .then_some(MEASURED_SPREAD)
}

/// The unit a gold's unit name (a template's "kelvin") names, if any.
fn home_unit(unit: Option<&str>) -> Option<&'static Unit> {
    unit.and_then(|u| unit_at(&u.to_lowercase()).map(|(u, _)| u))
}

impl Figure {
    /// Whether this is a [`LARGE_COUNT`] written as a whole number.
    pub fn surveyed(&self) -> bool {
        self.step >= 1.0 && self.value.abs() >= LARGE_COUNT
    }
}

/// What a unit measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    Temperature,
    Area,
    Share,
    Density,
}

/// A unit: how its values convert to the dimension's base unit (`base = value * scale +
/// offset`), and the names it is written with (lower case, longest first where they overlap).
struct Unit {
    dimension: Dimension,
    scale: f64,
    offset: f64,
    names: &'static [&'static str],
}

/// The units a KG's templates name and the ones answers use for the same quantities: a closed
/// list of the SI and customary units for the quantities the sample KGs measure.
const UNITS: &[Unit] = &[
    Unit {
        dimension: Dimension::Temperature,
        scale: 1.0,
        offset: 0.0,
        names: &["kelvins", "kelvin", "°k", "k"],
    },
    Unit {
        dimension: Dimension::Temperature,
        scale: 1.0,
        offset: 273.15,
        names: &[
            "degrees celsius",
            "degree celsius",
            "degrees c",
            "celsius",
            "° c",
            "°c",
            "ºc",
            "℃",
            "c",
        ],
    },
    Unit {
        dimension: Dimension::Temperature,
        scale: 5.0 / 9.0,
        offset: 273.15 - 32.0 * 5.0 / 9.0,
        names: &[
            "degrees fahrenheit",
            "degree fahrenheit",
            "degrees f",
            "fahrenheit",
            "° f",
            "°f",
            "ºf",
            "℉",
            "f",
        ],
    },
    Unit {
        dimension: Dimension::Area,
        scale: 1.0,
        offset: 0.0,
        names: &[
            "square kilometres",
            "square kilometers",
            "square kilometre",
            "square kilometer",
            "sq km",
            "km²",
            "km2",
            "km^2",
        ],
    },
    Unit {
        dimension: Dimension::Area,
        scale: 2.589_988_110_336,
        offset: 0.0,
        names: &["square miles", "square mile", "sq mi", "mi²", "mi2"],
    },
    Unit {
        dimension: Dimension::Area,
        scale: 0.01,
        offset: 0.0,
        names: &["hectares", "hectare", "ha"],
    },
    Unit {
        dimension: Dimension::Share,
        scale: 1.0,
        offset: 0.0,
        names: &["percent", "per cent", "%"],
    },
    Unit {
        dimension: Dimension::Density,
        scale: 1.0,
        offset: 0.0,
        names: &[
            "grams per cubic centimetre",
            "grams per cubic centimeter",
            "g/cm³",
            "g/cm3",
            "g/cc",
            "g/ml",
        ],
    },
    Unit {
        dimension: Dimension::Density,
        scale: 0.001,
        offset: 0.0,
        names: &[
            "kilograms per cubic metre",
            "kilograms per cubic meter",
            "kg/m³",
            "kg/m3",
        ],
    },
];

/// Scale words after a number.
const SCALES: [(&str, f64); 4] = [
    ("thousand", 1e3),
    ("million", 1e6),
    ("billion", 1e9),
    ("trillion", 1e12),
];

/// The unit `text` starts with (a whole name: "k" in "k." but not in "kg"), and the length of
/// the name.
fn unit_at(text: &str) -> Option<(&'static Unit, usize)> {
    let lower = text.to_lowercase();
    let mut best: Option<(&'static Unit, usize)> = None;
    for u in UNITS {
        for name in u.names {
            let Some(after) = lower.strip_prefix(name) else {
                continue;
            };
            let ends_word = after.chars().next().is_none_or(|c| !c.is_alphanumeric());
            if ends_word && best.is_none_or(|(_, n)| name.len() > n) {
                best = Some((u, name.len()));
            }
        }
    }
    best
}

/// The unit a template names (`unit = "kelvin"`), if it is one of [`UNITS`].
pub fn unit_named(name: &str) -> Option<Dimension> {
    let lower = name.trim().to_lowercase();
    UNITS
        .iter()
        .find(|u| u.names.contains(&lower.as_str()))
        .map(|u| u.dimension)
}

/// `text` as one plain number ("2022.15", "-38.83", "+1", "23,200"), if it is one.
pub fn parse(text: &str) -> Option<Figure> {
    let all = numbers_in(text);
    match all.as_slice() {
        [(w, start, end, _)] if *start == 0 && *end == text.trim_end().len() => Some(*w),
        _ => None,
    }
}

/// Every number in `text`, with where it starts and ends (its scale word included) and the
/// unit written after it.
fn numbers_in(text: &str) -> Vec<(Figure, usize, usize, Option<&'static Unit>)> {
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let (start, c) = bytes[i];
        let signed = matches!(c, '-' | '+' | '−')
            && bytes.get(i + 1).is_some_and(|(_, d)| d.is_ascii_digit())
            && (i == 0 || !bytes[i - 1].1.is_alphanumeric());
        let starts = c.is_ascii_digit() && (i == 0 || !bytes[i - 1].1.is_alphanumeric());
        if !(signed || starts) {
            i += 1;
            continue;
        }
        let negative = matches!(c, '-' | '−');
        let mut j = if signed { i + 1 } else { i };
        let mut digits = String::new();
        let mut decimals: Option<usize> = None;
        while j < bytes.len() {
            let d = bytes[j].1;
            let next_digit = |k: usize| bytes.get(k).is_some_and(|(_, c)| c.is_ascii_digit());
            if d.is_ascii_digit() {
                digits.push(d);
                if let Some(n) = decimals.as_mut() {
                    *n += 1;
                }
            } else if d == ',' && decimals.is_none() && (1..=3).all(|k| next_digit(j + k)) {
                // a thousands separator: "23,200" (three digits follow)
            } else if d == '.' && decimals.is_none() && next_digit(j + 1) {
                digits.push('.');
                decimals = Some(0);
            } else {
                break;
            }
            j += 1;
        }
        // Digits glued to letters ("4f14", "7s2") are not a quantity.
        if bytes
            .get(j)
            .is_some_and(|(_, c)| c.is_alphabetic() && c.is_lowercase())
        {
            let rest: String = bytes[j..].iter().map(|(_, c)| c).collect();
            if unit_at(&rest).is_none() {
                while j < bytes.len() && bytes[j].1.is_alphanumeric() {
                    j += 1;
                }
                i = j;
                continue;
            }
        }
        let Ok(mut value) = digits.parse::<f64>() else {
            i = j;
            continue;
        };
        if negative {
            value = -value;
        }
        let mut step = 10f64.powi(-(decimals.unwrap_or(0) as i32));
        let mut end = bytes.get(j).map_or(text.len(), |(b, _)| *b);
        let rest = &text[end..];
        let gap = rest.len() - rest.trim_start().len();
        let after = rest.trim_start().to_lowercase();
        for (word, factor) in SCALES {
            let ends = after
                .strip_prefix(word)
                .is_some_and(|a| a.chars().next().is_none_or(|c| !c.is_alphanumeric()));
            if ends {
                value *= factor;
                step *= factor;
                end += gap + word.len();
                break;
            }
        }
        let rest = &text[end..];
        let unit = unit_at(rest.trim_start()).map(|(u, _)| u);
        out.push((Figure { value, step }, start, end, unit));
        i = bytes
            .iter()
            .position(|(b, _)| *b >= end)
            .unwrap_or(bytes.len());
    }
    out
}

/// Whether `answer` states the quantity `gold` (a number as the KG writes it, in the unit
/// `gold_unit` names, if any): some number in it, converted from the unit written after it
/// to the KG's, agrees with the gold to the precision of both. A number with no unit is taken
/// to be in the KG's unit; one in a unit of another dimension never matches. A figure within
/// the gold's [`spread`] states it too (a surveyed count, a measured temperature or density).
pub fn states(answer: &str, gold: &str, gold_unit: Option<&str>) -> bool {
    let Some(g) = parse(gold.trim()) else {
        return false;
    };
    let home = home_unit(gold_unit);
    let spread = spread_of(&g, home).unwrap_or(0.0);
    numbers_in(answer).into_iter().any(|(w, _, _, unit)| {
        let w = match (unit, home) {
            (Some(u), Some(h)) if u.dimension == h.dimension => {
                let base = w.value * u.scale + u.offset;
                Figure {
                    value: (base - h.offset) / h.scale,
                    step: w.step * u.scale / h.scale,
                }
            }
            (Some(u), _) if u.dimension != Dimension::Share || home.is_some() => return false,
            _ => w,
        };
        w.agrees(&g) || (w.value - g.value).abs() <= spread * g.value.abs()
    })
}

/// A year as a season spanning the new year: "1967–68", "1967-1968", "1967/68". Returns the
/// two years.
pub fn season(text: &str) -> Option<(i32, i32)> {
    let t = text.trim();
    let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() != 4 {
        return None;
    }
    let rest = t[digits.len()..].trim_start();
    let sep = rest.chars().next()?;
    if !matches!(sep, '-' | '–' | '—' | '/') {
        return None;
    }
    let tail: String = rest[sep.len_utf8()..]
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let start: i32 = digits.parse().ok()?;
    let end: i32 = match tail.len() {
        2 => (start / 100) * 100 + tail.parse::<i32>().ok()?,
        4 => tail.parse().ok()?,
        _ => return None,
    };
    let end = if end < start { end + 100 } else { end };
    (end == start + 1).then_some((start, end))
}

/// Every season named in `text` (see [`season`]).
pub fn seasons_in(text: &str) -> Vec<(i32, i32)> {
    text.char_indices()
        .filter(|(i, c)| {
            c.is_ascii_digit()
                && text[..*i]
                    .chars()
                    .next_back()
                    .is_none_or(|p| !p.is_ascii_digit())
        })
        .filter_map(|(i, _)| season(&text[i..]))
        .collect()
}

/// Whether `option` and `answer`, as numbers written with the same words around them ("61
/// seconds", "1802.15"), cannot be told apart: they are equal to the finer one's precision
/// (two options from one table are written to its precision: "1" beside "1.25" is 1.00) or
/// lie within `relative` of each other (1800.15 and 1802.15 kelvin are one melting point to a
/// reader).
pub fn too_close(answer: &str, option: &str, relative: f64) -> bool {
    let (Some((a, a_rest)), Some((o, o_rest))) = (leading(answer), leading(option)) else {
        return false;
    };
    if a_rest != o_rest {
        return false;
    }
    let scale = a.value.abs().max(o.value.abs());
    let diff = (a.value - o.value).abs();
    diff < a.step.min(o.step) / 2.0 || diff <= relative * scale
}

/// How many times the larger of two positive numbers written with the same words around
/// them ("0.44 square kilometres", "41284 square kilometres") is the smaller; `None` for
/// anything else.
pub fn ratio(a: &str, b: &str) -> Option<f64> {
    let ((x, x_rest), (y, y_rest)) = (leading(a)?, leading(b)?);
    (x_rest == y_rest && x.value > 0.0 && y.value > 0.0)
        .then(|| x.value.max(y.value) / x.value.min(y.value))
}

/// A text that is a number and then only words ("61 seconds"): the number and the words.
fn leading(text: &str) -> Option<(Figure, String)> {
    let all = numbers_in(text);
    let [(w, start, end, _)] = all.as_slice() else {
        return None;
    };
    if text[..*start].trim().chars().any(char::is_alphanumeric) {
        return None;
    }
    Some((*w, text[*end..].trim().to_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_with_their_precision_and_scale() {
        assert_eq!(
            parse("2022.15"),
            Some(Figure {
                value: 2022.15,
                step: 0.01
            })
        );
        assert_eq!(
            parse("23,200"),
            Some(Figure {
                value: 23200.0,
                step: 1.0
            })
        );
        assert_eq!(parse("+1").map(|w| w.value), Some(1.0));
        assert_eq!(parse("-38.83").map(|w| w.value), Some(-38.83));
        let m = numbers_in("about 1.24 million km²");
        assert_eq!(m.len(), 1);
        assert!((m[0].0.value - 1_240_000.0).abs() < 1e-6);
        assert!((m[0].0.step - 10_000.0).abs() < 1e-6);
        assert_eq!(m[0].3.map(|u| u.dimension), Some(Dimension::Area));
        assert!(parse("[Xe] 4f14 5d10 6s2").is_none());
        assert!(numbers_in("[Xe] 4f14 5d10 6s2").is_empty());
    }

    #[test]
    fn temperatures_in_any_scale_and_rounding() {
        for right in [
            "2022.15",
            "2022 K",
            "2022 kelvin",
            "about 2022.2 K.",
            "1749 °C",
            "1749°C",
            "1749 degrees Celsius",
            "3180 °F",
            // Another table's measurement, within MEASURED_SPREAD.
            "2030 K",
            "1755 °C",
        ] {
            assert!(states(right, "2022.15", Some("kelvin")), "{right}");
        }
        for wrong in ["2040 K", "2022 °C", "1770 °C", "2022 km²", "3220 °F", "20"] {
            assert!(!states(wrong, "2022.15", Some("kelvin")), "{wrong}");
        }
        // A gold written coarser than the answer: 209 stands for 208.5–209.5.
        assert!(states("208.98", "209", None));
        assert!(states("1.12", "1.1", None), "1.12 rounds to 1.1");
    }

    #[test]
    fn densities_take_another_tables_figure_atomic_weights_do_not() {
        // Zinc: 7.134 g/cm³ in the CRC Handbook, 7.14 in most tables.
        let unit = Some("g/cm³");
        assert!(states("7.14 g/cm³", "7.134", unit));
        assert!(states("about 7.13", "7.134", unit));
        assert!(!states("7.2 g/cm³", "7.134", unit));
        assert_eq!(spread("7.134", unit), Some(MEASURED_SPREAD));
        // Nickel's atomic weight is exact to its digits: cobalt's 58.933 is another element's.
        assert!(!states("58.93", "58.6934", None));
        assert_eq!(spread("58.6934", None), None);
        assert_eq!(spread("10584534", None), Some(SURVEY_SPREAD));
    }

    #[test]
    fn surveyed_counts_take_another_sources_figure() {
        // Belgium, 2007: Statbel's 1 January count and the CIA's July estimate.
        assert!(states("10,392,226", "10584534", None));
        assert!(states("about 10.4 million people", "10584534", None));
        assert!(!states("9,900,000", "10584534", None));
        // Years and small counts stay exact.
        assert!(!states("2008", "2007", None));
        assert!(!states("9,110", "9104", None));
    }

    #[test]
    fn areas_shares_and_scales() {
        assert!(states("23,200 km²", "23200", Some("square kilometres")));
        assert!(states(
            "about 8,958 square miles",
            "23200",
            Some("square kilometres")
        ));
        assert!(states(
            "1.24 million square kilometres",
            "1240192",
            Some("square kilometres")
        ));
        assert!(!states(
            "1.3 million km²",
            "1240192",
            Some("square kilometres")
        ));
        assert!(states("21.2%", "21.232", Some("percent")));
        assert!(!states("22%", "21.232", Some("percent")));
    }

    #[test]
    fn seasons_span_the_new_year() {
        assert_eq!(season("1967–68"), Some((1967, 1968)));
        assert_eq!(season("1999-2000"), Some((1999, 2000)));
        assert_eq!(season("1999/00"), Some((1999, 2000)));
        assert_eq!(season("1967-69"), None);
        assert_eq!(season("1967"), None);
        assert_eq!(seasons_in("the 1946–47 BAA season"), vec![(1946, 1947)]);
    }

    #[test]
    fn options_too_close_to_tell_apart() {
        assert!(too_close("1802.15", "1800.15", 0.02));
        assert!(too_close("1.1", "1.12", 0.02));
        assert!(!too_close("1", "1.25", 0.02));
        assert!(too_close("1.10", "1.1", 0.0));
        assert!(!too_close("1.1", "1.57", 0.02));
        assert!(too_close("61 seconds", "60 seconds", 0.02));
        assert!(!too_close("61 seconds", "61 milliseconds", 0.02));
        assert!(!too_close("72", "71", 0.0), "exact integers differ by one");
        assert!(!too_close("period 4", "period 5", 0.02));
    }
}

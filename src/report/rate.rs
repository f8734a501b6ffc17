//! Rates as people read them: the progress bars of the headless commands print them, and
//! so can any screen that shows a speed.

/// A rate (per second) with three significant digits, and no decimals from 100 up: 0.213,
/// 4.52, 38.1, 1204. Enough to compare runs; more digits would only flicker.
pub fn rate(per_sec: f64) -> String {
    if !per_sec.is_finite() || per_sec < 0.0 {
        return "?".into();
    }
    // Below this a rate shows as 0 (one event in about three hours).
    if per_sec < 0.0001 {
        return "0".into();
    }
    let decimals = |x: f64| (2 - x.log10().floor() as i32).clamp(0, 4) as usize;
    let mut d = decimals(per_sec);
    // Rounding can carry into the next power of ten (9.996 → 10.0): that one shows one
    // decimal fewer, or it would have four significant digits.
    let rounded: f64 = format!("{per_sec:.d$}").parse().unwrap_or(per_sec);
    if rounded > 0.0 && decimals(rounded) < d {
        d = decimals(rounded);
    }
    format!("{per_sec:.d$}")
}

#[cfg(test)]
mod tests {
    use super::rate;

    #[test]
    fn rates_have_three_significant_digits() {
        assert_eq!(rate(0.21337), "0.213");
        assert_eq!(rate(4.5213), "4.52");
        assert_eq!(rate(38.149), "38.1");
        assert_eq!(rate(123.4), "123");
        assert_eq!(rate(1204.4), "1204");
        assert_eq!(rate(98765.4), "98765");
        assert_eq!(rate(0.0213), "0.0213");
        assert_eq!(rate(1.0), "1.00");
    }

    #[test]
    fn rounding_into_the_next_power_of_ten_keeps_three_digits() {
        assert_eq!(rate(9.996), "10.0");
        assert_eq!(rate(99.96), "100");
        assert_eq!(rate(0.9996), "1.00");
    }

    #[test]
    fn zero_tiny_and_undefined_rates() {
        assert_eq!(rate(0.0), "0");
        assert_eq!(rate(0.00001), "0");
        assert_eq!(rate(0.000123), "0.0001");
        assert_eq!(rate(f64::NAN), "?");
        assert_eq!(rate(f64::INFINITY), "?");
        assert_eq!(rate(-1.0), "?");
    }
}

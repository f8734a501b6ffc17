//! When to try a failed request again: exponential backoff with full jitter, and the server's
//! own `Retry-After`.

use std::time::{Duration, SystemTime};

use rand::Rng;

/// Backoff before retry `attempt` (0-based): full jitter, uniform in
/// `[0, min(max, base * 2^attempt)]`.
pub fn backoff_delay(attempt: u32, base: Duration, max: Duration) -> Duration {
    let ceiling = base
        .checked_mul(1u32.checked_shl(attempt.min(31)).unwrap_or(u32::MAX))
        .unwrap_or(max)
        .min(max);
    jitter(ceiling)
}

pub(super) fn jitter(ceiling: Duration) -> Duration {
    let ms = ceiling.as_millis().min(u64::MAX as u128) as u64;
    if ms == 0 {
        return Duration::ZERO;
    }
    Duration::from_millis(rand::rng().random_range(0..=ms))
}

/// Parses a `Retry-After` value: delay seconds, or an HTTP date (IMF-fixdate, e.g.
/// `Sun, 06 Nov 1994 08:49:37 GMT`, or RFC 850's and asctime's layouts, which HTTP/1.1
/// recipients must accept too); a date in the past means "now".
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let v = value.trim();
    if let Ok(secs) = v.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    if let Ok(secs) = v.parse::<f64>() {
        if secs.is_finite() && secs >= 0.0 {
            return Some(Duration::from_secs_f64(secs.min(1e9)));
        }
    }
    let at = httpdate::parse_http_date(v).ok()?;
    // A date in the past is "now".
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::UNIX_EPOCH;

    #[test]
    fn retry_after_seconds_and_dates() {
        let now = UNIX_EPOCH + Duration::from_secs(784_111_777); // Sun, 06 Nov 1994 08:49:37 GMT
        assert_eq!(parse_retry_after("1", now), Some(Duration::from_secs(1)));
        assert_eq!(
            parse_retry_after(" 120 ", now),
            Some(Duration::from_secs(120))
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:50:07 GMT", now),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            parse_retry_after("Sunday, 06-Nov-94 08:49:47 GMT", now),
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            parse_retry_after("Sat, 05 Nov 1994 08:49:37 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(
            parse_retry_after("Sun Nov  6 08:49:57 1994", now),
            Some(Duration::from_secs(20)),
            "asctime"
        );
    }

    #[test]
    fn backoff_is_full_jitter_under_the_cap() {
        let base = Duration::from_millis(250);
        let max = Duration::from_secs(20);
        for attempt in 0..40 {
            let ceiling = (base * 2u32.saturating_pow(attempt.min(20))).min(max);
            for _ in 0..20 {
                assert!(backoff_delay(attempt, base, max) <= ceiling);
            }
        }
    }
}

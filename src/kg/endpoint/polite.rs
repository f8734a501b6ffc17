//! How kgscope behaves towards a SPARQL endpoint it does not own: it says who it is (a user
//! agent), starts at most so many requests a second and keeps at most so many in flight, and
//! when the endpoint says it is busy (429 Too Many Requests, 503 Service Unavailable, or a
//! gateway's 502/504) it waits as long as the endpoint asks (`Retry-After`, in seconds or as
//! an HTTP date) or, without one, 1, 2, 4, … s, and then asks again. Every request waits its
//! turn at one [`Gate`], so a `Retry-After` holds back the whole process, not one query.
//!
//! Defaults: an endpoint on this machine (loopback) is not limited; any other gets 5 requests
//! a second and 2 in flight, under the limits Wikidata's query service states (5 parallel
//! queries per client; its policy also asks for a user agent that names a contact, which
//! `--user-agent` or `KGSCOPE_USER_AGENT` sets).

use std::sync::{Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

/// What the command line or the environment set for every endpoint this process talks to.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub user_agent: Option<String>,
    /// Requests started per second; 0 = no limit.
    pub rate: Option<f64>,
    pub concurrency: Option<usize>,
    pub timeout: Option<Duration>,
    /// The most bytes of one answer (`--sparql-max-bytes`).
    pub max_bytes: Option<u64>,
    /// The most rows of one answer (`--sparql-max-rows`).
    pub max_rows: Option<usize>,
    /// Where answers are cached; `Some(None)` turns the cache off.
    pub cache_dir: Option<Option<std::path::PathBuf>>,
    /// Names the KG's version for the cache (`--kg-snapshot`), instead of its triple count.
    pub snapshot: Option<String>,
}

static OVERRIDES: OnceLock<Overrides> = OnceLock::new();

/// Sets the process's endpoint settings; the first call wins (the command line sets them once,
/// before any KG is opened).
pub fn set_overrides(o: Overrides) {
    let _ = OVERRIDES.set(o);
}

pub fn overrides() -> &'static Overrides {
    OVERRIDES.get_or_init(Overrides::default)
}

/// One endpoint's limits.
#[derive(Debug, Clone, PartialEq)]
pub struct Politeness {
    pub user_agent: String,
    /// Requests started per second; 0 = no limit.
    pub rate: f64,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// Times a query is sent while the endpoint says it is busy.
    pub tries: u32,
    /// The longest single wait kgscope accepts; an endpoint that asks for more is given up on
    /// with a message that says when to try again.
    pub max_wait: Duration,
    /// One whole query, from sending it to the last byte of its results.
    pub timeout: Duration,
    /// The most bytes one answer may have: it is counted as it arrives, and reading stops
    /// (an error) at the first byte over, so an endless answer costs this much and no more.
    pub max_bytes: u64,
    /// The most rows one answer may have (its parsed rows are what stays in memory).
    pub max_rows: usize,
}

pub const DEFAULT_USER_AGENT: &str = concat!(
    "kgscope/",
    env!("CARGO_PKG_VERSION"),
    " (knowledge-graph evaluation of language models; set --user-agent to add a contact)"
);
const REMOTE_RATE: f64 = 5.0;
const REMOTE_CONCURRENCY: usize = 2;
const LOCAL_CONCURRENCY: usize = 8;
const QUERY_TIMEOUT: Duration = Duration::from_secs(600);
/// Room for the whole index of a KG of a few million facts read from an endpoint, while an
/// endless answer stops long before it fills a laptop's memory.
pub const MAX_BYTES: u64 = 256 << 20;
pub const MAX_ROWS: usize = 4_000_000;

impl Politeness {
    /// The limits for `url`: loopback or not, then what the process set.
    pub fn for_url(url: &str) -> Self {
        let local = is_loopback(url);
        let o = overrides();
        Politeness {
            user_agent: o
                .user_agent
                .clone()
                .unwrap_or_else(|| DEFAULT_USER_AGENT.to_string()),
            rate: o.rate.unwrap_or(if local { 0.0 } else { REMOTE_RATE }),
            concurrency: o
                .concurrency
                .unwrap_or(if local {
                    LOCAL_CONCURRENCY
                } else {
                    REMOTE_CONCURRENCY
                })
                .max(1),
            tries: 6,
            max_wait: Duration::from_secs(300),
            timeout: o.timeout.unwrap_or(QUERY_TIMEOUT),
            max_bytes: o.max_bytes.unwrap_or(MAX_BYTES),
            max_rows: o.max_rows.unwrap_or(MAX_ROWS),
        }
    }
}

/// Whether `url`'s host is this machine.
pub fn is_loopback(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    let host = if let Some(v6) = host.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        host.split(':').next().unwrap_or("")
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether a status means "busy, ask again later".
pub fn is_busy(status: u16) -> bool {
    matches!(status, 429 | 502 | 503 | 504)
}

/// The wait a `Retry-After` value asks for: delta-seconds or an HTTP date (`now` for the
/// latter). `None` when it is neither.
pub fn retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let format = time::macros::format_description!(
        "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
    );
    let at = time::PrimitiveDateTime::parse(value, &format)
        .ok()?
        .assume_utc();
    let at = SystemTime::from(at);
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The wait before try `n` (1-based) when the endpoint gave no `Retry-After`.
pub fn backoff(n: u32) -> Duration {
    Duration::from_secs(1u64 << (n.saturating_sub(1)).min(6))
}

/// Where every request to one endpoint waits its turn.
pub struct Gate {
    limits: Politeness,
    state: Mutex<GateState>,
    freed: Condvar,
}

struct GateState {
    in_flight: usize,
    /// No request starts before this (the rate, or a `Retry-After`).
    next: Instant,
}

/// A request's place in flight; dropping it frees the place.
pub struct Permit<'a>(&'a Gate);

impl Drop for Permit<'_> {
    fn drop(&mut self) {
        let mut s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        s.in_flight -= 1;
        self.0.freed.notify_one();
    }
}

impl Gate {
    pub fn new(limits: Politeness) -> Self {
        Gate {
            limits,
            state: Mutex::new(GateState {
                in_flight: 0,
                next: Instant::now(),
            }),
            freed: Condvar::new(),
        }
    }

    pub fn limits(&self) -> &Politeness {
        &self.limits
    }

    /// Waits for a place in flight and for the request's turn under the rate.
    pub fn enter(&self) -> Permit<'_> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while s.in_flight >= self.limits.concurrency {
            s = self.freed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.in_flight += 1;
        let now = Instant::now();
        let start = s.next.max(now);
        if self.limits.rate > 0.0 {
            s.next = start + Duration::from_secs_f64(1.0 / self.limits.rate);
        }
        drop(s);
        std::thread::sleep(start - now);
        Permit(self)
    }

    /// The endpoint asked everyone to wait `wait`: no request starts before then.
    pub fn hold_off(&self, wait: Duration) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.next = s.next.max(Instant::now() + wait);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts_are_recognised() {
        for url in [
            "http://127.0.0.1:7878/query",
            "http://localhost/sparql",
            "http://user:pw@127.0.0.2:1/q",
            "http://[::1]:8080/sparql",
        ] {
            assert!(is_loopback(url), "{url}");
        }
        for url in [
            "https://query.wikidata.org/sparql",
            "http://localhost.example.org/q",
            "http://10.0.0.1/q",
        ] {
            assert!(!is_loopback(url), "{url}");
        }
    }

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(784_111_777); // 06 Nov 1994 08:49:37
        assert_eq!(retry_after("7", now), Some(Duration::from_secs(7)));
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:49:47 GMT", now),
            Some(Duration::from_secs(10))
        );
        // A date in the past: go now.
        assert_eq!(
            retry_after("Sun, 06 Nov 1994 08:49:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after("soon", now), None);
    }

    #[test]
    fn the_gate_keeps_the_rate_and_a_hold_off() {
        let mut p = Politeness::for_url("http://127.0.0.1/");
        p.rate = 20.0;
        let gate = Gate::new(p);
        let t = Instant::now();
        for _ in 0..5 {
            drop(gate.enter());
        }
        // Five starts at 20/s: the fifth at 200 ms at the earliest.
        assert!(
            t.elapsed() >= Duration::from_millis(195),
            "{:?}",
            t.elapsed()
        );
        // The clock starts before the hold-off stamps its own: a pause between the two
        // (a busy machine) then only lengthens what is measured.
        let t = Instant::now();
        gate.hold_off(Duration::from_millis(300));
        drop(gate.enter());
        assert!(
            t.elapsed() >= Duration::from_millis(290),
            "{:?}",
            t.elapsed()
        );
    }

    #[test]
    fn the_gate_caps_requests_in_flight() {
        let mut p = Politeness::for_url("http://127.0.0.1/");
        p.concurrency = 2;
        let gate = std::sync::Arc::new(Gate::new(p));
        let most = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let now = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let threads: Vec<_> = (0..6)
            .map(|_| {
                let (gate, most, now) = (gate.clone(), most.clone(), now.clone());
                std::thread::spawn(move || {
                    let _p = gate.enter();
                    let n = now.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                    most.fetch_max(n, std::sync::atomic::Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(30));
                    now.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(most.load(std::sync::atomic::Ordering::SeqCst), 2);
    }
}

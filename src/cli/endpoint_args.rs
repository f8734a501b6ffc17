//! How kgscope talks to SPARQL endpoints: flags every command takes, for every endpoint the
//! process opens (see `kg::endpoint::polite`).

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use kgscope::kg::endpoint::polite::Overrides;

#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "SPARQL endpoints (--kg http://…)")]
pub struct EndpointArgs {
    /// Requests started per second [default: 5; no limit for an endpoint on this machine]
    #[arg(
        long,
        global = true,
        env = "KGSCOPE_SPARQL_RATE",
        value_name = "N",
        allow_negative_numbers = true
    )]
    pub sparql_rate: Option<f64>,
    /// Requests in flight at once [default: 2; 8 for an endpoint on this machine]
    #[arg(
        long,
        global = true,
        env = "KGSCOPE_SPARQL_CONCURRENCY",
        value_name = "N"
    )]
    pub sparql_concurrency: Option<usize>,
    /// Seconds one query may take, results included [default: 600]
    #[arg(
        long,
        global = true,
        env = "KGSCOPE_SPARQL_TIMEOUT",
        value_name = "SECS"
    )]
    pub sparql_timeout: Option<u64>,
    /// The most one query's answer may hold, in bytes (K, M, G: KiB, MiB, GiB); an answer
    /// over it stops the run with an error, never a short result [default: 256M]
    #[arg(
        long,
        global = true,
        env = "KGSCOPE_SPARQL_MAX_BYTES",
        value_name = "BYTES",
        value_parser = parse_bytes
    )]
    pub sparql_max_bytes: Option<u64>,
    /// The most rows one query's answer may hold; an answer over it stops the run with an
    /// error, never a short result [default: 4000000]
    #[arg(long, global = true, env = "KGSCOPE_SPARQL_MAX_ROWS", value_name = "N")]
    pub sparql_max_rows: Option<usize>,
    /// The user agent sent with every request. Public endpoints ask for one that names a
    /// contact (Wikidata's policy): "kgscope (you@example.org)" [default: kgscope/VERSION and
    /// what it is]
    #[arg(long, global = true, env = "KGSCOPE_USER_AGENT", value_name = "TEXT")]
    pub user_agent: Option<String>,
    /// Where endpoint answers are kept, so no query is sent twice [default:
    /// $KGSCOPE_HOME/sparql]
    #[arg(long, global = true, env = "KGSCOPE_SPARQL_CACHE", value_name = "DIR")]
    pub sparql_cache: Option<PathBuf>,
    /// Send every query, keep no answer
    #[arg(long, global = true)]
    pub no_sparql_cache: bool,
    /// The KG's version for the cache (a dump date, a release): answers cached under another
    /// version are not used [default: the endpoint's triple count and first triples]
    #[arg(long, global = true, env = "KGSCOPE_KG_SNAPSHOT", value_name = "NAME")]
    pub kg_snapshot: Option<String>,
}

impl EndpointArgs {
    /// The settings, checked; sets them for the process.
    pub fn apply(&self) -> anyhow::Result<()> {
        if let Some(r) = self.sparql_rate {
            anyhow::ensure!(
                r.is_finite() && r >= 0.0,
                "--sparql-rate {r}: give requests per second, 0 or more (0: no limit)"
            );
        }
        if self.sparql_concurrency == Some(0) {
            anyhow::bail!("--sparql-concurrency 0: at least one request must be in flight");
        }
        if self.sparql_timeout == Some(0) {
            anyhow::bail!("--sparql-timeout 0: give the seconds a query may take");
        }
        if self.sparql_max_bytes == Some(0) || self.sparql_max_rows == Some(0) {
            anyhow::bail!(
                "--sparql-max-bytes/--sparql-max-rows 0: no answer would fit; give the most an \
                 answer may hold"
            );
        }
        let cache = if self.no_sparql_cache {
            None
        } else {
            Some(
                self.sparql_cache
                    .clone()
                    .unwrap_or_else(|| kgscope::backends::spec::kgscope_home().join("sparql")),
            )
        };
        kgscope::kg::endpoint::polite::set_overrides(Overrides {
            user_agent: self.user_agent.clone(),
            rate: self.sparql_rate,
            concurrency: self.sparql_concurrency,
            timeout: self.sparql_timeout.map(Duration::from_secs),
            max_bytes: self.sparql_max_bytes,
            max_rows: self.sparql_max_rows,
            cache_dir: Some(cache),
            snapshot: self.kg_snapshot.clone(),
        });
        Ok(())
    }
}

/// `4096`, `64K`, `256M`, `2G` (binary units; `KiB`, `MB` … are read the same way).
fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(digits);
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches(['B', 'I'])
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        _ => {
            return Err(format!(
                "{text}: give bytes, optionally with K, M or G (256M)"
            ))
        }
    };
    n.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("{text}: give bytes, optionally with K, M or G (256M)"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn byte_sizes_read_with_binary_units() {
        use super::parse_bytes;
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("64K"), Ok(64 << 10));
        assert_eq!(parse_bytes("256MiB"), Ok(256 << 20));
        assert_eq!(parse_bytes("2g"), Ok(2 << 30));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("").is_err());
    }
}

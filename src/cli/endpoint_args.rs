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
            cache_dir: Some(cache),
            snapshot: self.kg_snapshot.clone(),
        });
        Ok(())
    }
}

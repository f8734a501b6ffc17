//! How to reach an OpenAI-compatible server: the options `run` and `tui` share.

use clap::Args;
use kgscope::credentials;
use kgscope::run::config::{HttpTimeouts, DEFAULT_OPENAI_BASE_URL};
use kgscope::run::ModelSpec;

#[derive(Args, Clone)]
pub struct OpenAiArgs {
    /// openai backend: the API root, e.g. http://127.0.0.1:8080/v1
    /// [default: https://api.openai.com/v1]. Credentials in it (user:password@,
    /// ?api_key=…) are sent but never stored or shown; `run --resume` needs the URL again.
    #[arg(
        long,
        value_name = "URL",
        env = "KGSCOPE_BASE_URL",
        hide_env_values = true
    )]
    pub base_url: Option<String>,
    /// openai backend: environment variable holding the API key (never stored or logged).
    #[arg(long, value_name = "VAR", default_value = "OPENAI_API_KEY")]
    pub api_key_env: String,
    /// openai backend: seconds without any data from the server (response headers or the
    /// next piece of the stream) before an attempt is given up and retried [default: 30].
    #[arg(long, value_name = "SECS", value_parser = positive_secs)]
    pub idle_timeout: Option<f64>,
    /// openai backend: seconds one attempt may take in all, from sending the request to
    /// the end of the answer [default: 600].
    #[arg(long, value_name = "SECS", value_parser = positive_secs)]
    pub request_timeout: Option<f64>,
}

fn positive_secs(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(v),
        _ => Err(format!(
            "expected a positive number of seconds, e.g. 30 or 0.5, not '{s}'"
        )),
    }
}

impl OpenAiArgs {
    /// The timeouts given, each falling back to `base` (the defaults, or a resumed run's).
    pub fn timeouts(&self, base: HttpTimeouts) -> HttpTimeouts {
        HttpTimeouts {
            idle_s: self.idle_timeout.unwrap_or(base.idle_s),
            request_s: self.request_timeout.unwrap_or(base.request_s),
        }
    }

    /// The model `spec` (`default`, a .gguf path, or openai:NAME) with these options.
    pub fn model_spec(&self, spec: &str) -> anyhow::Result<ModelSpec> {
        let model = ModelSpec::parse(spec, self.base_url.as_deref(), &self.api_key_env)
            .map_err(anyhow::Error::msg)?;
        Ok(model.with_timeouts(self.timeouts(HttpTimeouts::default())))
    }

    /// Lets a base URL read back from a manifest, its credentials masked, get them back from
    /// this command line (see `kgscope::credentials`).
    pub fn supply_credentials(&self) {
        if let Some(url) = &self.base_url {
            credentials::supply(url.trim_end_matches('/'));
        }
    }

    /// Where `--model openai:NAME` goes when no `--base-url` says: told once, before the run,
    /// so a request to a paid API is never a surprise.
    pub fn default_url_notice(&self, model: &ModelSpec) -> Option<String> {
        match model {
            ModelSpec::Openai { .. } if self.base_url.is_none() => Some(format!(
                "no --base-url given: requests go to OpenAI's API at {DEFAULT_OPENAI_BASE_URL} \
                 (use --base-url for another OpenAI-compatible server)"
            )),
            _ => None,
        }
    }
}

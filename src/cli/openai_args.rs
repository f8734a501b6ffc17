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

    /// A helper model (`--judge`, `--writer`, `--expert`: `spec` as `flag` gave it): an
    /// openai:MODEL one talks to `judge_base_url` when given, else to --base-url.
    pub fn helper_spec(
        &self,
        spec: &str,
        judge_base_url: Option<&str>,
        flag: &str,
    ) -> anyhow::Result<ModelSpec> {
        let mut o = self.clone();
        if let Some(url) = judge_base_url {
            o.base_url = Some(url.to_string());
        }
        anyhow::Context::with_context(o.model_spec(spec), || flag.to_string())
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

/// The judge and question writer the TUI's run dialog offers (`kgscope tui --judge/--writer`),
/// taken as `kgscope run` takes them.
#[derive(Args, Clone, Default)]
pub struct HelperArgs {
    /// A judge the run dialog offers (j) for the methods with open answers (saq, kglens's
    /// HARD mode, kg-fpq's generative questions, kghalubench), as `kgscope run --judge` takes
    /// it: `default`, a model name from `kgscope model list`, a .gguf path, or openai:MODEL
    /// (at --judge-base-url, else --base-url); the dialog proposes it [default: none, the
    /// dialog offers the run's own model].
    #[arg(long, value_name = "MODEL")]
    pub judge: Option<String>,
    /// A question writer the run dialog offers (w) for kg-fpq, as `kgscope run --writer`
    /// takes it; the dialog proposes it [default: none, the dialog offers the run's own
    /// model].
    #[arg(long, value_name = "MODEL")]
    pub writer: Option<String>,
    /// The OpenAI-compatible server of an openai:MODEL judge or writer [default: --base-url].
    #[arg(long, value_name = "URL")]
    pub judge_base_url: Option<String>,
}

impl HelperArgs {
    /// The judge and the writer given, as models.
    pub fn specs(
        &self,
        openai: &OpenAiArgs,
    ) -> anyhow::Result<(Option<ModelSpec>, Option<ModelSpec>)> {
        let url = self.judge_base_url.as_deref();
        let spec = |s: &Option<String>, flag| {
            s.as_deref()
                .map(|s| openai.helper_spec(s, url, flag))
                .transpose()
        };
        Ok((
            spec(&self.judge, "--judge")?,
            spec(&self.writer, "--writer")?,
        ))
    }
}

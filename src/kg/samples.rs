//! The sample KGs of `sample-kgs/`, embedded in the binary: `--kg sample:NAME`.

static SAMPLES: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/sample_kgs.rs"));

/// Names of the embedded sample KGs (file names without `.ttl`).
pub fn names() -> Vec<&'static str> {
    SAMPLES
        .iter()
        .map(|(f, _)| f.trim_end_matches(".ttl"))
        .collect()
}

/// The Turtle text of a sample KG.
pub fn turtle(name: &str) -> Option<&'static str> {
    SAMPLES
        .iter()
        .find(|(f, _)| f.trim_end_matches(".ttl") == name)
        .map(|(_, t)| *t)
}

/// The sample the TUI and the README's commands open by default.
pub const DEFAULT: &str = "countries";

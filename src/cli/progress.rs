//! Progress bars on stderr; indicatif hides them when stderr is not a terminal.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

pub fn spinner(msg: &str) -> ProgressBar {
    let pb = ProgressBar::new_spinner();
    pb.set_style(ProgressStyle::with_template("{spinner} {msg} ({elapsed})").unwrap());
    pb.set_message(msg.to_string());
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
}

pub fn counter(total: Option<u64>, unit: &str) -> ProgressBar {
    let pb = match total {
        Some(t) => ProgressBar::new(t),
        None => ProgressBar::no_length(),
    };
    let template = if total.is_some() {
        format!(
            "{{msg}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} ({{per_sec}}, ETA {{eta}})"
        )
    } else {
        format!("{{msg}} {{human_pos}} {unit} ({{per_sec}}, {{elapsed}})")
    };
    pb.set_style(
        ProgressStyle::with_template(&template)
            .unwrap()
            .progress_chars("=> "),
    );
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}

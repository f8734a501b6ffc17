//! Progress bars on stderr; indicatif hides them when stderr is not a terminal.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressState, ProgressStyle};
pub use kgscope::report::rate::rate;

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
    // `{rate}` rather than indicatif's `{per_sec}`, which prints four decimals at any speed.
    let template = if total.is_some() {
        format!("{{msg}} [{{bar:30}}] {{human_pos}}/{{human_len}} {unit} ({{rate}}/s, ETA {{eta}})")
    } else {
        format!("{{msg}} {{human_pos}} {unit} ({{rate}}/s, {{elapsed}})")
    };
    pb.set_style(
        ProgressStyle::with_template(&template)
            .unwrap()
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = w.write_str(&rate(state.per_sec()));
                },
            )
            .progress_chars("=> "),
    );
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}

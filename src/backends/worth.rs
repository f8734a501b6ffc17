//! What a model is worth as a judge, said before it judges: a base model follows no rubric,
//! and a model under a billion parameters decides open answers little better than a coin
//! (the bundled 270M base model judged "the devil" a right demonym of Peru). Known from the
//! model's file (the registry's models, and the words GGUF files are named with:
//! "instruct", "chat", "it"; a size such as "270m" or "0.5b"); a served model is not judged.

use super::llama::looks_instruction_tuned;
use super::spec::ModelSpec;

/// Parameters of one billion: the size under which a judge is called small.
const BILLION: f64 = 1e9;

/// Why `spec`'s verdicts should be checked against hand labels before they are trusted, or
/// `None` where nothing in its name says so.
pub fn judge_caveat(spec: &ModelSpec) -> Option<String> {
    let ModelSpec::Llama { path } = spec else {
        return None;
    };
    let file = path.file_name()?.to_string_lossy().to_lowercase();
    let size = parameters(&file);
    let small = size.is_some_and(|n| n < BILLION);
    let shown = size
        .map(|n| format!("{} ", size_words(n)))
        .unwrap_or_default();
    if !looks_instruction_tuned(&file) {
        return Some(format!(
            "a {shown}base model, not instruction-tuned: it follows no rubric, so its verdicts \
             say little; measure it against hand labels (Judge view) before trusting them"
        ));
    }
    small.then(|| {
        format!(
            "a {shown}model: its verdicts are unreliable; measure it against hand labels \
             (Judge view) before trusting them"
        )
    })
}

/// The parameter count a file name states: "gemma-3-270m-q4_k_m.gguf" → 2.7e8,
/// "qwen2.5-coder-0.5b-instruct" → 5e8. Quantisation tags ("q4_k_m") and versions ("3",
/// "2.5") are no sizes: a size is a number followed by "m" or "b" alone.
fn parameters(file: &str) -> Option<f64> {
    file.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
        .filter_map(|word| {
            let (number, scale) = match word.strip_suffix('b') {
                Some(n) => (n, BILLION),
                None => (word.strip_suffix('m')?, 1e6),
            };
            let n: f64 = number.parse().ok()?;
            (n > 0.0).then_some(n * scale)
        })
        .next()
}

fn size_words(n: f64) -> String {
    if n >= BILLION {
        format!("{}B", n / BILLION)
    } else {
        format!("{}M", (n / 1e6).round())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn llama(file: &str) -> ModelSpec {
        ModelSpec::Llama {
            path: format!("/models/{file}").into(),
        }
    }

    #[test]
    fn a_base_or_small_model_is_said_to_be_a_weak_judge() {
        let base = judge_caveat(&llama("gemma-3-270m-q4_k_m.gguf")).unwrap();
        assert!(base.starts_with("a 270M base model"), "{base}");
        let small = judge_caveat(&llama("smollm2-135m-instruct-q4_1.gguf")).unwrap();
        assert!(small.starts_with("a 135M model"), "{small}");
        let half = judge_caveat(&llama("qwen2.5-coder-0.5b-instruct-q4_k_m.gguf")).unwrap();
        assert!(half.starts_with("a 500M model"), "{half}");
        // An instruction-tuned model of 8B says nothing; nor does a served one.
        assert_eq!(
            judge_caveat(&llama("llama-3.1-8b-instruct-q4_k_m.gguf")),
            None
        );
        let served = ModelSpec::Openai {
            model: "gpt-4o".into(),
            base_url: "http://127.0.0.1:1".into(),
            api_key_env: "K".into(),
            idle_timeout_s: 60.0,
            request_timeout_s: 600.0,
        };
        assert_eq!(judge_caveat(&served), None);
    }

    #[test]
    fn sizes_come_from_the_words_of_the_name() {
        assert_eq!(parameters("gemma-3-270m-q4_k_m.gguf"), Some(2.7e8));
        assert_eq!(parameters("qwen2.5-coder-0.5b-instruct"), Some(5e8));
        assert_eq!(parameters("model-q4_k_m.gguf"), None);
    }
}

//! KGHaluBench's entity-level check: the sentence embeddings it compares an answer and a
//! description with, and the similarity mix on real embeddings.

use kgscope::backends::spec::default_embedder_dir as default_dir;
use kgscope::method::kghalubench::similarity::{cosine, entity_similarity, token_set_ratio};
use kgscope::verify::embed::Embedder;

const TEXTS: [&str; 3] = [
    "Paris is the capital and largest city of France.",
    "The capital of France is Paris.",
    "Bananas are a yellow fruit rich in potassium.",
];

/// The first six dimensions of each text's embedding and two cosines, from an independent
/// numpy implementation of the same model (tools/reference_minilm.py).
const REFERENCE: [[f32; 6]; 3] = [
    [0.11855, 0.01564, 0.02651, -0.06223, 0.07323, -0.02083],
    [0.10326, 0.03042, 0.0291, -0.03732, 0.07868, -0.05472],
    [-0.02329, -0.0222, 0.01423, 0.03008, -0.00762, 0.07069],
];
const COS_01: f64 = 0.9197351220201485;
const COS_02: f64 = -0.07090754089440467;

fn embedder() -> Embedder {
    let dir = default_dir();
    assert!(
        kgscope::models::embedder_is_present(&dir),
        "the embedding model is missing from {}: run tools/setup.sh (or `kgscope model fetch --embedder`)",
        dir.display()
    );
    Embedder::load(&dir).unwrap()
}

/// candle's BERT with mean pooling gives what the numpy reference gives, to 1e-4; every
/// embedding has unit length; a text embeds the same alone and padded in a batch.
#[test]
fn the_embedder_matches_an_independent_implementation() {
    let e = embedder();
    let v = e.embed(&TEXTS).unwrap();
    assert_eq!(v.len(), 3);
    for (got, want) in v.iter().zip(REFERENCE) {
        assert_eq!(got.len(), 384);
        let norm: f32 = got.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-4, "{got:?} against {want:?}");
        }
    }
    assert!((cosine(&v[0], &v[1]) - COS_01).abs() < 1e-4);
    assert!((cosine(&v[0], &v[2]) - COS_02).abs() < 1e-4);
    // Alone, the short text has no padding; in the batch it had some, masked out.
    let alone = e.embed(&[TEXTS[1]]).unwrap();
    assert!(cosine(&alone[0], &v[1]) > 0.99999);
    assert!(e.embed(&[]).unwrap().is_empty());
}

/// The entity-level similarity on real embeddings: an answer about the entity clears the
/// paper's threshold, one about something else does not.
#[test]
fn an_answer_about_another_entity_falls_under_the_threshold() {
    use kgscope::method::kghalubench::similarity::DEFAULT_THRESHOLD;
    let e = embedder();
    let description = "capital and largest city of France";
    let on_topic = "Paris is the capital of France and its largest city, on the Seine.";
    let off_topic = "Bananas are a yellow fruit rich in potassium, grown in the tropics.";
    let v = e.embed(&[description, on_topic, off_topic]).unwrap();
    let s_on = entity_similarity(cosine(&v[0], &v[1]), token_set_ratio(description, on_topic));
    let s_off = entity_similarity(
        cosine(&v[0], &v[2]),
        token_set_ratio(description, off_topic),
    );
    assert!(s_on >= DEFAULT_THRESHOLD, "{s_on}");
    assert!(s_off < DEFAULT_THRESHOLD, "{s_off}");
}

#[test]
fn a_missing_model_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let err = Embedder::load(tmp.path())
        .err()
        .expect("no model there")
        .to_string();
    assert!(err.contains("config.json"), "{err}");
    assert!(err.contains("kgscope model fetch --embedder"), "{err}");
}

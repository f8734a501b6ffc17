//! The answer cache (`--sparql-cache DIR`) damaged: entries emptied, cut, left with their
//! first line only, a row removed, a term edited, and fuzzed with flipped bits, cuts and bytes
//! appended. A damaged entry is never served as the endpoint's answer: it is a miss, with a
//! warning naming it, the query is sent again to a real `oxigraph serve` on 127.0.0.1, and
//! the entry rewritten.

use crate::common;
#[path = "common/damage.rs"]
mod damage;

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::time::Duration;

use kgscope::kg::endpoint::polite::Politeness;
use kgscope::kg::endpoint::SparqlEndpoint;
use kgscope::kg::KnowledgeGraph;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The cache's entries, by path.
fn entries(cache: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    common::walk(cache)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect()
}

/// An entry's header fields but its digest, and its rows in order.
fn rows(entry: &[u8]) -> (String, Vec<String>) {
    let text = String::from_utf8_lossy(entry);
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let kept = header.split(" sha256=").next().unwrap_or("").to_string();
    let mut rows: Vec<String> = lines.map(str::to_string).collect();
    rows.sort();
    (kept, rows)
}

/// `kgscope questions` of the yes/no method on `kg`, caching its answers in `cache`.
fn questions(kg: &str, cache: &Path) -> std::process::Output {
    common::bin()
        .args(["questions", "--kg", kg, "--task", "yesno"])
        .args(["--limit", "100", "--seed", "3"])
        .args(["--sparql-cache", cache.to_str().unwrap()])
        .env_remove("KGSCOPE_SPARQL_RATE")
        .env_remove("KGSCOPE_SPARQL_CACHE")
        .output()
        .unwrap()
}

/// Defect (issue 36, 4): an emptied, cut, header-only or edited entry was served as the
/// endpoint's answer (other questions, exit 0, no warning). Now each is a miss: the same
/// questions as from the endpoint itself, a warning naming every damaged entry read, and the
/// entry written again as it was.
#[test]
fn a_damaged_cache_entry_is_asked_again_and_rewritten_with_a_warning() {
    let sparql = common::oxigraph_server(&common::root().join("sample-kgs/countries.ttl"));
    let url = format!("{}/query", sparql.base);
    let cache = tempfile::tempdir().unwrap();
    let first = questions(&url, cache.path());
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    let expected = String::from_utf8(first.stdout).unwrap();
    assert!(!expected.is_empty());
    let whole = entries(cache.path());
    assert!(!whole.is_empty(), "nothing cached");

    let first_line =
        |b: &[u8]| b[..b.iter().position(|&c| c == b'\n').map_or(0, |i| i + 1)].to_vec();
    let without_last_row = |b: &[u8]| {
        let body = &b[..b.len().saturating_sub(1)];
        b[..body.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1)].to_vec()
    };
    let edited = |b: &[u8]| {
        String::from_utf8_lossy(b)
            .replace("Peru", "Pera")
            .into_bytes()
    };
    let kinds: [(&str, &dyn Fn(&[u8]) -> Vec<u8>); 5] = [
        ("emptied", &|_| Vec::new()),
        ("cut in half", &|b| b[..b.len() / 2].to_vec()),
        ("first line only", &first_line),
        ("last row removed", &without_last_row),
        ("Peru edited to Pera", &edited),
    ];
    for (kind, damage) in kinds {
        let mut damaged = vec![];
        for (path, bytes) in &whole {
            let d = damage(bytes);
            if d != *bytes {
                std::fs::write(path, &d).unwrap();
                damaged.push(path);
            }
        }
        assert!(!damaged.is_empty(), "{kind}: no entry changed");
        let out = questions(&url, cache.path());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{kind}: {err}");
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            expected,
            "{kind}: a damaged entry was served: {err}"
        );
        for path in damaged {
            assert!(
                err.lines()
                    .any(|l| l.contains(&path.display().to_string()) && l.contains("damaged")),
                "{kind}: no warning names {}: {err}",
                path.display()
            );
            // The same answer: its rows (an engine may list the rows of a union of draws in
            // another order each time it is asked).
            assert_eq!(
                rows(&std::fs::read(path).unwrap()),
                rows(&whole[path]),
                "{kind}: {} not rewritten",
                path.display()
            );
        }
    }
}

/// Fuzz: 320 damaged copies of real entries (seeded, so the same each time): rows of several
/// shapes (IRIs, language-tagged and typed literals, unbound values, no rows at all). Reading
/// one never panics; an entry accepted gives exactly the endpoint's rows; one refused is
/// asked again and written back as it was.
#[test]
fn a_damaged_cache_entry_is_refused_or_read_exactly_as_written() {
    let sparql = common::oxigraph_server(&common::root().join("sample-kgs/countries.ttl"));
    let url = format!("{}/query", sparql.base);
    let cache = tempfile::tempdir().unwrap();
    let endpoint = SparqlEndpoint::with_limits(
        &url,
        Duration::from_secs(10),
        Politeness::for_url(&url),
        Some(cache.path().to_path_buf()),
    )
    .unwrap();
    let label = "<http://www.w3.org/2000/01/rdf-schema#label>";
    let queries: Vec<(String, Vec<&str>)> = vec![
        (
            format!("SELECT ?s ?l WHERE {{ ?s {label} ?l }} ORDER BY ?s ?l LIMIT 60"),
            vec!["s", "l"],
        ),
        (
            "SELECT ?s ?o WHERE { ?s ?p ?o FILTER(isLiteral(?o) && lang(?o) = \"\") } \
             ORDER BY ?s ?o LIMIT 40"
                .into(),
            vec!["s", "o"],
        ),
        (
            "SELECT ?s ?none WHERE { ?s a ?t OPTIONAL { ?s <http://nothing.example/p> ?none } } \
             ORDER BY ?s LIMIT 20"
                .into(),
            vec!["s", "none"],
        ),
        (
            "SELECT ?s WHERE { ?s <http://nothing.example/p> ?o }".into(),
            vec!["s"],
        ),
    ];
    // Each query's rows from the endpoint, and the entry it left.
    let mut cases = vec![];
    for (query, vars) in &queries {
        let before = entries(cache.path());
        let rows = endpoint.select(query, vars).unwrap();
        let after = entries(cache.path());
        let (path, bytes) = after
            .into_iter()
            .find(|(p, _)| !before.contains_key(p))
            .expect("the answer is cached");
        cases.push((query, vars, rows, path, bytes));
    }
    assert!(cases[0].2.len() == 60 && cases[3].2.is_empty());
    assert!(cases[2].2.iter().all(|r| r[1].is_none()));

    let mut rng = ChaCha8Rng::seed_from_u64(36);
    let (mut refused, mut accepted) = (0, 0);
    // Served, but not the endpoint's rows.
    let mut wrong = vec![];
    let n = 320;
    for case in 0..n {
        let (query, vars, rows, path, whole) = &cases[rng.random_range(0..cases.len())];
        let (what, file) = damage::damage(whole, &mut rng);
        std::fs::write(path, &file).unwrap();
        let sent = endpoint.requests();
        let got = std::panic::catch_unwind(AssertUnwindSafe(|| endpoint.select(query, vars)))
            .unwrap_or_else(|_| panic!("case {case}: {what}: reading the entry panicked"))
            .unwrap();
        if &got != rows {
            wrong.push(format!("case {case}: {what}"));
        }
        if endpoint.requests() == sent {
            accepted += 1;
        } else {
            refused += 1;
            assert_eq!(
                &std::fs::read(path).unwrap(),
                whole,
                "case {case}: {what}: not rewritten"
            );
        }
    }
    eprintln!(
        "answer cache fuzz: {refused} refused (asked again, rewritten), {accepted} accepted \
         of {n}"
    );
    assert!(
        wrong.is_empty(),
        "{} damaged entries served as other rows than the endpoint's: {:#?}",
        wrong.len(),
        &wrong[..wrong.len().min(10)]
    );
    // Every damage changes the bytes, and the seal covers every byte.
    assert_eq!((refused, accepted), (n, 0));
}

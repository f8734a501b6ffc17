//! KGLens in full: adaptive Beta sampling measured against uniform sampling on a simulated
//! model whose per-edge failure probabilities are known and cluster around some entities, and
//! the iterations driven through the real engine with a scripted backend, interrupted and
//! resumed.

use std::collections::HashSet;

use kgscope::kg::KgIndex;
use kgscope::questions::{Question, TemplateSet};
use kgscope::run::kglens::{KglensConfig, KglensRun};
use kgscope::run::ResultRecord;
use kgscope::sampling;
use kgscope::verify::{OutcomeKind, Verdict};
use rand::Rng;

const HUBS: usize = 40;
const LEAVES: usize = 25;
/// Hubs whose every fact the simulated model mostly gets wrong.
const WEAK_HUBS: [usize; 4] = [3, 11, 22, 35];
const P_WEAK: f64 = 0.9;
const P_STRONG: f64 = 0.1;

/// 40 hubs with 25 facts each about their own leaves, hubs linked in a ring.
fn simulated_kg() -> KgIndex {
    let mut ttl = String::from(
        "@prefix ex: <http://example.org/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n",
    );
    for h in 0..HUBS {
        ttl.push_str(&format!(
            "ex:hub{h} rdfs:label \"Hub {h}\" ; ex:link ex:hub{} .\n",
            (h + 1) % HUBS
        ));
        for l in 0..LEAVES {
            ttl.push_str(&format!(
                "ex:hub{h} ex:r{} ex:leaf{h}_{l} . ex:leaf{h}_{l} rdfs:label \"Leaf {h} {l}\" .\n",
                l % 5
            ));
        }
    }
    let kg = kgscope::kg::local::LocalKg::from_turtle(&ttl, "simulated").unwrap();
    KgIndex::build(&kg, &|_| {}).unwrap()
}

/// The simulated model's failure probability on a fact: high around the weak hubs.
fn p_fail(index: &KgIndex, run: &KglensRun, j: usize) -> f64 {
    let f = run.fact(j);
    let weak = |id: u32| {
        let iri = index.term(id).to_string();
        WEAK_HUBS
            .iter()
            .any(|h| iri == format!("<http://example.org/hub{h}>"))
    };
    // A ring link is about two hubs; only the facts of a weak hub's own leaves are weak.
    if weak(f[0]) && !index.term(f[2]).to_string().contains("hub") {
        P_WEAK
    } else {
        P_STRONG
    }
}

/// The simulated model's answer to a question about edge `j`: wrong with the edge's
/// probability, drawn from the question's id so both samplers see the same model.
fn answer(q: &Question, p: f64) -> ResultRecord {
    let wrong = sampling::item_rng(7, &q.id).random_bool(p);
    ResultRecord {
        question: q.clone(),
        attempts: vec![],
        verdict: Verdict::Invalid,
        outcome: if wrong {
            OutcomeKind::Incorrect
        } else {
            OutcomeKind::Correct
        },
        trace: String::new(),
        finished_at: String::new(),
    }
}

struct Found {
    /// Truly weak edges examined and answered wrongly at least once.
    weak_found: usize,
    failed_questions: usize,
}

fn tally(found: &HashSet<usize>, weak: &[bool], failed: usize) -> Found {
    Found {
        weak_found: found.iter().filter(|&&j| weak[j]).count(),
        failed_questions: failed,
    }
}

/// Spearman's rank correlation (average ranks for ties).
fn spearman(a: &[f64], b: &[f64]) -> f64 {
    fn ranks(x: &[f64]) -> Vec<f64> {
        let mut idx: Vec<usize> = (0..x.len()).collect();
        idx.sort_by(|&i, &j| x[i].total_cmp(&x[j]));
        let mut r = vec![0.0; x.len()];
        let mut i = 0;
        while i < idx.len() {
            let mut k = i;
            while k + 1 < idx.len() && x[idx[k + 1]] == x[idx[i]] {
                k += 1;
            }
            let avg = (i + k) as f64 / 2.0 + 1.0;
            for m in i..=k {
                r[idx[m]] = avg;
            }
            i = k + 1;
        }
        r
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let mean = (n + 1.0) / 2.0;
    let cov: f64 = ra
        .iter()
        .zip(&rb)
        .map(|(x, y)| (x - mean) * (y - mean))
        .sum();
    let var = |r: &[f64]| r.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
    cov / (var(&ra) * var(&rb)).sqrt()
}

#[test]
fn adaptive_sampling_finds_twice_the_failing_edges_of_uniform_sampling() {
    let index = simulated_kg();
    let templates = TemplateSet::builtin();
    let (iterations, batch) = (12u32, 32usize);
    let mut figures = vec![];
    for seed in [1u64, 2, 3] {
        let cfg = KglensConfig {
            iterations,
            batch,
            tolerance: 0.0,
            ..KglensConfig::default()
        };
        let mut run = KglensRun::new(&index, cfg, &[], &[], seed).unwrap();
        let edges = run.edges();
        assert_eq!(edges, HUBS * (LEAVES + 1));
        let p: Vec<f64> = (0..edges).map(|j| p_fail(&index, &run, j)).collect();
        let weak: Vec<bool> = p.iter().map(|&x| x > 0.5).collect();
        assert_eq!(
            weak.iter().filter(|w| **w).count(),
            WEAK_HUBS.len() * LEAVES
        );

        // Adaptive: the run itself, each batch answered by the simulated model.
        let (mut found, mut failed) = (HashSet::new(), 0);
        while !run.is_over() {
            let qs = run.batch(&index, &templates);
            assert_eq!(qs.len(), batch);
            let recs: Vec<ResultRecord> = qs
                .iter()
                .map(|q| answer(q, p[q.probe.unwrap().edge as usize]))
                .collect();
            for r in &recs {
                if r.outcome != OutcomeKind::Correct {
                    found.insert(r.question.probe.unwrap().edge as usize);
                    failed += 1;
                }
            }
            run.finish_iteration(&recs.iter().collect::<Vec<_>>());
        }
        let adaptive = tally(&found, &weak, failed);

        // Uniform: the same number of questions, edges drawn uniformly each iteration.
        let (mut found, mut failed) = (HashSet::new(), 0);
        let all: Vec<usize> = (0..edges).collect();
        for it in 1..=iterations {
            let mut rng = sampling::item_rng(seed, &format!("uniform:{it}"));
            for j in sampling::uniform(&all, batch, &mut rng) {
                let wrong = rng.random_bool(p[j]);
                if wrong {
                    found.insert(j);
                    failed += 1;
                }
            }
        }
        let uniform = tally(&found, &weak, failed);

        // How well the posterior ranks the truly weak edges first.
        let post: Vec<f64> = (0..edges)
            .map(|j| run.state.posterior.failure_mean(j))
            .collect();
        let rho = spearman(&post, &p);
        let mut order: Vec<usize> = (0..edges).collect();
        order.sort_by(|&a, &b| post[b].total_cmp(&post[a]));
        let k = WEAK_HUBS.len() * LEAVES;
        let precision_at_k = order[..k].iter().filter(|&&j| weak[j]).count() as f64 / k as f64;
        eprintln!(
            "seed {seed}: {} questions; weak edges found adaptive {} vs uniform {} ({:.1}x); \
             failed questions {} vs {}; posterior vs true failure: Spearman {rho:.3}, \
             precision@{k} {precision_at_k:.2}",
            iterations as usize * batch,
            adaptive.weak_found,
            uniform.weak_found,
            adaptive.weak_found as f64 / uniform.weak_found.max(1) as f64,
            adaptive.failed_questions,
            uniform.failed_questions
        );
        figures.push((adaptive.weak_found, uniform.weak_found, rho, precision_at_k));
    }
    for (a, u, rho, prec) in figures {
        assert!(a >= 2 * u, "adaptive found {a} weak edges, uniform {u}");
        assert!(rho > 0.3, "Spearman {rho}");
        assert!(prec > 0.5, "precision@k {prec}");
    }
}

//! Tests of the incremental aggregator: order independence, agreement with a naive batch
//! recomputation, buffering of GraphEval triples, and hand-computed totals.

use std::collections::BTreeMap;

use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::*;
use crate::metrics::grapheval::triple_metrics;
use crate::metrics::interval::wilson;
use crate::verify::judge;

#[allow(clippy::too_many_arguments)]
fn st(
    qid: &str,
    pos: &str,
    expected: usize,
    is_positive: bool,
    verdict: Verdict,
    keys: (&str, &str, &str, Option<i32>),
) -> Scored {
    Scored {
        question_id: qid.into(),
        scoring: Scoring::Triples,
        positive_id: pos.into(),
        expected_members: expected,
        is_positive,
        verdict,
        outcome: judge(verdict, is_positive),
        relation: keys.0.into(),
        head_type: keys.1.into(),
        tail_type: keys.2.into(),
        year: keys.3,
        edge_key: None,
        facets: vec![],
        compound: None,
    }
}

fn yn(
    qid: &str,
    edge: &str,
    outcome: OutcomeKind,
    keys: (&str, &str, &str, Option<i32>),
) -> Scored {
    let verdict = match outcome {
        OutcomeKind::Correct => Verdict::True,
        OutcomeKind::Incorrect => Verdict::False,
        OutcomeKind::Abstained => Verdict::Idk,
        OutcomeKind::Invalid => Verdict::Invalid,
    };
    Scored {
        question_id: qid.into(),
        scoring: Scoring::Edges,
        positive_id: qid.into(),
        expected_members: 1,
        is_positive: true,
        verdict,
        outcome,
        relation: keys.0.into(),
        head_type: keys.1.into(),
        tail_type: keys.2.into(),
        year: keys.3,
        edge_key: Some(edge.into()),
        facets: vec![],
        compound: None,
    }
}

const BIRTH61: (&str, &str, &str, Option<i32>) = ("birthPlace", "Person", "Place", Some(1961));
const BIRTH90: (&str, &str, &str, Option<i32>) = ("birthPlace", "Person", "Place", Some(1990));
const DEATH: (&str, &str, &str, Option<i32>) = ("deathPlace", "Person", "Place", None);
const DIR19: (&str, &str, &str, Option<i32>) = ("director", "Film", "Person", Some(2019));
const DIR: (&str, &str, &str, Option<i32>) = ("director", "Film", "Person", None);
const CAP: (&str, &str, &str, Option<i32>) = ("capital", "Country", "City", None);

fn fixture() -> Vec<Scored> {
    use OutcomeKind::{Abstained, Correct, Incorrect};
    use Verdict::*;
    vec![
        // P1: true, [false] → (1, 1, 1)
        st("p1", "p1", 2, true, True, BIRTH61),
        st("p1n1", "p1", 2, false, False, BIRTH61),
        // P2: idk, [idk, true] → (0, 0.5, 0); its second negative has a corrupted relation.
        st("p2", "p2", 3, true, Idk, BIRTH90),
        st("p2n1", "p2", 3, false, Idk, BIRTH90),
        st("p2n2", "p2", 3, false, True, DEATH),
        // P3: false → (0, 0, 0)
        st("p3", "p3", 2, true, False, DIR19),
        st("p3n1", "p3", 2, false, False, DIR19),
        // P4: true, no negatives → (1, 1, 1)
        st("p4", "p4", 1, true, True, DIR),
        // P5: true, [invalid, false, true] → (1/3, 2/3, 1)
        st("p5", "p5", 4, true, True, CAP),
        st("p5n1", "p5", 4, false, Invalid, CAP),
        st("p5n2", "p5", 4, false, False, CAP),
        st("p5n3", "p5", 4, false, True, CAP),
        // P6: invalid → (0, 0, 0)
        st("p6", "p6", 2, true, Invalid, CAP),
        st("p6n1", "p6", 2, false, False, CAP),
        // Yes/no edges.
        yn("e1a", "Q1|director", Correct, DIR19),
        yn("e1b", "Q1|director", Incorrect, DIR19),
        yn("e1c", "Q1|director", Correct, DIR19),
        yn("e2a", "Q2|director", Abstained, DIR),
        yn("e2b", "Q2|director", OutcomeKind::Invalid, DIR),
        yn("e3a", "Q3|capital", Correct, CAP),
        yn("e4a", "Q4|capital", Correct, CAP),
        yn("e4b", "Q4|capital", Incorrect, CAP),
    ]
}

fn run(records: &[Scored]) -> Snapshot {
    let mut a = Aggregates::new();
    records.iter().for_each(|r| a.add(r));
    a.snapshot()
}

#[test]
fn hand_computed_overall() {
    let s = run(&fixture());
    let o = &s.overall;
    // Statements C 7, I 3, A 2, Inv 2 (14); yes/no C 4, I 2, A 1, Inv 1 (8).
    assert_eq!(
        o.counts,
        Counts {
            correct: 11,
            incorrect: 5,
            abstained: 3,
            invalid: 3
        }
    );
    assert_eq!(o.n, 22);
    assert_eq!(o.accuracy.unwrap().value, 0.5);
    let g = o.grapheval.as_ref().unwrap();
    assert_eq!(g.triples, 6);
    // C = (1 + 0 + 0 + 1 + 1/3 + 0) / 6 = 7/18
    // T = (1 + 1/2 + 0 + 1 + 2/3 + 0) / 6 = 19/36
    // I = (1 + 0 + 0 + 1 + 1 + 0) / 6 = 1/2
    assert!((g.correctness.value - 7.0 / 18.0).abs() < 1e-12);
    assert!((g.truthfulness.value - 19.0 / 36.0).abs() < 1e-12);
    assert!((g.informativeness.value - 0.5).abs() < 1e-12);
    // Wilson on the sum: 3 "successes" of 6.
    let (lo, hi) = wilson(3.0, 6.0);
    assert_eq!((g.informativeness.lo, g.informativeness.hi), (lo, hi));
    // Edges: E1 2C/1I win; E2 0C/2 failures zero-sense; E3 1C win; E4 1C/1I neither.
    let e = o.yesno.as_ref().unwrap();
    assert_eq!((e.edges, e.wins, e.zero_sense), (4, 2, 1));
    assert_eq!(e.win_rate.value, 0.5);
    assert_eq!(e.zero_sense_rate.value, 0.25);
    assert_eq!(s.pending_triples, 0);
}

#[test]
fn triple_is_grouped_by_its_positive() {
    let s = run(&fixture());
    // The corrupted-relation negative counts as an outcome under deathPlace ...
    let death = &s.by_relation["deathPlace"];
    assert_eq!(death.n, 1);
    // ... but its triple is scored under birthPlace.
    assert!(death.grapheval.is_none());
    let birth = s.by_relation["birthPlace"].grapheval.as_ref().unwrap();
    // P1 (1, 1, 1) and P2 (0, 0.5, 0): T = 1.5 / 2.
    assert_eq!(birth.triples, 2);
    assert_eq!(birth.truthfulness.value, 0.75);
    assert!(s.by_year.contains_key(&1961) && !s.by_year.contains_key(&0));
    assert_eq!(
        s.by_head_tail["Person"]["Place"]
            .grapheval
            .as_ref()
            .unwrap()
            .triples,
        2
    );
}

#[test]
fn triple_waits_for_all_members() {
    let f = fixture();
    let mut a = Aggregates::new();
    a.add(&f[3]); // p2n1
    a.add(&f[2]); // p2
    assert_eq!(a.pending_triples(), 1);
    assert!(a.snapshot().overall.grapheval.is_none());
    assert_eq!(a.snapshot().overall.n, 2);
    a.add(&f[4]); // p2n2
    assert_eq!(a.pending_triples(), 0);
    let g = a.snapshot().overall.grapheval.unwrap();
    assert_eq!(g.triples, 1);
    assert_eq!(g.truthfulness.value, 0.5);
}

#[test]
fn all_idk_anchor_through_the_aggregator() {
    let recs: Vec<Scored> = (0..5)
        .flat_map(|i| {
            let p = format!("p{i}");
            vec![
                st(&p, &p, 2, true, Verdict::Idk, CAP),
                st(&format!("{p}n"), &p, 2, false, Verdict::Idk, CAP),
            ]
        })
        .collect();
    let g = run(&recs).overall.grapheval.unwrap();
    assert_eq!(
        (
            g.truthfulness.value,
            g.informativeness.value,
            g.correctness.value
        ),
        (1.0, 0.0, 0.0)
    );
}

#[test]
fn shuffled_order_gives_the_same_snapshot() {
    let records = fixture();
    let in_order = run(&records);
    for seed in 0..32 {
        let mut shuffled = records.clone();
        shuffled.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        assert_eq!(run(&shuffled), in_order, "seed {seed}");
    }
}

/// Group names as flat strings, shared by the batch recomputation and the snapshot.
fn group_names(r: &Scored) -> Vec<String> {
    let mut g = vec![
        "overall".to_string(),
        format!("rel:{}", r.relation),
        format!("head:{}", r.head_type),
        format!("tail:{}", r.tail_type),
        format!("ht:{}|{}", r.head_type, r.tail_type),
    ];
    if let Some(y) = r.year {
        g.push(format!("year:{y}"));
    }
    g
}

fn flatten(s: &Snapshot) -> BTreeMap<String, GroupStats> {
    let mut m = BTreeMap::new();
    m.insert("overall".to_string(), s.overall.clone());
    for (k, v) in &s.by_relation {
        m.insert(format!("rel:{k}"), v.clone());
    }
    for (k, v) in &s.by_head_type {
        m.insert(format!("head:{k}"), v.clone());
    }
    for (k, v) in &s.by_tail_type {
        m.insert(format!("tail:{k}"), v.clone());
    }
    for (k, v) in &s.by_year {
        m.insert(format!("year:{k}"), v.clone());
    }
    for (h, inner) in &s.by_head_tail {
        for (t, v) in inner {
            m.insert(format!("ht:{h}|{t}"), v.clone());
        }
    }
    m
}

/// Per group: the outcome counts, each triple's GraphEval metrics (correctness, truthfulness,
/// informativeness) and each yes/no edge's tally.
type Batch = BTreeMap<String, (Counts, Vec<[f64; 3]>, Vec<EdgeTally>)>;

/// Naive recomputation from the full list: no buffers, no running sums, plain f64 means.
fn batch(records: &[Scored]) -> Batch {
    let mut out: Batch = BTreeMap::new();
    for r in records {
        for g in group_names(r) {
            out.entry(g).or_default().0.add(r.outcome);
        }
    }
    for pos in records
        .iter()
        .filter(|r| r.scoring == Scoring::Triples && r.is_positive)
    {
        let negs: Vec<Verdict> = records
            .iter()
            .filter(|r| r.positive_id == pos.question_id && !r.is_positive)
            .map(|r| r.verdict)
            .collect();
        let m = triple_metrics(pos.verdict, &negs);
        for g in group_names(pos) {
            out.entry(g)
                .or_default()
                .1
                .push([m.correctness, m.truthfulness, m.informativeness]);
        }
    }
    let mut edges: BTreeMap<&str, (EdgeTally, &Scored)> = BTreeMap::new();
    for r in records.iter().filter(|r| r.scoring == Scoring::Edges) {
        let e = r.edge_key.as_deref().unwrap();
        edges
            .entry(e)
            .or_insert((EdgeTally::default(), r))
            .0
            .record(r.outcome);
    }
    for (tally, first) in edges.values() {
        for g in group_names(first) {
            out.entry(g).or_default().2.push(*tally);
        }
    }
    out
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-12, "{what}: {a} != {b}");
}

#[test]
fn snapshot_equals_batch_recomputation() {
    let records = fixture();
    let snap = flatten(&run(&records));
    let want = batch(&records);
    assert_eq!(
        snap.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>()
    );
    for (name, (counts, triples, tallies)) in &want {
        let got = &snap[name];
        assert_eq!(got.counts, *counts, "{name}");
        let n = counts.total() as f64;
        close(got.accuracy.unwrap().value, counts.correct as f64 / n, name);
        close(
            got.abstain_rate.unwrap().value,
            counts.abstained as f64 / n,
            name,
        );
        close(
            got.invalid_rate.unwrap().value,
            counts.invalid as f64 / n,
            name,
        );
        assert_eq!(got.f1, counts.f1(), "{name}");
        match &got.grapheval {
            None => assert!(triples.is_empty(), "{name}"),
            Some(g) => {
                assert_eq!(g.triples as usize, triples.len(), "{name}");
                let k = triples.len() as f64;
                for (i, rate) in [g.correctness, g.truthfulness, g.informativeness]
                    .iter()
                    .enumerate()
                {
                    let sum: f64 = triples.iter().map(|t| t[i]).sum();
                    close(rate.value, sum / k, name);
                    let (lo, hi) = wilson(sum, k);
                    close(rate.lo, lo, name);
                    close(rate.hi, hi, name);
                }
            }
        }
        let ec = EdgeCounts::from_tallies(tallies);
        match &got.yesno {
            None => assert_eq!(ec.examined, 0, "{name}"),
            Some(e) => {
                assert_eq!(
                    (e.edges, e.wins, e.zero_sense),
                    (ec.examined, ec.wins, ec.zero_sense)
                );
                close(e.win_rate.value, ec.win_rate().unwrap(), name);
                close(e.zero_sense_rate.value, ec.zero_sense_rate().unwrap(), name);
            }
        }
    }
}

#[test]
fn snapshot_serialises_to_plain_json() {
    let v = serde_json::to_value(run(&fixture())).unwrap();
    assert_eq!(v["overall"]["n"], 22);
    assert_eq!(v["by_year"]["1961"]["counts"]["correct"], 2);
    assert!(v["by_relation"]["capital"]["yesno"]["win_rate"]["lo"].is_number());
    assert!(v["by_relation"]["deathPlace"]["grapheval"].is_null());
}

#[test]
fn combining_disjoint_groups_gives_their_union() {
    // Relations partition every outcome, so combining them gives the overall group back.
    let s = run(&fixture());
    let all = GroupStats::combine(s.by_relation.values()).unwrap();
    assert_eq!(all.counts, s.overall.counts);
    assert_eq!(all.n, s.overall.n);
    let (a, b) = (all.grapheval.unwrap(), s.overall.grapheval.clone().unwrap());
    assert_eq!(a.triples, b.triples);
    for (x, y) in [
        (a.correctness, b.correctness),
        (a.truthfulness, b.truthfulness),
        (a.informativeness, b.informativeness),
    ] {
        assert!((x.value - y.value).abs() < 1e-12, "{x:?} != {y:?}");
        assert!((x.lo - y.lo).abs() < 1e-12 && (x.hi - y.hi).abs() < 1e-12);
    }
    assert_eq!(all.yesno, s.overall.yesno);
    assert_eq!(all.accuracy, s.overall.accuracy);
    assert_eq!(GroupStats::combine([]), None);
}

//! Incremental group-by over scored outcomes, for the live view and the reports.
//!
//! Outcomes arrive one at a time, in any order (concurrency, resume). Each [`Aggregates::add`]
//! is O(1) amortised: it updates running sums for the overall group and for the record's
//! relation, head type, tail type, year and head × tail type, and never rescans earlier records.
//! [`Aggregates::snapshot`] turns the sums into plain serialisable numbers with intervals.
//!
//! GraphEval scores a positive triple only once the positive and all its negatives are known,
//! and they arrive as separate outcomes: they are buffered per positive id until
//! `expected_members` (1 + number of negatives) are present, then the triple's three scores are
//! folded into the sums and the buffer dropped.
//!
//! KGLens' win / zero-sense rates are per edge (subject, predicate, object): each outcome updates
//! its edge's tally, and each group keeps counts of examined, winning and zero-sense edges,
//! adjusted by the edge's change of status (remove its old status, add its new one).

use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

use serde::{Deserialize, Serialize};

use super::counts::Counts;
use super::grapheval::{triple_fractions, Fraction, TripleFractions};
use super::halu::{HaluAcc, HaluScore, HaluStats};
use super::interval::Rate;
use super::kglens::{EdgeCounts, EdgeTally};
pub use crate::core::metric::Scoring;
use crate::verify::{OutcomeKind, Verdict};

/// One judged answer, carrying the keys it is grouped by.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scored {
    pub question_id: String,
    pub scoring: Scoring,
    /// The positive question this belongs to; the positive's own id for a positive.
    pub positive_id: String,
    /// 1 + number of negatives of the positive (statements); 1 for yes/no.
    pub expected_members: usize,
    pub is_positive: bool,
    pub verdict: Verdict,
    pub outcome: OutcomeKind,
    pub relation: String,
    pub head_type: String,
    pub tail_type: String,
    pub year: Option<i32>,
    /// The true fact's `(subject, predicate, object)` as a string, for KGLens questions.
    pub edge_key: Option<String>,
    /// A method's own groupings (KG-FPQ: the edit, the hop count, the question format), each
    /// `(facet, value)`; outcome counts are kept per facet value and per pair of facets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facets: Vec<(String, String)>,
    /// A KGHaluBench answer's points and facts ([`Scoring::Compound`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compound: Option<HaluScore>,
}

/// Everything the snapshot shows for one group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupStats {
    /// Outcomes in the group.
    pub n: u64,
    pub counts: Counts,
    pub accuracy: Option<Rate>,
    pub abstain_rate: Option<Rate>,
    pub invalid_rate: Option<Rate>,
    pub precision: Option<f64>,
    pub recall: Option<f64>,
    pub f1: Option<f64>,
    /// Present once at least one positive triple of the group is complete.
    pub grapheval: Option<GraphEvalStats>,
    /// Present once at least one yes/no edge of the group was examined.
    pub yesno: Option<EdgeStats>,
    /// KGHaluBench's metrics, present once the group has a compound answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub halu: Option<HaluStats>,
}

/// Means of GraphEval's per-triple scores over the group's complete triples.
///
/// The intervals are Wilson intervals computed on the sum of scores as if it were a count of
/// successes. That is exact when every score is 0 or 1 (no negatives, or one negative each) and
/// an approximation otherwise: per-triple scores such as 0.5 have less variance than a 0/1
/// outcome, so the interval is, if anything, conservative.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphEvalStats {
    pub triples: u64,
    pub correctness: Rate,
    pub truthfulness: Rate,
    pub informativeness: Rate,
}

/// KGLens edge rates over the group's examined edges.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EdgeStats {
    pub edges: u64,
    pub wins: u64,
    pub zero_sense: u64,
    pub win_rate: Rate,
    pub zero_sense_rate: Rate,
}

/// A point-in-time view of every group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub overall: GroupStats,
    pub by_relation: BTreeMap<String, GroupStats>,
    pub by_head_type: BTreeMap<String, GroupStats>,
    pub by_tail_type: BTreeMap<String, GroupStats>,
    /// Only outcomes with a known year.
    pub by_year: BTreeMap<i32, GroupStats>,
    /// head type → tail type → stats.
    pub by_head_tail: BTreeMap<String, BTreeMap<String, GroupStats>>,
    /// Positive triples still waiting for some of their members.
    pub pending_triples: usize,
    /// facet → value → stats (outcome counts only), for methods with facets.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_facet: BTreeMap<String, BTreeMap<String, GroupStats>>,
    /// "a × b" → value of a → value of b → stats, for every pair of a record's facets in the
    /// order the method gives them (KG-FPQ's edit × hop and edit × relation heatmaps).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub by_facet_pair: BTreeMap<String, BTreeMap<String, BTreeMap<String, GroupStats>>>,
}

/// Running sums, the state behind [`Snapshot`].
#[derive(Debug, Clone, Default)]
pub struct Aggregates {
    groups: Groups,
    pending: HashMap<String, PendingTriple>,
    edges: HashMap<String, EdgeState>,
    facets: HashMap<String, HashMap<String, GroupAcc>>,
    facet_pairs: HashMap<String, HashMap<String, HashMap<String, GroupAcc>>>,
}

impl Aggregates {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one outcome. Each question id must be added once (the run log guarantees this on
    /// resume); a duplicate would be counted twice.
    pub fn add(&mut self, rec: &Scored) {
        let keys = KeysRef::of(rec);
        match &rec.compound {
            // A compound answer asks about three relations: each relation's group counts its
            // fact, every other group the whole answer.
            Some(h) => {
                self.groups.each_but_relation(keys, |g| {
                    g.counts.add(rec.outcome);
                    g.halu.add_answer(h);
                });
                for (relation, stated) in &h.facts {
                    let g = slot(&mut self.groups.by_relation, relation.as_str());
                    g.counts.add(fact_outcome(h, *stated));
                    g.halu.add_fact(h, *stated);
                }
            }
            None => self.groups.each(keys, |g| g.counts.add(rec.outcome)),
        }
        let count = |g: &mut GroupAcc| {
            g.counts.add(rec.outcome);
            if let Some(h) = &rec.compound {
                g.halu.add_answer(h);
            }
        };
        for (i, (facet, value)) in rec.facets.iter().enumerate() {
            let by_value = self.facets.entry(facet.clone()).or_default();
            count(slot(by_value, value.as_str()));
            for (other, other_value) in &rec.facets[i + 1..] {
                let pair = self
                    .facet_pairs
                    .entry(format!("{facet} × {other}"))
                    .or_default();
                let row = pair.entry(value.clone()).or_default();
                count(slot(row, other_value.as_str()));
            }
        }
        match rec.scoring {
            Scoring::Triples => self.add_statement(rec),
            Scoring::Edges => {
                if let Some(edge) = &rec.edge_key {
                    self.add_edge(edge, rec);
                }
            }
            Scoring::Outcomes | Scoring::Compound => {}
        }
    }

    /// Positive triples still waiting for members.
    pub fn pending_triples(&self) -> usize {
        self.pending.len()
    }

    pub fn snapshot(&self) -> Snapshot {
        let conv = |m: &HashMap<String, GroupAcc>| -> BTreeMap<String, GroupStats> {
            m.iter().map(|(k, g)| (k.clone(), g.stats())).collect()
        };
        Snapshot {
            overall: self.groups.overall.stats(),
            by_relation: conv(&self.groups.by_relation),
            by_head_type: conv(&self.groups.by_head_type),
            by_tail_type: conv(&self.groups.by_tail_type),
            by_year: self
                .groups
                .by_year
                .iter()
                .map(|(y, g)| (*y, g.stats()))
                .collect(),
            by_head_tail: self
                .groups
                .by_head_tail
                .iter()
                .map(|(h, inner)| (h.clone(), conv(inner)))
                .collect(),
            pending_triples: self.pending.len(),
            by_facet: self
                .facets
                .iter()
                .map(|(f, values)| (f.clone(), conv(values)))
                .collect(),
            by_facet_pair: self
                .facet_pairs
                .iter()
                .map(|(pair, rows)| {
                    let rows = rows
                        .iter()
                        .map(|(r, cols)| (r.clone(), conv(cols)))
                        .collect();
                    (pair.clone(), rows)
                })
                .collect(),
        }
    }

    fn add_statement(&mut self, rec: &Scored) {
        let p = self.pending.entry(rec.positive_id.clone()).or_default();
        // Records should agree; the largest declared size wins so a triple is never scored
        // early on an inconsistent record.
        p.expected = p.expected.max(rec.expected_members.max(1));
        if rec.is_positive {
            p.positive = Some((rec.verdict, GroupKeys::of(rec)));
        } else {
            p.negatives.push(rec.verdict);
        }
        if p.positive.is_none() || 1 + p.negatives.len() < p.expected {
            return;
        }
        if let Some(p) = self.pending.remove(&rec.positive_id) {
            if let Some((verdict, keys)) = p.positive {
                let scores = triple_fractions(verdict, &p.negatives);
                // A triple is grouped by its positive's keys: a negative with a corrupted
                // relation or head still belongs to the fact it was made from.
                self.groups.each(keys.as_ref(), |g| g.add_triple(&scores));
            }
        }
    }

    fn add_edge(&mut self, edge: &str, rec: &Scored) {
        if !self.edges.contains_key(edge) {
            // An edge is grouped by the keys of its first record (they are the same for every
            // question about one (subject, predicate, object) when the producer is consistent).
            let state = EdgeState {
                tally: EdgeTally::default(),
                keys: GroupKeys::of(rec),
            };
            self.edges.insert(edge.to_string(), state);
        }
        let Some(state) = self.edges.get_mut(edge) else {
            return;
        };
        let old = state.tally;
        state.tally.record(rec.outcome);
        let new = state.tally;
        self.groups
            .each(state.keys.as_ref(), |g| g.edge_changed(old, new));
    }
}

/// Group keys borrowed from a record.
#[derive(Clone, Copy)]
struct KeysRef<'a> {
    relation: &'a str,
    head_type: &'a str,
    tail_type: &'a str,
    year: Option<i32>,
}

impl<'a> KeysRef<'a> {
    fn of(rec: &'a Scored) -> Self {
        KeysRef {
            relation: &rec.relation,
            head_type: &rec.head_type,
            tail_type: &rec.tail_type,
            year: rec.year,
        }
    }
}

/// Group keys kept while a triple or edge is open.
#[derive(Debug, Clone)]
struct GroupKeys {
    relation: String,
    head_type: String,
    tail_type: String,
    year: Option<i32>,
}

impl GroupKeys {
    fn of(rec: &Scored) -> Self {
        GroupKeys {
            relation: rec.relation.clone(),
            head_type: rec.head_type.clone(),
            tail_type: rec.tail_type.clone(),
            year: rec.year,
        }
    }

    fn as_ref(&self) -> KeysRef<'_> {
        KeysRef {
            relation: &self.relation,
            head_type: &self.head_type,
            tail_type: &self.tail_type,
            year: self.year,
        }
    }
}

#[derive(Debug, Clone, Default)]
struct PendingTriple {
    expected: usize,
    positive: Option<(Verdict, GroupKeys)>,
    negatives: Vec<Verdict>,
}

#[derive(Debug, Clone)]
struct EdgeState {
    tally: EdgeTally,
    keys: GroupKeys,
}

#[derive(Debug, Clone, Default)]
struct Groups {
    overall: GroupAcc,
    by_relation: HashMap<String, GroupAcc>,
    by_head_type: HashMap<String, GroupAcc>,
    by_tail_type: HashMap<String, GroupAcc>,
    by_year: HashMap<i32, GroupAcc>,
    by_head_tail: HashMap<String, HashMap<String, GroupAcc>>,
}

/// The outcome one fact of a compound answer counts as in its relation's group.
fn fact_outcome(h: &HaluScore, stated: bool) -> OutcomeKind {
    match h.judged {
        crate::core::compound::Judged::Abstained => OutcomeKind::Abstained,
        _ if stated => OutcomeKind::Correct,
        _ => OutcomeKind::Incorrect,
    }
}

impl Groups {
    /// Applies `f` to every group the keys belong to.
    fn each(&mut self, k: KeysRef<'_>, mut f: impl FnMut(&mut GroupAcc)) {
        f(slot(&mut self.by_relation, k.relation));
        self.each_but_relation(k, f);
    }

    /// Applies `f` to every group the keys belong to but the relation's.
    fn each_but_relation(&mut self, k: KeysRef<'_>, mut f: impl FnMut(&mut GroupAcc)) {
        f(&mut self.overall);
        f(slot(&mut self.by_head_type, k.head_type));
        f(slot(&mut self.by_tail_type, k.tail_type));
        if let Some(y) = k.year {
            f(slot(&mut self.by_year, &y));
        }
        if !self.by_head_tail.contains_key(k.head_type) {
            self.by_head_tail
                .insert(k.head_type.to_string(), HashMap::new());
        }
        if let Some(inner) = self.by_head_tail.get_mut(k.head_type) {
            f(slot(inner, k.tail_type));
        }
    }
}

/// The accumulator of `key`, created empty on first use; clones the key only then.
fn slot<'m, K, Q>(map: &'m mut HashMap<K, GroupAcc>, key: &Q) -> &'m mut GroupAcc
where
    K: Borrow<Q> + Hash + Eq,
    Q: ToOwned<Owned = K> + Hash + Eq + ?Sized,
{
    if !map.contains_key(key) {
        map.insert(key.to_owned(), GroupAcc::default());
    }
    map.get_mut(key).expect("inserted above")
}

/// Exact sum of fractions, kept as numerator sums per denominator: the total cannot depend on
/// the order scores arrive in (floating-point sums would, in the last bits), so a resumed or
/// reordered run gives the identical snapshot. Denominators are 1 + the few negative counts in
/// use, so the map stays tiny.
#[derive(Debug, Clone, Default)]
struct FractionSum {
    by_den: BTreeMap<u64, u64>,
}

impl FractionSum {
    fn add(&mut self, f: Fraction) {
        *self.by_den.entry(f.den).or_insert(0) += f.num;
    }

    fn value(&self) -> f64 {
        self.by_den
            .iter()
            .map(|(den, num)| *num as f64 / *den as f64)
            .sum()
    }
}

#[derive(Debug, Clone, Default)]
struct GroupAcc {
    counts: Counts,
    triples: u64,
    correctness: FractionSum,
    truthfulness: FractionSum,
    informativeness: FractionSum,
    edges: EdgeCounts,
    halu: HaluAcc,
}

impl GroupAcc {
    fn add_triple(&mut self, s: &TripleFractions) {
        self.triples += 1;
        self.correctness.add(s.correctness);
        self.truthfulness.add(s.truthfulness);
        self.informativeness.add(s.informativeness);
    }

    fn edge_changed(&mut self, old: EdgeTally, new: EdgeTally) {
        if old.examined() {
            self.edges.examined -= 1;
            self.edges.wins -= old.is_win() as u64;
            self.edges.zero_sense -= old.is_zero_sense() as u64;
        }
        if new.examined() {
            self.edges.examined += 1;
            self.edges.wins += new.is_win() as u64;
            self.edges.zero_sense += new.is_zero_sense() as u64;
        }
    }

    fn stats(&self) -> GroupStats {
        let sums = [
            self.correctness.value(),
            self.truthfulness.value(),
            self.informativeness.value(),
        ];
        stats_of(&self.counts, self.triples, sums, &self.edges, &self.halu)
    }
}

impl GroupStats {
    /// The stats of the union of disjoint groups (years binned into decades, say), exactly as
    /// if their outcomes had been grouped together: counts, triples and edges add up, and a
    /// GraphEval mean times its triples gives back the group's sum of scores. `None` for no
    /// groups.
    pub fn combine<'a>(parts: impl IntoIterator<Item = &'a GroupStats>) -> Option<GroupStats> {
        let mut counts = Counts::default();
        let (mut triples, mut sums) = (0u64, [0.0f64; 3]);
        let mut edges = EdgeCounts::default();
        let mut halu = HaluAcc::default();
        let mut any = false;
        for g in parts {
            any = true;
            counts.merge(&g.counts);
            if let Some(ge) = &g.grapheval {
                triples += ge.triples;
                let t = ge.triples as f64;
                sums[0] += ge.correctness.value * t;
                sums[1] += ge.truthfulness.value * t;
                sums[2] += ge.informativeness.value * t;
            }
            if let Some(y) = &g.yesno {
                edges.examined += y.edges;
                edges.wins += y.wins;
                edges.zero_sense += y.zero_sense;
            }
            if let Some(h) = &g.halu {
                halu.merge(&h.sums);
            }
        }
        any.then(|| stats_of(&counts, triples, sums, &edges, &halu))
    }
}

/// A group's stats from its sums: outcome counts, complete triples with their summed
/// correctness / truthfulness / informativeness, examined edges and compound answers.
fn stats_of(
    c: &Counts,
    triples: u64,
    sums: [f64; 3],
    e: &EdgeCounts,
    halu: &HaluAcc,
) -> GroupStats {
    let n = c.total();
    let t = triples as f64;
    let grapheval = (triples > 0).then(|| GraphEvalStats {
        triples,
        correctness: rate(sums[0], t),
        truthfulness: rate(sums[1], t),
        informativeness: rate(sums[2], t),
    });
    let yesno = (e.examined > 0).then(|| EdgeStats {
        edges: e.examined,
        wins: e.wins,
        zero_sense: e.zero_sense,
        win_rate: rate(e.wins as f64, e.examined as f64),
        zero_sense_rate: rate(e.zero_sense as f64, e.examined as f64),
    });
    GroupStats {
        n,
        counts: *c,
        accuracy: Rate::new(c.correct as f64, n as f64),
        abstain_rate: Rate::new(c.abstained as f64, n as f64),
        invalid_rate: Rate::new(c.invalid as f64, n as f64),
        precision: c.precision(),
        recall: c.recall(),
        f1: c.f1(),
        grapheval,
        yesno,
        halu: halu.stats(),
    }
}

/// Callers only ask for a rate over a non-empty denominator.
fn rate(successes: f64, n: f64) -> Rate {
    Rate::new(successes, n).unwrap_or(Rate {
        value: 0.0,
        lo: 0.0,
        hi: 1.0,
    })
}

#[cfg(test)]
#[path = "aggregate_tests.rs"]
mod tests;

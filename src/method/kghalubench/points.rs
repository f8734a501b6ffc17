//! The points a KGHaluBench answer earns: 1 per asked fact it states, none in a breadth
//! hallucination, nothing counted for an abstention; per record for the run's metrics, and
//! summed per (entity type, relation) over earlier runs for the question difficulty.

use std::collections::BTreeMap;

use crate::core::compound::Judged;
use crate::metrics::halu::HaluScore;
use crate::record::ResultRecord;

/// A KGHaluBench record's points and facts, from its first attempt's chain.
pub fn score(r: &ResultRecord) -> Option<HaluScore> {
    let q = &r.question;
    let (facts, Some(meta)) = (q.gold.facts(), &q.compound) else {
        return None;
    };
    let check = r.attempts.first()?.compound.as_ref()?;
    let judged = check.judged;
    let stated = |relation: &str| {
        check
            .facts
            .iter()
            .any(|f| f.relation == relation && f.is_stated())
    };
    Some(HaluScore {
        judged,
        difficulty: if judged == Judged::Breadth {
            meta.breadth_difficulty
        } else {
            meta.difficulty
        },
        reference_difficulty: meta.reference_difficulty,
        facts: facts
            .iter()
            .map(|f| (f.relation.clone(), stated(&f.relation)))
            .collect(),
    })
}

/// Sums of the points each (type, relation IRI) got per fact in recorded answers.
#[derive(Debug, Default)]
pub struct ScoreSums(BTreeMap<(String, String), (f64, u64)>);

impl ScoreSums {
    /// One answer's facts: 1 point for a fact stated, 0 for one not stated or asked in a breadth
    /// hallucination; an abstention says nothing of the relations and is left out.
    pub fn add(&mut self, r: &ResultRecord) {
        let q = &r.question;
        let (facts, Some(meta), Some(check)) = (
            q.gold.facts(),
            &q.compound,
            r.attempts.first().and_then(|a| a.compound.as_ref()),
        ) else {
            return;
        };
        if check.judged == Judged::Abstained {
            return;
        }
        for f in facts {
            let stated = check
                .facts
                .iter()
                .any(|c| c.relation == f.relation && c.is_stated());
            let slot = self
                .0
                .entry((meta.entity_type.clone(), f.predicate.clone()))
                .or_default();
            slot.0 += f64::from(u8::from(stated));
            slot.1 += 1;
        }
    }

    /// type → relation IRI → mean points per fact.
    pub fn means(&self) -> BTreeMap<String, BTreeMap<String, f64>> {
        let mut out: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
        for ((t, p), (sum, n)) in &self.0 {
            out.entry(t.clone())
                .or_default()
                .insert(p.clone(), sum / *n as f64);
        }
        out
    }
}

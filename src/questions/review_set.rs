//! A reviewed question set (`tests/data/reviewed/`): questions read by hand and labelled
//! accepted or rejected with a cause code, and how well the audit's flags agree with it.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;

use serde::Deserialize;

use super::audit::Flagged;

/// One hand verdict on a question.
#[derive(Debug, Clone, Deserialize)]
pub struct Verdict {
    pub id: String,
    /// `accept` or `reject`.
    pub verdict: String,
    /// The reviewers' cause code for a rejection (ungrammatical, gold_wrong, true_false_item,
    /// ambiguous, bad_distractor, giveaway, other).
    #[serde(default)]
    pub cause: Option<String>,
}

impl Verdict {
    pub fn rejected(&self) -> bool {
        self.verdict == "reject"
    }
}

/// The verdicts of `files` (JSON Lines), by question id; a later file's verdict on an id wins.
pub fn read_verdicts(files: &[PathBuf]) -> anyhow::Result<HashMap<String, Verdict>> {
    let mut out = HashMap::new();
    for f in files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| anyhow::anyhow!("reading the verdicts {}: {e}", f.display()))?;
        for (i, line) in text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
        {
            let v: Verdict = serde_json::from_str(line).map_err(|e| {
                anyhow::anyhow!(
                    "{}:{}: not a verdict line (id, verdict, cause): {e}",
                    f.display(),
                    i + 1
                )
            })?;
            anyhow::ensure!(
                v.verdict == "accept" || v.verdict == "reject",
                "{}:{}: verdict must be accept or reject, not {:?}",
                f.display(),
                i + 1,
                v.verdict
            );
            out.insert(v.id.clone(), v);
        }
    }
    Ok(out)
}

/// How the flags compare with the verdicts, over the questions both know.
#[derive(Debug, Default, PartialEq)]
pub struct Agreement {
    pub rejected: usize,
    pub rejected_flagged: usize,
    pub accepted: usize,
    pub accepted_flagged: usize,
    /// Per cause code: rejected questions, and those flagged.
    pub by_cause: BTreeMap<String, (usize, usize)>,
}

/// The flags of an audit against hand verdicts (questions without a verdict are not counted).
pub fn measure(verdicts: &HashMap<String, Verdict>, flagged: &[Flagged]) -> Agreement {
    let flagged: HashSet<&str> = flagged.iter().map(|f| f.id.as_str()).collect();
    let mut m = Agreement::default();
    for v in verdicts.values() {
        let hit = flagged.contains(v.id.as_str());
        if v.rejected() {
            m.rejected += 1;
            m.rejected_flagged += usize::from(hit);
            let c = m
                .by_cause
                .entry(v.cause.clone().unwrap_or_else(|| "other".into()))
                .or_default();
            c.0 += 1;
            c.1 += usize::from(hit);
        } else {
            m.accepted += 1;
            m.accepted_flagged += usize::from(hit);
        }
    }
    m
}

fn pct(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

impl Agreement {
    /// Share of rejected questions flagged, in percent.
    pub fn recall(&self) -> f64 {
        pct(self.rejected_flagged, self.rejected)
    }

    /// Share of accepted questions flagged, in percent.
    pub fn false_alarms(&self) -> f64 {
        pct(self.accepted_flagged, self.accepted)
    }

    pub fn render(&self) -> String {
        let mut out = format!(
            "against {} reviewed questions: flags {} of {} rejected (recall {:.1}%) and {} of {} accepted (false alarms {:.1}%)",
            self.rejected + self.accepted,
            self.rejected_flagged,
            self.rejected,
            self.recall(),
            self.accepted_flagged,
            self.accepted,
            self.false_alarms()
        );
        for (cause, (n, hit)) in &self.by_cause {
            out.push_str(&format!("\n    {cause:<16} {hit} of {n} flagged"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recall_counts_rejected_flagged_and_false_alarms_accepted_flagged() {
        let v = |id: &str, verdict: &str, cause: Option<&str>| Verdict {
            id: id.into(),
            verdict: verdict.into(),
            cause: cause.map(Into::into),
        };
        let verdicts: HashMap<String, Verdict> = [
            v("a", "reject", Some("giveaway")),
            v("b", "reject", Some("ungrammatical")),
            v("c", "accept", None),
            v("d", "accept", None),
        ]
        .into_iter()
        .map(|x| (x.id.clone(), x))
        .collect();
        let flagged = |ids: &[&str]| -> Vec<Flagged> {
            ids.iter()
                .map(|i| Flagged {
                    id: i.to_string(),
                    why: vec!["x"],
                })
                .collect()
        };
        let m = measure(&verdicts, &flagged(&["a", "c", "zz"]));
        assert_eq!((m.rejected_flagged, m.rejected), (1, 2));
        assert_eq!((m.accepted_flagged, m.accepted), (1, 2));
        assert_eq!(m.recall(), 50.0);
        assert_eq!(m.by_cause["giveaway"], (1, 1));
        assert_eq!(m.by_cause["ungrammatical"], (1, 0));
        assert!(m.render().contains("recall 50.0%"));
    }
}

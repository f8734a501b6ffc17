//! GraphEval (Liu et al., 2024): a true statement per sampled fact, followed by its negatives.

use crate::questions::{negatives, GenerateOptions, Question, Renderer, Task};
use crate::sampling;

/// Draws after the first, to replace a negative that repeats another positive's.
const SPARE_DRAWS: usize = 3;

/// Returns the questions and the number of negatives that could not be made.
pub fn generate(
    r: &Renderer<'_>,
    candidates: &[usize],
    opts: &GenerateOptions,
) -> (Vec<Question>, usize) {
    let per_positive = 1 + opts.negatives;
    // `limit` counts questions; a positive always comes with all its negatives.
    let positives = (opts.limit / per_positive).max(1);
    let picked =
        crate::questions::draw_facts(r.index, candidates, positives, opts.sampling, opts.seed);
    // The corrupter indexes every fact's signature and label: only worth it when negatives
    // are wanted.
    let corrupter = (opts.negatives > 0).then(|| negatives::Corrupter::new(r, opts.negatives_from));
    let mut out = Vec::with_capacity(picked.len() * per_positive);
    let mut missing = 0;
    let mut made = std::collections::HashSet::new();
    for fi in picked {
        let fact = r.index.facts()[fi];
        let mut pos = r.base(&fact, Task::Statement);
        pos.id = r.id(&fact, Task::Statement, "statement", "none");
        pos.prompt = r.statement(&fact);
        // Two facts of a subject and relation may read alike ("Fr" and "Fr." as a currency's
        // symbols): only the first in the KG's order is asked, whichever batch draws it.
        let reads_like_earlier = r.index.facts()[..fi]
            .iter()
            .rev()
            .take_while(|g| g[0] == fact[0] && g[1] == fact[1])
            .any(|g| r.statement(g) == pos.prompt);
        if reads_like_earlier {
            continue;
        }
        made.insert(pos.prompt.clone());
        pos.gold = crate::questions::Gold::yes();
        pos.positive_id = pos.id.clone();
        // Negatives depend only on the seed and this fact, not on what was drawn before.
        let mut rng = sampling::item_rng(opts.seed, &pos.id);
        // A negative another positive made already would be the same question twice: it is
        // drawn again (the draw goes on from where it stopped), a few times at most.
        let mut negs = Vec::new();
        if let Some(c) = corrupter.as_ref() {
            for _ in 0..=SPARE_DRAWS {
                let wanted = opts.negatives - negs.len();
                if wanted == 0 {
                    break;
                }
                let drawn = c.corrupt(&fact, wanted, &mut rng);
                if drawn.is_empty() {
                    break;
                }
                // By text: two triples may read alike (two entities of one name).
                for (nf, how) in drawn {
                    let text = r.statement(&nf);
                    if made.insert(text.clone()) {
                        negs.push((nf, how, text));
                    }
                }
            }
        }
        missing += opts.negatives - negs.len();
        pos.group_size = 1 + negs.len();
        let group_size = pos.group_size;
        let positive_id = pos.id.clone();
        let keys = (
            pos.relation.clone(),
            pos.head_type.clone(),
            pos.tail_type.clone(),
            pos.year,
        );
        out.push(pos);
        for (nf, how, text) in negs {
            let mut q = r.base(&nf, Task::Statement);
            // The positive's id is part of the edit: two positives may corrupt to the same triple.
            let edit = format!(
                "{}:{positive_id}",
                serde_json::to_value(how).unwrap().as_str().unwrap()
            );
            q.id = r.id(&nf, Task::Statement, "statement", &edit);
            q.prompt = text;
            q.gold = crate::questions::Gold::no();
            q.negative = Some(how);
            // A negative is scored as part of its positive's triple (GraphEval scores per triple), so it is
            // grouped under the positive's relation, types and year.
            q.relation.clone_from(&keys.0);
            q.head_type.clone_from(&keys.1);
            q.tail_type.clone_from(&keys.2);
            q.year = keys.3;
            q.positive_id = positive_id.clone();
            q.group_size = group_size;
            out.push(q);
        }
    }
    (out, missing)
}

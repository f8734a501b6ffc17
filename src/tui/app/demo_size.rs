//! How big a demo round is, decided from the KG: which relations it marks and how many
//! questions it asks, so that the heatmap it shows has cells with enough answers to rank
//! (a demo of "?" cells ranks nothing), in a time an audience will wait.

use crate::kg::KgIndex;
use crate::questions::{GenerateOptions, Task};
use crate::report::grid::min_rankable_n;

/// The most questions a round asks: about two minutes at ~1 question/s (a small model on a
/// loaded laptop), ten seconds at the bundled model's usual ~13/s. Four relations of twelve
/// statements and their negatives (96 questions) fit; more would keep an audience waiting.
pub const MAX_ROUND_QUESTIONS: usize = 120;

/// A round's relations (indices into the KG's relations, which are also the first entries of
/// Explore) and its question limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundSize {
    pub relations: Vec<usize>,
    pub limit: usize,
}

/// Questions made per drawn fact: the fact and its negatives for a method that takes them
/// (a statement triple is rated once all of them are answered), one otherwise. Sampling by
/// relation shares facts, not questions, between the marked relations.
pub fn questions_per_fact(task: Task) -> usize {
    if crate::method::of(task).takes_negatives() {
        1 + crate::questions::DEFAULT_NEGATIVES
    } else {
        1
    }
}

/// The facts of relation `r` (its index) a `task` question can be made from.
fn askable_facts(index: &KgIndex, task: Task, r: usize) -> usize {
    let Some(rel) = index.relations().get(r) else {
        return 0;
    };
    let opts = GenerateOptions {
        task,
        relations: vec![crate::kg::term_str(index.term(rel.predicate)).to_string()],
        ..Default::default()
    };
    crate::questions::select_facts(index, &opts).map_or(0, |s| s.facts.len())
}

/// Round `round`'s size for `want` relations of `task`. Each marked relation gets
/// [`min_rankable_n`] facts (12: any 12 answers give an interval narrow enough to rank), so
/// the limit is relations × 12 × questions per fact; sampling by relation gives each relation
/// that share when it has that many facts. Only such relations are marked (a relation of 5
/// facts is one "?" cell whatever the limit), the next ones each round; as many as fit in
/// [`MAX_ROUND_QUESTIONS`], at least one. A KG where no relation has enough gets its largest
/// ones: their cells will not rank, but the demo still shows what there is.
pub fn round_size(index: &KgIndex, task: Task, want: usize, round: usize) -> RoundSize {
    let need = min_rankable_n() as usize;
    let per_fact = questions_per_fact(task);
    let n = index.relations().len();
    // The fact count is an upper bound on the askable facts: only those that might fill a
    // cell are generated for.
    let sizes: Vec<(usize, usize)> = (0..n)
        .filter(|&r| index.relations()[r].count >= need)
        .map(|r| (r, askable_facts(index, task, r)))
        .collect();
    let mut fit: Vec<usize> = sizes
        .iter()
        .filter(|(_, a)| *a >= need)
        .map(|(r, _)| *r)
        .collect();
    if fit.is_empty() {
        let mut largest: Vec<usize> = (0..n).collect();
        largest.sort_by_key(|&r| std::cmp::Reverse(index.relations()[r].count));
        fit = largest;
    }
    if fit.is_empty() {
        return RoundSize {
            relations: vec![],
            limit: 0,
        };
    }
    let in_time = (MAX_ROUND_QUESTIONS / (need * per_fact)).max(1);
    let take = want.max(1).min(fit.len()).min(in_time);
    let first = (round * take) % fit.len();
    RoundSize {
        relations: (0..take).map(|k| fit[(first + k) % fit.len()]).collect(),
        limit: take * need * per_fact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(name: &str) -> KgIndex {
        crate::tui::kg_load::load_index(&format!("sample:{name}")).unwrap()
    }

    #[test]
    fn each_marked_relation_can_fill_a_rankable_cell_within_the_time() {
        for kg in ["countries", "elements", "nba"] {
            let index = sample(kg);
            let size = round_size(&index, Task::Statement, 4, 0);
            assert!(size.relations.len() >= 2, "{kg}: several cells");
            assert!(size.limit <= MAX_ROUND_QUESTIONS, "{kg}: {}", size.limit);
            for &r in &size.relations {
                assert!(askable_facts(&index, Task::Statement, r) >= 12, "{kg}: {r}");
            }
            assert_eq!(size.limit, size.relations.len() * 12 * 2, "{kg}");
        }
    }

    #[test]
    fn rounds_take_the_next_relations_and_skip_the_small_ones() {
        let index = sample("nba");
        // "located in state or province" has 33 facts, the others 45 and more: all fit; a
        // relation under 12 facts would not.
        let all: Vec<Vec<usize>> = (0..6)
            .map(|round| round_size(&index, Task::Statement, 2, round).relations)
            .collect();
        assert_ne!(all[0], all[1], "round two takes other relations");
        for r in all.iter().flatten() {
            assert!(index.relations()[*r].count >= 12);
        }
    }
}

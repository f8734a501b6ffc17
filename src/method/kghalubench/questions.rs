//! KGHaluBench's assessments: compound questions about focal entities drawn rarer types first
//! (§3.1.1), each with three of the entity's valid relations, its disambiguating context, the
//! description its answer is compared with, and its difficulty.
//!
//! The draw: the candidates are shuffled with the run's seed and taken in turns by band,
//! uncommon, common, very common, uncommon, ... until the assessment has `--limit` questions
//! (the paper orders its sample "prioritising less common entities to maintain a balanced
//! distribution of entity types"; the turns are kgscope's reading of it). `--repeats N` draws N
//! assessments, each with its own seed, as the paper's 10 runs of 150 questions.
//!
//! D̄, the mean difficulty of assessments of the same size, is estimated by drawing
//! [`REFERENCE_DRAWS`] more assessments the same way (other seeds) and averaging their mean
//! difficulties: no model is asked for them.

use std::collections::HashMap;

use rand::seq::{IndexedRandom, SliceRandom};

use super::compound::{draw_relations, question};
use super::description;
use super::difficulty::{self, breadth_complexity, min_max, DEFAULT_STEEPNESS};
use super::focal::{candidates, Focal};
use crate::core::compound::{AskedFact, CompoundMeta};
use crate::kg::index::{Id, KgIndex};
use crate::questions::gold::{Accepted, Gold};
use crate::questions::{GenerateOptions, Question, Renderer, Task};
use crate::sampling::{self, SeededRng};

/// Assessments drawn, without asking, to estimate D̄.
pub const REFERENCE_DRAWS: u64 = 100;

/// Other objects of a multi-valued relation the judge is told of, at most.
const OTHER_OBJECTS: usize = 5;

/// The candidates' standing, computed once per KG: normalised popularity, the type a question
/// is grouped by, and the relation weights.
struct Pool {
    focal: Vec<Focal>,
    /// The relations the run names (`--relation`): each question asks one of them.
    wanted: Vec<Id>,
    /// Each candidate's type (its most specific), by label.
    types: Vec<String>,
    popularity: Vec<f64>,
    /// Hardness weight of each (type, relation): learnt from the recorded scores when there
    /// are some, ½ otherwise.
    weight: HashMap<(String, Id), f64>,
    /// C̄: the mean complexity of the candidates' questions (three relations at the mean
    /// weight of each candidate's relations).
    mean_complexity: f64,
}

impl Pool {
    fn new(index: &KgIndex, opts: &GenerateOptions) -> Self {
        let wanted: Vec<Id> = opts
            .relations
            .iter()
            .filter_map(|r| index.resolve_relation(r).ok())
            .collect();
        let only: Vec<Id> = opts
            .entities
            .iter()
            .filter_map(|e| index.iri_id(e))
            .collect();
        let focal: Vec<Focal> = candidates(index, &[])
            .into_iter()
            .filter(|f| only.is_empty() || only.contains(&f.entity))
            // With relations named, an entity must have one of them to be asked about.
            .filter(|f| wanted.is_empty() || f.relations.iter().any(|p| wanted.contains(p)))
            // An entity without a statistic the popularity model uses is skipped (the paper).
            .filter(|f| f.popularity.score().is_some())
            .collect();
        let scores: Vec<f64> = focal.iter().filter_map(|f| f.popularity.score()).collect();
        let types: Vec<String> = focal.iter().map(|f| entity_type(index, f.entity)).collect();
        // Per type, its relations' hardness from the recorded mean scores (½ unscored).
        let mut by_type: HashMap<&str, std::collections::BTreeSet<Id>> = HashMap::new();
        for (f, t) in focal.iter().zip(&types) {
            by_type.entry(t).or_default().extend(&f.relations);
        }
        let mut weight = HashMap::new();
        for (t, relations) in by_type {
            let relations: Vec<Id> = relations.into_iter().collect();
            let means: Vec<Option<f64>> = relations
                .iter()
                .map(|p| {
                    let iri = crate::kg::term_str(index.term(*p));
                    opts.relation_scores
                        .get(t)
                        .and_then(|m| m.get(iri))
                        .copied()
                })
                .collect();
            for (p, w) in relations.iter().zip(difficulty::relation_weights(&means)) {
                weight.insert((t.to_string(), *p), w);
            }
        }
        let mut pool = Pool {
            wanted,
            popularity: min_max(&scores),
            focal,
            types,
            weight,
            mean_complexity: 1.5,
        };
        let expected: Vec<f64> = (0..pool.focal.len())
            .map(|i| breadth_complexity(&pool.weights_of(i)))
            .collect();
        if !expected.is_empty() {
            pool.mean_complexity = expected.iter().sum::<f64>() / expected.len() as f64;
        }
        pool
    }

    /// The weights of candidate `i`'s relations.
    fn weights_of(&self, i: usize) -> Vec<f64> {
        self.focal[i]
            .relations
            .iter()
            .map(|p| self.weight_of(i, *p))
            .collect()
    }

    fn weight_of(&self, i: usize, p: Id) -> f64 {
        self.weight
            .get(&(self.types[i].clone(), p))
            .copied()
            .unwrap_or(0.5)
    }

    fn complexity(&self, i: usize, relations: &[Id]) -> f64 {
        relations.iter().map(|p| self.weight_of(i, *p)).sum()
    }

    /// The order one assessment takes the candidates in: shuffled, then in turns by band,
    /// rarest first.
    fn order(&self, rng: &mut SeededRng) -> Vec<usize> {
        let mut by_band: Vec<Vec<usize>> = vec![vec![]; 3];
        let mut all: Vec<usize> = (0..self.focal.len()).collect();
        all.shuffle(rng);
        for i in all {
            let band = super::focal::Band::ALL
                .iter()
                .position(|b| *b == self.focal[i].band)
                .unwrap_or(0);
            by_band[band].push(i);
        }
        let longest = by_band.iter().map(Vec::len).max().unwrap_or(0);
        (0..longest)
            .flat_map(|k| by_band.iter().filter_map(move |b| b.get(k).copied()))
            .collect()
    }

    /// One assessment: which candidates, and the relations drawn for each.
    fn draw(&self, seed: u64, size: usize) -> Vec<(usize, Vec<Id>)> {
        let mut rng = sampling::rng(seed);
        let order = self.order(&mut rng);
        order
            .into_iter()
            .take(size)
            .map(|i| {
                let mut drawn = draw_relations(&self.focal[i], &mut rng);
                // A named relation is one of the three: the last drawn gives way to one.
                if !self.wanted.is_empty() && !drawn.iter().any(|p| self.wanted.contains(p)) {
                    let named: Vec<Id> = self.focal[i]
                        .relations
                        .iter()
                        .copied()
                        .filter(|p| self.wanted.contains(p))
                        .collect();
                    if let (Some(last), Some(p)) = (drawn.last_mut(), named.choose(&mut rng)) {
                        *last = *p;
                    }
                }
                (i, drawn)
            })
            .collect()
    }

    fn difficulty(&self, i: usize, complexity: f64) -> f64 {
        difficulty::difficulty(
            self.popularity[i],
            complexity,
            self.mean_complexity,
            DEFAULT_STEEPNESS,
        )
    }

    /// D̄ for assessments of `size` questions.
    fn reference_difficulty(&self, seed: u64, size: usize) -> f64 {
        let means: Vec<f64> = (1..=REFERENCE_DRAWS)
            .map(|k| {
                let drawn = self.draw(assessment_seed(seed, 1_000 + k), size);
                let sum: f64 = drawn
                    .iter()
                    .map(|(i, rel)| self.difficulty(*i, self.complexity(*i, rel)))
                    .sum();
                sum / drawn.len().max(1) as f64
            })
            .collect();
        means.iter().sum::<f64>() / means.len().max(1) as f64
    }
}

/// The seed of assessment `a` (from 1) of a run seeded `seed`.
fn assessment_seed(seed: u64, a: u64) -> u64 {
    seed.wrapping_add(a.wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The type a focal entity's questions are grouped by: its most specific (fewest members).
fn entity_type(index: &KgIndex, e: Id) -> String {
    index
        .types_of(e)
        .iter()
        .copied()
        .min_by_key(|t| (index.members_of(*t).len(), *t))
        .map_or_else(|| "-".into(), |t| index.label(t))
}

/// The fact of `e` and `p` as the judge reads it: the first object's statement, and the other
/// objects the KG lists, any of which the answer may state instead.
fn asked_fact(r: &Renderer<'_>, e: Id, p: Id) -> AskedFact {
    let ix = r.index;
    let objects = ix.objects_of(e, p);
    let accepted: Vec<Accepted> = objects
        .iter()
        .map(|&o| Accepted {
            label: ix.label(o),
            aliases: ix.aliases_of(o).to_vec(),
            ..Default::default()
        })
        .collect();
    let mut sentence = objects
        .first()
        .map_or_else(String::new, |&o| r.statement(&[e, p, o]));
    let blank = objects
        .first()
        .map(|&o| blanked(&sentence, &ix.label(o)))
        .unwrap_or_default();
    if objects.len() > 1 {
        let others: Vec<String> = objects[1..]
            .iter()
            .take(OTHER_OBJECTS)
            .map(|&o| ix.label(o))
            .collect();
        sentence.push_str(&format!(" (also true: {})", others.join(", ")));
    }
    AskedFact {
        relation: ix.label(p),
        predicate: crate::kg::term_str(ix.term(p)).to_string(),
        accepted,
        sentence,
        blank,
    }
}

/// `sentence` with the first occurrence of `object` (any case) as "___"; empty when it does
/// not occur.
fn blanked(sentence: &str, object: &str) -> String {
    if object.is_empty() {
        return String::new();
    }
    let lower = sentence.to_lowercase();
    match lower.find(&object.to_lowercase()) {
        // Lower-casing can change byte lengths; only a same-length match is cut.
        Some(i)
            if sentence.get(i..i + object.len()).map(str::to_lowercase)
                == Some(object.to_lowercase()) =>
        {
            format!("{}___{}", &sentence[..i], &sentence[i + object.len()..])
        }
        _ => String::new(),
    }
}

/// The assessments of a run: `opts.assessments` × `opts.limit` compound questions. The
/// candidate facts are not used: a question is about an entity, not one fact.
pub fn generate(
    r: &Renderer<'_>,
    _candidates: &[usize],
    opts: &GenerateOptions,
) -> (Vec<Question>, usize) {
    let ix = r.index;
    let pool = Pool::new(ix, opts);
    if pool.focal.is_empty() {
        return (vec![], 0);
    }
    let size = opts.limit.min(pool.focal.len());
    let reference = pool.reference_difficulty(opts.seed, size);
    let assessments = opts.assessments.max(1);
    let mut out = Vec::with_capacity(size * assessments);
    for a in 1..=assessments {
        for (i, relations) in pool.draw(assessment_seed(opts.seed, a as u64), size) {
            let focal = &pool.focal[i];
            let e = focal.entity;
            let facts: Vec<AskedFact> = relations.iter().map(|&p| asked_fact(r, e, p)).collect();
            let first = [e, relations[0], ix.objects_of(e, relations[0])[0]];
            let mut q = r.base(&first, Task::Kghalubench);
            q.id = r.id(&first, Task::Kghalubench, "compound", &format!("a{a}"));
            q.positive_id = q.id.clone();
            q.prompt = question(r, focal, &relations);
            q.context = None;
            q.relation = facts
                .iter()
                .map(|f| f.relation.as_str())
                .collect::<Vec<_>>()
                .join("; ");
            let ty = pool.types[i].clone();
            q.head_type = Some(ty.clone());
            q.tail_type = None;
            q.year = None;
            let complexity = pool.complexity(i, &relations);
            q.compound = Some(CompoundMeta {
                band: focal.band.as_str().into(),
                description: description::rendered(r, e),
                description_from_kg: false,
                popularity: pool.popularity[i],
                complexity,
                difficulty: pool.difficulty(i, complexity),
                // The paper's rule: 3 × the mean weight of the type's relations (those of the
                // entity, which are the type's that it has).
                breadth_difficulty: pool.difficulty(i, breadth_complexity(&pool.weights_of(i))),
                reference_difficulty: reference,
                assessment: a as u32,
                entity_type: ty,
            });
            q.gold = Gold::Compound { facts };
            out.push(q);
        }
    }
    (out, 0)
}

/// Replaces each question's rendered description with the one the KG states, where it has
/// one (`schema:description`, `rdfs:comment`), named as the rendered one is
/// ([`description::named`]).
pub fn describe(
    kg: &dyn crate::kg::KnowledgeGraph,
    r: &Renderer<'_>,
    questions: &mut [Question],
) -> Result<(), crate::kg::KgError> {
    let index = r.index;
    let entities: Vec<Id> = {
        let mut v: Vec<Id> = questions
            .iter()
            .filter_map(|q| index.iri_id(&q.subject))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let stated = description::stated(kg, index, &entities)?;
    for q in questions {
        let Some(meta) = q.compound.as_mut() else {
            continue;
        };
        let Some(d) = index.iri_id(&q.subject).and_then(|e| stated.get(&e)) else {
            continue;
        };
        meta.description_from_kg = true;
        meta.description = description::named(&q.subject_label, &meta.entity_type, d);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::questions::TemplateSet;

    fn generate_on(spec: &str, opts: &GenerateOptions) -> Vec<Question> {
        let kg = crate::kg::open(spec).unwrap();
        let index = KgIndex::build(kg.as_ref(), &|_| {}).unwrap();
        let templates = TemplateSet::builtin();
        let r = Renderer {
            index: &index,
            templates: &templates,
            seed: opts.seed,
        };
        let mut qs = generate(&r, &[], opts).0;
        describe(kg.as_ref(), &r, &mut qs).unwrap();
        qs
    }

    fn opts(limit: usize, assessments: usize) -> GenerateOptions {
        GenerateOptions {
            task: Task::Kghalubench,
            limit,
            assessments,
            ..GenerateOptions::default()
        }
    }

    #[test]
    fn an_assessment_asks_three_facts_about_distinct_entities_rarer_bands_first() {
        let qs = generate_on("sample:countries", &opts(12, 1));
        assert_eq!(qs.len(), 12);
        let subjects: std::collections::BTreeSet<&str> =
            qs.iter().map(|q| q.subject.as_str()).collect();
        assert_eq!(subjects.len(), 12, "one question per entity");
        for q in &qs {
            let Gold::Compound { facts } = &q.gold else {
                panic!("{:?}", q.gold)
            };
            assert_eq!(facts.len(), 3);
            for f in facts {
                assert!(!f.accepted.is_empty() && !f.sentence.is_empty(), "{f:?}");
                assert!(
                    f.blank.contains("___") && !f.blank.contains(&f.accepted[0].label),
                    "{f:?}"
                );
                assert!(q.prompt.contains(&f.relation), "{}", q.prompt);
            }
            let m = q.compound.as_ref().unwrap();
            assert!(m.difficulty > 0.0 && m.difficulty < 1.0);
            assert!(m.reference_difficulty > 0.0 && m.reference_difficulty < 1.0);
            assert!(q.prompt.starts_with("Give a brief overview of"));
        }
        // On the elements (isotopes are very common, elements common): more than one band in
        // twelve questions, the rarest first.
        let qs = generate_on("sample:elements", &opts(12, 1));
        let bands: Vec<&str> = qs
            .iter()
            .map(|q| q.compound.as_ref().unwrap().band.as_str())
            .collect();
        let first_band = bands[0];
        assert!(bands.iter().any(|b| *b != first_band), "{bands:?}");
        let rank = |b: &str| {
            ["uncommon", "common", "very common"]
                .iter()
                .position(|x| *x == b)
        };
        assert!(rank(bands[0]) <= rank(bands[1]), "{bands:?}");
    }

    #[test]
    fn a_named_relation_is_asked_in_every_question() {
        let capital = "https://kgscope.dev/kg/countries/prop/capital";
        let qs = generate_on(
            "sample:countries",
            &GenerateOptions {
                relations: vec![capital.into()],
                ..opts(10, 1)
            },
        );
        assert_eq!(qs.len(), 10);
        for q in &qs {
            let Gold::Compound { facts } = &q.gold else {
                panic!()
            };
            assert_eq!(facts.len(), 3);
            assert!(facts.iter().any(|f| f.predicate == capital), "{}", q.prompt);
        }
    }

    #[test]
    fn repeats_draw_separate_assessments_reproducibly() {
        let a = generate_on("sample:countries", &opts(5, 3));
        assert_eq!(a.len(), 15);
        let ids: std::collections::BTreeSet<&str> = a.iter().map(|q| q.id.as_str()).collect();
        assert_eq!(ids.len(), 15, "ids are unique across assessments");
        let of = |n: u32| -> Vec<&str> {
            a.iter()
                .filter(|q| q.compound.as_ref().unwrap().assessment == n)
                .map(|q| q.subject.as_str())
                .collect()
        };
        assert_ne!(of(1), of(2), "each assessment draws its own entities");
        let b = generate_on("sample:countries", &opts(5, 3));
        assert_eq!(a, b, "same seed, same questions");
    }

    /// A relation the recorded runs scored badly weighs more: questions asking it are more
    /// complex, and so harder, than the same entity's questions without it.
    #[test]
    fn recorded_scores_make_a_relation_harder() {
        let plain = generate_on("sample:countries", &opts(30, 1));
        assert!(plain
            .iter()
            .all(|q| (q.compound.as_ref().unwrap().complexity - 1.5).abs() < 1e-12));
        let capital = "https://kgscope.dev/kg/countries/prop/capital";
        let mut scores = std::collections::BTreeMap::new();
        let mut per_relation = std::collections::BTreeMap::new();
        per_relation.insert(capital.to_string(), 0.0);
        per_relation.insert(
            "https://kgscope.dev/kg/countries/prop/continent".to_string(),
            1.0,
        );
        scores.insert("country or territory".to_string(), per_relation);
        let learnt = generate_on(
            "sample:countries",
            &GenerateOptions {
                relation_scores: scores,
                ..opts(30, 1)
            },
        );
        assert_eq!(plain.len(), learnt.len());
        let asks = |q: &Question, p: &str| match &q.gold {
            Gold::Compound { facts } => facts.iter().any(|f| f.predicate == p),
            _ => false,
        };
        let continent = "https://kgscope.dev/kg/countries/prop/continent";
        for (a, b) in plain.iter().zip(&learnt) {
            assert_eq!(a.id, b.id, "the same questions");
            // Capital weighs 1 now, continent 0, every other relation ½.
            let want = 1.5 + 0.5 * f64::from(u8::from(asks(b, capital)))
                - 0.5 * f64::from(u8::from(asks(b, continent)));
            let got = b.compound.as_ref().unwrap().complexity;
            assert!((got - want).abs() < 1e-12, "{got} ≠ {want}: {}", b.prompt);
        }
        assert!(learnt.iter().any(|q| asks(q, capital)));
    }

    #[test]
    fn descriptions_come_from_the_kg_where_it_has_them() {
        let qs = generate_on("sample:elements", &opts(20, 1));
        let from_kg = qs
            .iter()
            .filter(|q| q.compound.as_ref().unwrap().description_from_kg)
            .count();
        assert!(from_kg > 0, "elements carry mendeleev's descriptions");
        let qs = generate_on("sample:countries", &opts(5, 1));
        assert!(qs
            .iter()
            .all(|q| !q.compound.as_ref().unwrap().description_from_kg));
    }
}

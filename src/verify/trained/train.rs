//! Training a judge as GraphEval does: Adam at lr 1e-4, batches of 8, a seeded 70/30 split,
//! 100 epochs. The held-out loss is measured after every epoch and the weights of the epoch
//! where it was lowest are kept beside the last epoch's (early stopping, which the paper does
//! not do): both are scored and reported.

use candle_core::{DType, Device, Tensor};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::net::{self, Net, NAMES};
use super::TrainedError;
use crate::core::verdict::JudgeClass;

/// One labelled statement: the model's hidden state on it, its polarity and what the model
/// did with it (correct, incorrect, idk).
#[derive(Debug, Clone)]
pub struct Example {
    pub id: String,
    pub state: Vec<f32>,
    pub positive: bool,
    pub class: JudgeClass,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TrainOptions {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f64,
    pub seed: u64,
    /// The share held out for scoring (and early stopping).
    pub held_out: f64,
}

impl Default for TrainOptions {
    fn default() -> Self {
        Self {
            epochs: 100,
            batch: 8,
            lr: 1e-4,
            seed: crate::sampling::DEFAULT_SEED,
            held_out: 0.3,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EpochStat {
    /// From 1.
    pub epoch: usize,
    pub train_loss: f32,
    pub held_out_loss: f32,
}

/// The weights of a network by variable name, in [`NAMES`] order.
pub type Weights = Vec<(String, Tensor)>;

pub struct Trained {
    /// Indices into the examples: the training part and the held-out part.
    pub train: Vec<usize>,
    pub held_out: Vec<usize>,
    pub history: Vec<EpochStat>,
    /// The epoch (from 1) with the lowest held-out loss, and its weights.
    pub best_epoch: usize,
    pub best: Weights,
    /// The weights after the last epoch (the paper's judge).
    pub last: Weights,
}

/// A seeded shuffle of `0..n` cut into a training part and a held-out part of `share`·n
/// (rounded, at least one of each when n ≥ 2).
pub fn split(n: usize, share: f64, seed: u64) -> (Vec<usize>, Vec<usize>) {
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let mut held = ((n as f64) * share).round() as usize;
    if n >= 2 {
        held = held.clamp(1, n - 1);
    }
    let train = order.split_off(held.min(n));
    (train, order)
}

/// Stacks the examples at `rows` into hidden states `[n, d]`, polarities `[n]` (u8) and
/// classes `[n]` (u32).
pub fn tensors(
    examples: &[Example],
    rows: &[usize],
) -> candle_core::Result<(Tensor, Tensor, Tensor)> {
    let dim = examples.first().map_or(0, |e| e.state.len());
    let mut x = Vec::with_capacity(rows.len() * dim);
    let mut pos = Vec::with_capacity(rows.len());
    let mut y = Vec::with_capacity(rows.len());
    for &r in rows {
        x.extend_from_slice(&examples[r].state);
        pos.push(u8::from(examples[r].positive));
        y.push(examples[r].class.index() as u32);
    }
    let n = rows.len();
    Ok((
        Tensor::from_vec(x, (n, dim), &Device::Cpu)?,
        Tensor::from_vec(pos, n, &Device::Cpu)?,
        Tensor::from_vec(y, n, &Device::Cpu)?,
    ))
}

fn snapshot(varmap: &candle_nn::VarMap) -> candle_core::Result<Weights> {
    let data = varmap.data().lock().expect("the var map is only used here");
    NAMES
        .iter()
        .map(|&name| {
            let var = data.get(name).expect("every name is created by Net::new");
            Ok((name.to_string(), var.as_tensor().copy()?))
        })
        .collect()
}

fn loss(net: &Net, x: &Tensor, pos: &Tensor, y: &Tensor) -> candle_core::Result<Tensor> {
    candle_nn::loss::cross_entropy(&net.forward(x, pos)?, y)
}

/// Trains a judge on `examples` (all of one width); `progress` hears of every epoch.
pub fn train(
    examples: &[Example],
    opts: &TrainOptions,
    progress: &mut dyn FnMut(&EpochStat),
) -> Result<Trained, TrainedError> {
    let dim = examples.first().map_or(0, |e| e.state.len());
    if examples.len() < 10 {
        return Err(TrainedError::Data(format!(
            "{} labelled statements are too few to train and score a judge (at least 10)",
            examples.len()
        )));
    }
    if dim == 0 || examples.iter().any(|e| e.state.len() != dim) {
        return Err(TrainedError::Data(
            "the hidden states are not all of one width".into(),
        ));
    }
    if opts.batch == 0 || opts.epochs == 0 {
        return Err(TrainedError::Data(
            "epochs and batch size must be at least 1".into(),
        ));
    }
    let (train, held_out) = split(examples.len(), opts.held_out, opts.seed);
    let (hx, hpos, hy) = tensors(examples, &held_out)?;
    let (varmap, net) = net::init(dim, opts.seed)?;
    // Adam: AdamW without weight decay.
    let mut adam = AdamW::new(
        varmap.all_vars(),
        ParamsAdamW {
            lr: opts.lr,
            weight_decay: 0.0,
            ..ParamsAdamW::default()
        },
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut order = train.clone();
    let mut history = Vec::with_capacity(opts.epochs);
    let mut best: Option<(usize, f32, Weights)> = None;
    for epoch in 1..=opts.epochs {
        order.shuffle(&mut rng);
        let (mut sum, mut count) = (0f32, 0usize);
        for rows in order.chunks(opts.batch) {
            let (x, pos, y) = tensors(examples, rows)?;
            let l = loss(&net, &x, &pos, &y)?;
            adam.backward_step(&l)?;
            sum += l.to_dtype(DType::F32)?.to_scalar::<f32>()? * rows.len() as f32;
            count += rows.len();
        }
        let held_out_loss = loss(&net, &hx, &hpos, &hy)?.to_scalar::<f32>()?;
        let stat = EpochStat {
            epoch,
            train_loss: sum / count.max(1) as f32,
            held_out_loss,
        };
        progress(&stat);
        history.push(stat);
        if best.as_ref().is_none_or(|(_, l, _)| held_out_loss < *l) {
            best = Some((epoch, held_out_loss, snapshot(&varmap)?));
        }
    }
    let (best_epoch, _, best) = best.expect("at least one epoch ran");
    Ok(Trained {
        train,
        held_out,
        history,
        best_epoch,
        best,
        last: snapshot(&varmap)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_is_seeded_and_cuts_thirty_percent() {
        let (a, b) = split(100, 0.3, 7);
        assert_eq!((a.len(), b.len()), (70, 30));
        assert_eq!(split(100, 0.3, 7), (a.clone(), b.clone()));
        assert_ne!(split(100, 0.3, 8).1, b);
        let mut all: Vec<usize> = a.into_iter().chain(b).collect();
        all.sort_unstable();
        assert_eq!(all, (0..100).collect::<Vec<_>>());
        assert_eq!(split(2, 0.3, 1).1.len(), 1, "one of each at least");
    }

    /// Two well-separated clusters per polarity: the judge must learn them, and the heads
    /// must differ (the same state means "correct" on a true statement, "incorrect" on a
    /// negative).
    #[test]
    fn a_judge_learns_separable_classes_through_both_heads() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut examples = Vec::new();
        for i in 0..200 {
            use rand::Rng;
            let up = i % 2 == 0;
            let positive = i % 4 < 2;
            let mut state: Vec<f32> = (0..8).map(|_| rng.random_range(-0.1..0.1)).collect();
            state[0] += if up { 2.0 } else { -2.0 };
            let class = match (up, positive) {
                (true, true) | (false, false) => JudgeClass::Correct,
                _ => JudgeClass::Incorrect,
            };
            examples.push(Example {
                id: i.to_string(),
                state,
                positive,
                class,
            });
        }
        let opts = TrainOptions {
            epochs: 30,
            lr: 1e-2,
            ..TrainOptions::default()
        };
        let mut epochs = 0;
        let t = train(&examples, &opts, &mut |_| epochs += 1).unwrap();
        assert_eq!(epochs, 30);
        assert!(t.history[29].held_out_loss < t.history[0].held_out_loss);
        let judge = super::super::TrainedJudge::from_weights(&t.best, Default::default()).unwrap();
        let right = t
            .held_out
            .iter()
            .filter(|&&r| {
                let p = judge
                    .predict(&examples[r].state, examples[r].positive)
                    .unwrap();
                JudgeClass::argmax(&p) == examples[r].class
            })
            .count();
        assert!(
            right * 10 >= t.held_out.len() * 9,
            "{right} of {}",
            t.held_out.len()
        );
        // The same seed trains the same judge.
        let again = train(&examples, &opts, &mut |_| {}).unwrap();
        assert_eq!(again.history, t.history);
    }
}

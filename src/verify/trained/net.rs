//! The judge's network: a shared trunk, Linear(d→d) → GELU → LayerNorm, and two output layers
//! Linear(d→3), one for true statements and one for negatives (GraphEval's released code; the
//! paper's text says "two feed-forward layers with layer norm and ReLU").

use candle_core::{DType, Device, Tensor};
use candle_nn::{LayerNorm, Linear, Module, VarBuilder, VarMap};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The variables' names, as stored in a judge file.
pub const NAMES: [&str; 8] = [
    "trunk.weight",
    "trunk.bias",
    "norm.weight",
    "norm.bias",
    "head_true.weight",
    "head_true.bias",
    "head_negative.weight",
    "head_negative.bias",
];

/// The shape of each variable of a network of width `dim`, in [`NAMES`] order: the trunk is
/// d×d with a bias of d, the norm's weight and bias are d, each head is 3×d with a bias of 3.
pub fn shapes(dim: usize) -> [Vec<usize>; 8] {
    [
        vec![dim, dim],
        vec![dim],
        vec![dim],
        vec![dim],
        vec![3, dim],
        vec![3],
        vec![3, dim],
        vec![3],
    ]
}

pub struct Net {
    trunk: Linear,
    norm: LayerNorm,
    head_true: Linear,
    head_negative: Linear,
}

impl Net {
    /// The network over the variables of `vb` (created in a [`VarMap`] when training, read
    /// from a file when judging).
    pub fn new(vb: &VarBuilder, dim: usize) -> candle_core::Result<Net> {
        Ok(Net {
            trunk: candle_nn::linear(dim, dim, vb.pp("trunk"))?,
            norm: candle_nn::layer_norm(dim, 1e-5, vb.pp("norm"))?,
            head_true: candle_nn::linear(dim, 3, vb.pp("head_true"))?,
            head_negative: candle_nn::linear(dim, 3, vb.pp("head_negative"))?,
        })
    }

    /// Logits `[n, 3]` for hidden states `x` `[n, d]`; `positive` `[n]` (u8) says which
    /// rows are true statements (their head answers for them).
    pub fn forward(&self, x: &Tensor, positive: &Tensor) -> candle_core::Result<Tensor> {
        let h = self.norm.forward(&self.trunk.forward(x)?.gelu_erf()?)?;
        let t = self.head_true.forward(&h)?;
        let n = self.head_negative.forward(&h)?;
        let mask = positive.unsqueeze(1)?.broadcast_as(t.shape())?;
        mask.where_cond(&t, &n)
    }
}

/// Fresh variables for a network of width `dim`, drawn from `seed` as PyTorch initialises
/// `nn.Linear` (uniform in ±1/√fan_in for weights and biases) and `nn.LayerNorm` (ones and
/// zeros). Seeded here, not by candle's device RNG, so one seed gives one judge.
pub fn init(dim: usize, seed: u64) -> candle_core::Result<(VarMap, Net)> {
    let varmap = VarMap::new();
    let vb = VarBuilder::from_varmap(&varmap, DType::F32, &Device::Cpu);
    let net = Net::new(&vb, dim)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let data = varmap.data().lock().expect("the var map is not shared yet");
    for name in NAMES {
        let var = data.get(name).expect("every name is created by Net::new");
        let shape = var.shape().clone();
        let value = if name.starts_with("norm.") {
            let v = if name.ends_with("weight") { 1.0 } else { 0.0 };
            Tensor::full(v as f32, shape, &Device::Cpu)?
        } else {
            let bound = 1.0 / (dim as f32).sqrt();
            let values: Vec<f32> = (0..shape.elem_count())
                .map(|_| rng.random_range(-bound..bound))
                .collect();
            Tensor::from_vec(values, shape, &Device::Cpu)?
        };
        var.set(&value)?;
    }
    drop(data);
    Ok((varmap, net))
}

/// Class probabilities `[n, 3]` of hidden states `x` `[n, d]`.
pub fn probabilities(net: &Net, x: &Tensor, positive: &Tensor) -> candle_core::Result<Tensor> {
    candle_nn::ops::softmax_last_dim(&net.forward(x, positive)?)
}

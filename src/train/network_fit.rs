//! Fitting a network (see `eval::network`) on top of the hand terms and
//! pattern weights, to self-play data.
//!
//! The model is the network in floating point: the side to move's score
//! is `base + 100 * net(pos)`, `base` the hand terms and patterns (held
//! fixed), and the loss the cross-entropy between `sigmoid(score / K)` and
//! the target `(1 - lambda) * result + lambda * sigmoid(search / K)`, all
//! from the side to move's view, with `100 * net` held within the
//! engine's bound (`MAX_CORRECTION`) and a small pull of every output to
//! 0, which alone holds it where the game is decided and the loss no
//! longer feels the score. `K` is fitted first, to `base` alone. The
//! output layer starts at 0, so the fit starts from the evaluation it
//! adds to. Adam updates every weight after each mini-batch (layer-2
//! weights kept within what an `i8` holds once scaled), with a step that
//! falls geometrically from the first batch to the last; the epoch with
//! the lowest held-out loss is kept and turned into integers.
//!
//! A mini-batch is cut into a fixed number of slices whose gradients are
//! worked out on all threads and added up in a fixed order, so a run is
//! the same for a seed whatever the thread count.

use rayon::prelude::*;

use super::distinct::Distinct;
use super::driver::{
    cross_entropy, drive, fit_scale_to, sigmoid, Adam, EpochReport, Schedule, Trainee,
};
use crate::eval::network::{
    dense_from_rows, for_each_input, network_checksum, Network, INPUTS, MAX_CORRECTION,
    MAX_DENSE_WEIGHT, QA, QO, QW,
};
use crate::eval::{evaluate_learned, Patterns};
use crate::rules::random::SplitMix64;
use crate::rules::{Rules, Side, VariantKind};

/// Settings of a network fit.
#[derive(Clone, Debug)]
pub struct NetworkConfig {
    /// Layer 1 width (a multiple of 16).
    pub hidden: usize,
    /// Layer 2 width (a multiple of 8).
    pub dense: usize,
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions a mini-batch.
    pub batch: usize,
    /// Adam's step size at the first mini-batch.
    pub learning_rate: f32,
    /// Adam's step size at the last mini-batch.
    pub final_learning_rate: f32,
    /// Share of the search score in the target (0: the game result alone).
    pub lambda: f32,
    /// Seed of the first weights and the shuffles.
    pub seed: u64,
    /// A network to start from instead of random weights (its widths must
    /// be `hidden` and `dense`): a fine-tune.
    pub start: Option<Network>,
}

/// Positions in the form the network fit reads, each from its side to
/// move's view.
#[derive(Default)]
pub struct NetworkSamples {
    /// The inputs on, the side to move's view then the other's.
    inputs: Vec<u8>,
    /// Where each position's inputs start, where its second view's start,
    /// and one more entry for the end of the last.
    starts: Vec<u32>,
    /// Hand terms and patterns.
    base: Vec<f32>,
    /// Game result, 0 (loss) to 1 (win).
    result: Vec<f32>,
    /// The search's score.
    score: Vec<f32>,
}

impl NetworkSamples {
    /// The de-duplicated positions of variant `R`, with `patterns` under
    /// the network; a record that is not a position of `R` is an error.
    pub fn of<R: Rules>(positions: &[Distinct], patterns: &Patterns) -> Result<Self, String> {
        let rows: Vec<_> = positions
            .par_iter()
            .map(|d| {
                let pos = d.record.position::<R>()?;
                let us = pos.side_to_move();
                let mut inputs = Vec::with_capacity(80);
                for_each_input(&pos, us, |i| inputs.push(i as u8));
                let ours = inputs.len();
                for_each_input(&pos, us.opponent(), |i| inputs.push(i as u8));
                let (result, score) = match us {
                    Side::White => (d.result, d.score),
                    Side::Black => (1.0 - d.result, -d.score),
                };
                let base = evaluate_learned(&pos, patterns) as f32;
                Ok((inputs, ours, base, result, score))
            })
            .collect::<Result<_, String>>()?;
        let mut set = NetworkSamples {
            starts: vec![0],
            ..NetworkSamples::default()
        };
        for (inputs, ours, base, result, score) in rows {
            let start = set.inputs.len() as u32;
            set.starts.pop();
            set.starts.push(start);
            set.starts.push(start + ours as u32);
            set.inputs.extend_from_slice(&inputs);
            set.starts.push(set.inputs.len() as u32);
            set.base.push(base);
            set.result.push(result);
            set.score.push(score);
        }
        Ok(set)
    }

    /// Positions in the set.
    pub fn len(&self) -> usize {
        self.base.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.base.is_empty()
    }

    /// The inputs of position `i`: the side to move's view, the other's.
    fn views(&self, i: usize) -> (&[u8], &[u8]) {
        let (a, b, c) = (
            self.starts[2 * i] as usize,
            self.starts[2 * i + 1] as usize,
            self.starts[2 * i + 2] as usize,
        );
        (&self.inputs[a..b], &self.inputs[b..c])
    }
}

/// Where each part of the weights sits in one flat vector.
#[derive(Clone, Copy, Debug)]
struct Shape {
    hidden: usize,
    dense: usize,
}

impl Shape {
    fn b1(self) -> usize {
        INPUTS * self.hidden
    }
    fn w2(self) -> usize {
        self.b1() + self.hidden
    }
    fn b2(self) -> usize {
        self.w2() + self.dense * 2 * self.hidden
    }
    fn w3(self) -> usize {
        self.b2() + self.dense
    }
    fn b3(self) -> usize {
        self.w3() + self.dense
    }
    fn len(self) -> usize {
        self.b3() + 1
    }
}

/// The largest layer-1 weight or bias, so that sums stay far inside `i16`
/// once scaled.
const MAX_FIRST_WEIGHT: f32 = 3.0;

/// Per-position values of a forward pass, kept for the backward one.
struct Pass {
    /// Layer 1 sums, the side to move's view then the other's.
    acc: Vec<f32>,
    /// Layer 2 sums.
    z2: Vec<f32>,
}

impl Pass {
    fn new(shape: Shape) -> Pass {
        Pass {
            acc: vec![0.0; 2 * shape.hidden],
            z2: vec![0.0; shape.dense],
        }
    }
}

/// The pull of every output towards 0 (its square's weight in the loss,
/// in men): small against the loss where the score matters, the only force
/// where it no longer does (a game long decided).
const OUTPUT_PULL: f32 = 0.01;

/// The network's correction, hundredths of a man, of an output in men.
fn correction(out: f32) -> f32 {
    (100.0 * out).clamp(-(MAX_CORRECTION as f32), MAX_CORRECTION as f32)
}

fn clip(x: f32) -> f32 {
    x.clamp(0.0, 1.0)
}

/// The network's output, in men, for inputs `(us, them)`, filling `pass`.
fn forward(p: &[f32], shape: Shape, (us, them): (&[u8], &[u8]), pass: &mut Pass) -> f32 {
    let h = shape.hidden;
    let b1 = &p[shape.b1()..shape.w2()];
    for (half, inputs) in pass.acc.chunks_exact_mut(h).zip([us, them]) {
        half.copy_from_slice(b1);
        for &i in inputs {
            let row = &p[i as usize * h..(i as usize + 1) * h];
            for (a, w) in half.iter_mut().zip(row) {
                *a += w;
            }
        }
    }
    let w2 = &p[shape.w2()..shape.b2()];
    let mut out = p[shape.b3()];
    for o in 0..shape.dense {
        let row = &w2[o * 2 * h..(o + 1) * 2 * h];
        let sum: f32 = row.iter().zip(&pass.acc).map(|(w, &a)| w * clip(a)).sum();
        pass.z2[o] = sum + p[shape.b2() + o];
        out += p[shape.w3() + o] * clip(pass.z2[o]);
    }
    out
}

/// Adds to `grad` the gradient of the weights `p` at `pass` for inputs
/// `(us, them)`, given the gradient `g` of the loss by the output.
fn backward(
    p: &[f32],
    shape: Shape,
    (us, them): (&[u8], &[u8]),
    pass: &Pass,
    g: f32,
    grad: &mut [f32],
    d1: &mut [f32],
) {
    let h = shape.hidden;
    grad[shape.b3()] += g;
    d1.fill(0.0);
    for o in 0..shape.dense {
        let z = pass.z2[o];
        grad[shape.w3() + o] += g * clip(z);
        if z <= 0.0 || z >= 1.0 {
            continue;
        }
        let d2 = g * p[shape.w3() + o];
        grad[shape.b2() + o] += d2;
        let at = shape.w2() + o * 2 * h;
        let (row, grow) = (&p[at..at + 2 * h], &mut grad[at..at + 2 * h]);
        for j in 0..2 * h {
            grow[j] += d2 * clip(pass.acc[j]);
            d1[j] += d2 * row[j];
        }
    }
    for (d, &a) in d1.iter_mut().zip(&pass.acc) {
        if a <= 0.0 || a >= 1.0 {
            *d = 0.0;
        }
    }
    for (half, inputs) in d1.chunks_exact(h).zip([us, them]) {
        for (gb, d) in grad[shape.b1()..shape.w2()].iter_mut().zip(half) {
            *gb += d;
        }
        for &i in inputs {
            let row = &mut grad[i as usize * h..(i as usize + 1) * h];
            for (gw, d) in row.iter_mut().zip(half) {
                *gw += d;
            }
        }
    }
}

/// The mean cross-entropy against the game results on `set`.
fn loss(p: &[f32], shape: Shape, set: &NetworkSamples, k: f32) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let total: f64 = (0..set.len())
        .into_par_iter()
        .map_init(
            || Pass::new(shape),
            |pass, i| {
                let out = forward(p, shape, set.views(i), pass);
                let q = sigmoid((set.base[i] + correction(out)) / k);
                cross_entropy(q, set.result[i]) as f64
            },
        )
        .sum();
    total / set.len() as f64
}

/// The outcome of a network fit.
pub struct FittedNetwork {
    /// The network of the epoch with the lowest held-out loss, in integers.
    pub network: Network,
    /// The sigmoid scale.
    pub k: f32,
    /// The held-out loss at the start: of the evaluation without the
    /// network, or with the start network of a fine-tune.
    pub start_loss: f64,
    /// The held-out loss of the integer network (the one written).
    pub integer_loss: f64,
    /// The best held-out loss (floating point) and its epoch.
    pub best: (f64, u32),
}

/// Slices a mini-batch is cut into for the parallel gradients.
const SLICES: usize = 8;

/// A slice's share of a batch: its gradient, layer 1's deltas, the
/// forward pass it reuses and its summed loss.
type Slice = (Vec<f32>, Vec<f32>, Pass, f64);

/// The network as the driver fits it: the training and held-out sets,
/// the scale, and the slices of a batch.
struct NetworkTrainee<'a> {
    train: &'a NetworkSamples,
    valid: &'a NetworkSamples,
    config: &'a NetworkConfig,
    shape: Shape,
    k: f32,
    slices: Vec<Slice>,
}

impl Trainee for NetworkTrainee<'_> {
    fn train_batch(&mut self, p: &mut [f32], batch: &[u32], adam: &mut Adam) -> f64 {
        let (train, config, shape, k) = (self.train, self.config, self.shape, self.k);
        let part = batch.len().div_ceil(SLICES);
        let scale = 100.0 / k / batch.len() as f32;
        let params: &[f32] = p;
        self.slices
            .par_iter_mut()
            .zip(batch.par_chunks(part.max(1)))
            .for_each(|((grad, d1, pass, sum), ids)| {
                grad.fill(0.0);
                *sum = 0.0;
                for &i in ids {
                    let i = i as usize;
                    let views = train.views(i);
                    let out = forward(params, shape, views, pass);
                    let q = sigmoid((train.base[i] + correction(out)) / k);
                    let t = (1.0 - config.lambda) * train.result[i]
                        + config.lambda * sigmoid(train.score[i] / k);
                    *sum += cross_entropy(q, train.result[i]) as f64;
                    // The loss feels the output only within the bound;
                    // the pull to 0 holds it where the loss does not.
                    let within = (100.0 * out).abs() < MAX_CORRECTION as f32;
                    let g = within as i32 as f32 * (q - t) * scale
                        + OUTPUT_PULL * out / batch.len() as f32;
                    backward(params, shape, views, pass, g, grad, d1);
                }
            });
        // A short batch fills fewer slices; the others hold an older
        // batch's gradient.
        let used = batch.len().div_ceil(part.max(1));
        for (j, w) in p.iter_mut().enumerate() {
            let g: f32 = self.slices[..used].iter().map(|s| s.0[j]).sum();
            adam.apply(j, g, w);
        }
        clamp_weights(p, shape);
        self.slices[..used].iter().map(|s| s.3).sum::<f64>()
    }

    fn held_out_loss(&self, p: &[f32]) -> f64 {
        loss(p, self.shape, self.valid, self.k)
    }
}

/// Fits a network for `variant` on top of `patterns` to `train`,
/// validating on `valid`. `epoch_done` hears of every epoch; `batch_done`
/// of the share of the epoch done.
pub fn fit_network<R: Rules>(
    patterns: &Patterns,
    train: &NetworkSamples,
    valid: &NetworkSamples,
    config: &NetworkConfig,
    epoch_done: &mut dyn FnMut(EpochReport),
    batch_done: &mut dyn FnMut(u32, f64) -> std::ops::ControlFlow<()>,
) -> FittedNetwork {
    let shape = Shape {
        hidden: config.hidden,
        dense: config.dense,
    };
    let k = fit_scale_to(&train.base, &train.result);
    let mut random = SplitMix64(config.seed);
    let mut uniform = |range: f32| {
        let unit = (random.next() >> 11) as f32 / (1u64 << 53) as f32;
        (2.0 * unit - 1.0) * range
    };
    let p = match &config.start {
        Some(net) => dequantize(net),
        None => {
            let mut p = vec![0f32; shape.len()];
            for w in &mut p[..shape.b1()] {
                *w = uniform(0.1);
            }
            p[shape.b1()..shape.w2()].fill(0.5);
            let spread = 1.0 / (2.0 * shape.hidden as f32).sqrt();
            for w in &mut p[shape.w2()..shape.b2()] {
                *w = uniform(spread);
            }
            p[shape.b2()..shape.w3()].fill(0.5);
            p
        }
    };
    assert_eq!(p.len(), shape.len(), "a start network of other widths");
    let n = shape.len();
    let mut trainee = NetworkTrainee {
        train,
        valid,
        config,
        shape,
        k,
        slices: (0..SLICES)
            .map(|_| {
                (
                    vec![0f32; n],
                    vec![0f32; 2 * shape.hidden],
                    Pass::new(shape),
                    0.0,
                )
            })
            .collect(),
    };
    let schedule = Schedule {
        epochs: config.epochs,
        batch: config.batch,
        learning_rate: config.learning_rate,
        final_learning_rate: config.final_learning_rate,
    };
    let driven = drive(
        &mut trainee,
        p,
        train.len(),
        schedule,
        &mut random,
        epoch_done,
        batch_done,
    );
    let network = quantize(
        R::KIND,
        network_checksum(patterns),
        &driven.best_params,
        shape,
    );
    let integer_loss = integer_loss(&network, valid, k);
    FittedNetwork {
        network,
        k,
        start_loss: driven.start_loss,
        integer_loss,
        best: driven.best,
    }
}

/// Keeps every weight within what its integer form holds.
fn clamp_weights(p: &mut [f32], shape: Shape) {
    for w in &mut p[..shape.w2()] {
        *w = w.clamp(-MAX_FIRST_WEIGHT, MAX_FIRST_WEIGHT);
    }
    for w in &mut p[shape.w2()..shape.b2()] {
        *w = w.clamp(-MAX_DENSE_WEIGHT, MAX_DENSE_WEIGHT);
    }
    for w in &mut p[shape.w3()..shape.b3()] {
        *w = w.clamp(-500.0, 500.0);
    }
}

/// The integer network of the weights `p`.
fn quantize(variant: VariantKind, base: u64, p: &[f32], shape: Shape) -> Network {
    let to_i16 = |x: f32, s: i32| (x * s as f32).round() as i16;
    let to_i32 = |x: f32, s: i32| (x * s as f32).round() as i32;
    Network {
        variant,
        base,
        hidden: shape.hidden,
        dense: shape.dense,
        w1: p[..shape.b1()].iter().map(|&x| to_i16(x, QA)).collect(),
        b1: p[shape.b1()..shape.w2()]
            .iter()
            .map(|&x| to_i16(x, QA))
            .collect(),
        w2: dense_from_rows(
            &p[shape.w2()..shape.b2()]
                .iter()
                .map(|&x| to_i16(x, QW).clamp(-127, 127) as i8)
                .collect::<Vec<_>>(),
            shape.dense,
        ),
        b2: p[shape.b2()..shape.w3()]
            .iter()
            .map(|&x| to_i32(x, QA * QW))
            .collect(),
        w3: p[shape.w3()..shape.b3()]
            .iter()
            .map(|&x| to_i16(x, QO))
            .collect(),
        b3: to_i32(p[shape.b3()], QA * QO),
    }
}

/// The weights of the integer network `net`, as [`quantize`] reads them.
fn dequantize(net: &Network) -> Vec<f32> {
    let scaled = |x: i32, s: i32| x as f32 / s as f32;
    let mut p = Vec::with_capacity(
        Shape {
            hidden: net.hidden,
            dense: net.dense,
        }
        .len(),
    );
    p.extend(net.w1.iter().map(|&x| scaled(x.into(), QA)));
    p.extend(net.b1.iter().map(|&x| scaled(x.into(), QA)));
    p.extend(net.dense_rows().iter().map(|&x| scaled(x.into(), QW)));
    p.extend(net.b2.iter().map(|&x| scaled(x, QA * QW)));
    p.extend(net.w3.iter().map(|&x| scaled(x.into(), QO)));
    p.push(scaled(net.b3, QA * QO));
    p
}

/// The held-out loss of the integer network, as the engine scores.
fn integer_loss(net: &Network, set: &NetworkSamples, k: f32) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let total: f64 = (0..set.len())
        .into_par_iter()
        .map_init(
            || vec![0u8; 2 * net.hidden],
            |scratch, i| {
                let (us, them) = set.views(i);
                let wide =
                    |inputs: &[u8]| inputs.iter().map(|&x| usize::from(x)).collect::<Vec<_>>();
                let out = net.score_of_inputs(wide(us), wide(them), scratch);
                let q = sigmoid((set.base[i] + out as f32) / k);
                cross_entropy(q, set.result[i]) as f64
            },
        )
        .sum();
    total / set.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_network_read_back_as_weights_quantizes_to_itself() {
        let shape = Shape {
            hidden: 16,
            dense: 8,
        };
        let mut random = SplitMix64(5);
        let mut p: Vec<f32> = (0..shape.len())
            .map(|_| ((random.next() >> 11) as f32 / (1u64 << 53) as f32 - 0.5) * 4.0)
            .collect();
        clamp_weights(&mut p, shape);
        let net = quantize(VariantKind::Brazilian, 7, &p, shape);
        let back = dequantize(&net);
        assert_eq!(back.len(), shape.len());
        assert_eq!(quantize(VariantKind::Brazilian, 7, &back, shape), net);
    }
}

//! The loop both fits run, the pattern weights' (`pattern_fit`) and the
//! network's (`network_fit`): epochs of mini-batches in a seeded shuffle,
//! Adam's steps with a step size that falls geometrically from the first
//! batch to the last, the held-out loss after every epoch with the
//! parameters of the best epoch kept, and the progress told to the caller.
//! A fit gives its model as a [`Trainee`]: how a mini-batch's gradient is
//! found and applied, and its held-out loss. Here too the pieces both
//! models share: the logistic function, the cross-entropy and the fit of
//! the sigmoid's scale.

use rayon::prelude::*;
use std::ops::ControlFlow;

use crate::rules::random::SplitMix64;

/// The logistic function.
pub(super) fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of a prediction `q` against a target `t`.
pub(super) fn cross_entropy(q: f32, t: f32) -> f32 {
    let q = q.clamp(1e-6, 1.0 - 1e-6);
    -(t * q.ln() + (1.0 - t) * (1.0 - q).ln())
}

/// The scale `K` that fits `sigmoid(score / K)` best to `result`, position
/// by position.
pub fn fit_scale_to(score: &[f32], result: &[f32]) -> f32 {
    let base_loss = |k: f32| -> f64 {
        score
            .par_iter()
            .zip(result)
            .map(|(&s, &r)| cross_entropy(sigmoid(s / k), r) as f64)
            .sum::<f64>()
    };
    // Golden-section search over ln K.
    let (mut lo, mut hi) = (20f32.ln(), 3000f32.ln());
    let g = 0.618_034f32;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if base_loss(a.exp()) < base_loss(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Shuffles `order` in place (Fisher-Yates), the same for a seed on
/// every machine.
pub(super) fn shuffle(order: &mut [u32], random: &mut SplitMix64) {
    for i in (1..order.len()).rev() {
        order.swap(i, (random.next() % (i as u64 + 1)) as usize);
    }
}

/// Adam's step size by mini-batch: from the first to the last of a fit's
/// steps it falls geometrically from one size to another.
pub(super) struct StepSchedule {
    first: f32,
    decay: f32,
    steps: u64,
}

impl StepSchedule {
    /// Sizes `first` to `last` over `steps` mini-batches.
    pub(super) fn new(first: f32, last: f32, steps: u64) -> StepSchedule {
        StepSchedule {
            first,
            decay: (last / first).ln(),
            steps: steps.max(1),
        }
    }

    /// The size at mini-batch `step`, counted from 1.
    pub(super) fn at(&self, step: i32) -> f32 {
        let progress = (step - 1) as f32 / (self.steps - 1).max(1) as f32;
        self.first * (self.decay * progress).exp()
    }
}

/// What one epoch of a fit reports.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: u32,
    /// Mean loss over the training positions during the epoch.
    pub train_loss: f64,
    /// Loss on the held-out positions after the epoch.
    pub validation_loss: f64,
}

/// A model being fitted: its parameters are a flat vector the driver
/// keeps; the model knows how to move them.
pub(super) trait Trainee {
    /// Works out the gradient of `batch` (indices of training positions)
    /// and applies it to `params` through `adam`; returns the summed loss
    /// of the batch's positions against their results.
    fn train_batch(&mut self, params: &mut [f32], batch: &[u32], adam: &mut Adam) -> f64;

    /// The mean loss on the held-out positions under `params`.
    fn held_out_loss(&self, params: &[f32]) -> f64;
}

/// Adam's state: the moments of every parameter and the step it is at.
pub(super) struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
    correction1: f32,
    correction2: f32,
    learning_rate: f32,
}

/// Adam's decay of the first moment.
const BETA1: f32 = 0.9;
/// Adam's decay of the second moment.
const BETA2: f32 = 0.999;
/// Adam's guard against dividing by 0.
const EPSILON: f32 = 1e-8;

impl Adam {
    /// The state for `n` parameters before the first step.
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
            correction1: 1.0,
            correction2: 1.0,
            learning_rate: 0.0,
        }
    }

    /// Begins the next step, of size `learning_rate`.
    fn begin(&mut self, learning_rate: f32) {
        self.step += 1;
        self.correction1 = 1.0 - BETA1.powi(self.step);
        self.correction2 = 1.0 - BETA2.powi(self.step);
        self.learning_rate = learning_rate;
    }

    /// The step this one is, from 1.
    pub(super) fn step(&self) -> i32 {
        self.step
    }

    /// Moves parameter `j`, now `w`, by its gradient `g`.
    #[inline(always)]
    pub(super) fn apply(&mut self, j: usize, g: f32, w: &mut f32) {
        self.m[j] = BETA1 * self.m[j] + (1.0 - BETA1) * g;
        self.v[j] = BETA2 * self.v[j] + (1.0 - BETA2) * g * g;
        *w -= self.learning_rate * (self.m[j] / self.correction1)
            / ((self.v[j] / self.correction2).sqrt() + EPSILON);
    }
}

/// How a fit goes through its data.
#[derive(Clone, Copy, Debug)]
pub(super) struct Schedule {
    /// Passes over the training positions.
    pub(super) epochs: u32,
    /// Positions a mini-batch (0 is taken as 1).
    pub(super) batch: usize,
    /// Adam's step size at the first mini-batch.
    pub(super) learning_rate: f32,
    /// Adam's step size at the last mini-batch.
    pub(super) final_learning_rate: f32,
}

/// What a driven fit ends with.
pub(super) struct Driven {
    /// The parameters of the epoch with the lowest held-out loss (the
    /// start when no epoch beat it).
    pub(super) best_params: Vec<f32>,
    /// The held-out loss of the start.
    pub(super) start_loss: f64,
    /// The best held-out loss and its epoch (0: the start).
    pub(super) best: (f64, u32),
}

/// Fits `trainee` to its `positions` training positions from `params`,
/// the order of each epoch shuffled by `random`. `epoch_done` hears of
/// every epoch; `batch_done` of the share of the epoch done, and stops the
/// fit when it breaks (Ctrl-C): the epoch under way is dropped and the
/// best finished one kept.
pub(super) fn drive(
    trainee: &mut dyn Trainee,
    mut params: Vec<f32>,
    positions: usize,
    schedule: Schedule,
    random: &mut SplitMix64,
    epoch_done: &mut dyn FnMut(EpochReport),
    batch_done: &mut dyn FnMut(u32, f64) -> ControlFlow<()>,
) -> Driven {
    let start_loss = trainee.held_out_loss(&params);
    let mut best = (start_loss, 0);
    let mut best_params = params.clone();
    let mut adam = Adam::new(params.len());
    let mut order: Vec<u32> = (0..positions as u32).collect();
    let batch_size = schedule.batch.max(1);
    let batches = order.len().div_ceil(batch_size);
    let steps = StepSchedule::new(
        schedule.learning_rate,
        schedule.final_learning_rate,
        batches as u64 * schedule.epochs as u64,
    );
    'epochs: for epoch in 1..=schedule.epochs {
        shuffle(&mut order, random);
        let mut epoch_loss = 0f64;
        for (b, batch) in order.chunks(batch_size).enumerate() {
            adam.begin(steps.at(adam.step() + 1));
            epoch_loss += trainee.train_batch(&mut params, batch, &mut adam);
            if batch_done(epoch, (b + 1) as f64 / batches as f64).is_break() {
                break 'epochs;
            }
        }
        let validation_loss = trainee.held_out_loss(&params);
        if validation_loss < best.0 {
            best = (validation_loss, epoch);
            best_params.clone_from(&params);
        }
        epoch_done(EpochReport {
            epoch,
            train_loss: epoch_loss / positions.max(1) as f64,
            validation_loss,
        });
    }
    Driven {
        best_params,
        start_loss,
        best,
    }
}

//! Fitting the pattern weights to self-play data.
//!
//! The model is the engine's own evaluation from White's view:
//! `s = hand(pos) + sum over features i of c_i * (p * w_i[0] + (1 - p) * w_i[1])`
//! with `p` the middle-game share of the stage, `w_i` a weight pair (a
//! window state's table entry or a king term) and `c_i` how many times it
//! counts in White's score (see `eval::patterns::features`), the hand terms
//! held fixed. The loss is the cross-entropy between `sigmoid(s / K)` and
//! the target `(1 - lambda) * result + lambda * sigmoid(search score / K)`,
//! plus `l2 / 2` times the sum of the squared weights a batch touches. `K`
//! is fitted first, to the hand evaluation alone. Adam updates only the
//! weights a mini-batch touches (weights no position uses stay 0), with a
//! step that may fall geometrically from the first batch to the last.
//!
//! Batches are split into a fixed number of slices whose predictions are
//! worked out on all threads; the gradient is then added up in a fixed
//! order, so a run is the same for a seed whatever the thread count.

use rayon::prelude::*;

use crate::eval::patterns::{features, Layout, Patterns, MAX_WEIGHT, UNIT};
use crate::eval::{hand_white_score, table_for};
use crate::rules::Rules;

use super::data::Record;
use super::distinct::Distinct;
use super::driver::{
    cross_entropy, drive, fit_scale_to, sigmoid, Adam, EpochReport, Schedule, Trainee,
};
use crate::rules::random::SplitMix64;

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions a mini-batch.
    pub batch: usize,
    /// Adam's step size at the first mini-batch, hundredths of a man.
    pub learning_rate: f32,
    /// Adam's step size at the last mini-batch: the step falls from
    /// `learning_rate` to it geometrically, batch by batch (equal to
    /// `learning_rate`: a constant step).
    pub final_learning_rate: f32,
    /// L2 penalty on the weights.
    pub l2: f32,
    /// Share of the search score in the target (0: the game result alone).
    pub lambda: f32,
    /// Seed of the shuffles.
    pub seed: u64,
}

/// The positions of a data set in the form the fit reads.
pub struct Samples {
    layout: Layout,
    /// Where each position's features start in `index` and `count`, and
    /// one more entry for the end of the last.
    offsets: Vec<usize>,
    /// The weight pair of each feature.
    index: Vec<u32>,
    /// How many times each feature counts in White's score.
    count: Vec<i16>,
    /// The middle-game share of the stage.
    phase: Vec<f32>,
    /// The hand evaluation, White's view.
    base: Vec<f32>,
    /// Game result for White: 0, 0.5 or 1 (a mean over the games a
    /// position occurred in, once de-duplicated).
    result: Vec<f32>,
    /// The search score, White's view (a mean, once de-duplicated).
    score: Vec<f32>,
}

impl Samples {
    /// An empty set for a board of `layout`.
    pub fn new(layout: Layout) -> Samples {
        Samples {
            layout,
            offsets: vec![0],
            index: Vec::new(),
            count: Vec::new(),
            phase: Vec::new(),
            base: Vec::new(),
            result: Vec::new(),
            score: Vec::new(),
        }
    }

    /// Positions in the set.
    pub fn len(&self) -> usize {
        self.phase.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// The window layout the set's features are for.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Adds the records of variant `R`, each with its own labels; a record
    /// that is not a position of `R` is an error.
    pub fn extend<R: Rules>(&mut self, records: &[Record]) -> Result<(), String> {
        let single: Vec<Distinct> = records.iter().map(|&r| Distinct::single(r)).collect();
        self.extend_distinct::<R>(&single)
    }

    /// Adds de-duplicated positions of variant `R` with their mean labels.
    pub fn extend_distinct<R: Rules>(&mut self, positions: &[Distinct]) -> Result<(), String> {
        let table = table_for::<R>();
        let layout = self.layout;
        let rows: Vec<_> = positions
            .par_iter()
            .map(|d| {
                let pos = d.record.position::<R>()?;
                let mut found = Vec::with_capacity(16);
                let phase = features(layout, &pos, |i, c| found.push((i, c)));
                Ok((found, phase, hand_white_score(&pos, table) as f32))
            })
            .collect::<Result<_, String>>()?;
        for ((found, phase, base), d) in rows.into_iter().zip(positions) {
            for (i, c) in found {
                let count = i16::try_from(c)
                    .map_err(|_| format!("a feature counts {c} times in one position"))?;
                self.index.push(i);
                self.count.push(count);
            }
            self.offsets.push(self.index.len());
            self.phase.push(phase);
            self.base.push(base);
            self.result.push(d.result);
            self.score.push(d.score);
        }
        Ok(())
    }

    /// The features of sample `i`: weight pairs and counts.
    fn features(&self, i: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let span = self.offsets[i]..self.offsets[i + 1];
        self.index[span.clone()]
            .iter()
            .zip(&self.count[span])
            .map(|(&w, &c)| (w as usize, c as f32))
    }
}

/// White's score of sample `i` of `set` under `weights`, the weights
/// being fitted in hundredths of a man, `[pair][phase]`.
fn predict(weights: &[f32], set: &Samples, i: usize) -> f32 {
    let p = set.phase[i];
    let mut s = set.base[i];
    for (w, c) in set.features(i) {
        s += c * (p * weights[2 * w] + (1.0 - p) * weights[2 * w + 1]);
    }
    s
}

/// The mean cross-entropy of the model on `set` against the game results.
fn loss(weights: &[f32], set: &Samples, k: f32) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let total: f64 = (0..set.len())
        .into_par_iter()
        .map(|i| cross_entropy(sigmoid(predict(weights, set, i) / k), set.result[i]) as f64)
        .sum();
    total / set.len() as f64
}

/// The scale `K` that fits `sigmoid(hand / K)` best to the results of `set`.
pub fn fit_scale(set: &Samples) -> f32 {
    fit_scale_to(&set.base, &set.result)
}

/// The outcome of a fit.
pub struct Fitted {
    /// The weights of the epoch with the lowest validation loss.
    pub patterns: Patterns,
    /// The sigmoid scale.
    pub k: f32,
    /// The validation loss of the hand evaluation alone (or of the
    /// starting weights).
    pub start_loss: f64,
    /// The best validation loss and its epoch.
    pub best: (f64, u32),
}

/// Slices a mini-batch is cut into for the parallel predictions.
const SLICES: usize = 16;

/// The pattern weights as the driver fits them: the training and held-out
/// sets, the scale, and the gradient of a batch with the weights it
/// touched.
struct PatternTrainee<'a> {
    train: &'a Samples,
    valid: &'a Samples,
    config: &'a FitConfig,
    k: f32,
    grad: Vec<f32>,
    touched: Vec<u32>,
    /// The step at which each (middle-game, ending) pair was last touched.
    touched_at: Vec<i32>,
}

impl Trainee for PatternTrainee<'_> {
    fn train_batch(&mut self, weights: &mut [f32], batch: &[u32], adam: &mut Adam) -> f64 {
        let (train, config, k) = (self.train, self.config, self.k);
        // 1. Predictions and each position's gradient of the loss with
        // respect to its score, slice by slice on all threads.
        let slice = batch.len().div_ceil(SLICES);
        let parts: Vec<(Vec<f32>, f64)> = batch
            .par_chunks(slice.max(1))
            .map(|ids| {
                let mut out = Vec::with_capacity(ids.len());
                let mut sum = 0f64;
                for &i in ids {
                    let i = i as usize;
                    let q = sigmoid(predict(weights, train, i) / k);
                    let t = (1.0 - config.lambda) * train.result[i]
                        + config.lambda * sigmoid(train.score[i] / k);
                    sum += cross_entropy(q, train.result[i]) as f64;
                    out.push((q - t) / k / batch.len() as f32);
                }
                (out, sum)
            })
            .collect();
        // 2. The gradient of the weights, added up in order.
        let step = adam.step();
        let ids = batch.iter().map(|&i| i as usize);
        let gs = parts.iter().flat_map(|(g, _)| g.iter().copied());
        for (i, g) in ids.zip(gs) {
            let p = train.phase[i];
            for (w, c) in train.features(i) {
                if self.touched_at[w] != step {
                    self.touched_at[w] = step;
                    self.touched.push(w as u32);
                }
                self.grad[2 * w] += c * g * p;
                self.grad[2 * w + 1] += c * g * (1.0 - p);
            }
        }
        // 3. Adam on the touched weights.
        let limit = MAX_WEIGHT as f32 / UNIT as f32;
        for &w in &self.touched {
            for j in [2 * w as usize, 2 * w as usize + 1] {
                let g = self.grad[j] + config.l2 * weights[j];
                adam.apply(j, g, &mut weights[j]);
                weights[j] = weights[j].clamp(-limit, limit);
                self.grad[j] = 0.0;
            }
        }
        self.touched.clear();
        parts.iter().map(|(_, s)| s).sum::<f64>()
    }

    fn held_out_loss(&self, weights: &[f32]) -> f64 {
        loss(weights, self.valid, self.k)
    }
}

/// Fits pattern weights for `layout` to `train`, validating on `valid`,
/// starting from `start`. `epoch_done` hears of every epoch; `batch_done`
/// of the share of the epoch done.
pub fn fit(
    layout: Layout,
    train: &Samples,
    valid: &Samples,
    start: &Patterns,
    config: &FitConfig,
    epoch_done: &mut dyn FnMut(EpochReport),
    batch_done: &mut dyn FnMut(u32, f64) -> std::ops::ControlFlow<()>,
) -> Fitted {
    assert_eq!(
        (train.layout, valid.layout, start.layout()),
        (layout, layout, layout),
        "the samples and the starting weights must be of the fitted layout"
    );
    let k = fit_scale(train);
    let n = layout.weights_per_phase() * 2;
    let weights = start
        .raw()
        .iter()
        .map(|&v| v as f32 / UNIT as f32)
        .collect();
    let mut trainee = PatternTrainee {
        train,
        valid,
        config,
        k,
        grad: vec![0f32; n],
        touched: Vec::new(),
        touched_at: vec![0i32; n / 2],
    };
    let schedule = Schedule {
        epochs: config.epochs,
        batch: config.batch,
        learning_rate: config.learning_rate,
        final_learning_rate: config.final_learning_rate,
    };
    let mut random = SplitMix64(config.seed);
    let driven = drive(
        &mut trainee,
        weights,
        train.len(),
        schedule,
        &mut random,
        epoch_done,
        batch_done,
    );
    let raw = driven
        .best_params
        .iter()
        .map(|&w| (w * UNIT as f32).round() as i16)
        .collect();
    Fitted {
        patterns: Patterns::from_raw(layout, raw).expect("weights are clamped to the range"),
        k,
        start_loss: driven.start_loss,
        best: driven.best,
    }
}

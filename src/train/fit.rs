//! Fitting the pattern weights to self-play data.
//!
//! The model is the engine's own evaluation from White's view:
//! `s = hand(pos) + sum over windows w of (p * F_w[s_w][0] + (1 - p) * F_w[s_w][1])`
//! with `p` the share of pieces still on the board and `F` the folded
//! weights (see `eval::patterns`), the hand terms held fixed. The loss is
//! the cross-entropy between `sigmoid(s / K)` and the target
//! `(1 - lambda) * result + lambda * sigmoid(search score / K)`, plus
//! `l2 / 2` times the sum of the squared weights a batch touches. `K` is
//! fitted first, to the hand evaluation alone. Adam updates only the
//! weights a mini-batch touches (weights no position uses stay 0).
//!
//! Batches are split into a fixed number of slices whose predictions are
//! worked out on all threads; the gradient is then added up in a fixed
//! order, so a run is the same for a seed whatever the thread count.
//!
//! Then [`fit_endings`] fits the ending scale (see `eval::endings`) to the
//! game results of the positions with a king, one factor a material
//! configuration, the fitted patterns held fixed.

use rayon::prelude::*;

use crate::eval::endings::{cell_of, EndingScale, CELLS, ONE};
use crate::eval::patterns::{features, Layout, Patterns, MAX_WEIGHT, UNIT};
use crate::eval::{hand_white_score, table_for};
use crate::rules::{Goal, Rules, Side};

use super::data::Record;
use super::SplitMix;

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions a mini-batch.
    pub batch: usize,
    /// Adam's step size, hundredths of a man.
    pub learning_rate: f32,
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
    windows: usize,
    /// Window states, `windows` a position.
    states: Vec<u32>,
    /// Share of the pieces on the board (middle-game phase weight).
    phase: Vec<f32>,
    /// The hand evaluation, White's view.
    base: Vec<f32>,
    /// Game result for White: 0, 0.5 or 1.
    result: Vec<f32>,
    /// The search score, White's view.
    score: Vec<f32>,
    /// The ending-scale configuration of the position with White ahead
    /// and with Black ahead; [`NO_CELL`] without a king (or in a variant
    /// whose endings are not scaled).
    cells: Vec<[u16; 2]>,
}

/// See [`Samples::cells`].
const NO_CELL: u16 = u16::MAX;

impl Samples {
    /// An empty set for a board of `layout`.
    pub fn new(layout: Layout) -> Samples {
        Samples {
            layout,
            windows: layout.windows(),
            states: Vec::new(),
            phase: Vec::new(),
            base: Vec::new(),
            result: Vec::new(),
            score: Vec::new(),
            cells: Vec::new(),
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

    /// Adds the records of variant `R`; a record that is not a position of
    /// `R` is an error.
    pub fn extend<R: Rules>(&mut self, records: &[Record]) -> Result<(), String> {
        let table = table_for::<R>();
        let layout = self.layout;
        let rows: Vec<_> = records
            .par_iter()
            .map(|r| {
                let pos = r.position::<R>()?;
                let (states, phase) = features(layout, &pos);
                let cells = if R::GOAL == Goal::Normal && pos.all_kings() != 0 {
                    [Side::White, Side::Black].map(|s| cell_of(&pos, s) as u16)
                } else {
                    [NO_CELL; 2]
                };
                Ok((states, phase, hand_white_score(&pos, table) as f32, cells))
            })
            .collect::<Result<_, String>>()?;
        for ((states, phase, base, cells), r) in rows.into_iter().zip(records) {
            self.cells.push(cells);
            self.states.extend_from_slice(&states);
            self.phase.push(phase);
            self.base.push(base);
            self.result.push((r.result as f32 + 1.0) / 2.0);
            self.score.push(r.score as f32);
        }
        Ok(())
    }
}

/// The weights being fitted, in hundredths of a man, `[window][state][phase]`.
struct Model {
    layout: Layout,
    weights: Vec<f32>,
}

impl Model {
    /// The model of fitted `patterns`.
    fn of(patterns: &Patterns) -> Model {
        Model {
            layout: patterns.layout(),
            weights: patterns
                .raw()
                .iter()
                .map(|&v| v as f32 / UNIT as f32)
                .collect(),
        }
    }

    /// White's score of sample `i` of `set`.
    fn predict(&self, set: &Samples, i: usize) -> f32 {
        let p = set.phase[i];
        let size = self.layout.states();
        let mut s = set.base[i];
        for (w, &state) in set.states[i * set.windows..(i + 1) * set.windows]
            .iter()
            .enumerate()
        {
            let own = (w * size + state as usize) * 2;
            let r = self.layout.rotated(w);
            let other = (r * size + self.layout.mirrored(state as usize)) * 2;
            s += p * (self.weights[own] - self.weights[other])
                + (1.0 - p) * (self.weights[own + 1] - self.weights[other + 1]);
        }
        s
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of a prediction `q` against a target `t`.
fn cross_entropy(q: f32, t: f32) -> f32 {
    let q = q.clamp(1e-6, 1.0 - 1e-6);
    -(t * q.ln() + (1.0 - t) * (1.0 - q).ln())
}

/// The mean cross-entropy of the model on `set` against the game results.
fn loss(model: &Model, set: &Samples, k: f32) -> f64 {
    if set.is_empty() {
        return 0.0;
    }
    let total: f64 = (0..set.len())
        .into_par_iter()
        .map(|i| cross_entropy(sigmoid(model.predict(set, i) / k), set.result[i]) as f64)
        .sum();
    total / set.len() as f64
}

/// The scale `K` that fits `sigmoid(hand / K)` best to the results of `set`.
pub fn fit_scale(set: &Samples) -> f32 {
    let base_loss = |k: f32| -> f64 {
        (0..set.len())
            .into_par_iter()
            .map(|i| cross_entropy(sigmoid(set.base[i] / k), set.result[i]) as f64)
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
    batch_done: &mut dyn FnMut(u32, f64),
) -> Fitted {
    assert_eq!(
        (train.layout, valid.layout, start.layout()),
        (layout, layout, layout),
        "the samples and the starting weights must be of the fitted layout"
    );
    let k = fit_scale(train);
    let size = layout.states();
    let n = layout.weights_per_phase() * 2;
    let mut model = Model::of(start);
    let start_loss = loss(&model, valid, k);
    let mut best = (start_loss, 0);
    let mut best_weights = model.weights.clone();
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let mut grad = vec![0f32; n];
    let mut touched: Vec<u32> = Vec::new();
    // The step at which each (middle-game, ending) pair was last touched.
    let mut touched_at = vec![0i32; n / 2];
    let mut step = 0i32;
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut random = SplitMix(config.seed);
    for epoch in 1..=config.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, (random.next() % (i as u64 + 1)) as usize);
        }
        let mut epoch_loss = 0f64;
        let batches = order.len().div_ceil(config.batch.max(1));
        for (b, batch) in order.chunks(config.batch.max(1)).enumerate() {
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
                        let q = sigmoid(model.predict(train, i) / k);
                        let t = (1.0 - config.lambda) * train.result[i]
                            + config.lambda * sigmoid(train.score[i] / k);
                        sum += cross_entropy(q, train.result[i]) as f64;
                        out.push((q - t) / k / batch.len() as f32);
                    }
                    (out, sum)
                })
                .collect();
            // 2. The gradient of the weights, added up in order.
            step += 1;
            let ids = batch.iter().map(|&i| i as usize);
            let gs = parts.iter().flat_map(|(g, _)| g.iter().copied());
            for (i, g) in ids.zip(gs) {
                let p = train.phase[i];
                for (w, &state) in train.states[i * train.windows..(i + 1) * train.windows]
                    .iter()
                    .enumerate()
                {
                    let own = (w * size + state as usize) * 2;
                    let r = layout.rotated(w);
                    let other = (r * size + layout.mirrored(state as usize)) * 2;
                    for (at, sign) in [(own, 1.0f32), (other, -1.0)] {
                        if touched_at[at / 2] != step {
                            touched_at[at / 2] = step;
                            touched.push(at as u32);
                        }
                        grad[at] += sign * g * p;
                        grad[at + 1] += sign * g * (1.0 - p);
                    }
                }
            }
            epoch_loss += parts.iter().map(|(_, s)| s).sum::<f64>();
            // 3. Adam on the touched weights.
            let correction1 = 1.0 - beta1.powi(step);
            let correction2 = 1.0 - beta2.powi(step);
            for &at in &touched {
                for j in [at as usize, at as usize + 1] {
                    let g = grad[j] + config.l2 * model.weights[j];
                    m[j] = beta1 * m[j] + (1.0 - beta1) * g;
                    v[j] = beta2 * v[j] + (1.0 - beta2) * g * g;
                    let update = config.learning_rate * (m[j] / correction1)
                        / ((v[j] / correction2).sqrt() + eps);
                    let limit = MAX_WEIGHT as f32 / UNIT as f32;
                    model.weights[j] = (model.weights[j] - update).clamp(-limit, limit);
                    grad[j] = 0.0;
                }
            }
            touched.clear();
            batch_done(epoch, (b + 1) as f64 / batches as f64);
        }
        let validation_loss = loss(&model, valid, k);
        if validation_loss < best.0 {
            best = (validation_loss, epoch);
            best_weights.clone_from(&model.weights);
        }
        epoch_done(EpochReport {
            epoch,
            train_loss: epoch_loss / train.len().max(1) as f64,
            validation_loss,
        });
    }
    let raw = best_weights
        .iter()
        .map(|&w| (w * UNIT as f32).round() as i16)
        .collect();
    Fitted {
        patterns: Patterns::from_raw(layout, raw).expect("weights are clamped to the range"),
        k,
        start_loss,
        best,
    }
}

/// Positions a configuration needs for its factor to be fitted; one with
/// fewer keeps [`ONE`].
pub const MIN_CELL_POSITIONS: usize = 1000;
/// The factors a fit may choose, in 64ths: a quarter to a quarter more.
/// Wider, the fit sends the factors of configurations that are nearly
/// always won to the top and of mixed ones to 0, and the scale played
/// worse (see `benches/RESULTS.md`).
pub const FACTOR_RANGE: std::ops::RangeInclusive<u8> = ONE / 4..=ONE + ONE / 4;

/// The outcome of an ending-scale fit.
pub struct EndingsFit {
    /// The fitted scale.
    pub scale: EndingScale,
    /// Training positions with a king.
    pub positions: usize,
    /// Configurations fitted (the rest keep [`ONE`]).
    pub fitted: usize,
    /// Held-out loss against the results over the positions with a king,
    /// without the scale and with it.
    pub loss: (f64, f64),
    /// Held-out positions with a king.
    pub held_out: usize,
}

/// Fits the ending scale of `patterns` to the results of `train`'s
/// positions with a king under the sigmoid scale `k`: for each
/// configuration (the side the score favours first) the factor in 64ths,
/// within [`FACTOR_RANGE`] in steps of 1/64, that gives the least cross-entropy between
/// `sigmoid(score * factor / k)` and the result. The results, not the
/// search scores, are the target: the search shares the optimism of the
/// evaluation it would correct.
pub fn fit_endings(patterns: &Patterns, train: &Samples, valid: &Samples, k: f32) -> EndingsFit {
    let model = Model::of(patterns);
    // (configuration, |score|, result for the side ahead) of every position
    // with a king.
    let oriented = |set: &Samples| -> Vec<(u16, f32, f32)> {
        (0..set.len())
            .into_par_iter()
            .filter(|&i| set.cells[i][0] != NO_CELL)
            .map(|i| {
                let score = model.predict(set, i);
                if score >= 0.0 {
                    (set.cells[i][0], score, set.result[i])
                } else {
                    (set.cells[i][1], -score, 1.0 - set.result[i])
                }
            })
            .collect()
    };
    let mut by_cell: Vec<Vec<(f32, f32)>> = vec![Vec::new(); CELLS];
    let samples = oriented(train);
    for &(cell, score, result) in &samples {
        by_cell[cell as usize].push((score, result));
    }
    let cell_loss = |points: &[(f32, f32)], factor: u8| -> f64 {
        let f = factor as f32 / ONE as f32;
        points
            .iter()
            .map(|&(score, result)| cross_entropy(sigmoid(score * f / k), result) as f64)
            .sum()
    };
    let factors: Vec<u8> = by_cell
        .par_iter()
        .map(|points| {
            if points.len() < MIN_CELL_POSITIONS {
                return ONE;
            }
            FACTOR_RANGE
                .min_by(|&a, &b| cell_loss(points, a).total_cmp(&cell_loss(points, b)))
                .expect("factors to try")
        })
        .collect();
    let fitted = by_cell
        .iter()
        .filter(|p| p.len() >= MIN_CELL_POSITIONS)
        .count();
    let held = oriented(valid);
    let held_loss = |factor_of: &dyn Fn(u16) -> u8| -> f64 {
        let total: f64 = held
            .iter()
            .map(|&(cell, score, result)| {
                let f = factor_of(cell) as f32 / ONE as f32;
                cross_entropy(sigmoid(score * f / k), result) as f64
            })
            .sum();
        total / held.len().max(1) as f64
    };
    let loss = (
        held_loss(&|_| ONE),
        held_loss(&|cell| factors[cell as usize]),
    );
    EndingsFit {
        scale: EndingScale::from_factors(factors).expect("one factor a configuration"),
        positions: samples.len(),
        fitted,
        loss,
        held_out: held.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::endings::cell;
    use crate::rules::Board10;

    /// A set of `n` positions of one configuration, White ahead by `score`
    /// by the model, with results drawn so that White wins `wins` of every
    /// 8 and draws the rest.
    fn one_cell(set: &mut Samples, n: usize, white_cell: usize, score: f32, wins: usize) {
        for i in 0..n {
            set.states.extend(std::iter::repeat_n(0, set.windows));
            set.phase.push(0.2);
            set.base.push(score);
            set.result.push(if i % 8 < wins { 1.0 } else { 0.5 });
            set.score.push(score);
            set.cells.push([white_cell as u16, 0]);
        }
    }

    #[test]
    fn the_ending_scale_learns_which_leads_are_drawn() {
        let layout = Layout::of::<Board10>();
        let mut set = Samples::new(layout);
        let drawn = cell(2, 1, 1, 1);
        let won = cell(1, 3, 0, 1);
        let rare = cell(5, 2, 0, 1);
        // A lead of 3 men that only ever draws, one of 1 man that always
        // wins, and too few positions to fit.
        one_cell(&mut set, 2 * MIN_CELL_POSITIONS, drawn, 300.0, 0);
        one_cell(&mut set, 2 * MIN_CELL_POSITIONS, won, 100.0, 8);
        one_cell(&mut set, MIN_CELL_POSITIONS - 1, rare, 300.0, 0);
        let patterns = Patterns::zero(layout);
        let fit = fit_endings(&patterns, &set, &set, 100.0);
        let f = fit.scale.factors();
        assert_eq!(
            f[drawn],
            *FACTOR_RANGE.start(),
            "a lead that never wins shrinks"
        );
        assert_eq!(f[won], *FACTOR_RANGE.end(), "a lead that always wins grows");
        assert_eq!(f[rare], ONE, "too few positions: unchanged");
        assert_eq!(fit.fitted, 2);
        assert_eq!(fit.positions, set.len());
        assert!(fit.loss.1 < fit.loss.0, "{:?}", fit.loss);
    }
}

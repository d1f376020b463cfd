//! A small neural network added to the evaluation: it learns what the hand
//! terms and the pattern windows miss (how pieces far apart bear on each
//! other), fitted by `tempo train --network` on top of the built-in
//! patterns of its variant.
//!
//! ```text
//! inputs, for each side's view: 4 x 64 (own men, own kings, other men,
//!         other kings, by bit; Black's view is the board turned half a
//!         circle), about 40 of them on
//! layer 1: 256 inputs -> H (the same weights for both views), kept as an
//!         int16 accumulator per view and updated as pieces come and go
//! layer 2: the two views, the side to move's first, clipped to 0..1
//!         (2H values) -> D, clipped to 0..1
//! output:  D -> 1, in men; the network's score is 100 times it, within
//!         +-MAX_CORRECTION, added to the side to move's score of hand
//!         terms and patterns
//! ```
//!
//! The weights are integers (layer 1 and the activations scaled by
//! [`QA`], layer 2 by [`QW`] and within a byte, the output by [`QO`]),
//! so every machine and every code path gets the same numbers: the dense
//! layers have a portable build, an AVX2 one and an AVX-512 VNNI one,
//! the fastest the processor runs chosen (tested to agree).

mod accumulator;
mod file;

pub use accumulator::Accumulators;
pub use file::{builtin_network, network_checksum, read_network, write_network};

use crate::rules::{Position, Rules, Side, VariantKind};

/// Inputs of one view: 4 piece kinds by 64 bits.
pub const INPUTS: usize = 256;
/// Activations of layer 1 and 2: 1.0 is `QA`.
pub const QA: i32 = 127;
/// Layer 2 weights: 1.0 is `QW` (a power of two: its division is a shift).
pub const QW: i32 = 64;
const QW_SHIFT: u32 = 6;
/// Output weights: 1.0 is `QO`.
pub const QO: i32 = 64;
/// The most the network adds to or takes from a score, in hundredths of
/// a man: a correction of the patterns, not a judge of its own. Where the
/// game is long decided the fit's loss no longer feels the score, and an
/// unbounded network there swung scores by ten men and more, which the
/// search then chased.
pub const MAX_CORRECTION: i32 = 150;
/// The largest layer-2 weight, so that a weight fits an `i8` once scaled.
pub const MAX_DENSE_WEIGHT: f32 = 127.0 / QW as f32;
/// The widest layer 1 and layer 2 a network file may have.
pub const MAX_HIDDEN: usize = 1024;
/// See [`MAX_HIDDEN`].
pub const MAX_DENSE: usize = 128;

/// A network's integer weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The variant it was fitted for.
    pub variant: VariantKind,
    /// The FNV-1a 64 checksum of the pattern weights it was fitted on
    /// top of (see `weights_file::patterns_checksum`).
    pub base: u64,
    /// Layer 1 width (a multiple of 16).
    pub hidden: usize,
    /// Layer 2 width (a multiple of 8).
    pub dense: usize,
    /// Layer 1 weights, `[input][hidden]`, scaled by [`QA`].
    pub w1: Vec<i16>,
    /// Layer 1 biases, scaled by [`QA`].
    pub b1: Vec<i16>,
    /// Layer 2 weights, scaled by [`QW`], in groups of four inputs:
    /// `[2 * hidden / 4][dense][4]`, so that one step of the dense layer
    /// takes four inputs to every unit ([`dense_from_rows`] makes it from
    /// the units' rows, [`Network::dense_rows`] gives them back).
    pub w2: Vec<i8>,
    /// Layer 2 biases, scaled by `QA * QW`.
    pub b2: Vec<i32>,
    /// Output weights, scaled by [`QO`].
    pub w3: Vec<i16>,
    /// Output bias, scaled by `QA * QO`.
    pub b3: i32,
}

/// Where in [`Network::w2`] of a network `dense` units wide the weight
/// from layer 2's input `input` (0..2H) to unit `unit` lies.
fn dense_index(dense: usize, unit: usize, input: usize) -> usize {
    (input / 4 * dense + unit) * 4 + input % 4
}

/// Layer 2's weights as [`Network::w2`] holds them, from `rows`: the
/// rows of `dense` units one after another (a network file's order).
pub fn dense_from_rows(rows: &[i8], dense: usize) -> Vec<i8> {
    let mut out = vec![0; rows.len()];
    for (unit, row) in rows.chunks_exact(rows.len() / dense).enumerate() {
        for (input, &w) in row.iter().enumerate() {
            out[dense_index(dense, unit, input)] = w;
        }
    }
    out
}

/// The inputs on in `pos` as `view` sees it, at most 64 of them: own men,
/// own kings, other men, other kings, each by bit (Black's view turns the
/// board half a circle). Calls `on` for each.
#[inline(always)]
pub fn for_each_input<R: Rules>(pos: &Position<R>, side: Side, mut on: impl FnMut(usize)) {
    let planes = view_bitboards(
        pos.pieces(Side::White),
        pos.pieces(Side::Black),
        pos.all_kings(),
        view::<R>(side),
    );
    for (kind, bits) in planes.into_iter().enumerate() {
        let mut rest = bits;
        while rest != 0 {
            on(kind * 64 + rest.trailing_zeros() as usize);
            rest &= rest - 1;
        }
    }
}

/// How a view reads the board: the side whose pieces are "own" and the
/// highest bit of the board when the board is turned (`None`: as it is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct View {
    side: Side,
    turn_top: Option<u32>,
}

/// The view of `side` on the board of `R`.
#[inline(always)]
pub(crate) fn view<R: Rules>(side: Side) -> View {
    View {
        side,
        turn_top: (side == Side::Black)
            .then(|| 63 - <R::Geometry as crate::rules::Geometry>::BOARD.leading_zeros()),
    }
}

/// The four input bitboards of a view (own men, own kings, other men,
/// other kings) of the pieces `white`, `black` with `kings`.
#[inline(always)]
pub(crate) fn view_bitboards(white: u64, black: u64, kings: u64, view: View) -> [u64; 4] {
    let (own, other) = match view.side {
        Side::White => (white, black),
        Side::Black => (black, white),
    };
    let planes = [own & !kings, own & kings, other & !kings, other & kings];
    match view.turn_top {
        None => planes,
        Some(top) => planes.map(|bits| bits.reverse_bits() >> (63 - top)),
    }
}

impl Network {
    /// Layer 2's weights as the rows of its units one after another (a
    /// network file's order; [`dense_from_rows`] turns them back).
    pub fn dense_rows(&self) -> Vec<i8> {
        (0..self.dense)
            .flat_map(|unit| {
                (0..2 * self.hidden).map(move |input| self.w2[dense_index(self.dense, unit, input)])
            })
            .collect()
    }

    /// The network's score of `pos` from the side to move's view, in
    /// hundredths of a man, with layer 1 worked out afresh.
    pub fn score<R: Rules>(&self, pos: &Position<R>) -> i32 {
        let [mut us, mut them] = [Vec::with_capacity(64), Vec::with_capacity(64)];
        let side = pos.side_to_move();
        for_each_input(pos, side, |i| us.push(i));
        for_each_input(pos, side.opponent(), |i| them.push(i));
        self.score_of_inputs(us, them, &mut vec![0u8; 2 * self.hidden])
    }

    /// The network's score for the inputs on in the side to move's view
    /// (`us`) and in the other's (`them`), layer 1 worked out afresh;
    /// `scratch` (2H values) takes layer 2's inputs.
    pub(crate) fn score_of_inputs(
        &self,
        us: impl IntoIterator<Item = usize>,
        them: impl IntoIterator<Item = usize>,
        scratch: &mut [u8],
    ) -> i32 {
        let (mut ours, mut theirs) = (self.b1.clone(), self.b1.clone());
        us.into_iter().for_each(|i| self.add_input(&mut ours, i));
        them.into_iter()
            .for_each(|i| self.add_input(&mut theirs, i));
        self.output(&ours, &theirs, scratch)
    }

    /// Adds input `i`'s layer-1 weights to `acc`.
    #[inline(always)]
    pub(crate) fn add_input(&self, acc: &mut [i16], i: usize) {
        let row = &self.w1[i * self.hidden..(i + 1) * self.hidden];
        for (a, w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(*w);
        }
    }

    /// Takes input `i`'s layer-1 weights from `acc`.
    #[inline(always)]
    pub(crate) fn remove_input(&self, acc: &mut [i16], i: usize) {
        let row = &self.w1[i * self.hidden..(i + 1) * self.hidden];
        for (a, w) in acc.iter_mut().zip(row) {
            *a = a.wrapping_sub(*w);
        }
    }

    /// Layers 2 and 3 from the accumulators of the side to move (`us`)
    /// and of the other side: the score in hundredths of a man.
    /// `scratch` (2H values) takes layer 2's inputs.
    #[inline]
    pub(crate) fn output(&self, us: &[i16], them: &[i16], scratch: &mut [u8]) -> i32 {
        dense::output(self, us, them, scratch)
    }
}

mod dense {
    //! Layers 2 and 3 in three builds that give the same integers: a
    //! portable one, an AVX2 one and an AVX-512 VNNI one, the fastest the
    //! processor runs chosen at run time. Each walks layer 2's inputs four
    //! at a time (the weights lie in groups of four, see
    //! [`super::dense_index`]): the vector builds set the four inputs
    //! beside each of eight units' four weights and multiply them in one
    //! step. AVX2 multiplies pairs into 16 bits first (`vpmaddubsw`:
    //! activations 0..=127 by weights -127..=127, a pair's sum at most
    //! 32,258, so no step saturates); VNNI sums the four products into 32
    //! bits at once (`vpdpbusd`).

    use super::{Network, MAX_DENSE, QA, QO, QW_SHIFT};
    use once_cell::sync::Lazy;

    /// A build of the dense layers.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(super) enum Build {
        /// Plain Rust, for any processor.
        Portable,
        /// AVX2 instructions.
        Avx2,
        /// AVX-512 VNNI instructions on 256-bit vectors.
        Vnni,
    }

    /// Whether the processor runs AVX2 instructions.
    static AVX2: Lazy<bool> = Lazy::new(|| {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    });

    /// Whether the processor runs AVX-512 VNNI on 256-bit vectors.
    static VNNI: Lazy<bool> = Lazy::new(|| {
        #[cfg(target_arch = "x86_64")]
        {
            *AVX2
                && std::arch::is_x86_feature_detected!("avx512vnni")
                && std::arch::is_x86_feature_detected!("avx512vl")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    });

    /// The builds this processor runs, the fastest last.
    pub(super) fn builds() -> Vec<Build> {
        let mut out = vec![Build::Portable];
        out.extend(AVX2.then_some(Build::Avx2));
        out.extend(VNNI.then_some(Build::Vnni));
        out
    }

    /// Layer 2's inputs: both views' accumulators clipped to 0..=QA,
    /// written to the first 2H bytes of `input`.
    #[inline(always)]
    fn layer2_inputs<'a>(net: &Network, us: &[i16], them: &[i16], input: &'a mut [u8]) -> &'a [u8] {
        let input = &mut input[..2 * net.hidden];
        let (first, second) = input.split_at_mut(us.len());
        for (x, &a) in first.iter_mut().zip(us) {
            *x = a.clamp(0, QA as i16) as u8;
        }
        for (x, &a) in second.iter_mut().zip(them) {
            *x = a.clamp(0, QA as i16) as u8;
        }
        input
    }

    /// The output from layer 2's sums, in hundredths of a man.
    #[inline(always)]
    fn finish(net: &Network, sums: &[i32]) -> i32 {
        let mut out = net.b3;
        for ((sum, &bias), &w3) in sums.iter().zip(&net.b2).zip(&net.w3) {
            let h = ((sum + bias) >> QW_SHIFT).clamp(0, QA);
            out += h * i32::from(w3);
        }
        // `out` is QA * QO times the output in men.
        (out * 100 / (QA * QO)).clamp(-super::MAX_CORRECTION, super::MAX_CORRECTION)
    }

    /// The fastest build the processor runs.
    static FASTEST: Lazy<Build> = Lazy::new(|| *builds().last().expect("the portable build"));

    /// The score through the fastest build the processor runs.
    #[inline]
    pub(super) fn output(net: &Network, us: &[i16], them: &[i16], scratch: &mut [u8]) -> i32 {
        // SAFETY: the processor runs its fastest build (found with
        // `is_x86_feature_detected`). Why vector builds: `tempo bench`
        // nodes a second, 2026-12-04, a 128-32 network, 3.83 M with an
        // AVX2 build by rows against 1.44 M with the compiler's SSE2
        // loop; 2026-12-06, the 128-16 network, medians of 8 runs: 3.62
        // M VNNI, 3.36 M AVX2 by groups, 3.06 M AVX2 by rows.
        unsafe { output_through(*FASTEST, net, us, them, scratch) }
    }

    /// The score through `build`, which the processor must run (see
    /// [`builds`]).
    #[cfg(test)]
    pub(super) fn output_by(
        build: Build,
        net: &Network,
        us: &[i16],
        them: &[i16],
        scratch: &mut [u8],
    ) -> i32 {
        assert!(builds().contains(&build), "{build:?} runs here");
        // SAFETY: the processor runs the build (asserted above).
        unsafe { output_through(build, net, us, them, scratch) }
    }

    /// The score through `build`.
    ///
    /// # Safety
    /// The processor must run `build` (see [`builds`]).
    #[inline(always)]
    unsafe fn output_through(
        build: Build,
        net: &Network,
        us: &[i16],
        them: &[i16],
        scratch: &mut [u8],
    ) -> i32 {
        match build {
            Build::Portable => output_portable(net, us, them, scratch),
            // SAFETY: the caller's promise.
            #[cfg(target_arch = "x86_64")]
            Build::Avx2 => unsafe { output_avx2(net, us, them, scratch) },
            // SAFETY: the caller's promise.
            #[cfg(target_arch = "x86_64")]
            Build::Vnni => unsafe { output_vnni(net, us, them, scratch) },
            #[cfg(not(target_arch = "x86_64"))]
            _ => output_portable(net, us, them, scratch),
        }
    }

    /// The portable build.
    fn output_portable(net: &Network, us: &[i16], them: &[i16], input: &mut [u8]) -> i32 {
        let input = layer2_inputs(net, us, them, input);
        let mut sums = [0i32; MAX_DENSE];
        let sums = &mut sums[..net.dense];
        for (four, weights) in input
            .chunks_exact(4)
            .zip(net.w2.chunks_exact(4 * net.dense))
        {
            for (sum, w) in sums.iter_mut().zip(weights.chunks_exact(4)) {
                *sum += w
                    .iter()
                    .zip(four)
                    .map(|(&w, &x)| i32::from(w) * i32::from(x))
                    .sum::<i32>();
            }
        }
        finish(net, sums)
    }

    /// The AVX2 build.
    ///
    /// # Safety
    /// The processor must run AVX2 instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn output_avx2(net: &Network, us: &[i16], them: &[i16], input: &mut [u8]) -> i32 {
        use std::arch::x86_64::*;
        let input = layer2_inputs(net, us, them, input);
        let ones = _mm256_set1_epi16(1);
        let mut sums = [0i32; MAX_DENSE];
        let group = 4 * net.dense;
        // Layer 2 is a multiple of 8 wide: eight units' weights for four
        // inputs are one 32-byte step.
        for (block, out) in sums[..net.dense].chunks_exact_mut(8).enumerate() {
            let mut acc = _mm256_setzero_si256();
            for (four, weights) in input.chunks_exact(4).zip(net.w2.chunks_exact(group)) {
                let x =
                    _mm256_set1_epi32(i32::from_le_bytes(four.try_into().expect("four inputs")));
                // SAFETY: `weights` holds `dense` units' four bytes and
                // `block` is below dense / 8, so 32 bytes from
                // `block * 32` lie within it; an unaligned load.
                let w = unsafe {
                    _mm256_loadu_si256(weights.as_ptr().add(block * 32) as *const __m256i)
                };
                let pairs = _mm256_maddubs_epi16(x, w);
                acc = _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, ones));
            }
            // SAFETY: `out` is eight i32, 32 bytes; an unaligned store.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, acc) };
        }
        finish(net, &sums[..net.dense])
    }

    /// The AVX-512 VNNI build: four sums a block kept apart, so that
    /// each multiply waits on the one four steps back.
    ///
    /// # Safety
    /// The processor must run AVX2, AVX-512 VNNI and AVX-512 VL
    /// instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,avx512vnni,avx512vl")]
    unsafe fn output_vnni(net: &Network, us: &[i16], them: &[i16], input: &mut [u8]) -> i32 {
        use std::arch::x86_64::*;
        let input = layer2_inputs(net, us, them, input);
        let mut sums = [0i32; MAX_DENSE];
        let group = 4 * net.dense;
        // Layer 1 is a multiple of 16 wide, so layer 2's inputs come in
        // a multiple of eight groups of four: sixteen bytes a step here.
        for (block, out) in sums[..net.dense].chunks_exact_mut(8).enumerate() {
            let mut acc = [_mm256_setzero_si256(); 4];
            for (sixteen, weights) in input.chunks_exact(16).zip(net.w2.chunks_exact(4 * group)) {
                for (k, acc) in acc.iter_mut().enumerate() {
                    let x = _mm256_set1_epi32(i32::from_le_bytes(
                        sixteen[4 * k..4 * k + 4].try_into().expect("four inputs"),
                    ));
                    // SAFETY: `weights` holds four groups of `dense`
                    // units' four bytes, and 32 bytes from
                    // `k * group + block * 32` lie within group `k`
                    // (`block` is below dense / 8); an unaligned load.
                    let w = unsafe {
                        _mm256_loadu_si256(
                            weights.as_ptr().add(k * group + block * 32) as *const __m256i
                        )
                    };
                    *acc = _mm256_dpbusd_epi32(*acc, x, w);
                }
            }
            let sum = _mm256_add_epi32(
                _mm256_add_epi32(acc[0], acc[1]),
                _mm256_add_epi32(acc[2], acc[3]),
            );
            // SAFETY: `out` is eight i32, 32 bytes; an unaligned store.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr() as *mut __m256i, sum) };
        }
        finish(net, &sums[..net.dense])
    }
}

#[cfg(test)]
mod tests;

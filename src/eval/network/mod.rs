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
//! layers have a portable build and an AVX2 one, chosen when the
//! processor has it (tested to agree).

mod accumulator;
mod file;

pub use accumulator::Accumulators;
pub use file::{
    builtin_network, network_checksum, read_network, write_network, NetworkError, NETWORK_MAGIC,
};

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
    /// Layer 2 weights, `[dense][2 * hidden]`, scaled by [`QW`].
    pub w2: Vec<i8>,
    /// Layer 2 biases, scaled by `QA * QW`.
    pub b2: Vec<i32>,
    /// Output weights, scaled by [`QO`].
    pub w3: Vec<i16>,
    /// Output bias, scaled by `QA * QO`.
    pub b3: i32,
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
    //! Layers 2 and 3: a portable build, and an AVX2 one chosen at run
    //! time that multiplies 32 bytes a step (`vpmaddubsw`: activations
    //! 0..=127 by weights -127..=127, a pair's sum at most 32,258, so no
    //! step saturates and both builds give the same integers).

    use super::{Network, QA, QO, QW_SHIFT};
    use once_cell::sync::Lazy;

    /// Whether the processor runs the AVX2 build of the dense layers.
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

    /// Layer 2's inputs: both views' accumulators clipped to 0..=QA.
    #[inline(always)]
    fn clipped(us: &[i16], them: &[i16], input: &mut [u8]) {
        let (first, second) = input.split_at_mut(us.len());
        for (x, &a) in first.iter_mut().zip(us) {
            *x = a.clamp(0, QA as i16) as u8;
        }
        for (x, &a) in second.iter_mut().zip(them) {
            *x = a.clamp(0, QA as i16) as u8;
        }
    }

    /// Layer 2's sums, then the output, in hundredths of a man.
    #[inline(always)]
    fn finish(net: &Network, sums: impl Iterator<Item = i32>) -> i32 {
        let mut out = net.b3;
        for ((sum, &bias), &w3) in sums.zip(&net.b2).zip(&net.w3) {
            let h = ((sum + bias) >> QW_SHIFT).clamp(0, QA);
            out += h * i32::from(w3);
        }
        // `out` is QA * QO times the output in men.
        (out * 100 / (QA * QO)).clamp(-super::MAX_CORRECTION, super::MAX_CORRECTION)
    }

    /// The score through the fastest build the processor runs.
    #[inline]
    pub(super) fn output(net: &Network, us: &[i16], them: &[i16], scratch: &mut [u8]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if *AVX2 {
            // SAFETY: the processor was found to run AVX2 instructions
            // (`is_x86_feature_detected`). Measured 2026-12-04 with a
            // 128-32 network, `tempo bench` nodes a second: 3.83 M with
            // this build, 3.17 M with the compiler's own AVX2 loop over
            // 16-bit weights, 1.44 M with the SSE2 build of that loop.
            return unsafe { output_avx2(net, us, them, scratch) };
        }
        output_portable(net, us, them, scratch)
    }

    /// The portable build.
    pub(super) fn output_portable(
        net: &Network,
        us: &[i16],
        them: &[i16],
        input: &mut [u8],
    ) -> i32 {
        let width = 2 * net.hidden;
        let input = &mut input[..width];
        clipped(us, them, input);
        let input = &*input;
        finish(
            net,
            net.w2.chunks_exact(width).map(|row| {
                row.iter()
                    .zip(input)
                    .fold(0i32, |s, (&w, &x)| s + i32::from(w) * i32::from(x))
            }),
        )
    }

    /// The AVX2 build.
    ///
    /// # Safety
    /// The processor must run AVX2 instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn output_avx2(net: &Network, us: &[i16], them: &[i16], input: &mut [u8]) -> i32 {
        use std::arch::x86_64::*;
        let width = 2 * net.hidden;
        let input = &mut input[..width];
        clipped(us, them, input);
        let input = &*input;
        let ones = _mm256_set1_epi16(1);
        finish(
            net,
            net.w2.chunks_exact(width).map(|row| {
                let mut acc = _mm256_setzero_si256();
                // Layer 1 is a multiple of 16 wide, so a row is of
                // 32-byte steps.
                for (w, x) in row.chunks_exact(32).zip(input.chunks_exact(32)) {
                    // SAFETY: each chunk is 32 bytes; unaligned loads.
                    let (w, x) = unsafe {
                        (
                            _mm256_loadu_si256(w.as_ptr() as *const __m256i),
                            _mm256_loadu_si256(x.as_ptr() as *const __m256i),
                        )
                    };
                    let pairs = _mm256_maddubs_epi16(x, w);
                    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, ones));
                }
                let half = _mm_add_epi32(
                    _mm256_castsi256_si128(acc),
                    _mm256_extracti128_si256::<1>(acc),
                );
                let quarter = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
                let sum = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b01>(quarter));
                _mm_cvtsi128_si32(sum)
            }),
        )
    }

    /// Whether the AVX2 build is used on this processor.
    pub(super) fn uses_avx2() -> bool {
        *AVX2
    }
}

/// Whether the dense layers run their AVX2 build on this processor.
pub fn uses_avx2() -> bool {
    dense::uses_avx2()
}

#[cfg(test)]
mod tests;

//! The state of a window from the men's bitboards, without a loop over
//! squares.
//!
//! In the padded bit layout two rows are `2 * PER_ROW + 1` bits, and a
//! window's squares on rows `2j`, `2j+1` are bits `k, k+1` and
//! `PER_ROW+k, PER_ROW+k+1` of that row pair. Those four bits of each side
//! form a *quad*; a table turns the two quads into a base-3 number (0..81),
//! and a window's state is the number of its upper quad plus 81 times that
//! of the next one (plus 6561 times the third, for a window 6 rows high).
//! A window may also start on an odd row: its quads are then rows
//! `2j+1, 2j+2`, whose bits have the row pair's padding bit between them,
//! and that bit is squeezed out before the table read. The base-3 digits
//! follow the square numbers, lowest first: 0 empty, 1 an `own` man, 2 an
//! `other` man.

use crate::rules::Geometry;

/// Base-3 value of a quad of 4 bits (digit i = bit i).
const TERNARY: [u16; 16] = {
    let mut t = [0u16; 16];
    let mut q = 0;
    while q < 16 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut i = 0;
        while i < 4 {
            if q >> i & 1 != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[q] = v;
        q += 1;
    }
    t
};

/// For each value of a row pair's `2 * per_row` bits (one side's pieces),
/// the base-3 value of each quad in a 16-bit lane: lane `k` is the quad of
/// window place `k` across.
const fn quad_lanes<const PER_ROW: usize, const SIZE: usize>() -> [u64; SIZE] {
    let mut table = [0u64; SIZE];
    let mut v = 0;
    while v < SIZE {
        let mut lanes = 0u64;
        let mut k = 0;
        while k + 1 < PER_ROW {
            let quad = ((v >> k) & 3) | (((v >> (PER_ROW + k)) & 3) << 2);
            lanes |= (TERNARY[quad] as u64) << (16 * k);
            k += 1;
        }
        table[v] = lanes;
        v += 1;
    }
    table
}

/// [`quad_lanes`] of the 10x10 board.
static QUADS_10: [u64; 1024] = quad_lanes::<5, 1024>();
/// [`quad_lanes`] of the 8x8 boards.
static QUADS_8: [u64; 256] = quad_lanes::<4, 256>();

/// The quads of rows `row` and `row + 1` of board `G` in 16-bit lanes,
/// `own` as digit 1 and `other` as digit 2 (each lane at most 80).
#[inline(always)]
fn quads_at<G: Geometry>(own: u64, other: u64, row: u32) -> u64 {
    let table: &[u64] = if G::PER_ROW == 5 { &QUADS_10 } else { &QUADS_8 };
    let per_row = G::PER_ROW;
    let row_mask = (1u64 << per_row) - 1;
    let shift = row / 2 * (2 * per_row + 1) + row % 2 * per_row;
    let two_rows = |bits: u64| {
        let bits = bits >> shift;
        if row.is_multiple_of(2) {
            bits & ((1 << (2 * per_row)) - 1)
        } else {
            (bits & row_mask) | (bits >> (per_row + 1) & row_mask) << per_row
        }
    };
    table[two_rows(own) as usize] + 2 * table[two_rows(other) as usize]
}

/// The state of every 4x4 window of board `G` (4 files by 4 rows, one at
/// every second file and every second row), window `j * across + k` for
/// file pair `k` and row pair `j`. `N` must be the number of windows.
///
/// Each row pair's bits of a side are one table read that gives all of its
/// quads in 16-bit lanes, and one multiply-add of two row pairs' lanes
/// gives the states of all windows of a row of windows (at most 6560 a
/// lane, so no lane carries into the next).
#[inline(always)]
pub fn window_states<G: Geometry, const N: usize>(own: u64, other: u64) -> [u32; N] {
    let across = (G::PER_ROW - 1) as usize;
    let down = (G::ROWS / 2 - 1) as usize;
    debug_assert_eq!(N, across * down);
    let mut lanes = [0u64; 5];
    for (j, lane) in lanes.iter_mut().enumerate().take(G::ROWS as usize / 2) {
        *lane = quads_at::<G>(own, other, 2 * j as u32);
    }
    let mut states = [0u32; N];
    for j in 0..down {
        let row = lanes[j] + 81 * lanes[j + 1];
        for k in 0..across {
            states[j * across + k] = (row >> (16 * k)) as u16 as u32;
        }
    }
    states
}

/// The state of each 4x6 window of the six rows from row `first` down
/// (rows `first` to `first + 5`, even or odd, file pair `k` at index `k`);
/// `A` must be the number of file pairs.
#[inline(always)]
pub fn band_states<G: Geometry, const A: usize>(own: u64, other: u64, first: u32) -> [u32; A] {
    debug_assert_eq!(A, (G::PER_ROW - 1) as usize);
    debug_assert!(first + 6 <= G::ROWS);
    let upper = quads_at::<G>(own, other, first) + 81 * quads_at::<G>(own, other, first + 2);
    let lower = quads_at::<G>(own, other, first + 4);
    let mut states = [0u32; A];
    for (k, state) in states.iter_mut().enumerate() {
        *state = (upper >> (16 * k)) as u16 as u32 + 6561 * ((lower >> (16 * k)) as u16 as u32);
    }
    states
}

/// The squares of board `G` turned half a circle: bit `b` goes to
/// `top - b`, `top` the board's highest bit (ghost bits go to ghost bits).
#[inline(always)]
pub fn turned<G: Geometry>(bits: u64) -> u64 {
    let top = 63 - G::BOARD.leading_zeros();
    bits.reverse_bits() >> (63 - top)
}

/// The mirror of each quad's 4 base-3 digits: in reverse order, own and
/// other pieces swapped.
const QUAD_MIRROR: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut q = 0;
    while q < 81 {
        let (mut rest, mut m, mut i) = (q, 0, 0);
        while i < 4 {
            let d = rest % 3;
            let swapped = if d == 0 { 0 } else { 3 - d };
            m = m * 3 + swapped;
            rest /= 3;
            i += 1;
        }
        t[q] = m as u8;
        q += 1;
    }
    t
};

/// The state of a window of `quads` quads seen from the other side: the
/// digits in reverse order, own and other pieces swapped.
#[inline(always)]
pub fn mirrored(state: usize, quads: u32) -> usize {
    let (mut rest, mut m) = (state, 0);
    for _ in 0..quads {
        m = m * 81 + QUAD_MIRROR[rest % 81] as usize;
        rest /= 81;
    }
    m
}

//! Board patterns: learned weights for the state of small overlapping
//! regions of the board, added to the hand-written evaluation.
//!
//! A *window* is 4 files by 4 rows of the board (8 playable squares, two on
//! each row), or, in the tall shape, 4 files by 6 rows (12 squares). Windows
//! start on every second file and every second row, so they overlap: 16
//! small windows on 10x10 (4 x 4 places) and 9 on 8x8 (3 x 3); 12 tall ones
//! on 10x10 (4 across, 3 down) and 6 on 8x8. Each square of a window is
//! empty, a white man or a black man (kings are left to the hand terms), so
//! a window has 3^8 = 6561 states (3^12 = 531,441 tall), and each state has
//! a weight for the middle game and one for the ending, mixed by the number
//! of pieces on the board.
//!
//! ```text
//! 10x10, the small window at file pair 1, row pair 0 (files c-f, rows 10-7):
//!     row 0:   .  0  . [1] . [2] .  3  .  4
//!     row 1:   5  . [6] . [7] .  8  .  9  .
//!     row 2:   . 11  .[12] .[13] . 14  . 15
//!     row 3:  16  .[17] .[18] . 19  . 20  .
//! ```
//!
//! Indexing without a loop over squares: in the padded bit layout two rows
//! are `2 * PER_ROW + 1` bits, and a window's squares on rows `2j`, `2j+1`
//! are bits `k, k+1` and `PER_ROW+k, PER_ROW+k+1` of that row pair. Those
//! four bits of each side form a *quad*; a table turns the two quads into a
//! base-3 number (0..81), and a window's state is the number of its upper
//! quad plus 81 times that of the next one (plus 6561 times the third, tall).
//! The base-3 digits follow the square numbers, lowest first.
//!
//! Colour symmetry is built in: the weights `P` are for a window seen from
//! the side whose pieces are "own" (digit 1). White's score is the sum of
//! `P` over the windows of the board as White sees it, less the same sum
//! for the board turned half a circle with the colours swapped (as Black
//! sees it). The board turned maps window `w` onto window `rot(w)` with its
//! digits in reverse order, so both sums fold into one table a window,
//! `F_w[s] = P_w[s] - P_rot(w)[mirror(s)]`, made when the weights are
//! loaded: the evaluation reads one entry a window.

use crate::rules::{Geometry, Position, Rules, Side};

/// Weights are stored in units of 1/UNIT of a hundredth of a man.
pub const UNIT: i32 = 8;
/// The largest magnitude of a stored weight; the folded table holds the
/// difference of two, which must fit an `i16`.
pub const MAX_WEIGHT: i32 = 16_383;

/// The window layout of a board: its size and the windows' height.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Rows (and files) of the board.
    pub rows: u32,
    /// Playable squares per row.
    pub per_row: u32,
    /// Row pairs a window spans: 2 (4 x 4 windows) or 3 (4 x 6, tall).
    pub pairs: u32,
}

impl Layout {
    /// The small-window layout of board `G`.
    pub const fn of<G: Geometry>() -> Layout {
        Layout::shaped::<G>(2)
    }

    /// The tall-window layout of board `G`.
    pub const fn tall<G: Geometry>() -> Layout {
        Layout::shaped::<G>(3)
    }

    /// The layout of board `G` with windows `pairs` row pairs high.
    pub const fn shaped<G: Geometry>(pairs: u32) -> Layout {
        Layout {
            rows: G::ROWS,
            per_row: G::PER_ROW,
            pairs,
        }
    }

    /// Window places across the board (file pairs).
    pub const fn across(self) -> usize {
        (self.per_row - 1) as usize
    }

    /// Window places down the board (row pairs).
    pub const fn down(self) -> usize {
        (self.rows / 2 + 1 - self.pairs) as usize
    }

    /// Windows on the board.
    pub const fn windows(self) -> usize {
        self.across() * self.down()
    }

    /// States of one window.
    pub const fn states(self) -> usize {
        81usize.pow(self.pairs)
    }

    /// Weights of one phase.
    pub const fn weights_per_phase(self) -> usize {
        self.windows() * self.states()
    }

    /// The window the board turned half a circle puts in the place of `w`.
    pub const fn rotated(self, w: usize) -> usize {
        self.windows() - 1 - w
    }

    /// The state of a window seen from the other side: the digits in
    /// reverse order, own and other pieces swapped.
    #[inline(always)]
    pub fn mirrored(self, state: usize) -> usize {
        let (mut rest, mut m) = (state, 0);
        for _ in 0..self.pairs {
            m = m * 81 + QUAD_MIRROR[rest % 81] as usize;
            rest /= 81;
        }
        m
    }

    /// The bits of the squares of window `w`, lowest square number first
    /// (the order of the base-3 digits).
    pub fn squares(self, w: usize) -> Vec<u32> {
        let (j, k) = ((w / self.across()) as u32, (w % self.across()) as u32);
        let pair = 2 * self.per_row + 1;
        let mut bits = Vec::with_capacity(4 * self.pairs as usize);
        for half in 0..self.pairs {
            let base = (j + half) * pair + k;
            bits.extend_from_slice(&[base, base + 1, base + self.per_row, base + self.per_row + 1]);
        }
        bits
    }
}

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

/// The state of every window of board `G`, `P` row pairs high, with `own`
/// pieces as digit 1 and `other` as digit 2, window `j * across + k` at
/// index `j * across + k`. `N` must be `Layout::shaped::<G>(P).windows()`.
///
/// Each row pair's bits of a side are one table read that gives all of its
/// quads in 16-bit lanes; the own and other lanes make each quad's base-3
/// value (at most 80), and one multiply-add of two row pairs' lanes gives
/// the states of the upper two quads of all windows of a row of windows (at
/// most 6560 a lane, so no lane carries into the next). A tall window adds
/// its third quad, times 6561, lane by lane.
#[inline(always)]
pub fn window_states<G: Geometry, const N: usize, const P: u32>(own: u64, other: u64) -> [u32; N] {
    let layout = Layout::shaped::<G>(P);
    debug_assert_eq!(N, layout.windows());
    let (across, down) = (layout.across(), layout.down());
    let table: &[u64] = if G::PER_ROW == 5 { &QUADS_10 } else { &QUADS_8 };
    let pair = 2 * G::PER_ROW + 1;
    let mask = (1u64 << (2 * G::PER_ROW)) - 1;
    let mut lanes = [0u64; 5];
    for (j, lane) in lanes.iter_mut().enumerate().take(G::ROWS as usize / 2) {
        let shift = j as u32 * pair;
        *lane =
            table[((own >> shift) & mask) as usize] + 2 * table[((other >> shift) & mask) as usize];
    }
    let mut states = [0u32; N];
    for j in 0..down {
        let row = lanes[j] + 81 * lanes[j + 1];
        for k in 0..across {
            let mut state = (row >> (16 * k)) as u16 as u32;
            if P == 3 {
                state += 6561 * ((lanes[j + 2] >> (16 * k)) as u16 as u32);
            }
            states[j * across + k] = state;
        }
    }
    states
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

/// Learned pattern weights for one board, ready to evaluate with.
#[derive(Clone, Debug, PartialEq)]
pub struct Patterns {
    layout: Layout,
    /// The weights as fitted, `[window][state][phase]` flattened; phase 0
    /// is the middle game (full board), 1 the ending (empty board).
    raw: Vec<i16>,
    /// `F_w[s]` for both phases (see the module comment), `[window][state]`.
    folded: Vec<[i16; 2]>,
    /// Every weight is 0: the evaluation skips the patterns.
    zero: bool,
}

impl Patterns {
    /// Weights for `layout`, every one 0 (the hand evaluation alone).
    pub fn zero(layout: Layout) -> Patterns {
        Patterns::from_raw(layout, vec![0; layout.weights_per_phase() * 2])
            .expect("zero weights are in range")
    }

    /// Weights for `layout` from the fitted values, `[window][state][phase]`.
    pub fn from_raw(layout: Layout, raw: Vec<i16>) -> Result<Patterns, String> {
        if !(2..=3).contains(&layout.pairs) {
            return Err(format!(
                "windows {} row pairs high: 2 (4x4) or 3 (4x6) expected",
                layout.pairs
            ));
        }
        let per_phase = layout.weights_per_phase();
        if raw.len() != 2 * per_phase {
            return Err(format!(
                "{} weights given, {} expected for a {}x{} board",
                raw.len(),
                2 * per_phase,
                layout.rows,
                layout.rows
            ));
        }
        if let Some(v) = raw.iter().find(|v| (**v as i32).abs() > MAX_WEIGHT) {
            return Err(format!(
                "a weight of {v} is outside -{MAX_WEIGHT}..{MAX_WEIGHT}"
            ));
        }
        let states = layout.states();
        let mut folded = vec![[0i16; 2]; per_phase];
        for w in 0..layout.windows() {
            let r = layout.rotated(w);
            for s in 0..states {
                let m = layout.mirrored(s);
                for phase in 0..2 {
                    let own = raw[(w * states + s) * 2 + phase];
                    let other = raw[(r * states + m) * 2 + phase];
                    folded[w * states + s][phase] = own - other;
                }
            }
        }
        Ok(Patterns {
            layout,
            zero: raw.iter().all(|&v| v == 0),
            raw,
            folded,
        })
    }

    /// The board layout the weights are for.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The fitted weights, `[window][state][phase]` flattened.
    pub fn raw(&self) -> &[i16] {
        &self.raw
    }

    /// Whether every weight is 0 (nothing to add to the hand evaluation).
    pub fn is_zero(&self) -> bool {
        self.zero
    }

    /// The patterns' part of the evaluation of `pos`, from White's view, in
    /// hundredths of a man.
    #[inline(always)]
    pub fn white_score<R: Rules>(&self, pos: &Position<R>) -> i32 {
        debug_assert_eq!(
            self.layout,
            Layout::shaped::<R::Geometry>(self.layout.pairs)
        );
        if self.zero {
            return 0;
        }
        let (mg, eg) = with_states(self.layout, pos, |states| self.sums(states));
        let start = (2 * R::START_ROWS * <R::Geometry as Geometry>::PER_ROW) as i32;
        let total = (pos.occupied().count_ones() as i32).min(start);
        (mg * total + eg * (start - total)) / (start * UNIT)
    }

    /// The middle-game and ending sums of the folded weights over `states`.
    #[inline(always)]
    fn sums(&self, states: &[u32]) -> (i32, i32) {
        let size = self.layout.states();
        let mut mg = 0i32;
        let mut eg = 0i32;
        for (w, &s) in states.iter().enumerate() {
            let [m, e] = self.folded[w * size + s as usize];
            mg += m as i32;
            eg += e as i32;
        }
        (mg, eg)
    }
}

/// Calls `f` with the state of every window of `layout` over the men of
/// `pos`, White's as digit 1 (the shape picked once, the states on the
/// stack).
#[inline(always)]
fn with_states<R: Rules, T>(layout: Layout, pos: &Position<R>, f: impl FnOnce(&[u32]) -> T) -> T {
    let white = pos.men(Side::White);
    let black = pos.men(Side::Black);
    match (<R::Geometry as Geometry>::ROWS, layout.pairs) {
        (10, 3) => f(&window_states::<R::Geometry, 12, 3>(white, black)),
        (10, _) => f(&window_states::<R::Geometry, 16, 2>(white, black)),
        (_, 3) => f(&window_states::<R::Geometry, 6, 3>(white, black)),
        _ => f(&window_states::<R::Geometry, 9, 2>(white, black)),
    }
}

/// The features of a position for fitting with windows of `layout`: each
/// window's state as White sees it, and the weight of the middle-game phase
/// (1 with the board full, 0 with it empty).
pub fn features<R: Rules>(layout: Layout, pos: &Position<R>) -> (Vec<u32>, f32) {
    debug_assert_eq!(
        (layout.rows, layout.per_row),
        (
            <R::Geometry as Geometry>::ROWS,
            <R::Geometry as Geometry>::PER_ROW
        )
    );
    let states = with_states(layout, pos, <[u32]>::to_vec);
    let start = 2 * R::START_ROWS * <R::Geometry as Geometry>::PER_ROW;
    let total = pos.occupied().count_ones().min(start);
    (states, total as f32 / start as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board10, Board8};

    #[test]
    fn mirroring_twice_is_the_identity_and_swaps_colours() {
        for layout in [Layout::of::<Board10>(), Layout::tall::<Board10>()] {
            for s in (0..layout.states()).step_by(7) {
                assert_eq!(layout.mirrored(layout.mirrored(s)), s);
            }
            // Digit 0 own -> the last digit other.
            let last = 4 * layout.pairs - 1;
            assert_eq!(layout.mirrored(1), 2 * 3usize.pow(last));
            assert_eq!(layout.mirrored(2 * 3usize.pow(5)), 3usize.pow(last - 5));
            assert_eq!(layout.mirrored(0), 0);
        }
    }

    #[test]
    fn windows_cover_every_square_and_rotate_onto_each_other() {
        for layout in [
            Layout::of::<Board10>(),
            Layout::of::<Board8>(),
            Layout::tall::<Board10>(),
            Layout::tall::<Board8>(),
        ] {
            let board = if layout.rows == 10 {
                Board10::BOARD
            } else {
                Board8::BOARD
            };
            let mut covered = 0u64;
            for w in 0..layout.windows() {
                for b in layout.squares(w) {
                    assert!(board >> b & 1 == 1, "window {w} bit {b}");
                    covered |= 1 << b;
                }
            }
            assert_eq!(covered, board);
            // Turning the board maps each square of a window onto the
            // rotated window's squares in reverse order.
            let top = 63 - board.leading_zeros();
            for w in 0..layout.windows() {
                let mut image: Vec<u32> = layout.squares(w).iter().map(|b| top - b).collect();
                image.reverse();
                assert_eq!(image, layout.squares(layout.rotated(w)));
            }
        }
    }
}

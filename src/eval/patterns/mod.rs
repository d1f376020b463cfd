//! Board patterns: learned weights for the state of small overlapping
//! regions of the board, added to the hand-written evaluation.
//!
//! A *window* is 4 files of the board by 4 or 6 rows. Each square of a
//! window is empty, a white man or a black man (kings count as empty), so
//! a window of 8 squares has 3^8 = 6561 states and one of 12 squares
//! 3^12 = 531,441; each state has a weight for the middle game and one for
//! the ending, blended by the stage of the game. Two shapes:
//!
//! - [`Shape::W4x4`]: 4x4 windows at every second file and every second
//!   row (16 on 10x10, 9 on 8x8), each with its own table; the stage is
//!   the number of pieces on the board.
//! - [`Shape::W4x6`]: 4x6 windows at every second file, along the top six
//!   rows and the bottom six (8 on 10x10, 6 on 8x8, overlapping in the
//!   middle). A bottom window is a top window seen by the other player:
//!   the board turned half a circle maps it onto one, with the colours
//!   swapped, and it reads that window's table. So 4 tables (3 on 8x8)
//!   serve all windows, and every table learns from both players' halves.
//!   The stage is the men's steps to crown ([`steps_to_crown`]), and king
//!   terms the windows cannot see are learned with them (`kings`).
//! - [`Shape::W4x6m`]: the 4x6 windows and 4x6 windows on the middle six
//!   rows (rows 3-8 of 10x10, 12 windows in all; rows 2-7 of 8x8, 9 in
//!   all, a band that starts on an odd row). The half turn maps the middle
//!   band onto itself, file pair `k` onto the last but `k`, so each middle
//!   window has a table of its own that it shares with its image seen by
//!   the other player: 8 tables on 10x10, 6 on 8x8.
//!
//! ```text
//! 10x10, the 4x4 window at file pair 1, row pair 0 (files c-f, rows 10-7):
//!     row 0:   .  0  . [1] . [2] .  3  .  4
//!     row 1:   5  . [6] . [7] .  8  .  9  .
//!     row 2:   . 11  .[12] .[13] . 14  . 15
//!     row 3:  16  .[17] .[18] . 19  . 20  .
//! ```
//!
//! Colour symmetry is built in. A table holds the weights of a window seen
//! from the side whose men are "own" (digit 1). White's score is the sum
//! over the windows of the board as White sees it, less the same sum for
//! the board turned half a circle with the colours swapped (as Black sees
//! it). For 4x4 windows the turned board maps window `w` onto window
//! `rot(w)` with its digits in reverse order, so both sums fold into one
//! table a window, `F_w[s] = P_w[s] - P_rot(w)[mirror(s)]`, made when the
//! weights are loaded. For 4x6 windows the evaluation reads the top
//! windows of the board and of the board turned with the colours swapped
//! ([`windows::turned`]): the second are the bottom windows as Black sees
//! them.

mod kings;
mod windows;

pub use kings::{
    king_terms, start_steps, steps_to_crown, EXPOSED_MOBILITY, EXTRA_KINGS, FIRST_KING,
    KING_SQUARE, SAFE_MOBILITY,
};
pub use windows::{band_states, mirrored, turned, window_states};

use crate::rules::{Geometry, Position, Rules, Side};

/// Weights are stored in units of 1/UNIT of a hundredth of a man.
pub const UNIT: i32 = 8;
/// The largest magnitude of a stored weight; the folded table holds the
/// difference of two, which must fit an `i16`.
pub const MAX_WEIGHT: i32 = 16_383;

/// The shape of the windows, and the stage and terms that go with it; each
/// named as `tempo train --windows` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// 4x4: windows of 4 files by 4 rows at every second row, a table
    /// each; stage by pieces.
    W4x4,
    /// 4x6: windows of 4 files by 6 rows along the top and the bottom,
    /// tables shared by the half turn; stage by the men's steps to crown;
    /// king terms.
    W4x6,
    /// 4x6m: the 4x6 windows and 4x6 windows on the middle six rows of a
    /// 10x10 board, a table each shared with its half turn; as `W4x6`
    /// otherwise.
    W4x6m,
}

impl Shape {
    /// Every shape, smallest first.
    pub const ALL: [Shape; 3] = [Shape::W4x4, Shape::W4x6, Shape::W4x6m];

    /// The name on the command line and in `tempo weights info`: `4x4`,
    /// `4x6` or `4x6m`.
    pub const fn name(self) -> &'static str {
        match self {
            Shape::W4x4 => "4x4",
            Shape::W4x6 => "4x6",
            Shape::W4x6m => "4x6m",
        }
    }

    /// The shape of a name of [`Shape::name`].
    pub fn parse(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|shape| shape.name() == name)
    }
}

/// The window layout of a board: its size and the windows' shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Rows (and files) of the board.
    pub rows: u32,
    /// Playable squares per row.
    pub per_row: u32,
    /// The windows' shape.
    pub shape: Shape,
}

impl Layout {
    /// The 4x4 layout of board `G`.
    pub const fn w4x4<G: Geometry>() -> Layout {
        Layout::shaped::<G>(Shape::W4x4)
    }

    /// The 4x6 layout of board `G`.
    pub const fn w4x6<G: Geometry>() -> Layout {
        Layout::shaped::<G>(Shape::W4x6)
    }

    /// The 4x6m layout of board `G` (4x6 windows and a middle band).
    pub const fn w4x6m<G: Geometry>() -> Layout {
        Layout::shaped::<G>(Shape::W4x6m)
    }

    /// The layout of board `G` with windows of `shape`.
    pub const fn shaped<G: Geometry>(shape: Shape) -> Layout {
        Layout {
            rows: G::ROWS,
            per_row: G::PER_ROW,
            shape,
        }
    }

    /// Window places across the board (file pairs).
    pub const fn across(self) -> usize {
        (self.per_row - 1) as usize
    }

    /// Rows of windows: every row pair for 4x4 windows, top and bottom
    /// for 4x6 ones, top, middle and bottom for 4x6m ones.
    pub const fn down(self) -> usize {
        match self.shape {
            Shape::W4x4 => (self.rows / 2 - 1) as usize,
            Shape::W4x6 => 2,
            Shape::W4x6m => 3,
        }
    }

    /// Windows on the board, `j * across + k` for row of windows `j` and
    /// file pair `k`.
    pub const fn windows(self) -> usize {
        self.across() * self.down()
    }

    /// Quads (row pairs) of one window.
    pub const fn quads(self) -> u32 {
        match self.shape {
            Shape::W4x4 => 2,
            Shape::W4x6 | Shape::W4x6m => 3,
        }
    }

    /// States of one window.
    pub const fn states(self) -> usize {
        81usize.pow(self.quads())
    }

    /// Weight tables: one a window for 4x4 windows, one a top window
    /// for 4x6 ones, one a top and one a middle window for 4x6m ones
    /// (the middle windows' tables after the top windows').
    pub const fn tables(self) -> usize {
        match self.shape {
            Shape::W4x4 => self.windows(),
            Shape::W4x6 => self.across(),
            Shape::W4x6m => 2 * self.across(),
        }
    }

    /// Window weights of one phase: the tables' states.
    pub const fn table_weights(self) -> usize {
        self.tables() * self.states()
    }

    /// King terms (4x6 and 4x6m windows only; see [`king_terms`]).
    pub const fn king_terms(self) -> usize {
        match self.shape {
            Shape::W4x4 => 0,
            Shape::W4x6 | Shape::W4x6m => KING_SQUARE + (self.rows * self.per_row) as usize,
        }
    }

    /// Weights of one phase: the tables', then the king terms'.
    pub const fn weights_per_phase(self) -> usize {
        self.table_weights() + self.king_terms()
    }

    /// The window the board turned half a circle puts in the place of `w`.
    pub const fn rotated(self, w: usize) -> usize {
        self.windows() - 1 - w
    }

    /// The state of a window seen from the other side: the digits in
    /// reverse order, own and other pieces swapped.
    pub fn mirrored(self, state: usize) -> usize {
        mirrored(state, self.quads())
    }

    /// The bits of the squares of window `w`, lowest square number first
    /// (the order of the base-3 digits).
    pub fn squares(self, w: usize) -> Vec<u32> {
        let row_of_windows = (w / self.across()) as u32;
        let first = match self.shape {
            Shape::W4x4 => 2 * row_of_windows,
            Shape::W4x6 => row_of_windows * (self.rows - 6),
            Shape::W4x6m => row_of_windows * (self.rows - 6) / 2,
        };
        let k = (w % self.across()) as u32;
        let mut bits = Vec::with_capacity(4 * self.quads() as usize);
        for row in first..first + 2 * self.quads() {
            // The padded layout has one bit more after every second row.
            let base = row * self.per_row + k + row / 2;
            bits.extend_from_slice(&[base, base + 1]);
        }
        bits
    }
}

/// Learned pattern weights for one board, ready to evaluate with.
#[derive(Clone, Debug, PartialEq)]
pub struct Patterns {
    layout: Layout,
    /// The weights as fitted, `[table][state][phase]` and then
    /// `[king term][phase]`, flattened; phase 0 is the middle game, 1 the
    /// ending.
    raw: Vec<i16>,
    /// The table entries the evaluation reads, `[table][state]`, both
    /// phases: `F_w[s]` for 4x4 windows (see the module comment), the
    /// fitted tables for 4x6 ones.
    tables: Vec<[i16; 2]>,
    /// The king terms' weights, both phases.
    kings: Vec<[i32; 2]>,
    /// Every weight is 0: the evaluation skips the patterns.
    zero: bool,
}

impl Patterns {
    /// Weights for `layout`, every one 0 (the hand evaluation alone).
    pub fn zero(layout: Layout) -> Patterns {
        Patterns::from_raw(layout, vec![0; layout.weights_per_phase() * 2])
            .expect("zero weights are in range")
    }

    /// Weights for `layout` from the fitted values, `[table][state][phase]`
    /// then `[king term][phase]`.
    pub fn from_raw(layout: Layout, raw: Vec<i16>) -> Result<Patterns, String> {
        let per_phase = layout.weights_per_phase();
        if raw.len() != 2 * per_phase {
            return Err(format!(
                "{} weights given, {} expected for {:?} windows on a {}x{} board",
                raw.len(),
                2 * per_phase,
                layout.shape,
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
        let pair = |i: usize| [raw[2 * i], raw[2 * i + 1]];
        let tables = match layout.shape {
            Shape::W4x4 => {
                let mut folded = vec![[0i16; 2]; layout.table_weights()];
                for w in 0..layout.windows() {
                    let r = layout.rotated(w);
                    for s in 0..states {
                        let own = pair(w * states + s);
                        let other = pair(r * states + layout.mirrored(s));
                        folded[w * states + s] = [own[0] - other[0], own[1] - other[1]];
                    }
                }
                folded
            }
            Shape::W4x6 | Shape::W4x6m => (0..layout.table_weights()).map(pair).collect(),
        };
        let kings = (layout.table_weights()..per_phase)
            .map(|i| pair(i).map(i32::from))
            .collect();
        Ok(Patterns {
            layout,
            zero: raw.iter().all(|&v| v == 0),
            raw,
            tables,
            kings,
        })
    }

    /// These 4x6 weights as 4x6m ones: the top tables and the
    /// king terms kept, the middle band's tables at 0, so the banded set
    /// scores every position as this one does. A fit of the band can so
    /// start from a fitted 4x6 set.
    pub fn with_middle_band(&self) -> Result<Patterns, String> {
        let from = self.layout;
        let to = Layout {
            shape: Shape::W4x6m,
            ..from
        };
        if from.shape != Shape::W4x6 {
            return Err(format!(
                "only 4x6 weights gain a middle band; these have {:?} windows",
                from.shape
            ));
        }
        let tables = 2 * from.table_weights();
        let mut raw = Vec::with_capacity(2 * to.weights_per_phase());
        raw.extend_from_slice(&self.raw[..tables]);
        raw.resize(2 * to.table_weights(), 0);
        raw.extend_from_slice(&self.raw[tables..]);
        Patterns::from_raw(to, raw)
    }

    /// The board layout the weights are for.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The fitted weights, `[table][state][phase]` then `[king term][phase]`.
    pub fn raw(&self) -> &[i16] {
        &self.raw
    }

    /// Whether every weight is 0 (nothing to add to the hand evaluation).
    pub fn is_zero(&self) -> bool {
        self.zero
    }

    /// Bytes of the tables the evaluation reads.
    pub fn table_bytes(&self) -> usize {
        std::mem::size_of_val(self.tables.as_slice()) + std::mem::size_of_val(self.kings.as_slice())
    }

    /// The patterns' part of the evaluation of `pos`, from White's view, in
    /// hundredths of a man.
    #[inline(always)]
    pub fn white_score<R: Rules>(&self, pos: &Position<R>) -> i32 {
        debug_assert_eq!(
            self.layout,
            Layout::shaped::<R::Geometry>(self.layout.shape)
        );
        if self.zero {
            return 0;
        }
        match self.layout.shape {
            Shape::W4x4 => {
                let size = self.layout.states();
                let (mut mg, mut eg) = (0, 0);
                for_small_states::<R>(pos, |w, s| {
                    let [m, e] = self.tables[w * size + s as usize];
                    mg += m as i32;
                    eg += e as i32;
                });
                let (on, all) = pieces_stage(pos);
                (mg * on + eg * (all - on)) / (all * UNIT)
            }
            Shape::W4x6 | Shape::W4x6m => {
                let size = self.layout.states();
                let (mut mg, mut eg) = (0, 0);
                let mut add = |k: usize, own: u32, other: u32| {
                    let [m, e] = self.tables[k * size + own as usize];
                    let [m2, e2] = self.tables[k * size + other as usize];
                    mg += m as i32 - m2 as i32;
                    eg += e as i32 - e2 as i32;
                };
                for_tall_states::<R>(pos, &mut add);
                if self.layout.shape == Shape::W4x6m {
                    let across = self.layout.across();
                    for_middle_states::<R>(pos, |k, own, other| add(across + k, own, other));
                }
                if pos.all_kings() != 0 {
                    kings::king_terms_of(pos, |i, v| {
                        let [m, e] = self.kings[i];
                        mg += v * m;
                        eg += v * e;
                    });
                }
                let (steps, all) = steps_stage(pos);
                (mg * steps + eg * (all - steps)) / (all * UNIT)
            }
        }
    }
}

/// The stage by pieces: the pieces on the board (at most the start's) and
/// the start's.
#[inline(always)]
fn pieces_stage<R: Rules>(pos: &Position<R>) -> (i32, i32) {
    let all = (2 * R::START_ROWS * <R::Geometry as Geometry>::PER_ROW) as i32;
    ((pos.occupied().count_ones() as i32).min(all), all)
}

/// The stage by steps: the men's steps to crown and the start's.
#[inline(always)]
fn steps_stage<R: Rules>(pos: &Position<R>) -> (i32, i32) {
    (steps_to_crown(pos) as i32, start_steps::<R>() as i32)
}

/// Calls `f(window, state)` for every 4x4 window of `pos`, White's men
/// as digit 1.
#[inline(always)]
fn for_small_states<R: Rules>(pos: &Position<R>, mut f: impl FnMut(usize, u32)) {
    let (white, black) = (pos.men(Side::White), pos.men(Side::Black));
    let mut each = |states: &[u32]| {
        for (w, &s) in states.iter().enumerate() {
            f(w, s);
        }
    };
    if <R::Geometry as Geometry>::ROWS == 10 {
        each(&window_states::<R::Geometry, 16>(white, black));
    } else {
        each(&window_states::<R::Geometry, 9>(white, black));
    }
}

/// Calls `f(k, own, other)` for every top window `k` of `pos`: `own` its
/// state as White sees the board (White's men digit 1), `other` the state
/// of the same window on the board turned with the colours swapped (the
/// bottom window as Black sees it).
#[inline(always)]
fn for_tall_states<R: Rules>(pos: &Position<R>, f: impl FnMut(usize, u32, u32)) {
    for_band_states(pos, 0, f);
}

/// Calls `f(k, own, other)` for every middle window `k` of `pos` (rows
/// 3-8 of 10x10, 2-7 of 8x8): `own` its state as White sees the board,
/// `other` the state of the same window on the board turned with the
/// colours swapped (the middle window at the last file pair but `k` as
/// Black sees it).
#[inline(always)]
fn for_middle_states<R: Rules>(pos: &Position<R>, f: impl FnMut(usize, u32, u32)) {
    for_band_states(pos, (<R::Geometry as Geometry>::ROWS - 6) / 2, f);
}

/// Calls `f(k, own, other)` for every window `k` of the six rows from row
/// `first` down: `own` its state as White sees the board, `other` the
/// state of window `k` of the board turned with the colours swapped.
#[inline(always)]
fn for_band_states<R: Rules>(pos: &Position<R>, first: u32, mut f: impl FnMut(usize, u32, u32)) {
    let (white, black) = (pos.men(Side::White), pos.men(Side::Black));
    let (tw, tb) = (turned::<R::Geometry>(white), turned::<R::Geometry>(black));
    let mut each = |own: &[u32], other: &[u32]| {
        for (k, (&a, &b)) in own.iter().zip(other).enumerate() {
            f(k, a, b);
        }
    };
    if <R::Geometry as Geometry>::ROWS == 10 {
        each(
            &band_states::<R::Geometry, 4>(white, black, first),
            &band_states::<R::Geometry, 4>(tb, tw, first),
        );
    } else {
        each(
            &band_states::<R::Geometry, 3>(white, black, first),
            &band_states::<R::Geometry, 3>(tb, tw, first),
        );
    }
}

/// The features of `pos` for fitting weights of `layout`, the model the
/// evaluation computes: calls `feature(i, v)` for each weight pair `i`
/// (raw weights `2i` and `2i + 1`, see [`Patterns::raw`]) that counts `v`
/// times in White's score, and returns the middle-game share of the blend
/// (1 at the start; the ending's share is the rest).
pub fn features<R: Rules>(
    layout: Layout,
    pos: &Position<R>,
    mut feature: impl FnMut(u32, i32),
) -> f32 {
    debug_assert_eq!(layout, Layout::shaped::<R::Geometry>(layout.shape));
    let size = layout.states();
    match layout.shape {
        Shape::W4x4 => {
            for_small_states::<R>(pos, |w, s| {
                feature((w * size) as u32 + s, 1);
                let other = layout.rotated(w) * size + layout.mirrored(s as usize);
                feature(other as u32, -1);
            });
            let (on, all) = pieces_stage(pos);
            on as f32 / all as f32
        }
        Shape::W4x6 | Shape::W4x6m => {
            let mut windows = |k: usize, own: u32, other: u32| {
                feature((k * size) as u32 + own, 1);
                feature((k * size) as u32 + other, -1);
            };
            for_tall_states::<R>(pos, &mut windows);
            if layout.shape == Shape::W4x6m {
                let across = layout.across();
                for_middle_states::<R>(pos, |k, own, other| windows(across + k, own, other));
            }
            let base = layout.table_weights();
            kings::king_terms_of(pos, |i, v| feature((base + i) as u32, v));
            let (steps, all) = steps_stage(pos);
            steps as f32 / all as f32
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board10, Board8};

    #[test]
    fn mirroring_twice_is_the_identity_and_swaps_colours() {
        for layout in [Layout::w4x4::<Board10>(), Layout::w4x6::<Board10>()] {
            for s in (0..layout.states()).step_by(7) {
                assert_eq!(layout.mirrored(layout.mirrored(s)), s);
            }
            // Digit 0 own -> the last digit other.
            let last = 4 * layout.quads() - 1;
            assert_eq!(layout.mirrored(1), 2 * 3usize.pow(last));
            assert_eq!(layout.mirrored(2 * 3usize.pow(5)), 3usize.pow(last - 5));
            assert_eq!(layout.mirrored(0), 0);
        }
    }

    #[test]
    fn windows_cover_every_square_and_rotate_onto_each_other() {
        for layout in [
            Layout::w4x4::<Board10>(),
            Layout::w4x4::<Board8>(),
            Layout::w4x6::<Board10>(),
            Layout::w4x6::<Board8>(),
            Layout::w4x6m::<Board10>(),
            Layout::w4x6m::<Board8>(),
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
        assert_eq!(Layout::w4x6::<Board10>().windows(), 8);
        assert_eq!(Layout::w4x6::<Board10>().tables(), 4);
        assert_eq!(Layout::w4x6::<Board8>().tables(), 3);
        assert_eq!(Layout::w4x6m::<Board10>().tables(), 8);
        assert_eq!(Layout::w4x6m::<Board8>().tables(), 6);
    }

    #[test]
    fn turning_maps_each_square_onto_its_opposite() {
        fn check<G: Geometry>() {
            let top = 63 - G::BOARD.leading_zeros();
            assert_eq!(turned::<G>(G::BOARD), G::BOARD);
            for b in 0..=top {
                if G::BOARD >> b & 1 == 1 {
                    assert_eq!(turned::<G>(1 << b), 1 << (top - b));
                }
            }
        }
        check::<Board10>();
        check::<Board8>();
    }
}

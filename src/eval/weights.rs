//! The hand weights of the evaluation: the `Weights` table and the weights
//! in use on each board.

use crate::rules::{Geometry, Rules};

/// Every weight of the evaluation, in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of a man.
    pub man: i32,
    /// Value of a flying king.
    pub king: i32,
    /// Value of a king that moves one square (English, Italian).
    pub short_king: i32,
    /// Losing draughts: the cost of keeping a man (a side wants to lose its
    /// pieces, so every piece counts against it).
    pub losing_man: i32,
    /// Losing draughts: the cost of keeping a king (hard to give away).
    pub losing_king: i32,
    /// Losing draughts: the cost of each legal quiet move a side has (fewer
    /// moves bring it nearer to being blocked, which wins).
    pub losing_mobility: i32,
    /// Bonus per man by rows advanced from its own back row (index 0 = back row).
    pub advance: [i32; 10],
    /// Bonus per man on the central squares.
    pub centre: i32,
    /// Bonus per man still on its back row, scaled by how full the board is.
    pub back_rank: i32,
    /// Penalty per man of difference between the left and right halves.
    pub balance: i32,
    /// Bonus per man standing on the outpost squares (24/27 and mirrors on 10x10).
    pub outpost: i32,
    /// Penalty per man on the left or right edge file.
    pub edge: i32,
    /// Bonus per man move to a square where it cannot be taken at once.
    pub mobility: i32,
    /// Percent of the score kept in mostly drawn endings (see `drawish_scale`).
    pub drawish_percent: i32,
    /// The most pieces on the board for which `drawish_scale` applies.
    pub drawish_pieces: i32,
    /// Bonus per empty square a king can reach (endgame mobility).
    pub king_mobility: i32,
    /// Bonus for a man with no enemy piece able to stop it from crowning
    /// (less `runaway_step` per move it still needs).
    pub runaway: i32,
    /// See `runaway`.
    pub runaway_step: i32,
    /// Bonus per man covered behind on both sides (by own pieces or the
    /// board's edge), so that it cannot be attacked from behind or exchanged
    /// off cheaply.
    pub support: i32,
    /// Penalty per man with no own piece on any neighbouring square.
    pub lone: i32,
    /// Bonus for having a king while the opponent has none.
    pub sole_king: i32,
    /// Material lead times pieces off the board, over 100 times the start
    /// count, times this: positive rewards the side ahead for exchanging,
    /// negative for keeping pieces on (the fitted value).
    pub simplify: i32,
    /// 10x10 only: bonus of a man on each square, from its owner's side
    /// (index 0 = square 1 for White, square 50 for Black), with the board
    /// full; it moves toward `man_square_end` as pieces come off.
    pub man_square: [i32; 50],
    /// 10x10 only: `man_square` with the board empty.
    pub man_square_end: [i32; 50],
}

/// The weights in use on 10x10 boards, fitted to International games
/// (benches/evaluation.md, "Evaluation tuning"); the learned patterns were
/// fitted on top of them, so they stay as they are.
pub const WEIGHTS: Weights = Weights {
    man: 100,
    king: 309,
    short_king: 150,
    losing_man: 100,
    losing_king: 250,
    losing_mobility: 2,
    advance: [0, 29, 20, 5, 14, 25, 17, 42, 83, 0],
    centre: 5,
    back_rank: 51,
    balance: 7,
    outpost: -20,
    edge: 1,
    mobility: 8,
    drawish_percent: 9,
    drawish_pieces: 6,
    king_mobility: 1,
    runaway: 153,
    runaway_step: 38,
    support: 1,
    lone: 7,
    sole_king: 87,
    simplify: -13,
    man_square: [
        0, 0, 0, 0, 0, -88, 82, 65, 56, 73, 31, -121, -2, -122, 15, 17, -90, -123, -96, 14, -17,
        -62, -5, -20, 29, 13, -17, 7, 1, -3, -2, -2, 18, -2, 21, 19, 2, 28, 18, 5, -1, 12, 18, 20,
        15, -4, 1, 38, 8, -5,
    ],
    man_square_end: [
        0, 0, 0, 0, 0, -29, 108, 58, 93, 112, 48, 72, 47, 84, -20, 7, 77, 57, 35, 19, 2, 18, 16,
        40, -2, -4, 38, 12, 10, -5, -1, 13, 10, 9, 8, -9, 1, -5, -6, -8, -27, -18, -12, -34, -22,
        -4, 17, -4, 14, 11,
    ],
};

/// The weights in use on 8x8 boards: set by hand and by matches, not yet
/// fitted (the 10x10 fit did not carry over; the per-square values are
/// 10x10 only).
pub const WEIGHTS_8X8: Weights = Weights {
    man: 100,
    king: 320,
    short_king: 150,
    losing_man: 100,
    losing_king: 250,
    losing_mobility: 2,
    advance: [0, 1, 2, 3, 5, 7, 9, 12, 15, 0],
    centre: 4,
    back_rank: 3,
    balance: 2,
    outpost: 3,
    edge: 4,
    mobility: 3,
    drawish_percent: 25,
    drawish_pieces: 6,
    king_mobility: 1,
    runaway: 160,
    runaway_step: 12,
    support: 0,
    lone: 0,
    sole_king: 0,
    simplify: 0,
    man_square: [0; 50],
    man_square_end: [0; 50],
};

/// The weights for the board of `R`.
#[inline(always)]
pub const fn weights_for<R: Rules>() -> &'static Weights {
    if R::Geometry::SQUARES == 50 {
        &WEIGHTS
    } else {
        &WEIGHTS_8X8
    }
}

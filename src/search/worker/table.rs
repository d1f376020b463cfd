//! The scores and keys a worker exchanges with the transposition table:
//! keys salted by the distance to a rule draw, mate scores counted from
//! the node, and the bounds that settle a node.

use super::Worker;
use crate::rules::{Move, Position, Rules};
use crate::search::tt::{Bound, Entry, MoveHint};
use crate::search::MATE_BOUND;

/// Plies to a rule draw within which the draw clocks enter the table key.
const CLOCK_HORIZON: u32 = 64;

/// The table key of `pos` whose draw clocks leave `plies_until_draw`: the
/// position's own key, salted with a value that differs for every distance
/// to a rule draw near enough to change the result.
#[inline(always)]
pub(super) fn table_key<R: Rules>(pos: &Position<R>, plies_until_draw: Option<u32>) -> u64 {
    let salt = match plies_until_draw {
        Some(n) if n <= CLOCK_HORIZON => (n as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        _ => 0,
    };
    pos.key() ^ salt
}

/// The score of a table entry when its bound settles the node for the
/// window `alpha..beta`.
#[inline(always)]
pub(super) fn cutoff(entry: Entry, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    let score = from_table(entry.score, ply);
    let settles = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    settles.then_some(score)
}

/// A score as stored: mate scores counted from this node, not the root.
#[inline(always)]
pub(super) fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score read back at `ply`.
#[inline(always)]
pub(super) fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<R: Rules> Worker<'_, R> {
    /// Stores a node's result: its bound follows from the window it was
    /// searched with.
    pub(super) fn store(
        &self,
        key: u64,
        best: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        depth: i32,
        best_move: Option<Move>,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let hint = best_move.map(MoveHint::of).unwrap_or_default();
        self.shared
            .table
            .store(key, to_table(best, ply), depth, bound, hint);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in [0usize, 1, 7, 60] {
            for score in [MATE - 10 - ply as i32, -MATE + 12 + ply as i32, 0, 150, -3] {
                assert_eq!(from_table(to_table(score, ply), ply), score);
            }
        }
        // A win in 3 found at ply 5 is a win in 8 from the root, and a win
        // in 3 from a node found at ply 2 later.
        let stored = to_table(MATE - 8, 5);
        assert_eq!(stored, MATE - 3);
        assert_eq!(from_table(stored, 2), MATE - 5);
    }
}

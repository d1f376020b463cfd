//! Move ordering: the ordering keys of listed moves (the table's move,
//! captures, killers, history), the selection of the next move, and the
//! killer and history updates after a cut.

use super::Worker;
use crate::rules::movegen::{generate_captures, generate_quiet};
use crate::rules::{Move, MoveList, Position, Rules};
use crate::search::tt::MoveHint;

/// Ordering keys: table move, captures, killers, then history.
const ORDER_HINT: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 24;
const ORDER_KILLER: [i32; 2] = [1 << 22, (1 << 22) - 1];
/// History scores stay within ±this: each update moves a score by its
/// bonus less the share of the bonus the score already holds of the limit,
/// so a move's score follows its recent cuts and never needs rescaling.
const HISTORY_LIMIT: i32 = 1 << 14;

impl<R: Rules> Worker<'_, R> {
    /// Lists the moves of `pos` (its captures when it must capture) with
    /// their ordering keys (the table's move first, then captures by the
    /// kings they take, or killers, then history); returns how many there
    /// are.
    pub(super) fn list_moves(
        &self,
        pos: &Position<R>,
        must_capture: bool,
        list: &mut MoveList,
        order: &mut Vec<i32>,
        hint: MoveHint,
        ply: usize,
    ) -> usize {
        order.clear();
        if must_capture {
            generate_captures(pos, list);
            let kings = pos.all_kings();
            order.extend(list.iter().map(|&mv| {
                if hint.matches(mv) {
                    ORDER_HINT
                } else {
                    ORDER_CAPTURE + (mv.captured() & kings).count_ones() as i32
                }
            }));
        } else {
            generate_quiet(pos, list);
            // Killers are quiet moves, so among quiet moves their two squares
            // (their history index) name them.
            let killers = self.buf.killers[ply].map(history_index);
            order.extend(list.iter().map(|&mv| {
                let index = history_index(mv);
                if hint.matches(mv) {
                    ORDER_HINT
                } else if index == killers[0] {
                    ORDER_KILLER[0]
                } else if index == killers[1] {
                    ORDER_KILLER[1]
                } else {
                    self.buf.history[index]
                }
            }));
        }
        list.len()
    }

    /// A quiet move caused a cut: remember it as a killer and in the history;
    /// the quiet moves tried before it lose as much.
    pub(super) fn reward(&mut self, mv: Move, ply: usize, depth: i32, tried: &[Move]) {
        let killers = &mut self.buf.killers[ply];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
        let bonus = (4 * depth * depth).min(HISTORY_LIMIT / 4);
        gravitate(&mut self.buf.history[history_index(mv)], bonus);
        for &other in tried {
            if !other.is_capture() {
                gravitate(&mut self.buf.history[history_index(other)], -bonus);
            }
        }
    }
}

/// Moves a history score by `bonus` (negative for a malus), damped by how
/// near the score already is to the limit on that side.
#[inline(always)]
fn gravitate(score: &mut i32, bonus: i32) {
    *score += bonus - *score * bonus.abs() / HISTORY_LIMIT;
}

#[inline(always)]
fn history_index(mv: Move) -> usize {
    mv.from().index() * 64 + mv.to().index()
}

/// Selection step: moves the best-ordered remaining move to `i` and returns it.
#[inline(always)]
pub(super) fn pick(moves: &mut [Move], order: &mut [i32], i: usize) -> Move {
    let order = &mut order[..moves.len()];
    let mut best = i;
    let mut top = order[i];
    for (j, &key) in order.iter().enumerate().skip(i + 1) {
        if key > top {
            best = j;
            top = key;
        }
    }
    moves.swap(i, best);
    order.swap(i, best);
    moves[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_scores_stay_within_the_limit_and_follow_recent_cuts() {
        let mut score = 0;
        gravitate(&mut score, 400);
        assert_eq!(score, 400);
        // Cuts keep adding less as the score nears the limit, never past it.
        for _ in 0..1000 {
            gravitate(&mut score, HISTORY_LIMIT / 4);
        }
        assert!((HISTORY_LIMIT * 9 / 10..=HISTORY_LIMIT).contains(&score));
        // A run of failures takes it as far the other way.
        for _ in 0..1000 {
            gravitate(&mut score, -HISTORY_LIMIT / 4);
        }
        assert!((-HISTORY_LIMIT..=-HISTORY_LIMIT * 9 / 10).contains(&score));
    }
}

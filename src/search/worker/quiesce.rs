//! Quiescence: capture sequences and crowning moves below the horizon of
//! the tree search.

use std::ops::ControlFlow;

use super::{cutoff, no_move_score, Worker};
use crate::rules::draw::DrawClocks;
use crate::rules::movegen::{generate, generate_captures, has_capture};
use crate::rules::movegen::{has_quiet_move, man_step_squares};
use crate::rules::{Goal, Position, Rules};
use crate::search::{INFINITY, MAX_PLY};

/// Quiescence uses the table only with at least this many kings on the board.
pub(super) const QS_TABLE_KINGS: u32 = 4;

impl<R: Rules> Worker<'_, R> {
    /// Quiescence: a side that must capture captures (no standing pat);
    /// otherwise the static score stands, unless a man can crown at once,
    /// in which case those moves are tried against standing pat.
    pub(super) fn quiesce(
        &mut self,
        pos: &Position<R>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if let ControlFlow::Break(score) = self.enter(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        // Within the endgame tables (reached by a capture, which starts the
        // draw counts afresh): the exact value.
        if pos.occupied().count_ones() <= self.egdb_pieces {
            if let Some(score) = self.egdb_score(pos, ply, &DrawClocks::start(pos)) {
                return score;
            }
        }
        // Capture sequences of many kings branch widely and transpose often:
        // there the table answers repeated positions (the key is the
        // position's own, shared with the main search). With few kings the
        // table cost more than it saved (benches/search.md, "Quiescence").
        let use_table = pos.all_kings().count_ones() >= QS_TABLE_KINGS;
        let key = pos.key();
        let entry = if use_table {
            self.shared.table.probe(key)
        } else {
            None
        };
        let hint = entry.map(|e| e.hint).unwrap_or_default();
        if let Some(score) = entry.and_then(|e| cutoff(e, alpha, beta, ply)) {
            return score;
        }
        let alpha_start = alpha;
        // Most positions here have no capture: a bitboard test says so
        // more cheaply than the generator, and no move is listed then.
        if !has_capture(pos) {
            if !has_quiet_move(pos) {
                return no_move_score::<R>(ply);
            }
            let stand = self.evaluate(pos, ply);
            if stand >= beta || R::GOAL != Goal::Normal {
                return stand;
            }
            if crowning_squares(pos) == 0 {
                return stand;
            }
            return self.try_crowning(pos, stand, alpha, beta, ply);
        }
        let mut list = std::mem::take(&mut self.buf.lists[ply]);
        generate_captures(pos, &mut list);
        let mut best = -INFINITY;
        if let Some(first) = list.iter().position(|&m| hint.matches(m)) {
            list.as_mut_slice().swap(0, first);
        }
        let mut best_move = None;
        for i in 0..list.len() {
            let mv = list.as_slice()[i];
            let score = -self.quiesce(&pos.play(mv), -beta, -alpha, ply + 1);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.buf.lists[ply] = list;
        if use_table && !self.stopped {
            self.store(key, best, (alpha_start, beta), ply, 0, best_move);
        }
        best
    }

    /// Quiescence of a quiet position where a man can crown at once: a man
    /// that crowns can change the balance more than the evaluation's
    /// advancement terms say, so each such move is tried against standing
    /// pat (`stand`).
    fn try_crowning(
        &mut self,
        pos: &Position<R>,
        stand: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let mut list = std::mem::take(&mut self.buf.lists[ply]);
        generate(pos, &mut list);
        let mut best = stand;
        alpha = alpha.max(stand);
        for i in 0..list.len() {
            let mv = list.as_slice()[i];
            if !pos.crowns(mv) {
                continue;
            }
            let child = pos.play(mv);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.buf.lists[ply] = list;
        best
    }
}

/// The squares of the promotion row that a man of the side to move can
/// step onto now.
#[inline(always)]
fn crowning_squares<R: Rules>(pos: &Position<R>) -> u64 {
    man_step_squares(pos) & Position::<R>::promotion_row(pos.side_to_move())
}

//! Quiescence: capture sequences, the threat extension, crowning moves and
//! (a budget of them along a line) sacrifices below the horizon of the tree
//! search.

use super::{cutoff, lost_already, no_move_score, Worker};
use crate::rules::draw::DrawClocks;
use crate::rules::movegen::{generate, generate_captures, has_capture, side_has_capture};
use crate::rules::movegen::{has_quiet_move, man_step_squares};
use crate::rules::{Goal, Position, Rules};
use crate::search::{INFINITY, MATE, MAX_PLY};

/// Quiescence uses the table only with at least this many kings on the board.
pub(super) const QS_TABLE_KINGS: u32 = 4;
/// Multiplier that separates table keys of quiescence nodes by threat budget.
/// (Sacrifices, tried only with no king on the board, never meet the table.)
const THREAT_SALT: u64 = 0xD6E8_FEB8_6659_FD93;
/// The most a sacrifice is expected to win beyond the static score, in
/// hundredths of a man: a node further below alpha tries none.
const SACRIFICE_REACH: i32 = 300;

impl<R: Rules> Worker<'_, R> {
    /// Quiescence: a side that must capture captures (no standing pat);
    /// otherwise the static score stands, unless the opponent threatens a
    /// capture, in which case every move is tried once more (`threat` plies),
    /// or a man can crown at once or (`sacs` left, no king on the board) a
    /// man can be offered, in which case those moves are tried against
    /// standing pat.
    pub(super) fn quiesce(
        &mut self,
        pos: &Position<R>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        threat: u32,
        sacs: u32,
    ) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.buf.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if lost_already(pos) {
            return -MATE + ply as i32;
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
        // there the table answers repeated positions. The threat budget
        // changes the result, so it is part of the key (with the full budget
        // the key is the position's own, shared with the main search). With
        // few kings the table cost more than it saved (benches/RESULTS.md,
        // "Quiescence").
        let use_table = pos.all_kings().count_ones() >= QS_TABLE_KINGS;
        let key = if use_table {
            pos.key() ^ ((self.params.threat_plies - threat) as u64).wrapping_mul(THREAT_SALT)
        } else {
            0
        };
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
        let side = pos.side_to_move();
        // Most positions here have no capture: a bitboard test says so
        // more cheaply than the generator, and no move is listed then.
        let must_capture = has_capture(pos);
        let threatened = !must_capture && threat > 0 && side_has_capture(pos, side.opponent());
        if !must_capture && !threatened {
            if !has_quiet_move(pos) {
                return no_move_score::<R>(ply);
            }
            let stand = self.evaluate(pos, ply);
            if stand >= beta || R::GOAL != Goal::Normal {
                return stand;
            }
            let crowning = crowning_squares(pos);
            // Sacrifices: none with a king on the board (a king's capture
            // lines are too many to follow here), none while the opponent
            // can capture already, and none where the largest usual gain
            // would still leave the score at or below alpha.
            let sacrifices = sacs > 0
                && pos.all_kings() == 0
                && stand + SACRIFICE_REACH > alpha
                && !side_has_capture(pos, side.opponent());
            if crowning == 0 && !sacrifices {
                return stand;
            }
            let tries = QuietTries {
                stand,
                sacrifices,
                threat,
                sacs,
            };
            return self.try_quiet(pos, tries, alpha, beta, ply);
        }
        let mut list = std::mem::take(&mut self.buf.lists[ply]);
        if must_capture {
            generate_captures(pos, &mut list);
        } else {
            // Threatened: every move is tried once more.
            generate(pos, &mut list);
            if list.is_empty() {
                self.buf.lists[ply] = list;
                return no_move_score::<R>(ply);
            }
            let stand = self.evaluate(pos, ply);
            if stand >= beta + 200 {
                self.buf.lists[ply] = list;
                return stand;
            }
        }
        let mut best = -INFINITY;
        let next_threat = if list.as_slice()[0].is_capture() {
            threat
        } else {
            threat - 1
        };
        if let Some(first) = list.iter().position(|&m| hint.matches(m)) {
            list.as_mut_slice().swap(0, first);
        }
        let mut best_move = None;
        for i in 0..list.len() {
            let mv = list.as_slice()[i];
            let score = -self.quiesce(&pos.play(mv), -beta, -alpha, ply + 1, next_threat, sacs);
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

    /// Quiescence of a quiet position where a man can crown at once or a
    /// man can be offered (`tries`): a man that crowns can change the
    /// balance more than the evaluation's advancement terms say, and a man
    /// given can open a shot; each such move is tried against standing pat.
    fn try_quiet(
        &mut self,
        pos: &Position<R>,
        tries: QuietTries,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let mut list = std::mem::take(&mut self.buf.lists[ply]);
        generate(pos, &mut list);
        let mut best = tries.stand;
        alpha = alpha.max(tries.stand);
        for i in 0..list.len() {
            let mv = list.as_slice()[i];
            let crowns = pos.crowns(mv);
            if !crowns && !tries.sacrifices {
                continue;
            }
            let child = pos.play(mv);
            // A move that crowns keeps the budget; one that offers a man
            // (the opponent must capture next) spends one sacrifice. Every
            // capture of the opponent must be answered by a capture: of more
            // pieces for the last sacrifice the budget allows (it wins at
            // once), of any for the ones before (exchanges that prepare it).
            let sacs = if crowns {
                tries.sacs
            } else if has_capture(&child) && self.answered(&child, ply + 1, tries.sacs == 1) {
                tries.sacs - 1
            } else {
                continue;
            };
            let threat = tries.threat.saturating_sub(1);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, threat, sacs);
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

    /// Whether after each capture of the side to move in `pos` (at `ply`;
    /// the move lists of this ply and the next serve) the other side can
    /// capture in turn, with `more` pieces than were taken.
    fn answered(&mut self, pos: &Position<R>, ply: usize, more: bool) -> bool {
        let mut list = std::mem::take(&mut self.buf.lists[ply]);
        let mut replies = std::mem::take(&mut self.buf.lists[ply + 1]);
        generate_captures(pos, &mut list);
        let answered = list.iter().all(|&mv| {
            let after = pos.play(mv);
            if !more {
                return has_capture(&after);
            }
            generate_captures(&after, &mut replies);
            replies
                .iter()
                .any(|r| r.capture_count() > mv.capture_count())
        });
        self.buf.lists[ply] = list;
        self.buf.lists[ply + 1] = replies;
        answered
    }
}

/// The quiet moves a quiescence node tries against standing pat.
#[derive(Clone, Copy)]
struct QuietTries {
    /// The static score, which stands if nothing beats it.
    stand: i32,
    /// Whether moves that offer a man are tried.
    sacrifices: bool,
    /// The threat plies left.
    threat: u32,
    /// The sacrifices left along the line.
    sacs: u32,
}

/// The squares of the promotion row that a man of the side to move can
/// step onto now.
#[inline(always)]
fn crowning_squares<R: Rules>(pos: &Position<R>) -> u64 {
    man_step_squares(pos) & Position::<R>::promotion_row(pos.side_to_move())
}

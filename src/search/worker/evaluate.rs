//! A worker's static scores: the evaluator's, kept in a per-worker cache
//! by the position's key, and the endgame tables' where they hold the
//! position.

use super::{Worker, EVAL_CACHE_BITS};
use crate::egdb::Value;
use crate::rules::draw::DrawClocks;
use crate::rules::{Position, Rules};
use crate::search::tt::prefetch_line;
use crate::search::MATE;

impl<R: Rules> Worker<'_, R> {
    /// The slot of the cache of static scores that holds the position with
    /// `key`.
    #[inline(always)]
    pub(super) fn eval_slot(key: u64) -> usize {
        (key & ((1 << EVAL_CACHE_BITS) - 1)) as usize
    }

    /// Asks for the cache line of the static score of the position with
    /// `key`, which the search of a child made now is about to read.
    #[inline(always)]
    pub(super) fn prefetch_static_score(&self, key: u64) {
        prefetch_line(&self.buf.eval_cache[Self::eval_slot(key)] as *const u64 as *const i8);
    }

    /// The static evaluation of `pos`, the node at `ply`, from the side to
    /// move's view.
    #[inline(always)]
    pub(super) fn evaluate(&mut self, pos: &Position<R>, ply: usize) -> i32 {
        let key = pos.key();
        let slot = &mut self.buf.eval_cache[Self::eval_slot(key)];
        if *slot != 0 && (*slot ^ key) >> 16 == 0 {
            return *slot as u16 as i16 as i32;
        }
        let score = self.evaluator.score(pos, &mut self.buf.accumulators, ply);
        if let Ok(small) = i16::try_from(score) {
            *slot = (key & !0xFFFF) | small as u16 as u64;
        }
        score
    }

    /// The score of a position within the endgame tables, as a mate score
    /// at its exact distance (`None` outside them). A win or loss longer
    /// than the plies the draw clocks leave may still be a draw (the count
    /// ends the game first) or not (a capture on the way restarts the
    /// count), so the side the search plays assumes the worse: such a win of
    /// its own scores a draw, such a win of its opponent's a loss
    /// ([`DrawClocks::plies_for_a_win`] says which counts hold).
    #[inline]
    pub(super) fn egdb_score(
        &self,
        pos: &Position<R>,
        ply: usize,
        clocks: &DrawClocks,
    ) -> Option<i32> {
        let value = self.egdb.as_ref()?.probe(pos)?;
        let left = clocks.plies_for_a_win(pos, &self.draw);
        let certain = |d: u32| left.is_none_or(|left| d <= left);
        // Who is assumed to win a game the count may cut short (no one
        // once a rule draws it now).
        let ours = pos.side_to_move() == self.root.side_to_move();
        let (assume_win, assume_loss) = match left {
            Some(0) => (false, false),
            _ => (!ours, ours),
        };
        Some(match value {
            Value::Win(d) if certain(d) || assume_win => MATE - (ply as i32 + d as i32),
            Value::Loss(d) if certain(d) || assume_loss => -MATE + ply as i32 + d as i32,
            _ => self.draw_score(pos),
        })
    }
}

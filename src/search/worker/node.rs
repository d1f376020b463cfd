//! The tree search below the root: `negamax`, a principal-variation
//! search whose steps are numbered in its body, and the node frame it
//! passes from parent to child.
//!
//! Node steps: endgame tables → horizon → draws → mate-distance pruning →
//! whether any move exists (none = loss), rule draws → table probe →
//! reverse futility → the table's quiet move, then the listed moves (a
//! forced reply costs no depth) in an ordered PVS loop with late-move
//! reductions (a move another thread is searching comes last) → table
//! store.

use super::table::{cutoff, table_key};
use super::{lost_already, no_move_score, pick, Worker};
use crate::rules::draw::DrawClocks;
use crate::rules::movegen::{
    count_moves, has_capture, has_quiet_move, legal_quiet_move, side_has_capture,
};
use crate::rules::{Goal, Position, Rules};
use crate::search::{INFINITY, MATE, MATE_BOUND, MAX_PLY};

/// Late-move pruning applies up to this depth (reverse futility up to the
/// technique `futility-depth`, with the margin `futility-margin` a ply).
const LATE_MOVE_DEPTH: i32 = 4;
/// Nodes at least this deep mark their children as being searched and put
/// off a child another thread is searching (two threads against one, time
/// to bench depth 16, median of six interleaved runs: 0.60 from depth 5,
/// 0.61 from 6, 0.62 from 4, 0.63 from 8, 0.68 without deferral).
const DEFER_DEPTH: i32 = 5;
// Late-move pruning stops a move loop, which must hold no deferred move.
const _: () = assert!(DEFER_DEPTH > LATE_MOVE_DEPTH);

/// A node of the tree as its parent hands it over: the position, its
/// distance from the root in plies and its draw-rule clocks.
#[derive(Clone, Copy)]
pub(super) struct Node<'p, R: Rules> {
    /// The position.
    pub(super) pos: &'p Position<R>,
    /// Plies from the root.
    pub(super) ply: usize,
    /// The draw-rule clocks of `pos`.
    pub(super) clocks: DrawClocks,
}

/// Where a node stands, as its parent searched it: on the principal
/// variation (an open window) or outside it (a null window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NodeKind {
    /// On the principal variation: searched with an open window.
    Pv,
    /// Outside it: searched with a null window.
    NonPv,
}

impl<R: Rules> Worker<'_, R> {
    /// Principal-variation search of `node` to `depth` within
    /// (`alpha`, `beta`), `kind` saying whether it is on the principal
    /// variation.
    pub(super) fn negamax(
        &mut self,
        node: Node<'_, R>,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        kind: NodeKind,
    ) -> i32 {
        let Node { pos, ply, clocks } = node;
        let pv_node = kind == NodeKind::Pv;
        // 0. Endgame tables, at any depth: the exact value.
        if pos.occupied().count_ones() <= self.egdb_pieces {
            if let Some(score) = self.egdb_score(pos, ply, &clocks) {
                self.count_node();
                return score;
            }
        }
        // 1. Horizon: resolve captures and crowning moves.
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.buf.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if lost_already(pos) {
            return -MATE + ply as i32;
        }
        // 2. Draws by repetition (at the first recurrence) and by material
        // that can only be drawn.
        if self.is_repetition(pos.key(), clocks.reversible_plies())
            || (pos.occupied().count_ones() <= 3 && self.shared.solved.is_draw(pos))
        {
            return self.draw_score(pos);
        }
        // 3. Mate-distance pruning (in Losing a blocked side to move has
        // won here, at this ply).
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - i32::from(R::GOAL != Goal::Losing));
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        // 4. Moves; none is a loss. Which moves exist follows from bitboard
        // tests; they are only listed once a step below needs them. (These
        // tests come before the table probe, whose bucket the parent asked
        // for: they run while it is on its way.)
        let must_capture = has_capture(pos);
        if !must_capture && !has_quiet_move(pos) {
            return no_move_score::<R>(ply);
        }
        // A win on the last allowed move is a win: the rules' draws (no
        // plies left on the draw clocks) come after the check for a lost
        // position.
        let plies_until_draw = clocks.plies_until_draw(&self.draw);
        if plies_until_draw == Some(0) {
            return self.draw_score(pos);
        }
        // 5. Transposition table; the key includes the draw clocks when a
        // draw rule is near enough to change the result. A calm non-PV
        // node near the horizon works out its static score first, which
        // the pruning steps below need unless the table cuts: the bucket
        // the parent asked for arrives meanwhile. `calm` is only worked out
        // where a pruning step can use it.
        let futility_depth = self.params.futility_depth as i32;
        let calm = !pv_node
            && depth <= futility_depth.max(LATE_MOVE_DEPTH)
            && !must_capture
            && !side_has_capture(pos, pos.side_to_move().opponent());
        let prunable = calm && depth <= futility_depth && beta.abs() < MATE_BOUND;
        let static_eval = prunable.then(|| self.evaluate(pos, ply));
        let key = table_key(pos, plies_until_draw);
        let entry = self.shared.table.probe(key);
        let hint = entry.map(|e| e.hint).unwrap_or_default();
        if let Some(e) = entry {
            if !pv_node && e.depth >= depth {
                if let Some(score) = cutoff(e, alpha, beta, ply) {
                    return score;
                }
            }
        }
        // 5a. Quiet, far above beta near the horizon: trust the static score
        // (not when a capture is pending for either side).
        if let Some(eval) = static_eval {
            let margin = self.params.futility_margin as i32;
            if margin > 0 && eval - margin * depth >= beta {
                return eval;
            }
        }
        // Moves searched at a calm node before the rest are pruned.
        let limit = if calm {
            late_move_limit(depth, self.params.late_move_scale)
        } else {
            usize::MAX
        };
        // 6. The table's move, when it is a legal quiet move, is searched
        // before the others are listed: when it cuts, they never are.
        let mut list = std::mem::take(&mut self.buf.lists[ply]);
        let mut order = std::mem::take(&mut self.buf.order[ply]);
        let early = hint
            .quiet_ends()
            .filter(|_| !must_capture)
            .and_then(|(from, to)| legal_quiet_move(pos, from, to));
        let mut n = 0;
        if early.is_none() {
            n = self.list_moves(pos, must_capture, &mut list, &mut order, hint, ply);
        }
        // A forced reply costs no depth (the technique `forced-extension`).
        let forced = self.params.forced_extension != 0
            && match early {
                Some(_) => count_moves(pos, &mut list) == 1,
                None => n == 1,
            };
        let extension = (forced && ply < MAX_PLY / 2) as i32;
        let new_depth = depth - 1 + extension;
        // Children at the horizon go to quiescence, which needs no draw
        // clocks.
        let leaf = new_depth <= 0;
        // 7. Ordered PVS loop.
        let alpha_start = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        self.keys.push(pos.key());
        // Moves put off because another thread is searching their child;
        // they are searched after the others, at their own index.
        let busy = self.shared.busy.as_ref().filter(|_| depth >= DEFER_DEPTH);
        let mut deferred = match busy {
            Some(_) => std::mem::take(&mut self.buf.deferred[ply]),
            None => Vec::new(),
        };
        deferred.clear();
        // The next move's child is made one step ahead and its table bucket
        // asked for, so that its probe finds the bucket in the cache (the
        // first child's is asked for just before it is searched).
        let mut upcoming = None;
        let mut turn = 0;
        loop {
            if turn == 1 && n == 0 {
                // The table's move was searched first and did not cut: list
                // the moves; it comes first again, and is skipped.
                n = self.list_moves(pos, must_capture, &mut list, &mut order, hint, ply);
                let first = pick(list.as_mut_slice(), &mut order, 0);
                debug_assert!(Some(first) == early, "the table's move is first");
            }
            let (i, mv, child, child_clocks) = if let Some(mv) = early.filter(|_| turn == 0) {
                let (child, child_clocks) = self.child_of(pos, mv, clocks, leaf);
                (0, mv, child, child_clocks)
            } else if turn < n {
                let i = turn;
                // Late moves near the horizon of a calm non-PV node are not
                // searched at all: all its moves are quiet and come in order,
                // so the rest go unmade (no thread defers at this depth).
                if i >= limit && best > -MATE_BOUND {
                    turn = n;
                    continue;
                }
                let (mv, child, child_clocks) = match upcoming.take() {
                    Some(made) => made,
                    None => {
                        let mv = pick(list.as_mut_slice(), &mut order, i);
                        let (child, child_clocks) = self.child_of(pos, mv, clocks, leaf);
                        (mv, child, child_clocks)
                    }
                };
                // (Not when the next move is past the late-move limit of a
                // calm node: it would be pruned unsearched.)
                if depth >= 2 && i + 1 < n && i + 1 < limit {
                    let next = pick(list.as_mut_slice(), &mut order, i + 1);
                    let (child, child_clocks) = self.child_of(pos, next, clocks, leaf);
                    upcoming = Some((next, child, child_clocks));
                }
                (i, mv, child, child_clocks)
            } else if let Some(&(i, mv)) = deferred.get(turn - n) {
                let (child, child_clocks) = self.child_of(pos, mv, clocks, leaf);
                (i, mv, child, child_clocks)
            } else {
                break;
            };
            turn += 1;
            debug_assert!(n == 0 || list.as_slice()[i] == mv, "move {i} is searched");
            let quiet = !mv.is_capture();
            if let Some(busy) = busy {
                if turn <= n && i > 0 && busy.contains(child.key()) {
                    deferred.push((i, mv));
                    continue;
                }
                busy.enter(child.key());
            }
            let child_node = Node {
                pos: &child,
                ply: ply + 1,
                clocks: child_clocks,
            };
            let mut score;
            if i == 0 {
                score = -self.search_child(child_node, new_depth, -beta, -alpha, kind);
            } else {
                let reduction = if depth >= 3
                    && quiet
                    && extension == 0
                    && self.params.lmr_divisor != 0
                    && i >= if pv_node { 4 } else { 2 }
                    && !self.buf.killers[ply].contains(&mv)
                {
                    let r = self.buf.reductions[(depth as usize).min(63)][i.min(63)];
                    (r - pv_node as i32).clamp(1, new_depth - 1)
                } else {
                    0
                };
                score = -self.search_child(
                    child_node,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    NodeKind::NonPv,
                );
                if score > alpha && reduction > 0 && !self.stopped {
                    score = -self.search_child(
                        child_node,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        NodeKind::NonPv,
                    );
                }
                if score > alpha && score < beta && pv_node && !self.stopped {
                    score = -self.search_child(child_node, new_depth, -beta, -alpha, NodeKind::Pv);
                }
            }
            if let Some(busy) = busy {
                busy.leave(child.key());
            }
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    // A null-window node keeps only its move: its line is
                    // read only after a fail high, which is searched again.
                    let (head, tail) = self.buf.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    if pv_node {
                        head[ply].extend_from_slice(&tail[0]);
                    }
                    if alpha >= beta {
                        if quiet {
                            self.reward(mv, ply, depth, &list.as_slice()[..i]);
                        }
                        break;
                    }
                }
            }
        }
        self.keys.pop();
        self.buf.lists[ply] = list;
        self.buf.order[ply] = order;
        if busy.is_some() {
            self.buf.deferred[ply] = deferred;
        }
        if self.stopped {
            return 0;
        }
        // 8. Store.
        self.store(key, best, (alpha_start, beta), ply, depth, best_move);
        best
    }

    /// A child of the move loop: quiescence at the horizon, called directly
    /// (most children there are leaves), otherwise `negamax`.
    #[inline(always)]
    pub(super) fn search_child(
        &mut self,
        child: Node<'_, R>,
        depth: i32,
        alpha: i32,
        beta: i32,
        kind: NodeKind,
    ) -> i32 {
        if depth <= 0 {
            self.quiesce(child.pos, alpha, beta, child.ply)
        } else {
            self.negamax(child, depth, alpha, beta, kind)
        }
    }
}

/// Moves searched at a calm non-PV node of this depth before the rest are
/// pruned: 3 plus `scale` percent of the depth squared.
#[inline(always)]
fn late_move_limit(depth: i32, scale: u32) -> usize {
    if depth <= LATE_MOVE_DEPTH {
        3 + (depth * depth) as usize * scale as usize / 100
    } else {
        usize::MAX
    }
}

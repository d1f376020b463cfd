//! The move loop of a node: the order its moves come in (the table's
//! quiet move before any is listed, the listed moves by their ordering
//! keys with the next one's child made a step ahead, last the moves put
//! off because another thread is searching them), the child's search
//! (late-move reductions and the re-searches) and what a new best move
//! changes.

use super::node::{Frame, Node, NodeKind, LATE_MOVE_DEPTH};
use super::ordering::pick;
use super::Worker;
use crate::rules::draw::DrawClocks;
use crate::rules::movegen::{count_moves, legal_quiet_move};
use crate::rules::{Move, MoveList, Position, Rules};
use crate::search::tt::MoveHint;
use crate::search::{INFINITY, MATE_BOUND, MAX_PLY};

/// Nodes at least this deep mark their children as being searched and put
/// off a child another thread is searching (two threads against one, time
/// to bench depth 16, median of six interleaved runs: 0.60 from depth 5,
/// 0.61 from 6, 0.62 from 4, 0.63 from 8, 0.68 without deferral).
const DEFER_DEPTH: i32 = 5;
// Late-move pruning stops a move loop, which must hold no deferred move.
const _: () = assert!(DEFER_DEPTH > LATE_MOVE_DEPTH);

/// A node's moves as its move loop takes them.
struct MoveQueue<R: Rules> {
    /// The listed moves (none until they are listed) ...
    list: MoveList,
    /// ... and their ordering keys.
    order: Vec<i32>,
    /// How many moves are listed (0 while only the table's move is known).
    listed: usize,
    /// The table's move (it orders the listed moves first).
    hint: MoveHint,
    /// The table's move, when it is a legal quiet move: searched before
    /// the others are listed, so that when it cuts they never are.
    early: Option<Move>,
    /// Moves taken so far, the deferred ones counted again when taken.
    turn: usize,
    /// Listed moves taken before the rest are pruned (`usize::MAX`: all).
    late_move_limit: usize,
    /// The next listed move with its child and the child's clocks, made a
    /// step ahead so that its table bucket is on its way when its search
    /// begins.
    upcoming: Option<(Move, Position<R>, DrawClocks)>,
    /// Moves put off because another thread is searching their child
    /// (their index in the ordered list, the move): searched after the
    /// others, at their own index.
    deferred: Vec<(usize, Move)>,
}

/// The move the loop searches next.
struct NextMove<R: Rules> {
    /// Its index in the ordered list (the table's move is 0).
    index: usize,
    /// The move.
    mv: Move,
    /// The position after it.
    child: Position<R>,
    /// The child's draw clocks.
    clocks: DrawClocks,
    /// Whether it may be put off for another thread's search: a listed
    /// move after the first, at its first turn.
    may_defer: bool,
}

impl<R: Rules> Worker<'_, R> {
    /// The move loop of the node of `frame`, whose table move is `hint`
    /// and which searches `late_move_limit` moves before it prunes the
    /// rest: an ordered principal-variation search of its moves. Returns
    /// the best score and its move (whatever they are when the search is
    /// stopped).
    #[inline(always)]
    pub(super) fn search_moves(
        &mut self,
        frame: &Frame<'_, R>,
        hint: MoveHint,
        late_move_limit: usize,
    ) -> (i32, Option<Move>) {
        let Frame {
            node, depth, beta, ..
        } = *frame;
        let ply = node.ply;
        let mut moves = self.queue_moves(frame, hint, late_move_limit);
        let extension = self.extension(frame, &mut moves);
        let new_depth = depth - 1 + extension;
        // Children at the horizon go to quiescence, which needs no draw
        // clocks.
        let leaf = new_depth <= 0;
        let busy = self.shared.busy.as_ref().filter(|_| depth >= DEFER_DEPTH);
        if busy.is_some() {
            moves.deferred = std::mem::take(&mut self.buf.deferred[ply]);
            moves.deferred.clear();
        }
        let mut alpha = frame.alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        self.keys.push(node.pos.key());
        while let Some(next) = self.next_move(&mut moves, frame, leaf, best) {
            let NextMove {
                index,
                mv,
                child,
                clocks,
                may_defer,
            } = next;
            debug_assert!(
                moves.listed == 0 || moves.list.as_slice()[index] == mv,
                "move {index} is searched"
            );
            if let Some(busy) = busy {
                if may_defer && busy.contains(child.key()) {
                    moves.deferred.push((index, mv));
                    continue;
                }
                busy.enter(child.key());
            }
            let child_node = Node {
                pos: &child,
                ply: ply + 1,
                clocks,
            };
            let extended = extension != 0;
            let score =
                self.search_move(frame, child_node, (index, mv), new_depth, extended, alpha);
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
                    self.lead_line(ply, mv, frame.kind);
                    if alpha >= beta {
                        if !mv.is_capture() {
                            self.reward(mv, ply, depth, &moves.list.as_slice()[..index]);
                        }
                        break;
                    }
                }
            }
        }
        self.keys.pop();
        self.buf.lists[ply] = moves.list;
        self.buf.order[ply] = moves.order;
        if busy.is_some() {
            self.buf.deferred[ply] = moves.deferred;
        }
        (best, best_move)
    }

    /// The node's moves made ready for the loop: the table's move alone
    /// when it is a legal quiet move, otherwise all of them listed.
    #[inline(always)]
    fn queue_moves(
        &mut self,
        frame: &Frame<'_, R>,
        hint: MoveHint,
        late_move_limit: usize,
    ) -> MoveQueue<R> {
        let Node { pos, ply, .. } = frame.node;
        let mut list = std::mem::take(&mut self.buf.lists[ply]);
        let mut order = std::mem::take(&mut self.buf.order[ply]);
        let early = hint
            .quiet_ends()
            .filter(|_| !frame.must_capture)
            .and_then(|(from, to)| legal_quiet_move(pos, from, to));
        let mut listed = 0;
        if early.is_none() {
            listed = self.list_moves(pos, frame.must_capture, &mut list, &mut order, hint, ply);
        }
        MoveQueue {
            list,
            order,
            listed,
            hint,
            early,
            turn: 0,
            late_move_limit,
            upcoming: None,
            deferred: Vec::new(),
        }
    }

    /// The plies every move of the node is searched deeper: one for a
    /// forced reply, which costs no depth (the technique
    /// `forced-extension`), short of half the plies a line may have.
    #[inline(always)]
    fn extension(&self, frame: &Frame<'_, R>, moves: &mut MoveQueue<R>) -> i32 {
        let forced = self.params.forced_extension != 0
            && match moves.early {
                Some(_) => count_moves(frame.node.pos, &mut moves.list) == 1,
                None => moves.listed == 1,
            };
        (forced && frame.node.ply < MAX_PLY / 2) as i32
    }

    /// The loop's next move with its child, `None` when none is left: the
    /// table's move when it came early, then the listed moves in order
    /// (listed once the table's move has failed to cut; none past the
    /// late-move limit once the node has a `best` score above a loss), then
    /// the deferred ones. A `leaf` child goes to quiescence.
    #[inline(always)]
    fn next_move(
        &self,
        moves: &mut MoveQueue<R>,
        frame: &Frame<'_, R>,
        leaf: bool,
        best: i32,
    ) -> Option<NextMove<R>> {
        let Node { pos, ply, clocks } = frame.node;
        if moves.turn == 1 && moves.listed == 0 {
            // The table's move was searched first and did not cut: list
            // the moves; it comes first again, and is skipped.
            moves.listed = self.list_moves(
                pos,
                frame.must_capture,
                &mut moves.list,
                &mut moves.order,
                moves.hint,
                ply,
            );
            let first = pick(moves.list.as_mut_slice(), &mut moves.order, 0);
            debug_assert!(Some(first) == moves.early, "the table's move is first");
        }
        let made = |mv: Move, index: usize, may_defer: bool| {
            let (child, clocks) = self.child_of(pos, mv, clocks, leaf);
            NextMove {
                index,
                mv,
                child,
                clocks,
                may_defer,
            }
        };
        if let Some(mv) = moves.early.filter(|_| moves.turn == 0) {
            moves.turn = 1;
            return Some(made(mv, 0, false));
        }
        if moves.turn < moves.listed {
            let index = moves.turn;
            // Late moves near the horizon of a calm non-PV node are not
            // searched at all: all its moves are quiet and come in order,
            // so the rest go unmade (no thread defers at this depth).
            if index >= moves.late_move_limit && best > -MATE_BOUND {
                moves.turn = moves.listed;
            } else {
                moves.turn += 1;
                let next = match moves.upcoming.take() {
                    Some((mv, child, clocks)) => NextMove {
                        index,
                        mv,
                        child,
                        clocks,
                        may_defer: index > 0,
                    },
                    None => {
                        let mv = pick(moves.list.as_mut_slice(), &mut moves.order, index);
                        made(mv, index, index > 0)
                    }
                };
                // (Not when the next move is past the late-move limit of a
                // calm node: it would be pruned unsearched.)
                let ahead = index + 1;
                if frame.depth >= 2 && ahead < moves.listed && ahead < moves.late_move_limit {
                    let mv = pick(moves.list.as_mut_slice(), &mut moves.order, ahead);
                    let (child, clocks) = self.child_of(pos, mv, clocks, leaf);
                    moves.upcoming = Some((mv, child, clocks));
                }
                return Some(next);
            }
        }
        let &(index, mv) = moves.deferred.get(moves.turn - moves.listed)?;
        moves.turn += 1;
        Some(made(mv, index, false))
    }

    /// The child's search for the move `index` of the loop (`mv`), the
    /// node's window's lower end now `alpha`: the first move with the
    /// node's window; a later one with a null window, first reduced by
    /// late-move reduction, searched again at full depth when it beats
    /// alpha, and again with the full window at a PV node when it falls
    /// inside it.
    #[inline(always)]
    fn search_move(
        &mut self,
        frame: &Frame<'_, R>,
        child: Node<'_, R>,
        (index, mv): (usize, Move),
        new_depth: i32,
        extended: bool,
        alpha: i32,
    ) -> i32 {
        let beta = frame.beta;
        if index == 0 {
            return -self.search_child(child, new_depth, -beta, -alpha, frame.kind);
        }
        let pv_node = frame.kind == NodeKind::Pv;
        let reduction = if extended {
            0
        } else {
            self.reduction(frame, index, mv)
        };
        let null = NodeKind::NonPv;
        let mut score = -self.search_child(child, new_depth - reduction, -alpha - 1, -alpha, null);
        if score > alpha && reduction > 0 && !self.stopped {
            score = -self.search_child(child, new_depth, -alpha - 1, -alpha, null);
        }
        if score > alpha && score < beta && pv_node && !self.stopped {
            score = -self.search_child(child, new_depth, -beta, -alpha, NodeKind::Pv);
        }
        score
    }

    /// The late-move reduction of the move `index` (`mv`) of an unextended
    /// node: only a quiet move that is not a killer is reduced, and none
    /// without late-move reductions.
    #[inline(always)]
    fn reduction(&self, frame: &Frame<'_, R>, index: usize, mv: Move) -> i32 {
        if mv.is_capture() || self.params.lmr_divisor == 0 {
            return 0;
        }
        let pv_node = frame.kind == NodeKind::Pv;
        let r = late_move_reduction(&self.buf.reductions, frame.depth, index, pv_node);
        if r > 0 && self.buf.killers[frame.node.ply].contains(&mv) {
            0
        } else {
            r
        }
    }

    /// A move that raised alpha at `ply` heads the node's line, the child's
    /// line after it at a PV node. A null-window node keeps only its move:
    /// its line is read only after a fail high, which is searched again.
    #[inline(always)]
    fn lead_line(&mut self, ply: usize, mv: Move, kind: NodeKind) {
        let (head, tail) = self.buf.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        if kind == NodeKind::Pv {
            head[ply].extend_from_slice(&tail[0]);
        }
    }
}

/// The late-move reduction of the move `index` (from 0 in the ordering)
/// of a node of `depth` whose moves are searched to `depth - 1`, by the
/// logarithmic table `reductions` ([depth][index]): none below depth 3
/// nor before the third move (the fifth at a PV node); otherwise the
/// table's figure, a ply less at a PV node, at least one ply and leaving
/// the move at least one.
#[inline(always)]
fn late_move_reduction(reductions: &[[i32; 64]], depth: i32, index: usize, pv_node: bool) -> i32 {
    let first_reduced = if pv_node { 4 } else { 2 };
    if depth < 3 || index < first_reduced {
        return 0;
    }
    let r = reductions[(depth as usize).min(63)][index.min(63)];
    (r - pv_node as i32).clamp(1, depth - 2)
}

#[cfg(test)]
mod tests {
    use super::super::buffers::fill_reductions;
    use super::*;

    #[test]
    fn late_moves_are_reduced_by_the_table_within_their_depth() {
        let mut table = vec![[0; 64]; 64];
        fill_reductions(&mut table, 75, 150);
        // The table's figure (0.75 + ln 10 ln 10 / 1.5 = 4.28), a ply less
        // on the principal variation.
        assert_eq!(late_move_reduction(&table, 10, 10, false), 4);
        assert_eq!(late_move_reduction(&table, 10, 10, true), 3);
        // The first two moves (four at a PV node) and nodes of depth 2 are
        // searched at full depth.
        assert_eq!(late_move_reduction(&table, 10, 1, false), 0);
        assert_eq!(late_move_reduction(&table, 10, 3, true), 0);
        assert_eq!(late_move_reduction(&table, 2, 30, false), 0);
        // A reduction is at least a ply: at depth 3, move 4 the table gives
        // 1 (0.75 + ln 3 ln 4 / 1.5 = 1.77), a ply less at a PV node none...
        assert_eq!(late_move_reduction(&table, 3, 4, true), 1);
        // ... and leaves a move of a depth-3 node at least one of its two
        // plies (the table gives 3 for move 63).
        assert_eq!(late_move_reduction(&table, 3, 63, false), 1);
    }
}

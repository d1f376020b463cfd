//! Searches a node makes besides those of its moves, to decide how to
//! search them: the null move (the side to move passes; a cut if the
//! opponent still fails low) and the singular test (whether only the
//! table's move holds). Both are techniques a node tries only when they
//! are switched on.

use super::node::{Node, NodeKind};
use super::Worker;
use crate::rules::movegen::{generate_captures, generate_quiet, side_has_capture};
use crate::rules::{Move, MoveList, Rules};
use crate::search::MATE_BOUND;

/// Null move: the least depth of a node that tries it, and the fewest
/// pieces on the board (with few, being obliged to move is often the loss).
const NULL_MOVE_DEPTH: i32 = 3;
const NULL_MOVE_PIECES: u32 = 12;

impl<R: Rules> Worker<'_, R> {
    /// Step 5d of `negamax` (the technique `null-move`) at a quiet non-PV
    /// node that need not capture: with no capture pending for the
    /// opponent either, a static score of at least `beta` and the parent
    /// not having passed already, the side to move passes; when the
    /// opponent, moving twice, still fails low at a reduced depth, the node
    /// cuts with the score returned (0 once the search is stopped).
    pub(super) fn null_move_cut(
        &mut self,
        node: Node<'_, R>,
        depth: i32,
        beta: i32,
        static_eval: Option<i32>,
    ) -> Option<i32> {
        let Node { pos, ply, clocks } = node;
        let null_reduction = self.params.null_move as i32;
        if depth < NULL_MOVE_DEPTH
            || beta.abs() >= MATE_BOUND
            || pos.occupied().count_ones() < NULL_MOVE_PIECES
            || (ply > 0 && self.buf.played[ply - 1] == Move::default())
            || side_has_capture(pos, pos.side_to_move().opponent())
        {
            return None;
        }
        let eval = match static_eval {
            Some(eval) => eval,
            None => self.evaluate(pos, ply),
        };
        if eval < beta {
            return None;
        }
        let passed = pos.with_side_to_move(pos.side_to_move().opponent());
        self.buf.played[ply] = Move::default();
        self.keys.push(pos.key());
        let score = -self.search_child(
            Node {
                pos: &passed,
                ply: ply + 1,
                clocks,
            },
            depth - 1 - null_reduction,
            -beta,
            -beta + 1,
            NodeKind::All,
        );
        self.keys.pop();
        if self.stopped {
            return Some(0);
        }
        (score >= beta).then(|| score.min(MATE_BOUND - 1))
    }

    /// Whether every move of `pos` but `mv` fails low against `bound` in a
    /// null-window search four plies shallower: `mv` is then the only good
    /// move (Scan's singular test, at PV nodes only: a few a search).
    pub(super) fn is_singular(
        &mut self,
        node: Node<'_, R>,
        mv: Move,
        must_capture: bool,
        bound: i32,
        depth: i32,
    ) -> bool {
        let Node { pos, ply, clocks } = node;
        let mut list = MoveList::new();
        if must_capture {
            generate_captures(pos, &mut list);
        } else {
            generate_quiet(pos, &mut list);
        }
        let new_depth = depth - 5;
        for &other in list.iter().filter(|&&m| m != mv) {
            self.buf.played[ply] = other;
            let (child, child_clocks) = self.child_of(pos, other, clocks, new_depth <= 0);
            let score = -self.search_child(
                Node {
                    pos: &child,
                    ply: ply + 1,
                    clocks: child_clocks,
                },
                new_depth,
                -bound - 1,
                -bound,
                NodeKind::Cut,
            );
            if score > bound || self.stopped {
                return false;
            }
        }
        true
    }
}

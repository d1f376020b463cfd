//! Searches a node makes besides those of its moves, to decide how to
//! search them: the singular test (whether only the table's move holds),
//! a technique a node tries only when it is switched on.

use super::node::{Node, NodeKind};
use super::Worker;
use crate::rules::movegen::{generate_captures, generate_quiet};
use crate::rules::{Move, MoveList, Rules};

impl<R: Rules> Worker<'_, R> {
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
                NodeKind::NonPv,
            );
            if score > bound || self.stopped {
                return false;
            }
        }
        true
    }
}

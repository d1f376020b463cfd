//! The tree search below the root: `negamax`, a principal-variation
//! search as a sequence of named steps, and the node frame it passes from
//! parent to child.
//!
//! The steps of a node, in order (`node_steps`): the endgame
//! tables → the horizon (quiescence) → the prologue every node shares →
//! the rules' verdicts (draws, mate-distance pruning, no move, rule draws)
//! → the table probe → pruning before the move loop (reverse futility;
//! the late-move pruning count) → the move loop (`moves`: the table's
//! quiet move, then the ordered moves, each child searched with late-move
//! reductions and re-searches) → the table store.

use std::ops::ControlFlow::{self, Break, Continue};

use super::table::{cutoff, table_key};
use super::{no_move_score, Worker};
use crate::rules::draw::DrawClocks;
use crate::rules::movegen::{has_capture, has_quiet_move, side_has_capture};
use crate::rules::{Goal, Position, Rules};
use crate::search::tt::MoveHint;
use crate::search::{MATE, MATE_BOUND, MAX_PLY};

/// Late-move pruning applies up to this depth (reverse futility up to the
/// technique `futility-depth`, with the margin `futility-margin` a ply).
pub(super) const LATE_MOVE_DEPTH: i32 = 4;

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

/// A node the rules left open, as the steps after them read it: the node,
/// its depth and window (narrowed by mate-distance pruning), where it
/// stands, and what its position says of its moves and draw clocks.
#[derive(Clone, Copy)]
pub(super) struct Frame<'p, R: Rules> {
    /// The node.
    pub(super) node: Node<'p, R>,
    /// The depth it is searched to (at least 1).
    pub(super) depth: i32,
    /// The window's lower end.
    pub(super) alpha: i32,
    /// The window's upper end.
    pub(super) beta: i32,
    /// On the principal variation or not.
    pub(super) kind: NodeKind,
    /// Whether the side to move must capture (it has a move either way).
    pub(super) must_capture: bool,
    /// Plies the draw clocks leave before a rule draw (`None`: no rule
    /// counts towards one); never 0.
    pub(super) plies_until_draw: Option<u32>,
}

/// What pruning may do at a node, decided before its table probe.
struct Pruning {
    /// The static score of a node that reverse futility may cut (`None`
    /// elsewhere).
    static_eval: Option<i32>,
    /// Moves the node searches before it prunes the rest (`usize::MAX`:
    /// all of them).
    late_move_limit: usize,
}

impl<R: Rules> Worker<'_, R> {
    /// Principal-variation search of `node` to `depth` within
    /// (`alpha`, `beta`), `kind` saying whether it is on the principal
    /// variation.
    pub(super) fn negamax(
        &mut self,
        node: Node<'_, R>,
        depth: i32,
        alpha: i32,
        beta: i32,
        kind: NodeKind,
    ) -> i32 {
        match self.node_steps(node, depth, alpha, beta, kind) {
            Break(score) | Continue(score) => score,
        }
    }

    /// The steps of [`negamax`](Self::negamax) in order; each that settles
    /// the node breaks off with its score.
    #[inline(always)]
    fn node_steps(
        &mut self,
        node: Node<'_, R>,
        depth: i32,
        alpha: i32,
        beta: i32,
        kind: NodeKind,
    ) -> ControlFlow<i32, i32> {
        let Node { pos, ply, .. } = node;
        self.endgame_tables(node)?;
        // The horizon: quiescence resolves captures and crowning moves.
        if depth <= 0 {
            return Break(self.quiesce(pos, alpha, beta, ply));
        }
        self.enter(pos, ply)?;
        let frame = self.rule_verdicts(node, depth, alpha, beta, kind)?;
        // A node that reverse futility may cut works out its static score
        // before the probe, while the bucket the parent asked for is on
        // its way.
        let pruning = self.plan_pruning(&frame);
        let (key, hint) = self.probe_table(&frame)?;
        self.reverse_futility(&frame, pruning.static_eval)?;
        let (best, best_move) = self.search_moves(&frame, hint, pruning.late_move_limit);
        if self.stopped {
            return Break(0);
        }
        let window = (frame.alpha, frame.beta);
        self.store(key, best, window, ply, depth, best_move);
        Continue(best)
    }

    /// The endgame tables, at any depth: the exact value of a position
    /// they hold.
    #[inline(always)]
    fn endgame_tables(&mut self, node: Node<'_, R>) -> ControlFlow<i32> {
        let Node { pos, ply, clocks } = node;
        if pos.occupied().count_ones() <= self.egdb_pieces {
            if let Some(score) = self.egdb_score(pos, ply, &clocks) {
                self.count_node();
                return Break(score);
            }
        }
        Continue(())
    }

    /// What the rules settle before any move is searched: draws by
    /// repetition (at the first recurrence) and by material that can only
    /// be drawn, a window that mate-distance pruning closes, the last ply a
    /// line may have, no move (a loss), and a rule draw now. A node they
    /// leave open comes back as its frame.
    #[inline(always)]
    fn rule_verdicts<'p>(
        &mut self,
        node: Node<'p, R>,
        depth: i32,
        alpha: i32,
        beta: i32,
        kind: NodeKind,
    ) -> ControlFlow<i32, Frame<'p, R>> {
        let Node { pos, ply, clocks } = node;
        if self.is_repetition(pos.key(), clocks.reversible_plies())
            || (pos.occupied().count_ones() <= 3 && self.shared.solved.is_draw(pos))
        {
            return Break(self.draw_score(pos));
        }
        let (alpha, beta) = mate_distance_window::<R>(alpha, beta, ply);
        if alpha >= beta {
            return Break(alpha);
        }
        if ply >= MAX_PLY - 1 {
            return Break(self.evaluate(pos, ply));
        }
        // Which moves exist follows from bitboard tests; they are only
        // listed once the move loop needs them. (These tests come before
        // the table probe, whose bucket the parent asked for: they run
        // while it is on its way.)
        let must_capture = has_capture(pos);
        if !must_capture && !has_quiet_move(pos) {
            return Break(no_move_score::<R>(ply));
        }
        // A win on the last allowed move is a win: the rules' draws (no
        // plies left on the draw clocks) come after the check for a lost
        // position.
        let plies_until_draw = clocks.plies_until_draw(&self.draw);
        if plies_until_draw == Some(0) {
            return Break(self.draw_score(pos));
        }
        Continue(Frame {
            node,
            depth,
            alpha,
            beta,
            kind,
            must_capture,
            plies_until_draw,
        })
    }

    /// Which pruning a node may use: only a calm one (off the principal
    /// variation, near the horizon, no capture pending for either side)
    /// prunes. Reverse futility needs its static score (not with a mate
    /// score for beta); late-move pruning counts its moves. `calm` is only
    /// worked out where a pruning step can use it.
    #[inline(always)]
    fn plan_pruning(&mut self, frame: &Frame<'_, R>) -> Pruning {
        let Frame { node, depth, .. } = *frame;
        let futility_depth = self.params.futility_depth as i32;
        let calm = frame.kind == NodeKind::NonPv
            && depth <= futility_depth.max(LATE_MOVE_DEPTH)
            && !frame.must_capture
            && !side_has_capture(node.pos, node.pos.side_to_move().opponent());
        if !calm {
            return Pruning {
                static_eval: None,
                late_move_limit: usize::MAX,
            };
        }
        let futile = depth <= futility_depth && frame.beta.abs() < MATE_BOUND;
        Pruning {
            static_eval: futile.then(|| self.evaluate(node.pos, node.ply)),
            late_move_limit: late_move_limit(depth, self.params.late_move_scale),
        }
    }

    /// The table probe: the node's key (salted by the draw clocks when a
    /// rule draw is near enough to change the result) and the table's
    /// move. A stored bound at no less depth that settles the window ends
    /// a node off the principal variation.
    #[inline(always)]
    fn probe_table(&self, frame: &Frame<'_, R>) -> ControlFlow<i32, (u64, MoveHint)> {
        let key = table_key(frame.node.pos, frame.plies_until_draw);
        let entry = self.shared.table.probe(key);
        if let Some(e) = entry {
            if frame.kind == NodeKind::NonPv && e.depth >= frame.depth {
                if let Some(score) = cutoff(e, frame.alpha, frame.beta, frame.node.ply) {
                    return Break(score);
                }
            }
        }
        Continue((key, entry.map(|e| e.hint).unwrap_or_default()))
    }

    /// Reverse futility: a calm node near the horizon whose static score
    /// is far above beta returns it.
    #[inline(always)]
    fn reverse_futility(&self, frame: &Frame<'_, R>, static_eval: Option<i32>) -> ControlFlow<i32> {
        let margin = self.params.futility_margin;
        match static_eval {
            Some(eval) if far_above_beta(eval, frame.beta, frame.depth, margin) => Break(eval),
            _ => Continue(()),
        }
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

/// The window (`alpha`, `beta`) of a node at `ply` narrowed to the scores
/// it can have: no loss sooner than now and no win sooner than the next
/// ply (in Losing a blocked side to move has won here, at this ply).
#[inline(always)]
fn mate_distance_window<R: Rules>(alpha: i32, beta: i32, ply: usize) -> (i32, i32) {
    let sooner_win = i32::from(R::GOAL != Goal::Losing);
    (
        alpha.max(-MATE + ply as i32),
        beta.min(MATE - ply as i32 - sooner_win),
    )
}

/// Whether the static score `eval` of a node of `depth` is far enough
/// above `beta` for reverse futility: by `margin` (hundredths of a man) a
/// ply; never with a margin of 0.
#[inline(always)]
fn far_above_beta(eval: i32, beta: i32, depth: i32, margin: u32) -> bool {
    let margin = margin as i32;
    margin > 0 && eval - margin * depth >= beta
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{International, Losing};
    use crate::search::INFINITY;

    #[test]
    fn mate_distance_pruning_keeps_the_scores_a_node_can_have() {
        // At ply 3 no side is mated sooner than now, nor mates sooner than
        // at ply 4; in Losing the side to move can have won at ply 3.
        let open = (-INFINITY, INFINITY);
        let normal = mate_distance_window::<International>(open.0, open.1, 3);
        assert_eq!(normal, (-MATE + 3, MATE - 4));
        let losing = mate_distance_window::<Losing>(open.0, open.1, 3);
        assert_eq!(losing, (-MATE + 3, MATE - 3));
        // A window of ordinary scores is left as it is.
        assert_eq!(mate_distance_window::<International>(-50, 80, 3), (-50, 80));
        // A window asking for a mate sooner than possible closes.
        let (alpha, beta) = mate_distance_window::<International>(MATE - 2, INFINITY, 3);
        assert!(alpha >= beta);
    }

    #[test]
    fn reverse_futility_needs_a_margin_a_ply_above_beta() {
        // 60 a ply: at depth 3 a score 180 above beta is enough, 179 not.
        assert!(far_above_beta(280, 100, 3, 60));
        assert!(!far_above_beta(279, 100, 3, 60));
        // A deeper node needs more.
        assert!(!far_above_beta(280, 100, 4, 60));
        // Margin 0 turns the technique off, however high the score.
        assert!(!far_above_beta(1000, 100, 1, 0));
    }

    #[test]
    fn late_move_pruning_counts_moves_by_depth_only_near_the_horizon() {
        assert_eq!(late_move_limit(1, 100), 4);
        assert_eq!(late_move_limit(4, 100), 19);
        assert_eq!(late_move_limit(4, 50), 11);
        assert_eq!(late_move_limit(4, 0), 3);
        assert_eq!(late_move_limit(LATE_MOVE_DEPTH + 1, 100), usize::MAX);
    }
}

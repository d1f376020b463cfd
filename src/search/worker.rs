//! One search thread: the worker's state and the helpers every node uses
//! (the prologue every node shares, node counting and the stop checks,
//! draw scores, repetitions, making a child).
//! The tree search's steps are in `node`, its move loop in `moves`,
//! iterative deepening and the root in `root`, quiescence in `quiesce`,
//! move ordering and history in `ordering`, static scores in `evaluate`,
//! what goes to and comes from the table in `table`, the per-ply buffers
//! and their pool of spares in `buffers`.

mod buffers;
mod evaluate;
mod moves;
mod node;
mod ordering;
mod quiesce;
mod root;
mod table;

use std::ops::ControlFlow::{self, Break, Continue};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::{SearchParams, SearchSetup, Shared, MATE, MAX_PLY};
use crate::egdb::Egdb;
use crate::eval::Evaluator;
use crate::rules::draw::{DrawClocks, DrawSettings};
use crate::rules::{Goal, Move, Position, Rules};
pub(super) use buffers::SparePool;
use buffers::{fill_reductions, Buffers};
use node::{Node, NodeKind};
use quiesce::QS_TABLE_KINGS;
use root::RootMove;
use table::{cutoff, table_key};

/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// The static scores a worker keeps: 2^15 of them, 256 KiB.
const EVAL_CACHE_BITS: u32 = 15;

pub(super) struct Worker<'a, R: Rules> {
    id: usize,
    shared: &'a Shared<'a>,
    root: Position<R>,
    /// Keys of every position before the current node, oldest first.
    keys: Vec<u64>,
    /// The per-ply buffers and the move-ordering tables.
    buf: Buffers,
    /// Where `buf` came from and goes back to.
    spares: Arc<SparePool>,
    root_moves: Vec<RootMove>,
    draw: DrawSettings,
    root_clocks: DrawClocks,
    contempt: i32,
    /// The search parameters this search uses.
    params: SearchParams,
    /// What the static scores come from.
    evaluator: Evaluator,
    /// Endgame databases, if loaded.
    egdb: Option<Arc<Egdb<R>>>,
    /// Pieces at or below which a node is looked up in `egdb` (0: none).
    egdb_pieces: u32,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
}

impl<'a, R: Rules> Worker<'a, R> {
    pub(super) fn new(id: usize, setup: &SearchSetup<R>, shared: &'a Shared<'a>) -> Self {
        let evaluator = &setup.resources.evaluator;
        let spares = Arc::clone(&setup.resources.spares);
        let mut buffers = spares.take(R::KIND, evaluator);
        if !buffers.holds_scores_of(R::KIND, evaluator) {
            buffers.eval_cache.fill(0);
            buffers.accumulators = evaluator.accumulators(MAX_PLY + 1);
            buffers.eval_cache_owner = Some((R::KIND, evaluator.clone()));
        }
        let lmr = (setup.params.lmr_base, setup.params.lmr_divisor);
        if buffers.reductions_for != Some(lmr) {
            fill_reductions(&mut buffers.reductions, lmr.0, lmr.1);
            buffers.reductions_for = Some(lmr);
        }
        Worker {
            id,
            shared,
            root: setup.root,
            keys: setup.history.clone(),
            buf: buffers,
            spares,
            root_moves: Vec::new(),
            draw: setup.draw.clone(),
            root_clocks: setup.clocks,
            contempt: setup.contempt,
            params: setup.params,
            evaluator: evaluator.clone(),
            egdb: setup.resources.egdb.clone(),
            egdb_pieces: setup.resources.egdb_pieces(),
            nodes: 0,
            seldepth: 0,
            stopped: false,
        }
    }

    /// The prologue every node of the search shares (`negamax` and
    /// quiescence): counts the node, ends it when the search is stopped,
    /// empties its line, extends the selective depth to it, and scores a
    /// side to move that has lost already.
    #[inline(always)]
    fn enter(&mut self, pos: &Position<R>, ply: usize) -> ControlFlow<i32> {
        self.count_node();
        if self.stopped {
            return Break(0);
        }
        self.buf.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if lost_already(pos) {
            return Break(-MATE + ply as i32);
        }
        Continue(())
    }

    /// Counts a node; every `CHECK_EVERY` nodes publishes the count and
    /// looks at the stop flag, the clock and the node limit.
    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.publish();
            let control = self.shared.control;
            if control.stopped() {
                self.stopped = true;
            } else if self.id == 0 {
                let out_of_time = !control.pondering()
                    && self
                        .shared
                        .hard
                        .is_some_and(|hard| control.elapsed() >= hard);
                let out_of_nodes = self
                    .shared
                    .node_limit
                    .is_some_and(|limit| self.shared.nodes() >= limit);
                if out_of_time || out_of_nodes {
                    self.stopped = true;
                    control.stop();
                }
            }
        }
    }

    fn publish(&self) {
        self.shared.counters[self.id]
            .0
            .store(self.nodes, Ordering::Relaxed);
    }

    /// The score of a drawn position for its side to move: minus the
    /// contempt for the side the search plays, plus it for the opponent.
    #[inline(always)]
    fn draw_score(&self, pos: &Position<R>) -> i32 {
        if pos.side_to_move() == self.root.side_to_move() {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// Whether the position with `key` occurred earlier with the same side to
    /// move, within the last `rev` reversible plies.
    #[inline(always)]
    fn is_repetition(&self, key: u64, rev: u32) -> bool {
        let len = self.keys.len();
        let mut back = 2;
        while back as u32 <= rev && back <= len {
            if self.keys[len - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }

    /// The position after `mv` with its draw clocks; its table bucket and
    /// the slot of its static score are prefetched, as their reads are
    /// near. A `leaf` child goes to quiescence, which reads no draw clocks
    /// (it gets `clocks` back unchanged) and probes the table only with
    /// many kings on the board.
    #[inline(always)]
    fn child_of(
        &self,
        pos: &Position<R>,
        mv: Move,
        clocks: DrawClocks,
        leaf: bool,
    ) -> (Position<R>, DrawClocks) {
        let child = pos.play(mv);
        self.prefetch_static_score(child.key());
        if leaf {
            if child.all_kings().count_ones() >= QS_TABLE_KINGS {
                self.shared.table.prefetch(child.key());
            }
            return (child, clocks);
        }
        let child_clocks = clocks.after(pos, mv, &child);
        self.shared
            .table
            .prefetch(table_key(&child, child_clocks.plies_until_draw(&self.draw)));
        (child, child_clocks)
    }
}

/// The score of a side to move with no legal move: lost, but won in Losing.
#[inline(always)]
fn no_move_score<R: Rules>(ply: usize) -> i32 {
    match R::GOAL {
        Goal::Losing => MATE - ply as i32,
        Goal::Normal | Goal::FirstKing => -MATE + ply as i32,
    }
}

/// The side to move has lost with no move to make: in Breakthrough the side
/// not to move has made a king; in Turkish the side to move is left with
/// one piece against a king (always false in the other variants).
#[inline(always)]
fn lost_already<R: Rules>(pos: &Position<R>) -> bool {
    (R::GOAL == Goal::FirstKing && pos.kings(pos.side_to_move().opponent()) != 0)
        || pos.lone_piece_loser() == Some(pos.side_to_move())
}

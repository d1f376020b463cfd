//! One search thread: iterative deepening, the PVS tree search, quiescence
//! and move ordering.
//!
//! Node steps (numbered in `negamax`): horizon → draws → mate-distance
//! pruning → whether any move exists (none = loss), rule draws → table
//! probe → reverse futility → the table's quiet move, then the listed moves
//! (a forced reply costs no depth) in an ordered PVS loop with late-move
//! reductions (a move another thread is searching comes last) → table store.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use once_cell::sync::Lazy;

use super::tt::{Bound, MoveHint};
use super::{Iteration, SearchResult, SearchSetup, Shared, INFINITY, MATE, MATE_BOUND, MAX_PLY};
use crate::eval::{evaluate_learned, Patterns};
use crate::rules::draw::{certain_draw, DrawClocks, DrawSettings};
use crate::rules::movegen::{
    count_moves, generate, generate_captures, generate_quiet, has_capture, legal_quiet_move,
    side_has_capture,
};
use crate::rules::{Goal, Move, MoveList, Position, Rules};

/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// Half-width of the first aspiration window, in hundredths of a man.
/// 15 instead of 25 scored 53.0% over 400 games at 0.1 s a move (+70 =284
/// -46); 10 instead of 15 51.25% (+65 =280 -55).
const ASPIRATION: i32 = 10;
/// A fall of the score between iterations (hundredths of a man) that earns
/// the move more time.
const SCORE_DROP: i32 = 30;
/// Late-move reduction = LMR_BASE + ln(depth) ln(move index) / LMR_DIVISOR.
/// A divisor of 1.5 instead of 2.0 scored 51.9% over 400 games at 0.1 s a
/// move and reaches depth 18 from the start with 40% of the nodes (1.7:
/// 49.9%; reducing more for moves with a bad history: 48%).
const LMR_BASE: f64 = 0.75;
const LMR_DIVISOR: f64 = 1.5;
/// Reverse futility pruning: depth limit and margin per ply.
const FUTILITY_DEPTH: i32 = 5;
const FUTILITY_MARGIN: i32 = 60;
/// Late-move pruning applies up to this depth.
const LATE_MOVE_DEPTH: i32 = 4;
/// Nodes at least this deep mark their children as being searched and put
/// off a child another thread is searching (two threads against one, time
/// to bench depth 16, median of six interleaved runs: 0.60 from depth 5,
/// 0.61 from 6, 0.62 from 4, 0.63 from 8, 0.68 without deferral).
const DEFER_DEPTH: i32 = 5;
// Late-move pruning stops a move loop, which must hold no deferred move.
const _: () = assert!(DEFER_DEPTH > LATE_MOVE_DEPTH);
/// Quiescence uses the table only with at least this many kings on the board.
const QS_TABLE_KINGS: u32 = 4;
/// Multiplier that separates table keys of quiescence nodes by threat budget.
const THREAT_SALT: u64 = 0xD6E8_FEB8_6659_FD93;

/// Ordering keys: table move, captures, killers, then history.
const ORDER_HINT: i32 = 1 << 30;
const ORDER_CAPTURE: i32 = 1 << 24;
const ORDER_KILLER: [i32; 2] = [1 << 22, (1 << 22) - 1];
const HISTORY_MAX: i32 = 1 << 20;

/// A root move with its latest score and line.
struct RootMove {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
}

pub(super) struct Worker<'a, R: Rules> {
    id: usize,
    shared: &'a Shared<'a>,
    root: Position<R>,
    /// Keys of every position before the current node, oldest first.
    keys: Vec<u64>,
    lists: Vec<MoveList>,
    order: Vec<Vec<i32>>,
    /// Moves put off at each ply (index in the ordered list, move).
    deferred: Vec<Vec<(usize, Move)>>,
    pv: Vec<Vec<Move>>,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    root_moves: Vec<RootMove>,
    draw: DrawSettings,
    root_clocks: DrawClocks,
    contempt: i32,
    threat_plies: u32,
    /// Late-move reductions by [depth][move index].
    reductions: &'static [[i32; 64]; 64],
    /// The learned part of the evaluation.
    patterns: Arc<Patterns>,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
}

impl<'a, R: Rules> Worker<'a, R> {
    pub(super) fn new(id: usize, setup: &SearchSetup<R>, shared: &'a Shared<'a>) -> Self {
        Worker {
            id,
            shared,
            root: setup.root,
            keys: setup.history.clone(),
            lists: (0..MAX_PLY + 1).map(|_| MoveList::new()).collect(),
            order: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            deferred: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            killers: vec![[Move::default(); 2]; MAX_PLY + 1],
            history: vec![0; 64 * 64],
            root_moves: Vec::new(),
            draw: setup.draw.clone(),
            root_clocks: setup.clocks,
            contempt: setup.contempt,
            threat_plies: setup.threat_plies,
            reductions: &REDUCTIONS,
            patterns: Arc::clone(&setup.patterns),
            nodes: 0,
            seldepth: 0,
            stopped: false,
        }
    }

    /// Iterative deepening; the first worker reports and keeps time.
    pub(super) fn iterate(
        &mut self,
        setup: &SearchSetup<R>,
        soft: Option<Duration>,
        report: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let root = self.root;
        let moves = root.legal_moves();
        self.root_moves = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITY,
                pv: vec![mv],
            })
            .collect();
        let mut result = SearchResult {
            best: self.root_moves.first().map(|r| r.mv),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if self.root_moves.is_empty() {
            result.score = no_move_score::<R>(0);
            return result;
        }
        if self.root_moves.len() == 1 && !setup.search_single_move && self.id == 0 {
            result.ponder = self.ponder_after(self.root_moves[0].mv);
            self.hold(setup);
            return result;
        }
        let max_depth = setup
            .limits
            .depth
            .map_or(MAX_PLY as u32 - 8, |d| d.clamp(1, MAX_PLY as u32 - 8));
        let lines = setup.multipv.clamp(1, self.root_moves.len());
        let mut score = 0;
        let mut scale = 1.0f64;
        let mut previous_score: Option<i32> = None;
        let mut depth = 0;
        while depth < max_depth {
            depth = self.next_depth(depth, max_depth);
            let previous_best = self.root_moves[0].mv;
            for line in 0..lines {
                let s = self.aspiration(depth as i32, line, score);
                if self.stopped {
                    break;
                }
                if line == 0 {
                    score = s;
                }
                if self.id == 0 {
                    self.publish();
                    let rm = &self.root_moves[line];
                    report(&Iteration {
                        depth,
                        seldepth: self.seldepth as u32,
                        score: rm.score,
                        nodes: self.shared.nodes(),
                        time: self.shared.control.searching_for(),
                        pv: rm.pv.clone(),
                        hashfull: self.shared.table.hashfull(),
                        multipv: line + 1,
                    });
                }
            }
            // A stopped iteration still counts when its best move was fully
            // searched (the first root move always is, or a better one).
            if !self.stopped || self.root_moves[0].score > -INFINITY {
                result.best = Some(self.root_moves[0].mv);
                result.score = self.root_moves[0].score;
                result.ponder = self.root_moves[0].pv.get(1).copied();
                if !self.stopped {
                    result.depth = depth;
                }
            }
            if self.id != 0 && !self.stopped {
                self.shared.offer(&result);
                // The first thread to complete the depth limit ends the
                // search (never while the answer must be held back).
                if depth == max_depth && !self.shared.control.pondering() && !setup.limits.infinite
                {
                    self.shared.control.stop();
                }
            }
            if self.stopped || self.id != 0 {
                if self.stopped || self.shared.control.stopped() {
                    break;
                }
                continue;
            }
            // More time when the best move changes or the score drops, less
            // while the search is settled.
            if self.root_moves[0].mv != previous_best
                || previous_score.is_some_and(|p| score < p - SCORE_DROP)
            {
                scale = (scale * 1.6).min(3.0);
            } else {
                scale = (scale * 0.85).max(0.6);
            }
            previous_score = Some(score);
            if let Some(soft) = soft {
                if !self.shared.control.pondering()
                    && self.shared.control.elapsed().as_secs_f64()
                        > soft.as_secs_f64() * scale * 0.55
                {
                    break;
                }
            }
            if score.abs() > MATE_BOUND
                && !setup.limits.infinite
                && (MATE - score.abs()) as u32 + 2 < depth
            {
                break;
            }
        }
        if self.id == 0 {
            self.hold(setup);
        }
        self.publish();
        result
    }

    /// The depth of the next iteration after `done`. The main worker goes
    /// one ply at a time and says where it is; a helper with an odd id keeps
    /// one ply ahead of it, so that the two do not search the same depth
    /// (two threads against one, time to bench depth 13: 0.70 instead of
    /// 0.81, mean of three alternating runs); other helpers go with the main
    /// worker and fill the table for it.
    fn next_depth(&self, done: u32, max_depth: u32) -> u32 {
        let main = &self.shared.main_depth;
        if self.id == 0 {
            main.store(done + 1, Ordering::Relaxed);
            return done + 1;
        }
        let ahead = (self.id % 2) as u32;
        (done + 1).max((main.load(Ordering::Relaxed) + ahead).min(max_depth))
    }

    /// Never answer before the clock runs (ponder) or before a stop
    /// (infinite analysis).
    fn hold(&self, setup: &SearchSetup<R>) {
        while !self.shared.control.stopped()
            && (self.shared.control.pondering() || setup.limits.infinite)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// The expected reply after `mv`, from the table.
    fn ponder_after(&self, mv: Move) -> Option<Move> {
        let next = self.root.play(mv);
        let hint = self.shared.table.probe(next.key())?.hint;
        next.legal_moves()
            .iter()
            .copied()
            .find(|&m| hint.matches(m))
    }

    /// Searches one root line with a window around the previous score,
    /// widening it on failure.
    fn aspiration(&mut self, depth: i32, line: usize, guess: i32) -> i32 {
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = if depth >= 4 && guess.abs() < MATE_BOUND {
            (guess - delta, guess + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.root_search(depth, alpha, beta, line);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INFINITY {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (beta + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 3;
        }
    }

    /// The root: moves before `line` are already reported lines and are
    /// skipped; a move that raises alpha moves to the front of the rest.
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, line: usize) -> i32 {
        let root = self.root;
        let mut best = -INFINITY;
        self.keys.push(root.key());
        for i in line..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let child = root.play(mv);
            let clocks = self.root_clocks.after(&root, mv, &child);
            let mut score;
            if i == line {
                score = -self.negamax(&child, depth - 1, -beta, -alpha, 1, clocks, true);
            } else {
                score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, clocks, false);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, 1, clocks, true);
                }
            }
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
            }
            if score > alpha || i == line {
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
                self.root_moves[line..=i].rotate_right(1);
                if score > alpha {
                    alpha = score;
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        self.keys.pop();
        best
    }

    /// The static evaluation of `pos` from the side to move's view.
    #[inline(always)]
    fn evaluate(&self, pos: &Position<R>) -> i32 {
        evaluate_learned(pos, &self.patterns)
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

    /// The position after `mv` with its draw clocks; its table bucket is
    /// prefetched, as its probe is near. A `leaf` child goes to quiescence,
    /// which reads no draw clocks (it gets `clocks` back unchanged) and
    /// probes the table only with many kings on the board.
    #[inline(always)]
    fn child_of(
        &self,
        pos: &Position<R>,
        mv: Move,
        clocks: DrawClocks,
        leaf: bool,
    ) -> (Position<R>, DrawClocks) {
        let child = pos.play(mv);
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

    /// Principal-variation search; `clocks` are the draw-rule clocks of `pos`.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position<R>,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        clocks: DrawClocks,
        pv_node: bool,
    ) -> i32 {
        // 1. Horizon: resolve captures and threats.
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply, self.threat_plies);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if first_king_made(pos) {
            return -MATE + ply as i32;
        }
        // 2. Draws by repetition (at the first recurrence) and by material
        // that can only be drawn.
        if self.is_repetition(pos.key(), clocks.reversible_plies())
            || (pos.occupied().count_ones() <= 3 && certain_draw(pos))
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
            return self.evaluate(pos);
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
        // draw rule is near enough to change the result.
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
        // (not when a capture is pending for either side). `calm` is only
        // worked out where a pruning step can use it: non-PV nodes near the
        // horizon.
        let calm = !pv_node
            && depth <= FUTILITY_DEPTH.max(LATE_MOVE_DEPTH)
            && !must_capture
            && !side_has_capture(pos, pos.side_to_move().opponent());
        if calm && depth <= FUTILITY_DEPTH && beta.abs() < MATE_BOUND {
            let eval = self.evaluate(pos);
            if eval - FUTILITY_MARGIN * depth >= beta {
                return eval;
            }
        }
        // 6. The table's move, when it is a legal quiet move, is searched
        // before the others are listed: when it cuts, they never are.
        let mut list = std::mem::take(&mut self.lists[ply]);
        let mut order = std::mem::take(&mut self.order[ply]);
        let early = hint
            .quiet_ends()
            .filter(|_| !must_capture)
            .and_then(|(from, to)| legal_quiet_move(pos, from, to));
        let mut n = 0;
        if early.is_none() {
            n = self.list_moves(pos, must_capture, &mut list, &mut order, hint, ply);
        }
        // A forced reply costs no depth.
        let forced = match early {
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
            Some(_) => std::mem::take(&mut self.deferred[ply]),
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
                if calm && i >= late_move_limit(depth) && best > -MATE_BOUND {
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
                if depth >= 2 && i + 1 < n && !(calm && i + 1 >= late_move_limit(depth)) {
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
            let mut score;
            if i == 0 {
                score = -self.search_child(
                    &child,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    child_clocks,
                    pv_node,
                );
            } else {
                let reduction = if depth >= 3
                    && quiet
                    && extension == 0
                    && i >= if pv_node { 4 } else { 2 }
                    && !self.killers[ply].contains(&mv)
                {
                    let r = self.reductions[(depth as usize).min(63)][i.min(63)];
                    (r - pv_node as i32).clamp(1, new_depth - 1)
                } else {
                    0
                };
                score = -self.search_child(
                    &child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    child_clocks,
                    false,
                );
                if score > alpha && reduction > 0 && !self.stopped {
                    score = -self.search_child(
                        &child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        child_clocks,
                        false,
                    );
                }
                if score > alpha && score < beta && pv_node && !self.stopped {
                    score = -self.search_child(
                        &child,
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        child_clocks,
                        true,
                    );
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
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
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
        self.lists[ply] = list;
        self.order[ply] = order;
        if busy.is_some() {
            self.deferred[ply] = deferred;
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
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_child(
        &mut self,
        child: &Position<R>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        clocks: DrawClocks,
        pv_node: bool,
    ) -> i32 {
        if depth <= 0 {
            self.quiesce(child, alpha, beta, ply, self.threat_plies)
        } else {
            self.negamax(child, depth, alpha, beta, ply, clocks, pv_node)
        }
    }

    /// Quiescence: a side that must capture captures (no standing pat);
    /// otherwise the static score stands, unless the opponent threatens a
    /// capture, in which case every move is tried once more (`threat` plies),
    /// or a man can crown at once, in which case crowning is tried against
    /// standing pat.
    fn quiesce(
        &mut self,
        pos: &Position<R>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        threat: u32,
    ) -> i32 {
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if first_king_made(pos) {
            return -MATE + ply as i32;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos);
        }
        // Capture sequences of many kings branch widely and transpose often:
        // there the table answers repeated positions. The threat budget
        // changes the result, so it is part of the key (with the full budget
        // the key is the position's own, shared with the main search). With
        // few kings the table cost more than it saved: a 37-game match at
        // 0.1 s a move scored 39% for the version that always used it.
        let use_table = pos.all_kings().count_ones() >= QS_TABLE_KINGS;
        let key = if use_table {
            pos.key() ^ ((self.threat_plies - threat) as u64).wrapping_mul(THREAT_SALT)
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
            let stand = self.evaluate(pos);
            let crowning = crowning_squares(pos);
            if stand >= beta || crowning == 0 || R::GOAL != Goal::Normal {
                return stand;
            }
            return self.try_crowning(pos, stand, crowning, alpha, beta, ply, threat);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        if must_capture {
            generate_captures(pos, &mut list);
        } else {
            // Threatened: every move is tried once more.
            generate(pos, &mut list);
            if list.is_empty() {
                self.lists[ply] = list;
                return no_move_score::<R>(ply);
            }
            let stand = self.evaluate(pos);
            if stand >= beta + 200 {
                self.lists[ply] = list;
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
            let score = -self.quiesce(&pos.play(mv), -beta, -alpha, ply + 1, next_threat);
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
        self.lists[ply] = list;
        if use_table && !self.stopped {
            self.store(key, best, (alpha_start, beta), ply, 0, best_move);
        }
        best
    }

    /// Quiescence of a quiet position where a man can crown at once
    /// (`crowning`: the squares): a man that crowns can change the balance
    /// more than the evaluation's advancement terms say, so each crowning
    /// move is tried against standing pat (`stand`).
    #[allow(clippy::too_many_arguments)]
    fn try_crowning(
        &mut self,
        pos: &Position<R>,
        stand: i32,
        crowning: u64,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        threat: u32,
    ) -> i32 {
        let mut list = std::mem::take(&mut self.lists[ply]);
        generate(pos, &mut list);
        let men = pos.men(pos.side_to_move());
        let mut best = stand;
        alpha = alpha.max(stand);
        for i in 0..list.len() {
            let mv = list.as_slice()[i];
            if men & mv.from().mask() == 0 || crowning & mv.to().mask() == 0 {
                continue;
            }
            let child = pos.play(mv);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, threat.saturating_sub(1));
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
        self.lists[ply] = list;
        best
    }

    /// Stores a node's result: its bound follows from the window it was
    /// searched with.
    fn store(
        &self,
        key: u64,
        best: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        depth: i32,
        best_move: Option<Move>,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let hint = best_move.map(MoveHint::of).unwrap_or_default();
        self.shared
            .table
            .store(key, to_table(best, ply), depth, bound, hint);
    }

    /// Lists the moves of `pos` (its captures when it must capture) with
    /// their ordering keys (the table's move first, then captures by the
    /// kings they take, or killers, then history); returns how many there
    /// are.
    fn list_moves(
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
            let killers = self.killers[ply].map(history_index);
            order.extend(list.iter().map(|&mv| {
                let index = history_index(mv);
                if hint.matches(mv) {
                    ORDER_HINT
                } else if index == killers[0] {
                    ORDER_KILLER[0]
                } else if index == killers[1] {
                    ORDER_KILLER[1]
                } else {
                    self.history[index]
                }
            }));
        }
        list.len()
    }

    /// A quiet move caused a cut: remember it as a killer and in the history;
    /// the quiet moves tried before it lose a little.
    fn reward(&mut self, mv: Move, ply: usize, depth: i32, tried: &[Move]) {
        let killers = &mut self.killers[ply];
        if killers[0] != mv {
            killers[1] = killers[0];
            killers[0] = mv;
        }
        let bonus = depth * depth;
        let slot = &mut self.history[history_index(mv)];
        *slot += bonus;
        if *slot > HISTORY_MAX {
            for h in &mut self.history {
                *h /= 2;
            }
        }
        for &other in tried {
            if !other.is_capture() {
                let h = &mut self.history[history_index(other)];
                *h = (*h - bonus / 2).max(-HISTORY_MAX);
            }
        }
    }
}

/// Plies to a rule draw within which the draw clocks enter the table key.
const CLOCK_HORIZON: u32 = 64;

/// The table key of `pos` whose draw clocks leave `plies_until_draw`: the
/// position's own key, salted with a value that differs for every distance
/// to a rule draw near enough to change the result.
#[inline(always)]
fn table_key<R: Rules>(pos: &Position<R>, plies_until_draw: Option<u32>) -> u64 {
    let salt = match plies_until_draw {
        Some(n) if n <= CLOCK_HORIZON => (n as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        _ => 0,
    };
    pos.key() ^ salt
}

/// Moves searched at a calm non-PV node of this depth before the rest are
/// pruned.
#[inline(always)]
fn late_move_limit(depth: i32) -> usize {
    if depth <= LATE_MOVE_DEPTH {
        (3 + depth * depth) as usize
    } else {
        usize::MAX
    }
}

/// Late-move reductions by [depth][move index], worked out once for every
/// search: they grow with the logarithms of the depth and of the move's
/// place in the ordering.
static REDUCTIONS: Lazy<[[i32; 64]; 64]> = Lazy::new(|| {
    let mut table = [[0i32; 64]; 64];
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            let d = (depth as f64).ln();
            let m = (i as f64).ln();
            *r = (LMR_BASE + d * m / LMR_DIVISOR) as i32;
        }
    }
    table
});

/// The score of a side to move with no legal move: lost, but won in Losing.
#[inline(always)]
fn no_move_score<R: Rules>(ply: usize) -> i32 {
    match R::GOAL {
        Goal::Losing => MATE - ply as i32,
        Goal::Normal | Goal::FirstKing => -MATE + ply as i32,
    }
}

/// Breakthrough: the side not to move has made a king, so the side to move
/// has lost (always false in the other variants).
#[inline(always)]
fn first_king_made<R: Rules>(pos: &Position<R>) -> bool {
    R::GOAL == Goal::FirstKing && pos.kings(pos.side_to_move().opponent()) != 0
}

/// Whether the side to move has any quiet move (called when it has no capture).
#[inline(always)]
fn has_quiet_move<R: Rules>(pos: &Position<R>) -> bool {
    if man_steps(pos) != 0 {
        return true;
    }
    use crate::rules::Geometry;
    let empty = pos.empty_squares();
    let kings = pos.kings(pos.side_to_move());
    crate::rules::Dir::ALL
        .iter()
        .any(|&d| R::Geometry::step(kings, d) & empty != 0)
}

/// The squares of the promotion row that a man of the side to move can
/// step onto now.
#[inline(always)]
fn crowning_squares<R: Rules>(pos: &Position<R>) -> u64 {
    man_steps(pos) & Position::<R>::promotion_row(pos.side_to_move())
}

/// The empty squares a man of the side to move can step onto.
#[inline(always)]
fn man_steps<R: Rules>(pos: &Position<R>) -> u64 {
    use crate::rules::Geometry;
    let side = pos.side_to_move();
    let [a, b] = side.forward();
    let men = pos.men(side);
    (R::Geometry::step(men, a) | R::Geometry::step(men, b)) & pos.empty_squares()
}

#[inline(always)]
fn history_index(mv: Move) -> usize {
    mv.from().index() * 64 + mv.to().index()
}

/// Selection step: moves the best-ordered remaining move to `i` and returns it.
#[inline(always)]
fn pick(moves: &mut [Move], order: &mut [i32], i: usize) -> Move {
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

/// The score of a table entry when its bound settles the node for the
/// window `alpha..beta`.
#[inline(always)]
fn cutoff(entry: super::tt::Entry, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    let score = from_table(entry.score, ply);
    let settles = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    settles.then_some(score)
}

/// A score as stored: mate scores counted from this node, not the root.
#[inline(always)]
fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score read back at `ply`.
#[inline(always)]
fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_through_the_table() {
        for ply in [0usize, 1, 7, 60] {
            for score in [MATE - 10 - ply as i32, -MATE + 12 + ply as i32, 0, 150, -3] {
                assert_eq!(from_table(to_table(score, ply), ply), score);
            }
        }
        // A win in 3 found at ply 5 is a win in 8 from the root, and a win
        // in 3 from a node found at ply 2 later.
        let stored = to_table(MATE - 8, 5);
        assert_eq!(stored, MATE - 3);
        assert_eq!(from_table(stored, 2), MATE - 5);
    }
}

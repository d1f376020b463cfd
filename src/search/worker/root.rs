//! Iterative deepening and the root: the iteration loop with its time
//! management, the depths of helper threads, aspiration windows and the
//! root move list.

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::{no_move_score, Node, NodeKind, Worker};
use crate::rules::{Move, Rules};
use crate::search::{Iteration, SearchResult, SearchSetup, INFINITY, MATE, MATE_BOUND, MAX_PLY};

/// A fall of the score between iterations (hundredths of a man) that earns
/// the move more time.
const SCORE_DROP: i32 = 30;

/// A root move with its latest score and line.
pub(super) struct RootMove {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
}

impl<R: Rules> Worker<'_, R> {
    /// Iterative deepening; the first worker reports and keeps time.
    pub(in crate::search) fn iterate(
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
        // A root the endgame tables solve: every root move leads to a
        // position they value exactly, so one iteration is the answer and
        // deeper ones only repeat it (a hundred identical reports).
        let solved = root.occupied().count_ones() <= self.egdb_pieces
            && self
                .egdb
                .as_ref()
                .is_some_and(|db| db.probe(&root).is_some());
        let mut score = 0;
        let mut scale = 1.0f64;
        let mut previous_score: Option<i32> = None;
        let mut depth = 0;
        while depth < max_depth {
            depth = self.next_depth(depth, max_depth);
            let previous_best = self.root_moves[0].mv;
            let mut completed = 0;
            for line in 0..lines {
                self.aspiration(depth as i32, line, score);
                if self.stopped {
                    break;
                }
                // A later line can score above an earlier one (each is
                // searched with its own window and table state): the lines
                // completed so far stay in the order of their scores.
                self.root_moves[..=line].sort_by_key(|r| std::cmp::Reverse(r.score));
                completed = line + 1;
            }
            if completed > 0 {
                score = self.root_moves[0].score;
            }
            if self.id == 0 {
                self.report_lines(depth, completed, report);
            }
            // A stopped iteration still counts when its best move was fully
            // searched (the first root move always is, or a better one).
            if !self.stopped || self.root_moves[0].score > -INFINITY {
                result.best = Some(self.root_moves[0].mv);
                result.score = self.root_moves[0].score;
                let reply = self.root_moves[0].pv.get(1).copied();
                result.ponder = reply.or_else(|| self.ponder_after(self.root_moves[0].mv));
                if !self.stopped {
                    result.depth = depth;
                }
            }
            if solved && !self.stopped {
                if self.id != 0 {
                    self.shared.offer(&result);
                }
                break;
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
            // The soft limit counts the time spent pondering on the move
            // that was played: the search is that much deeper already. The
            // hard limit runs from the ponder-hit, when the clock started.
            if soft.is_some_and(|soft| self.past_soft_limit(soft, scale)) {
                break;
            }
            // A proven win or loss ends the search early, but a fixed move
            // time is used to the end: it cannot be saved for later moves.
            if score.abs() > MATE_BOUND
                && !setup.limits.infinite
                && setup.limits.move_time.is_none()
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

    /// Reports the first `completed` lines of the iteration of `depth`,
    /// best first (the main worker reports for all).
    fn report_lines(&self, depth: u32, completed: usize, report: &mut dyn FnMut(&Iteration)) {
        self.publish();
        for (line, rm) in self.root_moves[..completed].iter().enumerate() {
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

    /// Whether the search has spent the part of the `soft` limit that
    /// starts no new iteration, `scale` times it as the search is settled
    /// or not (never while pondering).
    fn past_soft_limit(&self, soft: Duration, scale: f64) -> bool {
        let control = self.shared.control;
        !control.pondering()
            && control.searching_for().as_secs_f64() > soft.as_secs_f64() * scale * 0.55
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

    /// The expected reply after `mv`: the table's move there, else the
    /// first legal reply (a search too short to see past `mv` still names
    /// one for the opponent's time); none when the game ends with `mv`.
    fn ponder_after(&self, mv: Move) -> Option<Move> {
        let next = self.root.play(mv);
        let replies = next.legal_moves();
        let hint = self.shared.table.probe(next.key()).map(|e| e.hint);
        hint.and_then(|h| replies.iter().copied().find(|&m| h.matches(m)))
            .or_else(|| replies.as_slice().first().copied())
    }

    /// Searches one root line with a window around the previous score,
    /// widening it on failure; the line's move and score end at `line` of
    /// the root moves.
    fn aspiration(&mut self, depth: i32, line: usize, guess: i32) {
        let mut delta = self.params.aspiration as i32;
        let (mut alpha, mut beta) = if delta > 0 && depth >= 4 && guess.abs() < MATE_BOUND {
            (guess - delta, guess + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let score = self.root_search(depth, alpha, beta, line);
            if self.stopped {
                return;
            }
            if score <= alpha && alpha > -INFINITY {
                alpha = (alpha - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (beta + delta).min(INFINITY);
            } else {
                return;
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
            let node = Node {
                pos: &child,
                ply: 1,
                clocks,
            };
            let mut score;
            if i == line {
                score = -self.negamax(node, depth - 1, -beta, -alpha, NodeKind::Pv);
            } else {
                score = -self.negamax(node, depth - 1, -alpha - 1, -alpha, NodeKind::NonPv);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(node, depth - 1, -beta, -alpha, NodeKind::Pv);
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
                rm.pv.extend_from_slice(&self.buf.pv[1]);
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
}

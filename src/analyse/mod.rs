//! Analysis by script: the search run over a list of positions, or over
//! every position of recorded games with a check of each played move.
//!
//! Inputs are read and checked first (`input`): a malformed line or game is
//! reported there and never reaches the searcher. Every position is then
//! searched with the same limits, one after the other, on one transposition
//! table kept for the whole run (the positions of a game share much of their
//! trees); each search gets fresh `Control` signals. A position is searched
//! with its game's history keys and draw clocks, so repetitions and the draw
//! rules are seen as in play, and even a single legal move is searched.
//! What the analysis finds comes out as `Event`s: each position's start,
//! every depth its search completes (so that people can watch it deepen),
//! and its finished `Record`.
//!
//! The score of a played move, from which its loss follows:
//! 1. the played move is the best move: its score is the best score;
//! 2. it is one of the multi-PV lines: that line's score (same search);
//! 3. otherwise the position after it is searched with the same limits, one
//!    ply shallower under a depth limit (so the move is seen to the same
//!    horizon as the best one), and its score negated; a position after the
//!    move that is drawn by rule scores 0.
//!
//! The loss is the best score minus the played move's score on the output
//! scale (`centimen`), never below 0: a move searched on its own can look
//! better than the best one by search noise.
//!
//! Invariants of a `Record`: `lines` are ordered best first, start with
//! distinct moves, and `lines[0]` is the best line (`pv`, `score`); `lines`
//! and `pv` are empty only when the side to move has no legal move; a
//! `Played` loss is never negative.

pub mod annotate;
pub mod input;
pub mod output;
pub mod report;
pub mod tactics;

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::engine::Score;
use crate::game::{Game, Games};
use crate::rules::notation::{format_move, to_fen};
use crate::rules::{Erased, Move, MoveStyle, Rules, Side, VariantKind};
use crate::search::resources::{ResourceError, ResourceSettings};
use crate::search::tt::Table;
use crate::search::{
    search, solved_draws, Control, Iteration, Limits, SearchResources, SearchSetup, MATE_BOUND,
};

/// A game (or a single position: a game of no moves) of any variant, its
/// `Rules` type erased until [`AnyGame::get`] asks for it back.
#[derive(Clone)]
pub struct AnyGame {
    positions: usize,
    game: Erased<Games>,
}

impl AnyGame {
    /// Erases the variant of `game`.
    pub fn new<R: Rules>(game: Game<R>) -> AnyGame {
        AnyGame {
            positions: game.moves().len() + 1,
            game: Erased::new::<R>(game),
        }
    }

    /// The variant of the game.
    pub fn variant(&self) -> VariantKind {
        self.game.variant()
    }

    /// How many positions the game has: one more than its moves.
    pub fn positions(&self) -> usize {
        self.positions
    }

    /// The game, if it is of variant `R`.
    pub fn get<R: Rules>(&self) -> Option<&Game<R>> {
        self.game.get::<R>()
    }
}

impl std::fmt::Debug for AnyGame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "AnyGame({}, {} positions)",
            self.variant(),
            self.positions
        )
    }
}

/// Where an input comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// The `--fen` argument.
    Argument,
    /// A line of a positions file (1-based).
    Line(usize),
    /// A game of a PDN file: its 1-based index among the file's games (bad
    /// ones counted) and the line where it starts.
    Game {
        /// 1-based index of the game in the file.
        index: usize,
        /// 1-based line where the game starts.
        line: usize,
    },
}

/// One input: a position, or a game whose every position is analysed.
#[derive(Clone, Debug)]
pub struct Unit {
    /// Where it comes from.
    pub source: Source,
    /// The position (a game of no moves) or the game.
    pub game: AnyGame,
    /// The tags of a PDN game, in the file's order (none for a position).
    pub tags: Vec<(String, String)>,
}

/// One line of analysis: a root move, its score and its principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Search score from the side to move's view (centimen or mate score).
    pub score: i32,
    /// The variation in Hub notation, the root move first.
    pub pv: Vec<String>,
}

/// The move played in a game position, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The move in Hub notation.
    pub mv: String,
    /// Its search score from the mover's view.
    pub score: i32,
    /// How much worse it is than the best move, in centimen (≥ 0).
    pub loss: i64,
}

/// The analysis of one position.
#[derive(Clone, Debug)]
pub struct Record {
    /// The variant.
    pub variant: VariantKind,
    /// Where the position comes from.
    pub source: Source,
    /// For a game, the moves played before this position.
    pub ply: usize,
    /// The position as a FEN.
    pub fen: String,
    /// The side to move.
    pub side: Side,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Score of the best line from the side to move's view.
    pub score: i32,
    /// The best line, best move first (empty when no move is legal).
    pub pv: Vec<String>,
    /// Nodes searched for this position (the played move's search included).
    pub nodes: u64,
    /// Time spent on this position.
    pub time: Duration,
    /// The lines of multi-PV, best first; one line without multi-PV.
    pub lines: Vec<Line>,
    /// For a game position, the move played there.
    pub played: Option<Played>,
}

impl Record {
    /// The best move, if any move is legal.
    pub fn best(&self) -> Option<&str> {
        self.pv.first().map(String::as_str)
    }
}

/// A search score on the output scale, hundredths of a man: a forced win in
/// `n` plies is `100000 - n`, a loss `-(100000 - n)` (the Hub convention of
/// ±(1000 − plies/100) men), so that every score can be compared.
pub fn centimen(score: i32) -> i64 {
    match Score::from_search(score) {
        Score::Centimen(c) => i64::from(c),
        Score::WinIn(p) => 100_000 - i64::from(p),
        Score::LossIn(p) => -(100_000 - i64::from(p)),
    }
}

/// Plies to the end of a forced win (positive) or loss (negative, 0 when the
/// side to move has lost already), `None` for a heuristic score.
pub fn mate_plies(score: i32) -> Option<i64> {
    match Score::from_search(score) {
        Score::Centimen(_) => None,
        Score::WinIn(p) => Some(i64::from(p)),
        Score::LossIn(p) => Some(-i64::from(p)),
    }
}

/// A completed depth of the search of a position, reported while the
/// search deepens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deepening {
    /// The depth completed, in plies.
    pub depth: u32,
    /// Score of the best line from the side to move's view.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search of the position started.
    pub time: Duration,
    /// The best line so far, in Hub notation.
    pub pv: Vec<String>,
}

/// What an analysis reports, in order: for each position a `Start`, a
/// `Depth` for every depth its search completes, then its `Done` record.
#[derive(Clone, Debug)]
pub enum Event {
    /// A position is about to be searched.
    Start {
        /// Where it comes from.
        source: Source,
        /// For a game, the moves played before it.
        ply: usize,
        /// The position as a FEN.
        fen: String,
        /// The side to move.
        side: Side,
    },
    /// The search of the position completed one more depth.
    Depth(Deepening),
    /// The position's analysis, the played move's judgement included.
    Done(Record),
}

/// How every position is searched.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The limits of each search.
    pub limits: Limits,
    /// Lines to report per position (at least 1).
    pub multipv: usize,
    /// Search threads.
    pub threads: usize,
    /// The weights and endgame tables of the searches, loaded for each
    /// variant analysed.
    pub resources: ResourceSettings,
}

/// Why an analysis stopped.
#[derive(Debug)]
pub enum AnalyseError {
    /// The resources of a variant could not be loaded.
    Resources(VariantKind, ResourceError),
    /// The events could not be handed on (`emit` failed).
    Output(io::Error),
}

impl std::fmt::Display for AnalyseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalyseError::Resources(kind, why) => write!(f, "{kind}: {why}"),
            AnalyseError::Output(why) => write!(f, "cannot write the results: {why}"),
        }
    }
}

impl std::error::Error for AnalyseError {}

/// The outcome of one search, moves not yet written out.
struct Outcome {
    depth: u32,
    score: i32,
    lines: Vec<(i32, Vec<Move>)>,
    nodes: u64,
    time: Duration,
}

/// Stops an analysis from another thread (a Ctrl-C handler): the search
/// running ends at once, not when its iteration does, and no other begins.
#[derive(Clone, Default)]
pub struct Interrupt {
    asked: Arc<AtomicBool>,
    running: Arc<Mutex<Option<Arc<Control>>>>,
}

impl Interrupt {
    /// Stops the running search and every later one.
    pub fn stop(&self) {
        self.asked.store(true, Ordering::SeqCst);
        if let Some(control) = self.running.lock().as_ref() {
            control.stop();
        }
    }

    /// Whether a stop was asked.
    pub fn stopped(&self) -> bool {
        self.asked.load(Ordering::SeqCst)
    }

    /// Makes `control` the running search's signals, stopped at once when a
    /// stop was asked before.
    fn begin(&self, control: &Arc<Control>) {
        *self.running.lock() = Some(Arc::clone(control));
        if self.stopped() {
            control.stop();
        }
    }

    /// The running search is over.
    fn end(&self) {
        *self.running.lock() = None;
    }
}

/// Runs the searches of an analysis on one table.
pub struct Analyser {
    table: Table,
    settings: Settings,
    interrupt: Interrupt,
}

impl Analyser {
    /// An analyser with a fresh table of `hash_mib` MiB; fails when the
    /// machine cannot give the memory.
    pub fn new(settings: Settings, hash_mib: usize) -> Result<Analyser, String> {
        Ok(Analyser {
            table: Table::try_new(hash_mib)?,
            settings,
            interrupt: Interrupt::default(),
        })
    }

    /// What stops this analyser's searches from another thread.
    pub fn interrupt(&self) -> Interrupt {
        self.interrupt.clone()
    }

    /// Analyses every position of every unit, in order, handing the events
    /// to `emit`. The resources of the settings are loaded once for each run
    /// of units of one variant. Stops at the first error: resources that
    /// cannot be loaded, or an error `emit` returns.
    pub fn analyse_all(
        &self,
        units: &[Unit],
        emit: &mut dyn FnMut(Event) -> io::Result<()>,
    ) -> Result<(), AnalyseError> {
        let mut rest = units;
        while let Some(first) = rest.first() {
            let kind = first.game.variant();
            let run = rest
                .iter()
                .position(|u| u.game.variant() != kind)
                .unwrap_or(rest.len());
            let (same, after) = rest.split_at(run);
            crate::rules::with_rules!(kind, R => self.analyse_run::<R>(same, emit))?;
            rest = after;
        }
        Ok(())
    }

    /// Analyses units all of variant `R` with the resources loaded once.
    fn analyse_run<R: Rules>(
        &self,
        units: &[Unit],
        emit: &mut dyn FnMut(Event) -> io::Result<()>,
    ) -> Result<(), AnalyseError> {
        let resources = SearchResources::<R>::load(&self.settings.resources)
            .map_err(|why| AnalyseError::Resources(R::KIND, why))?;
        // Built before the clock of the first search runs.
        solved_draws::<R>();
        for unit in units {
            let game = unit.game.get::<R>().ok_or_else(|| {
                AnalyseError::Output(io::Error::other(
                    "analyse: a game's variant does not match its tag",
                ))
            })?;
            self.analyse_game(game, unit.source, &resources, emit)
                .map_err(AnalyseError::Output)?;
        }
        Ok(())
    }

    fn analyse_game<R: Rules>(
        &self,
        game: &Game<R>,
        source: Source,
        resources: &SearchResources<R>,
        emit: &mut dyn FnMut(Event) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut replay = Game::with_settings(*game.start(), game.settings().clone());
        for ply in 0..=game.moves().len() {
            let pos = replay.position();
            emit(Event::Start {
                source,
                ply,
                fen: to_fen(pos),
                side: pos.side_to_move(),
            })?;
            let mut deepened = |it: &Iteration| {
                emit(Event::Depth(Deepening {
                    depth: it.depth,
                    score: it.score,
                    nodes: it.nodes,
                    time: it.time,
                    pv: hub_moves::<R>(&it.pv),
                }))
            };
            let outcome = self.search_game(
                &replay,
                resources,
                &self.settings.limits,
                self.settings.multipv,
                &mut deepened,
            )?;
            let mut record = record_of::<R>(&replay, source, ply, &outcome);
            if let Some(&mv) = game.moves().get(ply) {
                let (score, nodes, time) = self.played_score(&replay, resources, mv, &outcome)?;
                record.nodes += nodes;
                record.time += time;
                record.played = Some(Played {
                    mv: format_move::<R>(mv, MoveStyle::Hub),
                    score,
                    loss: (centimen(outcome.score) - centimen(score)).max(0),
                });
                if replay.play(mv).is_err() {
                    // Cannot happen: the game's moves were legal when it was
                    // built; stop rather than analyse a different game.
                    return emit(Event::Done(record));
                }
            }
            emit(Event::Done(record))?;
        }
        Ok(())
    }

    /// The score of `mv` in the current position of `game` (module docs),
    /// with the nodes and time spent to find it.
    fn played_score<R: Rules>(
        &self,
        game: &Game<R>,
        resources: &SearchResources<R>,
        mv: Move,
        outcome: &Outcome,
    ) -> io::Result<(i32, u64, Duration)> {
        if let Some((score, _)) = outcome.lines.iter().find(|(_, pv)| pv.first() == Some(&mv)) {
            return Ok((*score, 0, Duration::ZERO));
        }
        let mut after = game.clone();
        if after.play(mv).is_err() {
            return Ok((outcome.score, 0, Duration::ZERO));
        }
        let settings = after.settings();
        if after.occurrences() >= settings.repetitions || after.clocks().verdict(settings).is_some()
        {
            return Ok((0, 0, Duration::ZERO));
        }
        let limits = Limits {
            depth: self
                .settings
                .limits
                .depth
                .map(|d| d.saturating_sub(1).max(1)),
            ..self.settings.limits.clone()
        };
        let reply = self.search_game(&after, resources, &limits, 1, &mut |_| Ok(()))?;
        Ok((one_ply_up(reply.score), reply.nodes, reply.time))
    }

    /// Searches the current position of `game` with its history and clocks,
    /// handing each completed depth of the best line to `deepened`; the
    /// first error `deepened` returns stops the search and is returned.
    fn search_game<R: Rules>(
        &self,
        game: &Game<R>,
        resources: &SearchResources<R>,
        limits: &Limits,
        multipv: usize,
        deepened: &mut dyn FnMut(&Iteration) -> io::Result<()>,
    ) -> io::Result<Outcome> {
        let root = *game.position();
        let mut setup = SearchSetup::for_game(game, limits.clone());
        setup.resources = resources.clone();
        setup.threads = self.settings.threads.max(1);
        setup.multipv = multipv.max(1);
        setup.search_single_move = true;
        let wanted = setup.multipv.min(root.legal_moves().len()).max(1);
        let mut current: Vec<Iteration> = Vec::new();
        let mut complete: Vec<Iteration> = Vec::new();
        let control = Arc::new(Control::new(false));
        self.interrupt.begin(&control);
        let mut failed: Option<io::Error> = None;
        let mut report = |it: &Iteration| {
            if it.multipv == 1 {
                current.clear();
                if failed.is_none() {
                    if let Err(e) = deepened(it) {
                        failed = Some(e);
                        control.stop();
                    }
                }
            }
            current.push(it.clone());
            if current.len() == wanted {
                complete = std::mem::take(&mut current);
            }
        };
        let started = Instant::now();
        let result = search(&setup, &self.table, &control, &mut report);
        self.interrupt.end();
        let time = started.elapsed();
        if let Some(e) = failed {
            return Err(e);
        }
        // The last depth at which every line was completed (the search
        // reports them best first); a search stopped before its first
        // iteration falls back on its result.
        let (depth, score, lines) = if complete.is_empty() {
            let lines = result.best.map(|mv| (result.score, vec![mv]));
            (result.depth, result.score, lines.into_iter().collect())
        } else {
            let lines: Vec<(i32, Vec<Move>)> = complete
                .iter()
                .map(|it| (it.score, it.pv.clone()))
                .collect();
            (complete[0].depth, lines[0].0, lines)
        };
        Ok(Outcome {
            depth,
            score,
            lines,
            nodes: result.nodes,
            time,
        })
    }
}

/// Moves in Hub notation.
fn hub_moves<R: Rules>(moves: &[Move]) -> Vec<String> {
    moves
        .iter()
        .map(|&mv| format_move::<R>(mv, MoveStyle::Hub))
        .collect()
}

/// A score seen from the position after a move, turned into the score of
/// the move before it: negated, and a forced win or loss one ply longer.
fn one_ply_up(score: i32) -> i32 {
    let s = -score;
    if s > MATE_BOUND {
        s - 1
    } else if s < -MATE_BOUND {
        s + 1
    } else {
        s
    }
}

/// The record of a search of the current position of `game`.
fn record_of<R: Rules>(game: &Game<R>, source: Source, ply: usize, outcome: &Outcome) -> Record {
    let pos = game.position();
    let lines: Vec<Line> = outcome
        .lines
        .iter()
        .map(|(score, pv)| Line {
            score: *score,
            pv: hub_moves::<R>(pv),
        })
        .collect();
    Record {
        variant: R::KIND,
        source,
        ply,
        fen: to_fen(pos),
        side: pos.side_to_move(),
        depth: outcome.depth,
        score: outcome.score,
        pv: lines.first().map(|l| l.pv.clone()).unwrap_or_default(),
        nodes: outcome.nodes,
        time: outcome.time,
        lines,
        played: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;

    #[test]
    fn scores_on_the_output_scale() {
        assert_eq!(centimen(35), 35);
        assert_eq!(centimen(MATE - 3), 99_997);
        assert_eq!(centimen(-MATE), -100_000);
        assert_eq!(mate_plies(MATE - 3), Some(3));
        assert_eq!(mate_plies(-(MATE - 4)), Some(-4));
        assert_eq!(mate_plies(12), None);
    }

    #[test]
    fn a_score_one_ply_up() {
        assert_eq!(one_ply_up(40), -40);
        // The reply loses at once: the move wins in one ply.
        assert_eq!(one_ply_up(-MATE), MATE - 1);
        // The reply wins in 2 plies: the move loses in 3.
        assert_eq!(one_ply_up(MATE - 2), -(MATE - 3));
    }
}

//! `Engine`: tempo's engine (`tempo::engine::EngineHost`, the one the Hub
//! protocol drives) with its table, book, weights and endgame tables,
//! searching a `Board`; `SearchInfo` and `SearchResult`.
//!
//! A search runs on the engine's own thread; the calling thread waits for
//! its events with the GIL released, taking it back only to hand an
//! iteration to the callback and to check for signals (Ctrl-C stops the
//! search and raises `KeyboardInterrupt`). The engine's lock is never held
//! while the GIL is being taken, so two threads cannot wait on each other.

use std::sync::{Mutex, MutexGuard};

use crossbeam_channel::{unbounded, RecvTimeoutError};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use tempo::engine::{EngineError, EngineEvent, EngineHost, GoMode, Limits, Score};
use tempo::rules::notation::MoveSquares;
use tempo::rules::Rules;

use crate::board::{Board, Move, VariantBoard};
use crate::{existing, parse_variant, search_limits, value_error, SIGNAL_POLL};

/// An engine error as a Python exception.
fn engine_error(e: EngineError) -> PyErr {
    match e {
        EngineError::Busy(_) => PyRuntimeError::new_err(e.to_string()),
        EngineError::Io(_) => pyo3::exceptions::PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// tempo's engine: a transposition table, search threads, the opening
/// book, pattern weights and endgame tables, searching positions of a
/// `Board`.
///
/// `Engine(threads=1, hash=64, book=False, book_file=None, weights=None,
/// egdb=None, egdb_pieces=4, variant="international", contempt=0)`:
/// `book` plays from the opening book (the one shipped, or `book_file`) in
/// `search` when one line is asked for; `weights` is a weights file of
/// `tempo train` and `book_file` a book of `tempo book build`, both for
/// `variant`; `egdb` is a directory of `tempo egdb build` (up to
/// `egdb_pieces` pieces loaded). A missing file or directory is an
/// `OSError`, a bad value a `ValueError`.
///
/// One engine runs one search at a time (a second at once is a
/// `RuntimeError`); several engines search at once in several threads,
/// since a search releases the GIL. `stop()` from another thread ends the
/// running search, which then returns its best move so far.
#[pyclass(module = "tempo", frozen)]
pub struct Engine {
    host: Mutex<EngineHost>,
}

impl Engine {
    /// The engine, its lock taken (a panic while it was held leaves it
    /// usable: every change it makes is complete or refused).
    fn host(&self) -> MutexGuard<'_, EngineHost> {
        self.host
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Sets a parameter of `host` as the Hub `set-param` does.
fn set(host: &mut EngineHost, name: &str, value: &str) -> PyResult<()> {
    host.set_param(name, value).map_err(engine_error)
}

/// Sets the game of `host` to the game of `board` (variant, start, moves).
fn set_game(host: &mut EngineHost, board: &dyn VariantBoard) -> PyResult<()> {
    fn typed<R: Rules>(host: &mut EngineHost, board: &dyn VariantBoard) -> PyResult<()> {
        let game = board
            .game::<R>()
            .ok_or_else(|| value_error("the board's game is not of its variant"))?;
        host.set_game(*game.start(), game.moves())
            .map_err(engine_error)
    }
    let kind = board.kind();
    if host.variant() != kind {
        set(host, "variant", kind.hub_name())?;
    }
    tempo::rules::with_rules!(kind, R => typed::<R>(host, board))
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (
        threads = 1,
        hash = 64,
        book = false,
        book_file = None,
        weights = None,
        egdb = None,
        egdb_pieces = 4,
        variant = "international",
        contempt = 0
    ))]
    fn new(
        py: Python<'_>,
        threads: usize,
        hash: usize,
        book: bool,
        book_file: Option<std::path::PathBuf>,
        weights: Option<std::path::PathBuf>,
        egdb: Option<std::path::PathBuf>,
        egdb_pieces: u32,
        variant: &str,
        contempt: usize,
    ) -> PyResult<Engine> {
        let kind = parse_variant(variant)?;
        let book_file = book_file
            .map(|p| existing(p, "book_file", false))
            .transpose()?;
        let weights = weights.map(|p| existing(p, "weights", false)).transpose()?;
        let egdb = egdb.map(|p| existing(p, "egdb", true)).transpose()?;
        // Allocating the table and reading the tables take a while.
        py.detach(|| {
            let mut host = EngineHost::new();
            set(&mut host, "variant", kind.hub_name())?;
            set(&mut host, "threads", &threads.to_string())?;
            set(&mut host, "hash", &hash.to_string())?;
            set(&mut host, "book", &book.to_string())?;
            set(&mut host, "contempt", &contempt.to_string())?;
            set(&mut host, "egdb-pieces", &egdb_pieces.to_string())?;
            if let Some(path) = book_file {
                set(&mut host, "book-file", &path.to_string_lossy())?;
            }
            if let Some(path) = weights {
                set(&mut host, "eval-file", &path.to_string_lossy())?;
            }
            if let Some(path) = egdb {
                set(&mut host, "egdb-path", &path.to_string_lossy())?;
            }
            // What the first search of the variant needs, built now so
            // that its clock does not run while it is built.
            host.prepare();
            Ok(Engine {
                host: Mutex::new(host),
            })
        })
    }

    /// Searches the current position of `board` (its earlier positions and
    /// draw counters included) and returns a `SearchResult`.
    ///
    /// Limits: `movetime` in seconds, `depth` in plies, `nodes`; the first
    /// reached ends the search. With none of them, give `infinite=True`:
    /// the search then runs until `stop()`. `multipv` lines are searched
    /// (best first). `on_info`, if given, is called with a `SearchInfo`
    /// for every completed depth (every line of it in multi-PV); an
    /// exception it raises stops the search and is raised here. The GIL is
    /// released while the engine thinks. A game over by a win is a
    /// `ValueError`; a position drawn by rule is searched.
    #[pyo3(signature = (board, *, movetime = None, depth = None, nodes = None, multipv = 1, infinite = false, on_info = None))]
    fn search(
        &self,
        py: Python<'_>,
        board: PyRef<'_, Board>,
        movetime: Option<f64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        multipv: usize,
        infinite: bool,
        on_info: Option<Py<PyAny>>,
    ) -> PyResult<SearchResult> {
        let limits = limits(movetime, depth, nodes, infinite)?;
        if multipv == 0 {
            return Err(value_error("multipv must be at least 1"));
        }
        let (sender, events) = unbounded();
        let game: &dyn VariantBoard = board.game.as_ref();
        // Setting the game may switch the variant, whose tables (the solved
        // draws, about 0.4 s on 10x10) are built before the clock starts.
        py.detach(|| {
            let mut host = self.host();
            if host.is_searching() {
                return Err(PyRuntimeError::new_err(
                    "this engine is searching already; use another Engine to search at once",
                ));
            }
            set_game(&mut host, game)?;
            host.prepare();
            set(&mut host, "multipv", &multipv.to_string())?;
            let mode = if host.options().book && multipv == 1 {
                GoMode::Think
            } else {
                GoMode::Analyze
            };
            host.go(mode, limits, sender).map_err(engine_error)
        })?;
        let mut result = SearchResult::default();
        let mut failure: Option<PyErr> = None;
        let done = py.detach(|| loop {
            match events.recv_timeout(SIGNAL_POLL) {
                Ok(EngineEvent::Info(info)) => {
                    let info = SearchInfo::new(game, &info);
                    if info.multipv == 1 {
                        result.lines.clear();
                    }
                    result.book = info.book;
                    result.lines.push(info.clone());
                    if let (Some(callback), None) = (&on_info, &failure) {
                        let called = Python::attach(|py| callback.call1(py, (info,)).map(|_| ()));
                        if let Err(e) = called {
                            failure = Some(e);
                            self.host().stop();
                        }
                    }
                }
                Ok(EngineEvent::Note(note)) => result.notes.push(note),
                Ok(EngineEvent::Done { best, ponder }) => break Some((best, ponder)),
                Err(RecvTimeoutError::Timeout) => {
                    if failure.is_none() {
                        if let Err(e) = Python::attach(|py| py.check_signals()) {
                            failure = Some(e);
                            self.host().stop();
                        }
                    }
                }
                Err(RecvTimeoutError::Disconnected) => break None,
            }
        });
        self.host().wait();
        if let Some(e) = failure {
            return Err(e);
        }
        let (best, ponder) = done.ok_or_else(|| {
            PyRuntimeError::new_err("the search ended without a move (an internal error)")
        })?;
        let moves: Vec<MoveSquares> = best.into_iter().chain(ponder).collect();
        let mut played = game.line(&moves).into_iter().map(Move);
        result.best = played.next();
        result.ponder = played.next();
        Ok(result)
    }

    /// Stops the running search, if any: its `search` returns at once with
    /// the best move found so far. Safe to call from any thread.
    fn stop(&self) {
        self.host().stop();
    }

    /// Forgets what earlier searches learnt (clears the transposition
    /// table). Refused while a search runs.
    fn new_game(&self) -> PyResult<()> {
        self.host().new_game().map_err(engine_error)
    }

    /// Sets an engine parameter by its Hub name (see `options`), for
    /// example `set_option("contempt", 0)` or
    /// `set_option("draw-repetitions", 4)`. Refused while a search runs.
    fn set_option(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = match value.extract::<bool>() {
            Ok(flag) => flag.to_string(),
            Err(_) => value.str()?.to_string(),
        };
        py.detach(|| set(&mut self.host(), name, &text))
    }

    /// Every engine parameter with its current value, as text, by its Hub
    /// name (`threads`, `hash`, `book`, `book-file`, `eval-file`,
    /// `egdb-path`, `egdb-pieces`, `contempt`, `draw-*`, ...), the search's
    /// tuning parameters last.
    #[getter]
    fn options(&self) -> Vec<(String, String)> {
        let host = self.host();
        host.params()
            .into_iter()
            .chain(host.tuning_params())
            .map(|p| (p.name, p.value))
            .collect()
    }

    /// The variant the engine is set to (a search switches it to the
    /// board's).
    #[getter]
    fn variant(&self) -> &'static str {
        self.host().variant().name()
    }

    fn __repr__(&self) -> String {
        let host = self.host();
        let options = host.options();
        format!(
            "Engine(threads={}, hash={}, book={}, variant='{}')",
            options.threads,
            options.hash_mib,
            if options.book { "True" } else { "False" },
            host.variant().name()
        )
    }
}

/// The limits of a search from the keyword arguments: at least one, or
/// `infinite`.
fn limits(
    movetime: Option<f64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    infinite: bool,
) -> PyResult<Limits> {
    let limits = Limits {
        infinite,
        ..search_limits(movetime, depth, nodes)?
    };
    if !infinite && !limits.is_bounded() {
        return Err(value_error(
            "give movetime, depth or nodes (or infinite=True and stop() it)",
        ));
    }
    Ok(limits)
}

/// The score of a search in men, and the plies to a forced end.
fn score_parts(score: Score) -> (f64, Option<i64>) {
    let plies = match score {
        Score::Centimen(_) => None,
        Score::WinIn(p) => Some(i64::from(p)),
        Score::LossIn(p) => Some(-i64::from(p)),
    };
    (score.men(), plies)
}

/// One completed depth of a search (one line of it in multi-PV).
#[pyclass(module = "tempo", frozen, get_all)]
#[derive(Clone)]
pub struct SearchInfo {
    /// The depth completed, in plies.
    depth: u32,
    /// The deepest ply reached, quiescence included.
    seldepth: u32,
    /// The score for the side to move, in men; a forced win in n plies is
    /// 1000 - n/100 (a loss the negative), so scores always compare.
    score: f64,
    /// Plies to the end of a forced win (positive) or loss (negative);
    /// `None` for a heuristic score.
    mate: Option<i64>,
    /// Nodes searched so far, all threads.
    nodes: u64,
    /// Seconds since the search started.
    time: f64,
    /// The principal variation, first move first.
    pv: Vec<Move>,
    /// The rank of this line in multi-PV (1 = best).
    multipv: usize,
    /// Transposition-table fill, in permille.
    hashfull: u32,
    /// Whether the move comes from the opening book (no search).
    book: bool,
}

impl SearchInfo {
    /// The info of an engine event, its moves read on `game`.
    fn new(game: &dyn VariantBoard, info: &tempo::engine::SearchInfo) -> SearchInfo {
        let (score, mate) = score_parts(info.score);
        SearchInfo {
            depth: info.depth,
            seldepth: info.seldepth,
            score,
            mate,
            nodes: info.nodes,
            time: info.time.as_secs_f64(),
            pv: game.line(&info.pv).into_iter().map(Move).collect(),
            multipv: info.multipv.map_or(1, |m| m as usize),
            hashfull: info.hashfull,
            book: info.book,
        }
    }
}

#[pymethods]
impl SearchInfo {
    /// Nodes a second.
    #[getter]
    fn nps(&self) -> f64 {
        if self.time > 0.0 {
            self.nodes as f64 / self.time
        } else {
            0.0
        }
    }

    fn __repr__(&self) -> String {
        let pv: Vec<&str> = self.pv.iter().map(|m| m.0.notation()).collect();
        format!(
            "SearchInfo(depth={}, score={:.2}, nodes={}, time={:.3}, pv='{}')",
            self.depth,
            self.score,
            self.nodes,
            self.time,
            pv.join(" ")
        )
    }
}

/// What a search found: the move, its score and line, and the work done.
#[pyclass(module = "tempo", frozen, get_all)]
#[derive(Clone, Default)]
pub struct SearchResult {
    /// The move to play; `None` only when no move is legal.
    best: Option<Move>,
    /// The expected reply, if known.
    ponder: Option<Move>,
    /// The lines of the last completed depth, best first (one without
    /// multi-PV).
    lines: Vec<SearchInfo>,
    /// Whether the move comes from the opening book.
    book: bool,
    /// What the engine said before searching (endgame tables loaded or not).
    notes: Vec<String>,
}

impl SearchResult {
    /// The best line, if any depth was completed.
    fn first(&self) -> Option<&SearchInfo> {
        self.lines.first()
    }
}

#[pymethods]
impl SearchResult {
    /// The score of the best line for the side to move, in men (see
    /// `SearchInfo.score`); 0.0 when no depth was completed.
    #[getter]
    fn score(&self) -> f64 {
        self.first().map_or(0.0, |i| i.score)
    }

    /// Plies to the end of a forced win (positive) or loss (negative);
    /// `None` for a heuristic score.
    #[getter]
    fn mate(&self) -> Option<i64> {
        self.first().and_then(|i| i.mate)
    }

    /// The principal variation, the best move first.
    #[getter]
    fn pv(&self) -> Vec<Move> {
        match self.first() {
            Some(info) => info.pv.clone(),
            None => self.best.iter().cloned().collect(),
        }
    }

    /// The deepest completed depth, in plies.
    #[getter]
    fn depth(&self) -> u32 {
        self.first().map_or(0, |i| i.depth)
    }

    /// Nodes searched, all threads.
    #[getter]
    fn nodes(&self) -> u64 {
        self.lines.iter().map(|i| i.nodes).max().unwrap_or(0)
    }

    /// Seconds the search took (to its last completed depth).
    #[getter]
    fn time(&self) -> f64 {
        self.lines.iter().map(|i| i.time).fold(0.0, f64::max)
    }

    fn __repr__(&self) -> String {
        format!(
            "SearchResult(best={}, score={:.2}, depth={}, nodes={})",
            self.best
                .as_ref()
                .map_or("None".to_string(), |m| format!("'{}'", m.0.notation())),
            self.score(),
            self.depth(),
            self.nodes()
        )
    }
}

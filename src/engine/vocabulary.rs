//! The vocabulary shared by the engine and the protocols: search limits,
//! modes, parameters, moves in square numbers, scores and events.
//!
//! Nothing here depends on a variant: moves are plain square numbers so a
//! protocol can print them without knowing the board.

use std::fmt;
use std::time::Duration;

pub use crate::rules::notation::MoveSquares;
pub use crate::search::Limits;
use crate::search::{MATE, MATE_BOUND};

/// What `go` is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    /// Play a move in the game: may use the book; the clock runs.
    Think,
    /// Search the position (the expected opponent move already played)
    /// without a clock until `ponder_hit`.
    Ponder,
    /// Analyse: no book, search even a single legal move, run until stopped
    /// or the limits say so.
    Analyze,
}

/// A search score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// A heuristic value in hundredths of a man.
    Centimen(i32),
    /// A forced win in this many plies.
    WinIn(u32),
    /// A forced loss in this many plies.
    LossIn(u32),
}

impl Score {
    /// A search score (centimen, or `±(MATE - plies)` for a forced win or
    /// loss) as the protocols see it.
    pub fn from_search(score: i32) -> Score {
        if score > MATE_BOUND {
            Score::WinIn((MATE - score).unsigned_abs())
        } else if score < -MATE_BOUND {
            Score::LossIn((MATE + score).unsigned_abs())
        } else {
            Score::Centimen(score)
        }
    }

    /// The score in men, as Hub prints it; wins and losses are shown as
    /// ±(1000 − plies/100) so that they sort above every material score.
    pub fn men(self) -> f64 {
        match self {
            Score::Centimen(c) => c as f64 / 100.0,
            Score::WinIn(p) => 1000.0 - p as f64 / 100.0,
            Score::LossIn(p) => -(1000.0 - p as f64 / 100.0),
        }
    }
}

/// One progress report of a running search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    /// Completed iteration depth in plies.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Score of the best line.
    pub score: Score,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation (first move first).
    pub pv: Vec<MoveSquares>,
    /// Transposition-table fill in permille.
    pub hashfull: u32,
    /// The rank of this line in multi-PV analysis (1 = best), `None` otherwise.
    pub multipv: Option<u32>,
    /// Whether the move came from the opening book.
    pub book: bool,
}

impl SearchInfo {
    /// Millions of nodes per second.
    pub fn mnps(&self) -> f64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            self.nodes as f64 / secs / 1e6
        } else {
            0.0
        }
    }
}

/// What a running search sends back.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineEvent {
    /// Progress.
    Info(SearchInfo),
    /// A note for the user, sent before a search (endgame tables loaded,
    /// or missing and not used).
    Note(String),
    /// The search is over; sent exactly once per `go`. `best` is `None`
    /// only when the position has no legal move.
    Done {
        /// The move to play.
        best: Option<MoveSquares>,
        /// The expected reply, if known.
        ponder: Option<MoveSquares>,
    },
}

/// The type of an engine parameter, as the Hub `param` line declares it.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    /// `true` or `false`.
    Bool,
    /// A whole number in a range.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// Free text (a file name, say).
    String,
    /// One of a fixed list of words.
    Enum(Vec<String>),
}

/// One engine parameter with its current value.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The name used by `set-param`.
    pub name: String,
    /// Its type.
    pub kind: ParamKind,
    /// The current value, as text.
    pub value: String,
    /// One line saying what it does.
    pub help: String,
}

/// Why the engine refused a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The request needs the search to be idle.
    Busy(String),
    /// A parameter name the engine does not have.
    UnknownParam(String),
    /// A parameter value out of range or of the wrong type.
    BadValue {
        /// The parameter.
        name: String,
        /// What was wrong.
        why: String,
    },
    /// A position string that could not be read.
    BadPosition(String),
    /// A move in a move list that is not legal; `index` is 1-based.
    IllegalMove {
        /// The move text.
        text: String,
        /// Its place in the list, from 1.
        index: usize,
        /// Why it was refused.
        why: String,
    },
    /// `go` in a position where the game is over.
    GameOver(String),
    /// Limits that make no sense (a negative time, say).
    BadLimits(String),
    /// A file (book, say) that could not be used.
    Io(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Busy(what) => write!(f, "cannot {what} while searching"),
            EngineError::UnknownParam(name) => write!(f, "unknown parameter '{name}'"),
            EngineError::BadValue { name, why } => write!(f, "bad value for '{name}': {why}"),
            EngineError::BadPosition(why) => write!(f, "bad position: {why}"),
            EngineError::IllegalMove { text, index, why } => {
                write!(f, "move {index} '{text}' is illegal: {why}")
            }
            EngineError::GameOver(why) => write!(f, "the game is over: {why}"),
            EngineError::BadLimits(why) => write!(f, "bad limits: {why}"),
            EngineError::Io(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for EngineError {}

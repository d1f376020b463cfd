//! `Board` (a game of any variant under its draw rules), `Move` and
//! `DrawClocks`.
//!
//! A board is a `tempo::game::Game<R>` behind the object-safe
//! [`VariantBoard`] trait: the game keeps the positions, the draw clocks
//! and the result, so play, undo and the end of the game are the crate's own.

use std::any::Any;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use tempo::cli::perft::{divide_threads, perft_threads};
use tempo::game::{Game, GameResult};
use tempo::rules::notation::{
    find_move, format_move, parse_position, squares_of, to_fen, to_hub, MoveSquares,
};
use tempo::rules::{Geometry, Move as RustMove, MoveStyle, Piece, Position, Rules, Side, Square};
use tempo::rules::{VariantKind, VariantKind as Kind};

use crate::{parse_variant, value_error};

/// A move as the package hands it out: its texts and its squares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MoveData {
    /// The variant whose board the squares are on.
    kind: VariantKind,
    /// PDN short form (`28x19`).
    notation: String,
    /// Hub long form (`28x19x23`).
    hub: String,
    /// The move's squares.
    squares: MoveSquares,
}

impl MoveData {
    /// The PDN notation of the move.
    pub(crate) fn notation(&self) -> &str {
        &self.notation
    }

    /// The texts and squares of `mv`, a move of variant `R`.
    fn of<R: Rules>(mv: RustMove) -> MoveData {
        MoveData {
            kind: R::KIND,
            notation: format_move::<R>(mv, MoveStyle::Short),
            hub: format_move::<R>(mv, MoveStyle::Hub),
            squares: squares_of::<R>(mv),
        }
    }
}

/// What a `Board` needs of a game, whatever its variant.
pub(crate) trait VariantBoard: Send + Sync {
    /// The variant.
    fn kind(&self) -> VariantKind;
    /// A copy of the game.
    fn boxed(&self) -> Box<dyn VariantBoard>;
    /// The game, for [`game`](#method.game) to give back as its type.
    fn as_any(&self) -> &dyn Any;
    /// The legal moves of the current position.
    fn legal_moves(&self) -> Vec<MoveData>;
    /// Plays the legal move with these squares.
    fn play_squares(&mut self, squares: &MoveSquares) -> Result<MoveData, String>;
    /// Plays a move given as text (any notation the crate reads).
    fn play_text(&mut self, text: &str) -> Result<MoveData, String>;
    /// Takes back the last move.
    fn undo(&mut self) -> Option<MoveData>;
    /// The moves played, in order.
    fn history(&self) -> Vec<MoveData>;
    /// The moves of a line given as squares, played from the current
    /// position, up to the first that is not legal.
    fn line(&self, squares: &[MoveSquares]) -> Vec<MoveData>;
    /// The side to move.
    fn side(&self) -> Side;
    /// The result under the draw rules.
    fn result(&self) -> GameResult;
    /// The draw clocks and rules.
    fn clocks(&self) -> DrawClocks;
    /// The current position as a FEN.
    fn fen(&self) -> String;
    /// The current position as a Hub position string.
    fn hub(&self) -> String;
    /// The start position as a FEN.
    fn start_fen(&self) -> String;
    /// The text diagram of the current position.
    fn diagram(&self) -> String;
    /// The piece on a square (`w`, `b`, `W`, `B`), or an error for a
    /// square off the board.
    fn piece_at(&self, square: u32) -> Result<Option<char>, String>;
    /// Perft of the current position.
    fn perft(&self, depth: u32, threads: usize) -> u64;
    /// Perft below each legal move.
    fn divide(&self, depth: u32, threads: usize) -> Vec<(MoveData, u64)>;
}

impl dyn VariantBoard + '_ {
    /// The game as its own type, if it is of variant `R`.
    pub(crate) fn game<R: Rules>(&self) -> Option<&Game<R>> {
        self.as_any().downcast_ref()
    }
}

impl<R: Rules> VariantBoard for Game<R> {
    fn kind(&self) -> VariantKind {
        R::KIND
    }

    fn boxed(&self) -> Box<dyn VariantBoard> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn legal_moves(&self) -> Vec<MoveData> {
        self.position()
            .legal_moves()
            .iter()
            .map(|&mv| MoveData::of::<R>(mv))
            .collect()
    }

    fn play_squares(&mut self, squares: &MoveSquares) -> Result<MoveData, String> {
        let mv = find_move(self.position(), squares)
            .ok_or_else(|| format!("{squares} is not a legal move here"))?;
        self.play(mv).map_err(|e| e.to_string())?;
        Ok(MoveData::of::<R>(mv))
    }

    fn play_text(&mut self, text: &str) -> Result<MoveData, String> {
        let mv = Game::play_text(self, text).map_err(|e| e.to_string())?;
        Ok(MoveData::of::<R>(mv))
    }

    fn undo(&mut self) -> Option<MoveData> {
        Game::undo(self).map(MoveData::of::<R>)
    }

    fn history(&self) -> Vec<MoveData> {
        self.moves()
            .iter()
            .map(|&mv| MoveData::of::<R>(mv))
            .collect()
    }

    fn line(&self, squares: &[MoveSquares]) -> Vec<MoveData> {
        let mut pos = *self.position();
        let mut line = Vec::with_capacity(squares.len());
        for s in squares {
            let Some(mv) = find_move(&pos, s) else { break };
            line.push(MoveData::of::<R>(mv));
            pos = pos.play(mv);
        }
        line
    }

    fn side(&self) -> Side {
        self.position().side_to_move()
    }

    fn result(&self) -> GameResult {
        Game::result(self)
    }

    fn clocks(&self) -> DrawClocks {
        let clocks = Game::clocks(self);
        let rules = self.settings();
        DrawClocks {
            reversible_plies: clocks.reversible_plies(),
            short_endgame_plies: clocks.short_endgame_plies(),
            long_endgame_plies: clocks.long_endgame_plies(),
            occurrences: self.occurrences(),
            plies_until_draw: clocks.plies_until_draw(rules),
            repetitions: rules.repetitions,
            king_moves: rules.king_moves,
            short_endgame_moves: rules.short_endgame_moves,
            long_endgame_moves: rules.long_endgame_moves,
        }
    }

    fn fen(&self) -> String {
        to_fen(self.position())
    }

    fn hub(&self) -> String {
        to_hub(self.position())
    }

    fn start_fen(&self) -> String {
        to_fen(self.start())
    }

    fn diagram(&self) -> String {
        self.position().to_string()
    }

    fn piece_at(&self, square: u32) -> Result<Option<char>, String> {
        let max = <R::Geometry as Geometry>::SQUARES;
        let sq = u8::try_from(square)
            .ok()
            .filter(|_| (1..=max).contains(&square))
            .and_then(Square::new)
            .ok_or_else(|| format!("square {square} is not on this board (1..{max})"))?;
        Ok(self.position().piece_at(sq).map(|piece| match piece {
            Piece::Man(Side::White) => 'w',
            Piece::Man(Side::Black) => 'b',
            Piece::King(Side::White) => 'W',
            Piece::King(Side::Black) => 'B',
        }))
    }

    fn perft(&self, depth: u32, threads: usize) -> u64 {
        perft_threads(self.position(), depth, threads)
    }

    fn divide(&self, depth: u32, threads: usize) -> Vec<(MoveData, u64)> {
        divide_threads(self.position(), depth, threads)
            .into_iter()
            .map(|(mv, n)| (MoveData::of::<R>(mv), n))
            .collect()
    }
}

/// The name of a side as the package spells it.
pub(crate) fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// A game of one of the variants tempo plays: the current position, the
/// moves that led to it, and its result under the variant's draw rules
/// (repetition, the king-move rule, the short and long endgame rules).
///
/// `Board(variant="international", fen=None, moves=None)`: the start
/// position, or `fen` (a PDN FEN such as `"W:W31-50:B1-20"`, or a Hub
/// position string), then `moves` played in order. `str(board)` is a text
/// diagram; `board.fen` and `board.hub` the position as text.
#[pyclass(module = "tempo")]
pub struct Board {
    pub(crate) game: Box<dyn VariantBoard>,
}

/// Perft threads from Python: at least one.
fn worker_threads(threads: usize) -> PyResult<usize> {
    if threads == 0 {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    Ok(threads)
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (variant = "international", fen = None, moves = None))]
    fn new(variant: &str, fen: Option<&str>, moves: Option<Vec<String>>) -> PyResult<Board> {
        let kind = parse_variant(variant)?;
        let mut game = new_game(kind, fen)?;
        for (i, text) in moves.unwrap_or_default().iter().enumerate() {
            game.play_text(text)
                .map_err(|why| value_error(format!("move {} '{text}': {why}", i + 1)))?;
        }
        Ok(Board { game })
    }

    /// The variant's name (`"international"`, `"brazilian"`, ...).
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.kind().name()
    }

    /// The side to move: `"white"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        side_name(self.game.side())
    }

    /// The legal moves of the current position, in the generator's order.
    /// In a game over by a draw rule the moves are still listed (another
    /// program may count otherwise); after a win there are none.
    fn legal_moves(&self) -> Vec<Move> {
        self.game.legal_moves().into_iter().map(Move).collect()
    }

    /// Plays a move: a `Move` of `legal_moves()`, or text in any notation
    /// tempo reads (`"32-28"`, `"28x19"`, the Hub long form `"28x19x23"`,
    /// a PDN path `"28x19x10"`, coordinates `"c3-d4"`). Returns the `Move`
    /// played. A move that is not legal, or a short capture that fits
    /// several captures, is a `ValueError` and changes nothing.
    fn play(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<Move> {
        let played = if let Ok(m) = mv.cast::<Move>() {
            let m = m.get();
            if m.0.kind != self.game.kind() {
                return Err(value_error(format!(
                    "a {} move cannot be played on a {} board",
                    m.0.kind.name(),
                    self.game.kind().name()
                )));
            }
            self.game.play_squares(&m.0.squares)
        } else if let Ok(text) = mv.extract::<String>() {
            self.game.play_text(&text)
        } else {
            return Err(value_error("a move is a tempo.Move or a str"));
        };
        played.map(Move).map_err(value_error)
    }

    /// Takes back the last move and returns it; `None` at the start.
    fn undo(&mut self) -> Option<Move> {
        self.game.undo().map(Move)
    }

    /// The moves played since the start position, in order.
    #[getter]
    fn moves(&self) -> Vec<Move> {
        self.game.history().into_iter().map(Move).collect()
    }

    /// How many moves (plies) have been played since the start position.
    #[getter]
    fn ply(&self) -> usize {
        self.game.history().len()
    }

    /// Whether the game is over: a win, or a draw by rule.
    fn is_over(&self) -> bool {
        self.game.result().is_over()
    }

    /// The PDN result: `"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"` while the
    /// game goes on.
    #[getter]
    fn result(&self) -> &'static str {
        self.game.result().score()
    }

    /// The winner, `"white"` or `"black"`; `None` for a draw or a game
    /// that goes on.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        match self.game.result() {
            GameResult::WhiteWins(_) => Some("white"),
            GameResult::BlackWins(_) => Some("black"),
            GameResult::Draw(_) | GameResult::Ongoing => None,
        }
    }

    /// Why the game ended, as `tempo game` prints it: `"no-moves"`,
    /// `"first-king"`, `"lone-piece"` for a win; `"repetition"`,
    /// `"king-moves"`, `"5-move"`, `"10-move"` for a draw; `"none"` while it
    /// goes on.
    #[getter]
    fn reason(&self) -> &'static str {
        self.game.result().reason()
    }

    /// The result in words (`"Black has no legal move"`, `"draw by rule:
    /// repetition"`, `"unfinished"`).
    #[getter]
    fn result_text(&self) -> String {
        self.game.result().describe()
    }

    /// The draw-rule counters of the current position, with the thresholds
    /// of the variant.
    #[getter]
    fn clocks(&self) -> DrawClocks {
        self.game.clocks()
    }

    /// The current position as a PDN FEN (`"W:W31,...:B1,..."`).
    #[getter]
    fn fen(&self) -> String {
        self.game.fen()
    }

    /// The current position as a Hub position string (side to move, then
    /// one of `wbWBe` per square).
    #[getter]
    fn hub(&self) -> String {
        self.game.hub()
    }

    /// The start position of the game as a FEN.
    #[getter]
    fn start_fen(&self) -> String {
        self.game.start_fen()
    }

    /// The piece on a square (standard number): `"w"`/`"b"` a white/black
    /// man, `"W"`/`"B"` a king, `None` for an empty square. A number off
    /// the board is a `ValueError`.
    fn piece_at(&self, square: u32) -> PyResult<Option<char>> {
        self.game.piece_at(square).map_err(value_error)
    }

    /// The number of leaf nodes of the legal-move tree `depth` plies deep
    /// (1 for depth 0), counted as `tempo perft` counts them; `threads`
    /// share the root moves. Releases the GIL.
    #[pyo3(signature = (depth, threads = 1))]
    fn perft(&self, py: Python<'_>, depth: u32, threads: usize) -> PyResult<u64> {
        let threads = worker_threads(threads)?;
        let game = &self.game;
        Ok(py.detach(|| game.perft(depth, threads)))
    }

    /// Perft `depth` below each legal move: a list of `(Move, count)` in
    /// the generator's order. Releases the GIL.
    #[pyo3(signature = (depth, threads = 1))]
    fn divide(&self, py: Python<'_>, depth: u32, threads: usize) -> PyResult<Vec<(Move, u64)>> {
        let threads = worker_threads(threads)?;
        let game = &self.game;
        let counts = py.detach(|| game.divide(depth, threads));
        Ok(counts.into_iter().map(|(m, n)| (Move(m), n)).collect())
    }

    /// An independent copy of the board (position, moves and clocks).
    fn copy(&self) -> Board {
        Board {
            game: self.game.boxed(),
        }
    }

    fn __copy__(&self) -> Board {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.copy()
    }

    fn __str__(&self) -> String {
        self.game.diagram()
    }

    fn __repr__(&self) -> String {
        format!(
            "Board('{}', '{}')",
            self.game.kind().name(),
            self.game.fen()
        )
    }
}

/// A new game of `kind` from its start position or from `fen`.
fn new_game(kind: Kind, fen: Option<&str>) -> PyResult<Box<dyn VariantBoard>> {
    fn build<R: Rules>(fen: Option<&str>) -> PyResult<Box<dyn VariantBoard>> {
        let start = match fen {
            None => Position::<R>::start(),
            Some(text) => parse_position::<R>(text).map_err(value_error)?,
        };
        Ok(Box::new(Game::new(start)))
    }
    tempo::rules::with_rules!(kind, R => build::<R>(fen))
}

/// A legal move of a board: `str(move)` is its PDN notation (`"28x19"`),
/// `move.hub` the Hub long form that names every captured square
/// (`"28x19x23"`), `from_square`, `to_square` and `captured` its squares
/// (standard numbers). Moves compare equal when they are the same move of
/// the same variant.
#[pyclass(module = "tempo", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Move(pub(crate) MoveData);

#[pymethods]
impl Move {
    /// PDN notation: `"32-28"`, a capture `"28x19"` (from and to only).
    #[getter]
    fn notation(&self) -> &str {
        &self.0.notation
    }

    /// Hub long form: `"32-28"`, a capture `"28x19x23"` (from, to, then
    /// every captured square in increasing order).
    #[getter]
    fn hub(&self) -> &str {
        &self.0.hub
    }

    /// The square the piece leaves.
    #[getter(from_square)]
    fn source_square(&self) -> u8 {
        self.0.squares.from
    }

    /// The square the piece ends on.
    #[getter]
    fn to_square(&self) -> u8 {
        self.0.squares.to
    }

    /// The captured squares, in increasing order (empty for a quiet move).
    #[getter]
    fn captured(&self) -> Vec<u32> {
        self.0
            .squares
            .captured
            .iter()
            .map(|&s| u32::from(s))
            .collect()
    }

    /// Whether the move captures.
    #[getter]
    fn is_capture(&self) -> bool {
        !self.0.squares.captured.is_empty()
    }

    /// The variant whose move this is.
    #[getter]
    fn variant(&self) -> &'static str {
        self.0.kind.name()
    }

    fn __str__(&self) -> &str {
        &self.0.notation
    }

    fn __repr__(&self) -> String {
        format!("Move('{}')", self.0.hub)
    }
}

/// The draw-rule counters of a position and the thresholds in force.
///
/// A threshold of 0 means the rule is off in the variant. The game is
/// drawn when the position has occurred `repetitions` times, after
/// `king_moves` moves of each side with kings only (no capture, no man
/// moved), or `short_endgame_moves` / `long_endgame_moves` moves of each
/// side after the endgame material of the rule arose.
#[pyclass(module = "tempo", frozen, get_all)]
#[derive(Clone)]
pub struct DrawClocks {
    /// Plies since the last man move or capture (the king-move count).
    reversible_plies: u32,
    /// Plies since the short-endgame material arose; `None` when the
    /// position is not in that class.
    short_endgame_plies: Option<u32>,
    /// Plies since the long-endgame material arose; `None` when that count
    /// is not running.
    long_endgame_plies: Option<u32>,
    /// How many times the current position has occurred, this time included.
    occurrences: u32,
    /// Plies left before a counting rule draws the game (0: drawn now);
    /// `None` when no counting rule runs.
    plies_until_draw: Option<u32>,
    /// Occurrences of a position that draw the game.
    repetitions: u32,
    /// Moves of each side with kings only that draw the game (0: off).
    king_moves: u32,
    /// Moves of each side in the short endgame that draw it (0: off).
    short_endgame_moves: u32,
    /// Moves of each side in the long endgame that draw it (0: off).
    long_endgame_moves: u32,
}

#[pymethods]
impl DrawClocks {
    fn __repr__(&self) -> String {
        let opt = |v: Option<u32>| v.map_or("None".to_string(), |v| v.to_string());
        format!(
            "DrawClocks(reversible_plies={}, short_endgame_plies={}, long_endgame_plies={}, occurrences={}, plies_until_draw={})",
            self.reversible_plies,
            opt(self.short_endgame_plies),
            opt(self.long_endgame_plies),
            self.occurrences,
            opt(self.plies_until_draw)
        )
    }
}

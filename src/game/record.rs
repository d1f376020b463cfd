//! `Game<R>`: a game record (start position and moves) with the positions
//! and draw clocks after each move, and the game's result under the draw
//! rules of its `DrawSettings`.
//!
//! At each position the first check that applies decides:
//! 1. the side to move has no legal move: it has lost (FMJD art. 7.2.2-3),
//!    so a win on the last move a draw rule allows is a win;
//! 2. the position has occurred `repetitions` times: a draw;
//! 3. the endgame and king-move clocks (`DrawClocks::verdict`): a draw.
//!
//! The result of a game is the one of the first position at which it was
//! over. Legal moves after a draw by rule are still accepted (another
//! program may count with other thresholds and play on); they do not change
//! the result. Nothing can be played after a win: no legal move exists.
//!
//! Invariants: `positions`, `clocks` and `keys` hold one entry per position
//! of the game, index `i` being the position after `i` moves, so each is one
//! longer than `moves`; every move was legal where it was played; `end`,
//! when set, is the first ply at which the game was over and its result.

use std::fmt;

use crate::rules::draw::{occurrences, DrawClocks, DrawReason, DrawSettings};
use crate::rules::notation::{format_move, parse_move};
use crate::rules::{Goal, Move, MoveStyle, NotationError, Position, Rules, Side};

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser has no pieces left (FMJD art. 7.2.3).
    NoPieces,
    /// The loser has pieces but none can move (FMJD art. 7.2.2).
    Blocked,
    /// Losing draughts: the winner has no pieces left.
    GaveAwayAll,
    /// Losing draughts: the winner has pieces but none can move.
    GotBlocked,
    /// Breakthrough: the winner made the first king.
    FirstKing,
    /// Turkish: the loser is left with one piece against a king ("Damas").
    LonePiece,
}

impl WinReason {
    /// The win in words, for `winner`.
    fn describe(self, winner: Side) -> String {
        let name = |side: Side| match side {
            Side::White => "White",
            Side::Black => "Black",
        };
        let (winner, loser) = (name(winner), name(winner.opponent()));
        match self {
            WinReason::NoPieces | WinReason::Blocked => format!("{loser} has no legal move"),
            WinReason::GaveAwayAll => format!("{winner} has no pieces left (losing draughts)"),
            WinReason::GotBlocked => format!("{winner} has no legal move (losing draughts)"),
            WinReason::FirstKing => format!("{winner} made the first king"),
            WinReason::LonePiece => format!("{loser} has one piece left against a king"),
        }
    }
}

/// The state of a game under the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The game goes on.
    Ongoing,
    /// White has won.
    WhiteWins(WinReason),
    /// Black has won.
    BlackWins(WinReason),
    /// The game is drawn by rule.
    Draw(DrawReason),
}

impl GameResult {
    /// Whether the game is over.
    pub const fn is_over(self) -> bool {
        !matches!(self, GameResult::Ongoing)
    }

    /// The PDN score: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    pub const fn score(self) -> &'static str {
        match self {
            GameResult::Ongoing => "*",
            GameResult::WhiteWins(_) => "1-0",
            GameResult::BlackWins(_) => "0-1",
            GameResult::Draw(_) => "1/2-1/2",
        }
    }

    /// The result in words, for logs and PDN terminations.
    pub fn describe(self) -> String {
        match self {
            GameResult::WhiteWins(why) => why.describe(Side::White),
            GameResult::BlackWins(why) => why.describe(Side::Black),
            GameResult::Draw(reason) => format!("draw by rule: {reason}"),
            GameResult::Ongoing => "unfinished".to_string(),
        }
    }

    /// Why, as `tempo game` prints it: `no-moves` for a win (`first-king`
    /// in Breakthrough, `lone-piece` in Turkish), the draw
    /// reason's name for a draw, `none` while the game goes on.
    pub const fn reason(self) -> &'static str {
        match self {
            GameResult::Ongoing => "none",
            GameResult::WhiteWins(WinReason::FirstKing)
            | GameResult::BlackWins(WinReason::FirstKing) => "first-king",
            GameResult::WhiteWins(WinReason::LonePiece)
            | GameResult::BlackWins(WinReason::LonePiece) => "lone-piece",
            GameResult::WhiteWins(_) | GameResult::BlackWins(_) => "no-moves",
            GameResult::Draw(reason) => reason.name(),
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "result={} reason={}", self.score(), self.reason())
    }
}

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The move is not legal in the current position (Hub notation).
    IllegalMove(String),
    /// A move text could not be read, or is not legal here.
    Notation(NotationError),
    /// A move of a list failed.
    InList {
        /// The 1-based index of the move in the list.
        index: usize,
        /// The move as given.
        text: String,
        /// Why it failed.
        error: NotationError,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::IllegalMove(mv) => write!(f, "{mv} is not a legal move here"),
            GameError::Notation(e) => e.fmt(f),
            GameError::InList { index, text, error } => {
                write!(f, "move {index} '{text}' cannot be played: {error}")
            }
        }
    }
}

impl std::error::Error for GameError {}

impl From<NotationError> for GameError {
    fn from(e: NotationError) -> Self {
        GameError::Notation(e)
    }
}

/// A game of variant `R`: start position, moves, and what follows from them.
#[derive(Clone, Debug)]
pub struct Game<R: Rules> {
    settings: DrawSettings,
    moves: Vec<Move>,
    positions: Vec<Position<R>>,
    clocks: Vec<DrawClocks>,
    keys: Vec<u64>,
    end: Option<(usize, GameResult)>,
}

impl<R: Rules> Game<R> {
    /// A game from `start` under the default draw settings of `R`.
    pub fn new(start: Position<R>) -> Game<R> {
        Game::with_settings(start, DrawSettings::for_variant(R::KIND))
    }

    /// A game from `start` under the given draw settings.
    pub fn with_settings(start: Position<R>, settings: DrawSettings) -> Game<R> {
        let mut game = Game {
            settings,
            moves: Vec::new(),
            positions: vec![start],
            clocks: vec![DrawClocks::start(&start)],
            keys: vec![start.key()],
            end: None,
        };
        game.find_end();
        game
    }

    /// Replays `moves` (whitespace-separated, any notation `parse_move`
    /// reads) from `start` under the default settings of `R`; the error
    /// names the first move that cannot be played and its 1-based index.
    pub fn replay(start: Position<R>, moves: &str) -> Result<Game<R>, GameError> {
        let mut game = Game::new(start);
        game.play_list(moves)?;
        Ok(game)
    }

    /// The draw settings in force.
    pub fn settings(&self) -> &DrawSettings {
        &self.settings
    }

    /// Replaces the draw settings; the result is worked out again over the
    /// whole game.
    pub fn set_settings(&mut self, settings: DrawSettings) {
        self.settings = settings;
        self.find_end();
    }

    /// The start position.
    pub fn start(&self) -> &Position<R> {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position<R> {
        &self.positions[self.moves.len()]
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The draw clocks of the current position.
    pub fn clocks(&self) -> DrawClocks {
        self.clocks[self.moves.len()]
    }

    /// The keys of the positions since the last man move or capture (or
    /// since the start), oldest first, the current position last: the
    /// positions a search must check for repetitions.
    pub fn history_keys(&self) -> &[u64] {
        self.history_at(self.moves.len())
    }

    /// How many times the current position (same side to move) has
    /// occurred, this time included.
    pub fn occurrences(&self) -> u32 {
        occurrences(self.history_keys())
    }

    /// The ply at which the game was over (0 = the start position), if it is.
    pub fn end_ply(&self) -> Option<usize> {
        self.end.map(|(ply, _)| ply)
    }

    /// The result of the game: the one of the first position at which it was
    /// over, or `Ongoing`.
    pub fn result(&self) -> GameResult {
        self.end.map_or(GameResult::Ongoing, |(_, result)| result)
    }

    /// Plays `mv`, which must be one of the legal moves of the current
    /// position.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        let before = *self.position();
        if !before.legal_moves().contains(mv) {
            return Err(GameError::IllegalMove(format_move::<R>(mv, MoveStyle::Hub)));
        }
        self.push(before, mv);
        Ok(())
    }

    /// Reads a move in any notation `parse_move` accepts and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, GameError> {
        let before = *self.position();
        let mv = parse_move(&before, text)?;
        self.push(before, mv);
        Ok(mv)
    }

    /// Plays whitespace-separated moves in order; PDN move numbers (`12.`)
    /// are skipped. On error the moves before the failing one stay played,
    /// and the error names the failing move and its 1-based index among the
    /// moves.
    pub fn play_list(&mut self, moves: &str) -> Result<(), GameError> {
        let texts = moves.split_whitespace().filter(|t| !is_move_number(t));
        for (i, text) in texts.enumerate() {
            let before = *self.position();
            match parse_move(&before, text) {
                Ok(mv) => self.push(before, mv),
                Err(error) => {
                    return Err(GameError::InList {
                        index: i + 1,
                        text: text.to_string(),
                        error,
                    })
                }
            }
        }
        Ok(())
    }

    /// Takes back the last move, if any, and returns it.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.clocks.pop();
        self.keys.pop();
        if self.end.is_some_and(|(ply, _)| ply > self.moves.len()) {
            self.end = None;
        }
        Some(mv)
    }

    /// Appends a legal move and checks whether the game is now over.
    fn push(&mut self, before: Position<R>, mv: Move) {
        let after = before.play(mv);
        let clocks = self.clocks().after(&before, mv, &after);
        self.moves.push(mv);
        self.positions.push(after);
        self.clocks.push(clocks);
        self.keys.push(after.key());
        if self.end.is_none() {
            let ply = self.moves.len();
            let result = self.status_at(ply);
            if result.is_over() {
                self.end = Some((ply, result));
            }
        }
    }

    /// Sets `end` from scratch: the first ply at which the game was over.
    fn find_end(&mut self) {
        self.end = (0..self.positions.len())
            .map(|ply| (ply, self.status_at(ply)))
            .find(|(_, result)| result.is_over());
    }

    /// The state of the position after `ply` moves by itself, ignoring
    /// whether the game was over earlier (checks 1-3 of the module docs).
    fn status_at(&self, ply: usize) -> GameResult {
        let (Some(pos), Some(clocks)) = (self.positions.get(ply), self.clocks.get(ply)) else {
            return GameResult::Ongoing;
        };
        if let Some(winner) = pos.winner() {
            let reason = match R::GOAL {
                Goal::FirstKing if pos.all_kings() != 0 => WinReason::FirstKing,
                _ if pos.lone_piece_loser().is_some() => WinReason::LonePiece,
                Goal::Losing if pos.pieces(winner) == 0 => WinReason::GaveAwayAll,
                Goal::Losing => WinReason::GotBlocked,
                _ if pos.pieces(winner.opponent()) == 0 => WinReason::NoPieces,
                _ => WinReason::Blocked,
            };
            return match winner {
                Side::White => GameResult::WhiteWins(reason),
                Side::Black => GameResult::BlackWins(reason),
            };
        }
        if occurrences(self.history_at(ply)) >= self.settings.repetitions {
            return GameResult::Draw(DrawReason::Repetition);
        }
        clocks
            .verdict(&self.settings)
            .map_or(GameResult::Ongoing, GameResult::Draw)
    }

    /// The keys of the positions from the last irreversible move up to the
    /// position after `ply` moves.
    fn history_at(&self, ply: usize) -> &[u64] {
        let back = self
            .clocks
            .get(ply)
            .map_or(0, |clocks| clocks.reversible_plies() as usize);
        let end = (ply + 1).min(self.keys.len());
        &self.keys[end.saturating_sub(back + 1)..end]
    }
}

/// Whether a token is a PDN move number such as `12.` or `12...`.
fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    digits.len() < token.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

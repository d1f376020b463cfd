//! A game kept: everything a referee needs to keep a game between two players, and
//! nothing of how they think or talk. Both `tempo match` (engines as Hub
//! child processes) and a DXP connection (tempo against a remote program)
//! referee their games with it, and the engine keeps the game it follows in
//! its game record.
//!
//! - `record`: the game record, its draw-rule counters and its result;
//! - `clock`: the time controls and the clock of one side;
//!
//! Moves as square numbers live with the notation in the rules core
//! (`rules::notation::MoveSquares`), the PDN text of a game in `pdn`.
//!
//! It uses the rules core alone; nothing above.

pub mod clock;
pub mod record;

pub use clock::{Clock, TimeControl};
pub use record::{Game, GameError, GameResult, WinReason};

/// The games of each variant, for an [`Erased`](crate::rules::Erased)
/// game: `Of<R> = Game<R>`.
pub struct Games;

impl crate::rules::ByVariant for Games {
    type Of<R: crate::rules::Rules> = Game<R>;
}

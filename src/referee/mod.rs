//! The referee: everything needed to keep a game between two players, and
//! nothing of how they think or talk. Both `tempo match` (engines as Hub
//! child processes) and a DXP connection (tempo against a remote program)
//! referee their games with it, and the engine keeps the game it follows in
//! its game record.
//!
//! - `record`: the game record, its draw-rule counters and its result;
//! - `clock`: the time controls and the clock of one side;
//! - `moves`: moves as square numbers, matched against the legal moves;
//! - `pdn`: the PDN text of a finished game.
//!
//! It uses the rules core, the PDN tables and the search's `Limits` (a
//! clock says how long the next search may take); nothing above.

pub mod clock;
pub mod moves;
pub mod pdn;
pub mod record;

pub use clock::{Clock, TimeControl};
pub use moves::{find_move, squares_of, MoveSquares};
pub use pdn::{game_pdn, GameTags};
pub use record::{Game, GameError, GameResult, WinReason};

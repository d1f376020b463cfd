//! PDN (Portable Draughts Notation), read and written.
//!
//! - `lexer` cuts the text into tag pairs, parentheses and words;
//! - `read`: the games of a text, each as its tags, its main-line move
//!   texts, its variations and its result (text alone, no rules);
//! - `write`: the PDN text of a game given as a start position and legal
//!   moves, so a game refereed by tempo can be reviewed in any draughts
//!   program and read back by tempo.
//!
//! It uses the rules core only (to write moves and positions).

mod lexer;
pub mod read;
pub mod write;

pub use read::{
    game_type, needs_variant_tag, read_games, PdnError, PdnGame, PdnVariation, GAME_TYPES,
    MAX_NESTING,
};
pub use write::{game_pdn, move_text, write_tag, GameTags};

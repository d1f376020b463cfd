//! tempo: a draughts engine for International (10x10), Brazilian (8x8) and
//! seven more draughts variants.
//!
//! Layers, arrows pointing one way:
//! `cli` → `protocol`/`arena`/`analyse` → `engine` → `search` → `eval` → `game` → `rules`,
//! and `engine` → `book` → `rules`.
//! `rules` is the pure rules core and knows nothing of the layers above it;
//! `game` (a game record and its result under the draw rules) sits on it, and
//! so does `pdn` (reading PDN files as text: tags, moves, results);
//! `book` (the opening book, its format and its builder, which is handed
//! the search as a function) uses only `rules`.

pub mod analyse;
pub mod arena;
pub mod book;
pub mod cli;
pub mod dxp;
pub mod engine;
pub mod eval;
pub mod pdn;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod search;
pub mod train;

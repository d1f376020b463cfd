//! tempo: a draughts engine for International (10x10), Brazilian (8x8) and
//! seven more draughts variants.
//!
//! Layers, arrows pointing one way (`tests/layering.rs` enforces them):
//! `cli` → `protocol`/`dxp`/`arena`/`analyse`/`train` → `engine` → `referee`
//! → `search` → `eval` → `rules`, and `engine` → `book` → `rules`.
//! `rules` is the pure rules core and knows nothing of the layers above it;
//! `pdn` (reading PDN files as text: tags, moves, results) and `book` (the
//! opening book, its format and its builder, which is handed the search as
//! a function) use only `rules`. `referee` keeps games (record and result
//! under the draw rules, clocks, moves by squares, the PDN of a game) for
//! the engine, DXP and the match tool; of the search it uses only the
//! limits and the setup of a search. `train` is used by the CLI alone.

pub mod analyse;
pub mod arena;
pub mod book;
pub mod cli;
pub mod dxp;
pub mod egdb;
pub mod engine;
pub mod eval;
pub mod pdn;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod search;
pub mod train;

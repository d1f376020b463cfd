//! tempo: a draughts engine for International (10x10), Brazilian (8x8) and
//! ten more draughts variants.
//!
//! Layers, arrows pointing one way (`tests/layering.rs` enforces them, and
//! fails on a module it has no row for):
//! `cli` → `protocol` (`hub`, `dxp`) / `arena` / `analyse` / `train` →
//! `engine` → `search` → `game` → `rules`; `search` → `eval`, `egdb` →
//! `rules`; `engine` → `book` → `rules`; `pdn` → `rules`.
//! - `rules`: the pure rules core (boards, moves, notation with moves as
//!   square numbers, draw rules, the solved kings-only draws as data,
//!   perft); no global state, no threads, no I/O.
//! - `pdn`: PDN read (games as tags, move texts, results) and written (the
//!   text of a game); `book`: opening books, handed the search as a
//!   function; `eval`, `egdb`: evaluation and endgame tables; `files`:
//!   files written whole or not at all, for every layer that writes one;
//!   `checksum`: the FNV-1a sum of the binary files; `signals`: Ctrl-C
//!   and SIGTERM, and the sections they may not cut short.
//! - `game`: keeping a game (record and result under the draw rules,
//!   clocks) for the engine, DXP and the match tool, which referee with it;
//!   nothing of search.
//! - `search`: takes a game and its `SearchResources` (weights, endgame
//!   tables), loaded by one function from `ResourceSettings`.
//! - `engine`: the one engine API the protocols drive; `arena` plays
//!   engines against each other over Hub (tempo's and Scan 2.0's) and DXP;
//!   `analyse` and `train` are tools over the search (`train` also reads
//!   played games as PDN), used by the CLI; `serve` is the board in the
//!   browser over the engine and `analyse`.

pub mod analyse;
pub mod arena;
pub mod book;
pub mod checksum;
pub mod cli;
pub mod egdb;
pub mod engine;
pub mod eval;
pub mod files;
pub mod game;
pub mod pdn;
pub mod protocol;
pub mod rules;
pub mod search;
#[cfg(feature = "server")]
pub mod serve;
pub mod signals;
#[cfg(feature = "trainer")]
pub mod train;

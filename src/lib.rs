//! tempo: a draughts engine for International (10x10) and Brazilian (8x8)
//! draughts.
//!
//! Layers, arrows pointing one way: `rules` (pure rules core) is used by
//! everything above it and uses nothing of the engine; `game` (a game record
//! and its result under the draw rules) sits on `rules`.

pub mod cli;
pub mod game;
pub mod rules;

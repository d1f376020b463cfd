//! tempo: a draughts engine for International (10x10) and Brazilian (8x8)
//! draughts.
//!
//! Layers, arrows pointing one way:
//! `cli` → `protocol` → `engine` → `search` → `eval` → `rules`.
//! `rules` is the pure rules core and knows nothing of the layers above it.

pub mod cli;
pub mod engine;
pub mod eval;
pub mod protocol;
pub mod rules;
pub mod search;

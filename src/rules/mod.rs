//! The rules core: boards, positions, legal moves, notation, draw rules and
//! perft.
//!
//! Pure: no threads of its own (perft's optional root split aside), no I/O,
//! and no knowledge of search or protocols.

pub mod draw;
pub mod erased;
pub mod geometry;
pub mod movegen;
pub mod mv;
pub mod notation;
pub mod perft;
pub mod position;
pub mod random;
pub mod square;
mod turkish;
pub mod variant;
pub mod zobrist;

pub use crate::with_rules;
pub use draw::{DrawClocks, DrawReason, DrawSettings};
pub use erased::{ByVariant, Erased};
pub use geometry::{Board10, Board8, Board8Full, Board8Mirrored, Dir, Geometry, Ortho};
pub use mv::{Move, MoveList};
pub use notation::{MoveStyle, NotationError};
pub use position::{Piece, Position, PositionError, Side};
pub use square::{Bit, Square};
pub use variant::{
    Brazilian, Breakthrough, CapturePrecedence, English, Frisian, Frysk, Goal, International,
    Italian, Killer, KingRunStore, Losing, LosingBrazilian, PerVariant, Rules, Russian, Turkish,
    VariantKind,
};

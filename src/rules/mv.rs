//! A move: where a piece starts, where it ends and which pieces it takes.
//!
//! A capture is identified by (from, to, set of captured pieces): two capture
//! paths that agree on these three are the same move (the "U" convention of
//! the published perft tables and of the Hub and DXP protocols).

use super::square::{Bit, Bits};

/// One legal move, in internal bits.
///
/// ```text
/// from, to : bit indices of the padded layout (equal for a capture that
///            returns to its start square)
/// captured : bitboard of the pieces taken (0 for a quiet move)
/// crowned  : a man was crowned during the capture and ends it as a king
///            wherever it halts (Russian); false everywhere else, where a
///            man is crowned only by ending its move on the far row
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    from: u8,
    to: u8,
    crowned: bool,
    captured: u64,
}

impl Move {
    /// A move from `from` to `to` taking `captured` (a bitboard).
    #[inline(always)]
    pub const fn new(from: Bit, to: Bit, captured: u64) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
            crowned: false,
            captured,
        }
    }

    /// A capture by a man that is crowned on the way and halts on `to` as a
    /// king (Russian).
    #[inline(always)]
    pub const fn crowning(from: Bit, to: Bit, captured: u64) -> Move {
        Move {
            crowned: true,
            ..Move::new(from, to, captured)
        }
    }

    /// Whether a man was crowned during this capture (Russian); a man that
    /// ends its move on the far row is crowned whatever this says.
    #[inline(always)]
    pub const fn crowned_in_passing(self) -> bool {
        self.crowned
    }

    /// The start bit.
    #[inline(always)]
    pub const fn from(self) -> Bit {
        Bit::new(self.from)
    }

    /// The end bit.
    #[inline(always)]
    pub const fn to(self) -> Bit {
        Bit::new(self.to)
    }

    /// The bitboard of captured pieces.
    #[inline(always)]
    pub const fn captured(self) -> u64 {
        self.captured
    }

    /// The captured bits, lowest first.
    pub fn captured_bits(self) -> Bits {
        Bits(self.captured)
    }

    /// Whether the move takes at least one piece.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.captured != 0
    }

    /// How many pieces the move takes.
    #[inline(always)]
    pub const fn capture_count(self) -> u32 {
        self.captured.count_ones()
    }
}

/// A growable list of moves, meant to be cleared and reused so the hot path
/// does not allocate once it has warmed up.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    moves: Vec<Move>,
}

impl MoveList {
    /// An empty list with room for a typical position's moves.
    pub fn new() -> MoveList {
        MoveList {
            moves: Vec::with_capacity(64),
        }
    }

    /// Empties the list, keeping its storage.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Appends a move.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        self.moves.push(mv);
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the list is empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }

    /// Whether the list holds this move.
    pub fn contains(&self, mv: Move) -> bool {
        self.moves.contains(&mv)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}

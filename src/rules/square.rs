//! Squares in two forms that are never mixed: the 1-based standard number a
//! person reads (`Square`) and the internal bit index of the padded layout
//! (`Bit`). Converting between them needs the geometry (see `geometry.rs`).

use std::fmt;

/// A standard square number: 1..=50 on 10x10, 1..=32 on 8x8.
///
/// Invariant: the number is at least 1 and at most 64; whether it fits a
/// given board is checked where the board is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square with this standard number, `None` for 0 or above 64.
    #[inline]
    pub const fn new(number: u8) -> Option<Square> {
        if number >= 1 && number <= 64 {
            Some(Square(number))
        } else {
            None
        }
    }

    /// The standard number.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// An internal bit index (0..64) of the padded board layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bit(u8);

impl Bit {
    /// The bit with this index (taken modulo 64).
    #[inline(always)]
    pub const fn new(index: u8) -> Bit {
        Bit(index & 63)
    }

    /// The lowest set bit of a non-empty bitboard.
    #[inline(always)]
    pub const fn lowest(bb: u64) -> Bit {
        Bit(bb.trailing_zeros() as u8 & 63)
    }

    /// The highest set bit of a non-empty bitboard.
    #[inline(always)]
    pub const fn highest(bb: u64) -> Bit {
        Bit(63 - (bb.leading_zeros() as u8 & 63))
    }

    /// The index, 0..64.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The one-bit bitboard of this bit.
    #[inline(always)]
    pub const fn mask(self) -> u64 {
        1u64 << self.0
    }
}

/// Iterates over the set bits of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = Bit;

    #[inline(always)]
    fn next(&mut self) -> Option<Bit> {
        if self.0 == 0 {
            None
        } else {
            let bit = Bit::lowest(self.0);
            self.0 &= self.0 - 1;
            Some(bit)
        }
    }
}

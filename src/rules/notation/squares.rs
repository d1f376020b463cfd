//! Moves as square numbers, and matching a move given that way against the
//! legal moves of a position.
//!
//! A protocol names a move by its start square, end square and captured
//! squares (Hub long form `32x23x28`, a DXP MOVE message); the rules core
//! names it by bits of its board. A move given as squares is played only if
//! it is exactly one legal move: the same start, end and set of captured
//! squares, so two captures with the same ends but other pieces taken are
//! never confused.

use std::fmt;

use crate::rules::{Geometry, Move, Position, Rules, Square};

/// A move written as standard square numbers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveSquares {
    /// Start square.
    pub from: u8,
    /// End square.
    pub to: u8,
    /// Captured squares, in increasing order.
    pub captured: Vec<u8>,
}

impl fmt::Display for MoveSquares {
    /// Hub form: `32-28`, or `from x to x captured...` for a capture.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.captured.is_empty() {
            return write!(f, "{}-{}", self.from, self.to);
        }
        write!(f, "{}x{}", self.from, self.to)?;
        for sq in &self.captured {
            write!(f, "x{sq}")?;
        }
        Ok(())
    }
}

/// The square numbers of a move of variant `R`, captured squares sorted.
pub fn squares_of<R: Rules>(mv: Move) -> MoveSquares {
    let n = |bit| <R::Geometry as Geometry>::square(bit).map_or(0, |s| s.get());
    let mut captured: Vec<u8> = mv.captured_bits().map(n).collect();
    captured.sort_unstable();
    MoveSquares {
        from: n(mv.from()),
        to: n(mv.to()),
        captured,
    }
}

/// The legal move of `pos` with exactly these squares (in any order of the
/// captured ones), if there is one. A square off the board, a captured
/// square named twice or a move that is not legal gives `None`.
pub fn find_move<R: Rules>(pos: &Position<R>, squares: &MoveSquares) -> Option<Move> {
    let bit = |n: u8| {
        Square::new(n)
            .filter(|_| u32::from(n) <= <R::Geometry as Geometry>::SQUARES)
            .map(<R::Geometry as Geometry>::bit)
    };
    let (from, to) = (bit(squares.from)?, bit(squares.to)?);
    let mut mask = 0u64;
    for &n in &squares.captured {
        mask |= bit(n)?.mask();
    }
    pos.legal_moves().iter().copied().find(|m| {
        m.from() == from
            && m.to() == to
            && m.captured() == mask
            && m.capture_count() as usize == squares.captured.len()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;
    use crate::rules::{Brazilian, International};

    fn sq(from: u8, to: u8, captured: &[u8]) -> MoveSquares {
        MoveSquares {
            from,
            to,
            captured: captured.to_vec(),
        }
    }

    #[test]
    fn moves_are_found_by_their_exact_captures() {
        // The man on 28 takes 23 (landing on 19) or 22 (landing on 17).
        let pos: Position<International> = parse_fen("W:W28:B22,23").unwrap();
        let take_23 = find_move(&pos, &sq(28, 19, &[23])).expect("28x19 is legal");
        assert_eq!(squares_of::<International>(take_23), sq(28, 19, &[23]));
        let take_22 = find_move(&pos, &sq(28, 17, &[22])).expect("28x17 is legal");
        assert_ne!(take_22, take_23);
        assert_eq!(find_move(&pos, &sq(28, 19, &[22])), None);
        assert_eq!(find_move(&pos, &sq(28, 19, &[])), None);
        assert_eq!(find_move(&pos, &sq(28, 19, &[23, 23])), None);
        assert_eq!(find_move(&pos, &sq(28, 23, &[])), None);
        assert_eq!(find_move(&pos, &sq(0, 19, &[23])), None);
        assert_eq!(find_move(&pos, &sq(28, 51, &[23])), None);
    }

    #[test]
    fn squares_follow_the_board_of_the_variant() {
        let pos = Position::<Brazilian>::start();
        let moves = pos.legal_moves();
        for &mv in moves.iter() {
            let squares = squares_of::<Brazilian>(mv);
            assert!(squares.from >= 21 && squares.from <= 24, "{squares}");
            assert_eq!(find_move(&pos, &squares), Some(mv));
        }
        assert_eq!(find_move(&pos, &sq(21, 33, &[])), None);
    }

    #[test]
    fn squares_print_in_hub_form() {
        assert_eq!(sq(32, 28, &[]).to_string(), "32-28");
        assert_eq!(sq(28, 19, &[23]).to_string(), "28x19x23");
    }
}

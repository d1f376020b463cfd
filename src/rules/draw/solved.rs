//! The solved endings with kings only and at most three pieces (K v K,
//! 2K v K, K v 2K): `SolvedDraws`, one table of one variant, built with the
//! real move generator. It is plain data: whoever searches builds it (or
//! keeps one built) and hands it on; nothing here is global.
//!
//! Values are for the side to move: won, lost, or drawn (neither side can
//! force a win however many moves are played). Building:
//! 1. every position of these endings is listed, each side to move;
//! 2. passes over the list repeat until one changes nothing: a position
//!    with a move that takes the last enemy piece or leads to a lost
//!    position is won; one whose every move leads to a won position is lost
//!    (so is one with no move at all);
//! 3. what is still open is drawn: by the rules it can only end in a draw.
//!
//! Invariants: a move from these endings leads into these endings (kings do
//! not promote and captures only shrink the material), so every child has a
//! value; should one not have, its parent is marked unknown, never drawn.
//! A table knows its variant and answers "unknown" for a position of any
//! other.

use super::super::geometry::Geometry;
use super::super::movegen::generate;
use super::super::mv::MoveList;
use super::super::position::{Piece, Position, Side};
use super::super::square::{Bits, Square};
use super::super::variant::{Goal, Rules, VariantKind};

/// Neither side can force a win (also the value of slots no position uses).
const DRAW: u8 = 0;
/// The side to move wins.
const WIN: u8 = 1;
/// The side to move loses.
const LOSS: u8 = 2;
/// A child fell outside the table (see the invariants); never reported.
const UNKNOWN: u8 = 3;

/// The solved kings-only endings of one variant: whether a position of
/// them is drawn whatever is played (see [`SolvedDraws::is_draw`]).
#[derive(Clone, Debug)]
pub struct SolvedDraws {
    /// The variant solved.
    kind: VariantKind,
    /// Values by [`index`]; empty for a variant whose goal is not normal.
    values: Vec<u8>,
}

impl SolvedDraws {
    /// Solves the endings of `R` (about 0.4 s for 10x10 and 0.1 s for 8x8,
    /// optimised). Variants whose goal is not the normal one (losing,
    /// breakthrough) get an empty table: every answer "unknown".
    pub fn build<R: Rules>() -> SolvedDraws {
        SolvedDraws {
            kind: R::KIND,
            values: if R::GOAL == Goal::Normal {
                build::<R>()
            } else {
                Vec::new()
            },
        }
    }

    /// The variant whose endings these are.
    pub fn kind(&self) -> VariantKind {
        self.kind
    }

    /// Whether `pos` is a solved draw: false for any position outside these
    /// endings, and for a position of another variant than the table's.
    /// The material test comes first, so other positions cost a few
    /// instructions.
    #[inline]
    pub fn is_draw<R: Rules>(&self, pos: &Position<R>) -> bool {
        if pos.occupied().count_ones() > 3 || R::KIND != self.kind {
            return false;
        }
        match index(pos) {
            Some(slot) => self.values.get(slot) == Some(&DRAW),
            None => false,
        }
    }
}

/// Bit indices span `0..span`: one past the highest playable bit.
fn span<R: Rules>() -> usize {
    (64 - <R::Geometry as Geometry>::BOARD.leading_zeros()) as usize
}

/// The slot of a kings-only position with one or two kings a side and at
/// most three pieces, `None` for any other position.
///
/// ```text
/// slot = (((material * span + x0) * span + x1) * span + x2) * 2 + black_to_move
/// material: 0 = K v K, 1 = 2K v K, 2 = K v 2K
/// x0, x1, x2: bit indices, white's pieces first, each side ascending
///             (x2 = 0 for K v K)
/// ```
fn index<R: Rules>(pos: &Position<R>) -> Option<usize> {
    if pos.occupied() & !pos.all_kings() != 0 {
        return None;
    }
    let white = pos.pieces(Side::White);
    let black = pos.pieces(Side::Black);
    let material = match (white.count_ones(), black.count_ones()) {
        (1, 1) => 0,
        (2, 1) => 1,
        (1, 2) => 2,
        _ => return None,
    };
    let span = span::<R>();
    let mut slot = Bits(white)
        .chain(Bits(black))
        .fold(material, |slot, bit| slot * span + bit.index());
    if material == 0 {
        slot *= span;
    }
    Some(slot * 2 + usize::from(pos.side_to_move() == Side::Black))
}

/// Every position of these endings, each side to move.
fn positions<R: Rules>() -> Vec<Position<R>> {
    let squares: Vec<Square> = (1..=<R::Geometry as Geometry>::SQUARES)
        .filter_map(|n| u8::try_from(n).ok().and_then(Square::new))
        .collect();
    let white = Piece::King(Side::White);
    let black = Piece::King(Side::Black);
    let mut sets: Vec<Vec<(Square, Piece)>> = Vec::new();
    for (i, &a) in squares.iter().enumerate() {
        for (j, &b) in squares.iter().enumerate() {
            if a == b {
                continue;
            }
            sets.push(vec![(a, white), (b, black)]);
            if j > i {
                for &c in squares.iter().filter(|&&c| c != a && c != b) {
                    sets.push(vec![(a, white), (b, white), (c, black)]);
                    sets.push(vec![(c, white), (a, black), (b, black)]);
                }
            }
        }
    }
    sets.iter()
        .flat_map(|set| [Side::White, Side::Black].map(|side| Position::new(set, side)))
        .filter_map(Result::ok)
        .collect()
}

/// Solves the endings of `R` (steps 1-3 of the module documentation).
fn build<R: Rules>() -> Vec<u8> {
    let span = span::<R>();
    let mut values = vec![DRAW; 3 * span * span * span * 2];
    let open: Vec<(usize, Position<R>)> = positions::<R>()
        .into_iter()
        .filter_map(|pos| Some((index(&pos)?, pos)))
        .collect();
    let mut list = MoveList::new();
    let mut changed = true;
    while changed {
        changed = false;
        for (slot, pos) in &open {
            if values[*slot] != DRAW {
                continue;
            }
            generate(pos, &mut list);
            let mut value = LOSS;
            for &mv in list.iter() {
                let child = pos.play(mv);
                if child.pieces(child.side_to_move()) == 0 {
                    value = WIN;
                    break;
                }
                match index(&child).and_then(|i| values.get(i).copied()) {
                    Some(LOSS) => {
                        value = WIN;
                        break;
                    }
                    Some(WIN) => {}
                    Some(DRAW) if value == LOSS => value = DRAW,
                    Some(DRAW) => {}
                    _ => value = UNKNOWN,
                }
            }
            if value != DRAW {
                values[*slot] = value;
                changed = true;
            }
        }
    }
    values
}

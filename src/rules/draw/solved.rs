//! The solved endings with kings only and at most three pieces (K v K,
//! 2K v K, K v 2K), one table per variant, built on first use with the real
//! move generator and shared by all threads.
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
//! Each `Rules` type has its own `VariantKind`, hence its own table.

use std::sync::OnceLock;

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

/// One variant's values, indexed by [`index`].
struct Table {
    values: Vec<u8>,
}

/// The tables, one per variant (by [`VariantKind::index`]).
static TABLES: [OnceLock<Table>; VariantKind::ALL.len()] =
    [const { OnceLock::new() }; VariantKind::ALL.len()];

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
fn build<R: Rules>() -> Table {
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
    Table { values }
}

/// Builds the table of `R` if it is not built yet (waiting for a build
/// another thread has begun).
pub(super) fn prepare<R: Rules>() {
    if R::GOAL == Goal::Normal {
        TABLES[R::KIND.index()].get_or_init(build::<R>);
    }
}

/// Whether `pos` is a solved draw; false for any position outside these
/// endings, and for every position while the table of `R` is not built yet:
/// this never builds it and never waits for a build (a search that met a
/// three-piece ending in the first moment of an engine's life used to wait
/// for the build, 0.3-0.5 s, and lose on time at 0.1 s a move). The
/// material test comes first, so other positions cost a few instructions.
pub(super) fn is_draw<R: Rules>(pos: &Position<R>) -> bool {
    // Only where a blocked side loses and kings end nothing: the table's
    // values assume the normal goal.
    if R::GOAL != Goal::Normal || pos.occupied().count_ones() > 3 {
        return false;
    }
    let Some(table) = TABLES[R::KIND.index()].get() else {
        return false;
    };
    match index(pos) {
        Some(slot) => table.values.get(slot) == Some(&DRAW),
        None => false,
    }
}

//! What the 4x6 evaluation adds beside its windows: the stage of the game
//! by the men's steps to crown, and the king terms the windows cannot see
//! (they hold men only).

use crate::rules::square::Bits;
use crate::rules::{Dir, Geometry, Position, Rules, Side};

/// King term: the side has at least one king.
pub const FIRST_KING: usize = 0;
/// King term: each king beyond the first.
pub const EXTRA_KINGS: usize = 1;
/// King term: each square a king can move to where no enemy man can take
/// it at once.
pub const SAFE_MOBILITY: usize = 2;
/// King term: each square a king can move to where an enemy man can take
/// it at once.
pub const EXPOSED_MOBILITY: usize = 3;
/// King term: a king on a square, from its owner's side (square 1 of
/// White's numbering first); one term a square follows this index.
pub const KING_SQUARE: usize = 4;

/// King terms on board `G`: the four above and one a square.
pub const fn king_terms<G: Geometry>() -> usize {
    KING_SQUARE + G::SQUARES as usize
}

/// The men's steps to crown at the start of a game of `R`, both sides.
pub const fn start_steps<R: Rules>() -> u32 {
    let rows = R::Geometry::ROWS;
    let mut steps = 0;
    let mut r = rows - R::START_ROWS;
    while r < rows {
        steps += r;
        r += 1;
    }
    2 * steps * R::Geometry::PER_ROW
}

/// For each side and bit `i` of a step count, the squares from which a man
/// of that side needs a count of steps with bit `i` set.
const fn step_masks<G: Geometry>() -> [[u64; 4]; 2] {
    let mut masks = [[0u64; 4]; 2];
    let mut row = 0;
    while row < G::ROWS {
        let mask = crate::rules::geometry::row_mask(G::PER_ROW, row);
        // White crowns on row 0, Black on the last row.
        let steps = [row, G::ROWS - 1 - row];
        let mut side = 0;
        while side < 2 {
            let mut bit = 0;
            while bit < 4 {
                if steps[side] >> bit & 1 != 0 {
                    masks[side][bit] |= mask;
                }
                bit += 1;
            }
            side += 1;
        }
        row += 1;
    }
    masks
}

/// The steps all men of `pos` still need to crown, at most the start's:
/// the stage of the game (the start's count at the start, 0 once no men
/// are left).
#[inline(always)]
pub fn steps_to_crown<R: Rules>(pos: &Position<R>) -> u32 {
    let masks = const { step_masks::<R::Geometry>() };
    let mut steps = 0;
    for side in [Side::White, Side::Black] {
        let men = pos.men(side);
        for (bit, mask) in masks[side.index()].iter().enumerate() {
            steps += (men & mask).count_ones() << bit;
        }
    }
    steps.min(start_steps::<R>())
}

/// Calls `term(index, value)` for each king term of `pos` that is not 0,
/// from White's view (a term of Black's counts negative; Black's king
/// squares are read with the board turned).
#[inline(always)]
pub fn king_terms_of<R: Rules>(pos: &Position<R>, mut term: impl FnMut(usize, i32)) {
    let empty = pos.empty_squares();
    for (side, sign) in [(Side::White, 1), (Side::Black, -1)] {
        let kings = pos.kings(side);
        if kings == 0 {
            continue;
        }
        let count = kings.count_ones() as i32;
        term(FIRST_KING, sign);
        if count > 1 {
            term(EXTRA_KINGS, sign * (count - 1));
        }
        // A square an enemy man could take a king on: the man beside it
        // and the square beyond empty (or the king's own, left behind).
        let enemy = pos.men(side.opponent());
        let landing = empty | kings;
        let mut exposed = 0u64;
        for d in Dir::ALL {
            exposed |= R::Geometry::step(enemy, d) & R::Geometry::step(landing, d.reverse());
        }
        let (mut safe, mut unsafe_) = (0, 0);
        for king in Bits(kings) {
            let mut reach = 0u64;
            for d in Dir::ALL {
                reach |= if R::FLYING_KINGS {
                    R::Geometry::ray_walk(king.mask(), d, empty).0
                } else {
                    R::Geometry::step(king.mask(), d) & empty
                };
            }
            unsafe_ += (reach & exposed).count_ones() as i32;
            safe += (reach & !exposed).count_ones() as i32;
            let bit = king.index() as u32;
            let square = bit - bit / (2 * R::Geometry::PER_ROW + 1);
            let own_view = match side {
                Side::White => square,
                Side::Black => R::Geometry::SQUARES - 1 - square,
            };
            term(KING_SQUARE + own_view as usize, sign);
        }
        if safe != 0 {
            term(SAFE_MOBILITY, sign * safe);
        }
        if unsafe_ != 0 {
            term(EXPOSED_MOBILITY, sign * unsafe_);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;
    use crate::rules::{Brazilian, International};

    #[test]
    fn the_stage_counts_the_steps_to_crown() {
        assert_eq!(start_steps::<International>(), 300);
        assert_eq!(start_steps::<Brazilian>(), 144);
        let start = Position::<International>::start();
        assert_eq!(steps_to_crown(&start), 300);
        // A white man on 6 needs one step, a black one on 45 one step; a
        // white man on 46 needs nine; kings need none.
        let pos = parse_fen::<International>("W:W6,46,K1:B45,K50").unwrap();
        assert_eq!(steps_to_crown(&pos), 1 + 9 + 1);
        assert_eq!(steps_to_crown(&Position::<Brazilian>::start()), 144);
    }

    fn terms<R: Rules>(fen: &str) -> Vec<(usize, i32)> {
        let pos = parse_fen::<R>(fen).unwrap();
        let mut out = Vec::new();
        king_terms_of(&pos, |i, v| out.push((i, v)));
        out.sort();
        out
    }

    #[test]
    fn king_terms_see_first_and_extra_kings_squares_and_exposed_moves() {
        assert!(terms::<International>("W:W31,32:B18,19").is_empty());
        // Kings on 1 and 50 each reach nine squares, none exposed; Black's
        // king on 50 stands on White's square 1 turned.
        assert_eq!(
            terms::<International>("W:WK1:BK50"),
            vec![
                (FIRST_KING, -1),
                (FIRST_KING, 1),
                (SAFE_MOBILITY, -9),
                (SAFE_MOBILITY, 9),
                (KING_SQUARE, -1),
                (KING_SQUARE, 1)
            ]
        );
        // The man on 18 stops the king on 1 at 12, and could take a king
        // on 12 (landing on 7) or on 23 (landing on 29): the king on 1
        // reaches 6, 7 and 12 (one exposed), the one on 46 the long
        // diagonal up to 5 (23 exposed).
        assert_eq!(
            terms::<International>("W:WK1,K46:B18"),
            vec![
                (FIRST_KING, 1),
                (EXTRA_KINGS, 1),
                (SAFE_MOBILITY, 10),
                (EXPOSED_MOBILITY, 2),
                (KING_SQUARE, 1),
                (KING_SQUARE + 45, 1)
            ]
        );
    }
}

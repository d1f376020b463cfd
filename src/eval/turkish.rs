//! The evaluation of Turkish draughts (`Rules::ORTHOGONAL_MOVES`), whose
//! men move straight forward and sideways on all 64 squares: none of the
//! diagonal hand terms apply. It counts material, how far the men have
//! come, men one step from the far row with the way open, and the kings'
//! reach along rows and files (in hundredths of a man, from White's view).

use crate::rules::square::Bits;
use crate::rules::{Geometry, Ortho, Position, Rules, Side};

/// A king: it flies along rows and files and takes from afar.
const KING: i32 = 300;
/// A man.
const MAN: i32 = 100;
/// A man's bonus by the rows it has come from its own back row (0..=6; row 7
/// is the far row, where it is a king).
const ADVANCE: [i32; 8] = [0, 0, 3, 7, 12, 20, 32, 0];
/// A man on the row before the far row whose square ahead is empty.
const OPEN_PROMOTION: i32 = 40;
/// Each empty square a king reaches.
const KING_REACH: i32 = 2;

/// The score of `pos` from White's view.
pub(super) fn white_score<R: Rules>(pos: &Position<R>) -> i32 {
    side_score(pos, Side::White) - side_score(pos, Side::Black)
}

/// What `side` has on the board.
fn side_score<R: Rules>(pos: &Position<R>, side: Side) -> i32 {
    let men = pos.men(side);
    let kings = pos.kings(side);
    let mut score = MAN * men.count_ones() as i32 + KING * kings.count_ones() as i32;
    let rows = <R::Geometry as Geometry>::ROWS;
    for row in 0..rows {
        // Rows from the side's own back row.
        let board_row = match side {
            Side::White => rows - 1 - row,
            Side::Black => row,
        };
        let on_row = men & <R::Geometry as Geometry>::row_bits(board_row);
        score += ADVANCE[row as usize] * on_row.count_ones() as i32;
    }
    let forward = match side {
        Side::White => Ortho::Up,
        Side::Black => Ortho::Down,
    };
    let near = men
        & <R::Geometry as Geometry>::ortho_step(
            Position::<R>::promotion_row(side),
            forward.reverse(),
        );
    let open = <R::Geometry as Geometry>::ortho_step(near, forward) & pos.empty_squares();
    score += OPEN_PROMOTION * open.count_ones() as i32;
    let empty = pos.empty_squares();
    let reach: u32 = Bits(kings)
        .map(|king| {
            Ortho::ALL
                .into_iter()
                .map(|d| {
                    <R::Geometry as Geometry>::ortho_ray_walk(king.mask(), d, empty)
                        .0
                        .count_ones()
                })
                .sum::<u32>()
        })
        .sum();
    score + KING_REACH * reach as i32
}

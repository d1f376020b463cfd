//! The hand terms of the evaluation beyond the per-square sums: king
//! values, exchanges while ahead, drawish endings, back rank, balance,
//! runaways, safe moves, structure and chains, king mobility, and the
//! scores of Losing draughts.

use super::regions::{own_row, Regions};
use super::table::EvalTable;
use super::weights::Weights;
use crate::rules::square::Bits;
use crate::rules::{Geometry, Position, Rules, Side};

/// The value of a king in `R`: flying or short.
#[inline(always)]
fn king_value<R: Rules>(w: &Weights) -> i32 {
    if R::FLYING_KINGS {
        w.king
    } else {
        w.short_king
    }
}

/// The White-view bonus for exchanging while ahead: the material lead
/// times `simplify`, growing with the number of pieces off the board.
#[inline(always)]
pub(super) fn simplify_bonus<R: Rules>(pos: &Position<R>, w: &Weights) -> i32 {
    let king = king_value::<R>(w);
    let material = |side| {
        w.man * pos.men(side).count_ones() as i32 + king * pos.kings(side).count_ones() as i32
    };
    let lead = material(Side::White) - material(Side::Black);
    let start = (2 * R::START_ROWS * R::Geometry::PER_ROW) as i32;
    let off = (start - pos.occupied().count_ones() as i32).max(0);
    lead * off * w.simplify / (100 * start)
}

/// Scales a White-view score toward 0 where the material is mostly drawn
/// under the draw rules: the side ahead has at most three pieces (or at most
/// one more piece than the other), at most `drawish_pieces` pieces are left,
/// and the side behind has a king, which holds most such endings (within the
/// 5- and 10-move limits when few pieces are left).
#[inline(always)]
pub(super) fn drawish_scale<R: Rules>(pos: &Position<R>, score: i32, w: &Weights) -> i32 {
    let (strong, weak) = if score >= 0 {
        (Side::White, Side::Black)
    } else {
        (Side::Black, Side::White)
    };
    if pos.kings(weak) == 0 {
        return score;
    }
    let strong_n = pos.pieces(strong).count_ones();
    let weak_n = pos.pieces(weak).count_ones();
    if (strong_n + weak_n) as i32 <= w.drawish_pieces && (strong_n <= 3 || strong_n <= weak_n + 1) {
        score * w.drawish_percent / 100
    } else {
        score
    }
}

#[inline(always)]
pub(super) fn side_score<R: Rules>(pos: &Position<R>, side: Side, t: &EvalTable) -> i32 {
    let w = &t.weights;
    let men = pos.men(side);
    let kings = pos.kings(side);
    let total = pos.occupied().count_ones() as i32;
    let king = king_value::<R>(w);
    let mut s = king * kings.count_ones() as i32;
    if men != 0 {
        let start = 2 * R::START_ROWS * R::Geometry::PER_ROW;
        s += t.men_value::<R::Geometry>(men, side, total as u32, start);
        let back = (men & own_row::<R::Geometry>(side, 0)).count_ones() as i32;
        s += w.back_rank * back * total / (2 * R::START_ROWS * R::Geometry::PER_ROW) as i32;
        let left = (men & R::Geometry::LEFT).count_ones() as i32;
        let right = (men & R::Geometry::RIGHT).count_ones() as i32;
        s -= w.balance * (left - right).abs();
        s += runaways::<R>(pos, side, w);
        s += w.mobility * safe_man_moves::<R>(pos, side) as i32;
        s += structure::<R>(pos, side, w);
    }
    if kings != 0 && pos.kings(side.opponent()) == 0 {
        s += w.sole_king;
    }
    if kings != 0 && total <= 12 {
        let empty = pos.empty_squares();
        let mut reach = 0u64;
        for king in crate::rules::square::Bits(kings) {
            for d in crate::rules::Dir::ALL {
                reach |= R::Geometry::ray_walk(king.mask(), d, empty).0;
            }
        }
        s += w.king_mobility * reach.count_ones() as i32;
    }
    s
}

/// A side's score in Losing draughts: every piece it still has, and every
/// quiet move it could make, counts against it.
#[inline(always)]
pub(super) fn losing_score<R: Rules>(pos: &Position<R>, side: Side, w: &Weights) -> i32 {
    use crate::rules::Dir;
    let men = pos.men(side);
    let kings = pos.kings(side);
    let empty = pos.empty_squares();
    let [l, r] = side.forward();
    let man_moves = (R::Geometry::step(men, l) & empty).count_ones()
        + (R::Geometry::step(men, r) & empty).count_ones();
    let mut king_moves = 0;
    for d in Dir::ALL {
        king_moves += (R::Geometry::step(kings, d) & empty).count_ones();
    }
    -(w.losing_man * men.count_ones() as i32
        + w.losing_king * kings.count_ones() as i32
        + w.losing_mobility * (man_moves + king_moves) as i32)
}

/// Forward moves of `side`'s men to squares no enemy man can jump at once
/// (an enemy man beside the square with an empty square beyond it).
#[inline(always)]
fn safe_man_moves<R: Rules>(pos: &Position<R>, side: Side) -> u32 {
    use crate::rules::Dir;
    let empty = pos.empty_squares();
    let enemy = pos.men(side.opponent());
    let mut attacked = 0u64;
    for d in Dir::ALL {
        attacked |= R::Geometry::step(enemy, d) & R::Geometry::step(empty, d.reverse());
    }
    let [l, r] = side.forward();
    let men = pos.men(side);
    let safe = empty & !attacked;
    (R::Geometry::step(men, l) & safe).count_ones()
        + (R::Geometry::step(men, r) & safe).count_ones()
}

/// Men covered behind on both sides (`support`) and men without any own
/// neighbour (`lone`).
#[inline(always)]
fn structure<R: Rules>(pos: &Position<R>, side: Side, w: &Weights) -> i32 {
    use crate::rules::Dir;
    let own = pos.pieces(side);
    let men = pos.men(side);
    // A man's back-left square is covered when it holds an own piece or is
    // off the board; seen from that square, the man is one step forward.
    let [fl, fr] = side.forward();
    let board = R::Geometry::BOARD;
    let covered_from = |d| R::Geometry::step(own, d) | !R::Geometry::step(board, d);
    let supported = men & covered_from(fl) & covered_from(fr);
    let mut near = 0u64;
    for d in Dir::ALL {
        near |= R::Geometry::step(own, d);
    }
    let lone = men & !near;
    w.support * supported.count_ones() as i32 - w.lone * lone.count_ones() as i32
}

/// The runaway bonus of a side: for each man whose whole forward cone (every
/// square it could pass on its way to the far row) holds no enemy piece,
/// `runaway - runaway_step * moves to promotion`. Nothing while the enemy
/// has a king, which can usually catch a lone man.
///
/// Only men near enough to the far row to earn a bonus are looked at (most
/// positions have none), each with its cone from a table.
#[inline(always)]
fn runaways<R: Rules>(pos: &Position<R>, side: Side, w: &Weights) -> i32 {
    let enemy = pos.pieces(side.opponent());
    if enemy & pos.all_kings() != 0 {
        return 0;
    }
    let cones = &<R::Geometry as Regions>::FORWARD_CONES[side.index()];
    let rows = <R::Geometry as Regions>::ROW_OF_BIT;
    let mut bonus = 0;
    for man in Bits(pos.men(side) & runaway_rows::<R::Geometry>(side, w)) {
        if cones[man.index()] & enemy == 0 {
            let row = rows[man.index()] as u32;
            let moves = match side {
                Side::White => row,
                Side::Black => R::Geometry::ROWS - 1 - row,
            };
            bonus += (w.runaway - w.runaway_step * moves as i32).max(0);
        }
    }
    bonus
}

/// The rows (seen from `side`) where a runaway man earns a bonus: those
/// fewer than `runaway / runaway_step` moves from the far row.
#[inline(always)]
fn runaway_rows<G: Geometry>(side: Side, w: &Weights) -> u64 {
    let mut rows = 0;
    for a in 0..G::ROWS - 1 {
        if w.runaway - w.runaway_step * (G::ROWS - 1 - a) as i32 > 0 {
            rows |= own_row::<G>(side, a);
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate_hand_with, WEIGHTS, WEIGHTS_8X8};
    use crate::rules::notation::parse_fen;
    use crate::rules::{Brazilian, International};

    #[test]
    fn a_man_with_a_free_cone_is_a_runaway_and_a_blocked_one_is_not() {
        // White man on 18 (3 moves from the far row), Black men far away on
        // the other wing: free. With a black man on 7 in its cone: blocked.
        let free = parse_fen::<International>("W:W18:B35,40").unwrap();
        let blocked = parse_fen::<International>("W:W18:B7,40").unwrap();
        assert_eq!(
            runaways(&free, Side::White, &WEIGHTS),
            WEIGHTS.runaway - 3 * WEIGHTS.runaway_step
        );
        assert_eq!(runaways(&blocked, Side::White, &WEIGHTS), 0);
        // An enemy king can catch it: no bonus.
        let king = parse_fen::<International>("W:W18:BK45").unwrap();
        assert_eq!(runaways(&king, Side::White, &WEIGHTS), 0);
        // Black's view mirrors White's.
        let black = parse_fen::<International>("B:W11,16:B33").unwrap();
        assert_eq!(
            runaways(&black, Side::Black, &WEIGHTS),
            WEIGHTS.runaway - 3 * WEIGHTS.runaway_step
        );
    }

    #[test]
    fn endings_the_side_behind_holds_with_a_king_are_scaled_toward_a_draw() {
        use crate::rules::{Board10, Board8};
        fn both<R: Rules, G: crate::rules::Geometry>(fen: &str, w: Weights) -> (i32, i32) {
            let pos = parse_fen::<R>(fen).unwrap();
            let unscaled = Weights {
                drawish_percent: 100,
                ..w
            };
            (
                evaluate_hand_with(&pos, &EvalTable::of::<G>(w)),
                evaluate_hand_with(&pos, &EvalTable::of::<G>(unscaled)),
            )
        }
        let scaled_by = |(scaled, unscaled): (i32, i32), percent: i32| {
            assert_eq!(
                scaled,
                unscaled * percent / 100,
                "{scaled} against {unscaled}"
            )
        };
        // Three kings against a lone king; two men and a king against a man
        // and a king.
        let three_kings = both::<International, Board10>("W:WK28,K33,K38:BK3", WEIGHTS);
        scaled_by(three_kings, WEIGHTS.drawish_percent);
        let men_and_kings = both::<International, Board10>("W:WK5,28:B7,K9,19", WEIGHTS);
        assert!(
            men_and_kings.1 < -50,
            "Black is a man up: {men_and_kings:?}"
        );
        scaled_by(men_and_kings, WEIGHTS.drawish_percent);
        // Without a king the side behind is not holding: no scaling.
        let no_king = both::<International, Board10>("W:W28:B7,K9,19", WEIGHTS);
        assert_eq!(no_king.0, no_king.1);
        // Nine pieces are past the limit of six, on either board: four men
        // and a king against three and a king.
        let many = both::<International, Board10>("W:WK5,16,25,28:B1,7,K9,19,35", WEIGHTS);
        assert_eq!(many.0, many.1);
        let brazilian = both::<Brazilian, Board8>("W:WK1,13,14,22:B16,19,K20,24,28", WEIGHTS_8X8);
        assert_eq!(brazilian.0, brazilian.1);
        let few = both::<Brazilian, Board8>("W:WK1,K13:BK20,24,28", WEIGHTS_8X8);
        scaled_by(few, WEIGHTS_8X8.drawish_percent);
    }

    #[test]
    fn supported_and_lone_men() {
        let w = Weights {
            support: 1,
            lone: 1,
            ..WEIGHTS
        };
        // White 28 with 32 and 33 behind it: supported; 32, 33 on row 3
        // have 37/38 and 38/39 empty behind: not. Black 18 alone.
        let pos = parse_fen::<International>("W:W28,32,33:B18").unwrap();
        assert_eq!(structure(&pos, Side::White, &w), 1);
        assert_eq!(structure(&pos, Side::Black, &w), -1);
        // Back-row men are covered by the edge, and a man on the side file
        // by the edge and the piece behind it (36 by 41); 41 has 46 empty.
        let edge = parse_fen::<International>("W:W36,41,47:B5").unwrap();
        assert_eq!(structure(&edge, Side::White, &w), 2);
    }

    /// The runaway bonus worked out man by man: each man's forward cone
    /// walked row by row, looked at for enemy pieces.
    fn runaways_one_by_one<R: Rules>(pos: &Position<R>, side: Side, w: &Weights) -> i32 {
        let enemy = pos.pieces(side.opponent());
        if enemy & pos.all_kings() != 0 {
            return 0;
        }
        let rows = R::Geometry::ROWS;
        let [l, r] = side.forward();
        let mut bonus = 0;
        for a in 0..rows - 1 {
            for man in crate::rules::square::Bits(pos.men(side) & own_row::<R::Geometry>(side, a)) {
                let (mut cone, mut front) = (0, man.mask());
                while front != 0 {
                    front = (R::Geometry::step(front, l) | R::Geometry::step(front, r))
                        & R::Geometry::BOARD;
                    cone |= front;
                }
                if cone & enemy == 0 {
                    bonus += (w.runaway - w.runaway_step * (rows - 1 - a) as i32).max(0);
                }
            }
        }
        bonus
    }

    /// Plays seeded random games and checks every position's runaway bonus
    /// against the man-by-man count; returns how many positions had one.
    fn runaways_agree_in_random_games<R: Rules>(w: &Weights) -> usize {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut with_bonus = 0;
        for _ in 0..200 {
            let mut pos = Position::<R>::start();
            for _ in 0..150 {
                for side in [Side::White, Side::Black] {
                    let bonus = runaways(&pos, side, w);
                    assert_eq!(bonus, runaways_one_by_one(&pos, side, w), "{side:?}");
                    with_bonus += usize::from(bonus != 0);
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play(moves.as_slice()[(seed % moves.len() as u64) as usize]);
            }
        }
        with_bonus
    }

    #[test]
    fn the_runaway_cones_find_what_a_man_by_man_walk_finds() {
        assert!(runaways_agree_in_random_games::<International>(&WEIGHTS) > 100);
        assert!(runaways_agree_in_random_games::<Brazilian>(&WEIGHTS_8X8) > 100);
        // A bonus that reaches every row.
        let far = Weights {
            runaway_step: 1,
            ..WEIGHTS
        };
        assert!(runaways_agree_in_random_games::<International>(&far) > 100);
    }
}

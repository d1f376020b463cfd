//! Static evaluation of a position, in hundredths of a man, from the view of
//! the side to move. Depends only on the rules core.
//!
//! All weights sit in one table, `Weights`, so a tuning run can fit them to
//! game results. Features are computed with popcounts over region masks of
//! the board, so evaluating costs a few dozen instructions.

use crate::rules::{Geometry, Goal, Position, Rules, Side};

/// Every weight of the evaluation, in hundredths of a man.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Value of a man.
    pub man: i32,
    /// Value of a flying king.
    pub king: i32,
    /// Value of a king that moves one square (English, Italian).
    pub short_king: i32,
    /// Losing draughts: the cost of keeping a man (a side wants to lose its
    /// pieces, so every piece counts against it).
    pub losing_man: i32,
    /// Losing draughts: the cost of keeping a king (hard to give away).
    pub losing_king: i32,
    /// Losing draughts: the cost of each legal quiet move a side has (fewer
    /// moves bring it nearer to being blocked, which wins).
    pub losing_mobility: i32,
    /// Bonus per man by rows advanced from its own back row (index 0 = back row).
    pub advance: [i32; 10],
    /// Bonus per man on the central squares.
    pub centre: i32,
    /// Bonus per man still on its back row, scaled by how full the board is.
    pub back_rank: i32,
    /// Penalty per man of difference between the left and right halves.
    pub balance: i32,
    /// Bonus per man standing on the outpost squares (24/27 and mirrors on 10x10).
    pub outpost: i32,
    /// Penalty per man on the left or right edge file.
    pub edge: i32,
    /// Bonus per man move to a square where it cannot be taken at once.
    pub mobility: i32,
    /// Percent of the score kept in mostly drawn endings (see `drawish_scale`).
    pub drawish_percent: i32,
    /// Bonus per empty square a king can reach (endgame mobility).
    pub king_mobility: i32,
    /// Bonus for a man with no enemy piece able to stop it from crowning
    /// (less `runaway_step` per move it still needs).
    pub runaway: i32,
    /// See `runaway`.
    pub runaway_step: i32,
}

/// The weights in use.
pub const WEIGHTS: Weights = Weights {
    man: 100,
    king: 320,
    short_king: 150,
    losing_man: 100,
    losing_king: 250,
    losing_mobility: 2,
    advance: [0, 1, 2, 3, 5, 7, 9, 12, 15, 0],
    centre: 4,
    back_rank: 3,
    balance: 2,
    outpost: 3,
    edge: 4,
    mobility: 3,
    drawish_percent: 25,
    king_mobility: 1,
    runaway: 160,
    runaway_step: 12,
};

/// Region masks of a board, derived from its geometry at compile time.
trait Regions: Geometry {
    /// The middle rows and files.
    const CENTRE: u64 = region::<Self>(Self::ROWS / 2 - 2, Self::ROWS / 2 + 1, 2, Self::ROWS - 3);
    /// Files a..(half).
    const LEFT: u64 = region::<Self>(0, Self::ROWS - 1, 0, Self::ROWS / 2 - 1);
    /// Files (half)..end.
    const RIGHT: u64 = region::<Self>(0, Self::ROWS - 1, Self::ROWS / 2, Self::ROWS - 1);
    /// The first and last files.
    const EDGES: u64 = region::<Self>(0, Self::ROWS - 1, 0, 0)
        | region::<Self>(0, Self::ROWS - 1, Self::ROWS - 1, Self::ROWS - 1);
}

impl<G: Geometry> Regions for G {}

/// Bits of the squares with row in `r0..=r1` and file in `f0..=f1`.
const fn region<G: Geometry>(r0: u32, r1: u32, f0: u32, f1: u32) -> u64 {
    let mut mask = 0u64;
    let mut row = r0;
    while row <= r1 {
        let mut file = f0;
        while file <= f1 {
            if !(row + file).is_multiple_of(2) {
                let s = row * G::PER_ROW + file / 2;
                mask |= 1u64 << (s + (s / G::PER_ROW) / 2);
            }
            file += 1;
        }
        row += 1;
    }
    mask
}

/// Bit of standard square `n` (1-based) on geometry `G`.
const fn bit_of<G: Geometry>(n: u32) -> u64 {
    let s = n - 1;
    1u64 << (s + (s / G::PER_ROW) / 2)
}

/// The evaluation of `pos` from the side to move's view.
pub fn evaluate<R: Rules>(pos: &Position<R>) -> i32 {
    let w = &WEIGHTS;
    let score = match R::GOAL {
        Goal::Losing => {
            losing_score::<R>(pos, Side::White, w) - losing_score::<R>(pos, Side::Black, w)
        }
        Goal::Normal | Goal::FirstKing => {
            let white = side_score::<R>(pos, Side::White, w);
            let black = side_score::<R>(pos, Side::Black, w);
            if R::FLYING_KINGS && R::GOAL == Goal::Normal {
                drawish_scale(pos, white - black, w)
            } else {
                white - black
            }
        }
    };
    match pos.side_to_move() {
        Side::White => score,
        Side::Black => -score,
    }
}

/// Endings with at most this many pieces can be scaled by `drawish_scale`.
const DRAWISH_PIECES: u32 = 6;

/// Scales a White-view score toward 0 where the material is mostly drawn
/// under the draw rules: the side ahead has at most three pieces (or at most
/// one more piece than the other), at most six pieces are left, and the side
/// behind has a king, which
/// holds most such endings within the 5- and 10-move limits.
#[inline(always)]
fn drawish_scale<R: Rules>(pos: &Position<R>, score: i32, w: &Weights) -> i32 {
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
    if strong_n + weak_n <= DRAWISH_PIECES && (strong_n <= 3 || strong_n <= weak_n + 1) {
        score * w.drawish_percent / 100
    } else {
        score
    }
}

/// The row index (0 = own back row) seen from `side`, as a row mask.
#[inline(always)]
fn own_row<G: Geometry>(side: Side, advanced: u32) -> u64 {
    let row = match side {
        Side::White => G::ROWS - 1 - advanced,
        Side::Black => advanced,
    };
    crate::rules::geometry::row_mask(G::PER_ROW, row)
}

#[inline(always)]
fn side_score<R: Rules>(pos: &Position<R>, side: Side, w: &Weights) -> i32 {
    let men = pos.men(side);
    let kings = pos.kings(side);
    let total = pos.occupied().count_ones() as i32;
    let king = if R::FLYING_KINGS {
        w.king
    } else {
        w.short_king
    };
    let mut s = w.man * men.count_ones() as i32 + king * kings.count_ones() as i32;
    if men != 0 {
        for a in 1..R::Geometry::ROWS - 1 {
            let n = (men & own_row::<R::Geometry>(side, a)).count_ones() as i32;
            s += n * w.advance[a.min(9) as usize];
        }
        s += w.centre * (men & R::Geometry::CENTRE).count_ones() as i32;
        let back = (men & own_row::<R::Geometry>(side, 0)).count_ones() as i32;
        s += w.back_rank * back * total / (2 * R::START_ROWS * R::Geometry::PER_ROW) as i32;
        let left = (men & R::Geometry::LEFT).count_ones() as i32;
        let right = (men & R::Geometry::RIGHT).count_ones() as i32;
        s -= w.balance * (left - right).abs();
        s += w.outpost * (men & outposts::<R::Geometry>(side)).count_ones() as i32;
        s += runaways::<R>(pos, side, w);
        s -= w.edge * (men & R::Geometry::EDGES).count_ones() as i32;
        s += w.mobility * safe_man_moves::<R>(pos, side) as i32;
    }
    if kings != 0 && total <= 12 {
        let empty = pos.empty_squares();
        let mut reach = 0u64;
        for d in crate::rules::Dir::ALL {
            let mut front = R::Geometry::step(kings, d) & empty;
            while front != 0 {
                reach |= front;
                front = R::Geometry::step(front, d) & empty;
            }
        }
        s += w.king_mobility * reach.count_ones() as i32;
    }
    s
}

/// A side's score in Losing draughts: every piece it still has, and every
/// quiet move it could make, counts against it.
#[inline(always)]
fn losing_score<R: Rules>(pos: &Position<R>, side: Side, w: &Weights) -> i32 {
    use crate::rules::Dir;
    let men = pos.men(side);
    let kings = pos.kings(side);
    let empty = pos.empty_squares();
    let [l, r] = match side {
        Side::White => [Dir::UpLeft, Dir::UpRight],
        Side::Black => [Dir::DownLeft, Dir::DownRight],
    };
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
    let [l, r] = match side {
        Side::White => [Dir::UpLeft, Dir::UpRight],
        Side::Black => [Dir::DownLeft, Dir::DownRight],
    };
    let men = pos.men(side);
    let safe = empty & !attacked;
    (R::Geometry::step(men, l) & safe).count_ones()
        + (R::Geometry::step(men, r) & safe).count_ones()
}

/// The outpost squares of a side: 24 and 27 for White on 10x10 (27 and 24
/// mirrored for Black); the matching centre squares on 8x8.
#[inline(always)]
fn outposts<G: Geometry>(side: Side) -> u64 {
    let (a, b) = if G::SQUARES == 50 { (24, 27) } else { (14, 15) };
    match side {
        Side::White => bit_of::<G>(a) | bit_of::<G>(b),
        Side::Black => bit_of::<G>(G::SQUARES + 1 - a) | bit_of::<G>(G::SQUARES + 1 - b),
    }
}

/// The runaway bonus of a side: for each man whose whole forward cone (every
/// square it could pass on its way to the far row) holds no enemy piece,
/// `runaway - runaway_step * moves to promotion`. Nothing while the enemy
/// has a king, which can usually catch a lone man.
///
/// A man is blocked exactly when it stands in the backward cone of an enemy
/// piece, so one fill backward from all enemy pieces finds every blocked man
/// at once.
#[inline(always)]
fn runaways<R: Rules>(pos: &Position<R>, side: Side, w: &Weights) -> i32 {
    use crate::rules::Dir;
    let enemy = pos.pieces(side.opponent());
    if enemy & pos.all_kings() != 0 {
        return 0;
    }
    let [l, r] = match side {
        Side::White => [Dir::DownLeft, Dir::DownRight],
        Side::Black => [Dir::UpLeft, Dir::UpRight],
    };
    let mut shadow = enemy;
    let mut front = enemy;
    while front != 0 {
        front = (R::Geometry::step(front, l) | R::Geometry::step(front, r))
            & R::Geometry::BOARD
            & !shadow;
        shadow |= front;
    }
    let free = pos.men(side) & !shadow;
    if free == 0 {
        return 0;
    }
    let rows = R::Geometry::ROWS;
    let mut bonus = 0;
    // A man `a` rows from its own back row needs `rows - 1 - a` moves.
    for a in 0..rows - 1 {
        let n = (free & own_row::<R::Geometry>(side, a)).count_ones() as i32;
        if n != 0 {
            bonus += n * (w.runaway - w.runaway_step * (rows - 1 - a) as i32).max(0);
        }
    }
    bonus
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;
    use crate::rules::{Brazilian, International};

    #[test]
    fn start_positions_are_balanced() {
        assert_eq!(evaluate(&Position::<International>::start()), 0);
        assert_eq!(evaluate(&Position::<Brazilian>::start()), 0);
    }

    #[test]
    fn an_extra_man_is_worth_about_a_man() {
        let pos = parse_fen::<International>("W:W31,32,33:B18,19").unwrap();
        let s = evaluate(&pos);
        assert!(s > 50 && s < 200, "{s}");
        let flipped = pos.with_side_to_move(Side::Black);
        assert_eq!(evaluate(&flipped), -s);
    }

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
    fn losing_counts_pieces_against_their_owner() {
        use crate::rules::Losing;
        let ahead = parse_fen::<Losing>("W:W31,32,33:B18,19").unwrap();
        assert!(evaluate(&ahead) < -50, "{}", evaluate(&ahead));
        let normal = parse_fen::<International>("W:W31,32,33:B18,19").unwrap();
        assert!(evaluate(&normal) > 50);
    }

    #[test]
    fn short_kings_are_worth_less_than_flying_ones() {
        use crate::rules::English;
        let english = parse_fen::<English>("W:WK14:B5").unwrap();
        let brazilian = parse_fen::<Brazilian>("W:WK14:B5").unwrap();
        assert!(evaluate(&english) < evaluate(&brazilian));
        assert!(evaluate(&english) > 0);
    }

    #[test]
    fn mirror_positions_score_opposite() {
        let a = parse_fen::<International>("W:W28,33,K45:B12,19").unwrap();
        let b = parse_fen::<International>("B:B23,18,K6:W39,32").unwrap();
        assert_eq!(evaluate(&a), evaluate(&b));
    }
}

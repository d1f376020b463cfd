//! The evaluation table: the hand weights with the per-square terms
//! (material, advancement, centre, outposts, edges, per-square values)
//! summed ahead for every byte of a men bitboard, and the tables in use.

use super::regions::{outposts, Regions};
use super::weights::{Weights, WEIGHTS, WEIGHTS_8X8};
use crate::rules::{Geometry, Rules, Side};

/// The evaluation table of the 10x10 weights.
static TABLE_10X10: EvalTable = EvalTable::of::<crate::rules::Board10>(WEIGHTS);
/// The evaluation table of the 8x8 weights (the mirrored Italian board has
/// the same rows and bit layout, so the same table).
static TABLE_8X8: EvalTable = EvalTable::of::<crate::rules::Board8>(WEIGHTS_8X8);

/// The evaluation table the search uses for the board of `R`.
#[inline(always)]
pub fn table_for<R: Rules>() -> &'static EvalTable {
    if R::Geometry::SQUARES == 50 {
        &TABLE_10X10
    } else {
        &TABLE_8X8
    }
}

/// Bytes of a men bitboard that the per-square sums cover (bits 0..56; the
/// 10x10 board's highest square is bit 53).
const CHUNKS: usize = 7;

/// A set of weights ready to evaluate with: the weights, and for each side
/// and each byte of the men's bitboard the sum of the per-square terms over
/// the men that byte holds, once with the board full and once with it empty
/// (the two differ only in the per-square values).
#[derive(Clone, Debug)]
pub struct EvalTable {
    /// The weights the table was made from.
    pub weights: Weights,
    /// Indexed by [side][chunk][byte]: the full-board sum plus the
    /// empty-board sum times 2^32, so that one addition a byte adds up both
    /// (see [`EvalTable::men_value`]).
    men: [[[i64; 256]; CHUNKS]; 2],
}

impl EvalTable {
    /// The table of `weights` on the board `G`.
    pub const fn of<G: Geometry>(weights: Weights) -> EvalTable {
        let mut men = [[[0i64; 256]; CHUNKS]; 2];
        let mut side = 0;
        while side < 2 {
            let mut chunk = 0;
            while chunk < CHUNKS {
                let mut byte = 1usize;
                while byte < 256 {
                    // A byte's sum is the sum without its lowest man plus
                    // that man's value.
                    let bit = (chunk * 8) as u32 + byte.trailing_zeros();
                    let full = man_value::<G>(&weights, side == 0, false, bit) as i64;
                    let empty = man_value::<G>(&weights, side == 0, true, bit) as i64;
                    men[side][chunk][byte] =
                        men[side][chunk][byte & (byte - 1)] + full + (empty << 32);
                    byte += 1;
                }
                chunk += 1;
            }
            side += 1;
        }
        EvalTable { weights, men }
    }

    /// The sum of the per-square terms over `men` of `side` on board `G`
    /// with `total` pieces on the board: the full-board and the empty-board
    /// sums mixed in proportion to the pieces on and off.
    #[inline(always)]
    pub(super) fn men_value<G: Geometry>(
        &self,
        men: u64,
        side: Side,
        total: u32,
        start: u32,
    ) -> i32 {
        let used = (G::BOARD.ilog2() / 8 + 1) as usize;
        let table = &self.men[side.index()];
        let mut sum = 0i64;
        for (chunk, bytes) in table.iter().enumerate().take(used) {
            sum += bytes[((men >> (8 * chunk)) & 0xFF) as usize];
        }
        // Both sums fit in an i32: the low half is the full-board sum, and
        // taking it away leaves the empty-board sum times 2^32.
        let on = sum as i32;
        let off = ((sum - on as i64) >> 32) as i32;
        let total = total.min(start) as i32;
        (on * total + off * (start as i32 - total)) / start as i32
    }
}

/// The value of a man of White (`white`) or Black on `bit` of board `G`:
/// material, advancement, centre, outpost, edge and the per-square value
/// for a full board (or an empty one, `end`); 0 off the board.
const fn man_value<G: Geometry>(w: &Weights, white: bool, end: bool, bit: u32) -> i32 {
    if bit >= 64 || (G::BOARD >> bit) & 1 == 0 {
        return 0;
    }
    let mask = 1u64 << bit;
    // Two rows of squares, then one ghost bit (as in `Geometry::square`).
    let square = bit - bit / (2 * G::PER_ROW + 1);
    let row = square / G::PER_ROW;
    let advanced = if white { G::ROWS - 1 - row } else { row };
    let side = if white { Side::White } else { Side::Black };
    let mut v = w.man;
    if advanced >= 1 && advanced <= G::ROWS - 2 {
        let a = if advanced < 9 { advanced } else { 9 };
        v += w.advance[a as usize];
    }
    if mask & <G as Regions>::CENTRE != 0 {
        v += w.centre;
    }
    if mask & outposts::<G>(side) != 0 {
        v += w.outpost;
    }
    if mask & <G as Regions>::EDGES != 0 {
        v -= w.edge;
    }
    if G::SQUARES == 50 {
        let table = if end {
            &w.man_square_end
        } else {
            &w.man_square
        };
        v += if white {
            table[square as usize]
        } else {
            table[49 - square as usize]
        };
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::regions::{bit_of, own_row};
    use crate::rules::notation::parse_fen;
    use crate::rules::{Brazilian, International, Position};

    #[test]
    fn the_table_reads_squares_from_the_owners_side_and_by_fullness() {
        use crate::rules::Board10;
        let mut w = Weights {
            man: 0,
            advance: [0; 10],
            centre: 0,
            outpost: 0,
            edge: 0,
            man_square: [0; 50],
            man_square_end: [0; 50],
            ..WEIGHTS
        };
        w.man_square[27] = 5; // square 28 for White, 23 for Black
        w.man_square[0] = 1; // square 1 for White, 50 for Black
        w.man_square_end[27] = 45;
        w.man_square_end[0] = 3;
        let t = EvalTable::of::<Board10>(w);
        let white = bit_of::<Board10>(28) | bit_of::<Board10>(1);
        let black = bit_of::<Board10>(23) | bit_of::<Board10>(50);
        assert_eq!(t.men_value::<Board10>(white, Side::White, 40, 40), 6);
        assert_eq!(t.men_value::<Board10>(black, Side::Black, 40, 40), 6);
        assert_eq!(t.men_value::<Board10>(black, Side::White, 40, 40), 0);
        // Empty board: the end values; half full: halfway.
        assert_eq!(t.men_value::<Board10>(white, Side::White, 0, 40), 48);
        assert_eq!(t.men_value::<Board10>(black, Side::Black, 20, 40), 27);
    }

    /// The per-square terms counted one by one over region masks, as the
    /// evaluation defines them, for a full board and an empty one.
    fn per_square_terms<R: Rules>(pos: &Position<R>, side: Side, w: &Weights) -> (i32, i32) {
        let men = pos.men(side);
        let count = |mask: u64| (men & mask).count_ones() as i32;
        let mut s = w.man * count(!0);
        for a in 1..R::Geometry::ROWS - 1 {
            s += w.advance[a.min(9) as usize] * count(own_row::<R::Geometry>(side, a));
        }
        s += w.centre * count(R::Geometry::CENTRE);
        s += w.outpost * count(outposts::<R::Geometry>(side));
        s -= w.edge * count(R::Geometry::EDGES);
        let (mut full, mut empty) = (s, s);
        if R::Geometry::SQUARES == 50 {
            for n in 1..=50 {
                if men & bit_of::<R::Geometry>(n) != 0 {
                    let i = match side {
                        Side::White => (n - 1) as usize,
                        Side::Black => (50 - n) as usize,
                    };
                    full += w.man_square[i];
                    empty += w.man_square_end[i];
                }
            }
        }
        (full, empty)
    }

    fn table_agrees<R: Rules>(fens: &[&str]) {
        let t = table_for::<R>();
        let start = 2 * R::START_ROWS * R::Geometry::PER_ROW;
        for fen in fens {
            let pos = parse_fen::<R>(fen).unwrap();
            for side in [Side::White, Side::Black] {
                let (full, empty) = per_square_terms(&pos, side, &t.weights);
                let men = pos.men(side);
                let value = |total| t.men_value::<R::Geometry>(men, side, total, start);
                assert_eq!(value(start), full, "{} {fen} {side:?}", R::NAME);
                assert_eq!(value(0), empty, "{} {fen} {side:?}", R::NAME);
            }
        }
    }

    #[test]
    fn the_table_sums_the_terms_it_folds_in() {
        use crate::rules::Italian;
        table_agrees::<International>(&[
            "W:W31-50:B1-20",
            "W:W24,27,28,33,36,45,46,K50:B1,5,6,15,16,25,26,35",
            "B:W6,11,12,13,14,15:B35,36,40,41,42,43,44",
        ]);
        let small = ["W:W21-32:B1-12", "B:W5,9,13,14,15,K32:B1,4,17,18,24,28"];
        table_agrees::<Brazilian>(&small);
        table_agrees::<Italian>(&small);
    }
}

//! Region masks of the board the hand terms count over, worked out from the
//! geometry at compile time: centre, wings, edges, forward cones, rows,
//! halves and outposts.

use crate::rules::{Dir, Geometry, Side};

/// Region masks of a board, derived from its geometry at compile time.
pub(super) trait Regions: Geometry {
    /// The middle rows and files.
    const CENTRE: u64 = region::<Self>(Self::ROWS / 2 - 2, Self::ROWS / 2 + 1, 2, Self::ROWS - 3);
    /// Files a..(half).
    const LEFT: u64 = region::<Self>(0, Self::ROWS - 1, 0, Self::ROWS / 2 - 1);
    /// Files (half)..end.
    const RIGHT: u64 = region::<Self>(0, Self::ROWS - 1, Self::ROWS / 2, Self::ROWS - 1);
    /// The first and last files.
    const EDGES: u64 = region::<Self>(0, Self::ROWS - 1, 0, 0)
        | region::<Self>(0, Self::ROWS - 1, Self::ROWS - 1, Self::ROWS - 1);
    /// For each side and board bit, the squares ahead of a man of that side
    /// there: every square it could pass on its way to the far row.
    const FORWARD_CONES: [[u64; 64]; 2] = forward_cones::<Self>();
    /// The row (0 = Black's back row) of each board bit.
    const ROW_OF_BIT: [u8; 64] = rows_of_bits::<Self>();
}

impl<G: Geometry> Regions for G {}

/// See [`Regions::FORWARD_CONES`]: the squares reached from each bit by
/// forward steps over the board, for White (up) and Black (down).
const fn forward_cones<G: Geometry>() -> [[u64; 64]; 2] {
    let forward = [
        [Dir::UpLeft as usize, Dir::UpRight as usize],
        [Dir::DownLeft as usize, Dir::DownRight as usize],
    ];
    let mut cones = [[0u64; 64]; 2];
    let mut side = 0;
    while side < 2 {
        let [a, b] = forward[side];
        let mut bit = 0;
        while bit < 64 {
            let mut front = (1u64 << bit) & G::BOARD;
            let mut cone = 0;
            // A cone reaches the far row within `ROWS` steps; the bound also
            // ends the loop on a board without ghost bits (Turkish, whose
            // men the hand terms never see), where rotations never leave it.
            let mut steps = 0;
            while front != 0 && steps < G::ROWS {
                steps += 1;
                front = (front.rotate_left(G::STEP_ROTATION[a])
                    | front.rotate_left(G::STEP_ROTATION[b]))
                    & G::BOARD;
                cone |= front;
            }
            cones[side][bit] = cone;
            bit += 1;
        }
        side += 1;
    }
    cones
}

/// See [`Regions::ROW_OF_BIT`] (0 off the board).
const fn rows_of_bits<G: Geometry>() -> [u8; 64] {
    let mut rows = [0u8; 64];
    let mut bit = 0;
    while bit < 64 {
        if (G::BOARD >> bit) & 1 != 0 {
            // Two rows of squares, then one ghost bit (as in `Geometry::square`).
            let square = bit - bit / (2 * G::PER_ROW + 1);
            rows[bit as usize] = (square / G::PER_ROW) as u8;
        }
        bit += 1;
    }
    rows
}

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
pub(super) const fn bit_of<G: Geometry>(n: u32) -> u64 {
    let s = n - 1;
    1u64 << (s + (s / G::PER_ROW) / 2)
}

/// The row index (0 = own back row) seen from `side`, as a row mask.
#[inline(always)]
pub(super) fn own_row<G: Geometry>(side: Side, advanced: u32) -> u64 {
    let row = match side {
        Side::White => G::ROWS - 1 - advanced,
        Side::Black => advanced,
    };
    crate::rules::geometry::row_mask(G::PER_ROW, row)
}

/// The outpost squares of a side: 24 and 27 for White on 10x10 (27 and 24
/// mirrored for Black); the matching centre squares on 8x8.
#[inline(always)]
pub(super) const fn outposts<G: Geometry>(side: Side) -> u64 {
    let (a, b) = if G::SQUARES == 50 { (24, 27) } else { (14, 15) };
    match side {
        Side::White => bit_of::<G>(a) | bit_of::<G>(b),
        Side::Black => bit_of::<G>(G::SQUARES + 1 - a) | bit_of::<G>(G::SQUARES + 1 - b),
    }
}

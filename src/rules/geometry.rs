//! Board geometries: the padded bit layout of the 10x10 and 8x8 boards.
//!
//! Both boards keep their playable squares in one `u64`. Each row holds
//! `PER_ROW` playable squares (5 on 10x10, 4 on 8x8) and one ghost bit follows
//! every second row, so a diagonal step is always the same shift and a step
//! off the left or right edge lands on a ghost bit (never a real square):
//!
//! ```text
//! 10x10, bit index of each square (ghosts at 10, 21, 32, 43):
//!     row 0:   .  0  .  1  .  2  .  3  .  4      squares  1..5
//!     row 1:   5  .  6  .  7  .  8  .  9  .      squares  6..10
//!     row 2:   . 11  . 12  . 13  . 14  . 15      squares 11..15
//!     ...
//!     row 9:  49  . 50  . 51  . 52  . 53  .      squares 46..50
//! ```
//!
//! Row 0 is Black's back row (the top of the board as White sees it).
//! Down-left is `+PER_ROW`, down-right `+PER_ROW + 1`, up-right `-PER_ROW`,
//! up-left `-(PER_ROW + 1)`.
//!
//! Invariant: a bitboard of pieces never has a ghost bit or a bit beyond the
//! board set; every shift is followed by a mask with a set of real squares.

use super::square::{Bit, Square};

/// One of the four diagonal directions, as seen by White (up = toward row 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Toward row 0 and column a.
    UpLeft = 0,
    /// Toward row 0 and the right edge.
    UpRight = 1,
    /// Toward the last row and column a.
    DownLeft = 2,
    /// Toward the last row and the right edge.
    DownRight = 3,
}

impl Dir {
    /// All four directions.
    pub const ALL: [Dir; 4] = [Dir::UpLeft, Dir::UpRight, Dir::DownLeft, Dir::DownRight];

    /// The direction pointing the other way.
    #[inline(always)]
    pub const fn reverse(self) -> Dir {
        match self {
            Dir::UpLeft => Dir::DownRight,
            Dir::UpRight => Dir::DownLeft,
            Dir::DownLeft => Dir::UpRight,
            Dir::DownRight => Dir::UpLeft,
        }
    }

    /// The two directions at right angles to this one.
    #[inline(always)]
    pub const fn perpendicular(self) -> [Dir; 2] {
        match self {
            Dir::UpLeft | Dir::DownRight => [Dir::UpRight, Dir::DownLeft],
            Dir::UpRight | Dir::DownLeft => [Dir::UpLeft, Dir::DownRight],
        }
    }
}

/// One of the four orthogonal directions (as seen by White), along which
/// Frisian pieces capture: the next playable square of a row is two files
/// away, of a file two rows away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ortho {
    /// Along the row toward column a.
    Left = 0,
    /// Along the row toward the right edge.
    Right = 1,
    /// Along the file toward row 0.
    Up = 2,
    /// Along the file toward the last row.
    Down = 3,
}

impl Ortho {
    /// All four orthogonal directions.
    pub const ALL: [Ortho; 4] = [Ortho::Left, Ortho::Right, Ortho::Up, Ortho::Down];

    /// The direction pointing the other way.
    #[inline(always)]
    pub const fn reverse(self) -> Ortho {
        match self {
            Ortho::Left => Ortho::Right,
            Ortho::Right => Ortho::Left,
            Ortho::Up => Ortho::Down,
            Ortho::Down => Ortho::Up,
        }
    }

    /// The two directions at right angles to this one.
    #[inline(always)]
    pub const fn perpendicular(self) -> [Ortho; 2] {
        match self {
            Ortho::Left | Ortho::Right => [Ortho::Up, Ortho::Down],
            Ortho::Up | Ortho::Down => [Ortho::Left, Ortho::Right],
        }
    }
}

/// A board shape: its size and the bit layout of its playable squares.
pub trait Geometry: Copy + Send + Sync + 'static {
    /// Number of rows (and columns) of the board.
    const ROWS: u32;
    /// Playable squares per row.
    const PER_ROW: u32;
    /// Playable squares on the board (standard numbers run 1..=SQUARES).
    const SQUARES: u32 = Self::ROWS * Self::PER_ROW;
    /// Bits of all playable squares.
    const BOARD: u64 = board_mask(Self::ROWS, Self::PER_ROW);
    /// Bits of row 0 (Black's back row, where White men promote).
    const TOP_ROW: u64 = row_mask(Self::PER_ROW, 0);
    /// Bits of the last row (White's back row, where Black men promote).
    const BOTTOM_ROW: u64 = row_mask(Self::PER_ROW, Self::ROWS - 1);
    /// Characters a Hub position string has (side to move + one per square).
    const HUB_LEN: usize = 1 + Self::SQUARES as usize;
    /// The board is turned so that the top-left corner (a8 on 8x8) is a
    /// playable square, as in Italian draughts: square 1 sits at the left of
    /// row 0. The bit layout is the standard one seen in a mirror, so the
    /// generator is unchanged (every rule is symmetric left to right); only
    /// the square numbers and coordinates differ.
    const MIRRORED: bool = false;
    /// Moves and FEN name the squares by coordinates (`a2`), not numbers.
    const NAMED_BY_COORDINATES: bool = false;
    /// For each direction (indexed by `Dir as usize`) and bit, the board
    /// squares beyond that bit in that direction, up to the edge.
    const RAYS: [[u64; 64]; 4] = rays(Self::PER_ROW, Self::BOARD);

    /// For each orthogonal direction (indexed by `Ortho as usize`) and bit,
    /// the board squares beyond that bit along its row or file.
    const ORTHO_RAYS: [[u64; 64]; 4] = ortho_rays(Self::ROWS, Self::PER_ROW, Self::BOARD);
    /// The first playable square of each row (nothing lies left of it).
    const LEFT_END: u64 = row_ends(Self::ROWS, Self::PER_ROW, false);
    /// The last playable square of each row.
    const RIGHT_END: u64 = row_ends(Self::ROWS, Self::PER_ROW, true);

    /// One step in each direction as a left rotation of the bits: up is
    /// toward lower bits, down toward higher ones.
    const STEP_ROTATION: [u32; 4] = [
        64 - (Self::PER_ROW + 1),
        64 - Self::PER_ROW,
        Self::PER_ROW,
        Self::PER_ROW + 1,
    ];

    /// Shifts a bitboard one step in `dir`; the result may hold ghost bits
    /// and must be masked by the caller.
    ///
    /// It is a rotation: a `dir` known only at run time (the capture
    /// generator's) then costs one table read, not a jump through a table,
    /// which the processor often mispredicts. For bits on the board it
    /// equals the shift, except that bits stepping off the top row come
    /// back above the board's highest bit (checked at compile time), where
    /// any mask within the board drops them as it drops ghost bits.
    #[inline(always)]
    fn step(bb: u64, dir: Dir) -> u64 {
        const {
            assert!(
                (63 - Self::BOARD.leading_zeros()) + (Self::PER_ROW + 1) < 64,
                "a step must not wrap onto the board"
            )
        };
        bb.rotate_left(Self::STEP_ROTATION[dir as usize])
    }

    /// The bit one step before `to` in `dir`: where a piece that stepped in
    /// `dir` onto `to` came from (`to` and that bit on the board). One
    /// addition, where a step back would need the bit's mask and a scan.
    #[inline(always)]
    fn step_origin(to: Bit, dir: Dir) -> Bit {
        Bit::new((to.index() as u32 + 64 - Self::STEP_ROTATION[dir as usize]) as u8)
    }

    /// What a flying piece on `from` (one bit) sees in `dir`: the empty
    /// squares before the first occupied one, and that square (0 when the
    /// ray reaches the edge). `empty` lies within the board. One table
    /// look-up and one bit scan instead of a step per square.
    #[inline(always)]
    fn ray_walk(from: u64, dir: Dir, empty: u64) -> (u64, u64) {
        let rays = &Self::RAYS[dir as usize];
        let ray = rays[from.trailing_zeros() as usize & 63];
        let blockers = ray & !empty;
        if blockers == 0 {
            return (ray, 0);
        }
        // Up is toward lower bits: the nearest blocker is the highest one.
        let at = match dir {
            Dir::UpLeft | Dir::UpRight => 63 - blockers.leading_zeros(),
            Dir::DownLeft | Dir::DownRight => blockers.trailing_zeros(),
        };
        let stop = 1u64 << at;
        (ray & !(rays[at as usize] | stop), stop)
    }

    /// Shifts a bitboard one orthogonal step (to the next playable square of
    /// the row or file) in `dir`; the result lies within the board. A row
    /// step is one bit, a file step one row pair (`2 * PER_ROW + 1` bits),
    /// which keeps the column of a row.
    #[inline(always)]
    fn ortho_step(bb: u64, dir: Ortho) -> u64 {
        let pair = 2 * Self::PER_ROW + 1;
        match dir {
            Ortho::Left => (bb & Self::BOARD & !Self::LEFT_END) >> 1,
            Ortho::Right => ((bb & !Self::RIGHT_END) << 1) & Self::BOARD,
            Ortho::Up => (bb & Self::BOARD) >> pair,
            Ortho::Down => (bb << pair) & Self::BOARD,
        }
    }

    /// What a flying piece on `from` (one bit) sees orthogonally in `dir`:
    /// the empty squares before the first occupied one, and that square (0
    /// at the edge), as [`Geometry::ray_walk`] does along diagonals.
    #[inline(always)]
    fn ortho_ray_walk(from: u64, dir: Ortho, empty: u64) -> (u64, u64) {
        let rays = &Self::ORTHO_RAYS[dir as usize];
        let ray = rays[from.trailing_zeros() as usize & 63];
        let blockers = ray & !empty;
        if blockers == 0 {
            return (ray, 0);
        }
        let at = match dir {
            Ortho::Left | Ortho::Up => 63 - blockers.leading_zeros(),
            Ortho::Right | Ortho::Down => blockers.trailing_zeros(),
        };
        let stop = 1u64 << at;
        (ray & !(rays[at as usize] | stop), stop)
    }

    /// The index (0-based) in the standard layout of square index `s`
    /// (0-based) of this board: the identity, or on a mirrored board the
    /// square at the same place in the other order of its row (an involution).
    #[inline(always)]
    fn standard_index(s: u32) -> u32 {
        if Self::MIRRORED {
            let row = s / Self::PER_ROW;
            row * Self::PER_ROW + (Self::PER_ROW - 1 - s % Self::PER_ROW)
        } else {
            s
        }
    }

    /// The bit of a standard square number.
    #[inline]
    fn bit(sq: Square) -> Bit {
        let s = Self::standard_index(sq.get() as u32 - 1);
        Bit::new((s + (s / Self::PER_ROW) / 2) as u8)
    }

    /// The standard square number of a bit, `None` for a ghost or off-board bit.
    #[inline]
    fn square(bit: Bit) -> Option<Square> {
        let b = bit.index() as u32;
        if Self::BOARD & (1u64 << b) == 0 {
            return None;
        }
        let pair = b / (2 * Self::PER_ROW + 1);
        let rem = b % (2 * Self::PER_ROW + 1);
        Square::new((Self::standard_index(pair * 2 * Self::PER_ROW + rem) + 1) as u8)
    }

    /// Row (0 = top, Black's back row) and file (0 = column a) of a square.
    #[inline]
    fn row_file(sq: Square) -> (u32, u32) {
        let s = sq.get() as u32 - 1;
        let row = s / Self::PER_ROW;
        let col = s % Self::PER_ROW;
        let file = if row.is_multiple_of(2) != Self::MIRRORED {
            2 * col + 1
        } else {
            2 * col
        };
        (row, file)
    }

    /// The square at a row and file, `None` for a light square or off-board.
    #[inline]
    fn from_row_file(row: u32, file: u32) -> Option<Square> {
        if row >= Self::ROWS
            || file >= Self::ROWS
            || (row + file).is_multiple_of(2) != Self::MIRRORED
        {
            return None;
        }
        Square::new((row * Self::PER_ROW + file / 2 + 1) as u8)
    }

    /// The bits of the playable squares of one row (0 = Black's back row).
    #[inline]
    fn row_bits(row: u32) -> u64 {
        row_mask(Self::PER_ROW, row)
    }
}

/// Mask of the playable bits of a board with `rows` rows of `per_row` squares.
pub const fn board_mask(rows: u32, per_row: u32) -> u64 {
    let mut mask = 0u64;
    let mut row = 0;
    while row < rows {
        mask |= row_mask(per_row, row);
        row += 1;
    }
    mask
}

/// The rays of a board with `per_row` squares a row (see `Geometry::RAYS`).
const fn rays(per_row: u32, board: u64) -> [[u64; 64]; 4] {
    let mut rays = [[0u64; 64]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut bit = 0;
        while bit < 64 {
            if board & (1u64 << bit) != 0 {
                let mut at = 1u64 << bit;
                loop {
                    at = match dir {
                        0 => at >> (per_row + 1),
                        1 => at >> per_row,
                        2 => at << per_row,
                        _ => at << (per_row + 1),
                    } & board;
                    if at == 0 {
                        break;
                    }
                    rays[dir][bit] |= at;
                }
            }
            bit += 1;
        }
        dir += 1;
    }
    rays
}

/// The orthogonal rays of a board (see `Geometry::ORTHO_RAYS`): a row is
/// `per_row` consecutive bits, a file steps by a row pair.
const fn ortho_rays(rows: u32, per_row: u32, board: u64) -> [[u64; 64]; 4] {
    let mut rays = [[0u64; 64]; 4];
    let pair = 2 * per_row + 1;
    let mut row = 0;
    while row < rows {
        let first = row * per_row + row / 2;
        let mut col = 0;
        while col < per_row {
            let bit = first + col;
            let mut left = 0;
            while left < col {
                rays[0][bit as usize] |= 1u64 << (first + left);
                left += 1;
            }
            let mut right = col + 1;
            while right < per_row {
                rays[1][bit as usize] |= 1u64 << (first + right);
                right += 1;
            }
            let mut up = bit;
            while up >= pair {
                up -= pair;
                rays[2][bit as usize] |= 1u64 << up;
            }
            let mut down = bit + pair;
            while down < 64 && board & (1u64 << down) != 0 {
                rays[3][bit as usize] |= 1u64 << down;
                down += pair;
            }
            col += 1;
        }
        row += 1;
    }
    rays
}

/// The first (or with `last`, the last) playable bit of every row.
const fn row_ends(rows: u32, per_row: u32, last: bool) -> u64 {
    let mut mask = 0u64;
    let mut row = 0;
    while row < rows {
        let first = row * per_row + row / 2;
        mask |= 1u64 << if last { first + per_row - 1 } else { first };
        row += 1;
    }
    mask
}

/// Mask of the bits of one row.
pub const fn row_mask(per_row: u32, row: u32) -> u64 {
    let first = row * per_row + row / 2;
    ((1u64 << per_row) - 1) << first
}

/// The 10x10 board of International draughts: 50 squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board10;

impl Geometry for Board10 {
    const ROWS: u32 = 10;
    const PER_ROW: u32 = 5;
}

/// The 8x8 board of Brazilian (and other 8x8) draughts: 32 squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board8;

impl Geometry for Board8 {
    const ROWS: u32 = 8;
    const PER_ROW: u32 = 4;
}

/// The 8x8 board turned with a light corner at each player's left (Italian
/// draughts): square 1 is a8, 4 is g8, 29 is b1, 32 is h1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board8Mirrored;

impl Geometry for Board8Mirrored {
    const ROWS: u32 = 8;
    const PER_ROW: u32 = 4;
    const MIRRORED: bool = true;
}

/// The 8x8 board of Turkish draughts, where all 64 squares are played:
/// bit `8 * row + file` (row 0 = Black's back row, file 0 = column a), no
/// ghost bits. Square numbers run 1..=64 in the same order (1 = a8, 8 = h8,
/// 57 = a1, 64 = h1); the notation names them by coordinates. Steps are
/// shifts masked at the a- and h-files instead of ghost bits, so every
/// method that relies on the padded layout is given here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Board8Full;

/// The a-file of [`Board8Full`].
const FULL_FILE_A: u64 = 0x0101_0101_0101_0101;
/// The h-file of [`Board8Full`].
const FULL_FILE_H: u64 = FULL_FILE_A << 7;

impl Geometry for Board8Full {
    const ROWS: u32 = 8;
    const PER_ROW: u32 = 8;
    const BOARD: u64 = u64::MAX;
    const NAMED_BY_COORDINATES: bool = true;
    const TOP_ROW: u64 = 0xFF;
    const BOTTOM_ROW: u64 = 0xFF << 56;
    const RAYS: [[u64; 64]; 4] = full_rays(&[(-1, -1), (-1, 1), (1, -1), (1, 1)]);
    const ORTHO_RAYS: [[u64; 64]; 4] = full_rays(&[(0, -1), (0, 1), (-1, 0), (1, 0)]);
    const LEFT_END: u64 = FULL_FILE_A;
    const RIGHT_END: u64 = FULL_FILE_H;
    const STEP_ROTATION: [u32; 4] = [64 - 9, 64 - 7, 7, 9];

    #[inline(always)]
    fn step(bb: u64, dir: Dir) -> u64 {
        match dir {
            Dir::UpLeft => (bb & !FULL_FILE_A) >> 9,
            Dir::UpRight => (bb & !FULL_FILE_H) >> 7,
            Dir::DownLeft => (bb & !FULL_FILE_A) << 7,
            Dir::DownRight => (bb & !FULL_FILE_H) << 9,
        }
    }

    #[inline(always)]
    fn ortho_step(bb: u64, dir: Ortho) -> u64 {
        match dir {
            Ortho::Left => (bb & !FULL_FILE_A) >> 1,
            Ortho::Right => (bb & !FULL_FILE_H) << 1,
            Ortho::Up => bb >> 8,
            Ortho::Down => bb << 8,
        }
    }

    #[inline]
    fn bit(sq: Square) -> Bit {
        Bit::new(sq.get() - 1)
    }

    #[inline]
    fn square(bit: Bit) -> Option<Square> {
        Square::new(bit.index() as u8 + 1)
    }

    #[inline]
    fn row_file(sq: Square) -> (u32, u32) {
        let s = sq.get() as u32 - 1;
        (s / 8, s % 8)
    }

    #[inline]
    fn from_row_file(row: u32, file: u32) -> Option<Square> {
        if row >= 8 || file >= 8 {
            return None;
        }
        Square::new((row * 8 + file + 1) as u8)
    }

    #[inline]
    fn row_bits(row: u32) -> u64 {
        0xFF << (8 * row)
    }
}

/// The rays of the full 8x8 board along the four `(row, file)` steps given
/// (in the order of the direction enum they serve).
const fn full_rays(steps: &[(i32, i32); 4]) -> [[u64; 64]; 4] {
    let mut rays = [[0u64; 64]; 4];
    let mut dir = 0;
    while dir < 4 {
        let (dr, df) = steps[dir];
        let mut bit = 0;
        while bit < 64 {
            let (mut row, mut file) = (bit / 8, bit % 8);
            loop {
                row += dr;
                file += df;
                if row < 0 || row >= 8 || file < 0 || file >= 8 {
                    break;
                }
                rays[dir][bit as usize] |= 1u64 << (row * 8 + file);
            }
            bit += 1;
        }
        dir += 1;
    }
    rays
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::square::Bits;

    fn roundtrip<G: Geometry>() {
        for n in 1..=G::SQUARES as u8 {
            let sq = Square::new(n).unwrap();
            let bit = G::bit(sq);
            assert_eq!(G::square(bit), Some(sq));
            let (row, file) = G::row_file(sq);
            assert_eq!(G::from_row_file(row, file), Some(sq));
        }
        assert_eq!(G::BOARD.count_ones(), G::SQUARES);
    }

    #[test]
    fn squares_round_trip_through_bits() {
        roundtrip::<Board10>();
        roundtrip::<Board8>();
        roundtrip::<Board8Mirrored>();
    }

    #[test]
    fn the_mirrored_board_starts_at_the_top_left_corner() {
        let sq = |n: u8| Square::new(n).unwrap();
        assert_eq!(Board8Mirrored::row_file(sq(1)), (0, 0));
        assert_eq!(Board8Mirrored::row_file(sq(4)), (0, 6));
        assert_eq!(Board8Mirrored::row_file(sq(5)), (1, 1));
        assert_eq!(Board8Mirrored::row_file(sq(32)), (7, 7));
        assert_eq!(Board8::row_file(sq(1)), (0, 1));
        // Square 21 (b3) steps up to 17 (a4) and 18 (c4).
        let b = |n: u8| 1u64 << Board8Mirrored::bit(sq(n)).index();
        let up =
            Board8Mirrored::step(b(21), Dir::UpLeft) | Board8Mirrored::step(b(21), Dir::UpRight);
        assert_eq!(up & Board8Mirrored::BOARD, b(17) | b(18));
    }

    #[test]
    fn ghosts_sit_between_row_pairs() {
        for ghost in [10u8, 21, 32, 43] {
            assert_eq!(Board10::square(Bit::new(ghost)), None);
        }
        for ghost in [8u8, 17, 26] {
            assert_eq!(Board8::square(Bit::new(ghost)), None);
        }
    }

    #[test]
    fn steps_match_the_diagram() {
        // 10x10: square 28 (row 5) steps to 22/23 up and 32/33 down.
        let b = |n: u8| 1u64 << Board10::bit(Square::new(n).unwrap()).index();
        assert_eq!(Board10::step(b(28), Dir::UpLeft), b(22));
        assert_eq!(Board10::step(b(28), Dir::UpRight), b(23));
        assert_eq!(Board10::step(b(28), Dir::DownLeft), b(32));
        assert_eq!(Board10::step(b(28), Dir::DownRight), b(33));
        // Square 36 is on column a: its left steps fall on ghosts.
        assert_eq!(Board10::step(b(36), Dir::UpLeft) & Board10::BOARD, 0);
        assert_eq!(Board10::step(b(36), Dir::DownLeft) & Board10::BOARD, 0);
    }

    /// For every board bit, a step masked by the board is the neighbour
    /// that the row and file say, or nothing at the edge, and the step's
    /// origin leads back (boards in the standard layout).
    fn steps_land_on_the_neighbours<G: Geometry>() {
        for from in Bits(G::BOARD) {
            let sq = G::square(from).unwrap();
            let (row, file) = G::row_file(sq);
            for (dir, dr, df) in [
                (Dir::UpLeft, -1, -1),
                (Dir::UpRight, -1, 1),
                (Dir::DownLeft, 1, -1),
                (Dir::DownRight, 1, 1),
            ] {
                // Off the board below row or file 0 wraps to a large number,
                // which is off the board too.
                let (r, f) = ((row as i32 + dr) as u32, (file as i32 + df) as u32);
                let expected = G::from_row_file(r, f).map_or(0, |n| G::bit(n).mask());
                assert_eq!(
                    G::step(from.mask(), dir) & G::BOARD,
                    expected,
                    "{dir:?} from square {sq}"
                );
                if expected != 0 {
                    assert_eq!(G::step_origin(Bit::lowest(expected), dir), from);
                }
            }
        }
    }

    #[test]
    fn a_step_reaches_the_neighbouring_square_or_leaves_the_board() {
        steps_land_on_the_neighbours::<Board10>();
        steps_land_on_the_neighbours::<Board8>();
    }

    /// For every board bit, an orthogonal step is the playable square two
    /// files or two rows away, or nothing at the edge; the orthogonal walk
    /// agrees with steps.
    fn ortho_steps_land_two_squares_away<G: Geometry>() {
        for from in Bits(G::BOARD) {
            let sq = G::square(from).unwrap();
            let (row, file) = G::row_file(sq);
            for (dir, dr, df) in [
                (Ortho::Left, 0, -2),
                (Ortho::Right, 0, 2),
                (Ortho::Up, -2, 0),
                (Ortho::Down, 2, 0),
            ] {
                let (r, f) = ((row as i32 + dr) as u32, (file as i32 + df) as u32);
                let expected = G::from_row_file(r, f).map_or(0, |n| G::bit(n).mask());
                assert_eq!(
                    G::ortho_step(from.mask(), dir),
                    expected,
                    "{dir:?} from {sq}"
                );
            }
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..100 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            for from in Bits(G::BOARD) {
                let empty = (seed & G::BOARD) | from.mask();
                for dir in Ortho::ALL {
                    let (mut seen, mut at) = (0, G::ortho_step(from.mask(), dir));
                    while at & empty != 0 {
                        seen |= at;
                        at = G::ortho_step(at, dir);
                    }
                    assert_eq!(G::ortho_ray_walk(from.mask(), dir, empty), (seen, at));
                }
            }
        }
    }

    #[test]
    fn orthogonal_steps_reach_the_next_square_of_the_row_or_file() {
        ortho_steps_land_two_squares_away::<Board10>();
        ortho_steps_land_two_squares_away::<Board8>();
    }

    /// The walk one step at a time that `ray_walk` replaces.
    fn walk_by_steps<G: Geometry>(from: u64, dir: Dir, empty: u64) -> (u64, u64) {
        let mut seen = 0;
        let mut at = G::step(from, dir) & G::BOARD;
        while at & empty != 0 {
            seen |= at;
            at = G::step(at, dir) & G::BOARD;
        }
        (seen, at)
    }

    fn ray_walks_agree_with_steps<G: Geometry>() {
        // A fixed pseudo-random sequence of occupancies, each tried from
        // every square in every direction.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let empty = seed & G::BOARD;
            for from in super::super::square::Bits(G::BOARD) {
                for dir in Dir::ALL {
                    let got = G::ray_walk(from.mask(), dir, empty | from.mask());
                    assert_eq!(
                        got,
                        walk_by_steps::<G>(from.mask(), dir, empty | from.mask())
                    );
                }
            }
        }
    }

    #[test]
    fn ray_walks_stop_at_the_first_occupied_square_or_the_edge() {
        ray_walks_agree_with_steps::<Board10>();
        ray_walks_agree_with_steps::<Board8>();
        ray_walks_agree_with_steps::<Board8Mirrored>();
        // 10x10: from 46 up-right over an empty board, the long diagonal.
        let b = |n: u8| 1u64 << Board10::bit(Square::new(n).unwrap()).index();
        let diagonal = [41, 37, 32, 28, 23, 19, 14, 10, 5]
            .iter()
            .fold(0, |m, &n| m | b(n));
        assert_eq!(
            Board10::ray_walk(b(46), Dir::UpRight, Board10::BOARD),
            (diagonal, 0)
        );
        // With a piece on 28 the walk stops there.
        let empty = Board10::BOARD & !b(28);
        assert_eq!(
            Board10::ray_walk(b(46), Dir::UpRight, empty),
            (b(41) | b(37) | b(32), b(28))
        );
    }
}

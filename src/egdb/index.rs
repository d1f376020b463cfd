//! The index of a position within its material slice, and back.
//!
//! Every table is seen from the side to move, which is always White: a
//! position with Black to move is turned half round with the colours
//! swapped first ([`Layout::normalise`]), a symmetry of every rule set
//! this database supports.
//!
//! Squares are numbered by their standard index `s` (0-based, the square
//! number less one); `N` squares in all, `P` per row. White men stand on
//! `P..N` (never on the row where they crown), Black men on `0..N-P`,
//! kings anywhere free. The index of a slice with `a` White men, `b` White
//! kings, `c` Black men and `d` Black kings is, in mixed radix,
//!
//! `((wm · C(N-P, c) + bm) · C(N-a-c, b) + wk) · C(N-a-c-b, d) + bk`
//!
//! where `wm` and `bm` are the combinatorial ranks of the men's squares in
//! their own range and `wk`, `bk` the ranks of the kings' squares among the
//! squares still free (no men; for Black's kings, no White king either).
//! Kings are packed perfectly; two men of both sides on one square give an
//! index that is no position (`None` from [`Layout::position`]), a few
//! percent of a slice at most.

use std::marker::PhantomData;

use crate::rules::{Bit, Geometry, Position, Rules, Side, Square};

use super::material::Material;

/// Binomial coefficients `C(n, k)` for `n < 65`, `k < 9`.
const fn binomials() -> [[u64; 9]; 65] {
    let mut c = [[0u64; 9]; 65];
    let mut n = 0;
    while n < 65 {
        c[n][0] = 1;
        let mut k = 1;
        while k < 9 && k <= n {
            c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    c
}

const BINOMIAL: [[u64; 9]; 65] = binomials();

/// `C(n, k)`, 0 when `k > n`.
#[inline(always)]
pub fn choose(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

/// The combinatorial rank of a set of squares (bits of `set`, in the range
/// the caller numbers from 0): `Σ C(x_i, i)` over its members in order.
#[inline(always)]
fn rank(mut set: u64) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        let x = set.trailing_zeros();
        r += choose(x, i);
        set &= set - 1;
        i += 1;
    }
    r
}

/// The set of `k` members in `0..n` whose rank is `r`.
fn unrank(mut r: u64, k: u32, n: u32) -> u64 {
    let mut set = 0u64;
    let mut top = n;
    for i in (1..=k).rev() {
        let mut x = top - 1;
        while choose(x, i) > r {
            x -= 1;
        }
        r -= choose(x, i);
        set |= 1u64 << x;
        top = x;
    }
    set
}

/// The squares not in `taken` (a set of standard indices), counted from 0:
/// square `s` free is member `s - |taken below s|` of the free squares.
#[inline(always)]
fn rank_among_free(set: u64, taken: u64) -> u64 {
    let mut packed = 0u64;
    for s in super::Members(set) {
        let below = (taken & ((1u64 << s) - 1)).count_ones();
        packed |= 1u64 << (s - below);
    }
    rank(packed)
}

/// The inverse of [`rank_among_free`]: spreads a packed set over the free
/// squares of `0..n`.
fn spread_over_free(packed: u64, taken: u64, n: u32) -> u64 {
    let mut set = 0u64;
    let mut member = 0;
    for s in 0..n {
        if taken & (1u64 << s) != 0 {
            continue;
        }
        if packed & (1u64 << member) != 0 {
            set |= 1u64 << s;
        }
        member += 1;
    }
    set
}

/// A position as four sets of standard indices (bit `s` for square `s`),
/// White to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// White's men.
    pub white_men: u64,
    /// White's kings.
    pub white_kings: u64,
    /// Black's men.
    pub black_men: u64,
    /// Black's kings.
    pub black_kings: u64,
}

/// The squares of board `R::Geometry` in both numberings, and the
/// half-turn that swaps the colours.
#[derive(Clone, Debug)]
pub struct Layout<R: Rules> {
    /// Bit of each standard index.
    bit_of: [u8; 64],
    /// Standard index of each board bit (`u8::MAX` for a ghost).
    index_of: [u8; 64],
    rules: PhantomData<R>,
}

impl<R: Rules> Default for Layout<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: Rules> Layout<R> {
    /// Squares on the board.
    pub const SQUARES: u32 = <R::Geometry as Geometry>::SQUARES;
    /// Squares per row.
    pub const PER_ROW: u32 = <R::Geometry as Geometry>::PER_ROW;
    /// Squares a man may stand on (all but its crowning row).
    pub const MAN_SQUARES: u32 = Self::SQUARES - Self::PER_ROW;

    /// The tables of this board.
    pub fn new() -> Layout<R> {
        let mut bit_of = [0u8; 64];
        let mut index_of = [u8::MAX; 64];
        for s in 0..Self::SQUARES {
            let sq = Square::new(s as u8 + 1).expect("a square of the board");
            let bit = <R::Geometry as Geometry>::bit(sq).index();
            bit_of[s as usize] = bit as u8;
            index_of[bit] = s as u8;
        }
        Layout {
            bit_of,
            index_of,
            rules: PhantomData,
        }
    }

    /// Standard-index set of a board bitboard.
    #[inline(always)]
    fn to_indices(&self, bb: u64) -> u64 {
        let mut set = 0;
        for bit in super::Members(bb) {
            set |= 1u64 << self.index_of[bit as usize];
        }
        set
    }

    /// Standard-index set of a board bitboard, turned half round.
    #[inline(always)]
    fn to_turned_indices(&self, bb: u64) -> u64 {
        let mut set = 0;
        for bit in super::Members(bb) {
            set |= 1u64 << (Self::SQUARES - 1 - u32::from(self.index_of[bit as usize]));
        }
        set
    }

    /// Board bitboard of a standard-index set.
    #[inline(always)]
    fn to_bits(&self, set: u64) -> u64 {
        let mut bb = 0;
        for s in super::Members(set) {
            bb |= Bit::new(self.bit_of[s as usize]).mask();
        }
        bb
    }

    /// The position seen from its side to move, as White.
    #[inline]
    pub fn normalise(&self, pos: &Position<R>) -> Placement {
        let (us, them) = (pos.side_to_move(), pos.side_to_move().opponent());
        if us == Side::White {
            Placement {
                white_men: self.to_indices(pos.men(us)),
                white_kings: self.to_indices(pos.kings(us)),
                black_men: self.to_indices(pos.men(them)),
                black_kings: self.to_indices(pos.kings(them)),
            }
        } else {
            Placement {
                white_men: self.to_turned_indices(pos.men(us)),
                white_kings: self.to_turned_indices(pos.kings(us)),
                black_men: self.to_turned_indices(pos.men(them)),
                black_kings: self.to_turned_indices(pos.kings(them)),
            }
        }
    }

    /// The position of a placement, White to move.
    pub fn position(&self, p: &Placement) -> Position<R> {
        let white = self.to_bits(p.white_men | p.white_kings);
        let black = self.to_bits(p.black_men | p.black_kings);
        let kings = self.to_bits(p.white_kings | p.black_kings);
        Position::from_trusted_bits(white, black, kings, Side::White)
    }

    /// The index of a placement in its slice.
    #[inline]
    pub fn index(&self, p: &Placement) -> u64 {
        let m = Material::of(p);
        let men = p.white_men | p.black_men;
        let wm = rank(p.white_men >> Self::PER_ROW);
        let bm = rank(p.black_men);
        let wk = rank_among_free(p.white_kings, men);
        let bk = rank_among_free(p.black_kings, men | p.white_kings);
        let free = Self::SQUARES - m.men();
        ((wm * choose(Self::MAN_SQUARES, u32::from(m.black_men)) + bm)
            * choose(free, u32::from(m.white_kings))
            + wk)
            * choose(free - u32::from(m.white_kings), u32::from(m.black_kings))
            + bk
    }

    /// The number of indices of a slice.
    pub fn size(&self, m: Material) -> u64 {
        let free = Self::SQUARES - m.men();
        choose(Self::MAN_SQUARES, u32::from(m.white_men))
            * choose(Self::MAN_SQUARES, u32::from(m.black_men))
            * choose(free, u32::from(m.white_kings))
            * choose(free - u32::from(m.white_kings), u32::from(m.black_kings))
    }

    /// The placement of an index of slice `m`, `None` where two men would
    /// share a square.
    pub fn placement(&self, m: Material, index: u64) -> Option<Placement> {
        let free = Self::SQUARES - m.men();
        let bk_count = choose(free - u32::from(m.white_kings), u32::from(m.black_kings));
        let wk_count = choose(free, u32::from(m.white_kings));
        let bm_count = choose(Self::MAN_SQUARES, u32::from(m.black_men));
        let (rest, bk) = (index / bk_count, index % bk_count);
        let (rest, wk) = (rest / wk_count, rest % wk_count);
        let (wm, bm) = (rest / bm_count, rest % bm_count);
        let white_men = unrank(wm, u32::from(m.white_men), Self::MAN_SQUARES) << Self::PER_ROW;
        let black_men = unrank(bm, u32::from(m.black_men), Self::MAN_SQUARES);
        if white_men & black_men != 0 {
            return None;
        }
        let men = white_men | black_men;
        let white_kings = spread_over_free(
            unrank(wk, u32::from(m.white_kings), free),
            men,
            Self::SQUARES,
        );
        let black_kings = spread_over_free(
            unrank(
                bk,
                u32::from(m.black_kings),
                free - u32::from(m.white_kings),
            ),
            men | white_kings,
            Self::SQUARES,
        );
        Some(Placement {
            white_men,
            white_kings,
            black_men,
            black_kings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Brazilian, International};

    #[test]
    fn binomials_are_pascals_triangle() {
        assert_eq!(choose(50, 2), 1225);
        assert_eq!(choose(45, 3), 14190);
        assert_eq!(choose(3, 5), 0);
        assert_eq!(choose(7, 0), 1);
    }

    #[test]
    fn rank_and_unrank_are_inverse() {
        for k in 0..4 {
            for r in 0..choose(12, k) {
                let set = unrank(r, k, 12);
                assert_eq!(set.count_ones(), k);
                assert_eq!(rank(set), r);
            }
        }
    }

    fn round_trip<R: Rules>(m: Material) {
        let layout = Layout::<R>::new();
        let size = layout.size(m);
        let step = (size / 5000).max(1);
        let mut valid = 0;
        for index in (0..size).step_by(step as usize) {
            if let Some(p) = layout.placement(m, index) {
                valid += 1;
                assert_eq!(Material::of(&p), m);
                assert_eq!(layout.index(&p), index, "{m} {p:?}");
                let pos = layout.position(&p);
                assert_eq!(layout.normalise(&pos), p);
            }
        }
        assert!(valid > 0);
    }

    #[test]
    fn every_index_of_a_slice_maps_back_to_itself() {
        for m in ["1010", "0101", "2011", "1111", "0210", "1102"] {
            let m: Material = m.parse().unwrap();
            round_trip::<International>(m);
            round_trip::<Brazilian>(m);
        }
    }

    #[test]
    fn black_to_move_is_the_half_turn() {
        let pos: Position<International> =
            crate::rules::notation::parse_fen("B:W46,K3:B5,K44").unwrap();
        let layout = Layout::<International>::new();
        let p = layout.normalise(&pos);
        // Black's man on 5 (index 4) becomes a White man on 46 (index 45).
        assert_eq!(p.white_men, 1u64 << 45);
        assert_eq!(p.white_kings, 1u64 << 6);
        assert_eq!(p.black_men, 1u64 << 4);
        assert_eq!(p.black_kings, 1u64 << 47);
    }
}

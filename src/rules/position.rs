//! `Position<R>`: the pieces on the board, the side to move and the Zobrist
//! key, for one variant `R`.
//!
//! Invariants (checked by `Position::new`, kept by `play`):
//! - white and black never share a bit; kings is a subset of white | black;
//! - no bit outside the board's playable squares is set;
//! - no man stands on the row where it would have promoted;
//! - `key` equals `compute_key()`.

use std::fmt;
use std::marker::PhantomData;

use super::geometry::{Dir, Geometry};
use super::mv::Move;
use super::square::{Bit, Bits, Square};
use super::variant::{KingRunStore, Rules};
use super::zobrist;

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Side {
    /// Moves first; starts on the high-numbered squares.
    White = 0,
    /// Starts on squares 1..=20 (10x10) or 1..=12 (8x8).
    Black = 1,
}

impl Side {
    /// 0 for White, 1 for Black: the index of the side's bitboard in a
    /// position and of its men's kind in the Zobrist table.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The directions in which this side's men step forward.
    #[inline(always)]
    pub const fn forward(self) -> [Dir; 2] {
        match self {
            Side::White => [Dir::UpLeft, Dir::UpRight],
            Side::Black => [Dir::DownLeft, Dir::DownRight],
        }
    }

    /// The other player.
    #[inline(always)]
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// `W` or `B`, as in FEN and Hub position strings.
    pub const fn letter(self) -> char {
        match self {
            Side::White => 'W',
            Side::Black => 'B',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "white",
            Side::Black => "black",
        })
    }
}

/// What stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    /// An uncrowned piece.
    Man(Side),
    /// A crowned piece.
    King(Side),
}

impl Piece {
    /// The owner of the piece.
    pub const fn side(self) -> Side {
        match self {
            Piece::Man(side) | Piece::King(side) => side,
        }
    }
}

/// Why a set of pieces is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// A square number outside the board.
    SquareOutOfRange {
        /// The number given.
        square: u32,
        /// The largest number on this board.
        max: u32,
    },
    /// Two pieces were placed on one square.
    DuplicateSquare(Square),
    /// A man stands on the row where it would already have been crowned.
    ManOnPromotionRow(Square, Side),
    /// Bits set that are not squares of the board, or not pieces of one side
    /// alone (a king bit with no piece under it, a square held by both sides).
    OffBoardBits(u64),
    /// More pieces than a side starts with.
    TooManyPieces {
        /// The side with too many.
        side: Side,
        /// How many it has.
        count: u32,
        /// How many it may have.
        max: u32,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::SquareOutOfRange { square, max } => {
                write!(f, "square {square} is not on the board (1..{max})")
            }
            PositionError::DuplicateSquare(sq) => write!(f, "square {sq} is given twice"),
            PositionError::ManOnPromotionRow(sq, side) => {
                write!(f, "a {side} man on square {sq} would already be a king")
            }
            PositionError::OffBoardBits(bits) => {
                write!(f, "bits {bits:#x} are not pieces on squares of this board")
            }
            PositionError::TooManyPieces { side, count, max } => {
                write!(f, "{side} has {count} pieces, at most {max} are possible")
            }
        }
    }
}

impl std::error::Error for PositionError {}

// `play` finds a side's Zobrist kinds from its index.
const _: () = assert!(
    zobrist::BLACK_MAN == zobrist::WHITE_MAN + Side::Black.index()
        && zobrist::BLACK_KING == zobrist::WHITE_KING + Side::Black.index()
);

/// A position of variant `R`.
#[derive(Clone, Copy)]
pub struct Position<R: Rules> {
    /// Each side's pieces, indexed by [`Side::index`]: reading the side to
    /// move's pieces is one load, with no branch on the side.
    pieces: [u64; 2],
    kings: u64,
    side: Side,
    /// Each side's run of quiet moves by one king, where the variant limits
    /// it (`R::KING_MOVE_LIMIT`): 0 for none, else the count in the top two
    /// bits and the king's bit below them. Takes no space in the other
    /// variants.
    king_runs: R::KingRuns,
    key: u64,
    rules: PhantomData<R>,
}

impl<R: Rules> PartialEq for Position<R> {
    fn eq(&self, other: &Self) -> bool {
        (self.pieces, self.kings, self.side, self.king_runs)
            == (other.pieces, other.kings, other.side, other.king_runs)
    }
}

impl<R: Rules> Eq for Position<R> {}

impl<R: Rules> std::hash::Hash for Position<R> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state);
    }
}

impl<R: Rules> Position<R> {
    /// The row on which `side`'s men crown.
    #[inline(always)]
    pub const fn promotion_row(side: Side) -> u64 {
        match side {
            Side::White => <R::Geometry as Geometry>::TOP_ROW,
            Side::Black => <R::Geometry as Geometry>::BOTTOM_ROW,
        }
    }

    /// The initial position: men on the first `START_ROWS` rows of each side,
    /// the variant's first side (`R::FIRST_SIDE`) to move.
    pub fn start() -> Position<R> {
        let rows = <R::Geometry as Geometry>::ROWS;
        let mut black = 0;
        let mut white = 0;
        for row in R::FIRST_START_ROW..R::FIRST_START_ROW + R::START_ROWS {
            black |= <R::Geometry as Geometry>::row_bits(row);
            white |= <R::Geometry as Geometry>::row_bits(rows - 1 - row);
        }
        Position::from_bits_unchecked(white, black, 0, R::FIRST_SIDE)
    }

    /// A position with no pieces, White to move.
    pub fn empty() -> Position<R> {
        Position::from_bits_unchecked(0, 0, 0, Side::White)
    }

    fn from_bits_unchecked(white: u64, black: u64, kings: u64, side: Side) -> Position<R> {
        let mut pos = Position {
            pieces: [white, black],
            kings,
            side,
            king_runs: R::KingRuns::default(),
            key: 0,
            rules: PhantomData,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// Builds a position from bitboards that the caller knows to keep every
    /// invariant of the type (checked in debug builds): for generators that
    /// enumerate positions by the million, where [`Position::from_bits`]
    /// would check each one.
    pub fn from_trusted_bits(white: u64, black: u64, kings: u64, side: Side) -> Position<R> {
        debug_assert!(
            Position::<R>::from_bits(white, black, kings, side).is_ok(),
            "not a position: {white:#x} {black:#x} {kings:#x}"
        );
        Position::from_bits_unchecked(white, black, kings, side)
    }

    /// Builds a position from bitboards (each side's pieces, the kings among
    /// them), checking every invariant of the type: for positions read back
    /// from files written by [`Position::pieces`] and [`Position::all_kings`].
    pub fn from_bits(
        white: u64,
        black: u64,
        kings: u64,
        side: Side,
    ) -> Result<Position<R>, PositionError> {
        let board = <R::Geometry as Geometry>::BOARD;
        let mut pieces = Vec::with_capacity((white | black).count_ones() as usize);
        for (set, owner) in [(white, Side::White), (black, Side::Black)] {
            if set & !board != 0 {
                return Err(PositionError::OffBoardBits(set & !board));
            }
            for bit in super::square::Bits(set) {
                let sq = <R::Geometry as Geometry>::square(bit)
                    .ok_or(PositionError::OffBoardBits(bit.mask()))?;
                let piece = if kings & bit.mask() != 0 {
                    Piece::King(owner)
                } else {
                    Piece::Man(owner)
                };
                pieces.push((sq, piece));
            }
        }
        if kings & !(white | black) != 0 {
            return Err(PositionError::OffBoardBits(kings & !(white | black)));
        }
        // A square of both sides is listed twice: `new` refuses it.
        Position::new(&pieces, side)
    }

    /// Builds a position from the pieces on each square, checking every
    /// invariant of the type.
    pub fn new(pieces: &[(Square, Piece)], side: Side) -> Result<Position<R>, PositionError> {
        let max = <R::Geometry as Geometry>::SQUARES;
        let (mut white, mut black, mut kings) = (0u64, 0u64, 0u64);
        for &(sq, piece) in pieces {
            if sq.get() as u32 > max {
                return Err(PositionError::SquareOutOfRange {
                    square: sq.get() as u32,
                    max,
                });
            }
            let bit = <R::Geometry as Geometry>::bit(sq).mask();
            if (white | black) & bit != 0 {
                return Err(PositionError::DuplicateSquare(sq));
            }
            match piece {
                Piece::Man(Side::White) if bit & <R::Geometry as Geometry>::TOP_ROW != 0 => {
                    return Err(PositionError::ManOnPromotionRow(sq, Side::White))
                }
                Piece::Man(Side::Black) if bit & <R::Geometry as Geometry>::BOTTOM_ROW != 0 => {
                    return Err(PositionError::ManOnPromotionRow(sq, Side::Black))
                }
                _ => {}
            }
            match piece.side() {
                Side::White => white |= bit,
                Side::Black => black |= bit,
            }
            if let Piece::King(_) = piece {
                kings |= bit;
            }
        }
        let most = R::START_ROWS * <R::Geometry as Geometry>::PER_ROW;
        for (side, set) in [(Side::White, white), (Side::Black, black)] {
            if set.count_ones() > most {
                return Err(PositionError::TooManyPieces {
                    side,
                    count: set.count_ones(),
                    max: most,
                });
            }
        }
        Ok(Position::from_bits_unchecked(white, black, kings, side))
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The same pieces with the other side to move.
    pub fn with_side_to_move(&self, side: Side) -> Position<R> {
        let [white, black] = self.pieces;
        Position::from_bits_unchecked(white, black, self.kings, side)
    }

    /// Bitboard of one side's pieces.
    #[inline(always)]
    pub fn pieces(&self, side: Side) -> u64 {
        self.pieces[side.index()]
    }

    /// Bitboard of one side's men.
    #[inline(always)]
    pub fn men(&self, side: Side) -> u64 {
        self.pieces(side) & !self.kings
    }

    /// Whether `mv`, a move of the side to move, makes a man a king (it
    /// ends on the promotion row, or crowns in passing).
    #[inline(always)]
    pub fn crowns(&self, mv: Move) -> bool {
        self.men(self.side) & mv.from().mask() != 0
            && (Self::promotion_row(self.side) & mv.to().mask() != 0 || mv.crowned_in_passing())
    }

    /// Bitboard of one side's kings.
    #[inline(always)]
    pub fn kings(&self, side: Side) -> u64 {
        self.pieces(side) & self.kings
    }

    /// Bitboard of all kings.
    #[inline(always)]
    pub fn all_kings(&self) -> u64 {
        self.kings
    }

    /// Bitboard of all pieces.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// Bitboard of the empty playable squares.
    #[inline(always)]
    pub fn empty_squares(&self) -> u64 {
        <R::Geometry as Geometry>::BOARD & !self.occupied()
    }

    /// The piece on a bit, if any.
    pub fn piece_on(&self, bit: Bit) -> Option<Piece> {
        let mask = bit.mask();
        let side = if self.pieces(Side::White) & mask != 0 {
            Side::White
        } else if self.pieces(Side::Black) & mask != 0 {
            Side::Black
        } else {
            return None;
        };
        Some(if self.kings & mask != 0 {
            Piece::King(side)
        } else {
            Piece::Man(side)
        })
    }

    /// The piece on a standard square, if any (`None` off the board too).
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq.get() as u32 > <R::Geometry as Geometry>::SQUARES {
            return None;
        }
        self.piece_on(<R::Geometry as Geometry>::bit(sq))
    }

    /// Every piece with its square, in square order.
    pub fn piece_list(&self) -> Vec<(Square, Piece)> {
        Bits(self.occupied())
            .filter_map(|bit| Some((<R::Geometry as Geometry>::square(bit)?, self.piece_on(bit)?)))
            .collect()
    }

    /// The Zobrist key, kept incrementally by `play`.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = zobrist::of_set(zobrist::WHITE_MAN, self.men(Side::White))
            ^ zobrist::of_set(zobrist::BLACK_MAN, self.men(Side::Black))
            ^ zobrist::of_set(zobrist::WHITE_KING, self.kings(Side::White))
            ^ zobrist::of_set(zobrist::BLACK_KING, self.kings(Side::Black));
        if self.side == Side::Black {
            key ^= zobrist::BLACK_TO_MOVE;
        }
        key ^ zobrist::king_run(0, self.king_runs.code(0))
            ^ zobrist::king_run(1, self.king_runs.code(1))
    }

    /// The run of quiet moves that one king of `side` has made in a row
    /// (its bit and the count, `1..=R::KING_MOVE_LIMIT`), `None` when the
    /// side's last move was not a quiet king move, the side has no men, or
    /// the variant sets no limit.
    #[inline(always)]
    pub fn king_run(&self, side: Side) -> Option<(Bit, u32)> {
        let code = self.king_runs.code(side.index());
        (R::KING_MOVE_LIMIT != 0 && code != 0).then(|| (Bit::new(code & 63), u32::from(code >> 6)))
    }

    /// The king of the side to move that has made its last allowed quiet
    /// move in a row (Frisian: three), as a bitboard: it may still capture
    /// but not move quietly. 0 when there is none.
    #[inline(always)]
    pub fn frozen_king(&self) -> u64 {
        if R::KING_MOVE_LIMIT == 0 {
            return 0;
        }
        match self.king_run(self.side) {
            Some((bit, count)) if count >= u32::from(R::KING_MOVE_LIMIT) => bit.mask(),
            _ => 0,
        }
    }

    /// The same position with a king run set for `side`, as a game that
    /// reached it would have it: `count` quiet moves in a row by the king
    /// on `bit`, which must be a king of `side` while `side` has men (else
    /// the position is returned unchanged).
    pub fn with_king_run(&self, side: Side, bit: Bit, count: u32) -> Position<R> {
        let mut next = *self;
        let valid = R::KING_MOVE_LIMIT != 0
            && (1..=u32::from(R::KING_MOVE_LIMIT)).contains(&count)
            && self.kings(side) & bit.mask() != 0
            && self.men(side) != 0;
        if valid {
            next.king_runs
                .set_code(side.index(), (count as u8) << 6 | bit.index() as u8);
            next.key = next.compute_key();
        }
        next
    }

    /// The king runs after `mv`, played by the side to move of this
    /// position into `after` (`is_king`: the mover was a king), and the
    /// key change: a quiet king move of a side with men starts or extends
    /// its run, any other move ends it; a side left without men has no
    /// run. Takes `after` by value: borrowing the new position would keep
    /// `play` from building it in place.
    #[inline(always)]
    fn king_runs_after(&self, after: Position<R>, mv: Move, is_king: bool) -> (R::KingRuns, u64) {
        let (us, them) = (self.side, self.side.opponent());
        let mine = if is_king && mv.captured() == 0 && after.men(us) != 0 {
            let count = match self.king_run(us) {
                Some((bit, count)) if bit == mv.from() => count + 1,
                _ => 1,
            };
            (count.min(u32::from(R::KING_MOVE_LIMIT)) as u8) << 6 | mv.to().index() as u8
        } else {
            0
        };
        let (u, t) = (us.index(), them.index());
        let old = self.king_runs;
        let mut runs = old;
        runs.set_code(u, mine);
        if after.men(them) == 0 {
            runs.set_code(t, 0);
        }
        let change = zobrist::king_run(u, old.code(u))
            ^ zobrist::king_run(u, runs.code(u))
            ^ zobrist::king_run(t, old.code(t))
            ^ zobrist::king_run(t, runs.code(t));
        (runs, change)
    }

    /// The position after `mv`, which must be legal in this position.
    ///
    /// Captured pieces are removed, the mover lands on `to`, and a man that
    /// ends its move on the far row is crowned (FMJD art. 3.5, §4.15), as is
    /// one crowned during its capture (Russian).
    #[inline(always)]
    pub fn play(&self, mv: Move) -> Position<R> {
        let from = mv.from().mask();
        let to = mv.to().mask();
        let captured = mv.captured();
        let is_king = self.kings & from != 0;
        let mut next = *self;
        let us = self.side.index();
        let them = us ^ 1;
        let (man_kind, king_kind) = (zobrist::WHITE_MAN + us, zobrist::WHITE_KING + us);
        let (opp_man, opp_king) = (zobrist::WHITE_MAN + them, zobrist::WHITE_KING + them);
        let mut key = self.key ^ zobrist::BLACK_TO_MOVE;
        if captured != 0 {
            key ^= zobrist::of_set(opp_man, captured & !self.kings)
                ^ zobrist::of_set(opp_king, captured & self.kings);
            next.kings &= !captured;
        }
        next.pieces[us] ^= from ^ to;
        next.pieces[them] &= !captured;
        if is_king {
            next.kings ^= from ^ to;
            key ^= zobrist::PIECE[king_kind][mv.from().index()]
                ^ zobrist::PIECE[king_kind][mv.to().index()];
        } else {
            let promotion_row = Self::promotion_row(self.side);
            key ^= zobrist::PIECE[man_kind][mv.from().index()];
            if to & promotion_row != 0 || mv.crowned_in_passing() {
                next.kings |= to;
                key ^= zobrist::PIECE[king_kind][mv.to().index()];
            } else {
                key ^= zobrist::PIECE[man_kind][mv.to().index()];
            }
        }
        if R::KING_MOVE_LIMIT != 0 {
            let (runs, change) = self.king_runs_after(next, mv, is_king);
            next.king_runs = runs;
            key ^= change;
        }
        next.side = self.side.opponent();
        next.key = key;
        next
    }

    /// Whether the piece that moves in `mv` is a man.
    #[inline(always)]
    pub fn moves_man(&self, mv: Move) -> bool {
        self.kings & mv.from().mask() == 0
    }
}

impl<R: Rules> fmt::Debug for Position<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Position<{}>({})",
            R::NAME,
            super::notation::to_fen(self)
        )
    }
}

impl<R: Rules> fmt::Display for Position<R> {
    /// An ASCII diagram of the board as White sees it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = <R::Geometry as Geometry>::ROWS;
        for row in 0..rows {
            for file in 0..rows {
                let c = match <R::Geometry as Geometry>::from_row_file(row, file) {
                    None => ' ',
                    Some(sq) => match self.piece_at(sq) {
                        None => '.',
                        Some(Piece::Man(Side::White)) => 'w',
                        Some(Piece::Man(Side::Black)) => 'b',
                        Some(Piece::King(Side::White)) => 'W',
                        Some(Piece::King(Side::Black)) => 'B',
                    },
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        write!(f, "{} to move", self.side)
    }
}

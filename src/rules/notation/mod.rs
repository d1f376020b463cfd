//! Text forms of squares, moves and positions.
//!
//! - Squares: standard numbers (`1`..`50`, `1`..`32`), and on input also
//!   coordinates (`c3`; a1 = White's bottom-left dark square).
//! - Moves: `32-28`; captures `28x19` (short) or the Hub long form
//!   `28x19x23` (from, to, then every captured square). On input also PDN
//!   paths (`28x19x10`: from, landing squares, to) and coordinates
//!   (`c3-d4`, `d4xf6`).
//! - Positions: the Hub position string (`W` + one of `wbWBe` per square)
//!   and PDN FEN (`W:W31-50:B1-20`, `K` before a king, ranges allowed).
//!
//! - Moves as square numbers (`squares`): a move by its start, end and
//!   captured squares, as the protocols name it, matched against the
//!   legal moves.
//!
//! Every parser returns a `NotationError` that names the offending text;
//! none panics on any input.

mod squares;

use std::fmt;

use super::geometry::Geometry;
use super::mv::Move;
use super::position::{Piece, Position, PositionError, Side};
use super::square::{Bits, Square};
use super::variant::Rules;
pub use squares::{find_move, squares_of, MoveSquares};

/// Why a text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Nothing was given.
    Empty,
    /// A square that is neither a number on the board nor a dark-square
    /// coordinate.
    BadSquare(String),
    /// The text is not a move in any accepted form.
    BadMoveSyntax(String),
    /// The move is well formed but not legal in the position.
    IllegalMove(String),
    /// `fromxto` fits several legal captures; the long form decides.
    AmbiguousMove {
        /// The text given.
        text: String,
        /// The candidates in Hub long form.
        candidates: Vec<String>,
    },
    /// A Hub position string of the wrong length.
    BadLength {
        /// Characters expected.
        expected: usize,
        /// Characters found.
        found: usize,
    },
    /// Text given as a position in either form that is neither: no `:`
    /// of a FEN, and not a Hub string's length.
    NotAPosition {
        /// Characters of a Hub string on this board.
        expected: usize,
        /// Characters found.
        found: usize,
    },
    /// A character that has no meaning at that place.
    BadChar {
        /// Index of the character (0-based) in the text.
        index: usize,
        /// The character.
        found: char,
    },
    /// A FEN that does not have the `side:W...:B...` shape.
    BadFen(String),
    /// The pieces do not make a valid position.
    Position(PositionError),
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => f.write_str("empty input"),
            NotationError::BadSquare(s) => write!(f, "'{s}' is not a square of this board"),
            NotationError::BadMoveSyntax(s) => write!(
                f,
                "'{s}' is not a move (expected from-to, fromxto or fromxtoxcaptured...)"
            ),
            NotationError::IllegalMove(s) => write!(f, "'{s}' is not a legal move here"),
            NotationError::AmbiguousMove { text, candidates } => write!(
                f,
                "'{text}' is ambiguous: it could be {}",
                candidates.join(" or ")
            ),
            NotationError::BadLength { expected, found } => write!(
                f,
                "position string has {found} characters, expected {expected}"
            ),
            NotationError::NotAPosition { expected, found } => write!(
                f,
                "not a position: a FEN has ':' between its parts (W:W31,32,33:B1,2,3), and a \
                 Hub position string has {expected} characters on this board (W or B to move, \
                 then w, b, W, B or e for each square), not {found}"
            ),
            NotationError::BadChar { index, found } => {
                write!(f, "unexpected character '{found}' at index {index}")
            }
            NotationError::BadFen(s) => write!(f, "bad FEN: {s}"),
            NotationError::Position(e) => write!(f, "invalid position: {e}"),
        }
    }
}

impl std::error::Error for NotationError {}

impl From<PositionError> for NotationError {
    fn from(e: PositionError) -> Self {
        NotationError::Position(e)
    }
}

/// How to print a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveStyle {
    /// `28x19`: from and to only (PDN short form).
    Short,
    /// `28x19x23`: from, to and every captured square in increasing order
    /// (the Hub protocol's form; it identifies a capture exactly).
    Hub,
}

/// Parses a square: a standard number, or a coordinate like `c3` that names
/// a dark square.
pub fn parse_square<R: Rules>(text: &str) -> Result<Square, NotationError> {
    let t = text.trim();
    let bad = || NotationError::BadSquare(t.to_string());
    let max = <R::Geometry as Geometry>::SQUARES;
    if t.bytes().all(|b| b.is_ascii_digit()) && !t.is_empty() && t.len() <= 3 {
        let n: u32 = t.parse().map_err(|_| bad())?;
        if n == 0 || n > max {
            return Err(bad());
        }
        return Square::new(n as u8).ok_or_else(bad);
    }
    let mut chars = t.chars();
    let file = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
    let rank_text: String = chars.collect();
    if !file.is_ascii_lowercase() || rank_text.is_empty() || rank_text.len() > 2 {
        return Err(bad());
    }
    let rank: u32 = rank_text.parse().map_err(|_| bad())?;
    let rows = <R::Geometry as Geometry>::ROWS;
    let file = file as u32 - 'a' as u32;
    if rank == 0 || rank > rows {
        return Err(bad());
    }
    <R::Geometry as Geometry>::from_row_file(rows - rank, file).ok_or_else(bad)
}

/// The standard number of a bit of `R`'s board.
fn number<R: Rules>(bit: super::square::Bit) -> u8 {
    <R::Geometry as Geometry>::square(bit).map_or(0, Square::get)
}

/// The name of a bit of `R`'s board in moves and FEN: its standard number,
/// or its coordinates (`a2`) on a board named by them (Turkish).
fn square_name<R: Rules>(bit: super::square::Bit) -> String {
    type G<R> = <R as Rules>::Geometry;
    match G::<R>::square(bit) {
        Some(sq) if G::<R>::NAMED_BY_COORDINATES => {
            let (row, file) = G::<R>::row_file(sq);
            format!("{}{}", char::from(b'a' + file as u8), G::<R>::ROWS - row)
        }
        Some(sq) => sq.get().to_string(),
        None => "0".to_string(),
    }
}

/// Prints a move in the given style.
pub fn format_move<R: Rules>(mv: Move, style: MoveStyle) -> String {
    let from = square_name::<R>(mv.from());
    let to = square_name::<R>(mv.to());
    if !mv.is_capture() {
        return format!("{from}-{to}");
    }
    let mut text = format!("{from}x{to}");
    if style == MoveStyle::Hub {
        let mut captured: Vec<_> = mv.captured_bits().collect();
        captured.sort_unstable_by_key(|&bit| number::<R>(bit));
        for bit in captured {
            text.push('x');
            text.push_str(&square_name::<R>(bit));
        }
    }
    text
}

/// Reads a move in any accepted form and finds it among the legal moves of
/// `pos`.
pub fn parse_move<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let syntax = || NotationError::BadMoveSyntax(t.to_string());
    let quiet = t.contains('-');
    let parts: Vec<&str> = if quiet {
        t.split('-').collect()
    } else {
        t.split(['x', 'X', ':']).collect()
    };
    if parts.len() < 2 || (quiet && parts.len() != 2) {
        return Err(syntax());
    }
    let squares = parts
        .iter()
        .map(|p| parse_square::<R>(p))
        .collect::<Result<Vec<Square>, _>>()?;
    let bit = |sq: Square| <R::Geometry as Geometry>::bit(sq);
    let (from, to) = (bit(squares[0]), bit(squares[1]));
    let legal = pos.legal_moves();
    let matches = |to: super::square::Bit| -> Vec<Move> {
        legal
            .iter()
            .copied()
            .filter(|m| m.from() == from && m.to() == to)
            .collect()
    };
    let pick = |found: Vec<Move>| -> Result<Move, NotationError> {
        match found.len() {
            0 => Err(NotationError::IllegalMove(t.to_string())),
            1 => Ok(found[0]),
            _ => Err(NotationError::AmbiguousMove {
                text: t.to_string(),
                candidates: found
                    .iter()
                    .map(|m| format_move::<R>(*m, MoveStyle::Hub))
                    .collect(),
            }),
        }
    };
    if squares.len() == 2 {
        let found = matches(to);
        if quiet {
            // A quiet form names a quiet move; accept it for a capture only
            // when exactly one capture fits (some programs write captures so).
            let quiet_moves: Vec<Move> =
                found.iter().copied().filter(|m| !m.is_capture()).collect();
            if !quiet_moves.is_empty() {
                return pick(quiet_moves);
            }
        }
        return pick(found);
    }
    // Hub long form: from, to, then the captured squares in any order.
    let captured = squares[2..]
        .iter()
        .fold(0u64, |acc, &sq| acc | bit(sq).mask());
    let hub: Vec<Move> = matches(to)
        .into_iter()
        .filter(|m| m.captured() == captured && m.capture_count() as usize == squares.len() - 2)
        .collect();
    if !hub.is_empty() {
        return pick(hub);
    }
    // PDN path: from, landing squares, to.
    let last = bit(*squares.last().unwrap_or(&squares[1]));
    pick(matches(last))
}

/// The character of a piece in a Hub position string.
fn hub_char(piece: Option<Piece>) -> char {
    match piece {
        None => 'e',
        Some(Piece::Man(Side::White)) => 'w',
        Some(Piece::Man(Side::Black)) => 'b',
        Some(Piece::King(Side::White)) => 'W',
        Some(Piece::King(Side::Black)) => 'B',
    }
}

/// The Hub position string: side to move, then one character per square.
pub fn to_hub<R: Rules>(pos: &Position<R>) -> String {
    let mut s = String::with_capacity(<R::Geometry as Geometry>::HUB_LEN);
    s.push(pos.side_to_move().letter());
    for n in 1..=<R::Geometry as Geometry>::SQUARES as u8 {
        s.push(hub_char(Square::new(n).and_then(|sq| pos.piece_at(sq))));
    }
    s
}

/// Reads a Hub position string (51 characters on 10x10, 33 on 8x8).
pub fn parse_hub<R: Rules>(text: &str) -> Result<Position<R>, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let chars: Vec<char> = t.chars().collect();
    let expected = <R::Geometry as Geometry>::HUB_LEN;
    if chars.len() != expected {
        return Err(NotationError::BadLength {
            expected,
            found: chars.len(),
        });
    }
    let side = match chars[0] {
        'W' | 'w' => Side::White,
        'B' | 'b' => Side::Black,
        c => return Err(NotationError::BadChar { index: 0, found: c }),
    };
    let mut pieces = Vec::new();
    for (i, &c) in chars.iter().enumerate().skip(1) {
        let piece = match c {
            'e' | '.' => continue,
            'w' => Piece::Man(Side::White),
            'b' => Piece::Man(Side::Black),
            'W' => Piece::King(Side::White),
            'B' => Piece::King(Side::Black),
            found => return Err(NotationError::BadChar { index: i, found }),
        };
        let sq = Square::new(i as u8).ok_or(NotationError::BadChar { index: i, found: c })?;
        pieces.push((sq, piece));
    }
    Ok(Position::new(&pieces, side)?)
}

/// PDN FEN with plain square lists: `W:W31,32,K45:B1,2`.
pub fn to_fen<R: Rules>(pos: &Position<R>) -> String {
    let mut s = String::new();
    s.push(pos.side_to_move().letter());
    for side in [Side::White, Side::Black] {
        s.push(':');
        s.push(side.letter());
        let mut first = true;
        let mut bits: Vec<_> = Bits(pos.pieces(side)).collect();
        if <R::Geometry as Geometry>::NAMED_BY_COORDINATES {
            // By rank from White's side, then by file: `a2,b2,...,a3`.
            bits.sort_by_key(|bit| (63 - bit.index()) / 8 * 8 + bit.index() % 8);
        }
        for bit in bits {
            if !first {
                s.push(',');
            }
            first = false;
            if pos.all_kings() & bit.mask() != 0 {
                s.push('K');
            }
            s.push_str(&square_name::<R>(bit));
        }
    }
    s
}

/// Reads a PDN FEN: side to move, then a `W` and a `B` section in either
/// order, each a comma list of squares or ranges (`31-35`), `K` before a
/// king; a trailing `.`, quotes and `H`/`F` move-counter sections are
/// accepted and ignored.
pub fn parse_fen<R: Rules>(text: &str) -> Result<Position<R>, NotationError> {
    let t = text.trim().trim_matches('"').trim().trim_end_matches('.');
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let bad = |why: &str| NotationError::BadFen(format!("{why} in '{t}'"));
    let mut sections = t.split(':');
    let side = match sections.next().map(str::trim) {
        Some("W") | Some("w") => Side::White,
        Some("B") | Some("b") => Side::Black,
        _ => return Err(bad("the side to move must come first, W or B")),
    };
    let mut pieces = Vec::new();
    let mut seen = [false; 2];
    for section in sections {
        let section = section.trim();
        let mut chars = section.chars();
        let owner = match chars.next() {
            Some('W') | Some('w') => Side::White,
            Some('B') | Some('b') => Side::Black,
            Some('H') | Some('h') | Some('F') | Some('f') => continue,
            _ => return Err(bad(&format!("section '{section}' is not W... or B..."))),
        };
        let index = owner.index();
        if seen[index] {
            return Err(bad(&format!("{owner} is given twice")));
        }
        seen[index] = true;
        let list = chars.as_str().trim();
        if list.is_empty() {
            continue;
        }
        for item in list.split(',') {
            let item = item.trim();
            let (king, body) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let piece = if king {
                Piece::King(owner)
            } else {
                Piece::Man(owner)
            };
            match body.split_once('-') {
                Some((a, b)) => {
                    let a = parse_square::<R>(a)?;
                    let b = parse_square::<R>(b)?;
                    if a > b {
                        return Err(bad(&format!("range '{item}' runs backward")));
                    }
                    for n in a.get()..=b.get() {
                        if let Some(sq) = Square::new(n) {
                            pieces.push((sq, piece));
                        }
                    }
                }
                None => pieces.push((parse_square::<R>(body)?, piece)),
            }
        }
    }
    if !seen[0] || !seen[1] {
        return Err(bad("both a W and a B section are needed"));
    }
    Ok(Position::new(&pieces, side)?)
}

/// Reads a position in either form: a Hub position string or a FEN.
pub fn parse_position<R: Rules>(text: &str) -> Result<Position<R>, NotationError> {
    if text.contains(':') {
        parse_fen(text)
    } else {
        parse_hub(text).map_err(|e| match e {
            NotationError::BadLength { expected, found } => {
                NotationError::NotAPosition { expected, found }
            }
            other => other,
        })
    }
}

//! Endgame databases: the exact value of every position of a few pieces,
//! win, draw or loss for the side to move with the distance to the end of
//! the game, built by retrograde analysis (`build`), kept in files with a
//! header and a checksum (`file`) as blocks packed one by one (`pack`), and
//! probed by the search.
//!
//! The value ignores the draw rules (repetition and the move-count rules):
//! it is the result of perfect play to the end of the game. The distance,
//! in plies, lets the caller check a win against the counts the draw rules
//! leave: the winner ends the game within that many plies whatever the
//! loser does, and the loser cannot be made to lose sooner.
//!
//! Supported: every variant whose goal is to take or block all the other
//! side's pieces (not Losing, not Breakthrough), on any of the boards.
//! Each table holds one material slice with White to move; a position with
//! Black to move is looked up turned half round with the colours swapped.

mod build;
mod file;
mod index;
mod material;
mod pack;

use std::fmt;
use std::path::{Path, PathBuf};

pub use build::{build, build_in_memory, build_slices, BuildEvent};
pub use index::{Layout, Placement};
pub use material::Material;

use crate::rules::movegen::has_capture;
use crate::rules::{Goal, Position, Rules};

use pack::Packed;

/// The set bits of a `u64`, as indices, lowest first.
#[derive(Clone, Copy)]
pub(crate) struct Members(pub u64);

impl Iterator for Members {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            return None;
        }
        let s = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(s)
    }
}

/// The value of a position for its side to move, under perfect play and
/// without the draw rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// Neither side can force a win.
    Draw,
    /// The side to move wins; the game ends after this many plies (odd)
    /// when the winner plays fastest and the loser slowest.
    Win(u32),
    /// The side to move loses; the game ends after this many plies (even).
    Loss(u32),
}

/// The longest distance a table stores.
pub const MAX_PLIES: u32 = 253;

/// The byte of a table entry that is not a position (two men on a square).
const NOT_A_POSITION: u8 = u8::MAX;

impl Value {
    /// The table byte: 0 a draw, `plies + 1` a decided position (odd plies
    /// a win, even a loss).
    #[inline]
    fn encode(self) -> u8 {
        match self {
            Value::Draw => 0,
            Value::Win(p) | Value::Loss(p) => {
                debug_assert!(p <= MAX_PLIES);
                (p + 1) as u8
            }
        }
    }

    /// The value of a table byte (`None` for an entry that is no position).
    #[inline]
    fn decode(byte: u8) -> Option<Value> {
        match byte {
            0 => Some(Value::Draw),
            NOT_A_POSITION => None,
            b => {
                let plies = u32::from(b) - 1;
                Some(if plies % 2 == 1 {
                    Value::Win(plies)
                } else {
                    Value::Loss(plies)
                })
            }
        }
    }

    /// The better of two values for the side to move: the fastest win,
    /// then a draw, then the slowest loss.
    pub fn better(self, other: Value) -> Value {
        let rank = |v: Value| match v {
            Value::Win(p) => 2_000 - i64::from(p),
            Value::Draw => 1_000,
            Value::Loss(p) => i64::from(p),
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }

    /// The value of the position before a move that leads to one of this
    /// value, for the side that made the move.
    #[inline]
    pub fn before_move(self) -> Value {
        match self {
            Value::Draw => Value::Draw,
            Value::Win(p) => Value::Loss(p + 1),
            Value::Loss(p) => Value::Win(p + 1),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Draw => f.write_str("draw"),
            Value::Win(p) => write!(f, "win in {p} plies"),
            Value::Loss(p) => write!(f, "loss in {p} plies"),
        }
    }
}

/// What went wrong with a database.
#[derive(Debug)]
pub enum EgdbError {
    /// The variant's goal is not the one the databases solve.
    Unsupported(&'static str),
    /// Reading or writing a file failed.
    Io(PathBuf, std::io::Error),
    /// A file is not a finished table of the expected slice.
    BadFile(PathBuf, String),
    /// A slice's tables are not on disk.
    Missing(PathBuf),
    /// More pieces than a table can hold.
    TooManyPieces(u32),
    /// A distance beyond what a table stores.
    TooDeep(Material),
}

impl fmt::Display for EgdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgdbError::Unsupported(variant) => write!(
                f,
                "{variant}: no endgame databases for this variant (they cover the variants with diagonal moves and captures whose goal is to take or block every piece)"
            ),
            EgdbError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            EgdbError::BadFile(path, why) => {
                write!(f, "{}: not an endgame table of tempo: {why}", path.display())
            }
            EgdbError::Missing(path) => write!(
                f,
                "{}: missing (build it with `tempo egdb build`)",
                path.display()
            ),
            EgdbError::TooManyPieces(n) => write!(
                f,
                "{n} pieces: at most {} a side of one kind",
                material::MAX_OF_A_KIND
            ),
            EgdbError::TooDeep(m) => write!(
                f,
                "slice {m}: a distance past {MAX_PLIES} plies, more than a table stores"
            ),
        }
    }
}

impl std::error::Error for EgdbError {}

/// One slice's entries in memory: as built, or packed as read from a file.
enum Table {
    /// One byte an index.
    Plain(Box<[u8]>),
    /// Compressed blocks (see `pack`).
    Packed(Packed),
}

impl Table {
    /// The entry at `index`.
    #[inline]
    fn get(&self, index: u64) -> u8 {
        match self {
            Table::Plain(values) => values[index as usize],
            Table::Packed(packed) => packed.get(index),
        }
    }
}

/// The tables of each variant, for [`Erased`](crate::rules::Erased)
/// tables: `Of<R> = Egdb<R>`.
pub struct Tables;

impl crate::rules::ByVariant for Tables {
    type Of<R: Rules> = Egdb<R>;
}

/// The loaded tables of one variant: every slice of up to `pieces` pieces.
pub struct Egdb<R: Rules> {
    layout: Layout<R>,
    slices: Vec<Option<Table>>,
    pieces: u32,
}

impl<R: Rules> fmt::Debug for Egdb<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let slices = self.slices.iter().filter(|s| s.is_some()).count();
        write!(
            f,
            "Egdb<{}>({} pieces, {slices} slices)",
            R::NAME,
            self.pieces
        )
    }
}

impl<R: Rules> Egdb<R> {
    /// Whether the variant's rules are ones the databases solve: the normal
    /// goal, diagonal moves and captures only (the builder unmakes diagonal
    /// moves; Turkish pieces move and take along the files and rows) and no
    /// king-move limit (a position would need its king runs).
    pub fn supports() -> Result<(), EgdbError> {
        if R::GOAL == Goal::Normal
            && !R::ORTHOGONAL_MOVES
            && !R::ORTHOGONAL_CAPTURES
            && R::KING_MOVE_LIMIT == 0
        {
            Ok(())
        } else {
            Err(EgdbError::Unsupported(R::NAME))
        }
    }

    /// A database with no tables: every probe answers `None`.
    pub fn empty() -> Egdb<R> {
        Egdb {
            layout: Layout::new(),
            slices: (0..Material::KEYS).map(|_| None).collect(),
            pieces: 0,
        }
    }

    /// Loads every slice of up to `pieces` pieces from `dir`.
    pub fn load(dir: &Path, pieces: u32) -> Result<Egdb<R>, EgdbError> {
        Self::supports()?;
        let mut db = Egdb::empty();
        for m in Material::all_up_to(pieces) {
            db.read_slice(dir, m)?;
        }
        db.pieces = pieces;
        Ok(db)
    }

    /// Loads the slices of 2, 3, ... pieces from `dir` up to `pieces` or
    /// to the first count with a slice missing, whichever comes first; an
    /// error if not even the 2-piece slices are there, or if a file is bad.
    pub fn load_available(dir: &Path, pieces: u32) -> Result<Egdb<R>, EgdbError> {
        Self::supports()?;
        let mut db = Egdb::empty();
        let all = Material::all_up_to(pieces);
        for n in 2..=pieces {
            let slices: Vec<Material> = all.iter().copied().filter(|m| m.pieces() == n).collect();
            if n > 2 && slices.iter().any(|&m| !file::exists::<R>(dir, m)) {
                break;
            }
            for m in slices {
                db.read_slice(dir, m)?;
            }
            db.pieces = n;
        }
        Ok(db)
    }

    /// The most pieces a probe answers for (every slice up to it loaded).
    pub fn pieces(&self) -> u32 {
        self.pieces
    }

    /// The board layout and the index of the tables.
    pub fn layout(&self) -> &Layout<R> {
        &self.layout
    }

    /// Reads slice `m`'s file from `dir` and keeps it packed.
    fn read_slice(&mut self, dir: &Path, m: Material) -> Result<(), EgdbError> {
        let packed = file::read::<R>(dir, m, self.layout.size(m))?;
        self.slices[m.key()] = Some(Table::Packed(packed));
        Ok(())
    }

    /// Keeps a slice's entries, one byte an index.
    fn insert(&mut self, m: Material, values: Box<[u8]>) {
        self.slices[m.key()] = Some(Table::Plain(values));
    }

    fn has(&self, m: Material) -> bool {
        self.slices[m.key()].is_some()
    }

    /// The value of a position whose slice is loaded. With a capture
    /// pending it is the best of the captures (the tables do not keep
    /// those positions' values).
    #[inline]
    fn probe_loaded(&self, pos: &Position<R>) -> Option<Value> {
        let us = pos.side_to_move();
        if pos.pieces(us) == 0 {
            return Some(Value::Loss(0));
        }
        if pos.pieces(us.opponent()) == 0 {
            return None;
        }
        if has_capture(pos) {
            let mut best: Option<Value> = None;
            for &mv in pos.legal_moves().iter() {
                let after = self.probe_loaded(&pos.play(mv))?.before_move();
                best = Some(best.map_or(after, |b| b.better(after)));
            }
            return best;
        }
        let p = self.layout.normalise(pos);
        let table = self.slices[Material::of(&p).key()].as_ref()?;
        Value::decode(table.get(self.layout.index(&p)))
    }

    /// The value of `pos` if it has at most [`Egdb::pieces`] pieces.
    #[inline]
    pub fn probe(&self, pos: &Position<R>) -> Option<Value> {
        if pos.occupied().count_ones() > self.pieces {
            return None;
        }
        self.probe_loaded(pos)
    }

    /// Counts of the slice's positions by value: wins, draws, losses (of
    /// the side to move), `None` if the slice is not loaded or was read
    /// packed from a file (whose positions with a capture pending hold no
    /// value of their own).
    pub fn census(&self, m: Material) -> Option<[u64; 3]> {
        let Some(Table::Plain(table)) = self.slices[m.key()].as_ref() else {
            return None;
        };
        let mut counts = [0u64; 3];
        for &b in table.iter() {
            match Value::decode(b) {
                Some(Value::Win(_)) => counts[0] += 1,
                Some(Value::Draw) => counts[1] += 1,
                Some(Value::Loss(_)) => counts[2] += 1,
                None => {}
            }
        }
        Some(counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_survive_their_byte() {
        for v in [Value::Draw, Value::Win(1), Value::Loss(0), Value::Win(253)] {
            assert_eq!(Value::decode(v.encode()), Some(v));
        }
        assert_eq!(Value::decode(NOT_A_POSITION), None);
        assert_eq!(Value::Loss(0).before_move(), Value::Win(1));
        assert_eq!(Value::Win(5).before_move(), Value::Loss(6));
    }
}

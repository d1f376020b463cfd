//! The self-play data file: quiet positions with their game's result and
//! the search's score, written in chunks so that an interrupted run loses at
//! most the chunks it had not finished.
//!
//! ```text
//! header, 40 bytes:
//!      0   8  magic "TEMPOSPD"
//!      8   4  format version (1), little-endian
//!     12  24  variant name (ASCII, zero-padded)
//!     36   4  reserved, 0
//! then the recipe, what made the file (files written before it have
//! none):
//!      0   4  "RCPE"
//!      4   4  bytes of the text
//!      8   8  FNV-1a 64 checksum of the text
//!     16   n  the text: `key=value` lines (UTF-8)
//! then chunks, each one batch of whole games:
//!      0   4  "CHNK"
//!      4   4  batch number (which games: see `selfplay`)
//!      8   4  records in the chunk
//!     12   4  games in the chunk
//!     16   8  FNV-1a 64 checksum of the records
//!     24  32n the records, each:
//!             0  8  white pieces (bitboard of the variant's board)
//!             8  8  black pieces
//!            16  8  kings (of both sides)
//!            24  1  side to move (0 White, 1 Black)
//!            25  1  game result for White (0 loss, 1 draw, 2 win)
//!            26  2  search score, White's view, hundredths of a man (i16)
//!            28  2  ply of the position in its game
//!            30  2  reserved, 0
//! ```
//!
//! A run writes its chunks in the order their batches finish, which with
//! several threads is not always batch order; a file holds each batch once.
//! `tempo data merge` (see `merge`) makes one file of several, every batch
//! once, in batch order.
//!
//! A file whose last chunk is cut short (the run was stopped while writing
//! it) is refused by the readers, and `tempo selfplay` run again on the same
//! file cuts that chunk off and goes on, if its recipe is the file's: a run
//! under other options, another seed or another build is refused.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::recipe::{Recipe, MAX_RECIPE, RECIPE_HEADER, RECIPE_MAGIC};
use crate::checksum::fnv1a;
use crate::rules::{Position, Rules, Side, VariantKind};

const MAGIC: &[u8; 8] = b"TEMPOSPD";
const VERSION: u32 = 1;
const HEADER: usize = 40;
const CHUNK_MAGIC: &[u8; 4] = b"CHNK";
const CHUNK_HEADER: usize = 24;
/// Bytes of one record.
pub const RECORD: usize = 32;

/// One quiet position of a self-play game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// The kings of both sides.
    pub kings: u64,
    /// The side to move.
    pub side: Side,
    /// The game's result for White: -1 loss, 0 draw, 1 win.
    pub result: i8,
    /// The search's score of the position from White's view.
    pub score: i16,
    /// Plies played before the position.
    pub ply: u16,
}

impl Record {
    /// The record of `pos`.
    pub fn of<R: Rules>(pos: &Position<R>, result: i8, score: i16, ply: u16) -> Record {
        Record {
            white: pos.pieces(Side::White),
            black: pos.pieces(Side::Black),
            kings: pos.all_kings(),
            side: pos.side_to_move(),
            result,
            score,
            ply,
        }
    }

    /// The position, checked against the rules of `R`.
    pub fn position<R: Rules>(&self) -> Result<Position<R>, String> {
        Position::from_bits(self.white, self.black, self.kings, self.side)
            .map_err(|e| e.to_string())
    }

    /// The identity of the position: a well-mixed 64-bit key of the
    /// pieces, the kings and the side to move, not of the result, score or
    /// ply. Equal positions have equal keys, and keys of different
    /// positions differ but by chance (about one pair in 2^64), so the
    /// positions of a data set are told apart and counted once by key.
    pub fn key(&self) -> u64 {
        use crate::rules::random::mix;
        let mut h = mix(self.white ^ 0x9E37_79B9_7F4A_7C15);
        h = mix(h ^ self.black);
        h = mix(h ^ self.kings);
        mix(h ^ self.side.index() as u64)
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.white.to_le_bytes());
        out.extend_from_slice(&self.black.to_le_bytes());
        out.extend_from_slice(&self.kings.to_le_bytes());
        out.push(self.side.index() as u8);
        out.push((self.result + 1) as u8);
        out.extend_from_slice(&self.score.to_le_bytes());
        out.extend_from_slice(&self.ply.to_le_bytes());
        out.extend_from_slice(&[0, 0]);
    }

    fn decode(b: &[u8]) -> Option<Record> {
        let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
        let side = match b[24] {
            0 => Side::White,
            1 => Side::Black,
            _ => return None,
        };
        if b[25] > 2 {
            return None;
        }
        Some(Record {
            white: u64_at(0),
            black: u64_at(8),
            kings: u64_at(16),
            side,
            result: b[25] as i8 - 1,
            score: i16::from_le_bytes([b[26], b[27]]),
            ply: u16::from_le_bytes([b[28], b[29]]),
        })
    }
}

/// One chunk as read back: a batch of games and their positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// The batch number.
    pub batch: u32,
    /// Games played in the batch.
    pub games: u32,
    /// Their quiet positions.
    pub records: Vec<Record>,
}

/// Why a data file cannot be used.
#[derive(Debug)]
pub enum DataError {
    /// A run would resume a file made under another recipe.
    OtherRecipe {
        /// The file.
        path: PathBuf,
        /// What differs, one phrase each.
        differences: Vec<String>,
    },
    /// Reading or writing failed.
    Io(PathBuf, std::io::Error),
    /// The file is not a data file of this format, or of another variant.
    Foreign(PathBuf, String),
    /// The file ends inside a chunk (a run was stopped while writing it).
    Truncated {
        /// The file.
        path: PathBuf,
        /// Where its last whole chunk ends.
        good_until: u64,
    },
    /// A whole chunk whose contents do not match its checksum.
    Damaged(PathBuf, u64),
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::OtherRecipe { path, differences } => write!(
                f,
                "{}: made under another recipe ({}): a run resumes a file only under the \
                 options it was made with; give those, or another --out",
                path.display(),
                differences.join("; ")
            ),
            DataError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            DataError::Foreign(path, why) => write!(f, "{}: {why}", path.display()),
            DataError::Truncated { path, good_until } => write!(
                f,
                "{}: the last chunk is cut short after byte {good_until} (a self-play run was \
                 stopped while writing it); run the same `tempo selfplay` again to repair the \
                 file and go on",
                path.display()
            ),
            DataError::Damaged(path, at) => write!(
                f,
                "{}: the chunk at byte {at} does not match its checksum: the file is damaged",
                path.display()
            ),
        }
    }
}

impl std::error::Error for DataError {}

/// The header of a data file of `kind`.
pub(super) fn header(kind: VariantKind) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let mut name = [0u8; 24];
    name[..kind.name().len()].copy_from_slice(kind.name().as_bytes());
    out.extend_from_slice(&name);
    out.extend_from_slice(&[0; 4]);
    out
}

/// The bytes of one chunk.
pub fn encode_chunk(batch: u32, games: u32, records: &[Record]) -> Vec<u8> {
    let mut body = Vec::with_capacity(records.len() * RECORD);
    for r in records {
        r.encode(&mut body);
    }
    let mut out = Vec::with_capacity(CHUNK_HEADER + body.len());
    out.extend_from_slice(CHUNK_MAGIC);
    out.extend_from_slice(&batch.to_le_bytes());
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out.extend_from_slice(&games.to_le_bytes());
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// What a scan of a file found: its chunks, the bytes each one takes, and
/// where the last whole one ends.
struct Scan {
    recipe: Option<Recipe>,
    chunks: Vec<Chunk>,
    spans: Vec<Range<u64>>,
    good_until: u64,
    truncated: bool,
}

/// Reads and checks the whole of `bytes` (the contents of `path`), which
/// must be a data file of `kind`.
fn scan(path: &Path, bytes: &[u8], kind: VariantKind) -> Result<Scan, DataError> {
    let foreign = |why: String| DataError::Foreign(path.to_path_buf(), why);
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err(foreign(
            "not a tempo self-play data file (no TEMPOSPD header)".into(),
        ));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(foreign(format!(
            "format version {version}, this build reads version {VERSION}"
        )));
    }
    if bytes[..HEADER] != header(kind)[..] {
        let name = &bytes[12..36];
        let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
        return Err(foreign(format!(
            "the positions are of {}, not {kind}",
            String::from_utf8_lossy(&name[..end])
        )));
    }
    let mut chunks = Vec::new();
    let mut spans = Vec::new();
    let (recipe, mut at) = recipe_of(path, bytes)?;
    while at < bytes.len() {
        if bytes.len() - at < CHUNK_HEADER {
            return Ok(Scan {
                recipe,
                chunks,
                spans,
                good_until: at as u64,
                truncated: true,
            });
        }
        let h = &bytes[at..at + CHUNK_HEADER];
        if &h[..4] != CHUNK_MAGIC {
            return Err(DataError::Damaged(path.to_path_buf(), at as u64));
        }
        let u32_at = |i: usize| u32::from_le_bytes(h[i..i + 4].try_into().expect("4 bytes"));
        let (batch, count, games) = (u32_at(4), u32_at(8) as usize, u32_at(12));
        let sum = u64::from_le_bytes(h[16..24].try_into().expect("8 bytes"));
        let end = at + CHUNK_HEADER + count * RECORD;
        if end > bytes.len() {
            return Ok(Scan {
                recipe,
                chunks,
                spans,
                good_until: at as u64,
                truncated: true,
            });
        }
        let body = &bytes[at + CHUNK_HEADER..end];
        if fnv1a(body) != sum {
            return Err(DataError::Damaged(path.to_path_buf(), at as u64));
        }
        let records = body
            .chunks_exact(RECORD)
            .map(Record::decode)
            .collect::<Option<Vec<_>>>()
            .ok_or(DataError::Damaged(path.to_path_buf(), at as u64))?;
        chunks.push(Chunk {
            batch,
            games,
            records,
        });
        spans.push(at as u64..end as u64);
        at = end;
    }
    Ok(Scan {
        recipe,
        chunks,
        spans,
        good_until: at as u64,
        truncated: false,
    })
}

/// The recipe at the start of `bytes` (a data file's, after its header),
/// if there is one, and where the chunks begin.
fn recipe_of(path: &Path, bytes: &[u8]) -> Result<(Option<Recipe>, usize), DataError> {
    if bytes.len() < HEADER + 4 || &bytes[HEADER..HEADER + 4] != RECIPE_MAGIC {
        return Ok((None, HEADER));
    }
    let damaged = || DataError::Damaged(path.to_path_buf(), HEADER as u64);
    if bytes.len() < HEADER + RECIPE_HEADER {
        return Err(damaged());
    }
    let h = &bytes[HEADER..HEADER + RECIPE_HEADER];
    let length = u32::from_le_bytes(h[4..8].try_into().expect("4 bytes")) as usize;
    let sum = u64::from_le_bytes(h[8..16].try_into().expect("8 bytes"));
    let end = HEADER + RECIPE_HEADER + length;
    if length > MAX_RECIPE || end > bytes.len() {
        return Err(damaged());
    }
    let text = &bytes[HEADER + RECIPE_HEADER..end];
    if fnv1a(text) != sum {
        return Err(damaged());
    }
    let text = std::str::from_utf8(text).map_err(|_| damaged())?;
    Ok((Some(Recipe::parse(text).ok_or_else(damaged)?), end))
}

/// Reads and checks the whole of a data file of `kind`; a file cut short
/// is refused.
fn scan_file(path: &Path, kind: VariantKind) -> Result<Scan, DataError> {
    let bytes = std::fs::read(path).map_err(|e| DataError::Io(path.to_path_buf(), e))?;
    let scan = scan(path, &bytes, kind)?;
    if scan.truncated {
        return Err(DataError::Truncated {
            path: path.to_path_buf(),
            good_until: scan.good_until,
        });
    }
    Ok(scan)
}

/// Reads every chunk of a data file of `kind`; a file cut short is refused.
pub fn read_file(path: &Path, kind: VariantKind) -> Result<Vec<Chunk>, DataError> {
    scan_file(path, kind).map(|scan| scan.chunks)
}

/// Reads every chunk of a data file of `kind`, as [`read_file`] does, with
/// the bytes of the file each one takes (its header included), and the
/// file's recipe.
pub(super) fn read_spans(path: &Path, kind: VariantKind) -> Result<Spans, DataError> {
    let scan = scan_file(path, kind)?;
    Ok((
        scan.recipe,
        scan.chunks.into_iter().zip(scan.spans).collect(),
    ))
}

/// A file's recipe, and its chunks with the bytes each takes.
pub(super) type Spans = (Option<Recipe>, Vec<(Chunk, Range<u64>)>);

/// The recipe of a data file of `kind`, if it records one; reads only
/// the start of the file.
pub fn read_recipe(path: &Path, kind: VariantKind) -> Result<Option<Recipe>, DataError> {
    let io = |e| DataError::Io(path.to_path_buf(), e);
    let mut start = Vec::new();
    File::open(path)
        .map_err(io)?
        .take((HEADER + RECIPE_HEADER + MAX_RECIPE) as u64)
        .read_to_end(&mut start)
        .map_err(io)?;
    if start.len() < HEADER || start[..HEADER] != header(kind)[..] {
        // The whole reader says what is wrong with it.
        return scan_file(path, kind).map(|scan| scan.recipe);
    }
    recipe_of(path, &start).map(|(recipe, _)| recipe)
}

/// The bytes of a new data file of `kind` made by `recipe`, before its
/// first chunk.
pub(super) fn file_start(kind: VariantKind, recipe: Option<&Recipe>) -> Vec<u8> {
    let mut bytes = header(kind);
    if let Some(recipe) = recipe {
        bytes.extend_from_slice(&recipe.encode());
    }
    bytes
}

/// Whether `bytes` are one whole chunk of batch `batch` that matches its
/// checksum (a chunk read again to be copied).
pub(super) fn is_sound_chunk(bytes: &[u8], batch: u32) -> bool {
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
    bytes.len() >= CHUNK_HEADER
        && &bytes[..4] == CHUNK_MAGIC
        && u32_at(4) == batch
        && bytes.len() == CHUNK_HEADER + u32_at(8) as usize * RECORD
        && fnv1a(&bytes[CHUNK_HEADER..]).to_le_bytes() == bytes[16..24]
}

/// The variant of a data file, as its header names it.
pub fn file_variant(path: &Path) -> Result<VariantKind, DataError> {
    let mut head = Vec::with_capacity(HEADER);
    File::open(path)
        .and_then(|f| f.take(HEADER as u64).read_to_end(&mut head))
        .map_err(|e| DataError::Io(path.to_path_buf(), e))?;
    let foreign = |why: &str| DataError::Foreign(path.to_path_buf(), why.to_string());
    if head.len() < HEADER || &head[..8] != MAGIC {
        return Err(foreign(
            "not a tempo self-play data file (no TEMPOSPD header)",
        ));
    }
    VariantKind::ALL
        .into_iter()
        .find(|&kind| head[12..36] == header(kind)[12..36])
        .ok_or_else(|| foreign("the header names no variant this build plays"))
}

/// What a set of chunks holds: the counts `tempo data info` prints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// The batch numbers, in order (a batch held twice counts twice).
    pub batches: Vec<u32>,
    /// Games.
    pub games: u64,
    /// Positions.
    pub positions: u64,
    /// Positions by their game's result for White: losses, draws, wins.
    pub results: [u64; 3],
    /// The keys of the positions ([`Record::key`]), sorted, each once.
    keys: Vec<u64>,
}

impl Census {
    /// The census of `chunks`.
    pub fn of(chunks: &[Chunk]) -> Census {
        let mut census = Census::default();
        for chunk in chunks {
            census.batches.push(chunk.batch);
            census.games += chunk.games as u64;
            census.positions += chunk.records.len() as u64;
            for r in &chunk.records {
                census.results[(r.result + 1) as usize] += 1;
                census.keys.push(r.key());
            }
        }
        census.batches.sort_unstable();
        census.keys.sort_unstable();
        census.keys.dedup();
        census
    }

    /// Adds the chunks `other` counted (a position in both counts once
    /// among the distinct ones).
    pub fn add(&mut self, other: &Census) {
        self.batches.extend_from_slice(&other.batches);
        self.batches.sort_unstable();
        self.games += other.games;
        self.positions += other.positions;
        for (mine, theirs) in self.results.iter_mut().zip(other.results) {
            *mine += theirs;
        }
        self.keys.extend_from_slice(&other.keys);
        self.keys.sort_unstable();
        self.keys.dedup();
    }

    /// Positions that differ (by key).
    pub fn distinct(&self) -> u64 {
        self.keys.len() as u64
    }

    /// The step between the batches of a shard: the smallest gap between
    /// two batch numbers present, if they all leave the same remainder by
    /// it (shard I of N holds the batches `b % N == I`), else 1; `None`
    /// for fewer than two batch numbers.
    pub fn step(&self) -> Option<u32> {
        let mut numbers = self.batches.clone();
        numbers.dedup();
        let gap = numbers.windows(2).map(|w| w[1] - w[0]).min()?;
        let first = numbers[0];
        Some(if numbers.iter().all(|b| b % gap == first % gap) {
            gap
        } else {
            1
        })
    }

    /// The batches absent below the highest one present, of those the
    /// [`Census::step`] says the set holds, as ranges (first, last) of
    /// batches that step apart.
    pub fn missing(&self) -> Vec<(u32, u32)> {
        let Some(step) = self.step() else {
            return Vec::new();
        };
        let mut ranges = Vec::new();
        let mut expected = self.batches[0] % step;
        for &b in &self.batches {
            if b > expected {
                ranges.push((expected, b - step));
            }
            expected = expected.max(b.saturating_add(step));
        }
        ranges
    }
}

/// A data file open for appending chunks.
pub struct DataWriter {
    file: File,
    path: PathBuf,
}

/// What was in a data file when it was opened for appending.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Existing {
    /// Batch numbers already in the file, each with its games.
    pub batches: Vec<(u32, u32)>,
    /// Games in those batches.
    pub games: u64,
    /// Positions in those batches.
    pub records: u64,
    /// Bytes of a chunk cut short that were dropped to repair the file.
    pub dropped_bytes: u64,
    /// The file had chunks but no recipe (an older build's, or a merge
    /// of files of different recipes): the run could not be checked.
    pub unrecorded: bool,
}

impl DataWriter {
    /// Opens `path` for appending chunks of `kind` made by `recipe`,
    /// creating it with a header and the recipe if it does not exist. An
    /// existing file must be a data file of `kind` made by the same recipe
    /// (one that records none is taken, [`Existing::unrecorded`]); a last
    /// chunk cut short is cut off (and counted in
    /// [`Existing::dropped_bytes`]).
    pub fn open(
        path: &Path,
        kind: VariantKind,
        recipe: &Recipe,
    ) -> Result<(DataWriter, Existing), DataError> {
        let io = |e| DataError::Io(path.to_path_buf(), e);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let mut existing = Existing::default();
        if bytes.is_empty() {
            file.write_all(&file_start(kind, Some(recipe)))
                .map_err(io)?;
        } else {
            let scan = scan(path, &bytes, kind)?;
            match &scan.recipe {
                Some(made) if made != recipe => {
                    return Err(DataError::OtherRecipe {
                        path: path.to_path_buf(),
                        differences: made.differences(recipe),
                    });
                }
                Some(_) => {}
                None => existing.unrecorded = !scan.chunks.is_empty(),
            }
            if scan.truncated {
                existing.dropped_bytes = bytes.len() as u64 - scan.good_until;
                file.set_len(scan.good_until).map_err(io)?;
            }
            file.seek(SeekFrom::Start(scan.good_until)).map_err(io)?;
            for chunk in &scan.chunks {
                existing.batches.push((chunk.batch, chunk.games));
                existing.games += chunk.games as u64;
                existing.records += chunk.records.len() as u64;
            }
        }
        file.flush().map_err(io)?;
        Ok((
            DataWriter {
                file,
                path: path.to_path_buf(),
            },
            existing,
        ))
    }

    /// Appends one chunk in a single write and flushes it to the file; a
    /// signal does not cut it short (see `signals`).
    pub fn append(&mut self, batch: u32, games: u32, records: &[Record]) -> Result<(), DataError> {
        let bytes = encode_chunk(batch, games, records);
        crate::signals::whole(|| {
            self.file
                .write_all(&bytes)
                .and_then(|()| self.file.flush())
                .map_err(|e| DataError::Io(self.path.clone(), e))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::International;

    fn sample() -> Vec<Record> {
        let pos = Position::<International>::start();
        vec![
            Record::of(&pos, 1, 35, 8),
            Record::of(&pos.with_side_to_move(Side::Black), -1, -1200, 9),
        ]
    }

    #[test]
    fn equal_positions_have_equal_keys_and_the_side_to_move_counts() {
        let records = sample();
        let pos = Position::<International>::start();
        // Another result, score and ply: the same position, the same key.
        assert_eq!(records[0].key(), Record::of(&pos, -1, 0, 30).key());
        assert_ne!(records[0].key(), records[1].key());
        let moved = pos.play(pos.legal_moves().as_slice()[0]);
        let keys: Vec<u64> = [
            Record::of(&moved, 0, 0, 1),
            Record::of(&moved.with_side_to_move(Side::White), 0, 0, 1),
            Record {
                kings: 1 << 3,
                ..Record::of(&moved, 0, 0, 1)
            },
        ]
        .iter()
        .map(Record::key)
        .chain([records[0].key()])
        .collect();
        for (i, a) in keys.iter().enumerate() {
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn a_census_counts_distinct_positions_and_finds_the_missing_batches() {
        let chunk = |batch: u32| Chunk {
            batch,
            games: 2,
            records: sample(),
        };
        let shard: Vec<Chunk> = [1, 4, 10, 16, 19].map(chunk).into();
        let census = Census::of(&shard);
        assert_eq!(
            (census.games, census.positions, census.distinct()),
            (10, 10, 2)
        );
        assert_eq!(census.results, [5, 0, 5]);
        assert_eq!(census.step(), Some(3));
        assert_eq!(census.missing(), vec![(7, 7), (13, 13)]);
        let mut all = Census::of(&[0, 2, 3, 5, 9].map(chunk));
        assert_eq!(all.step(), Some(1));
        assert_eq!(all.missing(), vec![(1, 1), (4, 4), (6, 8)]);
        all.add(&census);
        assert_eq!((all.games, all.distinct()), (20, 2));
        assert_eq!(all.missing(), vec![(6, 8), (11, 15), (17, 18)]);
        // One batch says nothing of a step; a shard from a later batch on.
        assert_eq!(Census::of(&[chunk(5)]).missing(), vec![]);
        assert_eq!(Census::of(&[8, 16, 24].map(chunk)).missing(), vec![(0, 0)]);
    }

    #[test]
    fn chunks_round_trip_and_a_cut_chunk_is_repaired_on_append() {
        let dir = std::env::temp_dir().join(format!("tempo-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.spd");
        let _ = std::fs::remove_file(&path);
        let kind = VariantKind::International;
        let recipe = Recipe::default().with("nodes", 200).with("seed", 1);
        let (mut w, existing) = DataWriter::open(&path, kind, &recipe).unwrap();
        assert_eq!(existing, Existing::default());
        w.append(3, 2, &sample()).unwrap();
        w.append(5, 1, &sample()[..1]).unwrap();
        drop(w);
        let chunks = read_file(&path, kind).unwrap();
        assert_eq!(chunks.len(), 2);
        assert_eq!(chunks[0].records, sample());
        assert_eq!((chunks[1].batch, chunks[1].games), (5, 1));
        // Cut the last chunk short: readers refuse, the writer repairs.
        let len = std::fs::metadata(&path).unwrap().len();
        let f = OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(len - 5).unwrap();
        drop(f);
        let err = read_file(&path, kind).unwrap_err().to_string();
        assert!(err.contains("cut short"), "{err}");
        let (_, existing) = DataWriter::open(&path, kind, &recipe).unwrap();
        assert_eq!(existing.batches, vec![(3, 2)]);
        assert_eq!(existing.dropped_bytes, (CHUNK_HEADER + RECORD - 5) as u64);
        assert_eq!(read_file(&path, kind).unwrap().len(), 1);
        assert_eq!(read_recipe(&path, kind).unwrap(), Some(recipe.clone()));
        // Another recipe is refused, naming what differs.
        let other = Recipe::default().with("nodes", 200).with("seed", 2);
        let err = DataWriter::open(&path, kind, &other)
            .err()
            .expect("refused")
            .to_string();
        assert!(err.contains("seed 1 in the file, 2 now"), "{err}");
        assert!(!err.contains("nodes"), "{err}");
        // Another variant's reader and a foreign file are refused.
        let err = read_file(&path, VariantKind::Brazilian)
            .unwrap_err()
            .to_string();
        assert!(err.contains("not brazilian"), "{err}");
        std::fs::write(&path, b"hello, world, this is not a data file at all....").unwrap();
        let err = read_file(&path, kind).unwrap_err().to_string();
        assert!(err.contains("not a tempo self-play data file"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

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
//! A file whose last chunk is cut short (the run was stopped while writing
//! it) is refused by the readers, and `tempo selfplay` run again on the same
//! file cuts that chunk off and goes on.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::eval::weights_file::fnv1a;
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

fn header(kind: VariantKind) -> Vec<u8> {
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

/// What a scan of a file found: its chunks and where the last whole one ends.
struct Scan {
    chunks: Vec<Chunk>,
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
    let mut at = HEADER;
    while at < bytes.len() {
        if bytes.len() - at < CHUNK_HEADER {
            return Ok(Scan {
                chunks,
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
                chunks,
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
        at = end;
    }
    Ok(Scan {
        chunks,
        good_until: at as u64,
        truncated: false,
    })
}

/// Reads every chunk of a data file of `kind`; a file cut short is refused.
pub fn read_file(path: &Path, kind: VariantKind) -> Result<Vec<Chunk>, DataError> {
    let bytes = std::fs::read(path).map_err(|e| DataError::Io(path.to_path_buf(), e))?;
    let scan = scan(path, &bytes, kind)?;
    if scan.truncated {
        return Err(DataError::Truncated {
            path: path.to_path_buf(),
            good_until: scan.good_until,
        });
    }
    Ok(scan.chunks)
}

/// A data file open for appending chunks.
pub struct DataWriter {
    file: File,
    path: PathBuf,
}

/// What was in a data file when it was opened for appending.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Existing {
    /// Batch numbers already in the file.
    pub batches: Vec<u32>,
    /// Games in those batches.
    pub games: u64,
    /// Positions in those batches.
    pub records: u64,
    /// Bytes of a chunk cut short that were dropped to repair the file.
    pub dropped_bytes: u64,
}

impl DataWriter {
    /// Opens `path` for appending chunks of `kind`, creating it with a
    /// header if it does not exist. An existing file must be a data file of
    /// `kind`; a last chunk cut short is cut off (and counted in
    /// [`Existing::dropped_bytes`]).
    pub fn open(path: &Path, kind: VariantKind) -> Result<(DataWriter, Existing), DataError> {
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
            file.write_all(&header(kind)).map_err(io)?;
        } else {
            let scan = scan(path, &bytes, kind)?;
            if scan.truncated {
                existing.dropped_bytes = bytes.len() as u64 - scan.good_until;
                file.set_len(scan.good_until).map_err(io)?;
            }
            file.seek(SeekFrom::Start(scan.good_until)).map_err(io)?;
            for chunk in &scan.chunks {
                existing.batches.push(chunk.batch);
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

    /// Appends one chunk in a single write and flushes it to the file.
    pub fn append(&mut self, batch: u32, games: u32, records: &[Record]) -> Result<(), DataError> {
        let bytes = encode_chunk(batch, games, records);
        self.file
            .write_all(&bytes)
            .and_then(|()| self.file.flush())
            .map_err(|e| DataError::Io(self.path.clone(), e))
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
    fn chunks_round_trip_and_a_cut_chunk_is_repaired_on_append() {
        let dir = std::env::temp_dir().join(format!("tempo-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.spd");
        let _ = std::fs::remove_file(&path);
        let kind = VariantKind::International;
        let (mut w, existing) = DataWriter::open(&path, kind).unwrap();
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
        let (_, existing) = DataWriter::open(&path, kind).unwrap();
        assert_eq!(existing.batches, vec![3]);
        assert_eq!(existing.dropped_bytes, (CHUNK_HEADER + RECORD - 5) as u64);
        assert_eq!(read_file(&path, kind).unwrap().len(), 1);
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

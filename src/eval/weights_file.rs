//! The pattern weights file: one variant's [`Patterns`] with a header and a
//! checksum, and the sets built into the binary.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "TEMPOEVL"
//!      8     4  format version (3; versions 1 and 2 are read too),
//!               little-endian
//!     12    24  variant name (ASCII, zero-padded), e.g. "international"
//!     36     1  board rows (10 or 8)
//!     37     1  playable squares per row (5 or 4)
//!     38     2  windows
//!     40     4  states per window (6561 for 4 x 4 windows, 531441 for 4 x 6)
//!     44     2  unit: weights are in 1/unit of a hundredth of a man (8)
//!     46     2  weight tables (a window each for 4 x 4, a top window each
//!               for 4 x 6, and a middle window each for 4 x 6 with the
//!               middle band)
//!     48     4  king terms K (0 for 4 x 4 windows)
//!     52     B  the N = (tables * states + K) * 2 weights, i16
//!               little-endian, ordered [table][state][phase] then
//!               [king term][phase] (phase 0 middle game), as one LZ4 block
//!   52+B     8  FNV-1a 64 checksum of every byte before it
//! ```
//!
//! Versions 1 and 2 held 4 x 4 windows only, with a 48-byte header (bytes
//! 46-47 reserved) and the weights as they are (1) or in one LZ4 block (2).
//! Most states of a 4 x 6 window never occur in play and keep the weight
//! 0, so the compressed weights are a small part of their 2N bytes.
//!
//! A file that is short, long, of another format or board, or whose
//! checksum does not match is refused with a [`WeightsError`].

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use once_cell::sync::Lazy;

use super::patterns::{Layout, Patterns, Shape, UNIT};
use crate::files::fnv1a;
use crate::rules::VariantKind;

const MAGIC: &[u8; 8] = b"TEMPOEVL";
const VERSION: u32 = 3;
/// The first format: 4 x 4 windows, the weights stored as they are.
const VERSION_PLAIN: u32 = 1;
/// The header of versions 1 and 2.
const OLD_HEADER: usize = 48;
const HEADER: usize = 52;
const NAME_LEN: usize = 24;

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The file could not be read or written.
    Io(String),
    /// The bytes are not a weights file of this format.
    Format(String),
    /// The file is for another variant than the one asked for.
    WrongVariant {
        /// The file.
        path: String,
        /// The variant the file is for.
        found: String,
        /// The variant asked for.
        wanted: String,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Io(why) | WeightsError::Format(why) => f.write_str(why),
            WeightsError::WrongVariant {
                path,
                found,
                wanted,
            } => write!(
                f,
                "{path}: the weights are for {found}, not {wanted} (train them with --variant {wanted})"
            ),
        }
    }
}

impl std::error::Error for WeightsError {}

/// Whether variant `kind` can have learned patterns: the windows are laid
/// over a diagonal board of 10x10 or 8x8 (not Turkish draughts').
pub fn has_patterns(kind: VariantKind) -> bool {
    crate::rules::with_rules!(kind, R => !<R as crate::rules::Rules>::ORTHOGONAL_MOVES)
}

/// The small-window layout of the board a variant is played on.
pub fn layout_of(kind: VariantKind) -> Layout {
    crate::rules::with_rules!(kind, R => Layout::w4x4::<<R as crate::rules::Rules>::Geometry>())
}

/// The layout of the board a variant is played on with windows of `shape`.
pub fn shaped_layout_of(kind: VariantKind, shape: Shape) -> Layout {
    Layout {
        shape,
        ..layout_of(kind)
    }
}

/// The bytes of a weights file of `patterns` for `variant`.
pub fn encode(kind: VariantKind, patterns: &Patterns) -> Vec<u8> {
    let layout = patterns.layout();
    let mut out = Vec::with_capacity(HEADER + 2 * patterns.raw().len() + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let mut name = [0u8; NAME_LEN];
    name[..kind.name().len()].copy_from_slice(kind.name().as_bytes());
    out.extend_from_slice(&name);
    out.push(layout.rows as u8);
    out.push(layout.per_row as u8);
    out.extend_from_slice(&(layout.windows() as u16).to_le_bytes());
    out.extend_from_slice(&(layout.states() as u32).to_le_bytes());
    out.extend_from_slice(&(UNIT as u16).to_le_bytes());
    out.extend_from_slice(&(layout.tables() as u16).to_le_bytes());
    out.extend_from_slice(&(layout.king_terms() as u32).to_le_bytes());
    let plain: Vec<u8> = patterns
        .raw()
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    out.extend_from_slice(&lz4_flex::block::compress(&plain));
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads the bytes of a weights file; `what` names it in errors. Returns
/// the variant the file is for and its weights.
pub fn decode(bytes: &[u8], what: &str) -> Result<(VariantKind, Patterns), WeightsError> {
    let bad = |why: String| WeightsError::Format(format!("{what}: {why}"));
    if bytes.len() < OLD_HEADER + 8 || &bytes[..8] != MAGIC {
        return Err(bad("not a tempo weights file (no TEMPOEVL header)".into()));
    }
    let u16_at = |at: usize| u16::from_le_bytes([bytes[at], bytes[at + 1]]);
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let version = u32_at(8);
    if !(VERSION_PLAIN..=VERSION).contains(&version) {
        return Err(bad(format!(
            "format version {version}, this build reads versions {VERSION_PLAIN} to {VERSION}"
        )));
    }
    let header = if version == VERSION {
        HEADER
    } else {
        OLD_HEADER
    };
    if bytes.len() < header + 8 {
        return Err(bad("the file ends inside its header (truncated)".into()));
    }
    let name_bytes = &bytes[12..12 + NAME_LEN];
    let name_end = name_bytes.iter().position(|&b| b == 0).unwrap_or(NAME_LEN);
    let name = String::from_utf8_lossy(&name_bytes[..name_end]).into_owned();
    let kind = VariantKind::parse(&name)
        .ok_or_else(|| bad(format!("unknown variant '{name}' in the header")))?;
    if !has_patterns(kind) {
        return Err(bad(format!(
            "{name} has no learned patterns (its men move along rows and files)"
        )));
    }
    let small = layout_of(kind);
    let (rows, per_row) = (bytes[36] as u32, bytes[37] as u32);
    if (rows, per_row) != (small.rows, small.per_row) {
        return Err(bad(format!(
            "a {rows}x{rows} board in the header, {name} is played on {0}x{0}",
            small.rows
        )));
    }
    let (windows, states, unit) = (u16_at(38) as usize, u32_at(40) as usize, u16_at(44) as i32);
    let (tables, king_terms) = if version == VERSION {
        (u16_at(46) as usize, u32_at(48) as usize)
    } else {
        (windows, 0)
    };
    let mut shapes = vec![small];
    if version == VERSION {
        shapes.push(shaped_layout_of(kind, Shape::W4x6));
        shapes.push(shaped_layout_of(kind, Shape::W4x6m));
    }
    let shape_of = |l: &Layout| (l.windows(), l.states(), l.tables(), l.king_terms());
    let Some(&layout) = shapes
        .iter()
        .find(|l| shape_of(l) == (windows, states, tables, king_terms))
        .filter(|_| unit == UNIT)
    else {
        let known: Vec<String> = shapes
            .iter()
            .map(|l| {
                format!(
                    "{} windows of {} states in {} tables with {} king terms",
                    l.windows(),
                    l.states(),
                    l.tables(),
                    l.king_terms()
                )
            })
            .collect();
        return Err(bad(format!(
            "{windows} windows of {states} states in {tables} tables with {king_terms} king \
             terms, in 1/{unit} units; this build reads {} in 1/{UNIT} (version {version})",
            known.join(" or ")
        )));
    };
    let count = layout.weights_per_phase() * 2;
    let body = &bytes[..bytes.len() - 8];
    let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
    if version == VERSION_PLAIN && bytes.len() != header + 2 * count + 8 {
        return Err(bad(format!(
            "{} bytes, a file of this header has {} (truncated or padded)",
            bytes.len(),
            header + 2 * count + 8
        )));
    }
    if fnv1a(body) != stored {
        return Err(bad(
            "the checksum does not match: the file is damaged, truncated or padded".into(),
        ));
    }
    let plain = if version == VERSION_PLAIN {
        body[header..].to_vec()
    } else {
        lz4_flex::block::decompress(&body[header..], 2 * count)
            .ok()
            .filter(|plain| plain.len() == 2 * count)
            .ok_or_else(|| bad(format!("the weights do not unpack to {count} values")))?
    };
    let raw = plain
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    let patterns = Patterns::from_raw(layout, raw).map_err(bad)?;
    Ok((kind, patterns))
}

/// Reads a weights file of any variant: the variant it is for and its
/// weights.
pub fn read_any(path: &Path) -> Result<(VariantKind, Patterns), WeightsError> {
    let bytes = std::fs::read(path)
        .map_err(|e| WeightsError::Io(format!("cannot read {}: {e}", path.display())))?;
    decode(&bytes, &path.display().to_string())
}

/// Reads a weights file for `kind`.
pub fn read_file(kind: VariantKind, path: &Path) -> Result<Patterns, WeightsError> {
    let (found, patterns) = read_any(path)?;
    if found != kind {
        return Err(WeightsError::WrongVariant {
            path: path.display().to_string(),
            found: found.name().to_string(),
            wanted: kind.name().to_string(),
        });
    }
    Ok(patterns)
}

/// Writes a weights file, through a temporary file renamed into place, so
/// that an interrupted write never leaves a half file under `path`.
pub fn write_file(kind: VariantKind, patterns: &Patterns, path: &Path) -> Result<(), WeightsError> {
    let io = |e: std::io::Error| WeightsError::Io(format!("cannot write {}: {e}", path.display()));
    crate::files::replace(path, &encode(kind, patterns)).map_err(io)
}

/// The weights built into the binary for `kind` (all 0 for a variant that
/// has none: the hand evaluation alone).
pub fn builtin(kind: VariantKind) -> Arc<Patterns> {
    static SETS: Lazy<Vec<Arc<Patterns>>> = Lazy::new(|| {
        VariantKind::ALL
            .iter()
            .map(|&kind| {
                let patterns = match shipped_bytes(kind) {
                    Some(bytes) => match decode(bytes, &format!("the built-in {kind} weights")) {
                        Ok((_, p)) => p,
                        Err(e) => panic!("{e}"),
                    },
                    None => Patterns::zero(layout_of(kind)),
                };
                Arc::new(patterns)
            })
            .collect()
    });
    Arc::clone(&SETS[kind.index()])
}

/// Whether tempo ships trained weights for `kind` (else [`builtin`] is
/// all 0).
pub fn ships_weights(kind: VariantKind) -> bool {
    shipped_bytes(kind).is_some()
}

/// The weights file shipped for `kind`, if one was trained.
fn shipped_bytes(kind: VariantKind) -> Option<&'static [u8]> {
    match kind {
        VariantKind::International => Some(include_bytes!("weights/international.tpw")),
        VariantKind::Brazilian => Some(include_bytes!("weights/brazilian.tpw")),
        _ => None,
    }
}

//! The pattern weights file: one variant's [`Patterns`] with a header and a
//! checksum, and the sets built into the binary.
//!
//! In the container of every weights file ([`super::container`]: magic
//! "TEMPOEVL", format version 3 (versions 1 and 2 are read too), variant
//! name, checksum), the contents are:
//!
//! ```text
//! offset  size  field
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
//! ```
//!
//! Versions 1 and 2 held 4 x 4 windows only, with a 48-byte header (bytes
//! 46-47 reserved) and the weights as they are (1) or in one LZ4 block (2).
//! Most states of a 4 x 6 window never occur in play and keep the weight
//! 0, so the compressed weights are a small part of their 2N bytes.
//!
//! A file that is short, long, of another format or board, or whose
//! checksum does not match is refused with a [`WeightsError`].

use std::path::Path;
use std::sync::Arc;

use once_cell::sync::Lazy;

use super::container::{self, Contents, WeightsError};
use super::patterns::{Layout, Patterns, Shape, UNIT};
use crate::rules::VariantKind;

const VERSION: u32 = 3;
/// The first format: 4 x 4 windows, the weights stored as they are.
const VERSION_PLAIN: u32 = 1;
/// The fields after the container's header in versions 1 and 2 (bytes
/// 46-47 reserved).
const OLD_FIELDS: usize = 12;
/// The fields after the container's header in version 3.
const FIELDS: usize = 16;

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
    let mut body = Vec::with_capacity(FIELDS + 2 * patterns.raw().len());
    body.push(layout.rows as u8);
    body.push(layout.per_row as u8);
    body.extend_from_slice(&(layout.windows() as u16).to_le_bytes());
    body.extend_from_slice(&(layout.states() as u32).to_le_bytes());
    body.extend_from_slice(&(UNIT as u16).to_le_bytes());
    body.extend_from_slice(&(layout.tables() as u16).to_le_bytes());
    body.extend_from_slice(&(layout.king_terms() as u32).to_le_bytes());
    let plain: Vec<u8> = patterns
        .raw()
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    body.extend_from_slice(&lz4_flex::block::compress(&plain));
    container::seal(Contents::Patterns, VERSION, kind, &body)
}

/// Reads the bytes of a weights file; `what` names it in errors. Returns
/// the variant the file is for and its weights.
pub fn decode(bytes: &[u8], what: &str) -> Result<(VariantKind, Patterns), WeightsError> {
    let bad = |why: String| WeightsError::Format(format!("{what}: {why}"));
    let opened = container::open(bytes, what, Contents::Patterns)?;
    let (version, kind, body) = (opened.version, opened.variant, opened.body);
    let name = kind.name();
    let fields = if version == VERSION {
        FIELDS
    } else {
        OLD_FIELDS
    };
    if body.len() < fields {
        return Err(bad("the file ends inside its header (truncated)".into()));
    }
    if !has_patterns(kind) {
        return Err(bad(format!(
            "{name} has no learned patterns (its men move along rows and files)"
        )));
    }
    let u16_at = |at: usize| u16::from_le_bytes([body[at], body[at + 1]]);
    let u32_at = |at: usize| u32::from_le_bytes(body[at..at + 4].try_into().expect("4 bytes"));
    let small = layout_of(kind);
    let (rows, per_row) = (body[0] as u32, body[1] as u32);
    if (rows, per_row) != (small.rows, small.per_row) {
        return Err(bad(format!(
            "a {rows}x{rows} board in the header, {name} is played on {0}x{0}",
            small.rows
        )));
    }
    let (windows, states, unit) = (u16_at(2) as usize, u32_at(4) as usize, u16_at(8) as i32);
    let (tables, king_terms) = if version == VERSION {
        (u16_at(10) as usize, u32_at(12) as usize)
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
    let weights = &body[fields..];
    let plain = if version == VERSION_PLAIN {
        if weights.len() != 2 * count {
            return Err(bad(format!(
                "{} bytes, a file of this header has {} (truncated or padded)",
                bytes.len(),
                bytes.len() - weights.len() + 2 * count
            )));
        }
        weights.to_vec()
    } else {
        lz4_flex::block::decompress(weights, 2 * count)
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
    decode(&container::read(path)?, &path.display().to_string())
}

/// Reads a weights file for `kind`.
pub fn read_file(kind: VariantKind, path: &Path) -> Result<Patterns, WeightsError> {
    let (found, patterns) = read_any(path)?;
    container::check_variant(path, found, kind)?;
    Ok(patterns)
}

/// Writes a weights file whole or not at all.
pub fn write_file(kind: VariantKind, patterns: &Patterns, path: &Path) -> Result<(), WeightsError> {
    container::write(path, &encode(kind, patterns))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_files_read_and_write_back_byte_for_byte() {
        for kind in VariantKind::ALL {
            if let Some(bytes) = shipped_bytes(kind) {
                let (found, patterns) = decode(bytes, "shipped").unwrap();
                assert_eq!(found, kind);
                assert_eq!(encode(kind, &patterns), bytes, "{kind}");
            }
        }
    }
}

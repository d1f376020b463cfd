//! The network file that `tempo train --network` writes and the engine
//! reads wherever it takes a weights file (`eval-file`): told apart from a
//! pattern weights file by its first eight bytes.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "TEMPONET"
//!      8     4  format version (1), little-endian
//!     12    24  variant name (ASCII, zero-padded)
//!     36     8  FNV-1a 64 checksum of the pattern weights the network was
//!               fitted on top of (`patterns_checksum`)
//!     44     2  layer 1 width H (a multiple of 16)
//!     46     2  layer 2 width D (a multiple of 8)
//!     48     4  inputs of a view (256)
//!     52        w1 (256 x H i16), b1 (H i16), w2 (D x 2H i16, a unit's
//!               row after row, each within -127..=127), b2 (D i32),
//!               w3 (D i16), b3 (i32), all little-endian
//!    end     8  FNV-1a 64 checksum of every byte before it
//! ```

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use once_cell::sync::Lazy;

use super::{dense_from_rows, Network, INPUTS, MAX_DENSE, MAX_HIDDEN};
use crate::eval::patterns::Patterns;
use crate::files::fnv1a;
use crate::rules::VariantKind;

/// The first bytes of a network file.
pub const NETWORK_MAGIC: &[u8; 8] = b"TEMPONET";
const VERSION: u32 = 1;
const HEADER: usize = 52;
const NAME_LEN: usize = 24;

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read or written.
    Io(String),
    /// The bytes are not a network file of this format (the message
    /// names the file and what is wrong).
    Format(String),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io(why) | NetworkError::Format(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for NetworkError {}

/// The checksum of pattern weights that a network file names as its base.
pub fn network_checksum(patterns: &Patterns) -> u64 {
    let bytes: Vec<u8> = patterns
        .raw()
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    fnv1a(&bytes)
}

/// The bytes of `net`'s file.
pub(super) fn encode(net: &Network) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + net.w1.len() * 2 + 4096);
    out.extend_from_slice(NETWORK_MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let mut name = [0u8; NAME_LEN];
    name[..net.variant.name().len()].copy_from_slice(net.variant.name().as_bytes());
    out.extend_from_slice(&name);
    out.extend_from_slice(&net.base.to_le_bytes());
    out.extend_from_slice(&(net.hidden as u16).to_le_bytes());
    out.extend_from_slice(&(net.dense as u16).to_le_bytes());
    out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
    for w in net.w1.iter().chain(&net.b1) {
        out.extend_from_slice(&w.to_le_bytes());
    }
    for w in net.dense_rows() {
        out.extend_from_slice(&i16::from(w).to_le_bytes());
    }
    for b in &net.b2 {
        out.extend_from_slice(&b.to_le_bytes());
    }
    for w in &net.w3 {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(&net.b3.to_le_bytes());
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads `bytes` in order, refusing to run past their end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let out = self.bytes[self.at..self.at + N]
            .try_into()
            .expect("the length was checked");
        self.at += N;
        out
    }

    fn i16s(&mut self, n: usize) -> Vec<i16> {
        (0..n).map(|_| i16::from_le_bytes(self.take())).collect()
    }

    fn i32s(&mut self, n: usize) -> Vec<i32> {
        (0..n).map(|_| i32::from_le_bytes(self.take())).collect()
    }
}

/// The network in `bytes`, read from `origin` (named in errors).
pub(super) fn decode(bytes: &[u8], origin: &str) -> Result<Network, NetworkError> {
    let bad = |why: String| NetworkError::Format(format!("{origin}: {why}"));
    if bytes.len() < HEADER + 8 || &bytes[..8] != NETWORK_MAGIC {
        return Err(bad("not a tempo network file".to_string()));
    }
    let mut r = Reader { bytes, at: 8 };
    let version = u32::from_le_bytes(r.take());
    if version != VERSION {
        return Err(bad(format!(
            "network format version {version}; this tempo reads version {VERSION}"
        )));
    }
    let name = r.take::<NAME_LEN>();
    let name = std::str::from_utf8(&name)
        .map(|s| s.trim_end_matches('\0'))
        .unwrap_or("");
    let variant = VariantKind::ALL
        .into_iter()
        .find(|k| k.name() == name)
        .ok_or_else(|| bad(format!("unknown variant {name:?}")))?;
    let base = u64::from_le_bytes(r.take());
    let hidden = u16::from_le_bytes(r.take()) as usize;
    let dense = u16::from_le_bytes(r.take()) as usize;
    let inputs = u32::from_le_bytes(r.take()) as usize;
    if inputs != INPUTS
        || hidden == 0
        || !hidden.is_multiple_of(16)
        || hidden > MAX_HIDDEN
        || dense == 0
        || !dense.is_multiple_of(8)
        || dense > MAX_DENSE
    {
        return Err(bad(format!(
            "layers {inputs} -> {hidden} -> {dense}: this tempo reads {INPUTS} inputs, \
             layer 1 a multiple of 16 up to {MAX_HIDDEN}, layer 2 a multiple of 8 up to {MAX_DENSE}"
        )));
    }
    let body = 2 * (INPUTS * hidden + hidden + dense * 2 * hidden + dense) + 4 * dense + 4;
    if bytes.len() != HEADER + body + 8 {
        return Err(bad(format!(
            "{} bytes, expected {} for these layers (cut short or padded)",
            bytes.len(),
            HEADER + body + 8
        )));
    }
    let (content, sum) = bytes.split_at(bytes.len() - 8);
    if fnv1a(content) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err(bad("checksum mismatch (the file is damaged)".to_string()));
    }
    let w1 = r.i16s(INPUTS * hidden);
    let b1 = r.i16s(hidden);
    let rows = r
        .i16s(dense * 2 * hidden)
        .into_iter()
        .map(i8::try_from)
        .collect::<Result<Vec<i8>, _>>()
        .map_err(|_| bad("a layer-2 weight outside -127..=127".to_string()))?;
    let w2 = dense_from_rows(&rows, dense);
    let b2 = r.i32s(dense);
    let w3 = r.i16s(dense);
    let b3 = i32::from_le_bytes(r.take());
    Ok(Network {
        variant,
        base,
        hidden,
        dense,
        w1,
        b1,
        w2,
        b2,
        w3,
        b3,
    })
}

/// Reads the network file at `path`.
pub fn read_network(path: &Path) -> Result<Network, NetworkError> {
    let bytes = std::fs::read(path)
        .map_err(|e| NetworkError::Io(format!("cannot read {}: {e}", path.display())))?;
    decode(&bytes, &path.display().to_string())
}

/// Writes `net` to `path` through a temporary file renamed into place.
pub fn write_network(net: &Network, path: &Path) -> Result<(), NetworkError> {
    let io = |e: std::io::Error| NetworkError::Io(format!("cannot write {}: {e}", path.display()));
    crate::files::replace(path, &encode(net)).map_err(io)
}

/// The network built into the binary for `kind`, if one ships (it is
/// added to the built-in pattern weights unless a search is told
/// otherwise: `EvalSource::BuiltinPatterns`).
pub fn builtin_network(kind: VariantKind) -> Option<Arc<Network>> {
    static SHIPPED: Lazy<Vec<Option<Arc<Network>>>> = Lazy::new(|| {
        VariantKind::ALL
            .iter()
            .map(|&kind| {
                shipped_bytes(kind).map(|bytes| {
                    match decode(bytes, &format!("the built-in {kind} network")) {
                        Ok(net) => Arc::new(net),
                        Err(e) => panic!("{e}"),
                    }
                })
            })
            .collect()
    });
    SHIPPED[kind.index()].clone()
}

/// The network file shipped for `kind`, if one was trained (its command,
/// data and games: benches/STATE.md and benches/evaluation-network.md).
fn shipped_bytes(kind: VariantKind) -> Option<&'static [u8]> {
    match kind {
        VariantKind::International => Some(include_bytes!("../weights/international.tnn")),
        VariantKind::Brazilian => Some(include_bytes!("../weights/brazilian.tnn")),
        _ => None,
    }
}

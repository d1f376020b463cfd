//! The network file that `tempo train --network` writes and the engine
//! reads wherever it takes a weights file (`eval-file`): told apart from a
//! pattern weights file by its first eight bytes.
//!
//! In the container of every weights file ([`crate::eval::container`]:
//! magic "TEMPONET", format version 1, variant name, checksum), the
//! contents are:
//!
//! ```text
//! offset  size  field
//!     36     8  FNV-1a 64 checksum of the pattern weights the network was
//!               fitted on top of (`patterns_checksum`)
//!     44     2  layer 1 width H (a multiple of 16)
//!     46     2  layer 2 width D (a multiple of 8)
//!     48     4  inputs of a view (256)
//!     52        w1 (256 x H i16), b1 (H i16), w2 (D x 2H i16, a unit's
//!               row after row, each within -127..=127), b2 (D i32),
//!               w3 (D i16), b3 (i32), all little-endian
//! ```

use std::path::Path;
use std::sync::Arc;

use once_cell::sync::Lazy;

use super::{dense_from_rows, Network, INPUTS, MAX_DENSE, MAX_HIDDEN};
use crate::checksum::fnv1a;
use crate::eval::container::{self, Contents, WeightsError};
use crate::eval::patterns::Patterns;
use crate::rules::VariantKind;

const VERSION: u32 = 1;
/// The bytes of the fields before the weights: the base's checksum and
/// the three widths.
const FIELDS: usize = 16;

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
    let mut body = Vec::with_capacity(FIELDS + net.w1.len() * 2 + 4096);
    body.extend_from_slice(&net.base.to_le_bytes());
    body.extend_from_slice(&(net.hidden as u16).to_le_bytes());
    body.extend_from_slice(&(net.dense as u16).to_le_bytes());
    body.extend_from_slice(&(INPUTS as u32).to_le_bytes());
    for w in net.w1.iter().chain(&net.b1) {
        body.extend_from_slice(&w.to_le_bytes());
    }
    for w in net.dense_rows() {
        body.extend_from_slice(&i16::from(w).to_le_bytes());
    }
    for b in &net.b2 {
        body.extend_from_slice(&b.to_le_bytes());
    }
    for w in &net.w3 {
        body.extend_from_slice(&w.to_le_bytes());
    }
    body.extend_from_slice(&net.b3.to_le_bytes());
    container::seal(Contents::Network, VERSION, net.variant, &body)
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
pub(super) fn decode(bytes: &[u8], origin: &str) -> Result<Network, WeightsError> {
    let bad = |why: String| WeightsError::Format(format!("{origin}: {why}"));
    let opened = container::open(bytes, origin, Contents::Network)?;
    let variant = opened.variant;
    if opened.body.len() < FIELDS {
        return Err(bad(
            "the file ends inside its header (truncated)".to_string()
        ));
    }
    let mut r = Reader {
        bytes: opened.body,
        at: 0,
    };
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
    let weights = 2 * (INPUTS * hidden + hidden + dense * 2 * hidden + dense) + 4 * dense + 4;
    if opened.body.len() != FIELDS + weights {
        return Err(bad(format!(
            "{} bytes, expected {} for these layers (cut short or padded)",
            bytes.len(),
            bytes.len() - opened.body.len() + FIELDS + weights
        )));
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
pub fn read_network(path: &Path) -> Result<Network, WeightsError> {
    decode(&container::read(path)?, &path.display().to_string())
}

/// Writes `net` to `path` whole or not at all.
pub fn write_network(net: &Network, path: &Path) -> Result<(), WeightsError> {
    container::write(path, &encode(net))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_networks_read_and_write_back_byte_for_byte() {
        for kind in VariantKind::ALL {
            if let Some(bytes) = shipped_bytes(kind) {
                let net = decode(bytes, "shipped").unwrap();
                assert_eq!(net.variant, kind);
                assert_eq!(encode(&net), bytes, "{kind}");
                let err = decode(bytes, "shipped")
                    .and_then(|_| crate::eval::weights_file::decode(bytes, "shipped").map(|_| ()))
                    .unwrap_err()
                    .to_string();
                assert!(err.contains("it holds a tempo network file"), "{err}");
            }
        }
    }
}

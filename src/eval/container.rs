//! The container of every weights file tempo reads and writes: pattern
//! weights (`.tpw`, [`super::weights_file`]) and networks (`.tnn`,
//! [`super::network`]) alike. One header, one checksum and one refusal
//! path; what lies between header and checksum is the contents' own.
//!
//! ```text
//! offset  size  field
//!      0     8  magic, what the file holds: "TEMPOEVL" pattern weights,
//!               "TEMPONET" a network
//!      8     4  the contents' format version, little-endian
//!     12    24  variant name (ASCII, zero-padded), e.g. "international"
//!     36     B  the contents (their fields: the module of each)
//!   36+B     8  FNV-1a 64 checksum of every byte before it
//! ```
//!
//! A file is refused, with a [`WeightsError`] naming it and what is wrong,
//! when it is short, holds other contents than asked for, is of a format
//! version this build does not read, fails its checksum (damaged, cut short
//! or padded) or names an unknown variant; the contents' reader then
//! refuses what is wrong inside them through the same error.

use std::fmt;
use std::ops::RangeInclusive;
use std::path::Path;

use crate::checksum::fnv1a;
use crate::rules::VariantKind;

/// The bytes before the contents: magic, version and variant name.
pub const HEADER: usize = 36;
/// The bytes of the variant name field.
const NAME_LEN: usize = 24;
/// The bytes of the checksum after the contents.
const CHECKSUM: usize = 8;

/// What a weights file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contents {
    /// The learned pattern weights of one variant.
    Patterns,
    /// A network evaluation of one variant.
    Network,
}

impl Contents {
    /// The first eight bytes of a file of these contents.
    pub const fn magic(self) -> &'static [u8; 8] {
        match self {
            Contents::Patterns => b"TEMPOEVL",
            Contents::Network => b"TEMPONET",
        }
    }

    /// The format versions of these contents that this build reads.
    pub const fn versions(self) -> RangeInclusive<u32> {
        match self {
            Contents::Patterns => 1..=3,
            Contents::Network => 1..=1,
        }
    }

    /// What a file of these contents is called in messages.
    pub const fn describe(self) -> &'static str {
        match self {
            Contents::Patterns => "weights",
            Contents::Network => "network",
        }
    }

    /// The contents whose magic `bytes` begin with, if any.
    pub fn of(bytes: &[u8]) -> Option<Contents> {
        [Contents::Patterns, Contents::Network]
            .into_iter()
            .find(|c| bytes.starts_with(c.magic()))
    }
}

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsError {
    /// The file could not be read or written.
    Io(String),
    /// The bytes are not a file of the contents asked for, of a format
    /// this build reads (the message names the file and what is wrong).
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

/// A file's header, checked, and its contents' bytes.
#[derive(Clone, Copy, Debug)]
pub struct Opened<'a> {
    /// The contents' format version.
    pub version: u32,
    /// The variant the file is for.
    pub variant: VariantKind,
    /// The bytes between the header and the checksum.
    pub body: &'a [u8],
}

/// The bytes of a file of `contents` in format `version` for `variant`,
/// holding `body`.
pub fn seal(contents: Contents, version: u32, variant: VariantKind, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + body.len() + CHECKSUM);
    out.extend_from_slice(contents.magic());
    out.extend_from_slice(&version.to_le_bytes());
    let mut name = [0u8; NAME_LEN];
    name[..variant.name().len()].copy_from_slice(variant.name().as_bytes());
    out.extend_from_slice(&name);
    out.extend_from_slice(body);
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Checks the header and checksum of `bytes`, a file of `wanted` contents
/// read from `origin` (named in errors), and returns what it holds.
pub fn open<'a>(
    bytes: &'a [u8],
    origin: &str,
    wanted: Contents,
) -> Result<Opened<'a>, WeightsError> {
    let bad = |why: String| WeightsError::Format(format!("{origin}: {why}"));
    if !bytes.starts_with(wanted.magic()) {
        let held = match Contents::of(bytes) {
            Some(other) => format!(", it holds a tempo {} file", other.describe()),
            None => String::new(),
        };
        return Err(bad(format!(
            "not a tempo {} file (no {} header{held})",
            wanted.describe(),
            String::from_utf8_lossy(wanted.magic())
        )));
    }
    if bytes.len() < HEADER + CHECKSUM {
        return Err(bad("the file ends inside its header (truncated)".into()));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    let versions = wanted.versions();
    if !versions.contains(&version) {
        return Err(bad(format!(
            "{} format version {version}; this build reads versions {} to {}",
            wanted.describe(),
            versions.start(),
            versions.end()
        )));
    }
    let (content, sum) = bytes.split_at(bytes.len() - CHECKSUM);
    if fnv1a(content) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err(bad(
            "the checksum does not match: the file is damaged, truncated or padded".into(),
        ));
    }
    let name = &bytes[12..HEADER];
    let name_end = name.iter().position(|&b| b == 0).unwrap_or(NAME_LEN);
    let name = String::from_utf8_lossy(&name[..name_end]);
    let variant = VariantKind::ALL
        .into_iter()
        .find(|k| k.name() == name)
        .ok_or_else(|| bad(format!("unknown variant '{name}' in the header")))?;
    Ok(Opened {
        version,
        variant,
        body: &content[HEADER..],
    })
}

/// The bytes of the file at `path`.
pub fn read(path: &Path) -> Result<Vec<u8>, WeightsError> {
    std::fs::read(path)
        .map_err(|e| WeightsError::Io(format!("cannot read {}: {e}", path.display())))
}

/// Writes `bytes` to `path` whole or not at all ([`crate::files::replace`]).
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), WeightsError> {
    crate::files::replace(path, bytes)
        .map_err(|e| WeightsError::Io(format!("cannot write {}: {e}", path.display())))
}

/// What the file at `path` begins as, if it is a weights file at all
/// (one that cannot be read is left to its reader to report).
pub fn contents_of(path: &Path) -> Option<Contents> {
    let mut magic = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
        .ok()
        .and_then(|()| Contents::of(&magic))
}

/// Refuses a file for `found` where `wanted` was asked for.
pub fn check_variant(
    path: &Path,
    found: VariantKind,
    wanted: VariantKind,
) -> Result<(), WeightsError> {
    if found == wanted {
        return Ok(());
    }
    Err(WeightsError::WrongVariant {
        path: path.display().to_string(),
        found: found.name().to_string(),
        wanted: wanted.name().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_file_opens_to_its_parts_and_every_damage_is_refused() {
        let kind = VariantKind::Brazilian;
        let bytes = seal(Contents::Network, 1, kind, b"some contents");
        let opened = open(&bytes, "x", Contents::Network).unwrap();
        assert_eq!((opened.version, opened.variant), (1, kind));
        assert_eq!(opened.body, b"some contents");
        let refusal = |bytes: &[u8], wanted| open(bytes, "x", wanted).unwrap_err().to_string();
        let err = refusal(&bytes, Contents::Patterns);
        assert!(err.contains("not a tempo weights file"), "{err}");
        assert!(err.contains("it holds a tempo network file"), "{err}");
        assert!(refusal(b"TEMPONET", Contents::Network).contains("truncated"));
        let mut changed = bytes.clone();
        changed[HEADER + 2] ^= 1;
        assert!(refusal(&changed, Contents::Network).contains("checksum"));
        assert!(refusal(&bytes[..bytes.len() - 1], Contents::Network).contains("truncated"));
        let newer = seal(Contents::Network, 2, kind, b"");
        assert!(refusal(&newer, Contents::Network).contains("version 2"));
        let mut unknown = bytes.clone();
        unknown[12..17].copy_from_slice(b"chess");
        let body_end = unknown.len() - CHECKSUM;
        let sum = fnv1a(&unknown[..body_end]).to_le_bytes();
        unknown[body_end..].copy_from_slice(&sum);
        assert!(refusal(&unknown, Contents::Network).contains("unknown variant 'chesslian'"));
    }
}

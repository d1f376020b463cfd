//! Table files: one per slice, `VARIANT-MATERIAL.egdb` in the database
//! directory (`international-2011.egdb`).
//!
//! Layout, integers little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `TEMPOEGD` |
//! | 4 | format version, 2 |
//! | 16 | variant name, padded with zero bytes |
//! | 4 | material: White men, White kings, Black men, Black kings |
//! | 8 | number of entries, the slice's index size |
//! | 4 | entries a block (4096) |
//! | 8 (blocks + 1) | where each block starts after the offsets, and the end |
//! | ... | the blocks, each an LZ4 block of one byte an index (see `Value::encode`; `pack` says which entries are filler) |
//! | 8 | FNV-1a 64 checksum of everything before it |
//!
//! A table is written to `NAME.egdb.tmp` and renamed when complete, so a file
//! with the final name is always a finished one; a reader checks every
//! field and the checksum before it believes one.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::checksum::{fnv1a, Fnv1a};
use crate::rules::Rules;

use super::pack::{Packed, BLOCK};
use super::{EgdbError, Material};

const MAGIC: &[u8; 8] = b"TEMPOEGD";
const VERSION: u32 = 2;
const NAME_BYTES: usize = 16;
const HEADER_BYTES: usize = 8 + 4 + NAME_BYTES + 4 + 8 + 4;

/// The path of a slice's table.
pub fn path<R: Rules>(dir: &Path, m: Material) -> PathBuf {
    dir.join(format!("{}-{m}.egdb", R::NAME))
}

fn header<R: Rules>(m: Material, entries: u64) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER_BYTES);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&VERSION.to_le_bytes());
    let mut name = [0u8; NAME_BYTES];
    name[..R::NAME.len()].copy_from_slice(R::NAME.as_bytes());
    h.extend_from_slice(&name);
    h.extend_from_slice(&[m.white_men, m.white_kings, m.black_men, m.black_kings]);
    h.extend_from_slice(&entries.to_le_bytes());
    h.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    h
}

/// Writes a finished table; returns its size in bytes.
pub fn write<R: Rules>(dir: &Path, m: Material, table: &Packed) -> Result<u64, EgdbError> {
    let final_path = path::<R>(dir, m);
    let header = header::<R>(m, table.entries());
    let (offsets, data) = table.parts();
    let offsets: Vec<u8> = offsets.iter().flat_map(|o| o.to_le_bytes()).collect();
    crate::files::replace_with(&final_path, |out| {
        let mut sum = Fnv1a::default();
        for part in [&header[..], &offsets, data] {
            sum.update(part);
            out.write_all(part)?;
        }
        out.write_all(&sum.sum().to_le_bytes())
    })
    .map_err(|e| EgdbError::Io(final_path.clone(), e))?;
    Ok((header.len() + offsets.len() + data.len() + 8) as u64)
}

/// Whether a slice's finished table is on disk (not checked).
pub fn exists<R: Rules>(dir: &Path, m: Material) -> bool {
    path::<R>(dir, m).is_file()
}

/// Reads and checks a slice's table of `entries` entries.
pub fn read<R: Rules>(dir: &Path, m: Material, entries: u64) -> Result<Packed, EgdbError> {
    let path = path::<R>(dir, m);
    let bytes = match fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(EgdbError::Missing(path)),
        Err(e) => return Err(EgdbError::Io(path, e)),
    };
    let bad = |why: String| EgdbError::BadFile(path.clone(), why);
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err(bad("no tempo endgame table header".into()));
    }
    if bytes.len() < HEADER_BYTES + 8 {
        return Err(bad(format!(
            "{} bytes, a header alone is more (cut short?)",
            bytes.len()
        )));
    }
    let expected = header::<R>(m, entries);
    if bytes[..HEADER_BYTES] != expected[..] {
        let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(bad(format!(
                "format version {version}, this build reads {VERSION} (delete the file and run tempo egdb build again)"
            )));
        }
        return Err(bad(format!(
            "the header is not that of {} slice {m} with {entries} entries",
            R::NAME
        )));
    }
    let blocks = entries.div_ceil(BLOCK as u64) as usize;
    let data_at = HEADER_BYTES + 8 * (blocks + 1);
    if bytes.len() < data_at + 8 {
        return Err(bad(format!(
            "{} bytes, fewer than its {blocks} block offsets (cut short?)",
            bytes.len()
        )));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    if fnv1a(body).to_le_bytes() != tail {
        return Err(bad("checksum mismatch (damaged or cut short)".into()));
    }
    let offsets: Vec<u64> = body[HEADER_BYTES..data_at]
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect();
    Packed::from_parts(entries, offsets, body[data_at..].to_vec()).map_err(bad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Brazilian, International};

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tempo-egdb-{name}-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_table_round_trips_and_a_damaged_one_is_refused() {
        let dir = scratch("file");
        let m: Material = "1001".parse().unwrap();
        let values: Vec<u8> = (0..1000u32).map(|i| (i % 7) as u8).collect();
        let packed = Packed::pack(&super::super::Layout::<International>::new(), m, &values);
        write::<International>(&dir, m, &packed).unwrap();
        let back = read::<International>(&dir, m, 1000).unwrap();
        assert_eq!(back.unpack(), packed.unpack());
        assert_eq!(back.unpack().len(), 1000);
        // Another size, another variant: refused.
        let e = read::<International>(&dir, m, 999).unwrap_err();
        assert!(e.to_string().contains("not that of"), "{e}");
        fs::copy(path::<International>(&dir, m), path::<Brazilian>(&dir, m)).unwrap();
        let e = read::<Brazilian>(&dir, m, 1000).unwrap_err();
        assert!(e.to_string().contains("brazilian slice 1001"), "{e}");
        // One byte changed, then the file cut: refused.
        let p = path::<International>(&dir, m);
        let mut bytes = fs::read(&p).unwrap();
        bytes[HEADER_BYTES + 10] ^= 1;
        fs::write(&p, &bytes).unwrap();
        let e = read::<International>(&dir, m, 1000).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        for cut in [bytes.len() / 2, HEADER_BYTES + 4] {
            fs::write(&p, &bytes[..cut]).unwrap();
            let e = read::<International>(&dir, m, 1000).unwrap_err();
            assert!(e.to_string().contains("cut short"), "{e}");
        }
        let e = read::<International>(&dir, "2002".parse().unwrap(), 5).unwrap_err();
        assert!(matches!(e, EgdbError::Missing(_)), "{e}");
        fs::remove_dir_all(&dir).unwrap();
    }
}

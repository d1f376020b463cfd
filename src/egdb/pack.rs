//! Packed tables: a slice's entries cut into blocks of [`BLOCK`] entries,
//! each compressed on its own (LZ4), so that a probe unpacks one small
//! block (and keeps the last few it unpacked, per thread).
//!
//! Before packing, every entry whose value a probe never reads takes the
//! value of the entry before it, so that runs grow and compress: indices
//! that are no position, and positions with a capture pending, whose value
//! the probe works out from the captures (see `Egdb::probe`).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

use crate::rules::movegen::has_capture;
use crate::rules::Rules;

use super::{Layout, Material, NOT_A_POSITION};

/// Entries a block.
pub(super) const BLOCK: usize = 4096;

/// Blocks each thread keeps unpacked.
const CACHED_BLOCKS: usize = 64;

/// A table in packed blocks.
pub(super) struct Packed {
    /// Entries of the table.
    entries: u64,
    /// Where each block starts in `data`, and the end of the last one.
    offsets: Box<[u64]>,
    /// The compressed blocks, one after another.
    data: Box<[u8]>,
    /// Tells this table's blocks apart from other tables' in the caches.
    id: u64,
}

impl std::fmt::Debug for Packed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Packed({} entries in {} bytes)",
            self.entries,
            self.data.len()
        )
    }
}

/// Numbers the packed tables for the block caches.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// The blocks a thread unpacked last, by `(table id, block)`.
struct BlockCache {
    keys: [(u64, u64); CACHED_BLOCKS],
    blocks: Vec<[u8; BLOCK]>,
}

thread_local! {
    static CACHE: RefCell<BlockCache> = RefCell::new(BlockCache {
        keys: [(0, 0); CACHED_BLOCKS],
        blocks: vec![[0; BLOCK]; CACHED_BLOCKS],
    });
}

impl Packed {
    /// Packs the entries of slice `m` (`values`, one byte an index).
    pub(super) fn pack<R: Rules>(layout: &Layout<R>, m: Material, values: &[u8]) -> Packed {
        let blocks: Vec<Vec<u8>> = values
            .par_chunks(BLOCK)
            .enumerate()
            .map(|(b, chunk)| {
                let mut filled = Vec::with_capacity(chunk.len());
                let mut last = 0u8;
                for (i, &v) in chunk.iter().enumerate() {
                    let index = (b * BLOCK + i) as u64;
                    let read = v != NOT_A_POSITION
                        && layout
                            .placement(m, index)
                            .is_some_and(|p| !has_capture(&layout.position(&p)));
                    if read {
                        last = v;
                    }
                    filled.push(last);
                }
                lz4_flex::block::compress(&filled)
            })
            .collect();
        let mut offsets = Vec::with_capacity(blocks.len() + 1);
        let mut at = 0u64;
        for block in &blocks {
            offsets.push(at);
            at += block.len() as u64;
        }
        offsets.push(at);
        Packed {
            entries: values.len() as u64,
            offsets: offsets.into(),
            data: blocks.concat().into(),
            id: NEXT_ID.fetch_add(1, Relaxed),
        }
    }

    /// A packed table from its parts as read from a file; checks that every
    /// block unpacks to its length.
    pub(super) fn from_parts(
        entries: u64,
        offsets: Vec<u64>,
        data: Vec<u8>,
    ) -> Result<Packed, String> {
        let blocks = entries.div_ceil(BLOCK as u64) as usize;
        if offsets.len() != blocks + 1 {
            return Err(format!(
                "{} block offsets for {blocks} blocks",
                offsets.len()
            ));
        }
        if offsets.windows(2).any(|w| w[0] > w[1]) || offsets[blocks] != data.len() as u64 {
            return Err("the block offsets are out of order".into());
        }
        let packed = Packed {
            entries,
            offsets: offsets.into(),
            data: data.into(),
            id: NEXT_ID.fetch_add(1, Relaxed),
        };
        (0..blocks).into_par_iter().try_for_each(|b| {
            let mut out = [0u8; BLOCK];
            packed
                .unpack_block(b, &mut out)
                .ok_or_else(|| format!("block {b} does not unpack"))
        })?;
        Ok(packed)
    }

    /// Entries of the table.
    pub(super) fn entries(&self) -> u64 {
        self.entries
    }

    /// The block offsets and the compressed bytes, for writing.
    pub(super) fn parts(&self) -> (&[u64], &[u8]) {
        (&self.offsets, &self.data)
    }

    /// Entries in block `b`.
    fn block_len(&self, b: usize) -> usize {
        (self.entries - (b * BLOCK) as u64).min(BLOCK as u64) as usize
    }

    /// Unpacks block `b` into `out`; `None` if its bytes are not a block of
    /// its length.
    fn unpack_block(&self, b: usize, out: &mut [u8; BLOCK]) -> Option<()> {
        let len = self.block_len(b);
        let bytes = &self.data[self.offsets[b] as usize..self.offsets[b + 1] as usize];
        match lz4_flex::block::decompress_into(bytes, &mut out[..len]) {
            Ok(n) if n == len => Some(()),
            _ => None,
        }
    }

    /// The entry at `index`.
    pub(super) fn get(&self, index: u64) -> u8 {
        let b = (index / BLOCK as u64) as usize;
        let key = (self.id, b as u64);
        let slot = (self.id as usize).wrapping_mul(31).wrapping_add(b) % CACHED_BLOCKS;
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.keys[slot] != key {
                let unpacked = self.unpack_block(b, &mut cache.blocks[slot]);
                assert!(unpacked.is_some(), "every block was checked when loaded");
                cache.keys[slot] = key;
            }
            cache.blocks[slot][index as usize % BLOCK]
        })
    }

    /// Every entry, unpacked.
    pub(super) fn unpack(&self) -> Box<[u8]> {
        let blocks = self.offsets.len() - 1;
        let mut out = vec![0u8; self.entries as usize];
        out.par_chunks_mut(BLOCK)
            .zip(0..blocks)
            .for_each(|(chunk, b)| {
                let mut block = [0u8; BLOCK];
                let unpacked = self.unpack_block(b, &mut block);
                assert!(unpacked.is_some(), "every block was checked when loaded");
                chunk.copy_from_slice(&block[..chunk.len()]);
            });
        out.into()
    }
}

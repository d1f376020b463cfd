//! The transposition table: shared by all search threads, lock-free.
//!
//! Each entry is two atomic words, `check = key ^ data` and `data`; a probe
//! accepts an entry only when `check ^ data == key`, so a torn write by a
//! racing thread reads as a miss, never as another position's data.
//! Four entries make a 64-byte bucket (one cache line).
//!
//! ```text
//! data bits:  0..16  score (i16, mate scores relative to this node)
//!            16..24  depth (plies, 0..255)
//!            24..26  bound: 1 upper, 2 lower, 3 exact
//!            26..32  age (search generation, 6 bits)
//!            32..38  move from (bit index)   38..44 move to (bit index)
//!            44..52  hash of the captured set 52     has-move flag
//! ```
//! The stored move is matched against the legal moves of the position on
//! use, so a probe can never produce an illegal move.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::rules::{Bit, Move};

/// Kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this.
    Upper = 1,
    /// The true score is at least this.
    Lower = 2,
    /// The true score.
    Exact = 3,
}

/// A move as stored in the table: enough to find it among the legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveHint(u32);

impl MoveHint {
    /// The hint of a move.
    pub fn of(mv: Move) -> MoveHint {
        let cap = (mv.captured().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u32;
        MoveHint(1 << 20 | (mv.from().index() as u32) | (mv.to().index() as u32) << 6 | cap << 12)
    }

    /// Whether the hint holds a move at all.
    pub fn is_some(self) -> bool {
        self.0 & (1 << 20) != 0
    }

    /// The start and end bits of the hinted move when it may be a quiet one
    /// (a capture whose hash of taken pieces is 0 looks the same: the caller
    /// checks the move for legality).
    pub fn quiet_ends(self) -> Option<(Bit, Bit)> {
        (self.is_some() && self.0 >> 12 & 0xFF == 0).then(|| {
            (
                Bit::new((self.0 & 63) as u8),
                Bit::new((self.0 >> 6 & 63) as u8),
            )
        })
    }

    /// Whether `mv` is the hinted move.
    #[inline(always)]
    pub fn matches(self, mv: Move) -> bool {
        // The ends first: they rule out almost every move without the hash.
        let ends = (mv.from().index() as u32) | (mv.to().index() as u32) << 6;
        self.0 & 0xFFF == ends && self.is_some() && MoveHint::of(mv) == self
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Stored score (mate scores relative to the stored node).
    pub score: i32,
    /// Depth the score was searched to.
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: Bound,
    /// The best move found there, if any.
    pub hint: MoveHint,
}

#[repr(align(64))]
struct Bucket {
    slots: [[AtomicU64; 2]; 4],
}

/// The shared table.
pub struct Table {
    /// The buckets' words, with up to 7 more before the first bucket so
    /// that every bucket starts on a 64-byte line (see `buckets`).
    words: Vec<AtomicU64>,
    /// The word where the first bucket starts.
    first: usize,
    /// Buckets.
    count: usize,
    /// Buckets in use: those whose pages have been touched (see `warm`);
    /// grows to `count`.
    ready: AtomicUsize,
    age: AtomicU64,
}

/// Buckets touched when a table is made, before any search uses it (1 MiB).
const FIRST_READY: usize = 1 << 14;

const BUCKET_BYTES: usize = std::mem::size_of::<Bucket>();

/// Words a bucket.
const BUCKET_WORDS: usize = BUCKET_BYTES / 8;

// The words are allocated as `u64`s and used as `AtomicU64`s, which have the
// same size and bit validity; the layout the vector frees with must be the
// one allocated with, so the alignments must agree too.
const _: () = assert!(
    std::mem::size_of::<AtomicU64>() == 8
        && std::mem::align_of::<AtomicU64>() == std::mem::align_of::<u64>()
        && BUCKET_BYTES == 64
        && std::mem::align_of::<Bucket>() == 64
);

impl Table {
    /// A table of at most `mib` MiB (at least one bucket), every page
    /// touched, backed by huge pages where the system has them.
    ///
    /// Panics only if even a table of one bucket cannot be allocated; use
    /// `try_new` for a size a user chose.
    pub fn new(mib: usize) -> Table {
        Table::try_new(mib)
            .or_else(|_| Table::try_new(0))
            .expect("memory for a table of one bucket")
    }

    /// A table of at most `mib` MiB, every page touched, or an error when
    /// the memory cannot be had.
    pub fn try_new(mib: usize) -> Result<Table, String> {
        let table = Table::try_new_warming(mib)?;
        table.warm(|| true);
        Ok(table)
    }

    /// A table of at most `mib` MiB that returns at once whatever the size:
    /// zeroed memory that the system maps on first touch (`calloc`), of
    /// which only the first MiB is touched here and used at first;
    /// [`Table::warm`] (on a thread of its own) touches the rest, and the
    /// searches use each part once it is touched. Writing every page of a
    /// 2 GiB table at once took 2-3 s, inside the timed move when `set-param
    /// name=hash` came just before `go`; and a search that met the fresh
    /// pages itself crawled (a 0.2 s move reached depth 4 instead of 13
    /// with 1.5 GiB just set, each fault zeroing a huge page).
    pub fn try_new_warming(mib: usize) -> Result<Table, String> {
        let count = (mib.saturating_mul(1 << 20) / BUCKET_BYTES).max(1);
        let refused = || format!("cannot allocate {mib} MiB for the hash table");
        let len = count
            .checked_mul(BUCKET_WORDS)
            .and_then(|n| n.checked_add(BUCKET_WORDS - 1))
            .ok_or_else(refused)?;
        let layout = std::alloc::Layout::array::<u64>(len).map_err(|_| refused())?;
        // SAFETY: `layout` has a non-zero size (len >= 8). A null pointer is
        // a refusal, handled before any use. With the alignment of a `u64`
        // the system allocator takes `calloc`'s path, which leaves fresh
        // pages to be zeroed by the system when first touched.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<AtomicU64>();
        if ptr.is_null() {
            return Err(refused());
        }
        // SAFETY: `ptr` was allocated by the global allocator with the
        // layout of `len` `u64`s, which (size and alignment asserted equal
        // above) is the layout a `Vec<AtomicU64>` of capacity `len` frees
        // with; every byte is zero, and a zero `AtomicU64` is a valid value,
        // so all `len` elements are initialised.
        let words = unsafe { Vec::from_raw_parts(ptr, len, len) };
        let misalignment = (words.as_ptr() as usize) % BUCKET_BYTES;
        let first = (BUCKET_BYTES - misalignment) % BUCKET_BYTES / 8;
        let table = Table {
            words,
            first,
            count,
            ready: AtomicUsize::new(0),
            age: AtomicU64::new(0),
        };
        advise_huge_pages(table.buckets().as_ptr().cast(), table.bytes());
        table.touch(count.min(FIRST_READY), || true);
        Ok(table)
    }

    /// The buckets: `count` of them from word `first`, which starts a
    /// 64-byte line.
    #[inline(always)]
    fn buckets(&self) -> &[Bucket] {
        // SAFETY: the allocation holds `first + count * BUCKET_WORDS` words
        // (`first` < `BUCKET_WORDS`, and `BUCKET_WORDS - 1` spare words were
        // allocated); the address of word `first` is a multiple of 64, the
        // alignment of `Bucket`; a `Bucket` is exactly `BUCKET_WORDS`
        // `AtomicU64`s with no padding (64 bytes, asserted above); and the
        // words are only ever used through shared references to atomics,
        // so these references alias nothing mutable.
        unsafe {
            std::slice::from_raw_parts(
                self.words.as_ptr().add(self.first).cast::<Bucket>(),
                self.count,
            )
        }
    }

    /// Touches every page of the table (writing 0 into the words of buckets
    /// not in use yet) and lets the searches use the buckets touched, 4 MiB at a
    /// time, so that no search pays for first touches. Safe to run while a
    /// search uses the table; a thread of its own runs it after each
    /// allocation. Every 4 MiB it asks `go_on`, and gives up when that says
    /// no (the table was replaced).
    pub fn warm(&self, go_on: impl Fn() -> bool) {
        self.touch(self.count, go_on);
    }

    /// Waits until every bucket is in use (at once for a table made whole,
    /// or once [`Table::warm`] has run), or until `give_up` says so. A
    /// search that ends on a depth or node count waits, so that its tree
    /// and its node count do not depend on how far the warming has got.
    pub fn wait_until_warm(&self, give_up: impl Fn() -> bool) {
        while self.ready.load(Ordering::Acquire) < self.count && !give_up() {
            std::thread::sleep(std::time::Duration::from_micros(200));
        }
    }

    /// Touches the pages of the first `buckets` buckets and marks them
    /// ready, 4 MiB at a time, stopping early when `go_on` says no.
    fn touch(&self, buckets: usize, go_on: impl Fn() -> bool) {
        const WORDS_A_PAGE: usize = 4096 / 8;
        const WORDS_A_STEP: usize = 1024 * WORDS_A_PAGE;
        let end = self.first + buckets * BUCKET_WORDS;
        let mut next = self.first + self.ready.load(Ordering::Acquire) * BUCKET_WORDS;
        while next < end {
            let step_end = (next + WORDS_A_STEP).min(end);
            // One word a page from `next`, and the last word: every page of
            // the range is written. A store of 0, which no compiler may
            // drop (an atomic `or` of 0 became a load, which maps no page),
            // into words of buckets no search uses yet: they are not ready.
            let last = &self.words[step_end - 1];
            for word in self.words[next..step_end]
                .iter()
                .step_by(WORDS_A_PAGE)
                .chain([last])
            {
                word.store(0, Ordering::Relaxed);
            }
            self.ready
                .fetch_max((step_end - self.first) / BUCKET_WORDS, Ordering::Release);
            next = step_end;
            if !go_on() {
                return;
            }
        }
    }

    /// Size in bytes of the entries.
    pub fn bytes(&self) -> usize {
        self.count * BUCKET_BYTES
    }

    /// Forgets everything (new game), in place: the memory stays mapped, so
    /// the next search does not pay page faults (a fresh allocation made the
    /// first move after `new-game` 100 ms late).
    pub fn clear(&mut self) {
        for word in &mut self.words {
            *word.get_mut() = 0;
        }
        // Every page is written now.
        *self.ready.get_mut() = self.count;
        *self.age.get_mut() = 0;
    }

    /// Starts a new search generation, so older entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn age(&self) -> u64 {
        self.age.load(Ordering::Relaxed) & 63
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let ready = self.ready.load(Ordering::Relaxed);
        let i = ((key as u128 * ready as u128) >> 64) as usize;
        &self.buckets()[i]
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a
    /// probe soon after does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        prefetch_line(self.bucket(key) as *const Bucket as *const i8);
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in &self.bucket(key).slots {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if check ^ data == key && data != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result, replacing the same key or the least useful entry.
    #[inline]
    pub fn store(&self, key: u64, score: i32, depth: i32, bound: Bound, hint: MoveHint) {
        let age = self.age();
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i64::MAX;
        for (i, slot) in bucket.slots.iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            if data == 0 {
                victim = i;
                victim_worth = i64::MIN;
                continue;
            }
            if check ^ data == key {
                let old = unpack(data);
                // Keep a deeper exact result of this search for a shallow bound.
                if bound != Bound::Exact && old.depth > depth + 2 && (data >> 26) & 63 == age {
                    return;
                }
                let hint = if hint.is_some() { hint } else { old.hint };
                write(slot, key, pack(score, depth, bound, age, hint));
                return;
            }
            let entry_age = (data >> 26) & 63;
            let stale = ((age + 64 - entry_age) & 63) as i64;
            let worth = ((data >> 16) & 0xFF) as i64 - 8 * stale;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        write(
            &bucket.slots[victim],
            key,
            pack(score, depth, bound, age, hint),
        );
    }

    /// Permille of sampled entries written in the current search generation.
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let sample = self.count.min(250);
        let mut used = 0;
        for b in &self.buckets()[..sample] {
            for slot in &b.slots {
                let data = slot[1].load(Ordering::Relaxed);
                if data != 0 && (data >> 26) & 63 == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * 4).max(1)) as u32
    }
}

/// Asks Linux to back `len` bytes at `start` with 2 MiB pages (before they
/// are first touched). Nearly every probe of a large table misses the cache
/// and, with 4 KiB pages, the TLB as well; with huge pages only the cache
/// miss is left. Elsewhere, or when the kernel declines, nothing changes.
/// (MADV_HUGEPAGE is 14 on these architectures; a few others number it
/// differently.)
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
fn advise_huge_pages(start: *const u8, len: usize) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    const MADV_HUGEPAGE: i32 = 14;
    const PAGE: usize = 4096;
    let first = (start as usize).next_multiple_of(PAGE);
    let end = (start as usize + len) / PAGE * PAGE;
    if end > first {
        // SAFETY: the range lies inside the allocation that `start` begins
        // (rounded inward to whole pages); MADV_HUGEPAGE is advice about how
        // to back those pages and changes neither their contents nor their
        // validity. A failure (e.g. huge pages disabled) is harmless, so the
        // result is not needed.
        unsafe {
            madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
fn advise_huge_pages(_start: *const u8, _len: usize) {}

/// A hint to load the cache line at `ptr` (x86-64 only; elsewhere nothing).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn prefetch_line(ptr: *const i8) {
    use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
    // SAFETY: a prefetch is a hint that never reads the memory into the
    // program and never faults, whatever the address; `ptr` is a bucket of
    // the table or a slot of a worker's cache of static scores in any case.
    // (Measured: 6-12% more nodes a second.)
    unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr) }
}

/// A hint to load the cache line at `ptr` (x86-64 only; elsewhere nothing).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn prefetch_line(_ptr: *const i8) {}

#[inline(always)]
fn write(slot: &[AtomicU64; 2], key: u64, data: u64) {
    slot[0].store(key ^ data, Ordering::Relaxed);
    slot[1].store(data, Ordering::Relaxed);
}

#[inline(always)]
fn pack(score: i32, depth: i32, bound: Bound, age: u64, hint: MoveHint) -> u64 {
    (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16 as u64)
        | (depth.clamp(0, 255) as u64) << 16
        | (bound as u64) << 24
        | age << 26
        | (hint.0 as u64) << 32
}

#[inline(always)]
fn unpack(data: u64) -> Entry {
    Entry {
        score: data as u16 as i16 as i32,
        depth: ((data >> 16) & 0xFF) as i32,
        bound: match (data >> 24) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        },
        hint: MoveHint((data >> 32) as u32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{International, Position};

    #[test]
    fn stores_and_finds_an_entry() {
        let t = Table::new(1);
        let pos = Position::<International>::start();
        let mv = pos.legal_moves().as_slice()[3];
        t.store(pos.key(), -123, 7, Bound::Lower, MoveHint::of(mv));
        let e = t.probe(pos.key()).unwrap();
        assert_eq!((e.score, e.depth, e.bound), (-123, 7, Bound::Lower));
        assert!(e.hint.matches(mv));
        assert!(!e.hint.matches(pos.legal_moves().as_slice()[2]));
        assert!(t.probe(pos.key() ^ 1).is_none());
    }

    #[test]
    fn a_quiet_hint_gives_back_its_ends() {
        let pos = Position::<International>::start();
        let mv = pos.legal_moves().as_slice()[3];
        assert_eq!(MoveHint::of(mv).quiet_ends(), Some((mv.from(), mv.to())));
        assert_eq!(MoveHint::default().quiet_ends(), None);
        let capture = crate::rules::notation::parse_fen::<International>("W:W28:B23,24")
            .unwrap()
            .legal_moves()
            .as_slice()[0];
        assert!(capture.is_capture());
        assert_eq!(MoveHint::of(capture).quiet_ends(), None);
    }

    #[test]
    fn memory_stays_within_the_size() {
        for mib in [1, 3, 16] {
            assert!(Table::new(mib).bytes() <= mib << 20);
        }
        // A table is made whole, or warming: then it uses its first MiB,
        // and all of it once warmed. An entry stored meanwhile is a miss
        // later or still found, never wrong.
        assert_eq!(Table::new(8).ready.load(Ordering::Relaxed), 8 << 14);
        let table = Table::try_new_warming(8).unwrap();
        assert_eq!(table.ready.load(Ordering::Relaxed), FIRST_READY);
        table.wait_until_warm(|| true);
        assert_eq!(table.ready.load(Ordering::Relaxed), FIRST_READY);
        table.store(12345, 7, 3, Bound::Exact, MoveHint::default());
        table.warm(|| true);
        table.wait_until_warm(|| false);
        assert_eq!(table.ready.load(Ordering::Relaxed), 8 << 14);
        if let Some(entry) = table.probe(12345) {
            assert_eq!((entry.score, entry.depth), (7, 3));
        }
        // Every bucket starts a 64-byte line, whatever the allocation's
        // address, and the last one lies inside it.
        for mib in [0, 1, 2] {
            let table = Table::new(mib);
            let buckets = table.buckets();
            assert_eq!(buckets.as_ptr() as usize % 64, 0);
            let end = buckets.as_ptr_range().end as usize;
            assert!(end <= table.words.as_ptr_range().end as usize);
        }
    }
}

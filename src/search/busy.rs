//! Positions some thread is searching right now, so that other threads can
//! put off the same subtree and search a sibling first (the deferral of
//! ABDADA, in the simplified form of Lazy SMP engines).
//!
//! A lossy table of keys: a slot holds the key of the latest position
//! entered there and is cleared when that search leaves. Two positions that
//! share a slot only make one of them look free; a key seen by mistake only
//! changes the order in which a thread searches its moves, never a result.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots in the table (a power of two): far more than the nodes deep
/// enough to be marked that a few threads can have open at once.
const SLOTS: usize = 1 << 14;

/// The shared table of positions being searched.
pub(super) struct Busy {
    slots: Box<[AtomicU64]>,
}

impl Busy {
    /// An empty table.
    pub(super) fn new() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key as usize) & (SLOTS - 1)]
    }

    /// Whether a thread is searching the position with `key`.
    #[inline(always)]
    pub(super) fn contains(&self, key: u64) -> bool {
        key != 0 && self.slot(key).load(Ordering::Relaxed) == key
    }

    /// Marks the position with `key` as being searched.
    #[inline(always)]
    pub(super) fn enter(&self, key: u64) {
        self.slot(key).store(key, Ordering::Relaxed);
    }

    /// Clears the mark of `key`, unless another position has taken the slot
    /// since.
    #[inline(always)]
    pub(super) fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_busy_from_enter_to_leave() {
        let busy = Busy::new();
        assert!(!busy.contains(42));
        busy.enter(42);
        assert!(busy.contains(42));
        busy.leave(42);
        assert!(!busy.contains(42));
    }

    #[test]
    fn leaving_does_not_clear_a_newer_key_in_the_slot() {
        let busy = Busy::new();
        let (a, b) = (7, 7 + SLOTS as u64);
        busy.enter(a);
        busy.enter(b);
        busy.leave(a);
        assert!(busy.contains(b));
        assert!(!busy.contains(a));
    }
}

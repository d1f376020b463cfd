//! The per-ply buffers and move-ordering tables of a search worker, and
//! the pool of spare ones that the next worker of the same owner takes.

use parking_lot::Mutex;

use super::{Worker, EVAL_CACHE_BITS};
use crate::eval::network::Accumulators;
use crate::eval::Evaluator;
use crate::rules::{Move, MoveList, Rules, VariantKind};
use crate::search::MAX_PLY;

/// The per-ply buffers and the move-ordering tables of a worker. A worker
/// gives them back to its owner's pool of spares ([`SparePool`]) and the
/// next one takes them, emptied and zeroed (but for the static scores of
/// the same variant and weights): a search of a few thousand nodes
/// (self-play) spent 5% of its time allocating and freeing them.
#[derive(Default)]
pub(super) struct Buffers {
    pub(super) lists: Vec<MoveList>,
    pub(super) order: Vec<Vec<i32>>,
    /// Moves put off at each ply (index in the ordered list, move).
    pub(super) deferred: Vec<Vec<(usize, Move)>>,
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) killers: Vec<[Move; 2]>,
    pub(super) history: Vec<i32>,
    /// Static scores by the low bits of the position's key: the key's
    /// other bits above, the score (as `i16`) in the low 16 (0: empty).
    /// A static score depends only on the variant, the position and the
    /// evaluator, so the cache outlives a search and is emptied only for
    /// another variant or evaluator.
    pub(super) eval_cache: Vec<u64>,
    /// The variant and the evaluator whose scores `eval_cache` and
    /// `accumulators` hold (the evaluator held, so that no other can come
    /// to the same address).
    pub(super) eval_cache_owner: Option<(VariantKind, Evaluator)>,
    /// The network's layer 1 kept for each ply (empty without a network).
    pub(super) accumulators: Accumulators,
    /// Late-move reductions by [depth][move index], and the techniques'
    /// base and divisor they were worked out for.
    pub(super) reductions: Vec<[i32; 64]>,
    pub(super) reductions_for: Option<(u32, u32)>,
}

impl Buffers {
    /// Fresh buffers.
    fn new() -> Buffers {
        Buffers {
            lists: (0..MAX_PLY + 1).map(|_| MoveList::new()).collect(),
            order: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            deferred: (0..MAX_PLY + 1).map(|_| Vec::new()).collect(),
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            killers: vec![[Move::default(); 2]; MAX_PLY + 1],
            history: vec![0; 64 * 64],
            eval_cache: vec![0; 1 << EVAL_CACHE_BITS],
            eval_cache_owner: None,
            accumulators: Accumulators::default(),
            reductions: vec![[0; 64]; 64],
            reductions_for: None,
        }
    }

    /// Whether the cache of static scores holds those of `kind` with
    /// `evaluator`.
    pub(super) fn holds_scores_of(&self, kind: VariantKind, evaluator: &Evaluator) -> bool {
        self.eval_cache_owner
            .as_ref()
            .is_some_and(|(k, e)| *k == kind && e.is_same(evaluator))
    }

    /// Used buffers made as good as fresh ones: every list empty, the
    /// killers and the history zero, so that a search never depends on the
    /// one before it.
    fn reset(mut self) -> Buffers {
        self.lists.iter_mut().for_each(MoveList::clear);
        self.order.iter_mut().for_each(Vec::clear);
        self.deferred.iter_mut().for_each(Vec::clear);
        self.pv.iter_mut().for_each(Vec::clear);
        self.killers.fill([Move::default(); 2]);
        self.history.fill(0);
        self
    }
}

/// Buffers of finished workers, kept for the next workers of the same
/// owner: whoever runs searches holds one in its [`SearchResources`]
/// (cloned resources share it), so that Hub play, which starts every
/// search on a new thread, neither allocates its buffers afresh nor
/// begins with an empty cache of static scores at every move. The pool
/// holds only buffers its own workers made, so it never holds more than
/// the most workers its owner's searches had alive at once (the threads
/// of its largest search, or of its searches run side by side), and it
/// is freed with the last clone of its resources. Taking from it changes
/// no search: buffers are reset when taken, and a cached static score is
/// kept only for the same variant and evaluator, whose score it is
/// whoever worked it out.
///
/// [`SearchResources`]: crate::search::SearchResources
#[derive(Default)]
pub(in crate::search) struct SparePool {
    spares: Mutex<Vec<Buffers>>,
}

impl SparePool {
    /// Spare buffers, those that hold static scores of `kind` with
    /// `evaluator` if any do, or fresh ones.
    pub(super) fn take(&self, kind: VariantKind, evaluator: &Evaluator) -> Buffers {
        let mut spares = self.spares.lock();
        let same = spares
            .iter()
            .rposition(|b| b.holds_scores_of(kind, evaluator));
        let taken = match same {
            Some(i) => Some(spares.swap_remove(i)),
            None => spares.pop(),
        };
        drop(spares);
        taken.map_or_else(Buffers::new, Buffers::reset)
    }

    /// How many spare buffers the pool holds.
    #[cfg(test)]
    pub(in crate::search) fn len(&self) -> usize {
        self.spares.lock().len()
    }
}

impl<R: Rules> Drop for Worker<'_, R> {
    fn drop(&mut self) {
        let buffers = std::mem::take(&mut self.buf);
        self.spares.spares.lock().push(buffers);
    }
}

/// Late-move reductions by [depth][move index] for the techniques' base and
/// divisor (hundredths): base + ln(depth) ln(move index) / divisor, growing
/// with the logarithms of the depth and of the move's place in the
/// ordering (none with divisor 0).
pub(super) fn fill_reductions(table: &mut [[i32; 64]], base: u32, divisor: u32) {
    for (depth, row) in table.iter_mut().enumerate() {
        for (i, r) in row.iter_mut().enumerate() {
            *r = if depth == 0 || i == 0 || divisor == 0 {
                0
            } else {
                let d = (depth as f64).ln();
                let m = (i as f64).ln();
                (f64::from(base) / 100.0 + d * m * 100.0 / f64::from(divisor)) as i32
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_follow_base_and_divisor() {
        let mut table = vec![[0; 64]; 64];
        fill_reductions(&mut table, 75, 150);
        // 0.75 + ln 10 ln 10 / 1.5 = 4.28; 0.75 + ln 3 ln 2 / 1.5 = 1.26.
        assert_eq!((table[10][10], table[3][2], table[1][40]), (4, 1, 0));
        assert_eq!((table[0][5], table[5][0]), (0, 0));
        // More base, a smaller divisor: more reduction.
        fill_reductions(&mut table, 125, 100);
        assert_eq!(table[10][10], 6);
        fill_reductions(&mut table, 75, 0);
        assert!(table.iter().flatten().all(|&r| r == 0));
    }
}

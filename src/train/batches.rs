//! The batch runner behind `tempo selfplay` and `tempo data from-pdn`: a
//! run's items (games) cut into batches, the batches not yet in the data
//! file shared among threads, each finished batch appended as one chunk,
//! progress reported after each.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::unbounded;

use super::data::{DataWriter, Existing, Record};
use crate::search::tt::Table;

/// Progress of a run, reported after every finished batch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Games of this run (and shard) in the file, from earlier runs too.
    pub games_done: u64,
    /// Games this shard has in all.
    pub games_total: u64,
    /// Positions in the file (all its batches).
    pub positions: u64,
    /// Positions this run wrote a second.
    pub positions_per_second: f64,
    /// Games this run finished a second.
    pub games_per_second: f64,
    /// Threads playing (at most one per pending batch).
    pub threads: usize,
    /// Time this run has played.
    pub elapsed: Duration,
    /// Time left at this run's pace.
    pub eta: Option<Duration>,
}

impl Progress {
    /// Positions this run wrote a second per playing thread: the figure of
    /// one core, which does not depend on how many a machine has.
    pub fn positions_per_thread_second(&self) -> f64 {
        self.positions_per_second / self.threads.max(1) as f64
    }
}

/// How a run's items (games) are cut into batches and shared out.
#[derive(Clone, Copy, Debug)]
pub struct BatchPlan {
    /// Items of the whole run (all shards together).
    pub items: u64,
    /// Items a batch (a chunk of the data file).
    pub batch_items: u32,
    /// This run's shard `(i, n)`: batches `b` with `b % n == i`.
    pub shard: (u32, u32),
    /// Threads working at once.
    pub threads: usize,
    /// Table size of each thread, MiB.
    pub hash_mib: usize,
}

/// Runs `work` on the items of `plan` whose batches are not yet in the data
/// file `writer` (whose contents were `existing`), on its threads, each with
/// a table of its own; appends a chunk per finished batch (its items'
/// records in item order) and reports progress after each.
pub fn run_batches(
    plan: &BatchPlan,
    writer: &mut DataWriter,
    existing: &Existing,
    progress: &mut dyn FnMut(Progress),
    work: &(dyn Fn(u64, &mut Table) -> Vec<Record> + Sync),
) -> Result<Progress, String> {
    let (shard, shards) = plan.shard;
    let batch_games = plan.batch_items.max(1) as u64;
    let batches = plan.items.div_ceil(batch_games);
    let games_of = |b: u64| (plan.items - b * batch_games).min(batch_games);
    let mine: Vec<u64> = (0..batches)
        .filter(|b| b % shards as u64 == shard as u64)
        .collect();
    let games_total: u64 = mine.iter().map(|&b| games_of(b)).sum();
    let in_file = |b: u64| {
        existing
            .batches
            .iter()
            .find(|&&(batch, _)| u64::from(batch) == b)
            .map(|&(_, games)| games)
    };
    // A batch the file holds with other games than this run puts in it (a
    // run with more --games after one that ended inside a batch) would be
    // counted done and never played.
    for &b in &mine {
        if let Some(games) = in_file(b) {
            if u64::from(games) != games_of(b) {
                return Err(format!(
                    "batch {b} in the file holds {games} games, this run puts {} in it: a run \
                     adds games only from a multiple of the batch size ({batch_games}); \
                     give another --out for the games beyond",
                    games_of(b)
                ));
            }
        }
    }
    let pending: Vec<u64> = mine
        .iter()
        .copied()
        .filter(|&b| in_file(b).is_none())
        .collect();
    let pending_games: u64 = pending.iter().map(|&b| games_of(b)).sum();
    let done_before: u64 = mine.iter().filter_map(|&b| in_file(b)).map(u64::from).sum();
    let threads = plan.threads.max(1).min(pending.len().max(1));
    let mut state = Progress {
        games_done: done_before,
        games_total,
        positions: existing.records,
        positions_per_second: 0.0,
        games_per_second: 0.0,
        threads,
        elapsed: Duration::ZERO,
        eta: None,
    };
    progress(state);
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (send, receive) = unbounded::<(u32, u32, Vec<Record>)>();
    let started = Instant::now();
    let mut written = Ok(());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let send = send.clone();
            let (next, failed, pending) = (&next, &failed, &pending);
            scope.spawn(move || {
                let mut table = Table::new(plan.hash_mib);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= pending.len() || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let b = pending[i];
                    let mut records = Vec::new();
                    let count = games_of(b);
                    for g in b * batch_games..b * batch_games + count {
                        records.extend(work(g, &mut table));
                    }
                    if send.send((b as u32, count as u32, records)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut games_this_run = 0u64;
        let mut positions_this_run = 0u64;
        for (batch, games, records) in receive {
            if written.is_err() {
                continue;
            }
            if let Err(e) = writer.append(batch, games, &records) {
                failed.store(true, Ordering::Relaxed);
                written = Err(e.to_string());
                continue;
            }
            games_this_run += games as u64;
            positions_this_run += records.len() as u64;
            state.elapsed = started.elapsed();
            let secs = state.elapsed.as_secs_f64().max(1e-3);
            state.games_done += games as u64;
            state.positions += records.len() as u64;
            state.positions_per_second = positions_this_run as f64 / secs;
            state.games_per_second = games_this_run as f64 / secs;
            let left = pending_games.saturating_sub(games_this_run);
            state.eta = Some(Duration::from_secs_f64(
                secs * left as f64 / games_this_run.max(1) as f64,
            ));
            progress(state);
        }
    });
    written.map(|()| state)
}

//! Self-play: games of the engine against itself inside one process, on
//! every thread, whose quiet positions become the data the pattern weights
//! are fitted to.
//!
//! Games are numbered `0..games` and grouped in batches of
//! [`SelfplayConfig::batch_games`]; batch `b` holds games `b * batch_games`
//! onward. Each game's opening plies are chosen at random by a generator
//! seeded with the run's seed and the game's number, and the search is
//! deterministic under a node or depth limit, so a game is the same whatever
//! thread plays it, and a batch is the unit of resuming and of splitting the
//! work: a run appends one chunk per finished batch and skips the batches
//! its file already has; `--shard I/N` plays only the batches `b` with
//! `b % N == I`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::unbounded;

use super::data::{DataWriter, Existing, Record};
use super::SplitMix;
use crate::referee::{Game, GameResult};
use crate::rules::movegen::{has_capture, side_has_capture};
use crate::rules::{Position, Rules};
use crate::search::tt::Table;
use crate::search::{search, Control, Limits, SearchResources, SearchSetup};

/// How a self-play run of variant `R` plays its games.
#[derive(Clone, Debug)]
pub struct SelfplayConfig<R: Rules> {
    /// Games in the whole run (all shards together).
    pub games: u64,
    /// Games a batch (a chunk of the data file).
    pub batch_games: u32,
    /// Node limit of each move's search (with `depth`, whichever comes first).
    pub nodes: Option<u64>,
    /// Depth limit of each move's search.
    pub depth: Option<u32>,
    /// Each move's node limit is drawn at random within this many percent
    /// of `nodes` either way (0: exactly `nodes`), so that games from the
    /// same opening part at the first close choice.
    pub vary_nodes: u32,
    /// Plies played at random from the start position.
    pub random_plies: u32,
    /// Seed of the random plies.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// This run's shard `(i, n)`: batches `b` with `b % n == i`.
    pub shard: (u32, u32),
    /// A game still going after this many plies is scored a draw.
    pub max_plies: u32,
    /// Table size of each thread, MiB.
    pub hash_mib: usize,
    /// The weights and endgame tables the engine plays with.
    pub resources: SearchResources<R>,
}

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

/// Plays the games of `config` not yet in the data file `writer` (whose
/// contents were `existing`), appending a chunk per batch.
pub fn run<R: Rules>(
    config: &SelfplayConfig<R>,
    writer: &mut DataWriter,
    existing: &Existing,
    progress: &mut dyn FnMut(Progress),
) -> Result<Progress, String> {
    let (shard, shards) = config.shard;
    let batch_games = config.batch_games.max(1) as u64;
    let batches = config.games.div_ceil(batch_games);
    let games_of = |b: u64| (config.games - b * batch_games).min(batch_games);
    let mine: Vec<u64> = (0..batches)
        .filter(|b| b % shards as u64 == shard as u64)
        .collect();
    let games_total: u64 = mine.iter().map(|&b| games_of(b)).sum();
    let pending: Vec<u64> = mine
        .iter()
        .copied()
        .filter(|b| !existing.batches.contains(&(*b as u32)))
        .collect();
    let pending_games: u64 = pending.iter().map(|&b| games_of(b)).sum();
    let done_before: u64 = mine
        .iter()
        .filter(|b| existing.batches.contains(&(**b as u32)))
        .map(|&b| games_of(b))
        .sum();
    let threads = config.threads.max(1).min(pending.len().max(1));
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
                let mut table = Table::new(config.hash_mib);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= pending.len() || failed.load(Ordering::Relaxed) {
                        break;
                    }
                    let b = pending[i];
                    let mut records = Vec::new();
                    let count = games_of(b);
                    for g in b * batch_games..b * batch_games + count {
                        records.extend(play_game::<R>(config, g, &mut table));
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

/// Whether neither side has a capture in `pos`: a position whose static
/// score means something.
fn quiet<R: Rules>(pos: &Position<R>) -> bool {
    !has_capture(pos) && !side_has_capture(pos, pos.side_to_move().opponent())
}

/// Plays game number `g` of `config` and returns its quiet positions,
/// labelled with the result. A game that ends during its random plies
/// gives none.
pub fn play_game<R: Rules>(config: &SelfplayConfig<R>, g: u64, table: &mut Table) -> Vec<Record> {
    let mut random = SplitMix(config.seed ^ g.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut game = Game::new(Position::<R>::start());
    for _ in 0..config.random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.result().is_over() {
            return Vec::new();
        }
        let mv = moves.as_slice()[(random.next() % moves.len() as u64) as usize];
        game.play(mv).expect("a listed move is legal");
    }
    if game.result().is_over() {
        return Vec::new();
    }
    table.clear();
    let mut seen = Vec::new();
    while !game.result().is_over() && (game.moves().len() as u32) < config.max_plies {
        let pos = *game.position();
        let nodes = match config.nodes {
            Some(n) if config.vary_nodes > 0 => {
                let spread = n * config.vary_nodes.min(100) as u64 / 100;
                Some((n - spread + random.next() % (2 * spread + 1)).max(1))
            }
            nodes => nodes,
        };
        let limits = Limits {
            depth: config.depth,
            nodes,
            ..Limits::default()
        };
        let mut setup = SearchSetup::for_game(&game, limits);
        setup.resources = config.resources.clone();
        let result = search(&setup, table, &Control::new(false), &mut |_| {});
        let Some(mv) = result.best else { break };
        if quiet(&pos) {
            let score = result.score.clamp(-3000, 3000);
            let white_score = match pos.side_to_move() {
                crate::rules::Side::White => score,
                crate::rules::Side::Black => -score,
            };
            seen.push((pos, white_score as i16, game.moves().len() as u16));
        }
        game.play(mv).expect("the search plays a legal move");
    }
    let result = match game.result() {
        GameResult::WhiteWins(_) => 1,
        GameResult::BlackWins(_) => -1,
        GameResult::Draw(_) | GameResult::Ongoing => 0,
    };
    seen.iter()
        .map(|(pos, score, ply)| Record::of(pos, result, *score, *ply))
        .collect()
}

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

pub use super::batches::Progress;
use super::batches::{run_batches, BatchPlan};
use super::data::{DataWriter, Existing, Record};
use crate::game::{Game, GameResult};
use crate::rules::movegen::{has_capture, side_has_capture};
use crate::rules::random::SplitMix64;
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

/// Plays the games of `config` not yet in the data file `writer` (whose
/// contents were `existing`), appending a chunk per batch.
pub fn run<R: Rules>(
    config: &SelfplayConfig<R>,
    writer: &mut DataWriter,
    existing: &Existing,
    progress: &mut dyn FnMut(Progress),
) -> Result<Progress, String> {
    let plan = BatchPlan {
        items: config.games,
        batch_items: config.batch_games,
        shard: config.shard,
        threads: config.threads,
        hash_mib: config.hash_mib,
    };
    run_batches(&plan, writer, existing, progress, &|g, table| {
        play_game::<R>(config, g, table)
    })
}

/// Whether neither side has a capture in `pos`: a position whose static
/// score means something.
pub(super) fn quiet<R: Rules>(pos: &Position<R>) -> bool {
    !has_capture(pos) && !side_has_capture(pos, pos.side_to_move().opponent())
}

/// Plays game number `g` of `config` and returns its quiet positions,
/// labelled with the result. A game that ends during its random plies
/// gives none.
pub fn play_game<R: Rules>(config: &SelfplayConfig<R>, g: u64, table: &mut Table) -> Vec<Record> {
    let mut random = SplitMix64(config.seed ^ g.wrapping_mul(0xD1B5_4A32_D192_ED03));
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

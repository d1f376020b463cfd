//! Search: iterative-deepening principal-variation search over the rules
//! core, with a shared lock-free transposition table and Lazy SMP.
//!
//! The search takes typed `Limits`, reports typed `Iteration`s through a
//! callback and returns a `SearchResult`; it never reads input nor formats
//! protocol text.
//!
//! Threads: `threads` workers run the same iterative deepening on one shared
//! table (helpers on odd ids keep one ply ahead of the first worker, and a
//! worker puts off a move whose subtree another is searching, see `busy`);
//! the first worker alone reports, manages time and decides the move, from its
//! deepest completed iteration. When it finishes it raises the stop flag and
//! the helpers return.

mod busy;
pub mod limits;
pub mod params;
pub mod resources;
pub mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::game::Game;
use crate::rules::draw::{DrawClocks, DrawSettings, SolvedDraws};
use crate::rules::{Move, Position, Rules};
use busy::Busy;
pub use limits::Limits;
pub use params::SearchParams;
pub use resources::{solved_draws, SearchResources};
use tt::Table;
use worker::Worker;

/// Deepest ply the search reaches, extensions and quiescence included.
pub const MAX_PLY: usize = 128;
/// Score of a win at the root; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score.
pub const INFINITY: i32 = 31_000;

/// Signals shared between the engine and a running search: stop, ponder-hit,
/// and the moment the clock started.
#[derive(Debug)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    started: Mutex<Instant>,
    searching_since: Instant,
}

impl Default for Control {
    fn default() -> Self {
        Control::new(false)
    }
}

impl Control {
    /// Fresh signals; with `pondering` the clock waits for `ponder_hit`.
    pub fn new(pondering: bool) -> Control {
        Control::since(pondering, Instant::now())
    }

    /// Fresh signals for a search whose clock started at `start` (the
    /// moment the request arrived, which may be before the search starts).
    pub fn since(pondering: bool, start: Instant) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            started: Mutex::new(start),
            searching_since: start,
        }
    }

    /// Asks the search to finish as soon as possible.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn ponder_hit(&self) {
        *self.started.lock() = Instant::now();
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Whether the search is still pondering (its clock not running).
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// Time on the clock since the search (or the ponder-hit) started.
    pub fn elapsed(&self) -> Duration {
        self.started.lock().elapsed()
    }

    /// Time since the search started, pondering included (for reports and
    /// the soft limit of a search that pondered).
    pub fn searching_for(&self) -> Duration {
        self.searching_since.elapsed()
    }
}

/// What one search is asked to do.
#[derive(Clone, Debug)]
pub struct SearchSetup<R: Rules> {
    /// The position to search.
    pub root: Position<R>,
    /// Keys of the game's earlier positions since the last irreversible
    /// move, oldest first, the root excluded (for repetitions).
    pub history: Vec<u64>,
    /// The draw-rule clocks of the root.
    pub clocks: DrawClocks,
    /// The draw rules in force.
    pub draw: DrawSettings,
    /// When to stop.
    pub limits: Limits,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Lines to report in analysis (1 = only the best).
    pub multipv: usize,
    /// Search even when only one move is legal (analysis).
    pub search_single_move: bool,
    /// The search parameters (each at its default unless set).
    pub params: SearchParams,
    /// How much worse than 0 a draw is for the side to move at the root,
    /// in hundredths of a man (0: a draw is a draw).
    pub contempt: i32,
    /// The pattern weights and endgame tables (the variant's built-in
    /// weights and no tables unless set).
    pub resources: SearchResources<R>,
}

impl<R: Rules> SearchSetup<R> {
    /// A setup for `root` with the given limits and defaults elsewhere.
    pub fn new(root: Position<R>, limits: Limits) -> SearchSetup<R> {
        SearchSetup {
            root,
            history: Vec::new(),
            clocks: DrawClocks::start(&root),
            draw: DrawSettings::for_variant(R::KIND),
            limits,
            threads: 1,
            multipv: 1,
            search_single_move: false,
            contempt: 0,
            params: SearchParams::default(),
            resources: SearchResources::builtin(),
        }
    }

    /// A setup for the current position of `game`, the one way from a game
    /// to a search: the earlier positions (for repetitions), the draw
    /// clocks and the draw settings come from the game, `limits` as given,
    /// the defaults of [`SearchSetup::new`] elsewhere.
    pub fn for_game(game: &Game<R>, limits: Limits) -> SearchSetup<R> {
        let mut setup = SearchSetup::new(*game.position(), limits);
        let keys = game.history_keys();
        setup.history = keys[..keys.len().saturating_sub(1)].to_vec();
        setup.clocks = game.clocks();
        setup.draw = game.settings().clone();
        setup
    }
}

/// The report of one completed iteration (or of one line of it, in
/// multi-PV).
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Iteration depth in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score in hundredths of a man, or a mate score (see `MATE`).
    pub score: i32,
    /// Nodes of all workers.
    pub nodes: u64,
    /// Time since the start.
    pub time: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Table fill in permille.
    pub hashfull: u32,
    /// Line rank in multi-PV, from 1.
    pub multipv: usize,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None` when there is no legal move).
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// Its score.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes of all workers.
    pub nodes: u64,
}

/// A node counter on its own cache line.
#[repr(align(64))]
#[derive(Default)]
struct Counter(AtomicU64);

/// State the workers of one search share.
struct Shared<'a> {
    table: &'a Table,
    control: &'a Control,
    counters: Vec<Counter>,
    hard: Option<Duration>,
    node_limit: Option<u64>,
    /// The deepest iteration a helper thread completed, if any.
    helper_best: parking_lot::Mutex<Option<SearchResult>>,
    /// The iteration the main worker is searching (see `Worker::next_depth`).
    main_depth: AtomicU32,
    /// Positions being searched, when more than one thread searches.
    busy: Option<Busy>,
    /// The solved kings-only draws of the variant.
    solved: Arc<SolvedDraws>,
}

impl Shared<'_> {
    /// Keeps a helper's completed iteration if it is the deepest so far.
    fn offer(&self, result: &SearchResult) {
        let mut best = self.helper_best.lock();
        if best.as_ref().is_none_or(|b| result.depth > b.depth) {
            *best = Some(result.clone());
        }
    }

    fn nodes(&self) -> u64 {
        self.counters
            .iter()
            .map(|c| c.0.load(Ordering::Relaxed))
            .sum()
    }
}

/// Runs a search to its limits (or a stop) and returns the move.
///
/// `report` is called by the first worker after every completed iteration.
pub fn search<R: Rules>(
    setup: &SearchSetup<R>,
    table: &Table,
    control: &Control,
    report: &mut dyn FnMut(&Iteration),
) -> SearchResult {
    // Built before the first search of the variant, however long that
    // takes: results never depend on whether it was ready.
    let solved = solved_draws::<R>();
    table.new_search();
    let budget = setup.limits.budget();
    let shared = Shared {
        table,
        control,
        counters: (0..setup.threads.max(1))
            .map(|_| Counter::default())
            .collect(),
        hard: budget.hard,
        node_limit: setup.limits.nodes,
        helper_best: parking_lot::Mutex::new(None),
        main_depth: AtomicU32::new(0),
        busy: (setup.threads > 1).then(Busy::new),
        solved,
    };
    let threads = setup.threads.max(1);
    std::thread::scope(|scope| {
        for id in 1..threads {
            let shared = &shared;
            let setup = setup.clone();
            // A helper that cannot be spawned only makes the search narrower.
            let _ = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(16 << 20)
                .spawn_scoped(scope, move || {
                    let mut w = Worker::new(id, &setup, shared);
                    w.iterate(&setup, None, &mut |_| {});
                });
        }
        let mut main = Worker::new(0, setup, &shared);
        let mut result = main.iterate(setup, budget.soft, report);
        control.stop();
        // Lazy SMP: a helper that completed a deeper iteration than the main
        // thread (it may have stopped the search by reaching the depth
        // limit first) gives the answer. Only for a single line: the other
        // lines of a multi-PV search are the main thread's.
        if setup.multipv <= 1 {
            if let Some(deeper) = shared.helper_best.lock().take() {
                if deeper.depth > result.depth && deeper.best.is_some() {
                    result = deeper;
                }
            }
        }
        SearchResult {
            nodes: shared.nodes(),
            ..result
        }
    })
}

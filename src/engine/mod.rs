//! The one engine API that both protocols drive.
//!
//! `EngineHost` owns the options, the transposition table and the game
//! being played, and runs searches on a thread of their own. The variant is
//! chosen once, here: the game lives behind the object-safe `VariantGame`
//! trait, implemented by `GameState<R>` for each variant, so everything
//! below this module is compile-time specialised.
//!
//! The opening book: with the `book` parameter on, `go think` and
//! `go ponder` in a position of the book answer with a book move at once
//! (one `Info` with `book: true`, then `Done`), without searching; `go
//! analyze` never uses it. Each variant has its own `book-file` (empty: the
//! book shipped inside the binary); a file that cannot be read is refused
//! and the previous book stays.
//!
//! Invariants: at most one search runs at a time; every `go` that returns
//! `Ok` sends exactly one `EngineEvent::Done` on its channel; options, the
//! position, the table and the books change only while no search runs.

pub mod draw_params;
mod game_state;
mod params;
pub mod strength;
pub mod vocabulary;

use std::path::PathBuf;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crossbeam_channel::Sender;

use crate::book::{self, Book};
use crate::eval::weights_file;
use crate::rules::draw::DrawSettings;
use crate::rules::notation::{squares_of, to_fen};
use crate::rules::random::SplitMix64;
use crate::rules::{Move, PerVariant, Position, Rules, VariantKind};
use crate::search::resources::{builtin_egdb, EvalSource, ResourceSettings};
pub use crate::search::resources::{DEFAULT_EGDB_PIECES, MAX_EGDB_PIECES};
use crate::search::tt::Table;
use crate::search::{solved_draws, Control, SearchParams};
use game_state::{new_game_state, BookHit, SearchRequest, VariantGame};
pub use vocabulary::{
    EngineError, EngineEvent, GoMode, Limits, MoveSquares, Param, ParamKind, Score, SearchInfo,
};

/// Engine name reported to GUIs.
pub const NAME: &str = "tempo";
/// Engine version reported to GUIs.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Engine author reported to GUIs.
pub const AUTHOR: &str = "the tempo developers";

/// Settings that apply to every variant.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Search threads.
    pub threads: usize,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Lines reported in analysis.
    pub multipv: usize,
    /// Draw avoidance in hundredths of a man (not used by `go analyze`).
    pub contempt: usize,
    /// The search's parameters (Hub tuning parameters by their names).
    pub params: SearchParams,
    /// Play from the opening book in `go think` and `go ponder`.
    pub book: bool,
    /// Book moves within this many hundredths of a man of the best book
    /// move are chosen at random (0: always the best).
    pub book_margin: u32,
    /// Strength level, 1 to `strength::MAX_LEVEL` (full strength); below
    /// the top, `go think` and `go ponder` play weaker (see `strength`).
    pub level: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            hash_mib: 64,
            multipv: 1,
            contempt: DEFAULT_CONTEMPT,
            params: SearchParams::default(),
            book: true,
            book_margin: 4,
            level: strength::MAX_LEVEL,
        }
    }
}

/// Largest table size accepted, in MiB.
pub const MAX_HASH_MIB: usize = 65_536;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;
/// Default draw avoidance, hundredths of a man: a draw counts as a quarter
/// of a man lost when playing (never in analysis). A trade that wins more
/// against weaker opponents and costs a little against equals
/// (benches/search.md, "Contempt"); 0 for matches against equals or
/// stronger engines.
pub const DEFAULT_CONTEMPT: usize = 25;
/// Largest contempt accepted, hundredths of a man.
pub const MAX_CONTEMPT: usize = 100;
/// Most analysis lines accepted.
pub const MAX_MULTIPV: usize = 64;
/// Largest `book-margin` accepted, in hundredths of a man.
pub const MAX_BOOK_MARGIN: usize = 1000;

struct Running {
    handle: JoinHandle<()>,
    control: Arc<Control>,
}

/// The engine: options, table, game and the running search.
pub struct EngineHost {
    variant: VariantKind,
    options: Options,
    table: Arc<Table>,
    /// The draw rules of each variant, as the user set them.
    draw: PerVariant<DrawSettings>,
    game: Box<dyn VariantGame>,
    running: Option<Running>,
    /// The book file set by the user for each variant, with the book read
    /// from it; a variant with none uses its shipped book.
    book_files: PerVariant<Option<(String, Arc<Book>)>>,
    /// The weights or network file set by the user for each variant; a
    /// variant with none uses its built-in evaluation. The evaluation
    /// itself is loaded into the game's search resources.
    eval_files: PerVariant<Option<PathBuf>>,
    /// Directory of the endgame tables (empty: none).
    egdb_path: String,
    /// The most pieces of the endgame tables loaded.
    egdb_pieces: u32,
    /// Whether to build the small tables of a 32-square variant in memory
    /// when `egdb_path` gives none (`search::resources::builtin_egdb`).
    builtin_egdb: bool,
    /// Whether a variant without a weights file of the user's adds the
    /// network built in beside its patterns (where one ships).
    builtin_network: bool,
    /// What the last load of resources said (the endgame tables loaded, or
    /// why none were), sent once before the next search.
    note: Option<String>,
    /// State of the generator that picks among close book moves.
    random: SplitMix64,
}

impl Default for EngineHost {
    fn default() -> Self {
        EngineHost::new()
    }
}

impl EngineHost {
    /// An engine for International draughts with default options. The
    /// table is allocated at once with the default size.
    pub fn new() -> EngineHost {
        let options = Options::default();
        let host = EngineHost {
            variant: VariantKind::International,
            table: warming(options.hash_mib).unwrap_or_else(|_| Arc::new(Table::new(1))),
            options,
            game: new_game_state(
                VariantKind::International,
                DrawSettings::for_variant(VariantKind::International),
            ),
            draw: PerVariant::from_fn(DrawSettings::for_variant),
            running: None,
            book_files: PerVariant::default(),
            eval_files: PerVariant::default(),
            egdb_path: String::new(),
            egdb_pieces: DEFAULT_EGDB_PIECES,
            builtin_egdb: true,
            builtin_network: true,
            note: None,
            random: SplitMix64(
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64)
                    ^ u64::from(std::process::id()).rotate_left(32),
            ),
        };
        host.warm_up();
        host
    }

    /// Builds, off the protocol thread, what the first search of the
    /// variant needs and takes a moment to make (the built-in weights, the
    /// solved kings-only draws, about 0.4 s on 10x10; the small endgame
    /// tables of 8x8, about 2 s; the shipped book), so that no timed move
    /// waits for it. A search started before it is done waits (see
    /// `search::solved_draws`): its result is the same either way.
    fn warm_up(&self) {
        let kind = self.variant;
        let tables = self.builtin_egdb;
        std::thread::spawn(move || prepare(kind, tables));
    }

    /// Waits until what [`EngineHost::warm_up`] builds for the current
    /// variant is ready (at once when it is): the Hub `init` calls it before
    /// it answers `ready`, so that the first timed move never waits.
    pub fn prepare(&self) {
        prepare(self.variant, self.builtin_egdb);
    }

    /// Loads the search resources of the current variant from the
    /// settings; a weights file that can no longer be read falls back to
    /// the built-in weights, with a note.
    fn reload_resources(&mut self) {
        let kind = self.variant;
        let settings = self.resource_settings(self.eval_files[kind].as_ref());
        self.note = match self.game.load_resources(&settings) {
            Ok(note) => note,
            Err(why) => {
                self.eval_files[kind] = None;
                let builtin = ResourceSettings {
                    eval: EvalSource::builtin(self.builtin_network),
                    ..settings
                };
                let note = self.game.load_resources(&builtin).unwrap_or(None);
                Some(format!("eval-file: {why}; using the built-in weights"))
                    .into_iter()
                    .chain(note)
                    .reduce(|a, b| format!("{a}\n{b}"))
            }
        };
    }

    /// The resource settings of the current variant: its weights file
    /// `file` (the built-in evaluation when it has none) and the endgame
    /// tables.
    fn resource_settings(&self, file: Option<&PathBuf>) -> ResourceSettings {
        ResourceSettings {
            eval: file.map_or(EvalSource::builtin(self.builtin_network), |path| {
                EvalSource::File(path.clone())
            }),
            egdb_path: (!self.egdb_path.is_empty()).then(|| PathBuf::from(&self.egdb_path)),
            egdb_pieces: self.egdb_pieces,
            builtin_egdb: self.builtin_egdb,
        }
    }

    /// The variant being played.
    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    /// The draw rules in force for the current variant.
    pub fn draw_settings(&self) -> DrawSettings {
        self.draw[self.variant].clone()
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Forgets everything learnt in earlier searches and returns to the
    /// initial position.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.ensure_idle("start a new game")?;
        self.game.new_game();
        self.clear_table();
        Ok(())
    }

    pub(crate) fn clear_table(&mut self) {
        match Arc::get_mut(&mut self.table) {
            Some(table) => table.clear(),
            None => {
                self.table =
                    warming(self.options.hash_mib).unwrap_or_else(|_| Arc::new(Table::new(1)));
            }
        }
    }

    /// Sets the game: a start position (Hub string or FEN) and the moves
    /// played since. On error the previous game is kept.
    pub fn set_position(&mut self, position: &str, moves: &[&str]) -> Result<(), EngineError> {
        self.ensure_idle("set the position")?;
        self.game.set_position(position, moves)
    }

    /// Sets the game as typed values: a start position of the variant in
    /// use and the moves played since, each checked for legality. On error
    /// the previous game is kept.
    pub fn set_game<R: Rules>(
        &mut self,
        start: Position<R>,
        moves: &[Move],
    ) -> Result<(), EngineError> {
        self.ensure_idle("set the position")?;
        if R::KIND != self.variant {
            return Err(EngineError::BadPosition(format!(
                "a {} position, but the variant is {}",
                R::NAME,
                self.variant.hub_name()
            )));
        }
        // The game keeps its search resources: it is set as text, which
        // names every move exactly (the Hub long form), and replayed.
        let mut replay = start;
        let mut texts = Vec::with_capacity(moves.len());
        for &mv in moves {
            texts.push(squares_of::<R>(mv).to_string());
            if !replay.legal_moves().contains(mv) {
                break;
            }
            replay = replay.play(mv);
        }
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        self.game.set_position(&to_fen(&start), &texts)
    }

    /// The current position as a Hub position string.
    pub fn position_string(&self) -> String {
        self.game.hub_string()
    }

    /// The book file of the current variant (empty: the shipped book).
    fn book_file(&self) -> &str {
        self.book_files[self.variant]
            .as_ref()
            .map_or("", |(path, _)| path.as_str())
    }

    /// The weights file of the current variant (empty: the built-in weights).
    fn eval_file(&self) -> String {
        self.eval_files[self.variant]
            .as_ref()
            .map_or(String::new(), |path| path.display().to_string())
    }

    /// The book in use for the current variant, if the book is on.
    fn book(&self) -> Option<Arc<Book>> {
        if !self.options.book {
            return None;
        }
        match &self.book_files[self.variant] {
            Some((_, book)) => Some(Arc::clone(book)),
            None => book::shipped(self.variant).ok(),
        }
    }

    /// The next number of a splitmix64 sequence.
    fn next_random(&mut self) -> u64 {
        self.random.next()
    }

    /// Starts a search on its own thread. It sends `Info` events and then
    /// exactly one `Done`, on `events`. In `Think` and `Ponder` a position
    /// of the book is answered from the book, without a search.
    pub fn go(
        &mut self,
        mode: GoMode,
        limits: Limits,
        events: Sender<EngineEvent>,
    ) -> Result<(), EngineError> {
        self.ensure_idle("start a search")?;
        let start = limits.since.unwrap_or_else(Instant::now);
        let control = Arc::new(Control::since(mode == GoMode::Ponder, start));
        if mode != GoMode::Analyze {
            if let Some(book) = self.book() {
                let random = self.next_random();
                if let Some(hit) = self.game.book_move(&book, self.options.book_margin, random) {
                    let handle =
                        answer_from_book(hit, Arc::clone(&control), limits.infinite, events)?;
                    self.running = Some(Running { handle, control });
                    return Ok(());
                }
            }
        }
        if let Some(note) = self.note.take() {
            // Nobody listening is no reason to refuse the search.
            let _ = events.send(EngineEvent::Note(note));
        }
        let mut limits = limits;
        let weakened = match strength::plan(self.options.level) {
            Some(plan) if mode != GoMode::Analyze => {
                if let Some(cap) = plan.nodes {
                    limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
                }
                if let Some(cap) = plan.depth {
                    limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
                }
                Some((plan, self.next_random()))
            }
            _ => None,
        };
        let request = SearchRequest {
            mode,
            limits,
            weakened,
        };
        let handle = self.game.start_search(
            Arc::clone(&self.table),
            Arc::clone(&control),
            &self.options,
            request,
            events,
        )?;
        self.running = Some(Running { handle, control });
        Ok(())
    }

    /// Asks the running search, if any, to finish now.
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.control.stop();
        }
    }

    /// The opponent played the expected move: the ponder search's clock starts.
    pub fn ponder_hit(&self) {
        if let Some(r) = &self.running {
            r.control.ponder_hit();
        }
    }

    /// Whether a search is running (its `Done` not yet sent).
    pub fn is_searching(&mut self) -> bool {
        self.reap();
        self.running.is_some()
    }

    /// Waits for the running search, if any, to end.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            // A search thread that panicked has already been reported by the
            // panic hook; there is nothing left to wait for.
            let _ = r.handle.join();
        }
    }

    /// Joins a search thread that has finished.
    fn reap(&mut self) {
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
        {
            self.wait();
        }
    }

    fn ensure_idle(&mut self, what: &str) -> Result<(), EngineError> {
        self.reap();
        if self.running.is_some() {
            return Err(EngineError::Busy(what.to_string()));
        }
        Ok(())
    }
}

impl Drop for EngineHost {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// A new table of `mib` MiB, shared, made at once whatever its size, whose
/// pages a thread of its own touches now; the searches use each part once
/// it is touched (`Table::try_new_warming`).
fn warming(mib: usize) -> Result<Arc<Table>, String> {
    let table = Arc::new(Table::try_new_warming(mib)?);
    let warming = Arc::clone(&table);
    let spawned = std::thread::Builder::new()
        .name("table-warm".to_string())
        .spawn(move || warming.warm(|| Arc::strong_count(&warming) > 1));
    if spawned.is_err() {
        // No thread to spare: touch it all now.
        table.warm(|| true);
    }
    Ok(table)
}

/// Answers a `go` with a book move on a thread of its own: one `Info`
/// (`book: true`), then, like a search, no `Done` before the clock runs
/// (ponder) or before a stop (infinite), then the `Done`.
fn answer_from_book(
    hit: BookHit,
    control: Arc<Control>,
    infinite: bool,
    events: Sender<EngineEvent>,
) -> Result<JoinHandle<()>, EngineError> {
    std::thread::Builder::new()
        .name("book".to_string())
        .spawn(move || {
            let mut pv = vec![hit.best.clone()];
            pv.extend(hit.ponder.clone());
            // A closed channel means nobody listens any more.
            let _ = events.send(EngineEvent::Info(SearchInfo {
                depth: hit.depth,
                seldepth: hit.depth,
                score: hit.score,
                nodes: 0,
                time: control.searching_for(),
                pv,
                hashfull: 0,
                multipv: None,
                book: true,
            }));
            while !control.stopped() && (control.pondering() || infinite) {
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = events.send(EngineEvent::Done {
                best: Some(hit.best),
                ponder: hit.ponder,
            });
        })
        .map_err(|e| EngineError::Io(format!("cannot start the book thread: {e}")))
}

/// What the first search of `kind` needs built: the built-in weights, the
/// solved kings-only draws and the shipped book (one that cannot be read is
/// simply not used).
fn prepare(kind: VariantKind, tables: bool) {
    weights_file::builtin(kind);
    crate::rules::with_rules!(kind, R => {
        solved_draws::<R>();
        if tables {
            builtin_egdb::<R>();
        }
    });
    let _ = book::shipped(kind);
}

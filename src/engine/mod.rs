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
mod endgame;
mod game_state;
pub mod types;

use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crossbeam_channel::Sender;

use crate::book::{self, Book};
use crate::eval::{weights_file, Patterns};
use crate::rules::draw::{prepare_certain_draw, prepare_certain_draw_for, DrawSettings};
use crate::rules::{International, Move, Position, Rules, VariantKind};
use crate::search::tt::Table;
use crate::search::Control;
use endgame::EndgameTables;
pub use endgame::{DEFAULT_EGDB_PIECES, MAX_EGDB_PIECES};
use game_state::{new_game_state, typed_game_state, BookHit, SearchTools, VariantGame};
pub use types::{
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
    /// Quiet plies quiescence adds where the opponent threatens a capture.
    pub threat_plies: usize,
    /// Play from the opening book in `go think` and `go ponder`.
    pub book: bool,
    /// Book moves within this many hundredths of a man of the best book
    /// move are chosen at random (0: always the best).
    pub book_margin: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            hash_mib: 64,
            multipv: 1,
            contempt: DEFAULT_CONTEMPT,
            threat_plies: 0,
            book: true,
            book_margin: 4,
        }
    }
}

/// Largest table size accepted, in MiB.
pub const MAX_HASH_MIB: usize = 65_536;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;
/// Default draw avoidance, hundredths of a man: a draw counts as a quarter
/// of a man lost when playing (never in analysis). Against dame-rs at 0.2 s
/// a move, two runs of 100 games each way: 83.0% and 84.0% without it,
/// 90.5% and 89.0% with it; against tempo without it, 200 games at 0.1 s:
/// 46.8% (Elo -23 ± 28). A trade for play against weaker opponents; 0 for
/// matches against equals or stronger engines.
pub const DEFAULT_CONTEMPT: usize = 25;
/// Largest contempt accepted, hundredths of a man.
pub const MAX_CONTEMPT: usize = 100;
/// Most quiescence threat plies accepted.
pub const MAX_THREAT_PLIES: usize = 2;
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
    draw: Vec<(VariantKind, DrawSettings)>,
    game: Box<dyn VariantGame>,
    running: Option<Running>,
    /// Book files set by the user, per variant, with the book read from
    /// each; a variant not listed uses its shipped book.
    book_files: Vec<(VariantKind, String, Arc<Book>)>,
    /// Pattern weights files set by the user, per variant, with the weights
    /// read from each; a variant not listed uses its built-in weights.
    eval_files: Vec<(VariantKind, String, Arc<Patterns>)>,
    /// Endgame databases.
    endgame: EndgameTables,
    /// State of the generator that picks among close book moves.
    random: u64,
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
        // The solved-endgame tables and the shipped books take a moment to
        // build and read; do it now, off the protocol thread, so no timed
        // move pays for them.
        std::thread::spawn(|| {
            prepare_certain_draw::<International>();
            weights_file::builtin(VariantKind::International);
            for kind in VariantKind::ALL {
                // A shipped book that cannot be read is simply not used.
                let _ = book::shipped(kind);
            }
        });
        let options = Options::default();
        let draw: Vec<(VariantKind, DrawSettings)> = VariantKind::ALL
            .iter()
            .map(|&k| (k, DrawSettings::for_variant(k)))
            .collect();
        EngineHost {
            variant: VariantKind::International,
            table: warming(options.hash_mib).unwrap_or_else(|_| Arc::new(Table::new(1))),
            options,
            game: new_game_state(
                VariantKind::International,
                DrawSettings::for_variant(VariantKind::International),
            ),
            draw,
            running: None,
            book_files: Vec::new(),
            eval_files: Vec::new(),
            endgame: EndgameTables::new(),
            random: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
                ^ u64::from(std::process::id()).rotate_left(32),
        }
    }

    /// Builds now, or waits for, what the first search of the current
    /// variant would otherwise build inside its timed move: the built-in
    /// weights, the book and the solved-draw table. Hub's `init` calls it
    /// before answering `ready`.
    pub fn prepare(&self) {
        weights_file::builtin(self.variant);
        prepare_certain_draw_for(self.variant);
        // Only its reading is wanted here; a book that cannot be read is
        // simply not used.
        let _ = self.book();
    }

    /// The variant being played.
    pub fn variant(&self) -> VariantKind {
        self.variant
    }

    /// The draw rules in force for the current variant.
    pub fn draw_settings(&self) -> DrawSettings {
        self.draw
            .iter()
            .find(|(k, _)| *k == self.variant)
            .map_or_else(
                || DrawSettings::for_variant(self.variant),
                |(_, s)| s.clone(),
            )
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Every parameter with its current value, `variant` first.
    pub fn params(&self) -> Vec<Param> {
        let int = |name: &str, value: usize, min: usize, max: usize, help: &str| Param {
            name: name.to_string(),
            kind: ParamKind::Int {
                min: min as i64,
                max: max as i64,
            },
            value: value.to_string(),
            help: help.to_string(),
        };
        let mut params = vec![
            Param {
                name: "variant".to_string(),
                kind: ParamKind::Enum(
                    VariantKind::ALL
                        .iter()
                        .map(|&k| hub_variant_name(k).to_string())
                        .collect(),
                ),
                value: hub_variant_name(self.variant).to_string(),
                help: "normal = International 10x10, brazilian = 8x8, losing = antidraughts 10x10, \
                       losing-brazilian = antidraughts 8x8, russian, english = checkers, italian, \
                       killer, bt = breakthrough"
                    .to_string(),
            },
            int(
                "threads",
                self.options.threads,
                1,
                MAX_THREADS,
                "search threads",
            ),
            int(
                "hash",
                self.options.hash_mib,
                1,
                MAX_HASH_MIB,
                "transposition table size in MiB",
            ),
            int(
                "multipv",
                self.options.multipv,
                1,
                MAX_MULTIPV,
                "lines reported by go analyze",
            ),
            Param {
                name: "book".to_string(),
                kind: ParamKind::Bool,
                value: self.options.book.to_string(),
                help: "play book moves in go think and go ponder".to_string(),
            },
            Param {
                name: "book-file".to_string(),
                kind: ParamKind::String,
                value: self.book_file().to_string(),
                help: "opening book of this variant; empty = the shipped one".to_string(),
            },
            Param {
                name: "eval-file".to_string(),
                kind: ParamKind::String,
                value: self.eval_file().to_string(),
                help: "pattern weights of this variant (tempo train); empty = the built-in ones"
                    .to_string(),
            },
            Param {
                name: "egdb-path".to_string(),
                kind: ParamKind::String,
                value: self.endgame.path().to_string(),
                help: "directory of the endgame tables (tempo egdb build); empty = none".to_string(),
            },
            int(
                "egdb-pieces",
                self.endgame.pieces() as usize,
                2,
                MAX_EGDB_PIECES as usize,
                "most pieces of the endgame tables loaded",
            ),
            int(
                "book-margin",
                self.options.book_margin as usize,
                0,
                MAX_BOOK_MARGIN,
                "book moves this many hundredths of a man from the best may be played; 0 = the best",
            ),
            int(
                "contempt",
                self.options.contempt,
                0,
                MAX_CONTEMPT,
                "how much worse than equal a draw is, in hundredths of a man (not in go analyze)",
            ),
            int(
                "threat-plies",
                self.options.threat_plies,
                0,
                MAX_THREAT_PLIES,
                "quiet plies quiescence adds where the opponent threatens a capture",
            ),
        ];
        params.extend(draw_params::params(&self.draw_settings()));
        params
    }

    /// Sets a parameter. Refused while a search runs. Changing the variant
    /// starts a new game from the variant's initial position.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.ensure_idle("change a parameter")?;
        let bad = |why: &str| EngineError::BadValue {
            name: name.to_string(),
            why: why.to_string(),
        };
        let number = |min: usize, max: usize| -> Result<usize, EngineError> {
            let n: usize = value
                .trim()
                .parse()
                .map_err(|_| bad(&format!("'{value}' is not a whole number")))?;
            if n < min || n > max {
                return Err(bad(&format!("{n} is outside {min}..{max}")));
            }
            Ok(n)
        };
        match name {
            "variant" => {
                let kind = VariantKind::parse(value)
                    .ok_or_else(|| bad(&format!("unknown variant '{value}'")))?;
                if kind != self.variant {
                    std::thread::spawn(move || prepare_certain_draw_for(kind));
                    self.variant = kind;
                    self.game = new_game_state(kind, self.draw_settings());
                    self.clear_table();
                    self.endgame.reload(kind);
                }
            }
            "threads" => self.options.threads = number(1, MAX_THREADS)?,
            "hash" => {
                let mib = number(1, MAX_HASH_MIB)?;
                if mib != self.options.hash_mib {
                    // Free the old table before allocating the new one (on a
                    // thread of its own: unmapping gigabytes takes a while);
                    // keep a table of the old size when the new one cannot
                    // be had.
                    let old = std::mem::replace(&mut self.table, Arc::new(Table::new(1)));
                    let _ = std::thread::Builder::new()
                        .name("table-free".to_string())
                        .spawn(move || drop(old));
                    match warming(mib) {
                        Ok(table) => {
                            self.table = table;
                            self.options.hash_mib = mib;
                        }
                        Err(why) => {
                            self.table = Arc::new(Table::new(self.options.hash_mib));
                            return Err(bad(&why));
                        }
                    }
                }
            }
            "multipv" => self.options.multipv = number(1, MAX_MULTIPV)?,
            "contempt" => self.options.contempt = number(0, MAX_CONTEMPT)?,
            "threat-plies" => self.options.threat_plies = number(0, MAX_THREAT_PLIES)?,
            "book" => {
                self.options.book = match value.trim().to_ascii_lowercase().as_str() {
                    "true" | "1" | "on" | "yes" => true,
                    "false" | "0" | "off" | "no" => false,
                    _ => return Err(bad(&format!("'{value}' is not true or false"))),
                }
            }
            "book-file" => {
                let path = value.trim();
                let kind = self.variant;
                if path.is_empty() {
                    self.book_files.retain(|(k, _, _)| *k != kind);
                } else {
                    let book = book::read_file_for(kind, std::path::Path::new(path))
                        .map_err(|e| bad(&e.to_string()))?;
                    self.book_files.retain(|(k, _, _)| *k != kind);
                    self.book_files
                        .push((kind, path.to_string(), Arc::new(book)));
                }
            }
            "egdb-path" => self.endgame.set_path(value, self.variant),
            "egdb-pieces" => {
                let pieces = number(2, MAX_EGDB_PIECES as usize)? as u32;
                self.endgame.set_pieces(pieces, self.variant);
            }
            "book-margin" => self.options.book_margin = number(0, MAX_BOOK_MARGIN)? as u32,
            "eval-file" => {
                let path = value.trim();
                let kind = self.variant;
                if path.is_empty() {
                    self.eval_files.retain(|(k, _, _)| *k != kind);
                } else {
                    // A file that cannot be used leaves the weights in use.
                    let patterns = weights_file::read_file(kind, std::path::Path::new(path))
                        .map_err(|e| bad(&e.to_string()))?;
                    self.eval_files.retain(|(k, _, _)| *k != kind);
                    self.eval_files
                        .push((kind, path.to_string(), Arc::new(patterns)));
                }
            }
            _ if name.starts_with("draw-") => {
                let mut settings = self.draw_settings();
                draw_params::set(&mut settings, name, value).map_err(|why| bad(&why))?;
                self.game.set_draw_settings(settings.clone());
                for (kind, s) in &mut self.draw {
                    if *kind == self.variant {
                        *s = settings.clone();
                    }
                }
            }
            _ => return Err(EngineError::UnknownParam(name.to_string())),
        }
        Ok(())
    }

    /// Forgets everything learnt in earlier searches and returns to the
    /// initial position.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.ensure_idle("start a new game")?;
        self.game = new_game_state(self.variant, self.draw_settings());
        self.clear_table();
        Ok(())
    }

    fn clear_table(&mut self) {
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
                hub_variant_name(self.variant)
            )));
        }
        self.game = typed_game_state(start, moves, self.draw_settings())?;
        Ok(())
    }

    /// The current position as a Hub position string.
    pub fn position_string(&self) -> String {
        self.game.hub_string()
    }

    /// The book file of the current variant (empty: the shipped book).
    fn book_file(&self) -> &str {
        self.book_files
            .iter()
            .find(|(k, _, _)| *k == self.variant)
            .map_or("", |(_, path, _)| path.as_str())
    }

    /// The weights file of the current variant (empty: the built-in weights).
    fn eval_file(&self) -> &str {
        self.eval_files
            .iter()
            .find(|(k, _, _)| *k == self.variant)
            .map_or("", |(_, path, _)| path.as_str())
    }

    /// The pattern weights in use for the current variant.
    fn patterns(&self) -> Arc<Patterns> {
        match self.eval_files.iter().find(|(k, _, _)| *k == self.variant) {
            Some((_, _, patterns)) => Arc::clone(patterns),
            None => weights_file::builtin(self.variant),
        }
    }

    /// The book in use for the current variant, if the book is on.
    fn book(&self) -> Option<Arc<Book>> {
        if !self.options.book {
            return None;
        }
        match self.book_files.iter().find(|(k, _, _)| *k == self.variant) {
            Some((_, _, book)) => Some(Arc::clone(book)),
            None => book::shipped(self.variant).ok(),
        }
    }

    /// The next number of a splitmix64 sequence.
    fn next_random(&mut self) -> u64 {
        self.random = self.random.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.random;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
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
        if let Some(note) = self.endgame.take_note() {
            // Nobody listening is no reason to refuse the search.
            let _ = events.send(EngineEvent::Note(note));
        }
        let tools = SearchTools {
            table: Arc::clone(&self.table),
            patterns: self.patterns(),
            egdb: self.endgame.tables(),
        };
        let handle = self.game.start_search(
            tools,
            Arc::clone(&control),
            &self.options,
            mode,
            limits,
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

/// The Hub name of a variant: Scan's names where Scan plays the variant
/// (`normal` for International, `bt` for Breakthrough), the command-line
/// name otherwise. [`VariantKind::parse`] reads both.
pub fn hub_variant_name(kind: VariantKind) -> &'static str {
    match kind {
        VariantKind::International => "normal",
        VariantKind::Breakthrough => "bt",
        other => other.name(),
    }
}

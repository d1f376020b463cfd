//! The one engine API that both protocols drive.
//!
//! `EngineHost` owns the options, the transposition table and the game
//! being played, and runs searches on a thread of their own. The variant is
//! chosen once, here: the game lives behind the object-safe `VariantGame`
//! trait, implemented by `GameState<R>` for each variant, so everything
//! below this module is compile-time specialised.
//!
//! Invariants: at most one search runs at a time; every `go` that returns
//! `Ok` sends exactly one `EngineEvent::Done` on its channel; options, the
//! position and the table change only while no search runs.

mod game_state;
pub mod types;

use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::Sender;

use crate::rules::draw::{prepare_certain_draw, DrawSettings};
use crate::rules::{Brazilian, International, VariantKind};
use crate::search::tt::Table;
use crate::search::Control;
use game_state::{new_game_state, VariantGame};
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
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threads: 1,
            hash_mib: 64,
            multipv: 1,
            contempt: DEFAULT_CONTEMPT,
        }
    }
}

/// Largest table size accepted, in MiB.
pub const MAX_HASH_MIB: usize = 65_536;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 256;
/// Default draw avoidance, hundredths of a man.
pub const DEFAULT_CONTEMPT: usize = 0;
/// Largest contempt accepted, hundredths of a man.
pub const MAX_CONTEMPT: usize = 100;
/// Most analysis lines accepted.
pub const MAX_MULTIPV: usize = 64;

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
        // The solved-endgame tables take a moment to build; build them now,
        // off the protocol thread, so no timed search pays for them.
        std::thread::spawn(|| {
            prepare_certain_draw::<International>();
            prepare_certain_draw::<Brazilian>();
        });
        let options = Options::default();
        let draw: Vec<(VariantKind, DrawSettings)> = VariantKind::ALL
            .iter()
            .map(|&k| (k, DrawSettings::for_variant(k)))
            .collect();
        EngineHost {
            variant: VariantKind::International,
            table: Arc::new(Table::new(options.hash_mib)),
            options,
            game: new_game_state(
                VariantKind::International,
                DrawSettings::for_variant(VariantKind::International),
            ),
            draw,
            running: None,
        }
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
                kind: ParamKind::Enum(vec!["normal".to_string(), "brazilian".to_string()]),
                value: hub_variant_name(self.variant).to_string(),
                help: "normal = International 10x10, brazilian = 8x8".to_string(),
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
            int(
                "contempt",
                self.options.contempt,
                0,
                MAX_CONTEMPT,
                "how much worse than equal a draw is, in hundredths of a man (not in go analyze)",
            ),
        ];
        params.extend(self.draw_settings().params().into_iter().map(|p| Param {
            name: p.name.to_string(),
            kind: ParamKind::Int {
                min: p.min as i64,
                max: p.max as i64,
            },
            value: p.value.to_string(),
            help: p.description.to_string(),
        }));
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
                    self.variant = kind;
                    self.game = new_game_state(kind, self.draw_settings());
                    self.clear_table();
                }
            }
            "threads" => self.options.threads = number(1, MAX_THREADS)?,
            "hash" => {
                let mib = number(1, MAX_HASH_MIB)?;
                if mib != self.options.hash_mib {
                    // Free the old table before allocating the new one; keep
                    // a table of the old size when the new one cannot be had.
                    self.table = Arc::new(Table::new(1));
                    match Table::try_new(mib) {
                        Ok(table) => {
                            self.table = Arc::new(table);
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
            _ if name.starts_with("draw-") => {
                let mut settings = self.draw_settings();
                settings.set(name, value).map_err(|why| bad(&why))?;
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
            None => self.table = Arc::new(Table::new(self.options.hash_mib)),
        }
    }

    /// Sets the game: a start position (Hub string or FEN) and the moves
    /// played since. On error the previous game is kept.
    pub fn set_position(&mut self, position: &str, moves: &[&str]) -> Result<(), EngineError> {
        self.ensure_idle("set the position")?;
        self.game.set_position(position, moves)
    }

    /// The current position as a Hub position string.
    pub fn position_string(&self) -> String {
        self.game.hub_string()
    }

    /// Starts a search on its own thread. It sends `Info` events and then
    /// exactly one `Done`, on `events`.
    pub fn go(
        &mut self,
        mode: GoMode,
        limits: Limits,
        events: Sender<EngineEvent>,
    ) -> Result<(), EngineError> {
        self.ensure_idle("start a search")?;
        let control = Arc::new(Control::new(mode == GoMode::Ponder));
        let handle = self.game.start_search(
            Arc::clone(&self.table),
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

/// The Hub name of a variant (`normal` for International, as Scan says).
pub fn hub_variant_name(kind: VariantKind) -> &'static str {
    match kind {
        VariantKind::International => "normal",
        VariantKind::Brazilian => "brazilian",
    }
}

//! The game an engine follows, per variant, behind an object-safe trait so
//! the variant is chosen once (in `EngineHost`) and everything below is
//! specialised at compile time.

use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::Sender;

use super::strength::{choose, LevelPlan};
use super::vocabulary::{EngineError, EngineEvent, GoMode, Limits, MoveSquares, Score, SearchInfo};
use super::Options;
use crate::book::Book;
use crate::game::{Game, GameResult};
use crate::rules::draw::DrawSettings;
use crate::rules::notation::{parse_position, squares_of, to_hub};
use crate::rules::{Move, Position, Rules, VariantKind};
use crate::search::resources::{ResourceError, ResourceSettings};
use crate::search::tt::Table;
use crate::search::{search, Control, Iteration, SearchResources, SearchSetup};

/// Stack size of the thread that runs a search.
const SEARCH_STACK: usize = 32 << 20;

/// A variant's game, seen without its type.
pub(super) trait VariantGame: Send {
    /// Replaces the game with a start position and moves played from it.
    fn set_position(&mut self, position: &str, moves: &[&str]) -> Result<(), EngineError>;
    /// Goes back to the initial position, keeping the search resources.
    fn new_game(&mut self);
    /// Loads the search resources `settings` name (reusing the endgame
    /// tables already loaded when their settings are the same). A weights
    /// file that cannot be used is an error and changes nothing; endgame
    /// tables that cannot be loaded are left out, and the note says why.
    /// The note also says which tables were loaded.
    fn load_resources(
        &mut self,
        settings: &ResourceSettings,
    ) -> Result<Option<String>, ResourceError>;
    /// The current position as a Hub position string.
    fn hub_string(&self) -> String;
    /// Replaces the draw rules of the game.
    fn set_draw_settings(&mut self, settings: DrawSettings);
    /// A book move for the current position (see `Book::choose`), if the
    /// book has one.
    fn book_move(&self, book: &Book, margin: u32, random: u64) -> Option<BookHit>;
    /// Starts a search of the current position on a new thread.
    fn start_search(
        &self,
        table: Arc<Table>,
        control: Arc<Control>,
        options: &Options,
        request: SearchRequest,
        events: Sender<EngineEvent>,
    ) -> Result<JoinHandle<()>, EngineError>;
}

/// What one `go` asks of the search.
pub(super) struct SearchRequest {
    /// Think, ponder or analyse.
    pub mode: GoMode,
    /// When to stop.
    pub limits: Limits,
    /// For a strength level below the top: its plan and the random number
    /// that chooses among the candidate moves.
    pub weakened: Option<(LevelPlan, u64)>,
}

/// Lines of a search, each its score and its moves.
type Lines = Vec<(i32, Vec<Move>)>;

/// A move taken from the book, ready to report.
pub(super) struct BookHit {
    /// The move to play.
    pub best: MoveSquares,
    /// The book's best reply to it, if the book has one.
    pub ponder: Option<MoveSquares>,
    /// Its book score (0 when the book gives none).
    pub score: Score,
    /// Its book depth (0 when the book gives none).
    pub depth: u32,
}

/// A new game in the initial position of `kind`, under `settings`.
pub(super) fn new_game_state(kind: VariantKind, settings: DrawSettings) -> Box<dyn VariantGame> {
    crate::rules::with_rules!(kind, R => Box::new(GameState::<R>::new(settings)))
}

/// The game being played, with the draw rules in force, and the resources
/// its searches use with the settings they were loaded from.
struct GameState<R: Rules> {
    game: Game<R>,
    resources: SearchResources<R>,
    loaded: ResourceSettings,
}

impl<R: Rules> GameState<R> {
    fn new(settings: DrawSettings) -> Self {
        GameState {
            game: Game::with_settings(Position::start(), settings),
            resources: SearchResources::builtin(),
            loaded: ResourceSettings::default(),
        }
    }
}

impl<R: Rules> VariantGame for GameState<R> {
    fn set_position(&mut self, position: &str, moves: &[&str]) -> Result<(), EngineError> {
        let start =
            parse_position::<R>(position).map_err(|e| EngineError::BadPosition(e.to_string()))?;
        let mut game = Game::with_settings(start, self.game.settings().clone());
        for (i, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|e| EngineError::IllegalMove {
                text: text.to_string(),
                index: i + 1,
                why: e.to_string(),
            })?;
        }
        self.game = game;
        Ok(())
    }

    fn new_game(&mut self) {
        self.game = Game::with_settings(Position::start(), self.game.settings().clone());
    }

    fn load_resources(
        &mut self,
        settings: &ResourceSettings,
    ) -> Result<Option<String>, ResourceError> {
        let (resources, loaded, note) = match self.resources.reload(&self.loaded, settings) {
            Ok(resources) => {
                let note = resources.egdb_note(settings);
                (resources, settings.clone(), note)
            }
            Err(ResourceError::Egdb(why)) => {
                let without = ResourceSettings {
                    egdb_path: None,
                    ..settings.clone()
                };
                let resources = self.resources.reload(&self.loaded, &without)?;
                let note = match resources.egdb_pieces() {
                    0 => format!("egdb: {why}; playing without endgame tables"),
                    n => {
                        format!("egdb: {why}; playing with the built-in tables of up to {n} pieces")
                    }
                };
                (resources, without, Some(note))
            }
            Err(e) => return Err(e),
        };
        self.resources = resources;
        self.loaded = loaded;
        Ok(note)
    }

    fn hub_string(&self) -> String {
        to_hub(self.game.position())
    }

    fn set_draw_settings(&mut self, settings: DrawSettings) {
        self.game.set_settings(settings);
    }

    fn book_move(&self, book: &Book, margin: u32, random: u64) -> Option<BookHit> {
        let pos = self.game.position();
        let chosen = book.choose(pos, margin, random)?;
        let reply = book.choose(&pos.play(chosen.mv), 0, 0);
        Some(BookHit {
            best: squares_of::<R>(chosen.mv),
            ponder: reply.map(|r| squares_of::<R>(r.mv)),
            score: Score::from_search(chosen.score.unwrap_or(0)),
            depth: chosen.depth.unwrap_or(0),
        })
    }

    fn start_search(
        &self,
        table: Arc<Table>,
        control: Arc<Control>,
        options: &Options,
        request: SearchRequest,
        events: Sender<EngineEvent>,
    ) -> Result<JoinHandle<()>, EngineError> {
        let SearchRequest {
            mode,
            limits,
            weakened,
        } = request;
        let result = self.game.result();
        if result.is_over() && !matches!(result, GameResult::Draw(_)) {
            return Err(EngineError::GameOver(result.describe()));
        }
        let mut setup = SearchSetup::for_game(&self.game, limits);
        setup.threads = options.threads;
        setup.multipv = match (mode, weakened) {
            (GoMode::Analyze, _) => options.multipv,
            (_, Some((plan, _))) => plan.candidates,
            _ => 1,
        };
        setup.search_single_move = mode == GoMode::Analyze;
        setup.params = options.params;
        setup.resources = self.resources.clone();
        setup.contempt = if mode == GoMode::Analyze {
            0
        } else {
            options.contempt as i32
        };
        std::thread::Builder::new()
            .name("search".to_string())
            .stack_size(SEARCH_STACK)
            .spawn(move || run_search(setup, &table, &control, weakened, &events))
            .map_err(|e| EngineError::Io(format!("cannot start the search thread: {e}")))
    }
}

/// Runs one search, forwarding its iterations and sending the one `Done`.
/// A weakened search (a strength level) waits out a ponder, reports its
/// best line only and plays a move chosen among the lines of its deepest
/// complete iteration.
fn run_search<R: Rules>(
    setup: SearchSetup<R>,
    table: &Table,
    control: &Control,
    weakened: Option<(LevelPlan, u64)>,
    events: &Sender<EngineEvent>,
) {
    let multipv = setup.multipv > 1 && weakened.is_none();
    let wanted = setup.multipv.min(setup.root.legal_moves().len()).max(1);
    let (mut current, mut complete): (Lines, Lines) = (Vec::new(), Vec::new());
    let mut report = |it: &Iteration| {
        if weakened.is_some() {
            if it.multipv == 1 {
                current.clear();
            }
            current.push((it.score, it.pv.clone()));
            if current.len() == wanted {
                complete = current.clone();
            }
            if it.multipv != 1 {
                return;
            }
        }
        // A closed channel means nobody listens any more; the search ends
        // on its own limits or stop.
        let _ = events.send(EngineEvent::Info(SearchInfo {
            depth: it.depth,
            seldepth: it.seldepth,
            score: Score::from_search(it.score),
            nodes: it.nodes,
            time: it.time,
            pv: it.pv.iter().map(|&m| squares_of::<R>(m)).collect(),
            hashfull: it.hashfull,
            multipv: multipv.then_some(it.multipv as u32),
            book: false,
        }));
    };
    // A weak level thinks only once its clock runs: searching while the
    // opponent thinks would take it past its budget (and a node budget
    // ends the search, which must not answer before the ponder-hit). Told
    // to stop meanwhile, it still answers, from a search of its own.
    let own = Control::new(false);
    let control = if weakened.is_some() {
        while control.pondering() && !control.stopped() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        if control.stopped() {
            &own
        } else {
            control
        }
    } else {
        control
    };
    // The table may still be warming (a fresh engine, a new hash size):
    // a search that ends on a count waits for all of it, so that the same
    // depth gives the same search however loaded the machine is.
    if setup.limits.ends_on_count() {
        table.wait_until_warm(|| control.stopped());
    }
    let result = search(&setup, table, control, &mut report);
    let (best, ponder) = match weakened {
        Some((plan, random)) if !complete.is_empty() => {
            let scores: Vec<i32> = complete.iter().map(|(score, _)| *score).collect();
            let (_, pv) = &complete[choose(&scores, plan.margin, random)];
            let best = pv.first().copied();
            // A line of one move (a level that searches one ply) still
            // names a reply for the opponent's time, as the search does.
            let reply = pv.get(1).copied().or_else(|| {
                let after = setup.root.play(best?);
                after.legal_moves().as_slice().first().copied()
            });
            (best, reply)
        }
        _ => (result.best, result.ponder),
    };
    let _ = events.send(EngineEvent::Done {
        best: best.map(squares_of::<R>),
        ponder: ponder.map(squares_of::<R>),
    });
}

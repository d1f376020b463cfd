//! Engine-versus-engine matches between Hub engines, refereed with
//! `game`: every reply is checked for legality, games end by the rules
//! of the variant (or by optional adjudication), each side's `Clock` is
//! kept by the match, never by the engines.
//!
//! Game `i` plays opening `i / 2` (cycling through the set); the first
//! engine has White in even games, so every opening is played with both
//! colours. `concurrency` workers each own one process of each engine, and
//! restart an engine after it failed a game. An engine that cannot be
//! started (or restarted), or does not finish the handshake, stops the
//! match: that is no game, and no result counts it. So does an engine that
//! loses several games in a row by failures (`failure_streak`): an engine
//! that rejects every position it is sent (a wrong variant or numbering)
//! stops the match instead of losing all of it.

pub mod client;
pub mod openings;
pub mod spsa;
pub mod stats;
mod steal;
pub mod tuning;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use crossbeam_channel::Sender;

use crate::game::{Clock, Game, TimeControl};
use crate::pdn::{game_pdn, GameTags};
use crate::protocol::hub::codec::LevelUpdate;
use crate::rules::notation::{format_move, parse_move, parse_position};
use crate::rules::{Move, MoveStyle, Position, Rules, Side, VariantKind};
pub use client::{Claim, EngineClient, EngineSpec, HubClient};
pub use openings::Opening;
use stats::{Sprt, SprtVerdict, Tally};

/// How long an engine may think under a control with no clock (a fixed
/// depth) before it has lost on time.
const NO_CLOCK_WAIT: Duration = Duration::from_secs(600);

/// Optional early ends of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// Draw after this many plies without a capture.
    pub draw_after_plies: Option<u32>,
    /// Win for the side both engines agree is ahead by this many men (for
    /// two consecutive moves each).
    pub resign_score: Option<f64>,
    /// Draw when the game reaches this many plies.
    pub max_plies: Option<u32>,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are counted for the first.
    pub engines: [EngineSpec; 2],
    /// The variant played.
    pub variant: VariantKind,
    /// Games to play.
    pub games: usize,
    /// Thinking time of each engine (the same for both but under time
    /// odds).
    pub controls: [TimeControl; 2],
    /// Openings, each played twice.
    pub openings: Vec<Opening>,
    /// Games played at once.
    pub concurrency: usize,
    /// Early ends.
    pub adjudication: Adjudication,
    /// Stop when the SPRT decides.
    pub sprt: Option<Sprt>,
    /// Time an engine may exceed its clock by before it loses on time.
    pub margin: Duration,
    /// Stop when one engine has lost this many games in a row by failures
    /// (0: never).
    pub failure_streak: u32,
}

/// How one game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Game number from 0.
    pub index: usize,
    /// Whether the first engine had White.
    pub first_is_white: bool,
    /// The opening.
    pub opening: Opening,
    /// Every move of the game (opening included), Hub notation.
    pub moves: Vec<String>,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// Why it ended, in words.
    pub reason: String,
    /// A failure of an engine (illegal move, crash, time), if that decided it.
    pub failure: Option<Failure>,
    /// The thinking time of each engine (first, second) in this game, over
    /// the moves where it had a choice.
    pub think: [ThinkTimes; 2],
}

/// Thinking times of one engine, as the referee's clock measures them:
/// from `go` sent to `done` read, the protocol round trip included. Only
/// moves with a choice count: a forced move is answered at once.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ThinkTimes {
    /// Moves timed.
    pub moves: u32,
    /// Their total time.
    pub total: Duration,
    /// The longest.
    pub max: Duration,
}

impl ThinkTimes {
    /// Counts one move that took `used`.
    pub fn add(&mut self, used: Duration) {
        self.moves += 1;
        self.total += used;
        self.max = self.max.max(used);
    }

    /// Counts the moves of `other` too.
    pub fn merge(&mut self, other: &ThinkTimes) {
        self.moves += other.moves;
        self.total += other.total;
        self.max = self.max.max(other.max);
    }

    /// The mean time of a move, if any was timed.
    pub fn mean(&self) -> Option<Duration> {
        (self.moves > 0).then(|| self.total / self.moves)
    }
}

/// What kind of failure lost a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// An illegal or unreadable move, or a reply the protocol does not allow.
    Illegal,
    /// No answer in time, or a clock overrun beyond the margin.
    Timeout,
    /// The engine could not start or closed its output.
    Crash,
}

/// An engine failure that decided a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Which engine failed: 0 for the first, 1 for the second.
    pub engine: usize,
    /// The kind of failure.
    pub kind: FailureKind,
}

impl Failure {
    fn new(engine: usize, kind: FailureKind) -> Failure {
        Failure { engine, kind }
    }
}

impl FailureKind {
    fn of(error: &client::ClientError) -> FailureKind {
        match error {
            client::ClientError::Spawn(_) | client::ClientError::Crashed(_) => FailureKind::Crash,
            client::ClientError::Timeout(_) => FailureKind::Timeout,
            client::ClientError::Protocol(_) | client::ClientError::Ended(_) => {
                FailureKind::Illegal
            }
        }
    }
}

impl GameRecord {
    /// The game as PDN text; `names` are the first engine's and the
    /// second's, `extra` tags follow the standard ones.
    pub fn pdn<R: Rules>(&self, names: [&str; 2], event: &str, extra: &[(&str, String)]) -> String {
        let players = if self.first_is_white {
            names
        } else {
            [names[1], names[0]]
        };
        let start = parse_position::<R>(&self.opening.start).unwrap_or_else(|_| Position::start());
        let mut pos = start;
        let mut moves: Vec<Move> = Vec::with_capacity(self.moves.len());
        for text in &self.moves {
            let Ok(mv) = parse_move(&pos, text) else {
                break;
            };
            moves.push(mv);
            pos = pos.play(mv);
        }
        let tags = GameTags {
            event,
            round: self.index + 1,
            players,
            result: self.result,
            termination: &self.reason,
            extra,
        };
        game_pdn(&tags, &start, &moves)
    }

    /// The game's points for the first engine: 1, 0.5 or 0.
    pub fn first_points(&self) -> f64 {
        let white = match self.result {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if self.first_is_white {
            white
        } else {
            1.0 - white
        }
    }
}

/// An engine that could not be started: the match stops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartFailure {
    /// Which engine: 0 for the first, 1 for the second.
    pub engine: usize,
    /// What went wrong, its standard error included when it said anything.
    pub error: client::ClientError,
}

impl std::fmt::Display for StartFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "engine {} {}", self.engine + 1, self.error)
    }
}

/// Why a match stopped before its games were played, the SPRT aside.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchStop {
    /// An engine could not be started.
    Start(StartFailure),
    /// An engine lost `games` games in a row by failures, or (`engine`
    /// `None`) `games` games in a row ended by failures of either.
    FailureStreak {
        /// Which engine: 0 for the first, 1 for the second; `None` where
        /// both failed in turn.
        engine: Option<usize>,
        /// The games lost in a row.
        games: u32,
        /// The kind of its last failure.
        kind: FailureKind,
        /// How the last of them ended, in words.
        last: String,
    },
}

impl MatchStop {
    /// Which engine stopped the match: 0 for the first, 1 for the second;
    /// `None` where both failed in turn.
    pub fn engine(&self) -> Option<usize> {
        match self {
            MatchStop::Start(failure) => Some(failure.engine),
            MatchStop::FailureStreak { engine, .. } => *engine,
        }
    }
}

impl std::fmt::Display for MatchStop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchStop::Start(failure) => failure.fmt(f),
            MatchStop::FailureStreak {
                engine,
                games,
                kind,
                last,
            } => {
                match engine {
                    Some(engine) => write!(
                        f,
                        "engine {} lost {games} games in a row by failures",
                        engine + 1
                    )?,
                    None => write!(f, "{games} games in a row ended by failures")?,
                }
                write!(f, ", the last by: {last}")?;
                if *kind == FailureKind::Illegal {
                    write!(
                        f,
                        " (an engine that rejects the referee's moves may speak another square numbering: try --option NAME:numbering=pdn or =pydraughts)"
                    )?;
                }
                write!(f, "; --max-failures-in-a-row 0 plays on")
            }
        }
    }
}

/// Games in a row each engine has lost by a failure, and games in a row
/// that a failure ended, whichever engine's.
#[derive(Default)]
pub(crate) struct FailureStreaks {
    each: [u32; 2],
    either: u32,
}

impl FailureStreaks {
    /// Counts a finished game; an engine whose own streak reaches `limit`
    /// (not 0) stops the match, and so do `limit` games in a row ended by
    /// failures of either engine (one program failing on both sides, as in
    /// a tuning run, fails alternately).
    pub(crate) fn count(&mut self, record: &GameRecord, limit: u32) -> Option<MatchStop> {
        let failed = record.failure.as_ref();
        for (engine, streak) in self.each.iter_mut().enumerate() {
            if failed.is_some_and(|f| f.engine == engine) {
                *streak += 1;
            } else {
                *streak = 0;
            }
        }
        self.either = if failed.is_some() { self.either + 1 } else { 0 };
        let failure = failed?;
        let games = self.each[failure.engine];
        let stop = |games, engine| MatchStop::FailureStreak {
            engine,
            games,
            kind: failure.kind,
            last: record.reason.clone(),
        };
        if limit == 0 {
            None
        } else if games >= limit {
            Some(stop(games, Some(failure.engine)))
        } else if self.either >= limit {
            Some(stop(self.either, None))
        } else {
            None
        }
    }
}

/// Runs a match; `on_game` sees every finished game in the order they end.
/// Returns the tally of the first engine, and what stopped the match early,
/// if anything but the SPRT did (the games in progress then are played out
/// and counted; a failed start is not a game).
pub fn run_match(
    config: &MatchConfig,
    on_game: &mut dyn FnMut(&GameRecord, &Tally),
) -> (Tally, Option<MatchStop>) {
    let next = AtomicUsize::new(0);
    let mut tally = Tally::default();
    let mut failure = None;
    let mut streaks = FailureStreaks::default();
    run_workers(
        config.concurrency,
        &|| {
            let index = next.fetch_add(1, Ordering::Relaxed);
            (index < config.games).then_some(index)
        },
        &|index, clients| crate::rules::with_rules!(config.variant, R => play_game::<R>(config, index, clients)),
        &mut |record| {
            let record = match record {
                Ok(record) => record,
                Err(e) => {
                    failure.get_or_insert(MatchStop::Start(e));
                    return true;
                }
            };
            tally.add(record.first_points());
            on_game(&record, &tally);
            if let Some(streak) = streaks.count(&record, config.failure_streak) {
                failure.get_or_insert(streak);
                return true;
            }
            config
                .sprt
                .as_ref()
                .is_some_and(|sprt| sprt.verdict(&tally) != SprtVerdict::Continue)
        },
    );
    (tally, failure)
}

/// One process of each engine, started when first needed and dropped when
/// it fails a game.
pub type Clients = [Option<EngineClient>; 2];

/// The scheduler under matches and tuning runs: `concurrency` workers, each
/// with its own [`Clients`], take items from `next` until it has none and
/// `play` each; `count` sees every result in the order they end and says
/// whether to stop. A worker takes its next item only once its result is
/// counted, so a stop (a failure streak, the SPRT, an error) takes effect
/// before the next item begins, whatever the threads' timing; the items in
/// progress are played out and counted.
pub(crate) fn run_workers<I, T: Send>(
    concurrency: usize,
    next: &(dyn Fn() -> Option<I> + Sync),
    play: &(dyn Fn(I, &mut Clients) -> T + Sync),
    count: &mut dyn FnMut(T) -> bool,
) {
    let stop = AtomicBool::new(false);
    let (tx, rx) = crossbeam_channel::unbounded::<(T, Sender<()>)>();
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            let (tx, stop) = (tx.clone(), &stop);
            scope.spawn(move || {
                let mut clients: Clients = [None, None];
                let (ack, counted) = crossbeam_channel::bounded(1);
                while !stop.load(Ordering::Relaxed) {
                    let Some(item) = next() else { return };
                    let result = play(item, &mut clients);
                    if tx.send((result, ack.clone())).is_err() || counted.recv().is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for (result, ack) in rx.iter() {
            if count(result) {
                stop.store(true, Ordering::Relaxed);
            }
            let _ = ack.send(());
        }
    });
}

/// Plays game `index` of `config` (its opening `index / 2`, the first
/// engine White when `index` is even) with the engines in `clients`, started
/// here when absent; an engine that fails loses the game and is dropped, to
/// be started again for the next one. An engine that cannot be started is no
/// game: `Err`.
pub fn play_game<R: Rules>(
    config: &MatchConfig,
    index: usize,
    clients: &mut Clients,
) -> Result<GameRecord, StartFailure> {
    let opening = config.openings[(index / 2) % config.openings.len()].clone();
    let first_is_white = index.is_multiple_of(2);
    let mut record = GameRecord {
        index,
        first_is_white,
        opening: opening.clone(),
        moves: opening.moves.clone(),
        result: "1/2-1/2",
        reason: String::new(),
        failure: None,
        think: [ThinkTimes::default(); 2],
    };
    // Engine slot playing each colour: [white, black].
    let slot_of = |side: Side| match (side, first_is_white) {
        (Side::White, true) | (Side::Black, false) => 0,
        _ => 1,
    };
    let start = match parse_position::<R>(&opening.start) {
        Ok(p) => p,
        Err(e) => {
            record.reason = format!("bad opening: {e}");
            return Ok(record);
        }
    };
    let mut game = Game::new(start);
    for text in &opening.moves {
        if let Err(e) = game.play_text(text) {
            record.reason = format!("bad opening: {e}");
            return Ok(record);
        }
    }
    for (slot, client) in clients.iter_mut().enumerate() {
        let ready = match client.as_mut() {
            Some(c) => c.new_game().is_ok(),
            None => false,
        };
        if !ready {
            *client = None;
            let refused = |error| StartFailure {
                engine: slot,
                error,
            };
            let started =
                EngineClient::start(&config.engines[slot], config.variant).map_err(refused)?;
            let level = LevelUpdate::of_clock(&Clock::new(config.controls[slot]));
            if let Some(why) = started.cannot_play(&level) {
                return Err(refused(client::ClientError::Protocol(why)));
            }
            *client = Some(started);
        }
    }
    let record = play_moves::<R>(config, record, &opening, game, clients, &slot_of);
    for client in clients.iter_mut().flatten() {
        client.game_over(record.result);
    }
    Ok(record)
}

/// Plays the game from its opening to its end.
fn play_moves<R: Rules>(
    config: &MatchConfig,
    mut record: GameRecord,
    opening: &Opening,
    mut game: Game<R>,
    clients: &mut Clients,
    slot_of: &dyn Fn(Side) -> usize,
) -> GameRecord {
    let mut clocks =
        [Side::White, Side::Black].map(|side| Clock::new(config.controls[slot_of(side)]));
    let (mut ahead, mut behind) = ([0u32; 2], [0u32; 2]);
    let mut quiet_plies = 0u32;
    loop {
        let result = game.result();
        if result.is_over() {
            record.result = result.score();
            record.reason = result.describe();
            return record;
        }
        let plies = record.moves.len() as u32;
        if config.adjudication.max_plies.is_some_and(|m| plies >= m) {
            record.reason = format!("adjudicated draw after {plies} plies");
            return record;
        }
        if config
            .adjudication
            .draw_after_plies
            .is_some_and(|m| quiet_plies >= m)
        {
            record.reason = format!("adjudicated draw: {quiet_plies} plies without a capture");
            return record;
        }
        let pos = *game.position();
        let side = pos.side_to_move();
        let colour = (side == Side::Black) as usize;
        let slot = slot_of(side);
        let clock = &mut clocks[colour];
        let wait = clock.allowed().unwrap_or(NO_CLOCK_WAIT) + config.margin;
        let client = clients[slot].as_mut().expect("started above");
        let name = client.name().to_string();
        let stolen_before = steal::stolen();
        let reply = client.think(
            &opening.start,
            &record.moves,
            &LevelUpdate::of_clock(clock),
            wait,
        );
        let (text, used) = match reply {
            Ok(r) => r,
            Err(client::ClientError::Ended(claim)) => {
                record.result = match (claim, side) {
                    (Claim::Loses, Side::White) | (Claim::Wins, Side::Black) => "0-1",
                    (Claim::Loses, Side::Black) | (Claim::Wins, Side::White) => "1-0",
                    (Claim::Draw | Claim::Unknown, _) => "1/2-1/2",
                };
                record.reason = format!("{name} ended the game, claiming {}", claim.describe());
                return record;
            }
            Err(e) => {
                clients[slot] = None;
                let kind = FailureKind::of(&e);
                let stall = match kind {
                    FailureKind::Timeout => steal::note(stolen_before, steal::stolen()),
                    _ => String::new(),
                };
                return forfeit(
                    record,
                    side,
                    Failure::new(slot, kind),
                    format!("{name} {e}{stall}"),
                );
            }
        };
        if pos.legal_moves().len() > 1 {
            record.think[slot].add(used);
        }
        if clock.overran(used, config.margin) {
            clients[slot] = None;
            let failure = Failure::new(slot, FailureKind::Timeout);
            let allowed = clock.allowed().unwrap_or(NO_CLOCK_WAIT);
            return forfeit(
                record,
                side,
                failure,
                format!(
                    "{name} lost on time ({:.3} s used, {:.3} s allowed{})",
                    used.as_secs_f64(),
                    allowed.as_secs_f64(),
                    steal::note(stolen_before, steal::stolen())
                ),
            );
        }
        clock.spend(used);
        // The game lost by an illegal move, for `why`.
        let illegal =
            |record, why| forfeit(record, side, Failure::new(slot, FailureKind::Illegal), why);
        let mv = match parse_move(&pos, &text) {
            Ok(mv) => mv,
            Err(e) => {
                clients[slot] = None;
                return illegal(
                    record,
                    format!("{name} played an illegal move '{text}': {e}"),
                );
            }
        };
        if let Err(e) = game.play(mv) {
            return illegal(record, format!("{name} played '{text}': {e}"));
        }
        quiet_plies = if mv.is_capture() { 0 } else { quiet_plies + 1 };
        record.moves.push(format_move::<R>(mv, MoveStyle::Hub));
        if let Some(limit) = config.adjudication.resign_score {
            // Each engine's score is from its own view; both must agree, on
            // two consecutive moves each.
            let score = clients[slot].as_ref().and_then(EngineClient::last_score);
            ahead[colour] = if score.is_some_and(|s| s >= limit) {
                ahead[colour] + 1
            } else {
                0
            };
            behind[colour] = if score.is_some_and(|s| s <= -limit) {
                behind[colour] + 1
            } else {
                0
            };
            let white_wins = ahead[0] >= 2 && behind[1] >= 2;
            let black_wins = ahead[1] >= 2 && behind[0] >= 2;
            if white_wins || black_wins {
                record.result = if white_wins { "1-0" } else { "0-1" };
                record.reason =
                    format!("adjudicated: both engines see a lead of {limit} men or more");
                return record;
            }
        }
    }
}

/// The game is lost by `side` because its engine failed.
fn forfeit(mut record: GameRecord, side: Side, failure: Failure, why: String) -> GameRecord {
    record.result = match side {
        Side::White => "0-1",
        Side::Black => "1-0",
    };
    record.reason = why;
    record.failure = Some(failure);
    record
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinking_times_add_up_and_keep_the_longest() {
        let ms = Duration::from_millis;
        let mut first = ThinkTimes::default();
        assert_eq!(first.mean(), None);
        first.add(ms(100));
        first.add(ms(300));
        let mut second = ThinkTimes::default();
        second.add(ms(200));
        first.merge(&second);
        assert_eq!(first.moves, 3);
        assert_eq!(first.mean(), Some(ms(200)));
        assert_eq!(first.max, ms(300));
    }
}

//! One DXP connection: the game requests, the games themselves and their
//! ends, over any `Link` (a TCP socket in `net.rs`, channels in tests).
//!
//! The session referees every game with `game`: a
//! `Game<International>` under the engine's draw settings, our side's
//! `Clock` from the GAMEREQ, moves matched by their squares. It hands the
//! `EngineHost` the game as typed values whenever it is to move. It is the
//! only writer of the link.
//!
//! Invariants:
//! - At most one search runs, and only while the session's side is to move
//!   in a game that is not over; it is stopped and its `Done` drained
//!   before the game changes under it (take-back, game end).
//! - A move received is played only if it is one of the legal moves of the
//!   current position (from, to and the exact set of captured squares);
//!   anything else ends the game with GAMEEND `3` (we win: the opponent
//!   forfeits) and the session stays up for the next game.
//! - Per game at most one GAMEEND is sent: either ours (the game ended by
//!   the rules, an illegal move, a silent opponent) or the answer to the
//!   opponent's. A GAMEEND received outside a game is never answered, so
//!   two programs cannot echo each other forever.
//! - Every wait is bounded: for the opponent's move by its period time plus
//!   `idle_timeout`, for anything else by `idle_timeout`, for the answer to
//!   our GAMEEND by `REPLY_WAIT`; our own search is stopped if it overruns
//!   its budget by `OVERRUN`.
//!
//! This file holds the connection: the game requests and what a session
//! is; `game.rs` plays one game.

mod game;

use std::fmt;
use std::io::Write;
use std::time::{Duration, Instant};

use crossbeam_channel::{select, Receiver};

use super::codec::{
    Acceptance, BackAnswer, DxpError, DxpMessage, GameRequest, Setup, StopCode, SQUARES, VERSION,
};
use crate::engine::{EngineError, EngineHost};
use crate::game::Game;
use crate::pdn::{game_pdn, GameTags};
use crate::rules::{International, Move, Piece, Position, Side, Square};

/// Longest wait for the first message of a connection (when shorter than
/// the idle timeout): a peer that is not a DXP program, or a follower
/// waiting for a follower, is said so soon, not after minutes of silence.
const FIRST_MESSAGE_WAIT: Duration = Duration::from_secs(30);
/// Longest wait for the answer to a GAMEEND we sent.
const REPLY_WAIT: Duration = Duration::from_secs(10);
/// How long a search may run past its hard time limit before it is stopped.
const OVERRUN: Duration = Duration::from_secs(1);
/// Time per move when a GAMEREQ gives no time (0 minutes) and no cap is set.
const NO_CLOCK_MOVE_TIME: Duration = Duration::from_secs(1);
/// Room for the engine's `Info` events of one search (one per iteration,
/// at most one per ply of depth), so the search never waits on the channel.
const EVENT_ROOM: usize = 512;

/// What the link delivers.
#[derive(Clone, Debug, PartialEq)]
pub enum Incoming {
    /// A well-formed message.
    Message(DxpMessage),
    /// A frame that is not a message.
    Malformed {
        /// The frame as text (control bytes escaped), for the log.
        frame: String,
        /// Why it was refused.
        error: DxpError,
    },
    /// The connection is gone; nothing follows.
    Closed(String),
}

/// A failure to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkError(pub String);

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot send: {}", self.0)
    }
}

impl std::error::Error for LinkError {}

/// Where a session's messages go and come from.
pub trait Link {
    /// Sends one message (the link adds the NUL terminator).
    fn send(&mut self, message: &DxpMessage) -> Result<(), LinkError>;
    /// The messages received, in order; `Closed` comes last.
    fn incoming(&self) -> Receiver<Incoming>;
}

/// The games an initiator proposes on a connection.
#[derive(Clone, Debug, PartialEq)]
pub struct GamePlan {
    /// Our colour in the first game.
    pub our_side: Side,
    /// Minutes per side.
    pub minutes: u16,
    /// Moves per period, 0 for the whole game.
    pub moves: u16,
    /// The start position, `None` for the initial one.
    pub start: Option<Position<International>>,
    /// Games to play on the connection.
    pub games: u32,
    /// Swap colours after every game.
    pub alternate: bool,
}

/// Which side of the game requests this session is on.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// Proposes the games of the plan, then closes.
    Initiator(GamePlan),
    /// Accepts or refuses requests until the opponent stops.
    Follower,
}

/// How a session behaves.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionConfig {
    /// Our name, sent in GAMEREQ and GAMEACC.
    pub name: String,
    /// Initiator or follower.
    pub role: Role,
    /// The most thinking time for one move, whatever the clock allows.
    pub max_move_time: Option<Duration>,
    /// The longest silence tolerated, beyond the opponent's clock when it
    /// is to move.
    pub idle_timeout: Duration,
}

/// A finished (or interrupted) game, as the PDN log records it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLog {
    /// The game's number on this connection, from 0.
    pub index: usize,
    /// Our colour.
    pub our_side: Side,
    /// Our name and the opponent's.
    pub names: [String; 2],
    /// The start position.
    pub start: Position<International>,
    /// The moves played (taken-back moves excluded).
    pub moves: Vec<Move>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` for an interrupted game.
    pub result: &'static str,
    /// How it ended, in words.
    pub termination: String,
}

impl GameLog {
    /// The game as PDN text, with its result and a `Termination` tag.
    pub fn pdn(&self) -> String {
        let (ours, theirs) = (self.names[0].as_str(), self.names[1].as_str());
        let players = match self.our_side {
            Side::White => [ours, theirs],
            Side::Black => [theirs, ours],
        };
        let tags = GameTags {
            event: "DXP",
            round: self.index + 1,
            players,
            result: self.result,
            termination: &self.termination,
            extra: &[],
        };
        game_pdn(&tags, &self.start, &self.moves)
    }
}

/// Why a session ended.
#[derive(Clone, Debug, PartialEq)]
pub enum SessionEnd {
    /// The initiator played every game of its plan.
    PlanDone,
    /// The opponent said it wants no further games.
    PeerStopped,
    /// The opponent refused a game request.
    Refused(Acceptance),
    /// The connection closed.
    Closed(String),
    /// Nothing arrived for this long.
    Silent(Duration),
    /// Nothing at all arrived on the connection for this long.
    NeverHeard {
        /// How long we waited.
        waited: Duration,
        /// Whether we were waiting for a game request.
        follower: bool,
    },
    /// We were told to stop (Ctrl-C, a termination signal): the game in
    /// progress ended as interrupted.
    Interrupted,
}

impl fmt::Display for SessionEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionEnd::PlanDone => f.write_str("every game was played"),
            SessionEnd::PeerStopped => f.write_str("the opponent wants no further games"),
            SessionEnd::Refused(code) => write!(f, "the opponent refused the game ({code:?})"),
            SessionEnd::Closed(why) => write!(f, "the connection closed ({why})"),
            SessionEnd::Silent(t) => {
                write!(f, "the opponent was silent for {} s", t.as_secs())
            }
            SessionEnd::NeverHeard { waited, follower } => {
                write!(
                    f,
                    "nothing came in {} s: is the other side a DXP program?",
                    waited.as_secs()
                )?;
                if *follower {
                    f.write_str(
                        " It proposed no game: if it waits for one too, give --initiator \
                         to propose the games",
                    )?;
                }
                Ok(())
            }
            SessionEnd::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// What stops a session other than the opponent.
#[derive(Debug)]
pub enum SessionError {
    /// A message could not be sent.
    Link(LinkError),
    /// The engine refused a request it should have taken.
    Engine(EngineError),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Link(e) => e.fmt(f),
            SessionError::Engine(e) => write!(f, "engine: {e}"),
        }
    }
}

impl std::error::Error for SessionError {}

impl From<LinkError> for SessionError {
    fn from(e: LinkError) -> Self {
        SessionError::Link(e)
    }
}

impl From<EngineError> for SessionError {
    fn from(e: EngineError) -> Self {
        SessionError::Engine(e)
    }
}

/// Runs one connection to its end: plays the plan (initiator) or answers
/// requests (follower). Every finished game goes to `on_game`; progress
/// lines go to `log`. When `interrupt` delivers or disconnects, the game
/// in progress ends at once as interrupted (logged, and the opponent sent
/// a GAMEEND without waiting for its answer) and the session ends.
pub fn run_session(
    config: &SessionConfig,
    engine: &mut EngineHost,
    link: &mut dyn Link,
    log: &mut dyn Write,
    on_game: &mut dyn FnMut(&GameLog),
    interrupt: &Receiver<()>,
) -> Result<SessionEnd, SessionError> {
    let incoming = link.incoming();
    let mut session = Session {
        config,
        engine,
        link,
        incoming,
        log,
        on_game,
        pending: None,
        games: 0,
        interrupt: interrupt.clone(),
        interrupted: false,
        heard: false,
    };
    match &config.role {
        Role::Initiator(plan) => session.initiate(plan),
        Role::Follower => session.follow(),
    }
}

/// What a game is played from.
#[derive(Clone, Debug)]
struct GameSpec {
    start: Position<International>,
    our_side: Side,
    minutes: u16,
    moves: u16,
}

/// What follows a game.
enum After {
    /// Another game may come on this connection.
    Continue,
    /// The session is over.
    End(SessionEnd),
}

struct Session<'a> {
    config: &'a SessionConfig,
    engine: &'a mut EngineHost,
    link: &'a mut dyn Link,
    incoming: Receiver<Incoming>,
    log: &'a mut dyn Write,
    on_game: &'a mut dyn FnMut(&GameLog),
    /// A message that arrived while waiting for something else and is
    /// handled by the next wait.
    pending: Option<Incoming>,
    /// Games started on this connection.
    games: usize,
    /// Delivers or disconnects when the session must stop.
    interrupt: Receiver<()>,
    /// The interrupt has come: every wait ends at once.
    interrupted: bool,
    /// Something has come on the connection.
    heard: bool,
}

/// The DXP form of a position.
fn setup_of(pos: &Position<International>) -> Setup {
    let mut squares = [None; SQUARES];
    for (i, square) in squares.iter_mut().enumerate() {
        *square = Square::new(i as u8 + 1).and_then(|sq| pos.piece_at(sq));
    }
    Setup {
        side: pos.side_to_move(),
        squares,
    }
}

/// The position a GAMEREQ sends.
fn position_of(setup: &Setup) -> Result<Position<International>, String> {
    let pieces: Vec<(Square, Piece)> = setup
        .squares
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((Square::new(i as u8 + 1)?, (*p)?)))
        .collect();
    Position::new(&pieces, setup.side).map_err(|e| e.to_string())
}

impl Session<'_> {
    fn say(&mut self, line: &str) {
        // The log is for people; a failure to write it must not stop a game.
        let _ = writeln!(self.log, "{line}");
    }

    fn send(&mut self, message: &DxpMessage) -> Result<(), SessionError> {
        Ok(self.link.send(message)?)
    }

    /// The next incoming item before `deadline`; `None` on timeout, or at
    /// once when the session is interrupted (`interrupted` says which).
    fn next_before(&mut self, deadline: Instant) -> Option<Incoming> {
        if let Some(item) = self.pending.take() {
            return Some(item);
        }
        if self.interrupted {
            return None;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        let interrupt = self.interrupt.clone();
        select! {
            recv(self.incoming) -> item => {
                let item = item
                    .unwrap_or_else(|_| Incoming::Closed("the link is gone".to_string()));
                self.heard |= !matches!(item, Incoming::Closed(_));
                Some(item)
            }
            recv(interrupt) -> _ => {
                self.interrupted = true;
                None
            }
            default(wait) => None,
        }
    }

    /// How long to wait for the next message outside a game: the idle
    /// timeout, or less for the first message of the connection.
    fn quiet_wait(&self) -> Duration {
        if self.heard {
            self.config.idle_timeout
        } else {
            self.config.idle_timeout.min(FIRST_MESSAGE_WAIT)
        }
    }

    /// Why a wait outside a game came back empty.
    fn no_message(&self, waited: Duration) -> SessionEnd {
        if self.interrupted {
            SessionEnd::Interrupted
        } else if self.heard {
            SessionEnd::Silent(waited)
        } else {
            SessionEnd::NeverHeard {
                waited,
                follower: matches!(self.config.role, Role::Follower),
            }
        }
    }

    /// Answers what needs an answer outside a game, logs the rest; returns
    /// the end of the session if the message brings it.
    fn outside_game(&mut self, item: Incoming) -> Result<Option<SessionEnd>, SessionError> {
        match item {
            Incoming::Closed(why) => return Ok(Some(SessionEnd::Closed(why))),
            Incoming::Message(DxpMessage::GameEnd { stop, .. }) => {
                if stop == StopCode::Stop {
                    return Ok(Some(SessionEnd::PeerStopped));
                }
            }
            Incoming::Message(DxpMessage::BackReq { .. }) => {
                self.send(&DxpMessage::BackAcc(BackAnswer::Refused(1)))?;
            }
            Incoming::Message(DxpMessage::Chat(text)) => self.say(&format!("chat: {text}")),
            Incoming::Message(DxpMessage::GameReq(_)) => {
                self.send(&DxpMessage::GameAcc {
                    name: self.config.name.clone(),
                    answer: Acceptance::NoGames,
                })?;
            }
            Incoming::Message(other) => {
                self.say(&format!("ignored outside a game: {other:?}"));
            }
            Incoming::Malformed { frame, error } => {
                self.say(&format!("ignored malformed message '{frame}': {error}"));
            }
        }
        Ok(None)
    }

    /// The follower: answer requests and play the games accepted.
    fn follow(&mut self) -> Result<SessionEnd, SessionError> {
        loop {
            let wait = self.quiet_wait();
            let Some(item) = self.next_before(Instant::now() + wait) else {
                return Ok(self.no_message(wait));
            };
            let Incoming::Message(DxpMessage::GameReq(request)) = item else {
                if let Some(end) = self.outside_game(item)? {
                    return Ok(end);
                }
                continue;
            };
            let answer = self.judge(&request);
            self.send(&DxpMessage::GameAcc {
                name: self.config.name.clone(),
                answer: answer
                    .as_ref()
                    .map_or_else(|(code, _)| *code, |_| Acceptance::Accepted),
            })?;
            match answer {
                Ok(spec) => {
                    if let After::End(end) = self.play(spec, &request.name, StopCode::Continue)? {
                        return Ok(end);
                    }
                }
                Err((_, why)) => self.say(&format!("refused a game from {}: {why}", request.name)),
            }
        }
    }

    /// Whether a requested game can be played, and how.
    fn judge(&self, request: &GameRequest) -> Result<GameSpec, (Acceptance, String)> {
        if request.version != VERSION {
            return Err((
                Acceptance::BadVersion,
                format!("protocol version {} (we speak {VERSION})", request.version),
            ));
        }
        let start = match &request.start {
            None => Position::start(),
            Some(setup) => position_of(setup).map_err(|e| (Acceptance::NotThisGame, e))?,
        };
        let result = Game::with_settings(start, self.engine.draw_settings()).result();
        if result.is_over() {
            return Err((
                Acceptance::NotThisGame,
                format!(
                    "the start position is already decided ({})",
                    result.describe()
                ),
            ));
        }
        Ok(GameSpec {
            start,
            our_side: request.follower,
            minutes: request.minutes,
            moves: request.moves,
        })
    }

    /// The initiator: propose the games of the plan, one after another.
    fn initiate(&mut self, plan: &GamePlan) -> Result<SessionEnd, SessionError> {
        for i in 0..plan.games {
            let our_side = if plan.alternate && i % 2 == 1 {
                plan.our_side.opponent()
            } else {
                plan.our_side
            };
            let start = plan.start.unwrap_or_else(Position::start);
            self.send(&DxpMessage::GameReq(GameRequest {
                version: VERSION,
                name: self.config.name.clone(),
                follower: our_side.opponent(),
                minutes: plan.minutes,
                moves: plan.moves,
                start: plan.start.as_ref().map(setup_of),
            }))?;
            let wait = self.quiet_wait();
            let deadline = Instant::now() + wait;
            let opponent = loop {
                let Some(item) = self.next_before(deadline) else {
                    return Ok(self.no_message(wait));
                };
                match item {
                    Incoming::Message(DxpMessage::GameAcc { name, answer }) => {
                        if answer != Acceptance::Accepted {
                            return Ok(SessionEnd::Refused(answer));
                        }
                        break name;
                    }
                    other => {
                        if let Some(end) = self.outside_game(other)? {
                            return Ok(end);
                        }
                    }
                }
            };
            let spec = GameSpec {
                start,
                our_side,
                minutes: plan.minutes,
                moves: plan.moves,
            };
            let stop = if i + 1 == plan.games {
                StopCode::Stop
            } else {
                StopCode::Continue
            };
            if let After::End(end) = self.play(spec, &opponent, stop)? {
                return Ok(end);
            }
        }
        Ok(SessionEnd::PlanDone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_round_trips_through_a_position() {
        let pos: Position<International> = Position::start();
        assert_eq!(position_of(&setup_of(&pos)), Ok(pos));
    }
}

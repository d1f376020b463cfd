//! The referee's side of DXP: an engine reached over TCP, the referee
//! proposing every game (the initiator).
//!
//! An engine spec `dxp:HOST:PORT` connects to an engine listening there;
//! `dxp-listen:HOST:PORT` listens and waits for the engine to connect. Words
//! after the address are a command the referee starts first (in the
//! engine's directory), e.g. `dxp:127.0.0.1:27531 ./scan dxp`; without one
//! the engine is started by hand.
//!
//! Each game is a GAMEREQ with the position the engine first moves in (the
//! opening played out, start `B`), the engine's colour, and the clock in
//! whole minutes with no increment (all DXP can say); then the opponent's
//! moves go out as MOVE messages and the engine's come back, checked by the
//! referee like any other. The referee ends the game with GAMEEND (from the
//! opponent's view) and waits a moment for the engine's own. An engine that
//! sends GAMEEND first ends the game with the result it claims
//! (`ClientError::Ended`). DXP carries no score and no parameters.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use super::{engine_command, keep_tail, split_command, Claim, ClientError, EngineSpec};
use crate::protocol::dxp::codec::{
    Acceptance, DxpMessage, DxpMove, EndReason, GameRequest, Setup, StopCode, SQUARES,
};
use crate::protocol::dxp::net::TcpLink;
use crate::protocol::dxp::session::{Incoming, Link};
use crate::protocol::hub::LevelUpdate;
use crate::rules::notation::{parse_hub, parse_move, MoveSquares};
use crate::rules::{International, Position, Side, Square, VariantKind};

/// How long the engine has to accept a connection or connect, after it
/// was started by the referee.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the referee waits for an engine started by hand to connect.
const LISTEN_TIMEOUT: Duration = Duration::from_secs(60);
/// How long an engine may take to answer a GAMEREQ.
const ACCEPT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the referee waits for the engine's GAMEEND after its own.
const END_TIMEOUT: Duration = Duration::from_secs(2);

/// Whether an engine spec names a DXP engine.
pub fn is_dxp(command: &str) -> bool {
    command.starts_with("dxp:") || command.starts_with("dxp-listen:")
}

/// The game the engine is playing: where it began and the moves it knows.
struct OpenGame {
    start: String,
    moves: Vec<String>,
    side: Side,
}

/// One DXP engine.
pub struct DxpClient {
    name: String,
    link: TcpLink,
    incoming: Receiver<Incoming>,
    child: Option<Child>,
    stderr: Arc<Mutex<(String, bool)>>,
    game: Option<OpenGame>,
}

/// How the spec asks to reach the engine.
struct Reach {
    listen: bool,
    addr: String,
    command: Option<Vec<String>>,
}

fn parse_spec(command: &str) -> Result<Reach, String> {
    let (listen, rest) = match command.split_once(':') {
        Some(("dxp", rest)) => (false, rest),
        Some(("dxp-listen", rest)) => (true, rest),
        _ => {
            return Err(format!(
                "'{command}' is not dxp:HOST:PORT or dxp-listen:HOST:PORT"
            ))
        }
    };
    let mut words = split_command(rest)?;
    let addr = words.remove(0);
    if !addr.contains(':') {
        return Err(format!("'{addr}' is not HOST:PORT"));
    }
    Ok(Reach {
        listen,
        addr,
        command: (!words.is_empty()).then_some(words),
    })
}

impl DxpClient {
    /// Reaches the engine: starts its command if the spec has one, then
    /// connects or waits for it to connect.
    pub fn start(spec: &EngineSpec, variant: VariantKind) -> Result<DxpClient, ClientError> {
        let fail = |e: String| ClientError::Spawn(format!("{}: {e}", spec.name));
        if variant != VariantKind::International {
            return Err(ClientError::Protocol(format!(
                "{}: DXP plays International draughts only, not {}",
                spec.name,
                variant.name()
            )));
        }
        if let Some((name, _)) = spec.options.first() {
            return Err(ClientError::Protocol(format!(
                "{}: DXP has no parameters to set ({name})",
                spec.name
            )));
        }
        let reach = parse_spec(&spec.command).map_err(fail)?;
        // Listening comes first, so that an engine started next finds the
        // address ready.
        let listener = if reach.listen {
            let bound = TcpListener::bind(&reach.addr)
                .map_err(|e| fail(format!("cannot listen on {}: {e}", reach.addr)))?;
            Some(bound)
        } else {
            None
        };
        let stderr = Arc::new(Mutex::new((String::new(), false)));
        let mut client_child = match &reach.command {
            Some(words) => Some(spawn(words, spec, &stderr).map_err(fail)?),
            None => None,
        };
        let waited = match (&client_child, reach.listen) {
            (Some(_), _) => CONNECT_TIMEOUT,
            (None, true) => LISTEN_TIMEOUT,
            (None, false) => CONNECT_TIMEOUT / 2,
        };
        let link = match listener {
            Some(listener) => accept(&listener, waited, &mut client_child),
            None => connect(&reach.addr, waited, &mut client_child),
        };
        let link = match link {
            Ok(link) => link,
            Err(e) => {
                let error = ClientError::Spawn(format!("{}: {e}", spec.name));
                return Err(with_tail(error, &stderr, client_child));
            }
        };
        let incoming = link.incoming();
        Ok(DxpClient {
            name: spec.name.clone(),
            link,
            incoming,
            child: client_child,
            stderr,
            game: None,
        })
    }

    /// The engine's name in this match.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Why this engine cannot be told `level`, if it cannot: DXP gives
    /// each side a clock of whole minutes, with no increment.
    pub fn cannot_play(&self, level: &LevelUpdate) -> Option<String> {
        minutes_of(level)
            .err()
            .map(|e| format!("{}: {e}", self.name))
    }

    /// Asks for a move in the game `start` + `moves`: proposes the game
    /// if the engine does not play it yet, else sends the moves it has not
    /// seen; waits for its move until `deadline`.
    pub fn think(
        &mut self,
        start: &str,
        moves: &[String],
        level: &LevelUpdate,
        deadline: Duration,
    ) -> Result<(String, Duration), ClientError> {
        // The game goes on if the moves begin with those the engine knows;
        // its own last one as the referee wrote it, not as it came (a
        // capture sent without its captured squares, say).
        let follows = self.game.as_ref().is_some_and(|g| {
            let before_own = g.moves.len().saturating_sub(1);
            g.start == start
                && moves.len() > g.moves.len()
                && moves[..before_own] == g.moves[..before_own]
        });
        let started;
        if follows {
            let known = self.game.as_ref().map_or(0, |g| g.moves.len());
            started = Instant::now();
            for text in &moves[known..] {
                self.send_move(text)?;
            }
        } else {
            self.end_open_game(EndReason::Unknown);
            let pos = replay(start, moves).map_err(|e| self.protocol(e))?;
            let minutes = minutes_of(level).map_err(|e| self.protocol(e))?;
            self.propose(&pos, minutes, level.moves.unwrap_or(0))?;
            started = Instant::now();
        }
        if let Some(game) = self.game.as_mut() {
            game.start = start.to_string();
            game.moves = moves.to_vec();
        }
        let reply = self.wait_for_move(started + deadline)?;
        if let Some(game) = self.game.as_mut() {
            game.moves.push(reply.clone());
        }
        Ok((reply, started.elapsed()))
    }

    /// Ends the engine's game, if one is open, with `result` (`1-0`, `0-1`
    /// or a draw), and waits a moment for its GAMEEND.
    pub fn game_over(&mut self, result: &str) {
        let Some(side) = self.game.as_ref().map(|g| g.side) else {
            return;
        };
        // The referee speaks for the engine's opponent.
        let reason = match (result, side) {
            ("1-0", Side::Black) | ("0-1", Side::White) => EndReason::SenderWins,
            ("1-0", Side::White) | ("0-1", Side::Black) => EndReason::SenderLoses,
            _ => EndReason::Draw,
        };
        self.end_open_game(reason);
    }

    /// Sends GAMEEND for the open game and waits briefly for the answer.
    fn end_open_game(&mut self, reason: EndReason) {
        if self.game.take().is_none() {
            return;
        }
        let end = DxpMessage::GameEnd {
            reason,
            stop: StopCode::Continue,
        };
        if self.link.send(&end).is_err() {
            return;
        }
        let until = Instant::now() + END_TIMEOUT;
        while let Ok(Incoming::Message(message)) = self
            .incoming
            .recv_timeout(until.saturating_duration_since(Instant::now()))
        {
            if matches!(message, DxpMessage::GameEnd { .. }) {
                return;
            }
        }
    }

    /// GAMEREQ for the engine to play the side to move of `pos`; waits for
    /// GAMEACC.
    fn propose(
        &mut self,
        pos: &Position<International>,
        minutes: u16,
        moves: u32,
    ) -> Result<(), ClientError> {
        let side = pos.side_to_move();
        let mut squares = [None; SQUARES];
        for (i, square) in squares.iter_mut().enumerate() {
            *square = Square::new(i as u8 + 1).and_then(|sq| pos.piece_at(sq));
        }
        let request = GameRequest {
            version: 1,
            name: "tempo match".to_string(),
            follower: side,
            minutes,
            moves: moves.min(999) as u16,
            start: Some(Setup { side, squares }),
        };
        self.send(&DxpMessage::GameReq(request))?;
        let until = Instant::now() + ACCEPT_TIMEOUT;
        loop {
            match self.next_message(until, "GAMEACC")? {
                DxpMessage::GameAcc {
                    answer: Acceptance::Accepted,
                    ..
                } => {
                    self.game = Some(OpenGame {
                        start: String::new(),
                        moves: Vec::new(),
                        side,
                    });
                    return Ok(());
                }
                DxpMessage::GameAcc { answer, .. } => {
                    return Err(self.protocol(format!("refused the game ({answer:?})")))
                }
                _ => {}
            }
        }
    }

    /// Sends one move of the opponent, given in Hub text.
    fn send_move(&mut self, text: &str) -> Result<(), ClientError> {
        let squares = squares_of_text(text).map_err(|e| self.protocol(e))?;
        self.send(&DxpMessage::Move(DxpMove {
            seconds: 0,
            from: squares.from,
            to: squares.to,
            captured: squares.captured,
        }))
    }

    /// Waits for the engine's move; returns it in Hub text.
    fn wait_for_move(&mut self, until: Instant) -> Result<String, ClientError> {
        loop {
            match self.next_message(until, "MOVE")? {
                DxpMessage::Move(mv) => {
                    // The captured squares in increasing order, as the
                    // referee's record writes them.
                    let mut captured = mv.captured;
                    captured.sort_unstable();
                    let squares = MoveSquares {
                        from: mv.from,
                        to: mv.to,
                        captured,
                    };
                    return Ok(squares.to_string());
                }
                DxpMessage::GameEnd { reason, .. } => {
                    self.game = None;
                    let claim = match reason {
                        EndReason::SenderLoses => Claim::Loses,
                        EndReason::Draw => Claim::Draw,
                        EndReason::SenderWins => Claim::Wins,
                        EndReason::Unknown => Claim::Unknown,
                    };
                    let answer = DxpMessage::GameEnd {
                        reason: EndReason::Unknown,
                        stop: StopCode::Continue,
                    };
                    let _ = self.link.send(&answer);
                    return Err(ClientError::Ended(claim));
                }
                DxpMessage::BackReq { .. } => {
                    return Err(self.protocol("asked to take moves back".to_string()))
                }
                _ => {}
            }
        }
    }

    fn next_message(
        &mut self,
        until: Instant,
        waiting_for: &str,
    ) -> Result<DxpMessage, ClientError> {
        let left = until.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(Incoming::Message(message)) => Ok(message),
            Ok(Incoming::Malformed { frame, error }) => {
                Err(self.protocol(format!("sent '{frame}': {error}")))
            }
            Ok(Incoming::Closed(why)) => {
                let error = ClientError::Crashed(format!(
                    "{} closed the connection while we waited for {waiting_for}: {why}",
                    self.name
                ));
                Err(with_tail(error, &self.stderr, self.child.take()))
            }
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Crashed(format!(
                "{}: the connection's reader ended while we waited for {waiting_for}",
                self.name
            ))),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout(format!(
                "{} sent no {waiting_for} in time",
                self.name
            ))),
        }
    }

    fn send(&mut self, message: &DxpMessage) -> Result<(), ClientError> {
        self.link
            .send(message)
            .map_err(|e| ClientError::Crashed(format!("{}: {e}", self.name)))
    }

    fn protocol(&self, why: String) -> ClientError {
        ClientError::Protocol(format!("{}: {why}", self.name))
    }
}

impl Drop for DxpClient {
    fn drop(&mut self) {
        if self.game.is_some() {
            let _ = self.link.send(&DxpMessage::GameEnd {
                reason: EndReason::Unknown,
                stop: StopCode::Continue,
            });
        }
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The minutes of a DXP clock for `level`, or why DXP cannot say it.
fn minutes_of(level: &LevelUpdate) -> Result<u16, String> {
    let why = "DXP gives each side a clock of whole minutes and no increment: give --tc MINUTES*60, e.g. --tc 60 or --tc 75/300";
    let time = level.time.ok_or(why)?;
    if level.inc.is_some_and(|inc| !inc.is_zero()) {
        return Err(why.to_string());
    }
    let millis = time.as_millis();
    if millis == 0 || millis % 60_000 != 0 || millis / 60_000 > 999 {
        return Err(why.to_string());
    }
    Ok((millis / 60_000) as u16)
}

/// The position after `moves` from the Hub position `start`.
fn replay(start: &str, moves: &[String]) -> Result<Position<International>, String> {
    let mut pos = parse_hub::<International>(start).map_err(|e| e.to_string())?;
    for text in moves {
        let mv = parse_move(&pos, text).map_err(|e| format!("move '{text}': {e}"))?;
        pos = pos.play(mv);
    }
    Ok(pos)
}

/// The squares of a move in Hub text (`32-28`, `28x19x23`).
fn squares_of_text(text: &str) -> Result<MoveSquares, String> {
    let numbers: Vec<u8> = text
        .split(['-', 'x'])
        .map(|n| {
            n.parse::<u8>()
                .map_err(|_| format!("'{text}' is not a Hub move"))
        })
        .collect::<Result<_, _>>()?;
    match numbers.as_slice() {
        [from, to, captured @ ..] => Ok(MoveSquares {
            from: *from,
            to: *to,
            captured: captured.to_vec(),
        }),
        _ => Err(format!("'{text}' is not a Hub move")),
    }
}

/// Starts the engine's command in its directory, its output kept.
fn spawn(
    words: &[String],
    spec: &EngineSpec,
    stderr: &Arc<Mutex<(String, bool)>>,
) -> Result<Child, String> {
    let mut child = engine_command(words, spec)?
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start '{}': {e}", words.join(" ")))?;
    if let Some(pipe) = child.stderr.take() {
        let kept = Arc::clone(stderr);
        std::thread::spawn(move || keep_tail(pipe, &kept));
    }
    // Standard output is read and dropped, so that a talkative engine
    // never blocks on a full pipe.
    if let Some(pipe) = child.stdout.take() {
        std::thread::spawn(move || BufReader::new(pipe).lines().map_while(Result::ok).count());
    }
    Ok(child)
}

/// Connects to `addr`, trying again until `waited` has passed (an engine
/// just started needs a moment to listen) or the engine has exited.
fn connect(addr: &str, waited: Duration, child: &mut Option<Child>) -> Result<TcpLink, String> {
    let until = Instant::now() + waited;
    loop {
        match TcpLink::connect(addr, Duration::from_secs(1)) {
            Ok(link) => return Ok(link),
            Err(e) if Instant::now() >= until || exited(child) => return Err(e.to_string()),
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// Waits for the engine to connect to `listener` within `waited`.
fn accept(
    listener: &TcpListener,
    waited: Duration,
    child: &mut Option<Child>,
) -> Result<TcpLink, String> {
    let addr = listener
        .local_addr()
        .map_or_else(|_| "?".to_string(), |a| a.to_string());
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("socket: {e}"))?;
    let until = Instant::now() + waited;
    loop {
        match listener.accept() {
            Ok((stream, _)) => return link_of(stream),
            Err(e) if e.kind() != std::io::ErrorKind::WouldBlock => {
                return Err(format!("accepting on {addr}: {e}"))
            }
            Err(_) if Instant::now() >= until || exited(child) => {
                return Err(format!("no engine connected to {addr} in time"))
            }
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    }
}

fn link_of(stream: TcpStream) -> Result<TcpLink, String> {
    stream
        .set_nonblocking(false)
        .map_err(|e| format!("socket: {e}"))?;
    TcpLink::new(stream).map_err(|e| e.to_string())
}

/// Whether the engine the referee started has already exited.
fn exited(child: &mut Option<Child>) -> bool {
    child
        .as_mut()
        .is_some_and(|c| matches!(c.try_wait(), Ok(Some(_))))
}

/// `error` with the end of the engine's standard error, once it has exited
/// or after a moment; the process is ended.
fn with_tail(
    error: ClientError,
    stderr: &Arc<Mutex<(String, bool)>>,
    child: Option<Child>,
) -> ClientError {
    let Some(mut child) = child else {
        return error;
    };
    let _ = child.kill();
    let _ = child.wait();
    super::add_stderr(error, stderr)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_the_address_and_perhaps_a_command() {
        let reach = parse_spec("dxp:127.0.0.1:27531").unwrap();
        assert!(!reach.listen && reach.addr == "127.0.0.1:27531" && reach.command.is_none());
        let reach = parse_spec("dxp-listen:127.0.0.1:0 ./scan dxp").unwrap();
        assert!(reach.listen);
        assert_eq!(reach.command.unwrap(), ["./scan", "dxp"]);
        assert!(parse_spec("dxp:27531").is_err());
        assert!(parse_spec("dxp:").is_err());
        assert!(is_dxp("dxp:localhost:1") && is_dxp("dxp-listen:x:1") && !is_dxp("scan hub"));
    }

    #[test]
    fn only_clocks_of_whole_minutes_without_increment_are_dxp_clocks() {
        let clock = |secs: f64, inc: f64| LevelUpdate {
            time: Some(Duration::from_secs_f64(secs)),
            inc: Some(Duration::from_secs_f64(inc)),
            ..LevelUpdate::default()
        };
        assert_eq!(minutes_of(&clock(300.0, 0.0)), Ok(5));
        assert!(minutes_of(&clock(300.0, 0.1)).is_err());
        assert!(minutes_of(&clock(10.0, 0.0)).is_err());
        let move_time = LevelUpdate {
            move_time: Some(Duration::from_millis(200)),
            ..LevelUpdate::default()
        };
        assert!(minutes_of(&move_time)
            .unwrap_err()
            .contains("whole minutes"));
    }

    #[test]
    fn hub_moves_become_squares() {
        let quiet = squares_of_text("32-28").unwrap();
        assert_eq!((quiet.from, quiet.to), (32, 28));
        assert!(quiet.captured.is_empty());
        let capture = squares_of_text("28x17x22x11").unwrap();
        assert_eq!((capture.from, capture.to), (28, 17));
        assert_eq!(capture.captured, [22, 11]);
        assert!(squares_of_text("c3-d4").is_err());
    }
}

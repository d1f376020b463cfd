//! Hub over a child process's standard input and output, in either
//! dialect: Hub v2 and Scan 2.0's first Hub protocol (`scan2`).
//!
//! A reader thread turns the engine's stdout into lines on a channel (end of
//! output becomes `None`), so every wait has a deadline and a silent or dead
//! engine costs the game, never the match. Another keeps the end of its
//! standard error, to show when it fails.
//!
//! Positions and moves go out and come back in the Hub numbering of the
//! variant (`protocol::hub::numbering`, pydraughts' by default), the one
//! `tempo hub` and the engines written for pydraughts speak; the referee
//! keeps them in the PDN numbering.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use super::scan2::{self, Reply};
use super::{
    add_stderr, engine_command, keep_tail, split_command, ClientError, Dialect, EngineSpec,
    HANDSHAKE_TIMEOUT, READY_TIMEOUT,
};
use crate::protocol::hub::codec::{
    format_level, parse_args, split_command as split_line, value_of,
};
use crate::protocol::hub::{LevelUpdate, Numbering, Wire};
use crate::rules::VariantKind;

/// One running engine.
pub struct HubClient {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Option<String>>,
    /// The score (in men) of the last `info` line of the last search.
    pub last_score: Option<f64>,
    /// The Hub numbering of the variant played.
    wire: Wire,
    /// The dialect it speaks.
    dialect: Dialect,
    /// The end of the engine's standard error, and whether it is closed.
    stderr: Arc<Mutex<(String, bool)>>,
}

impl HubClient {
    /// Starts the engine, does the handshake, sets the variant and options.
    pub fn start(spec: &EngineSpec, variant: VariantKind) -> Result<HubClient, ClientError> {
        let words = split_command(&spec.command).map_err(ClientError::Spawn)?;
        let mut child = engine_command(&words, spec)
            .map_err(|e| ClientError::Spawn(format!("{}: {e}", spec.name)))?
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| ClientError::Spawn(format!("{}: {e}", spec.command)))?;
        let stderr = Arc::new(Mutex::new((String::new(), false)));
        if let Some(pipe) = child.stderr.take() {
            let kept = Arc::clone(&stderr);
            std::thread::spawn(move || keep_tail(pipe, &kept));
        }
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| ClientError::Spawn("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| ClientError::Spawn("no stdout".into()))?;
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(Some(l)).is_err() {
                            return;
                        }
                    }
                    Err(_) => break,
                }
            }
            let _ = tx.send(None);
        });
        let mut client = HubClient {
            name: spec.name.clone(),
            child,
            stdin,
            lines: rx,
            last_score: None,
            wire: Wire::new(variant, Numbering::default()),
            dialect: Dialect::Hub2,
            stderr,
        };
        client
            .handshake(spec, variant)
            .map_err(|e| client.with_stderr(e))?;
        Ok(client)
    }

    /// `hub` … `wait`, the variant, the numbering and the options, `init` …
    /// `ready`.
    fn handshake(&mut self, spec: &EngineSpec, variant: VariantKind) -> Result<(), ClientError> {
        self.send("hub")?;
        let (dialect, speaks_numbering) = self.read_greeting()?;
        self.dialect = dialect;
        match dialect {
            Dialect::Hub2 => self.configure_hub2(spec, variant, speaks_numbering)?,
            Dialect::Scan2 => self.configure_scan2(spec, variant)?,
        }
        self.send("init")?;
        self.wait_for_ready()
    }

    /// Reads up to `ready`; an `error` line before it is the engine
    /// refusing a parameter it was given (a name it does not have, a bad
    /// value, a variant it does not play), which stops the match.
    fn wait_for_ready(&mut self) -> Result<(), ClientError> {
        let deadline = Instant::now() + READY_TIMEOUT;
        let mut refused = Vec::new();
        loop {
            let line = self.next_line(deadline, "ready")?;
            match split_line(&line) {
                Some(("ready", _)) if refused.is_empty() => return Ok(()),
                Some(("ready", _)) => {
                    return Err(ClientError::Protocol(format!(
                        "{} refused what it was given before init: {}",
                        self.name,
                        refused.join("; ")
                    )))
                }
                Some(("error", _)) => refused.push(line.trim().to_string()),
                _ => {}
            }
        }
    }

    /// The variant, the numbering and the options of a Hub v2 engine.
    fn configure_hub2(
        &mut self,
        spec: &EngineSpec,
        variant: VariantKind,
        speaks_numbering: bool,
    ) -> Result<(), ClientError> {
        if variant != VariantKind::International {
            self.send(&format!(
                "set-param name=variant value={}",
                variant.hub_name()
            ))?;
        }
        let numbering = wire_numbering(spec, speaks_numbering).map_err(ClientError::Protocol)?;
        self.wire = Wire::new(variant, numbering);
        if speaks_numbering {
            self.send(&format!(
                "set-param name={} value={}",
                Numbering::PARAM,
                numbering.name()
            ))?;
        }
        for (name, value) in &spec.options {
            if name != Numbering::PARAM {
                self.send(&format!("set-param name={name} value=\"{value}\""))?;
            }
        }
        Ok(())
    }

    /// The options of a Scan 2.0 engine, which plays International only.
    fn configure_scan2(
        &mut self,
        spec: &EngineSpec,
        variant: VariantKind,
    ) -> Result<(), ClientError> {
        if variant != VariantKind::International {
            return Err(ClientError::Protocol(format!(
                "{} speaks Scan 2.0's first Hub protocol, which plays International draughts only, not {}",
                self.name,
                variant.name()
            )));
        }
        for (name, value) in &spec.options {
            if name != Numbering::PARAM {
                let line = scan2::set_line(name, value)
                    .map_err(|e| ClientError::Protocol(format!("{}: {e}", self.name)))?;
                self.send(&line)?;
            }
        }
        Ok(())
    }

    /// Reads the engine's answer to `hub` up to `wait`: its dialect (`name`
    /// lines without an `id` line: Scan 2.0's), and whether one of its
    /// `param` lines is the `numbering` parameter of `tempo hub`.
    fn read_greeting(&mut self) -> Result<(Dialect, bool), ClientError> {
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        let (mut listed, mut said_id, mut said_name) = (false, false, false);
        loop {
            let line = self.next_line(deadline, "wait")?;
            match split_line(&line) {
                Some(("wait", _)) => {
                    let dialect = if said_name && !said_id {
                        Dialect::Scan2
                    } else {
                        Dialect::Hub2
                    };
                    return Ok((dialect, listed));
                }
                Some(("id", _)) => said_id = true,
                Some(("name", _)) => said_name = true,
                Some(("param", rest)) => {
                    listed |= parse_args(rest)
                        .is_ok_and(|args| value_of(&args, "name") == Some(Numbering::PARAM));
                }
                _ => {}
            }
        }
    }

    /// `error` with the end of the engine's standard error added.
    fn with_stderr(&self, error: ClientError) -> ClientError {
        add_stderr(error, &self.stderr)
    }

    /// The engine's name in this match.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn send(&mut self, line: &str) -> Result<(), ClientError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| ClientError::Crashed(format!("{}: writing '{line}': {e}", self.name)))
    }

    fn next_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, ClientError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Some(line)) => Ok(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.with_stderr(ClientError::Crashed(format!(
                    "{} closed its output while we waited for '{waiting_for}'",
                    self.name
                ))))
            }
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout(format!(
                "{} sent no '{waiting_for}' in time",
                self.name
            ))),
        }
    }

    /// Sets a parameter between games and makes sure the engine took it:
    /// `set-param`, then `ping`; an `error` line before the `pong` is the
    /// engine refusing the value.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        let line = match self.dialect {
            Dialect::Hub2 => format!("set-param name={name} value=\"{value}\""),
            Dialect::Scan2 => scan2::set_line(name, value)
                .map_err(|e| ClientError::Protocol(format!("{}: {e}", self.name)))?,
        };
        self.send(&line)?;
        self.send("ping")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = self.next_line(deadline, "pong")?;
            match split_line(&line) {
                Some(("pong", _)) => return Ok(()),
                Some(("error", rest)) => {
                    return Err(ClientError::Protocol(format!(
                        "{} refused {name}={value}: {}",
                        self.name,
                        rest.trim()
                    )))
                }
                _ => {}
            }
        }
    }

    /// Tells the engine a new game starts.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        match self.dialect {
            Dialect::Hub2 => self.send("new-game"),
            Dialect::Scan2 => self.send("new"),
        }
    }

    /// The dialect the engine speaks.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// Why this engine cannot be told `level`, if it cannot (Scan 2.0's
    /// protocol has no node limit).
    pub fn cannot_play(&self, level: &LevelUpdate) -> Option<String> {
        match self.dialect {
            Dialect::Hub2 => None,
            Dialect::Scan2 => scan2::level_line(level)
                .err()
                .map(|e| format!("{}: {e}", self.name)),
        }
    }

    /// Asks for a move: the game's start position, its moves, the level;
    /// waits for the move (`done`, or Scan 2.0's `move`) until `deadline`
    /// after `go`. Returns the move text and the time the engine took.
    pub fn think(
        &mut self,
        start: &str,
        moves: &[String],
        level: &LevelUpdate,
        deadline: Duration,
    ) -> Result<(String, Duration), ClientError> {
        match self.dialect {
            Dialect::Hub2 => self.ask_hub2(start, moves, level)?,
            Dialect::Scan2 => self.ask_scan2(start, moves, level)?,
        }
        self.last_score = None;
        let started = Instant::now();
        self.send(match self.dialect {
            Dialect::Hub2 => "go think",
            Dialect::Scan2 => "go",
        })?;
        let until = started + deadline;
        let waiting_for = match self.dialect {
            Dialect::Hub2 => "done",
            Dialect::Scan2 => "move",
        };
        loop {
            let line = self.next_line(until, waiting_for)?;
            let reply = match self.dialect {
                Dialect::Hub2 => hub2_reply(&line),
                Dialect::Scan2 => scan2::reply(&line),
            };
            match reply {
                Reply::Score(score) => self.last_score = Some(score),
                Reply::Move(mv) if !mv.is_empty() => {
                    return Ok((self.wire.move_text(&mv), started.elapsed()))
                }
                Reply::Move(_) => {
                    return Err(ClientError::Protocol(format!(
                        "{}: '{waiting_for}' without a readable move: {line}",
                        self.name
                    )))
                }
                Reply::Error => {
                    return Err(ClientError::Protocol(format!("{} said: {line}", self.name)));
                }
                Reply::Other => {}
            }
        }
    }

    /// The position and the level, as Hub v2 says them.
    fn ask_hub2(
        &mut self,
        start: &str,
        moves: &[String],
        level: &LevelUpdate,
    ) -> Result<(), ClientError> {
        let start = self.wire.position(start);
        if moves.is_empty() {
            self.send(&format!("pos pos={start}"))?;
        } else {
            let moves: Vec<String> = moves.iter().map(|m| self.wire.move_text(m)).collect();
            self.send(&format!("pos pos={start} moves=\"{}\"", moves.join(" ")))?;
        }
        self.send(&format_level(level))
    }

    /// The start position, each move played since (so that the engine
    /// knows the repetitions) and the level, as Scan 2.0 says them; `pos`
    /// resets the level, so it comes last.
    fn ask_scan2(
        &mut self,
        start: &str,
        moves: &[String],
        level: &LevelUpdate,
    ) -> Result<(), ClientError> {
        let level = scan2::level_line(level)
            .map_err(|e| ClientError::Protocol(format!("{}: {e}", self.name)))?;
        self.send(&format!("pos {}", scan2::position(start)))?;
        for mv in moves {
            self.send(&format!("move {mv}"))?;
        }
        self.send(&level)
    }
}

/// Reads one line of a Hub v2 engine's answer to `go`; a line whose
/// arguments do not split is skipped unless it is the answer waited for.
fn hub2_reply(line: &str) -> Reply {
    let Some((word, rest)) = split_line(line) else {
        return Reply::Other;
    };
    let args = parse_args(rest);
    match (word, args) {
        ("info", Ok(args)) => value_of(&args, "score")
            .and_then(|s| s.parse().ok())
            .map_or(Reply::Other, Reply::Score),
        ("done", args) => Reply::Move(
            args.ok()
                .and_then(|args| value_of(&args, "move").map(str::to_string))
                .unwrap_or_default(),
        ),
        ("error", _) => Reply::Error,
        _ => Reply::Other,
    }
}

/// The numbering the referee speaks to an engine: the `numbering` option
/// given for it; else the PDN numbering for an engine that lists the
/// `numbering` parameter (the referee then sets it, so tempo builds of any
/// default agree), pydraughts' for one that does not (the engines written
/// for pydraughts).
fn wire_numbering(spec: &EngineSpec, speaks_numbering: bool) -> Result<Numbering, String> {
    match spec
        .options
        .iter()
        .rev()
        .find(|(name, _)| name == Numbering::PARAM)
    {
        Some((_, value)) => Numbering::parse(value).ok_or_else(|| {
            format!(
                "{}: numbering '{value}' is not one of {}",
                spec.name,
                Numbering::ALL.map(Numbering::name).join(", ")
            )
        }),
        None if speaks_numbering => Ok(Numbering::Pdn),
        None => Ok(Numbering::default()),
    }
}

impl Drop for HubClient {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|_| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wire_numbering_follows_the_option_then_the_parameter_list() {
        let spec = |options: &[(&str, &str)]| EngineSpec {
            name: "e".into(),
            command: "e".into(),
            options: options
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
            dir: None,
        };
        assert_eq!(wire_numbering(&spec(&[]), true), Ok(Numbering::Pdn));
        assert_eq!(wire_numbering(&spec(&[]), false), Ok(Numbering::Pydraughts));
        let chosen = spec(&[("numbering", "pydraughts"), ("numbering", "PDN")]);
        assert_eq!(wire_numbering(&chosen, false), Ok(Numbering::Pdn));
        let chosen = spec(&[("numbering", "pydraughts")]);
        assert_eq!(wire_numbering(&chosen, true), Ok(Numbering::Pydraughts));
        let error = wire_numbering(&spec(&[("numbering", "dam")]), true).unwrap_err();
        assert!(
            error.contains("'dam'") && error.contains("pydraughts, pdn"),
            "{error}"
        );
    }
}

//! The referee's side of the Hub protocol: an engine as a child process.
//!
//! A reader thread turns the engine's stdout into lines on a channel (end of
//! output becomes `None`), so every wait has a deadline and a silent or dead
//! engine costs the game, never the match.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use crate::protocol::hub::codec::{
    format_level, parse_args, split_command as split_line, value_of,
};
use crate::protocol::hub::LevelUpdate;
use crate::rules::VariantKind;

/// How long an engine may take to start (`hub` … `wait`, `init` … `ready`).
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// How to start one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Name in the results and the PDN.
    pub name: String,
    /// Program and arguments, split like a shell would (quotes allowed).
    pub command: String,
    /// `set-param` pairs sent before `init`.
    pub options: Vec<(String, String)>,
}

/// Why an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientError {
    /// The program could not be started.
    Spawn(String),
    /// The engine closed its output.
    Crashed(String),
    /// No answer in time.
    Timeout(String),
    /// It answered something the protocol does not allow there.
    Protocol(String),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Spawn(s) => write!(f, "cannot start: {s}"),
            ClientError::Crashed(s) => write!(f, "crashed: {s}"),
            ClientError::Timeout(s) => write!(f, "timed out: {s}"),
            ClientError::Protocol(s) => write!(f, "protocol error: {s}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// One running engine.
pub struct HubClient {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Option<String>>,
    /// The score (in men) of the last `info` line of the last search.
    pub last_score: Option<f64>,
}

/// Splits a command line into words: white space separates, double or
/// single quotes group, a backslash escapes the next character.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (_, '\\') => {
                word.push(chars.next().ok_or("a trailing backslash")?);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (_, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in '{text}'"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".to_string());
    }
    Ok(words)
}

impl HubClient {
    /// Starts the engine, does the handshake, sets the variant and options.
    pub fn start(spec: &EngineSpec, variant: VariantKind) -> Result<HubClient, ClientError> {
        let words = split_command(&spec.command).map_err(ClientError::Spawn)?;
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ClientError::Spawn(format!("{}: {e}", spec.command)))?;
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
        };
        client.send("hub")?;
        client.wait_for("wait", START_TIMEOUT)?;
        if variant != VariantKind::International {
            client.send(&format!(
                "set-param name=variant value={}",
                variant.hub_name()
            ))?;
        }
        for (name, value) in &spec.options {
            client.send(&format!("set-param name={name} value=\"{value}\""))?;
        }
        client.send("init")?;
        client.wait_for("ready", START_TIMEOUT)?;
        Ok(client)
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

    /// Reads lines until one starts with `word`, within `timeout`.
    fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<String, ClientError> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.next_line(deadline, word)?;
            if split_line(&line).is_some_and(|(w, _)| w == word) {
                return Ok(line);
            }
        }
    }

    fn next_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, ClientError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Some(line)) => Ok(line),
            Ok(None) | Err(RecvTimeoutError::Disconnected) => Err(ClientError::Crashed(format!(
                "{} closed its output while we waited for '{waiting_for}'",
                self.name
            ))),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout(format!(
                "{} sent no '{waiting_for}' in time",
                self.name
            ))),
        }
    }

    /// Tells the engine a new game starts.
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        self.send("new-game")
    }

    /// Asks for a move: the game's start position, its moves, the level;
    /// waits for `done` until `deadline` after `go`. Returns the move text
    /// and the time the engine took.
    pub fn think(
        &mut self,
        start: &str,
        moves: &[String],
        level: &LevelUpdate,
        deadline: Duration,
    ) -> Result<(String, Duration), ClientError> {
        if moves.is_empty() {
            self.send(&format!("pos pos={start}"))?;
        } else {
            self.send(&format!("pos pos={start} moves=\"{}\"", moves.join(" ")))?;
        }
        self.send(&format_level(level))?;
        self.last_score = None;
        let started = Instant::now();
        self.send("go think")?;
        let until = started + deadline;
        loop {
            let line = self.next_line(until, "done")?;
            let Some((word, rest)) = split_line(&line) else {
                continue;
            };
            // A line whose arguments do not split is skipped unless it is
            // the answer we wait for.
            let args = parse_args(rest);
            match (word, args) {
                ("info", Ok(args)) => {
                    if let Some(score) = value_of(&args, "score").and_then(|s| s.parse().ok()) {
                        self.last_score = Some(score);
                    }
                }
                ("done", args) => {
                    let mv = args
                        .ok()
                        .and_then(|args| value_of(&args, "move").map(str::to_string))
                        .ok_or_else(|| {
                            ClientError::Protocol(format!(
                                "{}: 'done' without a readable move: {line}",
                                self.name
                            ))
                        })?;
                    return Ok((mv, started.elapsed()));
                }
                ("error", _) => {
                    return Err(ClientError::Protocol(format!("{} said: {line}", self.name)));
                }
                _ => {}
            }
        }
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
    fn commands_split_like_a_shell() {
        assert_eq!(split_command("dame hub").unwrap(), ["dame", "hub"]);
        assert_eq!(
            split_command(r#"  "/my dir/tempo" hub --x 'a b' c\ d "#).unwrap(),
            ["/my dir/tempo", "hub", "--x", "a b", "c d"]
        );
        assert!(split_command("\"open").is_err());
        assert!(split_command("   ").is_err());
    }
}

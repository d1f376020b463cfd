//! The referee's side of an engine in a match, behind one `EngineClient`:
//! a Hub process (`hub`), in Hub v2 or in Scan 2.0's first Hub protocol
//! (`scan2`), told apart by its answer to `hub`, so the user gives the same
//! `--engine` line for either; or a DXP peer over TCP (`dxp`). Here too what
//! they share: the engine's spec, the errors, starting its program in its
//! own directory, keeping the end of its standard error.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::protocol::hub::LevelUpdate;
use crate::rules::VariantKind;

mod dxp;
mod hub;
mod scan2;

pub use dxp::is_dxp;
use dxp::DxpClient;
pub use hub::HubClient;

/// How long an engine may take to answer `hub` with `wait`: it has only to
/// start and list its parameters.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long an engine may take to answer `init` with `ready`, after the
/// parameters (which may load files: books, endgame tables).
const READY_TIMEOUT: Duration = Duration::from_secs(15);

/// How much of the end of an engine's standard error is kept.
const STDERR_KEPT: usize = 2000;

/// How to start one engine.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Name in the results and the PDN.
    pub name: String,
    /// Program and arguments, split like a shell would (quotes allowed).
    pub command: String,
    /// `set-param` pairs sent before `init`.
    pub options: Vec<(String, String)>,
    /// The directory the engine runs in (Scan reads `scan.ini` and `data/`
    /// from its own); a relative program path is found from it, as `cd DIR
    /// && COMMAND` would. `None`: the referee's.
    pub dir: Option<PathBuf>,
}

/// The Hub dialect an engine speaks, told by its answer to `hub`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Hub v2: `id` and `param` lines, `key=value` arguments.
    Hub2,
    /// Scan 2.0's first Hub protocol: `name` lines, bare arguments,
    /// International draughts only.
    Scan2,
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
    /// It ended the game itself (a DXP GAMEEND), with the result it claims.
    Ended(Claim),
}

/// The result an engine claims when it ends a game itself, from its view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// It loses (it resigns).
    Loses,
    /// A draw.
    Draw,
    /// It wins.
    Wins,
    /// It does not say (an interrupted game, a move limit reached): scored
    /// as a draw.
    Unknown,
}

impl Claim {
    /// The claim in words.
    pub fn describe(self) -> &'static str {
        match self {
            Claim::Loses => "a loss (it resigns)",
            Claim::Draw => "a draw",
            Claim::Wins => "a win",
            Claim::Unknown => "no result (scored a draw)",
        }
    }
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Spawn(s) => write!(f, "cannot start: {s}"),
            ClientError::Crashed(s) => write!(f, "crashed: {s}"),
            ClientError::Timeout(s) => write!(f, "timed out: {s}"),
            ClientError::Protocol(s) => write!(f, "protocol error: {s}"),
            ClientError::Ended(claim) => write!(f, "ended the game, claiming {}", claim.describe()),
        }
    }
}

impl std::error::Error for ClientError {}

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

/// The command that starts an engine: program and arguments `words`, run in
/// the directory of `spec` if it names one.
fn engine_command(words: &[String], spec: &EngineSpec) -> Result<Command, String> {
    let dir = match &spec.dir {
        Some(dir) => Some(
            dir.canonicalize()
                .map_err(|e| format!("working directory {}: {e}", dir.display()))?,
        ),
        None => None,
    };
    let mut command = Command::new(program(&words[0], dir.as_deref()));
    if let Some(dir) = &dir {
        command.current_dir(dir);
    }
    command.args(&words[1..]);
    Ok(command)
}

/// The program to start: a relative path with a directory part is found
/// from the engine's working directory, as a shell would after `cd`.
fn program(word: &str, dir: Option<&Path>) -> PathBuf {
    let path = Path::new(word);
    match dir {
        Some(dir) if path.is_relative() && path.components().count() > 1 => dir.join(path),
        _ => path.to_path_buf(),
    }
}

/// `error` with the end of the engine's standard error (kept in `stderr`)
/// added, once the engine has closed it or after a moment.
fn add_stderr(error: ClientError, stderr: &Mutex<(String, bool)>) -> ClientError {
    let deadline = Instant::now() + Duration::from_millis(500);
    let tail = loop {
        let (text, closed) = stderr.lock().map(|kept| kept.clone()).unwrap_or_default();
        if closed || Instant::now() >= deadline {
            break text;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let tail = tail.trim();
    if tail.is_empty() {
        return error;
    }
    const SAID: &str = "; its standard error:";
    let add = |s: String| {
        if s.contains(SAID) {
            s
        } else {
            format!("{s}{SAID}\n{tail}")
        }
    };
    match error {
        ClientError::Spawn(s) => ClientError::Spawn(add(s)),
        ClientError::Crashed(s) => ClientError::Crashed(add(s)),
        ClientError::Timeout(s) => ClientError::Timeout(add(s)),
        ClientError::Protocol(s) => ClientError::Protocol(add(s)),
        ended @ ClientError::Ended(_) => ended,
    }
}

/// An engine in a match: a Hub process (either dialect) or a DXP peer.
pub enum EngineClient {
    /// Spoken to in Hub over its standard input and output.
    Hub(HubClient),
    /// Spoken to in DXP over TCP.
    Dxp(DxpClient),
}

impl EngineClient {
    /// Starts (or reaches) the engine that `spec` names: a DXP engine for
    /// a `dxp:` or `dxp-listen:` spec, else a Hub process.
    pub fn start(spec: &EngineSpec, variant: VariantKind) -> Result<EngineClient, ClientError> {
        if is_dxp(&spec.command) {
            DxpClient::start(spec, variant).map(EngineClient::Dxp)
        } else {
            HubClient::start(spec, variant).map(EngineClient::Hub)
        }
    }

    /// The engine's name in this match.
    pub fn name(&self) -> &str {
        match self {
            EngineClient::Hub(c) => c.name(),
            EngineClient::Dxp(c) => c.name(),
        }
    }

    /// Tells the engine a new game starts (DXP: nothing, the game is
    /// proposed at its first move).
    pub fn new_game(&mut self) -> Result<(), ClientError> {
        match self {
            EngineClient::Hub(c) => c.new_game(),
            EngineClient::Dxp(_) => Ok(()),
        }
    }

    /// Why this engine cannot be told `level`, if it cannot.
    pub fn cannot_play(&self, level: &LevelUpdate) -> Option<String> {
        match self {
            EngineClient::Hub(c) => c.cannot_play(level),
            EngineClient::Dxp(c) => c.cannot_play(level),
        }
    }

    /// Asks for a move (`HubClient::think`).
    pub fn think(
        &mut self,
        start: &str,
        moves: &[String],
        level: &LevelUpdate,
        deadline: Duration,
    ) -> Result<(String, Duration), ClientError> {
        match self {
            EngineClient::Hub(c) => c.think(start, moves, level, deadline),
            EngineClient::Dxp(c) => c.think(start, moves, level, deadline),
        }
    }

    /// The score (in men, for the engine) of its last search, where its
    /// protocol says one.
    pub fn last_score(&self) -> Option<f64> {
        match self {
            EngineClient::Hub(c) => c.last_score,
            EngineClient::Dxp(_) => None,
        }
    }

    /// Sets a parameter between games (`HubClient::set_param`); DXP has
    /// none.
    pub fn set_param(&mut self, name: &str, value: &str) -> Result<(), ClientError> {
        match self {
            EngineClient::Hub(c) => c.set_param(name, value),
            EngineClient::Dxp(c) => Err(ClientError::Protocol(format!(
                "{}: DXP has no parameters to set ({name})",
                c.name()
            ))),
        }
    }

    /// Tells the engine the game is over with `result` (DXP's GAMEEND).
    pub fn game_over(&mut self, result: &str) {
        if let EngineClient::Dxp(c) = self {
            c.game_over(result);
        }
    }
}

/// Reads `pipe` to its end, keeping its last `STDERR_KEPT` bytes (on
/// character boundaries) in `kept`, then marks it closed.
fn keep_tail(mut pipe: impl Read, kept: &Mutex<(String, bool)>) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = pipe.read(&mut buf) {
        if n == 0 {
            break;
        }
        let Ok(mut kept) = kept.lock() else {
            return;
        };
        kept.0.push_str(&String::from_utf8_lossy(&buf[..n]));
        if kept.0.len() > STDERR_KEPT {
            let mut cut = kept.0.len() - STDERR_KEPT;
            while !kept.0.is_char_boundary(cut) {
                cut += 1;
            }
            kept.0.drain(..cut);
        }
    }
    if let Ok(mut kept) = kept.lock() {
        kept.1 = true;
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

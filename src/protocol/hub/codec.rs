//! The pure Hub codec: lines in, typed commands out; engine values in,
//! lines out. No I/O, no threads, no engine state.
//!
//! Input syntax: `command arg=value arg="quoted value" flag ...`. Extra
//! whitespace means nothing; a quoted value runs to the next `"` and may
//! hold spaces and `=`; there are no escapes. Unknown commands parse to
//! `None` and unknown arguments are skipped, as the protocol asks; a known
//! command that is malformed is a `CommandError` that says what is wrong.
//!
//! Output invariants, relied on by every client seen in the wild:
//! - every formatted line is a single line: no `\n`, `\r`, other control
//!   character or whitespace but the plain space, whatever text it echoes;
//! - every argument is `name=value` (no bare flags: pydraughts' `param`
//!   parser crashes on them); a value is quoted when it is empty or holds
//!   whitespace or `=`, and never contains `"` (echoed `"` become `'`);
//! - `done` puts `move=` first (pydraughts reads it by position).
//!
//! Nothing here panics on any input.

use std::fmt;
use std::time::Duration;

use crate::engine::{GoMode, Limits, MoveSquares, Param, ParamKind, SearchInfo};

/// The longest text echoed in a value (an error message quoting a line,
/// say); longer text is cut and ends with `...`.
const MAX_ECHO: usize = 400;

/// Times above this many seconds are taken as this many (about 115 days):
/// a clock that large means "no hurry", and keeping it bounded keeps the
/// time arithmetic far from overflow.
pub const MAX_SECONDS: f64 = 1.0e7;

/// Thinking time for `go think` and `go ponder` when no `level` line has
/// set any limit.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// One argument of a line: `name=value`, `name="quoted value"` or a bare
/// `name` (a flag, `value` is `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arg {
    /// The argument's name.
    pub name: String,
    /// Its value, without the quotes; `None` for a flag.
    pub value: Option<String>,
}

/// Why the arguments of a line could not be split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// A quoted value with no closing quote.
    UnterminatedQuote(String),
    /// `=value` with no name before it.
    MissingName,
    /// Text stuck to a closing quote, as in `name="a"b`.
    TextAfterQuote(String),
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::UnterminatedQuote(name) => {
                write!(f, "the quoted value of '{name}' has no closing quote")
            }
            SyntaxError::MissingName => f.write_str("'=' with no argument name before it"),
            SyntaxError::TextAfterQuote(name) => write!(
                f,
                "text follows the closing quote of '{name}' (put a space after it)"
            ),
        }
    }
}

/// Splits a line into its command word and the rest; `None` for a blank
/// line.
pub fn split_command(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    if line.is_empty() {
        return None;
    }
    let end = line.find(char::is_whitespace).unwrap_or(line.len());
    Some((&line[..end], &line[end..]))
}

/// Splits the arguments of a line (the text after the command word).
pub fn parse_args(text: &str) -> Result<Vec<Arg>, SyntaxError> {
    let mut args = Vec::new();
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Ok(args);
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '=')
            .unwrap_or(rest.len());
        let name = &rest[..end];
        rest = &rest[end..];
        let Some(after_equals) = rest.strip_prefix('=') else {
            args.push(Arg {
                name: name.to_string(),
                value: None,
            });
            continue;
        };
        if name.is_empty() {
            return Err(SyntaxError::MissingName);
        }
        let value;
        if let Some(quoted) = after_equals.strip_prefix('"') {
            let close = quoted
                .find('"')
                .ok_or_else(|| SyntaxError::UnterminatedQuote(name.to_string()))?;
            value = &quoted[..close];
            rest = &quoted[close + 1..];
            if rest.chars().next().is_some_and(|c| !c.is_whitespace()) {
                return Err(SyntaxError::TextAfterQuote(name.to_string()));
            }
        } else {
            let end = after_equals
                .find(char::is_whitespace)
                .unwrap_or(after_equals.len());
            value = &after_equals[..end];
            rest = &after_equals[end..];
        }
        args.push(Arg {
            name: name.to_string(),
            value: Some(value.to_string()),
        });
    }
}

/// The value of the last argument called `name`, if it has one.
fn value<'a>(args: &'a [Arg], name: &str) -> Option<&'a str> {
    args.iter()
        .rev()
        .find(|a| a.name == name)
        .and_then(|a| a.value.as_deref())
}

/// A change to the search limits, as one `level` line gives it. Only the
/// fields the line names are `Some`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelUpdate {
    /// `depth=`: plies.
    pub depth: Option<u32>,
    /// `nodes=`: nodes.
    pub nodes: Option<u64>,
    /// `move-time=`: time for every move.
    pub move_time: Option<Duration>,
    /// `moves=`: moves to the next time control (0: the rest of the game).
    pub moves: Option<u32>,
    /// `time=`: the clock, before this move's increment is added.
    pub time: Option<Duration>,
    /// `inc=`: added to the clock before every move.
    pub inc: Option<Duration>,
    /// `infinite` (or `infinite=true`/`infinite=false`).
    pub infinite: Option<bool>,
}

/// A command this engine knows, with its arguments read.
#[derive(Clone, Debug, PartialEq)]
pub enum HubCommand {
    /// `hub`: identify the engine and list its parameters.
    Hub,
    /// `init`: get ready to play.
    Init,
    /// `set-param name=<p> value=<v>`.
    SetParam {
        /// The parameter.
        name: String,
        /// Its new value.
        value: String,
    },
    /// `new-game`.
    NewGame,
    /// `pos pos=<position> [moves="<m1> <m2> ..."]`.
    Pos {
        /// A Hub position string (or a FEN).
        position: String,
        /// The moves played from it, in order.
        moves: Vec<String>,
    },
    /// `level ...`.
    Level(LevelUpdate),
    /// `go think|ponder|analyze`.
    Go(GoMode),
    /// `stop`.
    Stop,
    /// `ponder-hit`.
    PonderHit,
    /// `ping`.
    Ping,
    /// `quit`.
    Quit,
}

/// Why a known command could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The arguments could not be split.
    Syntax {
        /// The command word.
        command: String,
        /// What was wrong.
        error: SyntaxError,
    },
    /// A required argument is missing (or has no value).
    Missing {
        /// The command word.
        command: &'static str,
        /// The expected form of the command.
        usage: &'static str,
    },
    /// An argument whose value cannot be used.
    BadValue {
        /// The command word.
        command: &'static str,
        /// The argument.
        arg: &'static str,
        /// The value given.
        value: String,
        /// What is wrong with it.
        why: &'static str,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Syntax { command, error } => write!(f, "{command}: {error}"),
            CommandError::Missing { command, usage } => {
                write!(f, "{command}: missing argument, expected '{usage}'")
            }
            CommandError::BadValue {
                command,
                arg,
                value,
                why,
            } => write!(f, "{command}: bad {arg} '{value}': {why}"),
        }
    }
}

impl std::error::Error for CommandError {}

/// Reads one input line. `Ok(None)`: a blank line or a command this engine
/// does not know (both are ignored).
pub fn parse_command(line: &str) -> Result<Option<HubCommand>, CommandError> {
    let Some((word, rest)) = split_command(line) else {
        return Ok(None);
    };
    let command = match word {
        "hub" => HubCommand::Hub,
        "init" => HubCommand::Init,
        "new-game" => HubCommand::NewGame,
        "stop" => HubCommand::Stop,
        "ponder-hit" => HubCommand::PonderHit,
        "ping" => HubCommand::Ping,
        "quit" => HubCommand::Quit,
        "set-param" | "pos" | "level" | "go" => {
            let args = parse_args(rest).map_err(|error| CommandError::Syntax {
                command: word.to_string(),
                error,
            })?;
            match word {
                "set-param" => parse_set_param(&args)?,
                "pos" => parse_pos(&args)?,
                "level" => HubCommand::Level(parse_level(&args)?),
                _ => parse_go(&args)?,
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(command))
}

fn parse_set_param(args: &[Arg]) -> Result<HubCommand, CommandError> {
    match (value(args, "name"), value(args, "value")) {
        (Some(name), Some(v)) if !name.is_empty() => Ok(HubCommand::SetParam {
            name: name.to_string(),
            value: v.to_string(),
        }),
        _ => Err(CommandError::Missing {
            command: "set-param",
            usage: "set-param name=<parameter> value=<value>",
        }),
    }
}

fn parse_pos(args: &[Arg]) -> Result<HubCommand, CommandError> {
    let position =
        value(args, "pos")
            .filter(|p| !p.trim().is_empty())
            .ok_or(CommandError::Missing {
                command: "pos",
                usage: "pos pos=<position> [moves=<moves, space-separated, quoted>]",
            })?;
    let moves = value(args, "moves")
        .map(|m| m.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    Ok(HubCommand::Pos {
        position: position.to_string(),
        moves,
    })
}

fn parse_go(args: &[Arg]) -> Result<HubCommand, CommandError> {
    let modes: Vec<GoMode> = args
        .iter()
        .filter_map(|a| match a.name.as_str() {
            "think" => Some(GoMode::Think),
            "ponder" => Some(GoMode::Ponder),
            "analyze" => Some(GoMode::Analyze),
            _ => None,
        })
        .collect();
    match modes.as_slice() {
        [mode] => Ok(HubCommand::Go(*mode)),
        [] => Err(CommandError::Missing {
            command: "go",
            usage: "go think|ponder|analyze",
        }),
        _ => Err(CommandError::BadValue {
            command: "go",
            arg: "mode",
            value: args
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            why: "give exactly one of think, ponder, analyze",
        }),
    }
}

fn parse_level(args: &[Arg]) -> Result<LevelUpdate, CommandError> {
    let mut level = LevelUpdate::default();
    let mut named = false;
    for arg in args {
        let text = arg.value.as_deref();
        let name = arg.name.as_str();
        match name {
            "depth" => level.depth = Some(whole("depth", text, true)?),
            "nodes" => level.nodes = Some(whole("nodes", text, true)?),
            "moves" => level.moves = Some(whole("moves", text, false)?),
            "move-time" => level.move_time = Some(seconds("move-time", text)?),
            "time" => level.time = Some(seconds("time", text)?),
            "inc" => level.inc = Some(seconds("inc", text)?),
            "infinite" => {
                level.infinite = Some(match text {
                    None | Some("true") => true,
                    Some("false") => false,
                    Some(other) => {
                        return Err(CommandError::BadValue {
                            command: "level",
                            arg: "infinite",
                            value: other.to_string(),
                            why: "give 'infinite' alone, or true or false",
                        })
                    }
                })
            }
            _ => continue,
        }
        named = true;
    }
    if !named {
        return Err(CommandError::Missing {
            command: "level",
            usage: "level depth=<d> | nodes=<n> | move-time=<s> | [moves=<n>] time=<s> [inc=<s>] | infinite",
        });
    }
    Ok(level)
}

/// Reads a whole number for `level`; with `positive`, 0 is refused.
fn whole<T>(arg: &'static str, text: Option<&str>, positive: bool) -> Result<T, CommandError>
where
    T: std::str::FromStr + PartialEq + Default,
{
    let bad = |value: &str, why| CommandError::BadValue {
        command: "level",
        arg,
        value: value.to_string(),
        why,
    };
    let text = text.ok_or_else(|| bad("", "a value is needed"))?;
    if text.trim_start().starts_with('-') {
        return Err(bad(text, "it must not be negative"));
    }
    let n: T = text
        .trim()
        .parse()
        .map_err(|_| bad(text, "expected a whole number"))?;
    if positive && n == T::default() {
        return Err(bad(text, "it must be at least 1"));
    }
    Ok(n)
}

/// Reads a time in seconds for `level`: a finite number, not negative;
/// values above `MAX_SECONDS` count as `MAX_SECONDS`.
fn seconds(arg: &'static str, text: Option<&str>) -> Result<Duration, CommandError> {
    let bad = |value: &str, why| CommandError::BadValue {
        command: "level",
        arg,
        value: value.to_string(),
        why,
    };
    let text = text.ok_or_else(|| bad("", "a value is needed"))?;
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| bad(text, "expected a number of seconds"))?;
    if !secs.is_finite() {
        return Err(bad(text, "expected a finite number of seconds"));
    }
    if secs < 0.0 {
        return Err(bad(text, "a time must not be negative"));
    }
    Ok(Duration::from_secs_f64(secs.min(MAX_SECONDS)))
}

/// The search limits that `level` lines have set so far.
///
/// The limits are of five kinds: `depth`, `nodes`, `move-time`, the clock
/// (`moves`, `time`, `inc`) and `infinite`. A line sets the kinds it names
/// and clears the kinds it does not name, so each line says what the next
/// searches obey (pydraughts sends one complete line per search). Within
/// the clock, a line may name only some fields: the others keep their last
/// values (`level moves=40 time=300 inc=2`, then `level time=251.5`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelState {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<Duration>,
    moves: Option<u32>,
    time: Option<Duration>,
    inc: Duration,
    infinite: bool,
}

impl LevelState {
    /// Applies one `level` line.
    pub fn apply(&mut self, update: &LevelUpdate) {
        self.depth = update.depth;
        self.nodes = update.nodes;
        self.move_time = update.move_time;
        self.infinite = update.infinite.unwrap_or(false);
        if update.time.is_none() && update.moves.is_none() && update.inc.is_none() {
            self.time = None;
            self.moves = None;
            self.inc = Duration::ZERO;
            return;
        }
        if update.time.is_some() {
            self.time = update.time;
        }
        if let Some(moves) = update.moves {
            self.moves = (moves > 0).then_some(moves);
        }
        if let Some(inc) = update.inc {
            self.inc = inc;
        }
    }

    /// The limits of a search in `mode`. The Hub clock gets this move's
    /// increment before the move, so the time available now is
    /// `time + inc`. With no limit at all, `go analyze` runs until `stop`
    /// and the other modes think for `DEFAULT_MOVE_TIME`.
    pub fn limits(&self, mode: GoMode) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            move_time: self.move_time,
            time: self.time.map(|t| t.saturating_add(self.inc)),
            inc: self.inc,
            moves_to_go: self.moves,
            infinite: self.infinite,
        };
        if !limits.is_bounded() && !limits.infinite {
            match mode {
                GoMode::Analyze => limits.infinite = true,
                GoMode::Think | GoMode::Ponder => limits.move_time = Some(DEFAULT_MOVE_TIME),
            }
        }
        limits
    }
}

/// Makes `text` safe to print inside a value: control characters and
/// whitespace other than a plain space (tabs, Unicode line separators)
/// become spaces, `"` becomes `'`, and long text is cut.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_ECHO + 3));
    for (i, c) in text.chars().enumerate() {
        if i == MAX_ECHO {
            out.push_str("...");
            break;
        }
        out.push(match c {
            '"' => '\'',
            c if c.is_control() || c.is_whitespace() => ' ',
            c => c,
        });
    }
    out
}

/// Appends ` name=value` to `line`, quoting the value when needed.
fn push_arg(line: &mut String, name: &str, value: &str) {
    let value = clean(value);
    line.push(' ');
    line.push_str(name);
    line.push('=');
    if value.is_empty() || value.chars().any(|c| c.is_whitespace() || c == '=') {
        line.push('"');
        line.push_str(&value);
        line.push('"');
    } else {
        line.push_str(&value);
    }
}

/// `id name=... version=... author="..."`.
pub fn format_id(name: &str, version: &str, author: &str) -> String {
    let mut line = String::from("id");
    push_arg(&mut line, "name", name);
    push_arg(&mut line, "version", version);
    push_arg(&mut line, "author", author);
    line
}

/// `param name=... value=... type=...` with `min`/`max` or `values`.
pub fn format_param(param: &Param) -> String {
    let mut line = String::from("param");
    push_arg(&mut line, "name", &param.name);
    push_arg(&mut line, "value", &param.value);
    match &param.kind {
        ParamKind::Bool => push_arg(&mut line, "type", "bool"),
        ParamKind::Int { min, max } => {
            push_arg(&mut line, "type", "int");
            push_arg(&mut line, "min", &min.to_string());
            push_arg(&mut line, "max", &max.to_string());
        }
        ParamKind::String => push_arg(&mut line, "type", "string"),
        ParamKind::Enum(values) => {
            push_arg(&mut line, "type", "enum");
            push_arg(&mut line, "values", &values.join(" "));
        }
    }
    line
}

/// `info depth=... seldepth=... score=... nodes=... time=... nps=...
/// hashfull=... [multipv=k] [book=true] pv="..."`: score in men, time in
/// seconds, nps in millions of nodes per second.
pub fn format_info(info: &SearchInfo) -> String {
    let mut line = String::from("info");
    push_arg(&mut line, "depth", &info.depth.to_string());
    push_arg(&mut line, "seldepth", &info.seldepth.to_string());
    push_arg(&mut line, "score", &format!("{:.2}", info.score.men()));
    push_arg(&mut line, "nodes", &info.nodes.to_string());
    push_arg(
        &mut line,
        "time",
        &format!("{:.3}", info.time.as_secs_f64()),
    );
    push_arg(&mut line, "nps", &format!("{:.2}", info.mnps()));
    push_arg(&mut line, "hashfull", &info.hashfull.to_string());
    if let Some(k) = info.multipv {
        push_arg(&mut line, "multipv", &k.to_string());
    }
    if info.book {
        push_arg(&mut line, "book", "true");
    }
    let pv: Vec<String> = info.pv.iter().map(MoveSquares::to_string).collect();
    push_arg(&mut line, "pv", &pv.join(" "));
    line
}

/// `done move=<best> [ponder=<reply>]`, `move=` first. A search always has
/// a move (`go` refuses positions without one), so a bare `done` is only a
/// last resort that still ends the search for the GUI.
pub fn format_done(best: Option<&MoveSquares>, ponder: Option<&MoveSquares>) -> String {
    let mut line = String::from("done");
    if let Some(best) = best {
        push_arg(&mut line, "move", &best.to_string());
        if let Some(ponder) = ponder {
            push_arg(&mut line, "ponder", &ponder.to_string());
        }
    }
    line
}

/// `error message="..."`.
pub fn format_error(message: &str) -> String {
    let mut line = String::from("error");
    push_arg(&mut line, "message", message);
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Score;

    fn arg(name: &str, value: Option<&str>) -> Arg {
        Arg {
            name: name.to_string(),
            value: value.map(str::to_string),
        }
    }

    const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

    #[test]
    fn the_spec_info_line_splits_into_its_arguments() {
        let line = "info depth=21 mean-depth=20.8 score=-0.01 nodes=31261613 time=3.906 nps=8.0 pv=\"32-28 17-22 ...\"";
        let (word, rest) = split_command(line).unwrap();
        assert_eq!(word, "info");
        let args = parse_args(rest).unwrap();
        assert_eq!(args.len(), 7);
        assert_eq!(args[1], arg("mean-depth", Some("20.8")));
        assert_eq!(args[6], arg("pv", Some("32-28 17-22 ...")));
    }

    #[test]
    fn flags_quotes_and_extra_spaces() {
        let args = parse_args("  think   a=\"x = y\"  b=  c=\"\" ").unwrap();
        assert_eq!(
            args,
            vec![
                arg("think", None),
                arg("a", Some("x = y")),
                arg("b", Some("")),
                arg("c", Some("")),
            ]
        );
    }

    #[test]
    fn malformed_arguments_are_errors() {
        assert_eq!(
            parse_args("moves=\"32-28"),
            Err(SyntaxError::UnterminatedQuote("moves".to_string()))
        );
        assert_eq!(parse_args("=x"), Err(SyntaxError::MissingName));
        assert_eq!(
            parse_args("a=\"b\"c"),
            Err(SyntaxError::TextAfterQuote("a".to_string()))
        );
    }

    #[test]
    fn the_spec_commands_parse() {
        let p = |l: &str| parse_command(l).unwrap().unwrap();
        assert_eq!(p("hub"), HubCommand::Hub);
        assert_eq!(p("init"), HubCommand::Init);
        assert_eq!(p("ping"), HubCommand::Ping);
        assert_eq!(p("stop"), HubCommand::Stop);
        assert_eq!(p("ponder-hit"), HubCommand::PonderHit);
        assert_eq!(p("new-game"), HubCommand::NewGame);
        assert_eq!(p("quit"), HubCommand::Quit);
        assert_eq!(
            p("set-param name=variant value=brazilian"),
            HubCommand::SetParam {
                name: "variant".to_string(),
                value: "brazilian".to_string()
            }
        );
        assert_eq!(
            p(&format!("pos pos={START} moves=\"32-28 19-23 28x19x23\"")),
            HubCommand::Pos {
                position: START.to_string(),
                moves: vec!["32-28".into(), "19-23".into(), "28x19x23".into()],
            }
        );
        assert_eq!(
            p(&format!("pos pos={START}")),
            HubCommand::Pos {
                position: START.to_string(),
                moves: vec![],
            }
        );
        assert_eq!(p("go think"), HubCommand::Go(GoMode::Think));
        assert_eq!(p("go ponder"), HubCommand::Go(GoMode::Ponder));
        assert_eq!(p("go analyze"), HubCommand::Go(GoMode::Analyze));
        assert_eq!(
            p("level moves=40 time=300 inc=2"),
            HubCommand::Level(LevelUpdate {
                moves: Some(40),
                time: Some(Duration::from_secs(300)),
                inc: Some(Duration::from_secs(2)),
                ..LevelUpdate::default()
            })
        );
        assert_eq!(
            p("level move-time=0.1"),
            HubCommand::Level(LevelUpdate {
                move_time: Some(Duration::from_millis(100)),
                ..LevelUpdate::default()
            })
        );
        assert_eq!(
            p("level infinite"),
            HubCommand::Level(LevelUpdate {
                infinite: Some(true),
                ..LevelUpdate::default()
            })
        );
    }

    #[test]
    fn unknown_commands_and_arguments_are_ignored() {
        assert_eq!(parse_command("frobnicate a=\"b"), Ok(None));
        assert_eq!(parse_command("   "), Ok(None));
        assert_eq!(
            parse_command("go think colour=blue").unwrap(),
            Some(HubCommand::Go(GoMode::Think))
        );
    }

    #[test]
    fn malformed_known_commands_are_errors() {
        for line in [
            "go",
            "go think ponder",
            "pos",
            "pos moves=\"32-28\"",
            "pos pos=\"\"",
            "set-param name=hash",
            "set-param value=3",
            "level",
            "level time=-1",
            "level move-time=abc",
            "level depth=0",
            "level depth=-3",
            "level nodes=1.5",
            "level time=inf",
            "level inc=NaN",
            "level infinite=maybe",
            "pos pos=\"W",
        ] {
            assert!(parse_command(line).is_err(), "{line} should be refused");
        }
        let e = parse_command("level time=-1").unwrap_err().to_string();
        assert!(e.contains("negative"), "{e}");
    }

    #[test]
    fn each_level_line_sets_the_limits_and_the_clock_accumulates() {
        let mut level = LevelState::default();
        let up = |l: &str| match parse_command(l).unwrap().unwrap() {
            HubCommand::Level(u) => u,
            other => panic!("{other:?}"),
        };
        level.apply(&up("level moves=40 time=300"));
        level.apply(&up("level inc=2"));
        let l = level.limits(GoMode::Think);
        assert_eq!(l.moves_to_go, Some(40));
        assert_eq!(l.time, Some(Duration::from_secs(302)));
        assert_eq!(l.inc, Duration::from_secs(2));
        level.apply(&up("level time=250"));
        let l = level.limits(GoMode::Think);
        assert_eq!(
            (l.moves_to_go, l.time),
            (Some(40), Some(Duration::from_secs(252)))
        );
        level.apply(&up("level move-time=0.5"));
        let l = level.limits(GoMode::Think);
        assert_eq!(l.move_time, Some(Duration::from_millis(500)));
        assert_eq!((l.time, l.moves_to_go), (None, None));
        level.apply(&up("level depth=6"));
        let l = level.limits(GoMode::Think);
        assert_eq!((l.depth, l.move_time), (Some(6), None));
        level.apply(&up("level depth=8 move-time=2"));
        let l = level.limits(GoMode::Think);
        assert_eq!(
            (l.depth, l.move_time),
            (Some(8), Some(Duration::from_secs(2)))
        );
        level.apply(&up("level infinite"));
        let l = level.limits(GoMode::Analyze);
        assert!(l.infinite && l.depth.is_none());
        level.apply(&up("level time=60"));
        let l = level.limits(GoMode::Think);
        assert!(!l.infinite);
        assert_eq!((l.time, l.move_time), (Some(Duration::from_secs(60)), None));
    }

    #[test]
    fn no_level_means_a_default_think_and_an_endless_analysis() {
        let level = LevelState::default();
        assert_eq!(
            level.limits(GoMode::Think).move_time,
            Some(DEFAULT_MOVE_TIME)
        );
        assert!(level.limits(GoMode::Analyze).infinite);
    }

    #[test]
    fn huge_times_are_capped() {
        let Ok(Some(HubCommand::Level(u))) = parse_command("level time=1e300 inc=1e300") else {
            panic!("not a level")
        };
        let mut level = LevelState::default();
        level.apply(&u);
        let l = level.limits(GoMode::Think);
        assert!(l.time.unwrap() <= Duration::from_secs_f64(2.0 * MAX_SECONDS));
    }

    #[test]
    fn done_puts_the_move_first() {
        let m = |from, to, captured: Vec<u8>| MoveSquares { from, to, captured };
        assert_eq!(
            format_done(Some(&m(32, 28, vec![])), Some(&m(17, 22, vec![]))),
            "done move=32-28 ponder=17-22"
        );
        assert_eq!(
            format_done(Some(&m(28, 19, vec![23])), None),
            "done move=28x19x23"
        );
    }

    #[test]
    fn param_lines_have_no_bare_flags() {
        let line = format_param(&Param {
            name: "variant".to_string(),
            kind: ParamKind::Enum(vec!["normal".to_string(), "brazilian".to_string()]),
            value: "normal".to_string(),
            help: "ignored".to_string(),
        });
        assert_eq!(
            line,
            "param name=variant value=normal type=enum values=\"normal brazilian\""
        );
        let line = format_param(&Param {
            name: "hash".to_string(),
            kind: ParamKind::Int { min: 1, max: 1024 },
            value: "64".to_string(),
            help: String::new(),
        });
        assert_eq!(line, "param name=hash value=64 type=int min=1 max=1024");
        let line = format_param(&Param {
            name: "book-file".to_string(),
            kind: ParamKind::String,
            value: String::new(),
            help: String::new(),
        });
        assert_eq!(line, "param name=book-file value=\"\" type=string");
        for line in [line, format_id("tempo", "0.1.0", "the tempo developers")] {
            let (_, rest) = split_command(&line).unwrap();
            assert!(parse_args(rest).unwrap().iter().all(|a| a.value.is_some()));
        }
    }

    #[test]
    fn info_lines_carry_the_spec_fields() {
        let info = SearchInfo {
            depth: 12,
            seldepth: 20,
            score: Score::Centimen(-1),
            nodes: 4_000_000,
            time: Duration::from_millis(500),
            pv: vec![
                MoveSquares {
                    from: 32,
                    to: 28,
                    captured: vec![],
                },
                MoveSquares {
                    from: 17,
                    to: 22,
                    captured: vec![],
                },
            ],
            hashfull: 3,
            multipv: Some(2),
            book: false,
        };
        assert_eq!(
            format_info(&info),
            "info depth=12 seldepth=20 score=-0.01 nodes=4000000 time=0.500 nps=8.00 hashfull=3 multipv=2 pv=\"32-28 17-22\""
        );
    }

    #[test]
    fn echoed_text_cannot_break_a_line() {
        let line = format_error("bad \"x\"\n\r\tinjected=1\u{2028}");
        assert_eq!(line, "error message=\"bad 'x'   injected=1 \"");
        let long = format_error(&"y".repeat(5000));
        assert!(long.len() < MAX_ECHO + 40);
    }
}

//! Reading the commands a GUI sends into typed values.

use std::fmt;
use std::time::Duration;

use super::tokens::{parse_args, split_command, value_of, Arg, SyntaxError};
use super::MAX_SECONDS;
use crate::engine::GoMode;

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
    /// A bare word where the command takes only `name=value` arguments
    /// (moves not quoted: `moves=32-28 18-23`).
    Stray {
        /// The command word.
        command: &'static str,
        /// The word.
        word: String,
    },
    /// A command of this protocol written in capitals (`GO THINK`): the
    /// commands are lower case.
    Case {
        /// The command as written.
        written: String,
        /// The command meant.
        meant: &'static str,
    },
    /// A first word no protocol could have as a command (too long, or of
    /// other characters than letters, digits and `-`): garbage, said so
    /// rather than ignored as a command of a later protocol would be.
    NotACommand {
        /// The start of the word, as shown.
        start: String,
        /// Its length in characters.
        length: usize,
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
            CommandError::Stray { command, word } => write!(
                f,
                "{command}: '{word}' is not a name=value argument; quote a list of moves, \
                 moves=\"32-28 18-23\""
            ),
            CommandError::Case { written, meant } => write!(
                f,
                "unknown command '{written}': the commands are lower case, '{meant}'"
            ),
            CommandError::NotACommand { start, length } => write!(
                f,
                "'{start}' ({length} characters) is not a Hub command: a line starts with a \
                 command word such as hub, pos, level or go"
            ),
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

/// The longest word taken for a command of a later protocol.
const MAX_COMMAND_WORD: usize = 32;

/// Characters of a garbage first word shown in its error.
const SHOWN_WORD: usize = 16;

/// Whether `word` could be a command of some protocol: a letter, then at
/// most `MAX_COMMAND_WORD` letters, digits, `-` or `_` in all.
fn could_be_a_command(word: &str) -> bool {
    word.len() <= MAX_COMMAND_WORD
        && word.starts_with(|c: char| c.is_ascii_alphabetic())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// Reads one input line. `Ok(None)`: a blank line or a command this engine
/// does not know (both are ignored); a first word no protocol has (a line
/// of garbage) is an error.
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
        other => {
            // A command of this protocol in other letters is a mistake to
            // name; any other word is ignored (forward compatibility).
            return match KNOWN.iter().find(|known| known.eq_ignore_ascii_case(other)) {
                Some(meant) => Err(CommandError::Case {
                    written: other.to_string(),
                    meant,
                }),
                None if !could_be_a_command(other) => Err(CommandError::NotACommand {
                    start: other.chars().take(SHOWN_WORD).collect(),
                    length: other.chars().count(),
                }),
                None => Ok(None),
            };
        }
    };
    Ok(Some(command))
}

/// The command words this engine knows.
const KNOWN: [&str; 11] = [
    "hub",
    "init",
    "new-game",
    "stop",
    "ponder-hit",
    "ping",
    "quit",
    "set-param",
    "pos",
    "level",
    "go",
];

fn parse_set_param(args: &[Arg]) -> Result<HubCommand, CommandError> {
    match (value_of(args, "name"), value_of(args, "value")) {
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
    if let Some(stray) = args.iter().find(|a| a.value.is_none()) {
        return Err(CommandError::Stray {
            command: "pos",
            word: stray.name.clone(),
        });
    }
    let position = value_of(args, "pos")
        .filter(|p| !p.trim().is_empty())
        .ok_or(CommandError::Missing {
            command: "pos",
            usage: "pos pos=<position> [moves=<moves, space-separated, quoted>]",
        })?;
    let moves = value_of(args, "moves")
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
                        return Err(bad_level_value(
                            "infinite",
                            other,
                            "give 'infinite' alone, or true or false",
                        ))
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

/// The error for `value`, refused as the `arg` of `level` because of `why`.
fn bad_level_value(arg: &'static str, value: &str, why: &'static str) -> CommandError {
    CommandError::BadValue {
        command: "level",
        arg,
        value: value.to_string(),
        why,
    }
}

/// Reads a whole number for `level`; with `positive`, 0 is refused.
fn whole<T>(arg: &'static str, text: Option<&str>, positive: bool) -> Result<T, CommandError>
where
    T: std::str::FromStr + PartialEq + Default,
{
    let bad = |value: &str, why| bad_level_value(arg, value, why);
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
    let bad = |value: &str, why| bad_level_value(arg, value, why);
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

#[cfg(test)]
mod tests {
    use super::*;
    const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

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
    fn stray_words_in_pos_and_capitals_are_named() {
        let stray = parse_command("pos pos=W:W31-50:B1-20 moves=32-28 18-23").unwrap_err();
        assert!(
            stray.to_string().contains("'18-23' is not a name=value"),
            "{stray}"
        );
        let capitals = parse_command("GO THINK").unwrap_err();
        assert!(
            capitals.to_string().contains("lower case, 'go'"),
            "{capitals}"
        );
        assert!(parse_command("Set-Param name=hash value=8").is_err());
        assert_eq!(parse_command("help"), Ok(None));
    }

    #[test]
    fn a_line_of_garbage_is_an_error_not_a_later_command() {
        for line in [
            "x".repeat(1_000_000),
            "3228".into(),
            "{\"json\":1}".into(),
            "é".into(),
        ] {
            assert!(
                matches!(parse_command(&line), Err(CommandError::NotACommand { .. })),
                "{}",
                &line[..line.len().min(20)]
            );
        }
        let said = parse_command(&"x".repeat(1000)).unwrap_err().to_string();
        assert!(said.contains("(1000 characters)"), "{said}");
        assert!(said.len() < 200, "{said}");
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
}

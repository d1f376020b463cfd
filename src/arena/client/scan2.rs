//! Scan 2.0's first Hub protocol, as the referee speaks it.
//!
//! Scan 2.0 (2016) answers `hub` with `name`, `author`, `country` and
//! `wait`, where Hub v2 engines answer `id` and `param` lines. Its commands
//! take bare words: `set NAME VALUE`, `init` (answered `ready`), `new`,
//! `pos` with a 51-character position whose side letter is lower case,
//! `move M` for each move played since, `time MS` (a fixed time a move),
//! `level MOVES MS INC_MS` (a clock), `depth D`, then `go`, answered by
//! `info DEPTH PLY SCORE NODES TIME SPEED PV...` lines (the score in
//! hundredths of a man) and `move M [PONDER]`. `pos` resets the time and the
//! depth, so they follow it. Scan 2.0 plays International draughts only,
//! with the PDN numbering, and has no node limit.

use std::time::Duration;

use crate::protocol::hub::LevelUpdate;

/// What the engine said in a line, as the referee needs it.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A search line with its score in men for the side to move.
    Score(f64),
    /// The move chosen.
    Move(String),
    /// The engine refused a command.
    Error,
    /// Anything else.
    Other,
}

/// The `pos` argument for a position given as a Hub v2 string (upper-case
/// side letter): the same squares with the side letter in lower case.
pub fn position(hub2: &str) -> String {
    let mut chars = hub2.chars();
    let side = chars.next().map(|c| c.to_ascii_lowercase());
    side.into_iter().chain(chars).collect()
}

/// The command that sets `level` for the next search, or why this
/// protocol cannot say it.
pub fn level_line(level: &LevelUpdate) -> Result<String, String> {
    let ms = |t: Duration| t.as_millis();
    if let Some(t) = level.move_time {
        return Ok(format!("time {}", ms(t)));
    }
    if let Some(t) = level.time {
        return Ok(format!(
            "level {} {} {}",
            level.moves.unwrap_or(0),
            ms(t),
            ms(level.inc.unwrap_or_default())
        ));
    }
    if let Some(depth) = level.depth {
        return Ok(format!("depth {depth}"));
    }
    if level.nodes.is_some() {
        return Err(
            "Scan's first Hub protocol has no node limit: give --tc, --movetime or --depth"
                .to_string(),
        );
    }
    Err("no time, move time or depth to send".to_string())
}

/// Reads one line of the engine's answer to `go`.
pub fn reply(line: &str) -> Reply {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("move") => match words.next() {
            Some(mv) => Reply::Move(mv.to_string()),
            None => Reply::Other,
        },
        // info DEPTH PLY SCORE ...
        Some("info") => match words.nth(2).and_then(|s| s.parse::<i32>().ok()) {
            Some(score) => Reply::Score(f64::from(score) / 100.0),
            None => Reply::Other,
        },
        Some("error") => Reply::Error,
        _ => Reply::Other,
    }
}

/// The `set` line for a parameter: Scan reads a bare word as its value.
pub fn set_line(name: &str, value: &str) -> Result<String, String> {
    if name.is_empty() || name.contains(char::is_whitespace) || value.contains(char::is_whitespace)
    {
        return Err(format!(
            "'{name}={value}': Scan's first Hub protocol takes a name and a value without spaces"
        ));
    }
    Ok(format!("set {name} {value}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_take_a_lower_case_side_letter() {
        let squares = format!("{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        assert_eq!(position(&format!("W{squares}")), format!("w{squares}"));
        assert_eq!(position("BeeWe"), "beeWe");
    }

    #[test]
    fn each_control_becomes_its_command() {
        let move_time = LevelUpdate {
            move_time: Some(Duration::from_millis(200)),
            ..LevelUpdate::default()
        };
        assert_eq!(level_line(&move_time).unwrap(), "time 200");
        let clock = LevelUpdate {
            time: Some(Duration::from_secs_f64(9.85)),
            inc: Some(Duration::from_millis(100)),
            ..LevelUpdate::default()
        };
        assert_eq!(level_line(&clock).unwrap(), "level 0 9850 100");
        let period = LevelUpdate {
            moves: Some(40),
            time: Some(Duration::from_secs(60)),
            ..LevelUpdate::default()
        };
        assert_eq!(level_line(&period).unwrap(), "level 40 60000 0");
        let depth = LevelUpdate {
            depth: Some(7),
            ..LevelUpdate::default()
        };
        assert_eq!(level_line(&depth).unwrap(), "depth 7");
        let nodes = LevelUpdate {
            nodes: Some(1000),
            ..LevelUpdate::default()
        };
        assert!(level_line(&nodes).unwrap_err().contains("no node limit"));
    }

    #[test]
    fn replies_give_the_score_in_men_and_the_move_without_its_ponder_move() {
        assert_eq!(
            reply("info 12 14.3 -37 123456 0.19 0.6 32-28 19-23"),
            Reply::Score(-0.37)
        );
        assert_eq!(reply("move 32x23x28 19x28"), Reply::Move("32x23x28".into()));
        assert_eq!(reply("move 33-28"), Reply::Move("33-28".into()));
        assert_eq!(reply("error illegal move"), Reply::Error);
        assert_eq!(reply("init eval"), Reply::Other);
        assert_eq!(reply("info"), Reply::Other);
        assert_eq!(reply("move"), Reply::Other);
    }

    #[test]
    fn parameters_are_bare_words() {
        assert_eq!(set_line("book", "false").unwrap(), "set book false");
        assert!(set_line("book", "a b").is_err());
        assert!(set_line("", "1").is_err());
    }
}

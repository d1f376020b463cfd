//! Writing analysis records: one JSON object per line for programs, or a
//! short block of text for people.
//!
//! JSON object of a position (keys always present unless marked):
//!
//! ```text
//! {"variant":"international","source":"line","line":3,"fen":"W:W31,...:B1,...",
//!  "side":"white","depth":10,"score":0.35,"mate":null,"best":"32-28",
//!  "pv":["32-28","19-23"],"nodes":123456,"time":0.125,
//!  "lines":[{"move":"32-28","score":0.35,"mate":null,"pv":["32-28","19-23"]}]}
//! ```
//!
//! - `source` is `fen` (the `--fen` argument; `line` is then null), `line`
//!   (a positions file) or `game` (a PDN file; `line` is where the game
//!   starts, and the keys `game`, `ply`, `played`, `played_score`,
//!   `played_mate` and `loss` follow `time`; the last position of a game has
//!   them null but `game` and `ply`).
//! - Scores are in men from the side to move's view, two decimals; a forced
//!   win in `n` plies is `1000 - n/100` (a loss the negative) and `mate` is
//!   then `n` (`-n` for a loss), else null.
//! - `best` is null and `pv`, `lines` are empty when no move is legal.
//! - Moves are in Hub notation: `32-28`, captures `from x to x captured...`.
//! - `time` is in seconds; `loss` in men, never negative.
//!
//! Every string is escaped, so each record is exactly one line.

use std::fmt::Write as _;

use super::{centimen, mate_plies, Record, Source};

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// JSON Lines: one object per position.
    Json,
    /// Text for people.
    Text,
}

/// A record in `format`, ending with a newline.
pub fn render(record: &Record, format: Format) -> String {
    match format {
        Format::Json => json(record),
        Format::Text => text(record),
    }
}

/// A JSON string literal of `s`.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Hundredths as a decimal number with two places: `-5` → `-0.05`.
fn hundredths(value: i64) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let abs = value.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// A search score in men, as JSON or text.
fn men(score: i32) -> String {
    hundredths(centimen(score))
}

/// An optional number, or `null`.
fn or_null<T: ToString>(value: Option<T>) -> String {
    value.map_or_else(|| "null".to_string(), |v| v.to_string())
}

/// A JSON array of strings.
fn list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| quote(s)).collect();
    format!("[{}]", quoted.join(","))
}

/// The record as one JSON line.
fn json(r: &Record) -> String {
    let (source, line) = match r.source {
        Source::Argument => ("fen", None),
        Source::Line(line) => ("line", Some(line)),
        Source::Game { line, .. } => ("game", Some(line)),
    };
    let mut out = String::with_capacity(512);
    let _ = write!(
        out,
        "{{\"variant\":{},\"source\":{},\"line\":{},\"fen\":{},\"side\":{},\"depth\":{},\"score\":{},\"mate\":{},\"best\":{},\"pv\":{},\"nodes\":{},\"time\":{:.3}",
        quote(r.variant.name()),
        quote(source),
        or_null(line),
        quote(&r.fen),
        quote(&r.side.to_string()),
        r.depth,
        men(r.score),
        or_null(mate_plies(r.score)),
        r.best().map_or_else(|| "null".to_string(), quote),
        list(&r.pv),
        r.nodes,
        r.time.as_secs_f64(),
    );
    if let Source::Game { index, .. } = r.source {
        let played = r.played.as_ref();
        let _ = write!(
            out,
            ",\"game\":{index},\"ply\":{},\"played\":{},\"played_score\":{},\"played_mate\":{},\"loss\":{}",
            r.ply,
            played.map_or_else(|| "null".to_string(), |p| quote(&p.mv)),
            or_null(played.map(|p| men(p.score))),
            or_null(played.and_then(|p| mate_plies(p.score))),
            or_null(played.map(|p| hundredths(p.loss))),
        );
    }
    let lines: Vec<String> = r
        .lines
        .iter()
        .map(|l| {
            format!(
                "{{\"move\":{},\"score\":{},\"mate\":{},\"pv\":{}}}",
                l.pv.first()
                    .map_or_else(|| "null".to_string(), |m| quote(m)),
                men(l.score),
                or_null(mate_plies(l.score)),
                list(&l.pv)
            )
        })
        .collect();
    let _ = writeln!(out, ",\"lines\":[{}]}}", lines.join(","));
    out
}

/// A score for people: sign always shown, `win in 3` for a forced win.
fn score_text(score: i32) -> String {
    match mate_plies(score) {
        Some(p) if p > 0 => format!("win in {p}"),
        Some(p) => format!("loss in {}", -p),
        None => {
            let c = centimen(score);
            let sign = if c >= 0 { "+" } else { "" };
            format!("{sign}{}", hundredths(c))
        }
    }
}

/// The record as a few lines of text.
fn text(r: &Record) -> String {
    let mut out = String::new();
    let place = match r.source {
        Source::Argument => String::new(),
        Source::Line(line) => format!("line {line}: "),
        Source::Game { index, line } => format!("game {index} (line {line}) ply {}: ", r.ply),
    };
    let _ = writeln!(out, "{place}{} ({} to move)", r.fen, r.side);
    let _ = writeln!(
        out,
        "  depth {} score {} best {} nodes {} time {:.3}s",
        r.depth,
        score_text(r.score),
        r.best().unwrap_or("none"),
        r.nodes,
        r.time.as_secs_f64()
    );
    if r.lines.len() > 1 {
        for (i, l) in r.lines.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {}. {} {}",
                i + 1,
                score_text(l.score),
                l.pv.join(" ")
            );
        }
    } else if !r.pv.is_empty() {
        let _ = writeln!(out, "  pv {}", r.pv.join(" "));
    }
    if let Some(p) = &r.played {
        let _ = writeln!(
            out,
            "  played {} score {} loss {}",
            p.mv,
            score_text(p.score),
            hundredths(p.loss)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(quote("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
    }

    #[test]
    fn hundredths_keep_their_sign() {
        assert_eq!(hundredths(-5), "-0.05");
        assert_eq!(hundredths(0), "0.00");
        assert_eq!(hundredths(1234), "12.34");
        assert_eq!(hundredths(-100_000), "-1000.00");
    }
}

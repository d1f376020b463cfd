//! Writing what an analysis reports: one JSON object per position for
//! programs, or text for people, which also shows each depth as the search
//! completes it.
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

use super::{centimen, mate_plies, Deepening, Event, Record, Source};

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// JSON Lines: one object per position.
    Json,
    /// Text for people.
    Text,
}

/// An event in `format`, each line ending with a newline; empty for the
/// events the format leaves out (JSON Lines has only the records).
pub fn render(event: &Event, format: Format) -> String {
    match (event, format) {
        (Event::Done(record), Format::Json) => json(record),
        (_, Format::Json) => String::new(),
        (
            Event::Start {
                source,
                ply,
                fen,
                side,
            },
            Format::Text,
        ) => {
            let place = match *source {
                Source::Argument => String::new(),
                Source::Line(line) => format!("line {line}: "),
                Source::Game { index, line } => format!("game {index} (line {line}) ply {ply}: "),
            };
            format!("{place}{} ({side} to move)\n", compact_fen(fen))
        }
        (Event::Depth(deepening), Format::Text) => depth_text(deepening),
        (Event::Done(record), Format::Text) => text(record),
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

/// The widest a line of text gets, a terminal's usual width.
const TEXT_WIDTH: usize = 80;

/// A completed depth as one line of text no wider than `TEXT_WIDTH`:
/// depth, score, time, speed and as much of the line as fits.
fn depth_text(d: &Deepening) -> String {
    let seconds = d.time.as_secs_f64();
    let speed = if seconds > 0.0 {
        format!("{:5.2} M nodes/s", d.nodes as f64 / seconds / 1e6)
    } else {
        format!("{:>5} M nodes/s", "-")
    };
    let mut out = format!(
        "  depth {:>2}  {:>6}  {:7.3} s  {speed} ",
        d.depth,
        score_text(d.score),
        seconds
    );
    for (i, mv) in d.pv.iter().enumerate() {
        let last = i + 1 == d.pv.len();
        // Room for the move, and for " ..." if more moves follow.
        let room = if last { 1 + mv.len() } else { 5 + mv.len() };
        if out.len() + room > TEXT_WIDTH {
            out.push_str(" ...");
            break;
        }
        out.push(' ');
        out.push_str(mv);
    }
    out.push('\n');
    out
}

/// `head` and the moves after it, on as many lines of at most `TEXT_WIDTH`
/// as they need, the later lines indented.
fn wrapped(head: &str, moves: &[String]) -> String {
    let mut out = String::new();
    let mut line = head.to_string();
    for mv in moves {
        if line.len() + 1 + mv.len() > TEXT_WIDTH
            && line.trim_start().len() > head.trim_start().len()
        {
            out.push_str(&line);
            out.push('\n');
            line = " ".repeat(head.len());
        }
        line.push(' ');
        line.push_str(mv);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// A FEN with each run of three or more consecutive squares of the same
/// kind of piece written as a range (`W31-50`), as FEN readers accept it:
/// the start position fits on a line.
fn compact_fen(fen: &str) -> String {
    let sections: Vec<String> = fen
        .split(':')
        .map(|section| {
            let Some(colour) = section.get(..1).filter(|c| *c == "W" || *c == "B") else {
                return section.to_string();
            };
            let mut items: Vec<String> = Vec::new();
            let mut run: Vec<u32> = Vec::new();
            let flush = |run: &mut Vec<u32>, items: &mut Vec<String>| {
                match run.as_slice() {
                    [first, .., last] if run.len() >= 3 => items.push(format!("{first}-{last}")),
                    squares => items.extend(squares.iter().map(u32::to_string)),
                }
                run.clear();
            };
            for item in section[1..].split(',').filter(|i| !i.is_empty()) {
                match item.parse::<u32>() {
                    Ok(square) if run.last().is_none_or(|&last| last + 1 == square) => {
                        run.push(square)
                    }
                    Ok(square) => {
                        flush(&mut run, &mut items);
                        run.push(square);
                    }
                    Err(_) => {
                        flush(&mut run, &mut items);
                        items.push(item.to_string());
                    }
                }
            }
            flush(&mut run, &mut items);
            format!("{colour}{}", items.join(","))
        })
        .collect();
    sections.join(":")
}

/// The record's summary, under the lines of its depths: the best move and
/// line (each line of a multi-PV), and the played move's judgement.
fn text(r: &Record) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "  best {} score {} depth {} nodes {} time {:.3} s",
        r.best().unwrap_or("none"),
        score_text(r.score),
        r.depth,
        r.nodes,
        r.time.as_secs_f64()
    );
    if r.lines.len() > 1 {
        for (i, l) in r.lines.iter().enumerate() {
            let head = format!("  {}. {}", i + 1, score_text(l.score));
            out.push_str(&wrapped(&head, &l.pv));
        }
    } else if !r.pv.is_empty() {
        out.push_str(&wrapped("  pv", &r.pv));
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
    fn runs_of_squares_become_ranges() {
        let start = "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20";
        assert_eq!(compact_fen(start), "W:W31-50:B1-20");
        assert_eq!(
            compact_fen("B:W28,29,K30,31,32,33:B1,3"),
            "B:W28,29,K30,31-33:B1,3"
        );
        assert_eq!(compact_fen("W:W28:B"), "W:W28:B");
    }

    #[test]
    fn long_lines_are_wrapped_and_indented() {
        let moves: Vec<String> = (0..20).map(|_| "32x23x28".to_string()).collect();
        let text = wrapped("  pv", &moves);
        assert!(text.lines().count() > 1);
        for line in text.lines() {
            assert!(line.len() <= TEXT_WIDTH, "{line}");
        }
        assert!(text
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("     32x23x28")));
        let one = deepening_line();
        assert!(
            one.len() <= TEXT_WIDTH + 1 && one.ends_with(" ...\n"),
            "{one}"
        );
    }

    /// A completed depth with a line too long for one row of text.
    fn deepening_line() -> String {
        depth_text(&Deepening {
            depth: 20,
            score: 5,
            nodes: 1_000_000,
            time: std::time::Duration::from_millis(250),
            pv: (0..20).map(|_| "32-28".to_string()).collect(),
        })
    }

    #[test]
    fn hundredths_keep_their_sign() {
        assert_eq!(hundredths(-5), "-0.05");
        assert_eq!(hundredths(0), "0.00");
        assert_eq!(hundredths(1234), "12.34");
        assert_eq!(hundredths(-100_000), "-1000.00");
    }
}

//! A tiny Hub engine that plays a pseudo-random legal move: an opponent for
//! the match tests, and a short example of the library's rules API.
//!
//! It answers `hub`, `set-param name=variant`, `init`, `pos`, `go` and
//! `quit`; everything else is ignored. The seed comes from the first
//! argument (default 1), so its games are reproducible. It speaks the Hub
//! numbering of each variant (pydraughts', as `tempo hub` does by default),
//! translating with `protocol::hub::Wire`.
//!
//! With `--scan2` it speaks Scan 2.0's first Hub protocol instead
//! (International only: `name` lines, `pos` with a lower-case side letter,
//! `move`, `go` answered by `info` and `move`) and, as Scan does, reads its
//! settings from `scan.ini` in its working directory (its `seed = N` line),
//! refusing to start without one.

use std::io::{BufRead, Write};

use tempo::protocol::hub::{Numbering, Wire};
use tempo::rules::notation::{format_move, parse_move, parse_position};
use tempo::rules::{MoveStyle, Rules, VariantKind};

/// The value of `key=` in a Hub line, quotes removed.
fn value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let start = line.find(&format!("{key}="))? + key.len() + 1;
    let rest = &line[start..];
    match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next(),
        None => rest.split_whitespace().next(),
    }
}

/// A random legal move of the position `pos` + `moves`, in Hub form; all
/// three in the Hub numbering of `R`.
fn choose<R: Rules>(pos: &str, moves: &str, seed: &mut u64) -> Option<String> {
    let wire = Wire::new(R::KIND, Numbering::default());
    let mut p = parse_position::<R>(&wire.position(pos)).ok()?;
    for text in moves.split_whitespace() {
        p = p.play(parse_move(&p, &wire.move_text(text)).ok()?);
    }
    let legal = p.legal_moves();
    if legal.is_empty() {
        return None;
    }
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mv = legal.as_slice()[(*seed >> 33) as usize % legal.len()];
    Some(wire.move_text(&format_move::<R>(mv, MoveStyle::Hub)))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seed: u64 = args.iter().find_map(|s| s.parse().ok()).unwrap_or(1);
    if args.iter().any(|a| a == "--scan2") {
        scan2(seed);
        return;
    }
    let mut variant = VariantKind::International;
    let (mut pos, mut moves) = (String::new(), String::new());
    serve(|line| match line.split_whitespace().next() {
        Some("hub") => Some("id name=random-mover version=1\nwait".to_string()),
        Some("set-param") if value(line, "name") == Some("variant") => {
            variant = value(line, "value")
                .and_then(VariantKind::parse)
                .unwrap_or(variant);
            None
        }
        Some("init") => Some("ready".to_string()),
        Some("pos") => {
            pos = value(line, "pos").unwrap_or_default().to_string();
            moves = value(line, "moves").unwrap_or_default().to_string();
            None
        }
        Some("go") => {
            let mv = tempo::rules::with_rules!(variant, R => choose::<R>(&pos, &moves, &mut seed));
            Some(match mv {
                Some(mv) => format!("done move={mv}"),
                None => "error message=\"no legal move\"".to_string(),
            })
        }
        _ => None,
    });
}

/// Answers each line of standard input with what `answer` makes of it
/// (nothing for `None`), until `quit`, the end of the input or an output
/// that cannot be written.
fn serve(mut answer: impl FnMut(&str) -> Option<String>) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.split_whitespace().next() == Some("quit") {
            break;
        }
        if let Some(text) = answer(&line) {
            if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
                break;
            }
        }
    }
}

/// Plays in Scan 2.0's first Hub protocol, seeded from `scan.ini`.
fn scan2(mut seed: u64) {
    let ini = match std::fs::read_to_string("scan.ini") {
        Ok(text) => text,
        Err(e) => {
            eprintln!("random-mover: cannot read scan.ini in its working directory: {e}");
            std::process::exit(1);
        }
    };
    if let Some(n) = ini.lines().find_map(|l| {
        let (name, value) = l.split_once('=')?;
        (name.trim() == "seed").then(|| value.trim().parse().ok())?
    }) {
        seed = n;
    }
    println!("random-mover, speaking Scan 2.0's Hub protocol");
    let (mut pos, mut moves) = (String::new(), Vec::<String>::new());
    serve(|line| {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("hub") => Some("name random-mover\nauthor tempo's tests\nwait".to_string()),
            Some("init") => Some("ready".to_string()),
            Some("ping") => Some("pong".to_string()),
            Some("pos") => {
                pos = words.next().unwrap_or_default().to_string();
                moves.clear();
                None
            }
            Some("move") => {
                moves.push(words.next().unwrap_or_default().to_string());
                None
            }
            // The library reads a position string whatever the case of its
            // side letter.
            Some("go") => Some(
                match choose::<tempo::rules::International>(&pos, &moves.join(" "), &mut seed) {
                    Some(mv) => format!("info 1 1.0 -12 1 0.00 0.0 {mv}\nmove {mv}"),
                    None => "error no legal move".to_string(),
                },
            ),
            _ => None,
        }
    });
}

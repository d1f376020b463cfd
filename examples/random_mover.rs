//! A tiny Hub engine that plays a pseudo-random legal move: an opponent for
//! the match tests, and a short example of the library's rules API.
//!
//! It answers `hub`, `set-param name=variant`, `init`, `pos`, `go` and
//! `quit`; everything else is ignored. The seed comes from the first
//! argument (default 1), so its games are reproducible. It speaks the Hub
//! numbering of each variant (pydraughts', as `tempo hub` does by default),
//! translating with `protocol::hub::Wire`.

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
    let mut seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut variant = VariantKind::International;
    let (mut pos, mut moves) = (String::new(), String::new());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let reply = match line.split_whitespace().next() {
            Some("hub") => Some("id name=random-mover version=1\nwait".to_string()),
            Some("set-param") if value(&line, "name") == Some("variant") => {
                variant = value(&line, "value")
                    .and_then(VariantKind::parse)
                    .unwrap_or(variant);
                None
            }
            Some("init") => Some("ready".to_string()),
            Some("pos") => {
                pos = value(&line, "pos").unwrap_or_default().to_string();
                moves = value(&line, "moves").unwrap_or_default().to_string();
                None
            }
            Some("go") => {
                let mv =
                    tempo::rules::with_rules!(variant, R => choose::<R>(&pos, &moves, &mut seed));
                Some(match mv {
                    Some(mv) => format!("done move={mv}"),
                    None => "error message=\"no legal move\"".to_string(),
                })
            }
            Some("quit") => break,
            _ => None,
        };
        if let Some(text) = reply {
            if writeln!(out, "{text}").and_then(|_| out.flush()).is_err() {
                break;
            }
        }
    }
}

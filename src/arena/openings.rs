//! Opening sets for matches: start positions and move sequences, each played
//! twice with colours swapped.
//!
//! File format, one opening per line (blank lines and `#` comments skipped):
//! - moves from the initial position: `32-28 18-23`;
//! - a position (FEN or Hub position string): `W:W31-50:B1-20`;
//! - a position, `;`, then moves: `W:W28,32:B18,23 ; 28x19`.
//!
//! The built-in set is every opening of one move by each side, in move
//! generation order (81 for International, 49 for Brazilian).

use crate::rules::notation::{format_move, parse_move, parse_position, to_hub};
use crate::rules::{MoveStyle, Position, Rules};

/// A start position with moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position as a Hub position string.
    pub start: String,
    /// Moves from it, in Hub notation.
    pub moves: Vec<String>,
}

/// The built-in openings of variant `R`.
pub fn builtin<R: Rules>() -> Vec<Opening> {
    let start = Position::<R>::start();
    let mut out = Vec::new();
    for &first in start.legal_moves().iter() {
        let after = start.play(first);
        for &reply in after.legal_moves().iter() {
            out.push(Opening {
                start: to_hub(&start),
                moves: vec![
                    format_move::<R>(first, MoveStyle::Hub),
                    format_move::<R>(reply, MoveStyle::Hub),
                ],
            });
        }
    }
    out
}

/// Reads an opening file's text; an error names the line.
pub fn parse<R: Rules>(text: &str, file: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = |e: String| format!("{file}:{}: {e}", i + 1);
        let (position, moves) = match line.split_once(';') {
            Some((p, m)) => (Some(p.trim()), m.trim()),
            None => {
                let first = line.split_whitespace().next().unwrap_or("");
                if parse_position::<R>(first).is_ok() {
                    (Some(first), line[first.len()..].trim())
                } else {
                    (None, line)
                }
            }
        };
        let start = match position {
            Some(p) => parse_position::<R>(p).map_err(|e| at(e.to_string()))?,
            None => Position::<R>::start(),
        };
        let mut pos = start;
        let mut texts = Vec::new();
        for (k, text) in moves.split_whitespace().enumerate() {
            let mv =
                parse_move(&pos, text).map_err(|e| at(format!("move {} '{text}': {e}", k + 1)))?;
            texts.push(format_move::<R>(mv, MoveStyle::Hub));
            pos = pos.play(mv);
        }
        if pos.is_over() {
            return Err(at("the game is already over".to_string()));
        }
        out.push(Opening {
            start: to_hub(&start),
            moves: texts,
        });
    }
    if out.is_empty() {
        return Err(format!("{file}: no openings"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Brazilian, International};

    #[test]
    fn builtin_sets_hold_every_two_ply_opening() {
        assert_eq!(builtin::<International>().len(), 81);
        assert_eq!(builtin::<Brazilian>().len(), 49);
    }

    #[test]
    fn the_random_opening_set_reads_as_100_openings_of_six_plies() {
        let text = include_str!("../../tests/data/random-openings.txt");
        let set = parse::<International>(text, "random-openings.txt").unwrap();
        assert_eq!(set.len(), 100);
        assert!(set.iter().all(|o| o.moves.len() == 6));
    }

    #[test]
    fn files_mix_positions_and_moves_and_name_bad_lines() {
        let text = "# comment\n32-28 18-23\n\nW:W28,32:B18,23 ; 28x19\nW:W31-50:B1-20\n";
        let set = parse::<International>(text, "o.txt").unwrap();
        assert_eq!(set.len(), 3);
        assert_eq!(set[0].moves, ["32-28", "18-23"]);
        assert_eq!(set[1].moves, ["28x19x23"]);
        assert!(set[2].moves.is_empty());
        let err = parse::<International>("32-28\n32-29\n", "o.txt").unwrap_err();
        assert!(err.starts_with("o.txt:2:"), "{err}");
        assert!(parse::<International>("\n# nothing\n", "o.txt").is_err());
    }
}

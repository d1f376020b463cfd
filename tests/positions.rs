//! The tricky move-generation positions of the reference table
//! (`tests/data/positions.tsv`, its International and Brazilian rows).
//!
//! For every row: the number of legal moves; where the notes list the moves,
//! the legal moves as a set of (from, to, captured set), each listed short
//! form naming exactly one legal move; and where the notes give
//! "perft(1..4) dup-removed: a,b,c,d", perft at depths 1 to 4.

use std::collections::BTreeSet;

use tempo::rules::notation::{format_move, parse_fen, parse_move};
use tempo::rules::perft::perft;
use tempo::rules::{Brazilian, International, Move, MoveStyle, Position, Rules};

const DATA: &str = include_str!("data/positions.tsv");

struct Row<'a> {
    variant: &'a str,
    name: &'a str,
    fen: &'a str,
    legal: usize,
    notes: &'a str,
}

fn rows() -> Vec<Row<'static>> {
    DATA.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("variant\t") && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(f.len() >= 5, "short line: {l}");
            Row {
                variant: f[0],
                name: f[1],
                fen: f[2],
                legal: f[3].parse().expect("legal move count"),
                notes: f[4],
            }
        })
        .collect()
}

/// The part of the notes after `label`, up to the next `;`.
fn note<'a>(notes: &'a str, label: &str) -> Option<&'a str> {
    notes
        .split(';')
        .map(str::trim)
        .find_map(|part| part.strip_prefix(label))
        .map(str::trim)
}

/// A move as (from, to, captured squares) in standard numbers, read from its
/// Hub long form.
fn key_of<R: Rules>(mv: Move) -> (u32, u32, BTreeSet<u32>) {
    let text = format_move::<R>(mv, MoveStyle::Hub);
    let nums: Vec<u32> = text
        .split(['-', 'x'])
        .map(|n| n.parse().expect("number"))
        .collect();
    (nums[0], nums[1], nums[2..].iter().copied().collect())
}

/// Checks one row; returns a description of each disagreement.
fn check<R: Rules>(row: &Row) -> Vec<String> {
    let mut errors = Vec::new();
    let pos: Position<R> = match parse_fen(row.fen) {
        Ok(p) => p,
        Err(e) => return vec![format!("{}: FEN does not parse: {e}", row.name)],
    };
    let legal = pos.legal_moves();
    if legal.len() != row.legal {
        errors.push(format!(
            "{}: {} legal moves, expected {}",
            row.name,
            legal.len(),
            row.legal
        ));
    }
    if let Some(list) = note(row.notes, "moves:") {
        let engine: BTreeSet<_> = legal.iter().map(|&m| key_of::<R>(m)).collect();
        let mut listed = BTreeSet::new();
        for text in list.split_whitespace() {
            match parse_move(&pos, text) {
                Ok(mv) => {
                    listed.insert(key_of::<R>(mv));
                }
                Err(e) => errors.push(format!("{}: listed move {text}: {e}", row.name)),
            }
        }
        if engine != listed {
            errors.push(format!(
                "{}: legal moves {:?}, listed {:?}",
                row.name, engine, listed
            ));
        }
        if list.split_whitespace().count() != row.legal {
            errors.push(format!("{}: the notes list a different count", row.name));
        }
    }
    if let Some(counts) = note(row.notes, "perft(1..4) dup-removed:") {
        let expected: Vec<u64> = counts
            .split(',')
            .map(|n| n.trim().parse().expect("perft count"))
            .collect();
        assert_eq!(expected.len(), 4, "{}", row.name);
        let got: Vec<u64> = (1..=4).map(|d| perft(&pos, d)).collect();
        if got != expected {
            errors.push(format!(
                "{}: perft(1..4) {:?}, expected {:?}",
                row.name, got, expected
            ));
        }
    }
    errors
}

fn check_variant(variant: &str) -> usize {
    let mut errors = Vec::new();
    let mut checked = 0;
    for row in rows().iter().filter(|r| r.variant == variant) {
        errors.extend(match variant {
            "international" => check::<International>(row),
            "brazilian" => check::<Brazilian>(row),
            _ => unreachable!(),
        });
        checked += 1;
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    checked
}

#[test]
fn international_positions() {
    assert_eq!(check_variant("international"), 25);
}

#[test]
fn brazilian_positions() {
    assert_eq!(check_variant("brazilian"), 3);
}

#[test]
fn every_row_gives_perft_and_most_list_moves() {
    let rows = rows();
    assert!(rows
        .iter()
        .all(|r| note(r.notes, "perft(1..4) dup-removed:").is_some()));
    let with_moves = rows
        .iter()
        .filter(|r| note(r.notes, "moves:").is_some())
        .count();
    assert_eq!(with_moves, 19);
}

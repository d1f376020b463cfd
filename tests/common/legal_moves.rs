//! Positions from FENs and their legal moves as sets of Hub long-form
//! texts, for the tests that check the rules against moves worked out by
//! hand (`tests/rules_articles.rs`, `tests/rules_variants.rs`).

use std::collections::BTreeSet;

use tempo::rules::notation::{format_move, parse_fen, to_fen};
use tempo::rules::{MoveStyle, Position, Rules};

/// The position of `fen`; fails on a bad one.
pub fn pos<R: Rules>(fen: &str) -> Position<R> {
    parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves of a position in Hub long form; fails if the engine
/// lists one move twice.
pub fn moves_of<R: Rules>(p: &Position<R>) -> BTreeSet<String> {
    let list = p.legal_moves();
    let set: BTreeSet<String> = list
        .iter()
        .map(|&m| format_move::<R>(m, MoveStyle::Hub))
        .collect();
    assert_eq!(set.len(), list.len(), "a move is listed twice in {p:?}");
    set
}

/// Asserts the exact set of legal moves of `p`.
pub fn assert_moves_of<R: Rules>(p: &Position<R>, expected: &[&str]) {
    let want: BTreeSet<String> = expected.iter().map(|s| s.to_string()).collect();
    assert_eq!(want.len(), expected.len(), "expected list has a duplicate");
    assert_eq!(
        moves_of(p),
        want,
        "{} legal moves of {}\n{p}",
        R::NAME,
        to_fen(p)
    );
}

/// Asserts the exact set of legal moves of `fen`.
pub fn assert_moves<R: Rules>(fen: &str, expected: &[&str]) {
    assert_moves_of(&pos::<R>(fen), expected);
}

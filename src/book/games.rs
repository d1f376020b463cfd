//! Counting played games into a book: every move of a game's opening adds
//! to the weight of that move in its position.
//!
//! Weights: a move gains 2 when the side that played it won the game, 1 for
//! a draw or an unknown result, 0 when it lost (the move is still recorded,
//! so the book knows it was played). Scores and depths already in the book
//! are kept.

use super::{Book, BookMove, InsertError};
use crate::rules::{Move, Position, Rules, Side};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOutcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
    /// Not known (an unfinished game, or no result given).
    Unknown,
}

impl GameOutcome {
    /// The weight a move of `mover` gains from a game with this outcome.
    pub fn weight_for(self, mover: Side) -> u32 {
        match (self, mover) {
            (GameOutcome::WhiteWins, Side::White) | (GameOutcome::BlackWins, Side::Black) => 2,
            (GameOutcome::WhiteWins, Side::Black) | (GameOutcome::BlackWins, Side::White) => 0,
            (GameOutcome::Draw, _) | (GameOutcome::Unknown, _) => 1,
        }
    }
}

/// Counts the first `plies` moves of a game played from `start` into
/// `book`; returns how many moves were counted. The moves must be legal in
/// turn (an illegal one stops the count with an error; the moves before it
/// stay counted).
pub fn add_game<R: Rules>(
    book: &mut Book,
    start: &Position<R>,
    moves: &[Move],
    outcome: GameOutcome,
    plies: usize,
) -> Result<usize, InsertError> {
    let mut pos = *start;
    let mut counted = 0;
    for &mv in moves.iter().take(plies) {
        let gain = outcome.weight_for(pos.side_to_move());
        let mut known: Vec<BookMove> = book.probe(&pos).map(<[_]>::to_vec).unwrap_or_default();
        match known.iter_mut().find(|m| m.mv == mv) {
            Some(m) => m.weight = m.weight.saturating_add(gain),
            None => known.push(BookMove {
                weight: gain,
                ..BookMove::new::<R>(mv)
            }),
        }
        book.insert(&pos, known)?;
        pos = pos.play(mv);
        counted += 1;
    }
    Ok(counted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_move;
    use crate::rules::{International, VariantKind};

    fn line(text: &str) -> (Position<International>, Vec<Move>) {
        let start = Position::<International>::start();
        let mut pos = start;
        let mut moves = Vec::new();
        for t in text.split_whitespace() {
            let mv = parse_move(&pos, t).expect("legal");
            pos = pos.play(mv);
            moves.push(mv);
        }
        (start, moves)
    }

    /// The moves `book` holds for `pos`, with their weights.
    fn weights<'a>(book: &'a Book, pos: &Position<International>) -> Vec<(&'a str, u32)> {
        book.probe(pos)
            .unwrap_or_else(|| panic!("{pos:?} is not in the book"))
            .iter()
            .map(|m| (m.text.as_str(), m.weight))
            .collect()
    }

    #[test]
    fn weights_count_games_by_result() {
        let mut book = Book::new(VariantKind::International);
        let (start, a) = line("32-28 18-23 37-32");
        let (_, b) = line("32-28 19-23");
        let (_, c) = line("33-28 18-23");
        assert_eq!(
            add_game(&mut book, &start, &a, GameOutcome::WhiteWins, 2),
            Ok(2)
        );
        add_game(&mut book, &start, &b, GameOutcome::Draw, 10).expect("count");
        add_game(&mut book, &start, &c, GameOutcome::WhiteWins, 10).expect("count");
        assert_eq!(weights(&book, &start), [("32-28", 3), ("33-28", 2)]);
        let after = start.play(a[0]);
        assert_eq!(weights(&book, &after), [("19-23", 1), ("18-23", 0)]);
        assert_eq!(book.len(), 3);
    }
}

//! Static evaluation of a position, in hundredths of a man, from the view of
//! the side to move. Depends only on the rules core.
//!
//! The hand weights sit in one table, `Weights`; the learned patterns were
//! fitted with them held fixed, so the two change together or not at all.
//! The terms that are a sum over men of a value
//! per square (material, advancement, centre, outposts, edges and the
//! per-square values) are folded into an [`EvalTable`] once, and read one
//! byte of the men's bitboard at a time; the rest are popcounts over region
//! masks of the board.
//!
//! This file is the interface the search and the tools call; the parts sit
//! in their own files: `weights` (the hand weights), `table` (the weights
//! folded into per-square sums), `regions` (board masks), `terms` (the hand
//! terms), and for the learned part `patterns` and `weights_file`.

pub mod container;
mod evaluator;
pub mod network;
pub mod patterns;
mod regions;
mod table;
mod terms;
mod turkish;
mod weights;
pub mod weights_file;

use crate::rules::{Goal, Position, Rules, Side};
pub use evaluator::Evaluator;
pub use patterns::Patterns;
pub use table::{table_for, EvalTable};
use terms::{drawish_scale, losing_score, side_score, simplify_bonus};
pub use weights::{weights_for, Weights, WEIGHTS, WEIGHTS_8X8};

/// The hand evaluation of `pos` (the terms alone, no learned patterns)
/// from the side to move's view.
#[inline(always)]
pub fn evaluate_hand<R: Rules>(pos: &Position<R>) -> i32 {
    evaluate_hand_with(pos, table_for::<R>())
}

/// The hand evaluation of `pos` from the side to move's view under the
/// table `t` (the built-in one is [`table_for`]).
#[inline(always)]
pub fn evaluate_hand_with<R: Rules>(pos: &Position<R>, t: &EvalTable) -> i32 {
    let score = hand_white_score(pos, t);
    match pos.side_to_move() {
        Side::White => score,
        Side::Black => -score,
    }
}

/// The evaluation of `pos` from the side to move's view: the hand terms
/// of [`table_for`] plus the learned `patterns` (see [`patterns`]). This is
/// what the search uses.
#[inline(always)]
pub fn evaluate_learned<R: Rules>(pos: &Position<R>, patterns: &Patterns) -> i32 {
    let score = hand_white_score(pos, table_for::<R>()) + patterns.white_score(pos);
    match pos.side_to_move() {
        Side::White => score,
        Side::Black => -score,
    }
}

/// The hand-written evaluation of `pos` under the table `t`, from White's
/// view (the base the learned patterns are fitted on top of).
#[inline(always)]
pub fn hand_white_score<R: Rules>(pos: &Position<R>, t: &EvalTable) -> i32 {
    if R::ORTHOGONAL_MOVES {
        return turkish::white_score(pos);
    }
    let w = &t.weights;
    match R::GOAL {
        Goal::Losing => {
            losing_score::<R>(pos, Side::White, w) - losing_score::<R>(pos, Side::Black, w)
        }
        Goal::Normal | Goal::FirstKing => {
            let white = side_score::<R>(pos, Side::White, t);
            let black = side_score::<R>(pos, Side::Black, t);
            let score = white - black + simplify_bonus(pos, w);
            if R::FLYING_KINGS && R::GOAL == Goal::Normal {
                drawish_scale(pos, score, w)
            } else {
                score
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;
    use crate::rules::{Brazilian, International};

    #[test]
    fn start_positions_are_balanced() {
        assert_eq!(evaluate_hand(&Position::<International>::start()), 0);
        assert_eq!(evaluate_hand(&Position::<Brazilian>::start()), 0);
    }

    #[test]
    fn an_extra_man_is_worth_about_a_man() {
        let pos = parse_fen::<International>("W:W31,32,33:B18,19").unwrap();
        let s = evaluate_hand(&pos);
        assert!(s > 50 && s < 200, "{s}");
        let flipped = pos.with_side_to_move(Side::Black);
        assert_eq!(evaluate_hand(&flipped), -s);
    }

    #[test]
    fn losing_counts_pieces_against_their_owner() {
        use crate::rules::Losing;
        let ahead = parse_fen::<Losing>("W:W31,32,33:B18,19").unwrap();
        assert!(evaluate_hand(&ahead) < -50, "{}", evaluate_hand(&ahead));
        let normal = parse_fen::<International>("W:W31,32,33:B18,19").unwrap();
        assert!(evaluate_hand(&normal) > 50);
    }

    #[test]
    fn short_kings_are_worth_less_than_flying_ones() {
        use crate::rules::English;
        let english = parse_fen::<English>("W:WK14:B5").unwrap();
        let brazilian = parse_fen::<Brazilian>("W:WK14:B5").unwrap();
        assert!(evaluate_hand(&english) < evaluate_hand(&brazilian));
        assert!(evaluate_hand(&english) > 0);
    }

    #[test]
    fn mirror_positions_score_opposite() {
        let a = parse_fen::<International>("W:W28,33,K45:B12,19").unwrap();
        let b = parse_fen::<International>("B:B23,18,K6:W39,32").unwrap();
        assert_eq!(evaluate_hand(&a), evaluate_hand(&b));
    }
}

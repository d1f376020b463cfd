//! Perft: the number of leaf nodes of the legal-move tree to a fixed depth,
//! the standard check of a move generator against published tables.
//!
//! Counts distinct moves (from, to, captured set). The last ply is counted
//! without making the moves (bulk counting).

use super::movegen::{count_moves, generate};
use super::mv::{Move, MoveList};
use super::position::Position;
use super::variant::Rules;

/// Leaf count of the tree of depth `depth` below `pos` (1 for depth 0).
pub fn perft<R: Rules>(pos: &Position<R>, depth: u32) -> u64 {
    let mut lists: Vec<MoveList> = (0..depth.max(1)).map(|_| MoveList::new()).collect();
    perft_with(pos, depth, &mut lists)
}

fn perft_with<R: Rules>(pos: &Position<R>, depth: u32, lists: &mut [MoveList]) -> u64 {
    match depth {
        0 => 1,
        1 => count_moves(pos, &mut lists[0]),
        _ => {
            let (list, rest) = lists.split_first_mut().expect("one list per ply");
            generate(pos, list);
            let mut total = 0;
            for &mv in list.iter() {
                total += perft_with(&pos.play(mv), depth - 1, rest);
            }
            total
        }
    }
}

/// The leaf count below each root move, in generation order (one thread:
/// the rules core starts none; `tempo perft --threads` shares the root
/// moves among threads of its own).
pub fn divide<R: Rules>(pos: &Position<R>, depth: u32) -> Vec<(Move, u64)> {
    let below = depth.saturating_sub(1);
    pos.legal_moves()
        .iter()
        .map(|&mv| (mv, perft(&pos.play(mv), below)))
        .collect()
}

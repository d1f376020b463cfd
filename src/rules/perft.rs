//! Perft: the number of leaf nodes of the legal-move tree to a fixed depth,
//! the standard check of a move generator against published tables.
//!
//! Counts distinct moves (from, to, captured set). The last ply is counted
//! without making the moves (bulk counting).

use rayon::prelude::*;

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

/// The leaf count below each root move, in generation order.
///
/// With `threads > 1` the root moves are shared among that many rayon
/// workers.
pub fn divide<R: Rules>(pos: &Position<R>, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let below = depth.saturating_sub(1);
    if threads <= 1 {
        return moves
            .into_iter()
            .map(|mv| (mv, perft(&pos.play(mv), below)))
            .collect();
    }
    let run = || {
        moves
            .par_iter()
            .map(|&mv| (mv, perft(&pos.play(mv), below)))
            .collect()
    };
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

/// Leaf count to `depth`, split over `threads` workers at the root.
pub fn perft_threads<R: Rules>(pos: &Position<R>, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(pos, depth);
    }
    divide(pos, depth, threads).iter().map(|&(_, n)| n).sum()
}

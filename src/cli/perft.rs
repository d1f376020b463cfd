//! `tempo perft`: leaf counts per depth, with an optional per-move divide.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use super::VariantParser;
use crate::rules::notation::{format_move, parse_move, parse_position};
use crate::rules::perft::{divide, perft};
use crate::rules::{Move, MoveStyle, Position, Rules, VariantKind};

/// Arguments of `tempo perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The variant.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// Start position as a FEN or Hub position string (default: the initial position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the start position before counting, separated by
    /// spaces (standard or Hub notation): the position then carries what no
    /// FEN holds, such as a Frisian king's run of moves.
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// Deepest depth to count; every depth from 1 up is printed.
    #[arg(long, value_name = "D", default_value_t = 6)]
    pub depth: u32,
    /// Also print the count below each root move at the deepest depth.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads sharing the root moves.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
}

/// The leaf count below each root move, in generation order, the root
/// moves shared among `threads` rayon workers of a pool of this command's
/// own (the rules core's `divide` with one thread).
pub fn divide_threads<R: Rules>(pos: &Position<R>, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    if threads <= 1 {
        return divide(pos, depth);
    }
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let below = depth.saturating_sub(1);
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

/// Leaf count to `depth`, the root moves shared among `threads` workers.
pub fn perft_threads<R: Rules>(pos: &Position<R>, depth: u32, threads: usize) -> u64 {
    if depth <= 1 || threads <= 1 {
        return perft(pos, depth);
    }
    divide_threads(pos, depth, threads)
        .iter()
        .map(|&(_, n)| n)
        .sum()
}

/// Runs `tempo perft`.
pub fn run(args: &PerftArgs) -> Result<ExitCode, String> {
    crate::rules::with_rules!(args.variant, R => run_for::<R>(args))
}

fn run_for<R: Rules>(args: &PerftArgs) -> Result<ExitCode, String> {
    let mut pos = match &args.fen {
        Some(text) => parse_position::<R>(text).map_err(|e| format!("--fen: {e}"))?,
        None => Position::<R>::start(),
    };
    for (n, text) in args
        .moves
        .iter()
        .flat_map(|m| m.split_whitespace())
        .enumerate()
    {
        let mv = parse_move(&pos, text).map_err(|e| format!("--moves: move {}: {e}", n + 1))?;
        pos = pos.play(mv);
    }
    if args.depth == 0 {
        return Err("--depth must be at least 1".to_string());
    }
    let threads = args.threads as usize;
    for depth in 1..=args.depth {
        let started = Instant::now();
        let nodes = if args.divide && depth == args.depth {
            let mut total = 0;
            for (mv, n) in divide_threads(&pos, depth, threads) {
                outln!("{} {n}", format_move::<R>(mv, MoveStyle::Hub));
                total += n;
            }
            total
        } else {
            perft_threads(&pos, depth, threads)
        };
        let secs = started.elapsed().as_secs_f64();
        let mnps = if secs > 0.0 {
            nodes as f64 / secs / 1e6
        } else {
            0.0
        };
        outln!("depth {depth} nodes {nodes} time {secs:.3} mnps {mnps:.1}");
    }
    Ok(ExitCode::SUCCESS)
}

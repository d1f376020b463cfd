//! `tempo perft`: leaf counts per depth, with an optional per-move divide.

use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use super::VariantParser;
use crate::rules::notation::{format_move, parse_move};
use crate::rules::perft::{divide, perft};
use crate::rules::{Move, MoveStyle, Position, Rules, VariantKind};

/// The deepest `--depth`: International's count at 30 would take longer
/// than anyone waits, and deeper counts can overflow 64 bits.
pub const MAX_DEPTH: u32 = 30;

/// An estimate of the next depth's time is said when it passes this.
const SAY_ESTIMATE_OVER: f64 = 10.0;

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
    /// Deepest depth to count, 1 to 30; every depth from 1 up is printed,
    /// and before a depth that looks long, an estimate of its time.
    #[arg(long, value_name = "D", default_value_t = 6,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
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
        Some(text) => super::position_arg::<R>("--fen", text)?,
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
    let threads = args.threads as usize;
    // The last depth's count and time, for the next one's estimate.
    let mut last: Option<(u64, f64)> = None;
    let mut growth = 1.0;
    for depth in 1..=args.depth {
        if let Some((_, secs)) = last {
            say_estimate(depth, secs * growth, growth);
        }
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
        if let Some((before, _)) = last {
            growth = nodes as f64 / before.max(1) as f64;
        }
        last = Some((nodes, secs));
    }
    Ok(ExitCode::SUCCESS)
}

/// Says on standard error how long `depth` will take, if that looks long:
/// the last depth's time times the last growth of the count.
fn say_estimate(depth: u32, seconds: f64, growth: f64) {
    if seconds > SAY_ESTIMATE_OVER {
        let hours = seconds / 3600.0;
        let time = if hours >= 1.0 {
            format!("{hours:.1} hours")
        } else {
            format!("{:.0} seconds", seconds)
        };
        eprintln!(
            "depth {depth}: about {time} (the count grew {growth:.1} times a depth); Ctrl-C stops"
        );
    }
}

//! `tempo tactics`: searches every position of a shot file (positions with a
//! known winning first move, `analyse::tactics` documents the format) for a
//! fixed time and prints, per position, whether the move was found and
//! when (time, depth, nodes), then the totals: solved within the time,
//! within 0.1 s, the mean time to solution and the mean depth of the
//! solutions.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::resource_args::ResourceArgs;
use super::VariantParser;
use crate::analyse::tactics::{read_shots, solve_all, Summary, TacticsSettings, FAST};
use crate::rules::VariantKind;
use crate::search::tt::Table;
use crate::search::SearchParams;

/// Arguments of `tempo tactics`.
#[derive(Debug, Args)]
pub struct TacticsArgs {
    /// The shot file: position, tab, the winning moves (e.g.
    /// `tests/data/shots.tsv`).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Seconds per position, decimals allowed.
    #[arg(long, value_name = "S", default_value_t = 1.0)]
    pub movetime: f64,
    /// The variant of the positions.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table size in MiB, cleared for every position.
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// A search parameter set for every search, as `NAME=VALUE` (the
    /// engine parameter of that name, e.g. `futility-margin=0`); repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The weights and endgame tables of the searches.
    #[command(flatten)]
    pub resources: ResourceArgs,
}

/// Seconds with three decimals.
fn seconds(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// Runs `tempo tactics`.
pub fn run(args: &TacticsArgs) -> Result<ExitCode, String> {
    if !(args.movetime.is_finite() && args.movetime > 0.0) {
        return Err(format!("--movetime {}: must be positive", args.movetime));
    }
    let movetime = Duration::from_secs_f64(args.movetime);
    let mut params = SearchParams::default();
    for option in &args.options {
        params.assign(option).map_err(|e| format!("--option {e}"))?;
    }
    let path = args.file.display();
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("{path}: {e}"))?;
    let kind = args.variant;
    let shots = read_shots(kind, &text).map_err(|e| format!("{path}:{}: {}", e.line, e.message))?;
    if shots.is_empty() {
        return Err(format!("{path}: no positions"));
    }
    let settings = TacticsSettings {
        movetime,
        threads: args.threads as usize,
        resources: args.resources.settings(),
        params,
    };
    let mut table = Table::try_new(args.hash as usize)?;
    let attempts = solve_all(kind, &shots, &settings, &mut table, &mut |shot, attempt| {
        let verdict = match attempt.solved {
            Some(s) => format!(
                "solved {:>7} s at depth {:>2} ({:>9} nodes)",
                seconds(s.time),
                s.depth,
                s.nodes
            ),
            None => format!("missed {:>37}", ""),
        };
        outln!(
            "line {:>4}  {verdict}  depth {:>2}  played {:<7} wanted {:<13} {}",
            shot.line,
            attempt.depth,
            attempt.best.as_deref().unwrap_or("-"),
            shot.listed.join(" "),
            shot.source
        );
    })
    .map_err(|e| format!("{kind}: {e}"))?;
    let summary = Summary::of(&attempts, movetime);
    outln!(
        "Solved {} of {} within {} s, {} within {} s; mean time to solution {} s (a miss counts {} s); mean depth of the solutions {:.1}",
        summary.solved,
        summary.positions,
        args.movetime,
        summary.fast,
        FAST.as_secs_f64(),
        seconds(summary.mean),
        args.movetime,
        summary.mean_depth
    );
    Ok(ExitCode::SUCCESS)
}

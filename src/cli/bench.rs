//! `tempo bench`: a fixed set of positions searched to a fixed depth with a
//! cleared table each. With one thread the node count is deterministic: it is
//! the signature of the search's behaviour (quote it as `Bench: N` in
//! commits that change the search or the evaluation).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;

use crate::game::Game;
use crate::rules::notation::parse_fen;
use crate::rules::{Brazilian, International, Rules, VariantKind};
use crate::search::resources::{eval_file_variant, EvalSource, ResourceSettings};
use crate::search::tt::Table;
use crate::search::{
    search, solved_draws, Control, Limits, SearchParams, SearchResources, SearchSetup,
};

/// International positions, opening to endgame.
const INTERNATIONAL: [&str; 20] = [
    "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
    "W:W27,30,31,33,34,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,16,17,18,19,20,25",
    "W:W31,32,34,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,6,7,8,9,11,12,13,14,15,16,17,18,20",
    "W:W27,30,33,35,36,37,38,39,40,41,42,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,10,11,13,14,15,16,17,19,20,24",
    "W:W26,30,34,35,37,38,39,41,42,43,44,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,12,14,15,17,18,19,25,36",
    "W:W26,33,34,36,38,39,40,41,42,43,45,46,47,48,50:B1,2,3,4,5,6,7,8,9,10,11,12,15,20,22,27",
    "W:W28,34,35,36,38,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,8,9,10,14,15,19,21,25",
    "W:WK2,28,31,34,37,40,41,42,43,45,46,47,48,49,50:B1,3,4,5,9,10,15,17,18,21,25",
    "W:W25,31,32,34,35,38,41,42,43,44,45,46,47,49,50:B1,2,4,7,8,10,16,17,19,20,24",
    "W:W25,28,36,37,41,45,46,47,48,49,50:B2,4,5,6,9,10,16",
    "W:W33,34,36,37,39,40,43,45,46,47:B1,2,6,7,8,11,13,16,18,19",
    "W:W28,33,35,37,38,39,40,41,46,50:B1,2,3,4,5,11,12,13,16,17,18,19,20",
    "W:W16,23,25,31,34,36,38,39,40,41,43,44,46,47,48:B14,20,37",
    "W:W25,34,35,39,42,43,44,45,46,47:B4,10,17,23,27",
    "W:W25,31,34,35,41,47,49:B5,6,11,17,24",
    "W:W30,34,45:B2,5,6,8,10,12,13,15,K17,21",
    "W:W25,35,40:B2,5,9,13,14,18,21",
    "W:W28:B7,8,10,13,15,16,17,20,21,45",
    "W:WK21:B2,5,28,40,41",
    "W:WK18,26,27,35:B11,39,43",
];

/// Brazilian positions, opening to endgame.
const BRAZILIAN: [&str; 12] = [
    "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:W19,21,22,23,24,25,26,28,29,30,31,32:B1,2,3,4,5,7,8,9,10,11,12,13",
    "W:W14,20,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,7,8,10,11,13,16",
    "W:W15,21,22,27,28,29,30,31,32:B1,2,3,4,5,6,8,9,11,14",
    "W:W20,21,24,26,28,29,30,32:B1,2,3,4,6,8,9,11,13,14,16",
    "W:W20,24,26,27,28,29,31,32:B1,3,4,8,9,12,18",
    "W:W17,19,25,26,27,29,30:B1,4,5,6,9,11",
    "W:W23,25,31,32:B1,4,6,10,11,13,14,28",
    "W:W18,20,23:B2,4,5,8,13,14,16,17",
    "W:W22:B1,2,7,8,9,10,19,20,K32",
    "W:W17,18,23,25,28,29:B6,13",
    "W:W6,K10,29:B8,16,28",
];

/// Arguments of `tempo bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Depth searched in every position.
    #[arg(long, value_name = "D", default_value_t = 11, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Search threads (counts repeat only with 1).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Table size in MiB, cleared for every position.
    #[arg(long, value_name = "MIB", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Print only the totals.
    #[arg(long)]
    pub quiet: bool,
    /// Pattern weights or a network (`train --network`) to search with instead of the built-in ones, for
    /// the variant the file names (International or Brazilian); once per
    /// variant.
    #[arg(long = "eval-file", value_name = "PATH")]
    pub eval_files: Vec<PathBuf>,
    /// Without --eval-file: add the network built in beside the pattern
    /// weights (International, Brazilian); false: the patterns alone.
    #[arg(long = "eval-network", value_name = "BOOL", default_value_t = true,
          action = clap::ArgAction::Set)]
    pub eval_network: bool,
    /// A search parameter set for every search, as `NAME=VALUE` (the
    /// engine parameter of that name, e.g. `futility-margin=0`); repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
}

/// Totals of a bench run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BenchTotals {
    /// Nodes over all positions.
    pub nodes: u64,
    /// Time over all positions.
    pub time: Duration,
}

/// Runs the bench and returns the totals; `line` gets one text line per position.
pub fn bench(args: &BenchArgs, line: &mut dyn FnMut(String)) -> Result<BenchTotals, String> {
    // Built before the clock of the first search runs.
    solved_draws::<International>();
    solved_draws::<Brazilian>();
    let mut totals = BenchTotals {
        nodes: 0,
        time: Duration::ZERO,
    };
    let (mut international, mut brazilian) = (None, None);
    for path in &args.eval_files {
        let kind = eval_file_variant(path).map_err(|e| e.to_string())?;
        let slot = match kind {
            VariantKind::International => &mut international,
            VariantKind::Brazilian => &mut brazilian,
            other => {
                return Err(format!(
                    "{} holds {other} weights; the bench searches International and Brazilian positions",
                    path.display()
                ))
            }
        };
        if slot.replace(path.clone()).is_some() {
            return Err(format!("two --eval-file for {kind}: give one per variant"));
        }
    }
    let mut params = SearchParams::default();
    for option in &args.options {
        params.assign(option)?;
    }
    let international = Searches {
        resources: resources::<International>(international, args.eval_network)?,
        params,
    };
    let brazilian = Searches {
        resources: resources::<Brazilian>(brazilian, args.eval_network)?,
        params,
    };
    let mut table = Table::new(args.hash as usize);
    for fen in INTERNATIONAL {
        bench_one::<International>(&mut table, fen, args, &international, &mut totals, line)?;
    }
    for fen in BRAZILIAN {
        bench_one::<Brazilian>(&mut table, fen, args, &brazilian, &mut totals, line)?;
    }
    Ok(totals)
}

/// The resources of `R`'s bench searches: the weights of `eval_file`, or
/// the built-in ones (with the built-in network if `network`).
fn resources<R: Rules>(
    eval_file: Option<PathBuf>,
    network: bool,
) -> Result<SearchResources<R>, String> {
    let settings = ResourceSettings {
        eval: eval_file.map_or(EvalSource::builtin(network), EvalSource::File),
        ..ResourceSettings::default()
    };
    SearchResources::load(&settings).map_err(|e| e.to_string())
}

/// What every bench search of a variant searches with.
struct Searches<R: Rules> {
    resources: SearchResources<R>,
    params: SearchParams,
}

fn bench_one<R: Rules>(
    table: &mut Table,
    fen: &str,
    args: &BenchArgs,
    searches: &Searches<R>,
    totals: &mut BenchTotals,
    line: &mut dyn FnMut(String),
) -> Result<(), String> {
    let pos = parse_fen::<R>(fen).map_err(|e| format!("bench position {fen}: {e}"))?;
    table.clear();
    let control = Control::new(false);
    let mut setup = SearchSetup::for_game(
        &Game::new(pos),
        Limits {
            depth: Some(args.depth),
            ..Limits::default()
        },
    );
    setup.threads = args.threads as usize;
    setup.search_single_move = true;
    setup.resources = searches.resources.clone();
    setup.params = searches.params;
    let started = Instant::now();
    let result = search(&setup, table, &control, &mut |_| {});
    let time = started.elapsed();
    totals.nodes += result.nodes;
    totals.time += time;
    line(format!(
        "{:<13} depth {:>2} score {:>6} nodes {:>10} time {:>7.3} {}",
        R::NAME,
        result.depth,
        result.score,
        result.nodes,
        time.as_secs_f64(),
        fen
    ));
    Ok(())
}

/// Runs `tempo bench`.
pub fn run(args: &BenchArgs) -> Result<ExitCode, String> {
    let quiet = args.quiet;
    let totals = bench(args, &mut |l| {
        if !quiet {
            outln!("{l}");
        }
    })?;
    let secs = totals.time.as_secs_f64().max(1e-9);
    outln!("Total time (ms): {}", totals.time.as_millis());
    outln!("Nodes searched: {}", totals.nodes);
    outln!("Nodes/second: {}", (totals.nodes as f64 / secs) as u64);
    Ok(ExitCode::SUCCESS)
}

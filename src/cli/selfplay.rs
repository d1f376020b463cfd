//! `tempo selfplay`: plays the engine against itself and writes the quiet
//! positions of the games, labelled with their results, to a data file for
//! `tempo train` (see `train::selfplay` and `train::data`).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;

use super::resource_args::ResourceArgs;
use super::VariantParser;
use crate::rules::{Geometry, Rules, VariantKind};
use crate::search::resources::EvalSource;
use crate::search::SearchResources;
use crate::train::data::{DataWriter, Existing};
use crate::train::recipe::Recipe;
use crate::train::selfplay::{run as play, Progress, SelfplayConfig};

/// Arguments of `tempo selfplay`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// The data file; a second run with the same options resumes it, and a
    /// run with more --games adds to it (from a multiple of --batch-games).
    /// The file records its seed, options and build, and a run under
    /// others is refused, saying which differ.
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
    /// The variant played.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// Games in the whole run (all shards together).
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Nodes searched for each move.
    #[arg(long, default_value_t = 4000)]
    pub nodes: u64,
    /// Draw each move's node limit at random within this many percent of
    /// --nodes either way, so that games from one opening part at the first
    /// close choice (more distinct positions; the search reads its count
    /// every 1,024 nodes); 0 plays the games of earlier versions, which
    /// resume only with 0.
    #[arg(long, value_name = "PERCENT", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=90))]
    pub vary_nodes: u32,
    /// Depth limit for each move, besides --nodes.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// Plies played at random from the start position [default: 8 on
    /// 10x10, 6 on 8x8].
    #[arg(long)]
    pub random_plies: Option<u32>,
    /// Seed of the random plies (the same seed plays the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once [default: one per processor].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Play only shard I of N (batches b with b % N == I), e.g. 0/4, so
    /// that N machines share one run; `tempo train` reads their files together.
    #[arg(long, value_name = "I/N", default_value = "0/1", value_parser = parse_shard)]
    pub shard: (u32, u32),
    /// A game still going after this many plies is scored a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Games in a batch: the unit written to the file at once, and what an
    /// interrupted run can lose per thread.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub batch_games: u32,
    /// Table size of each thread in MiB.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash: u32,
    /// The weights and endgame tables the engine plays with.
    #[command(flatten)]
    pub resources: ResourceArgs,
    /// Play with the hand-written terms alone, no pattern weights (the
    /// first generation's games).
    #[arg(long, conflicts_with = "eval_file")]
    pub hand_eval: bool,
}

/// Reads `I/N` with `I < N`.
fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{text}' is not a shard I/N with 0 <= I < N (e.g. 0/4)");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u32, u32) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Runs `tempo selfplay`.
pub fn run(args: &SelfplayArgs) -> Result<ExitCode, String> {
    crate::rules::with_rules!(args.variant, R => run_for::<R>(args))
}

fn run_for<R: Rules>(args: &SelfplayArgs) -> Result<ExitCode, String> {
    let kind = R::KIND;
    let mut settings = args.resources.settings();
    if args.hand_eval {
        settings.eval = EvalSource::HandTermsOnly;
    }
    super::guard_outputs(&args.resources.inputs(), &[("--out", &args.out)])?;
    let resources = SearchResources::<R>::load(&settings).map_err(|e| e.to_string())?;
    let random_plies = args
        .random_plies
        .unwrap_or(if <R::Geometry as Geometry>::ROWS == 10 {
            8
        } else {
            6
        });
    let recipe = Recipe::default()
        .with("command", "selfplay")
        .with("build", BUILD)
        .with("nodes", args.nodes)
        .with("vary-nodes", args.vary_nodes)
        .with(
            "depth",
            args.depth.map_or("none".to_string(), |d| d.to_string()),
        )
        .with("random-plies", random_plies)
        .with("seed", args.seed)
        .with("max-plies", args.max_plies)
        .with("batch-games", args.batch_games)
        .with("hash", args.hash);
    let recipe = args
        .resources
        .recipe(recipe, args.hand_eval, resources.egdb_pieces());
    let (mut writer, existing) = open_data(&args.out, kind, &recipe)?;
    let threads = threads_or_all(args.threads);
    let config = SelfplayConfig {
        games: args.games,
        batch_games: args.batch_games,
        nodes: Some(args.nodes),
        vary_nodes: args.vary_nodes,
        depth: args.depth,
        random_plies,
        seed: args.seed,
        threads,
        shard: args.shard,
        max_plies: args.max_plies,
        hash_mib: args.hash as usize,
        resources,
    };
    eprintln!(
        "selfplay {kind}: {} games (shard {}/{}), {} nodes a move{}, {} random plies, {threads} {}, into {}",
        args.games,
        args.shard.0,
        args.shard.1,
        args.nodes,
        if args.vary_nodes > 0 {
            format!(" (± {}%)", args.vary_nodes)
        } else {
            String::new()
        },
        config.random_plies,
        if threads == 1 { "thread" } else { "threads" },
        args.out.display()
    );
    let mut show = progress_printer(&args.out);
    let done = play::<R>(&config, &mut writer, &existing, &mut show)?;
    report(&args.out, &done);
    Ok(ExitCode::SUCCESS)
}

/// The build that makes a data file, as its recipe names it.
pub(super) const BUILD: &str = concat!("tempo ", env!("CARGO_PKG_VERSION"));

/// Opens (or starts) the data file `out` of a run made by `recipe`,
/// saying so when a chunk an earlier run left unfinished is cut off, or
/// when the file records no recipe to check the run against.
pub(super) fn open_data(
    out: &std::path::Path,
    kind: VariantKind,
    recipe: &Recipe,
) -> Result<(DataWriter, Existing), String> {
    let (writer, existing) = DataWriter::open(out, kind, recipe).map_err(|e| e.to_string())?;
    if existing.unrecorded {
        eprintln!(
            "{}: the file records no recipe (an older build's, or a merge of different runs): \
             the run adds to it unchecked",
            out.display()
        );
    }
    if existing.dropped_bytes > 0 {
        eprintln!(
            "{}: cut off {} bytes of a chunk an earlier run left unfinished",
            out.display(),
            existing.dropped_bytes
        );
    }
    Ok((writer, existing))
}

/// The threads asked for, or one per processor.
pub(super) fn threads_or_all(asked: Option<u32>) -> usize {
    asked.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |t| t as usize,
    )
}

/// Prints a run's progress on standard error: one line rewritten each
/// second on a terminal, a line every 30 s elsewhere; the last one always,
/// ended by a new line. Ctrl-C ends the run at once (a batch being written
/// is written whole), saying what the file `out` holds.
pub(super) fn progress_printer(out: &std::path::Path) -> impl FnMut(Progress) {
    let terminal = std::io::stderr().is_terminal();
    let mut last = Instant::now() - Duration::from_secs(60);
    let out = out.display().to_string();
    crate::signals::install(|| {});
    move |p: Progress| {
        crate::signals::farewell(format!(
            "\ninterrupted: {}/{} games of this run are in {out}, whole; the same command \
             goes on with the rest",
            p.games_done, p.games_total
        ));
        let finished = p.games_done >= p.games_total;
        if !finished && last.elapsed() < Duration::from_secs(if terminal { 1 } else { 30 }) {
            return;
        }
        last = Instant::now();
        let eta = p.eta.map_or("-".to_string(), |d| {
            let s = d.as_secs();
            format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
        });
        let line = format!(
            "games {}/{}  positions {}  {}  ETA {eta}",
            p.games_done,
            p.games_total,
            p.positions,
            rates(&p)
        );
        let mut err = std::io::stderr().lock();
        let _ = match (terminal, finished) {
            (true, false) => write!(err, "\r{line:<90}"),
            (true, true) => writeln!(err, "\r{line:<90}"),
            (false, _) => writeln!(err, "{line}"),
        };
    }
}

/// The closing lines of a run that wrote the data file `out`.
pub(super) fn report(out: &std::path::Path, done: &Progress) {
    outln!(
        "{}: {}/{} games of this run, {} positions in the file",
        out.display(),
        done.games_done,
        done.games_total,
        done.positions
    );
    if done.elapsed > Duration::ZERO {
        outln!(
            "this run: {:.1} s on {} {}, {}",
            done.elapsed.as_secs_f64(),
            done.threads,
            if done.threads == 1 {
                "thread"
            } else {
                "threads"
            },
            rates(done)
        );
    }
}

/// The speed of a run: positions a second, in all and per thread (the
/// figure of one core), and games a second.
fn rates(p: &Progress) -> String {
    format!(
        "{:.0} positions/s ({:.0} a thread), {:.1} games/s",
        p.positions_per_second,
        p.positions_per_thread_second(),
        p.games_per_second
    )
}

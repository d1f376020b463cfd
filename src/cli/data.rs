//! `tempo data`: the self-play data files of `tempo selfplay` (see
//! `train::data`): merge the shards of a run into one file, count what
//! files hold, and make one from played games (`train::label`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::resource_args::ResourceArgs;
use super::selfplay::{open_data, progress_printer, report, threads_or_all, BUILD};
use super::VariantParser;
use crate::pdn::read_games;
use crate::rules::{Rules, VariantKind};
use crate::search::SearchResources;
use crate::train::data::{file_variant, read_file, read_recipe, Census};
use crate::train::label::{played_game, run as label, LabelConfig, PlayedGame};
use crate::train::merge::merge;
use crate::train::recipe::{file_entry, Recipe};

/// Arguments of `tempo data`.
#[derive(Debug, Args)]
pub struct DataArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: DataCommand,
}

/// The `tempo data` tools.
#[derive(Debug, Subcommand)]
pub enum DataCommand {
    /// Merge the data files of one run's shards (`tempo selfplay --shard
    /// I/N`) into one file: every batch once, in batch order.
    Merge(MergeArgs),
    /// Count the games, positions (all and distinct), results and batches
    /// of data files, and name the batches missing below the highest one.
    Info(InfoArgs),
    /// Make a data file of played games (a match PDN, say): every quiet
    /// position searched again for its score and labelled with its game's
    /// result, as `tempo selfplay` writes its own.
    FromPdn(FromPdnArgs),
}

/// Arguments of `tempo data from-pdn`.
#[derive(Debug, Args)]
#[command(
    after_help = "Games are read from the files in the order given; a game without a result, \
                  of another variant or whose moves do not replay is skipped, named on standard \
                  error, and the exit status is then 1. Game i of the input is batch i / \
                  --batch-games of the file, so a run stopped midway resumes when given the same \
                  files again. Example, the games of a match against Scan labelled at depth \
                  12:\n  tempo data from-pdn --out scan-games.spd --depth 12 scan.pdn"
)]
pub struct FromPdnArgs {
    /// The data file to write; a second run on the same games resumes it.
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
    /// The variant of the games.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// Depth of each position's search.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60), default_value_t = 10)]
    pub depth: u32,
    /// Nodes of each position's search, besides --depth.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Games searched at once [default: one per processor].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Games in a batch: the unit written to the file at once.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub batch_games: u32,
    /// Table size of each thread in MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash: u32,
    /// The weights and endgame tables the searches use.
    #[command(flatten)]
    pub resources: ResourceArgs,
    /// The PDN files of the games.
    #[arg(required = true, value_name = "PDN")]
    pub files: Vec<PathBuf>,
}

/// Arguments of `tempo data merge`.
#[derive(Debug, Args)]
#[command(
    after_help = "Every input is checked whole first. A batch in two inputs is kept once when \
                  the two chunks are the same (said on standard error) and refused when they \
                  differ: the files come from runs with other seeds or options. The output is \
                  written to a temporary file beside it and renamed into place."
)]
pub struct MergeArgs {
    /// The data file to write (replaced if it exists; not one of the inputs).
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
    /// The variant of the data [default: the first file's].
    #[arg(long, value_parser = VariantParser)]
    pub variant: Option<VariantKind>,
    /// The data files to merge, e.g. the shards intl-0.spd ... intl-7.spd.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Arguments of `tempo data info`.
#[derive(Debug, Args)]
#[command(
    after_help = "A line for each file and, for several, one for all of them: games, positions, \
                  distinct positions (by board, kings and side to move), the share of positions \
                  from games White won, drew and lost, the batches, and the batches missing below \
                  the highest one present (for a shard's file, among the batches of its shard: \
                  every N-th, N the smallest step between its batches)."
)]
pub struct InfoArgs {
    /// The variant of the data [default: the first file's].
    #[arg(long, value_parser = VariantParser)]
    pub variant: Option<VariantKind>,
    /// The data files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Runs `tempo data`.
pub fn run(args: &DataArgs) -> Result<ExitCode, String> {
    match &args.command {
        DataCommand::Merge(args) => run_merge(args),
        DataCommand::Info(args) => run_info(args),
        DataCommand::FromPdn(args) => {
            crate::rules::with_rules!(args.variant, R => run_from_pdn::<R>(args))
        }
    }
}

fn run_from_pdn<R: Rules>(args: &FromPdnArgs) -> Result<ExitCode, String> {
    let mut inputs: Vec<(&str, &std::path::Path)> =
        args.files.iter().map(|f| ("input", f.as_path())).collect();
    inputs.extend(args.resources.inputs());
    super::guard_outputs(&inputs, &[("--out", &args.out)])?;
    let mut games: Vec<PlayedGame<R>> = Vec::new();
    let mut skipped = 0usize;
    for file in &args.files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        for read in read_games(&text) {
            let game = read.map_err(|e| e.to_string()).and_then(|pdn| {
                played_game::<R>(&pdn).map_err(|e| format!("line {}: {e}", pdn.line))
            });
            match game {
                Ok(game) => games.push(game),
                Err(e) => {
                    skipped += 1;
                    eprintln!("{}: skipped a game: {e}", file.display());
                }
            }
        }
    }
    if games.is_empty() {
        return Err(format!(
            "no game to label in {} ({skipped} skipped)",
            args.files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let resources =
        SearchResources::<R>::load(&args.resources.settings()).map_err(|e| e.to_string())?;
    let mut recipe = Recipe::default()
        .with("command", "data from-pdn")
        .with("build", BUILD);
    for file in &args.files {
        let entry = file_entry(file).map_err(|e| format!("{}: {e}", file.display()))?;
        recipe = recipe.with("pdn", entry);
    }
    let recipe = recipe
        .with("depth", args.depth)
        .with(
            "nodes",
            args.nodes.map_or("none".to_string(), |n| n.to_string()),
        )
        .with("batch-games", args.batch_games)
        .with("hash", args.hash);
    let recipe = args
        .resources
        .recipe(recipe, false, resources.egdb_pieces());
    let (mut writer, existing) = open_data(&args.out, R::KIND, &recipe)?;
    let threads = threads_or_all(args.threads);
    let config = LabelConfig {
        depth: Some(args.depth),
        nodes: args.nodes,
        threads,
        batch_games: args.batch_games,
        hash_mib: args.hash as usize,
        resources,
    };
    eprintln!(
        "from-pdn {}: {} games ({skipped} skipped), each quiet position searched to depth {}{}, \
         {threads} {}, into {}",
        R::KIND,
        games.len(),
        args.depth,
        args.nodes
            .map_or(String::new(), |n| format!(" or {n} nodes")),
        if threads == 1 { "thread" } else { "threads" },
        args.out.display()
    );
    let done = label::<R>(
        &games,
        &config,
        &mut writer,
        &existing,
        &mut progress_printer(&args.out),
    )?;
    report(&args.out, &done);
    Ok(if skipped > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The variant of every file of `files`: `asked`, else the first file's.
fn common_variant(asked: Option<VariantKind>, files: &[PathBuf]) -> Result<VariantKind, String> {
    let mut expected = asked.map(|v| (v, None::<&Path>));
    for file in files {
        let kind = file_variant(file).map_err(|e| e.to_string())?;
        match expected {
            None => expected = Some((kind, Some(file))),
            Some((want, _)) if want == kind => {}
            Some((want, first)) => {
                let whose = first.map_or("--variant asks for".to_string(), |f| {
                    format!("{} holds", f.display())
                });
                return Err(format!(
                    "{}: the positions are of {kind}, but {whose} {want}: give files of one \
                     variant",
                    file.display()
                ));
            }
        }
    }
    expected
        .map(|(kind, _)| kind)
        .ok_or_else(|| "no data files given".to_string())
}

fn run_merge(args: &MergeArgs) -> Result<ExitCode, String> {
    let kind = common_variant(args.variant, &args.files)?;
    let inputs: Vec<(&str, &std::path::Path)> =
        args.files.iter().map(|f| ("input", f.as_path())).collect();
    let replacing = super::guard_outputs(&inputs, &[("--out", &args.out)])?;
    let merged = merge(&args.files, &args.out, kind).map_err(|e| e.to_string())?;
    replacing.say();
    // The duplicates, one line for each pair of files.
    let mut pairs: Vec<(usize, usize, u64)> = Vec::new();
    for &(_, dropped, kept) in &merged.duplicates {
        match pairs.iter_mut().find(|p| (p.0, p.1) == (dropped, kept)) {
            Some(pair) => pair.2 += 1,
            None => pairs.push((dropped, kept, 1)),
        }
    }
    for (dropped, kept, count) in pairs {
        eprintln!(
            "{}: {count} {} also in {}, the same: kept once",
            args.files[dropped].display(),
            if count == 1 { "batch" } else { "batches" },
            args.files[kept].display()
        );
    }
    outln!(
        "{}: {} files merged, {} batches, {} games, {} positions; {} duplicate batches dropped",
        args.out.display(),
        args.files.len(),
        merged.batches,
        merged.games,
        merged.positions,
        merged.duplicates.len()
    );
    Ok(ExitCode::SUCCESS)
}

fn run_info(args: &InfoArgs) -> Result<ExitCode, String> {
    let kind = common_variant(args.variant, &args.files)?;
    let mut total = Census::default();
    for file in &args.files {
        let chunks = read_file(file, kind).map_err(|e| e.to_string())?;
        let census = Census::of(&chunks);
        drop(chunks);
        outln!("{}: {kind}, {}", file.display(), describe(&census));
        match read_recipe(file, kind).map_err(|e| e.to_string())? {
            Some(recipe) => outln!("  made by: {recipe}"),
            None => outln!("  made by: not recorded"),
        }
        total.add(&census);
    }
    if args.files.len() > 1 {
        outln!("all {} files: {}", args.files.len(), describe(&total));
    }
    Ok(ExitCode::SUCCESS)
}

/// One line of `tempo data info`.
fn describe(c: &Census) -> String {
    let share = |n: u64| 100.0 * n as f64 / c.positions.max(1) as f64;
    let mut line = format!(
        "{} games, {} positions ({} distinct, {:.1}%), White wins/draws/losses \
         {:.1}%/{:.1}%/{:.1}%, {} {}",
        c.games,
        c.positions,
        c.distinct(),
        share(c.distinct()),
        share(c.results[2]),
        share(c.results[1]),
        share(c.results[0]),
        c.batches.len(),
        if c.batches.len() == 1 {
            "batch"
        } else {
            "batches"
        }
    );
    let (Some(first), Some(last)) = (c.batches.first(), c.batches.last()) else {
        return line;
    };
    if first == last {
        line.push_str(&format!(" {first}"));
    } else {
        line.push_str(&format!(" {first}-{last}"));
    }
    let twice = c.batches.windows(2).filter(|w| w[0] == w[1]).count();
    if twice > 0 {
        line.push_str(&format!(" ({twice} held twice)"));
    }
    if let Some(step) = c.step() {
        if step > 1 {
            line.push_str(&format!(" every {step}"));
        }
        let missing = c.missing();
        if missing.is_empty() {
            line.push_str(", none missing");
        } else {
            let count: u64 = missing
                .iter()
                .map(|&(a, b)| ((b - a) / step + 1) as u64)
                .sum();
            let shown: Vec<String> = missing
                .iter()
                .take(20)
                .map(|&(a, b)| {
                    if a == b {
                        a.to_string()
                    } else {
                        format!("{a}-{b}")
                    }
                })
                .collect();
            let more = missing.len().saturating_sub(shown.len());
            line.push_str(&format!(", {count} missing: {}", shown.join(", ")));
            if more > 0 {
                line.push_str(&format!(" and {more} more ranges"));
            }
        }
    }
    line
}

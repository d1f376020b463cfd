//! `tempo data`: the self-play data files of `tempo selfplay` (see
//! `train::data`): merge the shards of a run into one file, and count what
//! files hold.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::VariantArg;
use crate::rules::VariantKind;
use crate::train::data::{file_variant, read_file, Census};
use crate::train::merge::merge;

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
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
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
    #[arg(long, value_enum)]
    pub variant: Option<VariantArg>,
    /// The data files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Runs `tempo data`.
pub fn run(args: &DataArgs) -> Result<ExitCode, String> {
    match &args.command {
        DataCommand::Merge(args) => run_merge(args),
        DataCommand::Info(args) => run_info(args),
    }
}

/// The variant of every file of `files`: `asked`, else the first file's.
fn common_variant(asked: Option<VariantArg>, files: &[PathBuf]) -> Result<VariantKind, String> {
    let mut expected = asked.map(|v| (VariantKind::from(v), None::<&Path>));
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
    let merged = merge(&args.files, &args.out, kind).map_err(|e| e.to_string())?;
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

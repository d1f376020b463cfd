//! `tempo weights`: pattern weights files (see `eval::weights_file`): the
//! mean of fitted sets (see `train::average`), and what files hold.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Subcommand};

use crate::eval::network::{network_checksum, read_network, INPUTS};
use crate::eval::patterns::{Patterns, Shape, UNIT};
use crate::eval::weights_file::{builtin, read_any, write_file};
use crate::rules::VariantKind;
use crate::search::resources::is_network_file;
use crate::train::average::average;

/// Arguments of `tempo weights`.
#[derive(Debug, Args)]
pub struct WeightsArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: WeightsCommand,
}

/// The `tempo weights` tools.
#[derive(Debug, Subcommand)]
pub enum WeightsCommand {
    /// Average fitted weight sets of one variant and window shape, entry by
    /// entry: the mean of two fits plays better than either alone.
    Average(AverageArgs),
    /// Say what weights files hold: variant, windows, weights, non-zero
    /// ones; for a network file (`train --network`) its layers.
    Info(InfoArgs),
}

/// Arguments of `tempo weights average`.
#[derive(Debug, Args)]
#[command(
    after_help = "Every weight of the output is the mean of that weight in the inputs, rounded \
                  to the nearest unit (halves away from 0). The inputs must be of one variant \
                  and one window shape (all 4x4, 4x6 or 4x6m). The output is written to a \
                  temporary file beside it and renamed into place; it may be one of the inputs."
)]
pub struct AverageArgs {
    /// The weights file to write.
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
    /// The weights files to average (two or more), e.g. the outputs of
    /// `tempo train` on two generations of self-play.
    #[arg(required = true, num_args = 2.., value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Arguments of `tempo weights info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The weights files.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Runs `tempo weights`.
pub fn run(args: &WeightsArgs) -> Result<ExitCode, String> {
    match &args.command {
        WeightsCommand::Average(args) => run_average(args),
        WeightsCommand::Info(args) => run_info(args),
    }
}

fn read(path: &Path) -> Result<(VariantKind, Patterns), String> {
    read_any(path).map_err(|e| e.to_string())
}

fn run_average(args: &AverageArgs) -> Result<ExitCode, String> {
    let mut sets: Vec<(VariantKind, Patterns)> = Vec::with_capacity(args.files.len());
    for file in &args.files {
        let (kind, patterns) = read(file)?;
        if let Some((first_kind, first)) = sets.first() {
            if kind != *first_kind {
                return Err(format!(
                    "{}: the weights are for {kind}, but {} holds {first_kind}: average sets \
                     of one variant",
                    file.display(),
                    args.files[0].display()
                ));
            }
            if patterns.layout() != first.layout() {
                return Err(format!(
                    "{}: the weights have {} windows, but {} has {}: average sets of one \
                     window shape",
                    file.display(),
                    Shape::name(patterns.layout().shape),
                    args.files[0].display(),
                    Shape::name(first.layout().shape)
                ));
            }
        }
        sets.push((kind, patterns));
    }
    let kind = sets[0].0;
    let mean = average(&sets.iter().map(|(_, p)| p).collect::<Vec<_>>())?;
    write_file(kind, &mean, &args.out).map_err(|e| e.to_string())?;
    let differing = (0..mean.raw().len())
        .filter(|&i| sets.iter().any(|(_, p)| p.raw()[i] != sets[0].1.raw()[i]))
        .count();
    outln!(
        "{}: the mean of {} {kind} sets, {} windows: {} weights, {} of them not the same in \
         every set",
        args.out.display(),
        sets.len(),
        Shape::name(mean.layout().shape),
        mean.raw().len(),
        differing
    );
    Ok(ExitCode::SUCCESS)
}

fn run_info(args: &InfoArgs) -> Result<ExitCode, String> {
    for file in &args.files {
        if is_network_file(file) {
            let net = read_network(file).map_err(|e| e.to_string())?;
            let builtin_base = net.base == network_checksum(&builtin(net.variant));
            outln!(
                "{}: {}, a network {INPUTS} -> {} (x2) -> {} -> 1 on top of {}",
                file.display(),
                net.variant,
                net.hidden,
                net.dense,
                if builtin_base {
                    "this tempo's built-in patterns"
                } else {
                    "other patterns than this tempo's built-in ones (the engine refuses it)"
                }
            );
            continue;
        }
        let (kind, patterns) = read(file)?;
        let layout = patterns.layout();
        let raw = patterns.raw();
        let largest = raw.iter().map(|w| i32::from(*w).abs()).max().unwrap_or(0);
        outln!(
            "{}: {kind}, {} windows on {}x{} ({} tables, {} king terms), {} weights, {} not 0, \
             the largest {:.2} men",
            file.display(),
            Shape::name(layout.shape),
            layout.rows,
            layout.rows,
            layout.tables(),
            layout.king_terms(),
            raw.len(),
            raw.iter().filter(|w| **w != 0).count(),
            f64::from(largest) / f64::from(100 * UNIT)
        );
    }
    Ok(ExitCode::SUCCESS)
}

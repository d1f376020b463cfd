//! `tempo train`: fits the pattern weights to self-play data files and
//! writes a weights file (see `train::pattern_fit`).

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::builder::TypedValueParser;
use clap::Args;

use super::VariantParser;
use crate::egdb::Egdb;
use crate::eval::network::{read_network, write_network, Network, INPUTS, MAX_DENSE, MAX_HIDDEN};
use crate::eval::patterns::{Layout, Patterns, Shape};
use crate::eval::weights_file::{
    builtin, has_patterns, read_file as read_weights, ships_weights, write_file,
};
use crate::eval::Evaluator;
use crate::rules::{Rules, VariantKind};
use crate::signals;
use crate::train::distinct::Split;
use crate::train::driver::EpochReport;
use crate::train::exact::relabel;
use crate::train::network_fit::{fit_network, NetworkConfig, NetworkSamples};
use crate::train::pattern_fit::{fit, FitConfig, Samples};
use crate::train::sets::load;

/// Arguments of `tempo train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Data files written by `tempo selfplay` (all of one variant).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
    /// The variant of the data.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 4)]
    pub epochs: u32,
    /// Positions a mini-batch.
    #[arg(long, default_value_t = 2048)]
    pub batch: usize,
    /// Adam's step size (at the first mini-batch when --lr-end is given):
    /// in hundredths of a man for patterns [default: 0.25], in the
    /// network's own units with --network [default: 0.001].
    #[arg(long)]
    pub lr: Option<f32>,
    /// Adam's step size at the last mini-batch: the step falls from --lr to
    /// it geometrically over the whole fit [default: --lr, a constant step].
    #[arg(long, value_name = "LR")]
    pub lr_end: Option<f32>,
    /// L2 penalty on the weights (per mini-batch, against a gradient that is
    /// a mean over the batch: 1e-7 already holds the weights near 0).
    #[arg(long, default_value_t = 0.0)]
    pub l2: f32,
    /// Share of the search score in the target (0: the game result alone;
    /// the default, 1, fits the search's score: weights fitted to the
    /// results alone lowered the held-out loss more but played worse).
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f32,
    /// Hold out every N-th batch of games for validation (with fewer
    /// batches than N: the last batch, or the end of a single one).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(2..))]
    pub hold_out: u32,
    /// Seed of the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Weights to start from [default: all 0]; their window shape is kept,
    /// except that 4x6 weights start a 4x6m fit with the band at 0. With
    /// --network: a network file (fitted on top of the built-in patterns)
    /// to fine-tune, its widths kept [default: random weights].
    #[arg(long, value_name = "PATH")]
    pub init: Option<PathBuf>,
    /// Window shape: 4x4 (8 squares, 6,561 states a window, a table each)
    /// or 4x6 (12 squares, 531,441 states, along the top and bottom of the
    /// board, a table shared by each window and its half turn; with the
    /// stage by the men's steps to crown and learned king terms) or 4x6m
    /// (4x6 with a band of windows on the middle six rows, 8 tables
    /// instead of 4 on 10x10, 6 instead of 3 on 8x8) [default: that of
    /// --init, else that of the variant's built-in weights (International
    /// 4x6m, Brazilian 4x6), else 4x6].
    #[arg(long, value_parser = shape_parser())]
    pub windows: Option<Shape>,
    /// Endgame tables (a folder `tempo egdb build` wrote): the positions
    /// within them, to fit and held out, take the tables' value (a win
    /// within the plies the count rules leave from the position on, else a
    /// draw) in place of their game's result and search score.
    #[arg(long, value_name = "DIR")]
    pub egdb: Option<PathBuf>,
    /// Fit a network on top of the built-in patterns instead of pattern
    /// weights (see protocol.md, "Network files"); the file written is
    /// read wherever a weights file is (`eval-file`, `--eval-file`).
    #[arg(long, conflicts_with_all = ["windows"])]
    pub network: bool,
    /// Layer 1 width of the network (a multiple of 16).
    #[arg(
        long,
        default_value_t = 128,
        requires = "network",
        conflicts_with = "init"
    )]
    pub hidden: usize,
    /// Layer 2 width of the network (a multiple of 8).
    #[arg(
        long,
        default_value_t = 32,
        requires = "network",
        conflicts_with = "init"
    )]
    pub dense: usize,
    /// The most pieces of the tables --egdb loads (fewer where the folder
    /// holds fewer).
    #[arg(long, value_name = "N", default_value_t = 6)]
    #[arg(value_parser = clap::value_parser!(u32).range(2..))]
    pub egdb_pieces: u32,
}

/// Adam's first step for pattern weights, hundredths of a man.
const PATTERN_LR: f32 = 0.25;
/// Adam's first step for a network.
const NETWORK_LR: f32 = 0.001;

/// Reads `--windows`: the names of [`Shape::name`].
fn shape_parser() -> impl TypedValueParser<Value = Shape> {
    clap::builder::PossibleValuesParser::new(Shape::ALL.map(Shape::name))
        .try_map(|name| Shape::parse(&name).ok_or(format!("unknown window shape '{name}'")))
}

/// The window shape a fit from nothing takes without `--windows`: that of
/// the variant's built-in weights where it ships some, else 4x6.
fn default_shape(kind: VariantKind) -> Shape {
    if ships_weights(kind) {
        builtin(kind).layout().shape
    } else {
        Shape::W4x6
    }
}

/// Runs `tempo train`.
pub fn run(args: &TrainArgs) -> Result<ExitCode, String> {
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {} is outside 0..1", args.lambda));
    }
    for (name, value) in [("--lr", args.lr), ("--lr-end", args.lr_end)] {
        if let Some(v) = value.filter(|v| !(v.is_finite() && *v > 0.0)) {
            return Err(format!("{name} {v} must be a positive number"));
        }
    }
    if args.batch == 0 || args.epochs == 0 {
        return Err("--batch and --epochs must be at least 1".to_string());
    }
    let mut inputs: Vec<(&str, &Path)> =
        args.files.iter().map(|f| ("input", f.as_path())).collect();
    inputs.extend(args.init.as_deref().map(|f| ("--init", f)));
    let replacing = super::guard_outputs(&inputs, &[("--out", &args.out)])?;
    // Ctrl-C while the data loads ends the run at once; during the fit it
    // ends the epoch under way, and the best finished epoch is written.
    signals::install(|| {});
    signals::farewell("interrupted before the fit began: nothing written");
    let trained = train(args);
    if trained.is_ok() {
        replacing.say();
    }
    trained
}

/// What is said when a signal stopped a fit that is `fitted` (its best
/// epoch `best`, 0 for the start) and written to `out` (not written when
/// no epoch beat the start).
fn say_interrupted_fit(best: u32, out: &Path) {
    signals::farewell(if best == 0 {
        "interrupted before an epoch beat the start: nothing written".to_string()
    } else {
        format!(
            "interrupted: wrote {} with the best finished epoch, {best}",
            out.display()
        )
    });
}

/// Trains the weights or network the arguments ask for.
fn train(args: &TrainArgs) -> Result<ExitCode, String> {
    if args.network {
        if args.hidden == 0 || !args.hidden.is_multiple_of(16) || args.hidden > MAX_HIDDEN {
            return Err(format!(
                "--hidden {} must be a multiple of 16 up to {MAX_HIDDEN}",
                args.hidden
            ));
        }
        if args.dense == 0 || !args.dense.is_multiple_of(8) || args.dense > MAX_DENSE {
            return Err(format!(
                "--dense {} must be a multiple of 8 up to {MAX_DENSE}",
                args.dense
            ));
        }
        return crate::rules::with_rules!(args.variant, R => run_network::<R>(args));
    }
    crate::rules::with_rules!(args.variant, R => run_for::<R>(args))
}

fn run_for<R: Rules>(args: &TrainArgs) -> Result<ExitCode, String> {
    let kind = R::KIND;
    if !has_patterns(kind) {
        return Err(format!(
            "{kind} has no learned patterns (its men move along rows and files): nothing to train"
        ));
    }
    let start = match &args.init {
        Some(path) => Some(read_weights(kind, path).map_err(|e| e.to_string())?),
        None => None,
    };
    let asked = args.windows.map(Layout::shaped::<R::Geometry>);
    // A tall set asked to fit a band keeps its tables and king terms.
    let start = match (start, asked) {
        (Some(weights), Some(layout))
            if weights.layout().shape == Shape::W4x6 && layout.shape == Shape::W4x6m =>
        {
            Some(weights.with_middle_band()?)
        }
        (start, _) => start,
    };
    let layout = match (&start, asked) {
        (Some(weights), Some(layout)) if weights.layout() != layout => {
            return Err(format!(
                "--init has {} windows, --windows asks for {}: leave one out",
                weights.layout().shape.name(),
                layout.shape.name()
            ))
        }
        (Some(weights), _) => weights.layout(),
        (None, layout) => layout.unwrap_or(Layout::shaped::<R::Geometry>(default_shape(kind))),
    };
    let split = load_split::<R>(args)?;
    let (mut train, mut valid) = (Samples::new(layout), Samples::new(layout));
    let files = || files_named(args);
    train
        .extend_distinct::<R>(&split.train)
        .map_err(|e| format!("{}: {e}", files()))?;
    valid
        .extend_distinct::<R>(&split.valid)
        .map_err(|e| format!("{}: {e}", files()))?;
    if train.is_empty() || valid.is_empty() {
        return Err(format!(
            "{} training and {} held-out positions: need some of each (more games)",
            train.len(),
            valid.len()
        ));
    }
    drop(split);
    let start = start.unwrap_or_else(|| Patterns::zero(layout));
    eprintln!(
        "train {kind}: {} weights ({} windows)",
        layout.weights_per_phase() * 2,
        layout.shape.name()
    );
    let config = FitConfig {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.lr.unwrap_or(PATTERN_LR),
        final_learning_rate: args.lr_end.or(args.lr).unwrap_or(PATTERN_LR),
        l2: args.l2,
        lambda: args.lambda,
        seed: args.seed,
    };
    let terminal = std::io::stderr().is_terminal();
    let mut on_epoch = |r: EpochReport| report_epoch(terminal, r);
    let mut on_batch = |epoch: u32, done: f64| report_batch(terminal, epoch, done);
    // A signal during the fit ends the epoch under way; the best finished
    // one is written before the process ends.
    let fitted = signals::whole(|| {
        let fitted = fit(
            layout,
            &train,
            &valid,
            &start,
            &config,
            &mut on_epoch,
            &mut on_batch,
        );
        if signals::raised() {
            say_interrupted_fit(fitted.best.1, &args.out);
            if fitted.best.1 == 0 {
                return Ok(fitted);
            }
        }
        write_file(kind, &fitted.patterns, &args.out)
            .map(|()| fitted)
            .map_err(|e| e.to_string())
    })?;
    outln!(
        "K {:.1}; validation loss {:.6} at the start, {:.6} at epoch {}; wrote {} (the \
         evaluation reads {:.1} MB of tables)",
        fitted.k,
        fitted.start_loss,
        fitted.best.0,
        fitted.best.1,
        args.out.display(),
        fitted.patterns.table_bytes() as f64 / 1e6
    );
    Ok(ExitCode::SUCCESS)
}

/// The training and held-out positions of `args.files`, relabelled by the
/// endgame tables of `--egdb`; says how many of each, from how many games.
fn load_split<R: Rules>(args: &TrainArgs) -> Result<Split, String> {
    let kind = R::KIND;
    let loaded = load(&args.files, kind, args.hold_out)?;
    if let Some(note) = &loaded.note {
        eprintln!("train {kind}: {note}");
    }
    let games = loaded.games;
    let mut split = loaded.split;
    if let Some(dir) = &args.egdb {
        let tables = Egdb::<R>::load_available(dir, args.egdb_pieces)
            .map_err(|e| format!("--egdb {}: {e}", dir.display()))?;
        let fitted = relabel(&mut split.train, &tables)?;
        let held = relabel(&mut split.valid, &tables)?;
        eprintln!(
            "train {kind}: the {}-piece tables label {} positions to fit and {} held out \
             (for White: {} won, {} drawn, {} lost)",
            tables.pieces(),
            fitted.total(),
            held.total(),
            fitted.white_wins + held.white_wins,
            fitted.draws + held.draws,
            fitted.black_wins + held.black_wins
        );
    }
    eprintln!(
        "train {kind}: {games} games, {} positions, {} distinct: {} to fit, {} held out \
         ({} held-out positions also in training games fitted instead)",
        split.records,
        split.train.len() + split.valid.len(),
        split.train.len(),
        split.valid.len(),
        split.moved_to_train
    );
    Ok(split)
}

/// Prints an epoch's losses (over the progress bar on a terminal).
fn report_epoch(terminal: bool, r: EpochReport) {
    if terminal {
        eprint!("\r{:<78}\r", "");
    }
    eprintln!(
        "epoch {:>3}  train loss {:.6}  validation loss {:.6}",
        r.epoch, r.train_loss, r.validation_loss
    );
}

/// Draws the progress bar of an epoch on a terminal.
fn report_batch(terminal: bool, epoch: u32, done: f64) -> ControlFlow<()> {
    if signals::raised() {
        return ControlFlow::Break(());
    }
    if terminal {
        let filled = (done * 40.0) as usize;
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\repoch {epoch:>3} [{}{}] {:>3.0}%",
            "#".repeat(filled),
            " ".repeat(40 - filled),
            done * 100.0
        );
    }
    ControlFlow::Continue(())
}

/// `tempo train --network`.
fn run_network<R: Rules>(args: &TrainArgs) -> Result<ExitCode, String> {
    let kind = R::KIND;
    let patterns = builtin(kind);
    let start = match &args.init {
        Some(path) => Some(start_network(kind, &patterns, path)?),
        None => None,
    };
    let (hidden, dense) = start
        .as_ref()
        .map_or((args.hidden, args.dense), |net| (net.hidden, net.dense));
    let split = load_split::<R>(args)?;
    let files = || files_named(args);
    let train = NetworkSamples::of::<R>(&split.train, &patterns)
        .map_err(|e| format!("{}: {e}", files()))?;
    let valid = NetworkSamples::of::<R>(&split.valid, &patterns)
        .map_err(|e| format!("{}: {e}", files()))?;
    drop(split);
    if train.is_empty() || valid.is_empty() {
        return Err(format!(
            "{} training and {} held-out positions: need some of each (more games)",
            train.len(),
            valid.len()
        ));
    }
    eprintln!(
        "train {kind}: a network {INPUTS} -> {hidden} (x2) -> {dense} -> 1 on top of the built-in patterns{}",
        match &args.init {
            Some(path) => format!(", from {}", path.display()),
            None => String::new(),
        }
    );
    let lr = args.lr.unwrap_or(NETWORK_LR);
    let config = NetworkConfig {
        hidden,
        dense,
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: lr,
        final_learning_rate: args.lr_end.unwrap_or(lr),
        lambda: args.lambda,
        seed: args.seed,
        start,
    };
    let terminal = std::io::stderr().is_terminal();
    // As for the patterns: a signal ends the epoch under way and the best
    // finished one is written.
    let fitted = signals::whole(|| {
        let fitted = fit_network::<R>(
            &patterns,
            &train,
            &valid,
            &config,
            &mut |r| report_epoch(terminal, r),
            &mut |epoch, done| report_batch(terminal, epoch, done),
        );
        if signals::raised() {
            say_interrupted_fit(fitted.best.1, &args.out);
            if fitted.best.1 == 0 {
                return Ok(fitted);
            }
        }
        write_network(&fitted.network, &args.out)
            .map(|()| fitted)
            .map_err(|e| e.to_string())
    })?;
    let start = if args.init.is_some() {
        "with the --init network"
    } else {
        "without the network"
    };
    outln!(
        "K {:.1}; validation loss {:.6} {start}, {:.6} at epoch {} \
         ({:.6} in integers, as the engine scores); wrote {}",
        fitted.k,
        fitted.start_loss,
        fitted.best.0,
        fitted.best.1,
        fitted.integer_loss,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The network at `path` to start a fit from: one the engine would add to
/// `patterns` (the built-in ones of `kind`), or why not.
fn start_network(
    kind: VariantKind,
    patterns: &Arc<Patterns>,
    path: &Path,
) -> Result<Network, String> {
    let net = Arc::new(read_network(path).map_err(|e| e.to_string())?);
    Evaluator::with_network(kind, Arc::clone(patterns), Arc::clone(&net))
        .map_err(|e| format!("--init {}: {e}", path.display()))?;
    Ok(Arc::unwrap_or_clone(net))
}

/// The data files of `args`, named in a message.
fn files_named(args: &TrainArgs) -> String {
    args.files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

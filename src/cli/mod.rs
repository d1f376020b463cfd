//! Command-line tools: argument definitions and the runner for each
//! subcommand. Each tool picks the variant once, here, and calls generic code.

/// Prints a line of a tool's results to standard output, like `println!`,
/// but a reader that went away (`tempo perft --divide | head`) ends the
/// program quietly, as it ends any Unix filter, instead of a panic.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::write_line(format_args!($($arg)*))
    };
}

mod analyse;
pub mod bench;
mod book;
pub mod cpu;
#[cfg(feature = "trainer")]
mod data;
mod dxp;
mod egdb;
mod game;
mod hub;
mod matches;
pub mod perft;
mod resource_args;
#[cfg(feature = "trainer")]
mod selfplay;
mod serve;
mod tactics;
#[cfg(feature = "trainer")]
mod train;
mod tune;
#[cfg(feature = "trainer")]
mod weights;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::builder::PossibleValue;
use clap::{Parser, Subcommand};

use crate::rules::VariantKind;

/// tempo: a draughts engine of twelve variants, over the Hub and DXP protocols.
#[derive(Debug, Parser)]
#[command(name = "tempo", version, about, long_about = None)]
pub struct Cli {
    /// The tool to run (default: `hub`).
    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// Reads the command line, exiting with clap's message on a mistake. A
    /// negative number is read as a value, in every subcommand, so that
    /// `--depth -1` is refused by the value's range rather than taken for
    /// an unknown flag.
    pub fn read() -> Cli {
        use clap::{CommandFactory, FromArgMatches};
        fn negative_numbers(command: clap::Command) -> clap::Command {
            command
                .allow_negative_numbers(true)
                .mut_subcommands(negative_numbers)
        }
        let matches = negative_numbers(Cli::command()).get_matches();
        Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
    }
}

/// Reads `--variant` into a [`VariantKind`]: the command-line names, each
/// listed with its one line in the help, and the other names
/// [`VariantKind::parse`] knows (`normal`, `checkers`, ...).
#[derive(Clone, Copy, Debug)]
pub struct VariantParser;

impl clap::builder::TypedValueParser for VariantParser {
    type Value = VariantKind;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<VariantKind, clap::Error> {
        if let Some(kind) = value.to_str().and_then(VariantKind::parse) {
            return Ok(kind);
        }
        // Not a name: clap's own refusal, which lists the names.
        let names = VariantKind::ALL.map(VariantKind::name);
        let name = clap::builder::PossibleValuesParser::new(names).parse_ref(cmd, arg, value)?;
        VariantKind::parse(&name)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(VariantKind::ALL.into_iter().map(|kind| {
            PossibleValue::new(kind.name()).help(kind.summary())
        })))
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Speak the Hub protocol on standard input and output (the default).
    Hub(hub::HubArgs),
    /// Count the leaves of the legal-move tree (checks the move generator).
    Perft(perft::PerftArgs),
    /// Search fixed positions to a fixed depth; prints the node count.
    Bench(bench::BenchArgs),
    /// Play a match between two engines (Hub, Scan's first Hub or DXP),
    /// refereed by the rules.
    Match(matches::MatchArgs),
    /// Replay a move list and print the result under the draw rules.
    Game(game::GameArgs),
    /// Play International draughts over DXP (DamExchange): server or client.
    Dxp(dxp::DxpArgs),
    /// Analyse a position (default: the start), positions or PDN games.
    Analyse(analyse::AnalyseArgs),
    /// Opening books: build one by search, probe it, count games into it.
    Book(book::BookArgs),
    /// Play the engine against itself and write the positions for `train`.
    #[cfg(feature = "trainer")]
    Selfplay(selfplay::SelfplayArgs),
    /// Fit the pattern weights to self-play data; writes a weights file.
    #[cfg(feature = "trainer")]
    Train(train::TrainArgs),
    /// Self-play data files: merge a run's shards into one, count what they hold.
    #[cfg(feature = "trainer")]
    Data(data::DataArgs),
    /// Pattern weights files: average fitted sets, say what files hold.
    #[cfg(feature = "trainer")]
    Weights(weights::WeightsArgs),
    /// Endgame databases: build them by retrograde analysis, probe them.
    Egdb(egdb::EgdbArgs),
    /// Search positions with a known winning shot; say which were found and
    /// when.
    Tactics(tactics::TacticsArgs),
    /// Tune engine parameters by SPSA over game pairs; resumes from its
    /// state file.
    Tune(tune::TuneArgs),
    /// A board in the browser: play, analyse and review games on a page
    /// this command serves.
    Serve(serve::ServeArgs),
}

/// Runs a parsed command line; an error is printed by `main` with exit 2.
pub fn run(cli: Cli) -> Result<ExitCode, String> {
    match cli.command {
        None => hub::run(&hub::HubArgs::default()),
        Some(Command::Hub(args)) => hub::run(&args),
        Some(Command::Perft(args)) => perft::run(&args),
        Some(Command::Bench(args)) => bench::run(&args),
        Some(Command::Match(args)) => matches::run(&args),
        Some(Command::Game(args)) => game::run(&args),
        Some(Command::Dxp(args)) => dxp::run(&args),
        Some(Command::Analyse(args)) => analyse::run(&args),
        Some(Command::Book(args)) => book::run(&args),
        #[cfg(feature = "trainer")]
        Some(Command::Selfplay(args)) => selfplay::run(&args),
        #[cfg(feature = "trainer")]
        Some(Command::Train(args)) => train::run(&args),
        #[cfg(feature = "trainer")]
        Some(Command::Data(args)) => data::run(&args),
        #[cfg(feature = "trainer")]
        Some(Command::Weights(args)) => weights::run(&args),
        Some(Command::Egdb(args)) => egdb::run(&args),
        Some(Command::Tactics(args)) => tactics::run(&args),
        Some(Command::Tune(args)) => tune::run(&args),
        Some(Command::Serve(args)) => serve::run(&args),
    }
}

/// Writes one line to standard output for `outln!`: a closed pipe exits with
/// success (the reader has all it wanted), any other failure with a message.
pub(crate) fn write_line(args: std::fmt::Arguments) {
    let mut out = io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("tempo: cannot write to standard output: {e}");
            std::process::exit(2);
        }
    }
}

/// Checks a command's outputs against its inputs and each other
/// ([`crate::files::check_outputs`]) before any work, and gives what says
/// "replaced FILE" on standard error for each output that existed, once
/// the command has written them.
pub(crate) fn guard_outputs(
    inputs: &[(&str, &std::path::Path)],
    outputs: &[(&str, &std::path::Path)],
) -> Result<Replacing, String> {
    crate::files::check_outputs(inputs, outputs).map(Replacing)
}

/// The outputs of a command that existed before it ran.
pub(crate) struct Replacing(Vec<std::path::PathBuf>);

impl Replacing {
    /// Says on standard error which existing files were replaced.
    pub(crate) fn say(&self) {
        for path in &self.0 {
            eprintln!("replaced {}", path.display());
        }
    }
}

/// Reads a position given on the command line (`flag`, as `--fen`): a FEN
/// or a Hub position string of `R`'s board. A mistake is said with what
/// would fix it: a string of another board's length, or a square beyond
/// this board, names the `--variant` it needs.
pub(crate) fn position_arg<R: crate::rules::Rules>(
    flag: &str,
    text: &str,
) -> Result<crate::rules::Position<R>, String> {
    crate::rules::notation::parse_position::<R>(text)
        .map_err(|e| format!("{flag}: {e}{}", other_board_hint(text, R::KIND)))
}

/// What to add to the error of a position that may belong to another
/// board than `variant`'s: nothing when it does not look so.
pub(crate) fn other_board_hint(text: &str, variant: VariantKind) -> String {
    let text = text.trim();
    let names = |kinds: Vec<VariantKind>| {
        kinds
            .into_iter()
            .map(VariantKind::name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !text.contains(':') {
        let length = text.chars().count();
        let boards = VariantKind::with_hub_length(length);
        if length == variant.hub_length() || boards.is_empty() {
            return String::new();
        }
        return format!(
            "; {length} characters is a Hub string of another board, played by {}: \
             give --variant (this one is {variant})",
            names(boards)
        );
    }
    let highest = text
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse::<u32>().ok())
        .max();
    match highest {
        Some(square) if square > variant.squares() => {
            let boards: Vec<VariantKind> = VariantKind::ALL
                .into_iter()
                .filter(|kind| kind.squares() >= square)
                .collect();
            format!(
                "; square {square} is beyond this board ({variant} numbers 1-{}): a position \
                 of another board needs its --variant ({})",
                variant.squares(),
                names(boards)
            )
        }
        _ => String::new(),
    }
}

//! `tempo analyse`: searches a position (the start position when none is
//! given), the positions of a file, or every position of the games of a PDN
//! file, and prints one record per position (`analyse::output` documents
//! the records): text for people on a terminal, showing each depth as the
//! search completes it, JSON Lines otherwise.
//!
//! Standard output carries the results and nothing else. Standard error
//! carries the malformed inputs (`FILE:LINE: why`, each skipped), a progress
//! line while it is a terminal and the results go elsewhere, and a last
//! summary line. Exit status: 0 when every input was analysed, 1 when some
//! were skipped, 2 on an error that stops the run (an unreadable file, a bad
//! `--fen`, memory), 130 when Ctrl-C stopped it (the finished games are in
//! `--annotate` and `--report`, which are kept up to date as games finish).

use std::collections::HashMap;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use super::resource_args::ResourceArgs;
use super::VariantParser;
use crate::analyse::annotate::annotated_pdn;
use crate::analyse::input::{read_pdn, read_position, read_positions, start_position, InputError};
use crate::analyse::output::{render, Format};
use crate::analyse::report::{game_section, page};
use crate::analyse::{AnalyseError, Analyser, Event, Record, Settings, Source, Unit};
use crate::rules::VariantKind;
use crate::search::Limits;
use crate::signals;

/// Output formats on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputArg {
    /// Text on a terminal, JSON Lines otherwise.
    Auto,
    /// JSON Lines: one object per position.
    Json,
    /// Text for people, with a line for each depth searched.
    Text,
}

/// The time each position gets when no limit is given.
const DEFAULT_MOVETIME: Duration = Duration::from_secs(3);

/// Arguments of `tempo analyse`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("input").args(["fen", "positions", "pdn"])))]
#[command(group(clap::ArgGroup::new("limit").args(["movetime", "depth", "nodes"])))]
pub struct AnalyseArgs {
    /// The variant of positions, and of games without a GameType tag.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// One position, as a FEN or a Hub position string (default, without
    /// --positions or --pdn: the variant's start position).
    #[arg(long, conflicts_with_all = ["positions", "pdn"])]
    pub fen: Option<String>,
    /// A file of positions, one FEN or Hub position string per line (blank
    /// lines and `#` comments skipped).
    #[arg(long, value_name = "FILE", conflicts_with = "pdn")]
    pub positions: Option<PathBuf>,
    /// A PDN file: every position of every game is analysed and each played
    /// move is judged against the best one.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,
    /// Seconds per position, decimals allowed (3 when no limit is given).
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub movetime: Option<Duration>,
    /// Depth per position, in plies.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=120))]
    pub depth: Option<u32>,
    /// Nodes per position.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Lines per position, best first.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub multipv: u32,
    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table size in MiB, kept for the whole run.
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// Output format.
    #[arg(long, value_enum, default_value = "auto")]
    pub output: OutputArg,
    /// The weights and endgame tables of the searches.
    #[command(flatten)]
    pub resources: ResourceArgs,
    /// With --pdn: write the games back to FILE as PDN, the score after
    /// every move in a comment, each inaccuracy, mistake and blunder
    /// marked (?!, ?, ??) with the better move and its line as a
    /// variation, and a summary of each side.
    #[arg(long, value_name = "FILE", requires = "pdn")]
    pub annotate: Option<PathBuf>,
    /// With --pdn: write an HTML report to FILE (one page, nothing beside
    /// it): per game the evaluation graph, the marked moves and a board
    /// diagram at each mistake with the better move.
    #[arg(long, value_name = "FILE", requires = "pdn")]
    pub report: Option<PathBuf>,
}

/// The limit of every search, in words (`depth 10`, `3 s a position`).
fn limits_text(args: &AnalyseArgs) -> String {
    match (args.depth, args.nodes, args.movetime) {
        (Some(d), _, _) => format!("depth {d}"),
        (_, Some(n), _) => format!("{n} nodes a position"),
        (_, _, Some(t)) => format!("{} s a position", t.as_secs_f64()),
        _ => format!("{} s a position", DEFAULT_MOVETIME.as_secs_f64()),
    }
}

/// Reads a positive number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if secs.is_nan() || secs <= 0.0 {
        return Err(format!("'{text}': the time must be positive"));
    }
    Duration::try_from_secs_f64(secs).map_err(|e| format!("'{text}': {e}"))
}

/// The progress line on standard error, shown only when it is a terminal
/// and the results go elsewhere.
struct Progress {
    shown: bool,
    total: usize,
    done: usize,
    started: Instant,
}

impl Progress {
    fn new(total: usize) -> Progress {
        let progress = Progress {
            shown: io::stderr().is_terminal() && !io::stdout().is_terminal(),
            total,
            done: 0,
            started: Instant::now(),
        };
        progress.show();
        progress
    }

    fn step(&mut self) {
        self.done += 1;
        self.show();
    }

    fn show(&self) {
        if !self.shown {
            return;
        }
        let elapsed = self.started.elapsed();
        let left = self.total.saturating_sub(self.done);
        let eta = elapsed.mul_f64(left as f64 / self.done.max(1) as f64);
        eprint!(
            "\r{}/{} positions, elapsed {}, ETA {}   ",
            self.done,
            self.total,
            clock(elapsed),
            clock(eta)
        );
    }

    fn finish(&self) {
        if self.shown {
            eprint!("\r{:60}\r", "");
        }
    }
}

/// `count` things: `1 position`, `2 positions`.
fn counted(count: usize, thing: &str) -> String {
    let s = if count == 1 { "" } else { "s" };
    format!("{count} {thing}{s}")
}

/// A duration as `m:ss` (or `h:mm:ss`).
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Whether `text` reads as PDN: a tag pair line (`[Event "..."]`) or a
/// line that starts with a numbered move (`1. 32-28`).
fn looks_like_pdn(text: &str) -> bool {
    text.lines().map(str::trim).any(|line| {
        let tag = line.starts_with('[') && line.ends_with(']') && line.contains('"');
        let numbered = line
            .split_once('.')
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        tag || numbered
    })
}

/// The units to analyse and the inputs skipped, read from the arguments.
fn load(args: &AnalyseArgs, kind: VariantKind) -> Result<(Vec<Unit>, usize), String> {
    if let Some(fen) = &args.fen {
        let game = read_position(kind, fen)
            .map_err(|e| format!("--fen: {e}{}", super::other_board_hint(fen, kind)))?;
        let unit = Unit {
            source: Source::Argument,
            game,
            tags: Vec::new(),
        };
        return Ok((vec![unit], 0));
    }
    let (path, pdn) = match (&args.positions, &args.pdn) {
        (Some(path), _) => (path, false),
        (None, Some(path)) => (path, true),
        (None, None) => {
            let unit = Unit {
                source: Source::Argument,
                game: start_position(kind),
                tags: Vec::new(),
            };
            return Ok((vec![unit], 0));
        }
    };
    // PDN files are often Latin-1: names may come out garbled, moves never.
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.contains(&0) {
        return Err(format!(
            "{}: not a text file (it holds NUL bytes): give a PDN file or one of positions",
            path.display()
        ));
    }
    let text = String::from_utf8_lossy(&bytes);
    let (units, errors) = if pdn {
        read_pdn(kind, &text)
    } else {
        read_positions(kind, &text)
    };
    if !pdn && units.is_empty() && looks_like_pdn(&text) {
        return Err(format!(
            "{}: a PDN file, not one of positions (a FEN or Hub string a line): \
             give it as --pdn {}",
            path.display(),
            path.display()
        ));
    }
    for InputError {
        line,
        message,
        skipped,
    } in &errors
    {
        let skipped = if *skipped { " (skipped)" } else { "" };
        // Control characters of a garbled input are shown, not sent to the
        // terminal.
        let message: String = message
            .chars()
            .flat_map(|c| {
                let shown: Vec<char> = if c.is_control() {
                    c.escape_default().collect()
                } else {
                    vec![c]
                };
                shown
            })
            .collect();
        eprintln!("{}:{line}: {message}{skipped}", path.display());
    }
    let mut skipped = errors.iter().filter(|e| e.skipped).count();
    if units.is_empty() && errors.is_empty() {
        // Nothing to analyse is an input that was not what it should be.
        let what = if pdn { "game" } else { "position" };
        eprintln!("{}: holds no {what} (skipped)", path.display());
        skipped += 1;
    }
    Ok((units, skipped))
}

/// Refuses an output path that cannot be written, before any search: its
/// folder must exist and the path must not be a folder.
fn check_output(flag: &str, path: &Path) -> Result<(), String> {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(format!(
            "{flag} {}: the folder {} does not exist",
            path.display(),
            folder.display()
        ));
    }
    if path.is_dir() {
        return Err(format!("{flag} {}: is a folder", path.display()));
    }
    Ok(())
}

/// The annotated PDN and the HTML report of `--annotate` and `--report`,
/// kept up to date as games finish: each finished game's records are kept,
/// and both files are written again (whole, through a temporary file) when
/// a game finishes and a few seconds have passed since the last writing,
/// and at the end. An interrupted run keeps its finished games.
struct GameFiles<'a> {
    args: &'a AnalyseArgs,
    units: &'a [Unit],
    /// How many positions each game has, by its source.
    positions: HashMap<Source, usize>,
    /// The records of each game by its source.
    kept: HashMap<Source, Vec<Record>>,
    /// Games finished since the files were last written.
    unwritten: usize,
    /// Finished games in the files.
    written: usize,
    last: Instant,
}

/// The least time between two writings of the files while games finish.
const REWRITE_EVERY: Duration = Duration::from_secs(5);

impl<'a> GameFiles<'a> {
    fn new(args: &'a AnalyseArgs, units: &'a [Unit]) -> GameFiles<'a> {
        GameFiles {
            args,
            units,
            positions: units
                .iter()
                .map(|u| (u.source, u.game.positions()))
                .collect(),
            kept: HashMap::new(),
            unwritten: 0,
            written: 0,
            last: Instant::now(),
        }
    }

    fn wanted(&self) -> bool {
        self.args.annotate.is_some() || self.args.report.is_some()
    }

    /// Keeps `record`; writes the files when it finishes a game and the
    /// last writing is a while ago.
    fn keep(&mut self, record: Record) -> Result<(), String> {
        if !self.wanted() {
            return Ok(());
        }
        let source = record.source;
        let records = self.kept.entry(source).or_default();
        records.push(record);
        if self.positions.get(&source) == Some(&records.len()) {
            self.unwritten += 1;
            if self.last.elapsed() >= REWRITE_EVERY {
                self.write()?;
            }
        }
        Ok(())
    }

    /// The finished games, in the input's order, with their number.
    fn finished(&self) -> impl Iterator<Item = (usize, &Unit, &[Record])> {
        self.units.iter().enumerate().filter_map(|(i, unit)| {
            let records = self.kept.get(&unit.source)?;
            (records.len() == unit.game.positions()).then_some((i + 1, unit, records.as_slice()))
        })
    }

    /// Writes both files with every finished game.
    fn write(&mut self) -> Result<(), String> {
        if !self.wanted() || self.unwritten == 0 {
            return Ok(());
        }
        let args = self.args;
        let save = |path: &Path, text: String| {
            crate::files::replace(path, text.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        };
        if let Some(path) = &args.annotate {
            let annotator = format!("tempo {} ({})", crate::engine::VERSION, limits_text(args));
            let text: String = self
                .finished()
                .filter_map(|(_, unit, records)| {
                    crate::rules::with_rules!(unit.game.variant(), R => unit.game.get::<R>().map(
                        |game| annotated_pdn(&unit.tags, game, records, &annotator)
                    ))
                })
                .collect();
            save(path, text)?;
        }
        if let Some(path) = &args.report {
            let sections: Vec<String> = self
                .finished()
                .filter_map(|(number, unit, records)| {
                    crate::rules::with_rules!(unit.game.variant(), R => unit.game.get::<R>().map(
                        |game| game_section(&unit.tags, game, records, number)
                    ))
                })
                .collect();
            let source = args
                .pdn
                .as_ref()
                .map_or(String::new(), |p| p.display().to_string());
            let title = format!("tempo analysis of {source} ({})", limits_text(args));
            save(path, page(&title, &sections))?;
        }
        self.written += self.unwritten;
        self.unwritten = 0;
        self.last = Instant::now();
        Ok(())
    }
}

/// Runs `tempo analyse`.
pub fn run(args: &AnalyseArgs) -> Result<ExitCode, String> {
    let kind = args.variant;
    let mut outputs = Vec::new();
    for (flag, path) in [("--annotate", &args.annotate), ("--report", &args.report)] {
        if let Some(path) = path {
            check_output(flag, path)?;
            outputs.push((flag, path.as_path()));
        }
    }
    let mut inputs: Vec<(&str, &Path)> = [("--pdn", &args.pdn), ("--positions", &args.positions)]
        .into_iter()
        .filter_map(|(flag, path)| Some((flag, path.as_deref()?)))
        .collect();
    inputs.extend(args.resources.inputs());
    let replacing = super::guard_outputs(&inputs, &outputs)?;
    let (units, skipped) = load(args, kind)?;
    let no_limit = args.depth.is_none() && args.nodes.is_none() && args.movetime.is_none();
    let settings = Settings {
        limits: Limits {
            depth: args.depth,
            nodes: args.nodes,
            move_time: if no_limit {
                Some(DEFAULT_MOVETIME)
            } else {
                args.movetime
            },
            ..Limits::default()
        },
        multipv: args.multipv as usize,
        threads: args.threads as usize,
        resources: args.resources.settings(),
    };
    let analyser = Analyser::new(settings, args.hash as usize)?;
    let format = match args.output {
        OutputArg::Auto if io::stdout().is_terminal() => Format::Text,
        OutputArg::Auto | OutputArg::Json => Format::Json,
        OutputArg::Text => Format::Text,
    };
    let mut progress = Progress::new(units.iter().map(|u| u.game.positions()).sum());
    let mut out = io::stdout().lock();
    let mut files = GameFiles::new(args, &units);
    // Ctrl-C (or SIGTERM) stops the running search at once; the run then
    // writes what it finished.
    let interrupt = analyser.interrupt();
    signals::install(move || interrupt.stop());
    // A signal stops the search and the run; the finished games are
    // written before the process ends.
    signals::whole(|| -> Result<(), String> {
        let mut emit = |event: Event| {
            if signals::raised() {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
            }
            out.write_all(render(&event, format).as_bytes())?;
            out.flush()?;
            if let Event::Done(record) = event {
                progress.step();
                files.keep(record).map_err(io::Error::other)?;
            }
            Ok(())
        };
        let outcome = analyser.analyse_all(&units, &mut emit);
        progress.finish();
        let written = match outcome {
            // A reader that went away (`| head`) ends the run quietly.
            Err(AnalyseError::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            Err(AnalyseError::Output(e)) if e.kind() == io::ErrorKind::Interrupted => Ok(()),
            Err(e) => Err(e.to_string()),
            Ok(()) => Ok(()),
        }
        .and_then(|()| files.write());
        if files.written > 0 {
            replacing.say();
        }
        signals::farewell(match &written {
            Ok(()) => format!(
                "interrupted: analysed {}; {} finished game(s) written",
                counted(progress.done, "position"),
                files.written
            ),
            Err(e) => format!("interrupted: {e}"),
        });
        written
    })?;
    for (what, path) in [
        ("annotated games", &args.annotate),
        ("report", &args.report),
    ] {
        if let Some(path) = path {
            eprintln!("{what} written to {}", path.display());
        }
    }
    eprintln!(
        "analysed {} from {}; skipped {}",
        counted(progress.done, "position"),
        counted(units.len(), "input"),
        counted(skipped, "input")
    );
    Ok(if skipped == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_read_strictly() {
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        assert!(parse_seconds("0").is_err());
        assert!(parse_seconds("-1").is_err());
        assert!(parse_seconds("NaN").is_err());
        assert!(parse_seconds("1e300").is_err());
        assert!(parse_seconds("soon").is_err());
    }

    #[test]
    fn counts_agree_with_their_nouns() {
        assert_eq!(counted(1, "position"), "1 position");
        assert_eq!(counted(0, "input"), "0 inputs");
        assert_eq!(counted(3, "input"), "3 inputs");
    }

    #[test]
    fn clocks_read_as_minutes_and_hours() {
        assert_eq!(clock(Duration::from_secs(75)), "1:15");
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
    }
}

//! `tempo book`: build an opening book by the engine's own search, probe a
//! position, count game files into a book.
//!
//! The book itself (format, builder, counting) is `crate::book`; this file
//! gives the builder its search, reads PDN with `crate::pdn`, and does the
//! printing and file handling.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use parking_lot::Mutex;

use super::VariantParser;
use crate::book::{
    self, add_game, Book, BuildConfig, BuildEvent, GameOutcome, Progress, ScoredMove,
};
use crate::game::Game;
use crate::pdn::{read_games, PdnGame};
use crate::rules::notation::{parse_move, parse_position, to_fen};
use crate::rules::{Move, Position, Rules, VariantKind};
use crate::search::tt::Table;
use crate::search::{search, Control, Limits, SearchResources, SearchSetup};

/// Arguments of `tempo book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The `tempo book` tools.
#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Grow a book from the start position by the engine's search.
    Build(BuildArgs),
    /// Print the book moves of a position, best first.
    Probe(ProbeArgs),
    /// Count the opening moves of PDN game files into a book (weights by
    /// frequency and result).
    AddPdn(AddPdnArgs),
}

/// Arguments of `tempo book build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The variant.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// The book file to write (rewritten at every checkpoint).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Book lines are this many plies long: positions up to this ply from
    /// the start get book moves.
    #[arg(long, value_name = "PLIES", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub plies: u32,
    /// Positions at plies below this get every legal move (1: every first
    /// move is in the book).
    #[arg(long, value_name = "PLIES", default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=4))]
    pub full_plies: u32,
    /// Search depth used to score the moves of each position.
    #[arg(long, value_name = "D", default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Moves within this many men of the best are book moves (beyond the
    /// full plies).
    #[arg(long, value_name = "MEN", default_value = "0.10", value_parser = parse_margin)]
    pub margin: i32,
    /// At most this many book moves per position (beyond the full plies).
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=20))]
    pub width: u32,
    /// Positions searched at once (one search thread each).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
    /// Transposition table per thread, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash: u32,
    /// Continue the book in `--out` (positions in it are not searched
    /// again); without it an existing file is refused.
    #[arg(long)]
    pub resume: bool,
    /// Seconds between two saves of the partial book.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub checkpoint: u64,
}

/// Arguments of `tempo book probe`.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// The variant.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// The position, as a FEN or Hub position string (default: the start).
    #[arg(long)]
    pub fen: Option<String>,
    /// The book file (default: the shipped book of the variant).
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
}

/// Arguments of `tempo book add-pdn`.
#[derive(Debug, Args)]
pub struct AddPdnArgs {
    /// PDN files to read.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The book to add to (created when missing).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The variant; games whose GameType names another are skipped.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// Moves counted from the start of each game.
    #[arg(long, value_name = "PLIES", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub plies: u32,
}

/// Reads a margin in men (`0.10`) as hundredths of a man.
fn parse_margin(text: &str) -> Result<i32, String> {
    let men: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of men"))?;
    if !(0.0..=10.0).contains(&men) {
        return Err(format!("{men} is outside 0..10 men"));
    }
    Ok((men * 100.0).round() as i32)
}

/// Runs `tempo book`.
pub fn run(args: &BookArgs) -> Result<ExitCode, String> {
    match &args.command {
        BookCommand::Build(a) => {
            crate::rules::with_rules!(a.variant, R => build_for::<R>(a))
        }
        BookCommand::Probe(a) => {
            crate::rules::with_rules!(a.variant, R => probe_for::<R>(a))
        }
        BookCommand::AddPdn(a) => {
            crate::rules::with_rules!(a.variant, R => add_pdn_for::<R>(a))
        }
    }
}

/// `1h02m03s`, `4m05s` or `6s`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, min, sec) => format!("{min}m{sec:02}s"),
        (h, min, sec) => format!("{h}h{min:02}m{sec:02}s"),
    }
}

fn progress_line(p: &Progress) -> String {
    let eta = |d: Option<Duration>| d.map_or_else(|| "?".to_string(), clock);
    format!(
        "ply {}/{}: {}/{} positions, {} in book, elapsed {}, ply ETA {}, total ETA ~{}",
        p.ply + 1,
        p.plies,
        p.done,
        p.todo,
        p.book_positions,
        clock(p.elapsed),
        eta(p.ply_eta),
        eta(p.total_eta),
    )
}

/// Scores the best `lines` moves of `pos` by a multi-PV search to `depth`
/// with a cleared table, so the result does not depend on what the thread
/// searched before.
fn score_moves<R: Rules>(
    pos: &Position<R>,
    lines: usize,
    depth: u32,
    table: &Mutex<Table>,
    resources: &SearchResources<R>,
) -> Vec<ScoredMove> {
    let legal = pos.legal_moves().len();
    if legal == 0 {
        return Vec::new();
    }
    let mut setup = SearchSetup::for_game(
        &Game::new(*pos),
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    );
    setup.multipv = lines.min(legal);
    setup.resources = resources.clone();
    setup.search_single_move = true;
    let mut table = table.lock();
    table.clear();
    let mut found: Vec<Option<ScoredMove>> = vec![None; setup.multipv];
    search(&setup, &table, &Control::new(false), &mut |it| {
        if let (Some(&mv), Some(slot)) = (it.pv.first(), found.get_mut(it.multipv - 1)) {
            *slot = Some(ScoredMove {
                mv,
                score: it.score,
                depth: it.depth,
            });
        }
    });
    let deepest = found.iter().flatten().map(|s| s.depth).max().unwrap_or(0);
    found
        .into_iter()
        .flatten()
        .filter(|s| s.depth == deepest)
        .collect()
}

fn build_for<R: Rules>(args: &BuildArgs) -> Result<ExitCode, String> {
    let out = args.out.as_path();
    let book = if out.exists() {
        if !args.resume {
            return Err(format!(
                "{} exists: pass --resume to continue it, or remove it",
                out.display()
            ));
        }
        let book = Book::read_file::<R>(out).map_err(|e| e.to_string())?;
        eprintln!("resuming {}: {} positions", out.display(), book.len());
        book
    } else {
        Book::new(R::KIND)
    };
    let notes = vec![format!(
        "built by: tempo book build --variant {} --plies {} --full-plies {} --depth {} --margin {}.{:02} --width {} --hash {}",
        R::NAME,
        args.plies,
        args.full_plies,
        args.depth,
        args.margin / 100,
        args.margin % 100,
        args.width,
        args.hash
    )];
    let config = BuildConfig {
        plies: args.plies,
        full_plies: args.full_plies,
        width: args.width as usize,
        margin: args.margin,
        threads: args.threads as usize,
        checkpoint_every: Duration::from_secs(args.checkpoint),
    };
    let tables: Vec<Mutex<Table>> = (0..args.threads)
        .map(|_| {
            Table::try_new(args.hash as usize)
                .map(Mutex::new)
                .map_err(|e| format!("--hash: {e}"))
        })
        .collect::<Result<_, _>>()?;
    let depth = args.depth;
    // One set for every search, so that their workers reuse each other's
    // buffers.
    let resources = SearchResources::<R>::builtin();
    let oracle = |pos: &Position<R>, lines: usize| {
        let slot = rayon::current_thread_index().unwrap_or(0) % tables.len();
        score_moves(pos, lines, depth, &tables[slot], &resources)
    };
    let started = Instant::now();
    let mut last_line = Instant::now();
    let mut searched = 0;
    let mut on_event = |event: BuildEvent<'_>| -> Result<(), book::BookError> {
        match event {
            BuildEvent::Progress(p) => {
                searched = p.searched;
                if p.done == p.todo || last_line.elapsed() >= Duration::from_secs(2) {
                    last_line = Instant::now();
                    eprintln!("{}", progress_line(&p));
                }
                Ok(())
            }
            BuildEvent::Checkpoint(b) => b.write_file(out, &notes),
        }
    };
    let book =
        book::build::<R, _>(book, &config, oracle, &mut on_event).map_err(|e| e.to_string())?;
    book.write_file(out, &notes).map_err(|e| e.to_string())?;
    outln!(
        "{}: {} positions, {} moves; {searched} positions searched in {}",
        out.display(),
        book.len(),
        book.move_count(),
        clock(started.elapsed())
    );
    Ok(ExitCode::SUCCESS)
}

fn probe_for<R: Rules>(args: &ProbeArgs) -> Result<ExitCode, String> {
    let pos = match &args.fen {
        Some(text) => super::position_arg::<R>("--fen", text)?,
        None => Position::<R>::start(),
    };
    let book = match &args.book {
        Some(path) => Arc::new(Book::read_file::<R>(Path::new(path)).map_err(|e| e.to_string())?),
        None => book::shipped(R::KIND).map_err(|e| e.to_string())?,
    };
    let Some(moves) = book.probe(&pos) else {
        let source = args.book.as_ref().map_or_else(
            || "the shipped book".to_string(),
            |p| p.display().to_string(),
        );
        eprintln!(
            "tempo: {} is not in {source} ({} positions)",
            to_fen(&pos),
            book.len()
        );
        return Ok(ExitCode::from(1));
    };
    let mut out = String::new();
    for m in moves {
        out.push_str(&format!("move={}", m.text));
        if let Some(s) = m.score {
            out.push_str(&format!(" score={:.2}", f64::from(s) / 100.0));
        }
        if let Some(d) = m.depth {
            out.push_str(&format!(" depth={d}"));
        }
        out.push_str(&format!(" weight={}\n", m.weight));
    }
    std::io::stdout()
        .write_all(out.as_bytes())
        .map_err(|e| format!("standard output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// The outcome of a game from its result marker (or `Result` tag).
fn outcome(game: &PdnGame) -> GameOutcome {
    match game.result.as_deref().or_else(|| game.tag("Result")) {
        Some("1-0" | "2-0") => GameOutcome::WhiteWins,
        Some("0-1" | "0-2") => GameOutcome::BlackWins,
        Some("1/2-1/2" | "1-1") => GameOutcome::Draw,
        _ => GameOutcome::Unknown,
    }
}

/// The start position and the first `plies` moves of a game, or why they
/// cannot be read (with the line of the fault).
fn replay<R: Rules>(game: &PdnGame, plies: usize) -> Result<(Position<R>, Vec<Move>), String> {
    let start = match game.fen() {
        Some(fen) => parse_position::<R>(fen).map_err(|e| format!("{}: FEN: {e}", game.line))?,
        None => Position::<R>::start(),
    };
    let mut pos = start;
    let mut moves = Vec::new();
    for (i, (text, line)) in game
        .moves
        .iter()
        .zip(&game.move_lines)
        .take(plies)
        .enumerate()
    {
        let mv = parse_move(&pos, text).map_err(|e| format!("{line}: move {} {e}", i + 1))?;
        pos = pos.play(mv);
        moves.push(mv);
    }
    Ok((start, moves))
}

/// Runs `tempo book add-pdn`: games that cannot be read or replayed are
/// reported on standard error with their file and line and skipped (exit
/// status 1); the others are counted and the book written.
fn add_pdn_for<R: Rules>(args: &AddPdnArgs) -> Result<ExitCode, String> {
    let out = args.out.as_path();
    let inputs: Vec<(&str, &Path)> = args.files.iter().map(|f| ("input", f.as_path())).collect();
    super::guard_outputs(&inputs, &[("--out", out)])?;
    let mut book = if out.exists() {
        Book::read_file::<R>(out).map_err(|e| e.to_string())?
    } else {
        Book::new(R::KIND)
    };
    // Every file is read, and refused if it is not text, before the book
    // is touched: a wrong file leaves no book behind.
    let mut texts = Vec::with_capacity(args.files.len());
    for file in &args.files {
        let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        if bytes.contains(&0) {
            return Err(format!(
                "{}: not a text file (it holds NUL bytes): give PDN files",
                file.display()
            ));
        }
        texts.push(String::from_utf8_lossy(&bytes).into_owned());
    }
    let (mut counted, mut moves, mut bad, mut other) = (0usize, 0usize, 0usize, 0usize);
    for (file, text) in args.files.iter().zip(&texts) {
        for game in read_games(text) {
            let game = match game {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("{}:{}: {}", file.display(), e.line, e.message);
                    bad += 1;
                    continue;
                }
            };
            if game.variant().is_some_and(|v| v != R::KIND) {
                other += 1;
                continue;
            }
            match replay::<R>(&game, args.plies as usize) {
                Ok((start, played)) => {
                    moves += add_game(&mut book, &start, &played, outcome(&game), played.len())
                        .map_err(|e| format!("{}:{}: {e}", file.display(), game.line))?;
                    counted += 1;
                }
                Err(why) => {
                    eprintln!("{}:{why}", file.display());
                    bad += 1;
                }
            }
        }
    }
    let note = format!(
        "games counted by: tempo book add-pdn --variant {} --plies {}",
        R::NAME,
        args.plies
    );
    book.write_file(out, &[note]).map_err(|e| e.to_string())?;
    outln!(
        "{}: {counted} games counted ({moves} moves), {bad} skipped as unreadable, {other} of another variant; {} positions, {} moves in the book",
        out.display(),
        book.len(),
        book.move_count()
    );
    Ok(if bad > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

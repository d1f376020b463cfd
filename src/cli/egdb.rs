//! `tempo egdb`: build the endgame databases, and probe them.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use super::VariantParser;
use crate::egdb::{build_slices, BuildEvent, Egdb, Material, Value};
use crate::rules::movegen::{has_capture, side_has_capture};
use crate::rules::notation::{format_move, to_fen};
use crate::rules::{DrawClocks, DrawSettings, MoveStyle, Position, Rules, VariantKind};

/// Arguments of `tempo egdb`.
#[derive(Debug, Args)]
pub struct EgdbArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: EgdbAction,
}

/// The `egdb` subcommands.
#[derive(Debug, Subcommand)]
pub enum EgdbAction {
    /// Build every slice of up to --pieces pieces (slices on disk are kept).
    Build(BuildArgs),
    /// Print the value of a position and of each of its moves.
    Probe(ProbeArgs),
    /// Print positions of exactly --pieces pieces drawn at random from the
    /// tables, of one value, as FEN lines (an openings file for `tempo
    /// match`).
    Sample(SampleArgs),
}

/// The values `tempo egdb sample` draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SampleValue {
    /// Won for the side to move, within the count rules from a fresh clock.
    Win,
    /// Drawn.
    Draw,
}

/// Arguments of `tempo egdb sample`.
#[derive(Debug, Args)]
pub struct SampleArgs {
    /// Which tables, where (positions of exactly --pieces pieces).
    #[command(flatten)]
    pub tables: TablesArgs,
    /// The value of the positions for the side to move.
    #[arg(long, value_enum, default_value = "win")]
    pub value: SampleValue,
    /// Positions to print.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub count: u32,
    /// Shortest win to take, in plies (short wins test little).
    #[arg(long, default_value_t = 9)]
    pub min_plies: u32,
    /// Seed of the draw.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Where the tables are and which.
#[derive(Debug, Args)]
pub struct TablesArgs {
    /// The variant.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// Most pieces on the board.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u32).range(2..=8))]
    pub pieces: u32,
    /// The directory of the table files.
    #[arg(long, value_name = "PATH", default_value = "egdb")]
    pub dir: PathBuf,
}

/// Arguments of `tempo egdb build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// Which tables, where.
    #[command(flatten)]
    pub tables: TablesArgs,
    /// Worker threads [default: one per processor].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: Option<u32>,
    /// Build only the slices without men (king endings: quick, but the
    /// engine loads a piece count only when all its slices are there).
    #[arg(long)]
    pub kings_only: bool,
}

/// Arguments of `tempo egdb probe`.
#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// Which tables, where.
    #[command(flatten)]
    pub tables: TablesArgs,
    /// The position, as a FEN or Hub position string.
    #[arg(long)]
    pub fen: String,
}

impl TablesArgs {
    /// Refuses a `--dir` that exists and is not a directory (`egdb build`
    /// said only `File exists (os error 17)`).
    fn check_dir(&self) -> Result<(), String> {
        if self.dir.exists() && !self.dir.is_dir() {
            return Err(format!(
                "--dir {}: not a directory (a file of that name is there)",
                self.dir.display()
            ));
        }
        Ok(())
    }
}

/// Runs `tempo egdb`.
pub fn run(args: &EgdbArgs) -> Result<ExitCode, String> {
    let tables = match &args.action {
        EgdbAction::Build(a) => &a.tables,
        EgdbAction::Probe(a) => &a.tables,
        EgdbAction::Sample(a) => &a.tables,
    };
    tables.check_dir()?;
    match &args.action {
        EgdbAction::Build(a) => {
            let kind = a.tables.variant;
            crate::rules::with_rules!(kind, R => run_build::<R>(a))
        }
        EgdbAction::Probe(a) => {
            let kind = a.tables.variant;
            crate::rules::with_rules!(kind, R => run_probe::<R>(a))
        }
        EgdbAction::Sample(a) => {
            let kind = a.tables.variant;
            crate::rules::with_rules!(kind, R => run_sample::<R>(a))
        }
    }
}

fn run_build<R: Rules>(args: &BuildArgs) -> Result<ExitCode, String> {
    Egdb::<R>::supports().map_err(|e| e.to_string())?;
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        pool = pool.num_threads(n as usize);
    }
    let pool = pool.build().map_err(|e| format!("thread pool: {e}"))?;
    let t = &args.tables;
    eprintln!(
        "egdb build {}: up to {} pieces into {} on {} threads",
        R::NAME,
        t.pieces,
        t.dir.display(),
        pool.current_num_threads()
    );
    let started = Instant::now();
    let live = std::io::stderr().is_terminal();
    // Ctrl-C ends the build at once; every finished slice is on disk whole
    // (written under another name, then renamed) and kept by the next run.
    crate::signals::install(|| {});
    let resume = |built: usize| {
        format!(
            "\ninterrupted: {built} slices built by this run are in {}; the same command goes on",
            t.dir.display()
        )
    };
    crate::signals::farewell(resume(0));
    let mut last_line = Instant::now() - Duration::from_secs(10);
    let mut total_bytes = 0u64;
    let mut built = 0usize;
    let mut report = |event: &BuildEvent| match event {
        BuildEvent::Loaded { material } => eprintln!("slice {material}: on disk, kept"),
        BuildEvent::Started {
            material,
            positions,
            done,
            total,
        } => {
            eprintln!(
                "slice {material} and its partner ({done}/{total} slices done): {positions} positions"
            );
        }
        BuildEvent::Ply {
            material,
            ply,
            decided,
        } => {
            if last_line.elapsed() >= Duration::from_secs(1) {
                last_line = Instant::now();
                let line = format!(
                    "  slice {material}: ply {ply}, {decided} decided, {:.0} s",
                    started.elapsed().as_secs_f64()
                );
                if live {
                    eprint!("\r{line}   ");
                    let _ = std::io::stderr().flush();
                } else {
                    eprintln!("{line}");
                }
            }
        }
        BuildEvent::Finished {
            material,
            census: [w, d, l],
            seconds,
            bytes,
        } => {
            built += 1;
            total_bytes += bytes;
            crate::signals::farewell(resume(built));
            if live {
                eprint!("\r");
            }
            eprintln!(
                "slice {material}: {w} won, {d} drawn, {l} lost for the side to move; {seconds:.1} s, {bytes} bytes with its partner"
            );
        }
    };
    let db = pool
        .install(|| {
            let keep = |m: Material| !args.kings_only || m.men() == 0;
            build_slices::<R>(&t.dir, t.pieces, &keep, &mut report)
        })
        .map_err(|e| e.to_string())?;
    eprintln!(
        "done: {} slice pairs built ({} bytes), all slices of up to {} pieces ready, {:.1} s",
        built,
        total_bytes,
        db.pieces(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn run_probe<R: Rules>(args: &ProbeArgs) -> Result<ExitCode, String> {
    let t = &args.tables;
    let pos = super::position_arg::<R>("--fen", &args.fen)?;
    let pieces = pos.occupied().count_ones();
    if pieces > t.pieces {
        return Err(format!(
            "--fen: {pieces} pieces, more than the {} of --pieces",
            t.pieces
        ));
    }
    // The tables there, up to --pieces or as far as they are complete.
    let db = Egdb::<R>::load_available(&t.dir, t.pieces).map_err(|e| e.to_string())?;
    if pieces > db.pieces() {
        return Err(format!(
            "--fen: {pieces} pieces, but the tables in {} are complete only up to {} pieces \
             (build more with `tempo egdb build --pieces {pieces}`)",
            t.dir.display(),
            db.pieces()
        ));
    }
    let value = db
        .probe(&pos)
        .ok_or("--fen: the side not to move has no pieces: the game is over")?;
    outln!("{value}");
    for &mv in pos.legal_moves().iter() {
        let after = db.probe(&pos.play(mv)).map(Value::before_move);
        let text = after.map_or("game over".to_string(), |v| v.to_string());
        outln!("{} {text}", format_move::<R>(mv, MoveStyle::Hub));
    }
    Ok(ExitCode::SUCCESS)
}

fn run_sample<R: Rules>(args: &SampleArgs) -> Result<ExitCode, String> {
    let t = &args.tables;
    let db = Egdb::<R>::load(&t.dir, t.pieces).map_err(|e| e.to_string())?;
    let slices: Vec<Material> = Material::all_up_to(t.pieces)
        .into_iter()
        .filter(|m| m.pieces() == t.pieces)
        .collect();
    let settings = DrawSettings::for_variant(R::KIND);
    let wanted = |pos: &Position<R>, value: Value| match (args.value, value) {
        (SampleValue::Draw, Value::Draw) => true,
        (SampleValue::Win, Value::Win(plies)) => {
            plies >= args.min_plies
                && DrawClocks::start(pos)
                    .plies_until_draw(&settings)
                    .is_none_or(|left| plies <= left)
        }
        _ => false,
    };
    let mut state = args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut found, mut tries) = (0u32, 0u64);
    let limit = 1_000_000 * u64::from(args.count);
    outln!(
        "# {} {} positions of {} pieces drawn from the tables in {} (tempo egdb sample --seed {}), side to move {}",
        args.count,
        R::NAME,
        t.pieces,
        t.dir.display(),
        args.seed,
        match args.value {
            SampleValue::Win => "wins within the count rules",
            SampleValue::Draw => "draws",
        }
    );
    while found < args.count {
        tries += 1;
        if tries > limit {
            return Err(format!(
                "only {found} of {} positions found in {limit} tries",
                args.count
            ));
        }
        let m = slices[(next() % slices.len() as u64) as usize];
        let layout = db.layout();
        let Some(placement) = layout.placement(m, next() % layout.size(m)) else {
            continue;
        };
        let pos = layout.position(&placement);
        if has_capture(&pos) || side_has_capture(&pos, pos.side_to_move().opponent()) {
            continue;
        }
        if db.probe(&pos).is_some_and(|v| wanted(&pos, v)) {
            outln!("{}", to_fen(&pos));
            found += 1;
        }
    }
    Ok(ExitCode::SUCCESS)
}

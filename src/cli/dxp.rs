//! `tempo dxp`: International draughts over DXP, as server (`--listen`) or
//! client (`--connect`), initiator (`--initiator`) or follower.
//!
//! The server serves one connection at a time and goes back to listening
//! when it ends (`--connections` bounds how many); the client plays one
//! connection. Standard output gets one line per connection and per game;
//! the games go to `--pdn`.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::engine::EngineHost;
use crate::protocol::dxp::net::{DxpListener, TcpLink, DEFAULT_ADDR};
use crate::protocol::dxp::session::{run_session, GameLog, GamePlan, Role, SessionConfig};
use crate::rules::{International, Side};
use crate::signals;

/// A colour on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColourArg {
    /// White.
    White,
    /// Black.
    Black,
}

/// Arguments of `tempo dxp`.
#[derive(Debug, Args)]
pub struct DxpArgs {
    /// Listen on ADDR:PORT (the default role; 127.0.0.1:27531 when no
    /// address is given; port 0 picks a free port, printed on start).
    #[arg(long, value_name = "ADDR:PORT", num_args = 0..=1, default_missing_value = DEFAULT_ADDR, conflicts_with = "connect")]
    pub listen: Option<String>,
    /// Connect to a DXP server at ADDR:PORT.
    #[arg(long, value_name = "ADDR:PORT")]
    pub connect: Option<String>,
    /// Propose the games (otherwise accept or refuse the opponent's).
    #[arg(long)]
    pub initiator: bool,
    /// Initiator: our colour in the first game.
    #[arg(long, requires = "initiator", value_enum, default_value = "white")]
    pub colour: ColourArg,
    /// Initiator: minutes per side.
    #[arg(long, value_name = "MIN", requires = "initiator", default_value_t = 5, value_parser = clap::value_parser!(u16).range(0..=999))]
    pub time: u16,
    /// Initiator: moves per time period (0: the time is for the whole game).
    #[arg(long, value_name = "N", requires = "initiator", default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=999))]
    pub moves: u16,
    /// Initiator: start position (FEN or Hub position string).
    #[arg(long, requires = "initiator")]
    pub fen: Option<String>,
    /// Initiator: games to play on the connection.
    #[arg(long, value_name = "N", requires = "initiator", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    /// Initiator: swap colours after every game.
    #[arg(long, requires = "initiator")]
    pub alternate: bool,
    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    pub hash: usize,
    /// Play from the opening book (true or false).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub book: bool,
    /// Opening book file (default: the book built into the binary).
    #[arg(long, value_name = "FILE")]
    pub book_file: Option<String>,
    /// Any other engine parameter, NAME=VALUE (e.g. level=3, egdb-path=egdb, draw-long-endgame=16).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// The most seconds to think on one move, whatever the clock allows.
    #[arg(long, value_name = "SECONDS")]
    pub max_move_time: Option<f64>,
    /// Append every game to this PDN file.
    #[arg(long, value_name = "FILE")]
    pub pdn: Option<PathBuf>,
    /// The name sent to the opponent.
    #[arg(long, default_value = concat!("tempo ", env!("CARGO_PKG_VERSION")))]
    pub name: String,
    /// Seconds of silence tolerated (beyond the opponent's clock while it
    /// is to move) before the connection is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub idle_timeout: u64,
    /// Server: serve this many connections, then exit (default: no limit).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub connections: Option<u32>,
}

/// How long a client waits for the server to accept.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs `tempo dxp`.
pub fn run(args: &DxpArgs) -> Result<ExitCode, String> {
    let config = session_config(args)?;
    if let Some(pdn) = &args.pdn {
        let book: Vec<(&str, &std::path::Path)> = args
            .book_file
            .iter()
            .map(|f| ("--book-file", std::path::Path::new(f)))
            .collect();
        super::guard_outputs(&book, &[("--pdn", pdn)])?;
    }
    let mut engine = EngineHost::new();
    engine
        .set_param("threads", &args.threads.to_string())
        .and_then(|()| engine.set_param("hash", &args.hash.to_string()))
        .and_then(|()| engine.set_param("book", &args.book.to_string()))
        .and_then(|()| match &args.book_file {
            Some(file) => engine.set_param("book-file", file),
            None => Ok(()),
        })
        .map_err(|e| e.to_string())?;
    for item in &args.params {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("--param '{item}' is not NAME=VALUE"))?;
        engine
            .set_param(name.trim(), value.trim())
            .map_err(|e| format!("--param: {e}"))?;
    }
    if engine.variant() != crate::rules::VariantKind::International {
        return Err("DXP plays International draughts only".to_string());
    }
    let mut pdn = match &args.pdn {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("--pdn {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let mut write_error = None;
    let mut on_game = |log: &GameLog| {
        if let Some(file) = pdn.as_mut() {
            if let Err(e) = file
                .write_all(log.pdn().as_bytes())
                .and_then(|()| file.flush())
            {
                write_error.get_or_insert(e.to_string());
            }
        }
    };
    let stdout = std::io::stdout();
    // Ctrl-C or SIGTERM: during a connection, the game ends as interrupted
    // and is written; outside one there is nothing to write and the
    // process ends at once.
    signals::install(|| {});
    signals::farewell(match &args.pdn {
        Some(path) => format!(
            "interrupted: the game in progress is in {} as interrupted",
            path.display()
        ),
        None => "interrupted".to_string(),
    });
    let interrupt = signals::channel();
    // One connection played to its end; a signal ends its game as
    // interrupted, written, before the process ends.
    let mut play = |link: &mut TcpLink| {
        signals::whole(|| {
            run_session(
                &config,
                &mut engine,
                link,
                &mut stdout.lock(),
                &mut on_game,
                &interrupt,
            )
            .inspect(|end| say(&format!("connection over: {end}")))
        })
    };
    if let Some(addr) = &args.connect {
        let mut link = TcpLink::connect(addr, CONNECT_TIMEOUT).map_err(|e| e.to_string())?;
        say(&format!("connected to {}", link.peer()));
        if !args.initiator {
            say("waiting for its game request (give --initiator to propose the games)");
        }
        play(&mut link).map_err(|e| e.to_string())?;
    } else {
        let addr = args.listen.as_deref().unwrap_or(DEFAULT_ADDR);
        let listener = DxpListener::bind(addr).map_err(|e| e.to_string())?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        say(&format!("listening on {local}"));
        let mut served = 0u32;
        while args.connections.is_none_or(|n| served < n) {
            let mut link = listener.accept().map_err(|e| e.to_string())?;
            served += 1;
            say(&format!("connection from {}", link.peer()));
            if let Err(e) = play(&mut link) {
                say(&format!("connection lost: {e}"));
            }
        }
    }
    if let Some(e) = write_error {
        return Err(format!("writing the PDN file: {e}"));
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints a progress line; a closed standard output must not stop play.
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// The session settings the arguments ask for.
fn session_config(args: &DxpArgs) -> Result<SessionConfig, String> {
    let max_move_time = match args.max_move_time {
        Some(s) if !s.is_finite() || s <= 0.0 || s > 86_400.0 => {
            return Err(format!(
                "--max-move-time {s} must be a positive number of seconds"
            ))
        }
        Some(s) => Some(Duration::from_secs_f64(s)),
        None => None,
    };
    let role = if args.initiator {
        let start = match &args.fen {
            Some(text) => Some(super::position_arg::<International>("--fen", text)?),
            None => None,
        };
        Role::Initiator(GamePlan {
            our_side: match args.colour {
                ColourArg::White => Side::White,
                ColourArg::Black => Side::Black,
            },
            minutes: args.time,
            moves: args.moves,
            start,
            games: args.games,
            alternate: args.alternate,
        })
    } else {
        Role::Follower
    };
    Ok(SessionConfig {
        name: args.name.clone(),
        role,
        max_move_time,
        idle_timeout: Duration::from_secs(args.idle_timeout),
    })
}

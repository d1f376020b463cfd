//! `tempo serve`: the board in the browser (`crate::serve`), on the
//! loopback address unless told otherwise. It needs the `server` feature
//! (on by default); a build without it says so.

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::engine::{MAX_HASH_MIB, MAX_THREADS};
#[cfg(feature = "server")]
use crate::serve::{ServeSettings, Server};

/// Arguments of `tempo serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on (0: a free one, printed at start).
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// The address to listen on. Another than the loopback address lets
    /// other machines use the board and the engine: name one only on a
    /// network you trust.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub address: IpAddr,
    /// Threads of each search.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    pub threads: u16,
    /// Transposition table of each search, in MiB.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=MAX_HASH_MIB as i64))]
    pub hash: u32,
    /// Searches running at once across all pages; more are refused (503)
    /// until one ends. A search stops when its page closes, cancels it or
    /// starts another.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub max_searches: u16,
    /// Searches one page (or one address that names no page) runs at
    /// once; more are refused (429).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub max_client_searches: u16,
    /// A host name the board answers to besides its address (and the
    /// localhost names on the loopback address): the name other machines
    /// reach it by. Repeat for more. Requests naming another host are
    /// refused, so that no other web page can reach the board through a
    /// name of its own.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
    /// A pattern weights or network file for its variant instead of the
    /// built-in evaluation.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

/// Without the `server` feature: says how to get the board.
#[cfg(not(feature = "server"))]
pub fn run(_args: &ServeArgs) -> Result<ExitCode, String> {
    Err(
        "this tempo was built without the board in the browser: build it with \
         the `server` feature (`cargo build --features server`, on by default)"
            .to_string(),
    )
}

/// Runs `tempo serve` until the process is stopped (Ctrl-C, SIGTERM),
/// which stops every search.
#[cfg(feature = "server")]
pub fn run(args: &ServeArgs) -> Result<ExitCode, String> {
    let eval_file = match &args.eval_file {
        Some(path) => Some((
            crate::search::resources::eval_file_variant(path)
                .map_err(|e| format!("--eval-file {}: {e}", path.display()))?,
            path.clone(),
        )),
        None => None,
    };
    let settings = ServeSettings {
        threads: usize::from(args.threads),
        hash_mib: args.hash as usize,
        max_searches: usize::from(args.max_searches),
        max_searches_per_client: usize::from(args.max_client_searches),
        allow_hosts: args.allow_hosts.clone(),
        eval_file,
    };
    let server = Server::bind(std::net::SocketAddr::new(args.address, args.port), settings)?;
    let address = server.address()?;
    let host = match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        ip => ip,
    };
    outln!(
        "tempo serve: open http://{} in a browser (Ctrl-C stops the server)",
        std::net::SocketAddr::new(host, address.port())
    );
    server.run()?;
    Ok(ExitCode::SUCCESS)
}

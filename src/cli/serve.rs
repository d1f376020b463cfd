//! `tempo serve`: the board in the browser (`crate::serve`), on the
//! loopback address unless told otherwise.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::engine::{MAX_HASH_MIB, MAX_THREADS};
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
    /// Searches running at once across all tabs; more are refused until
    /// one ends.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub max_searches: u16,
    /// A pattern weights or network file for its variant instead of the
    /// built-in evaluation.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

/// Runs `tempo serve` until the process is stopped.
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
        eval_file,
    };
    let server = Server::bind(SocketAddr::new(args.address, args.port), settings)?;
    let address = server.address()?;
    let host = match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        ip => ip,
    };
    outln!(
        "tempo serve: open http://{} in a browser (Ctrl-C stops the server)",
        SocketAddr::new(host, address.port())
    );
    server.run();
    Ok(ExitCode::SUCCESS)
}

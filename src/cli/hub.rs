//! `tempo hub` (and `tempo` with no subcommand): the Hub protocol on
//! standard input and output. Nothing else may write to standard output
//! or standard error meanwhile: some clients (pydraughts) read both as one
//! stream.

use std::io::BufReader;
use std::process::ExitCode;

use clap::Args;

/// Arguments of `tempo hub` (none yet).
#[derive(Debug, Default, Args)]
pub struct HubArgs {}

/// Runs the Hub protocol until `quit` or the end of standard input.
pub fn run(_args: &HubArgs) -> Result<ExitCode, String> {
    let stdout = std::io::stdout();
    crate::protocol::hub::run(BufReader::new(std::io::stdin()), stdout.lock())
        .map_err(|e| format!("hub: cannot write the output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

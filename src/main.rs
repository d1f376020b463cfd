//! The `tempo` command line: chooses a tool and hands it its arguments.
//! No logic of its own lives here.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = tempo::cli::Cli::parse();
    match tempo::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tempo: {e}");
            ExitCode::from(2)
        }
    }
}

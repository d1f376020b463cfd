//! The `tempo` command line: chooses a tool and hands it its arguments.
//! No logic of its own lives here.

use std::process::ExitCode;

fn main() -> ExitCode {
    if let Err(e) = tempo::cli::cpu::check() {
        eprintln!("tempo: {e}");
        return ExitCode::from(2);
    }
    let cli = tempo::cli::Cli::read();
    match tempo::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tempo: {e}");
            ExitCode::from(2)
        }
    }
}

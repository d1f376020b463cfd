//! `tempo hub` (and `tempo` with no subcommand): the Hub protocol on
//! standard input and output. Nothing else may write to standard output
//! or standard error meanwhile: some clients (pydraughts) read both as one
//! stream. `tempo hub --params` lists the parameters instead, for people.

use std::io::BufReader;
use std::process::ExitCode;

use clap::Args;

use crate::engine::{EngineHost, Param, ParamKind};
use crate::protocol::hub::Numbering;

/// Arguments of `tempo hub`.
#[derive(Debug, Default, Args)]
pub struct HubArgs {
    /// List the engine's parameters (name, type, default, what it does)
    /// and exit, instead of speaking Hub.
    #[arg(long)]
    pub params: bool,
}

/// Runs the Hub protocol until `quit` or the end of standard input.
pub fn run(args: &HubArgs) -> Result<ExitCode, String> {
    if args.params {
        list_params();
        return Ok(ExitCode::SUCCESS);
    }
    let stdout = std::io::stdout();
    crate::protocol::hub::run(BufReader::new(std::io::stdin()), stdout.lock())
        .map_err(|e| format!("hub: cannot write the output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// Prints each parameter on a line: name, type and range, default, help;
/// first the same list, in the same order, as `hub` declares (the
/// protocol's own `numbering` second), then, after a blank line and a
/// heading, the tuning parameters `set-param` also takes.
fn list_params() {
    let engine = EngineHost::new();
    let mut params = engine.params();
    params.insert(1.min(params.len()), Numbering::default().param());
    params.iter().for_each(print_param);
    outln!("");
    outln!("Tuning parameters (set-param takes them; hub does not declare them to GUIs):");
    engine.tuning_params().iter().for_each(print_param);
}

/// One line of `--params`.
fn print_param(param: &Param) {
    let kind = match &param.kind {
        ParamKind::Bool => "bool".to_string(),
        ParamKind::Int { min, max } => format!("int {min}..{max}"),
        ParamKind::String => "string".to_string(),
        ParamKind::Enum(values) => format!("enum ({})", values.join(" ")),
    };
    let value = if param.value.is_empty() {
        "\"\"".to_string()
    } else {
        param.value.clone()
    };
    outln!("{:<20} {kind}, default {value}: {}", param.name, param.help);
}

//! `tempo game`: replays a move list from a position and prints the draw
//! counters and, as its last line, the result under the draw rules:
//!
//! ```text
//! position=<FEN of the last position>
//! plies=<n> king-plies=<n> short-endgame-plies=<n|-> long-endgame-plies=<n|-> occurrences=<n> end-ply=<n|->
//! result=<1-0|0-1|1/2-1/2|*> reason=<no-moves|repetition|king-moves|5-move|10-move|none>
//! ```
//!
//! An illegal or unreadable move is an error (exit status 2) naming the
//! move and its 1-based index.

use std::process::ExitCode;

use clap::Args;

use super::VariantParser;
use crate::engine::draw_params;
use crate::game::Game;
use crate::rules::notation::to_fen;
use crate::rules::{DrawSettings, Position, Rules, VariantKind};

/// Arguments of `tempo game`.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// The variant.
    #[arg(long, value_parser = VariantParser, default_value = "international")]
    pub variant: VariantKind,
    /// Start position as a FEN or Hub position string (default: the initial position).
    #[arg(long)]
    pub fen: Option<String>,
    /// The moves, separated by spaces (Hub or PDN notation).
    #[arg(long, default_value = "")]
    pub moves: String,
    /// A draw-rule setting as NAME=VALUE, by its Hub parameter name (see
    /// protocol.md); may be repeated.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

/// Runs `tempo game`.
pub fn run(args: &GameArgs) -> Result<ExitCode, String> {
    crate::rules::with_rules!(args.variant, R => run_for::<R>(args))
}

fn run_for<R: Rules>(args: &GameArgs) -> Result<ExitCode, String> {
    let start = match &args.fen {
        Some(text) => super::position_arg::<R>("--fen", text)?,
        None => Position::<R>::start(),
    };
    let mut settings = DrawSettings::for_variant(R::KIND);
    for item in &args.set {
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("--set: '{item}' is not NAME=VALUE"))?;
        draw_params::set(&mut settings, name, value).map_err(|e| format!("--set: {e}"))?;
    }
    let mut game = Game::with_settings(start, settings);
    game.play_list(&args.moves).map_err(|e| e.to_string())?;
    let clocks = game.clocks();
    outln!("position={}", to_fen(game.position()));
    let or_dash = |n: Option<u32>| n.map_or_else(|| "-".to_string(), |n| n.to_string());
    outln!(
        "plies={} king-plies={} short-endgame-plies={} long-endgame-plies={} occurrences={} end-ply={}",
        game.moves().len(),
        clocks.reversible_plies(),
        or_dash(clocks.short_endgame_plies()),
        or_dash(clocks.long_endgame_plies()),
        game.occurrences(),
        game.end_ply().map_or_else(|| "-".to_string(), |ply| ply.to_string()),
    );
    outln!("{}", game.result());
    Ok(ExitCode::SUCCESS)
}

//! `tempo tune`: fits the evaluation weights to the results of finished
//! games (the "Texel" method).
//!
//! Every quiet position of the games (no capture for either side, after the
//! first `--skip` plies) is labelled with its game's result. The error of a
//! set of weights is the mean square of `result - sigmoid(eval)`, with the
//! sigmoid's scale fitted once to the weights in use; a coordinate descent
//! then moves one weight at a time while the error falls, starting from the
//! table of the variant's board. The fitted table is printed as Rust, ready
//! to replace `WEIGHTS` (10x10) or `WEIGHTS_8X8` in `src/eval/weights.rs`; a
//! table is only kept when a match says it plays better.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use rayon::prelude::*;

use super::VariantArg;
use crate::eval::{evaluate_with, weights_for, EvalTable, Weights};
use crate::pdn::{read_games, PdnGame};
use crate::referee::Game;
use crate::rules::movegen::side_has_capture;
use crate::rules::notation::parse_position;
use crate::rules::{Geometry, Position, Rules, Side, VariantKind};

/// Arguments of `tempo tune`.
#[derive(Debug, Args)]
pub struct TuneArgs {
    /// PDN files of finished games; their Result tags label the positions.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The variant whose games are used (games of other variants are skipped).
    #[arg(long, value_enum, default_value = "international")]
    pub variant: VariantArg,
    /// Plies skipped at the start of every game (the opening's own moves).
    #[arg(long, value_name = "PLIES", default_value_t = 10)]
    pub skip: usize,
    /// Most passes over the weights.
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub passes: u32,
    /// A weight to leave as it is, by its printed name (e.g. `king`,
    /// `advance[3]`); may be repeated. `man` is always fixed: it sets the
    /// scale.
    #[arg(long = "fix", value_name = "NAME")]
    pub fix: Vec<String>,
}

/// Runs `tempo tune`.
pub fn run(args: &TuneArgs) -> Result<ExitCode, String> {
    crate::rules::with_rules!(VariantKind::from(args.variant), R => run_for::<R>(args))
}

/// A quiet position and the result of its game for White (1, 0.5 or 0).
struct Sample<R: Rules> {
    pos: Position<R>,
    result: f64,
}

fn run_for<R: Rules>(args: &TuneArgs) -> Result<ExitCode, String> {
    let mut weights = *weights_for::<R>();
    let names: Vec<String> = weights.named_mut().into_iter().map(|(n, _)| n).collect();
    for name in &args.fix {
        if !names.contains(name) {
            return Err(format!(
                "--fix: no weight called '{name}' (names: {})",
                names.join(", ")
            ));
        }
    }
    let mut samples = Vec::new();
    let mut skipped = 0usize;
    for file in &args.files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        for game in read_games(&text) {
            let outcome = game
                .map_err(|e| format!("line {}: {}", e.line, e.message))
                .and_then(|game| collect::<R>(&game, args.skip, &mut samples));
            if let Err(why) = outcome {
                skipped += 1;
                eprintln!("{}: game skipped: {why}", file.display());
            }
        }
    }
    if samples.is_empty() {
        return Err("no quiet positions of finished games to fit to".to_string());
    }
    eprintln!("{} positions ({} games skipped)", samples.len(), skipped);
    let scale = fit_scale(&samples, &weights);
    let start_error = error(&samples, &weights, scale);
    eprintln!("sigmoid scale {scale:.1}; error {start_error:.6}");
    let tunable: Vec<usize> = names
        .iter()
        .enumerate()
        .filter(|(_, n)| *n != "man" && !args.fix.contains(n))
        .map(|(i, _)| i)
        .collect();
    let mut steps: Vec<i32> = weights
        .named_mut()
        .into_iter()
        .map(|(_, v)| (v.abs() / 10).max(4))
        .collect();
    let mut best = start_error;
    for pass in 1..=args.passes {
        let mut changed = 0;
        for &i in &tunable {
            let mut moved = false;
            for sign in [1, -1] {
                let mut trial = weights;
                *trial.named_mut()[i].1 += sign * steps[i];
                let e = error(&samples, &trial, scale);
                if e < best {
                    best = e;
                    weights = trial;
                    moved = true;
                    break;
                }
            }
            if moved {
                changed += 1;
            } else {
                steps[i] = (steps[i] / 2).max(1);
            }
        }
        eprintln!("pass {pass}: error {best:.6}, {changed} weights moved");
        if changed == 0 && tunable.iter().all(|&i| steps[i] == 1) {
            break;
        }
    }
    let mut before = *weights_for::<R>();
    let old: Vec<i32> = before.named_mut().into_iter().map(|(_, v)| *v).collect();
    for ((name, new), old) in weights.named_mut().into_iter().zip(old) {
        if *new != old {
            eprintln!("{name}: {old} -> {new}");
        }
    }
    eprintln!("error {start_error:.6} -> {best:.6}");
    let table = if R::Geometry::SQUARES == 50 {
        "WEIGHTS"
    } else {
        "WEIGHTS_8X8"
    };
    outln!("pub const {table}: Weights = {weights:?};");
    Ok(ExitCode::SUCCESS)
}

/// Replays `game` and adds its quiet positions after `skip` plies.
fn collect<R: Rules>(
    game: &PdnGame,
    skip: usize,
    samples: &mut Vec<Sample<R>>,
) -> Result<(), String> {
    if game.variant().is_some_and(|kind| kind != R::KIND) {
        return Err(format!("not {}", R::NAME));
    }
    let result = match game.tag("Result").or(game.result.as_deref()) {
        Some("1-0" | "2-0") => 1.0,
        Some("0-1" | "0-2") => 0.0,
        Some("1/2-1/2" | "1-1") => 0.5,
        other => return Err(format!("no result ({})", other.unwrap_or("none"))),
    };
    let start = match game.fen() {
        Some(fen) => parse_position::<R>(fen).map_err(|e| format!("FEN: {e}"))?,
        None => Position::<R>::start(),
    };
    let mut replay = Game::new(start);
    let mut found = Vec::new();
    for (ply, text) in game.moves.iter().enumerate() {
        let pos = *replay.position();
        if ply >= skip && is_quiet(&pos) {
            found.push(Sample { pos, result });
        }
        replay
            .play_text(text)
            .map_err(|e| format!("line {}: {e}", game.line))?;
    }
    samples.extend(found);
    Ok(())
}

/// Neither side has a capture.
fn is_quiet<R: Rules>(pos: &Position<R>) -> bool {
    !side_has_capture(pos, Side::White) && !side_has_capture(pos, Side::Black)
}

/// The expected result for White of a White-view score.
fn sigmoid(score: i32, scale: f64) -> f64 {
    1.0 / (1.0 + (-f64::from(score) / scale).exp())
}

/// Mean squared difference between the results and the predictions. The
/// chunks' sums are added in a fixed order, so equal weights give equal
/// errors (a weight without effect never looks better).
fn error<R: Rules>(samples: &[Sample<R>], weights: &Weights, scale: f64) -> f64 {
    let table = EvalTable::of::<R::Geometry>(*weights);
    let sums: Vec<f64> = samples
        .par_chunks(4096)
        .map(|chunk| {
            chunk
                .iter()
                .map(|s| {
                    let own = evaluate_with(&s.pos, &table);
                    let white = match s.pos.side_to_move() {
                        Side::White => own,
                        Side::Black => -own,
                    };
                    let d = s.result - sigmoid(white, scale);
                    d * d
                })
                .sum::<f64>()
        })
        .collect();
    sums.iter().sum::<f64>() / samples.len() as f64
}

/// The sigmoid scale that best fits the current weights (a golden-section
/// search over 10..2000).
fn fit_scale<R: Rules>(samples: &[Sample<R>], weights: &Weights) -> f64 {
    let (mut lo, mut hi) = (10.0f64, 2000.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(samples, weights, a) < error(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::International;

    #[test]
    fn positions_of_a_won_game_are_labelled_for_white() {
        let text = "[Result \"1-0\"]\n\n1. 32-28 19-23 2. 28x19 14x23 1-0\n";
        let game = read_games(text).remove(0).unwrap();
        let mut samples = Vec::<Sample<International>>::new();
        collect(&game, 0, &mut samples).unwrap();
        // The start and the position after 32-28; a capture is pending
        // after 19-23 and after 28x19.
        assert_eq!(samples.len(), 2);
        assert!(samples.iter().all(|s| s.result == 1.0 && is_quiet(&s.pos)));
    }

    #[test]
    fn a_game_without_a_result_or_with_an_illegal_move_is_refused() {
        let mut samples = Vec::<Sample<International>>::new();
        let none = read_games("1. 32-28 19-23 *\n").remove(0).unwrap();
        assert!(collect(&none, 0, &mut samples).is_err());
        let bad = read_games("[Result \"0-1\"]\n\n1. 32-27 19-23 2. 32-28 *\n")
            .remove(0)
            .unwrap();
        assert!(collect(&bad, 0, &mut samples).is_err());
        assert!(samples.is_empty());
    }

    #[test]
    fn scores_are_read_from_whites_side() {
        // White a man up and won; Black a man up (and to move) and won.
        let up = parse_position::<International>("W:W31,32,33:B18,19").unwrap();
        let down = parse_position::<International>("B:W31,32:B17,18,19").unwrap();
        let samples = vec![
            Sample {
                pos: up,
                result: 1.0,
            },
            Sample {
                pos: down,
                result: 0.0,
            },
        ];
        let scale = fit_scale(&samples, weights_for::<International>());
        assert!(error(&samples, weights_for::<International>(), scale) < 0.05);
    }
}

//! Reading what is to be analysed: a position given as an argument, a
//! positions file, or a PDN file.
//!
//! Everything is checked here, before any search: a position must parse
//! under the variant, a game must name a variant tempo plays and every one of
//! its moves must be legal where it is played. What fails becomes an
//! `InputError` with its 1-based line; what succeeds becomes a `Unit`. The
//! units come out in file order, and each input yields exactly one of the
//! two.

use std::fmt;

use super::{AnyGame, Source, Unit};
use crate::game::Game;
use crate::pdn::{read_games, PdnGame};
use crate::rules::notation::parse_position;
use crate::rules::{NotationError, Position, Rules, VariantKind};

/// An input that cannot be analysed, and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The 1-based line of the fault.
    pub line: usize,
    /// What is wrong.
    pub message: String,
    /// Whether the input was left out (otherwise it is analysed as far as
    /// it goes, and this is a warning).
    pub skipped: bool,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for InputError {}

/// Reads a FEN or Hub position string of `R` as a game of no moves.
fn position_game<R: Rules>(text: &str) -> Result<AnyGame, NotationError> {
    Ok(AnyGame::new(Game::new(parse_position::<R>(text)?)))
}

/// Reads a FEN or a Hub position string of variant `kind`.
pub fn read_position(kind: VariantKind, text: &str) -> Result<AnyGame, NotationError> {
    crate::rules::with_rules!(kind, R => position_game::<R>(text))
}

/// The start position of variant `kind`, as a game of no moves.
pub fn start_position(kind: VariantKind) -> AnyGame {
    crate::rules::with_rules!(kind, R => AnyGame::new(Game::new(Position::<R>::start())))
}

/// Reads a positions file: one FEN or Hub position string per line; blank
/// lines, and everything from a `#` to the end of a line, are skipped.
pub fn read_positions(kind: VariantKind, text: &str) -> (Vec<Unit>, Vec<InputError>) {
    let mut units = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or_default().trim();
        if content.is_empty() {
            continue;
        }
        match read_position(kind, content) {
            Ok(game) => units.push(Unit {
                source: Source::Line(line),
                game,
                tags: Vec::new(),
            }),
            Err(e) => errors.push(InputError {
                line,
                message: e.to_string(),

                skipped: true,
            }),
        }
    }
    (units, errors)
}

/// Reads every game of a PDN text. A game's variant is its `Variant` or
/// `GameType` tag (see [`PdnGame::variant`]), or `default` when it has
/// neither; its
/// start is its `FEN` tag, or the initial position.
pub fn read_pdn(default: VariantKind, text: &str) -> (Vec<Unit>, Vec<InputError>) {
    let (games, errors) = read_pdn_games(default, text);
    (games.into_iter().map(|(unit, _)| unit).collect(), errors)
}

/// As [`read_pdn`], each unit with the game as read (its variations, say).
pub fn read_pdn_games(default: VariantKind, text: &str) -> (Vec<(Unit, PdnGame)>, Vec<InputError>) {
    let mut units = Vec::new();
    let mut errors = Vec::new();
    for (i, game) in read_games(text).into_iter().enumerate() {
        let index = i + 1;
        let built = match game {
            Ok(game) => build_game(&game, index, default).map(|unit| {
                let warning = game.result.is_none().then(|| truncated(&game, index));
                (unit, game, warning)
            }),
            Err(e) => Err(InputError {
                line: e.line,
                message: format!("game {index}: {}", e.message),

                skipped: true,
            }),
        };
        match built {
            Ok((unit, game, warning)) => {
                units.push((unit, game));
                errors.extend(warning);
            }
            Err(e) => errors.push(e),
        }
    }
    (units, errors)
}

/// The warning for a game whose moves end without a result (the file cut
/// short, most often): it is analysed as far as it goes.
fn truncated(game: &PdnGame, index: usize) -> InputError {
    let last = match game.moves.last() {
        Some(text) => format!("after move {} '{text}'", game.moves.len()),
        None => "before any move".to_string(),
    };
    InputError {
        line: game.move_lines.last().copied().unwrap_or(game.line),
        message: format!(
            "game {index}: no result {last}: the game may be cut short; analysed as far as it goes"
        ),
        skipped: false,
    }
}

/// Replays a PDN game under its variant.
fn build_game(game: &PdnGame, index: usize, default: VariantKind) -> Result<Unit, InputError> {
    if let Some(name) = game.tag("Variant") {
        if VariantKind::parse(name).is_none() && game.variant().is_none() {
            return Err(InputError {
                line: game.line,
                message: format!(
                    "game {index}: Variant \"{name}\" is not a variant tempo plays ({})",
                    VariantKind::names()
                ),
                skipped: true,
            });
        }
    }
    let kind = match (game.tag("GameType"), game.variant()) {
        (_, Some(kind)) => kind,
        (None, None) => default,
        (Some(other), None) => {
            return Err(InputError {
                line: game.line,
                message: format!(
                    "game {index}: GameType \"{other}\" is not a variant tempo plays ({})",
                    crate::pdn::GAME_TYPES
                ),
                skipped: true,
            })
        }
    };
    let replayed = crate::rules::with_rules!(kind, R => replay::<R>(game, index)?);
    Ok(Unit {
        source: Source::Game {
            index,
            line: game.line,
        },
        game: replayed,
        tags: game.tags.clone(),
    })
}

/// Plays the moves of a PDN game from its start position.
fn replay<R: Rules>(pdn: &PdnGame, index: usize) -> Result<AnyGame, InputError> {
    let start = match pdn.fen() {
        Some(fen) => parse_position::<R>(fen).map_err(|e| InputError {
            line: pdn.line,
            message: format!("game {index}: FEN tag: {e}"),

            skipped: true,
        })?,
        None => Position::start(),
    };
    let mut game = Game::new(start);
    for (i, (text, &line)) in pdn.moves.iter().zip(&pdn.move_lines).enumerate() {
        game.play_text(text).map_err(|e| InputError {
            line,
            message: format!("game {index}: move {} '{text}': {e}", i + 1),

            skipped: true,
        })?;
    }
    Ok(AnyGame::new(game))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_skip_blanks_and_comments_and_name_bad_lines() {
        let text = "# header\n\nW:W31-50:B1-20 # start\n  \nW:W31-50:B1-20:X\n";
        let (units, errors) = read_positions(VariantKind::International, text);
        assert_eq!(units.len(), 1);
        assert_eq!(units[0].source, Source::Line(3));
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].line, 5);
    }

    #[test]
    fn games_take_their_variant_from_game_type_or_the_default() {
        let text = "1. 22-18 *\n[GameType \"20\"]\n1. 32-28 *\n";
        let (units, errors) = read_pdn(VariantKind::Brazilian, text);
        assert!(errors.is_empty(), "{errors:?}");
        let kinds: Vec<_> = units.iter().map(|u| u.game.variant()).collect();
        assert_eq!(kinds, [VariantKind::Brazilian, VariantKind::International]);
        assert_eq!(units[1].source, Source::Game { index: 2, line: 2 });
        assert_eq!(units[1].game.positions(), 2);
    }

    #[test]
    fn an_illegal_move_names_its_line_and_game() {
        let text = "[Event \"x\"]\n1. 32-28\n19-23 2. 28-22 *\n";
        let (units, errors) = read_pdn(VariantKind::International, text);
        assert!(units.is_empty());
        assert_eq!(errors[0].line, 3);
        assert!(
            errors[0].message.starts_with("game 1: move 3 '28-22'"),
            "{}",
            errors[0]
        );
    }
}

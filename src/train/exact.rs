//! Labels that know more than the player: the positions of a data set
//! within the endgame tables take the tables' value in place of their
//! game's result and search score, so that a fit learns what the endings
//! are worth rather than what a 4,000-node search made of them (a search
//! that sees two kings against one as two men up, where the count rules
//! draw the game).
//!
//! A record holds no draw clocks, so the count rules are read as if the
//! count started at the position: a win within the plies they leave (the
//! endgame counts, and with kings only the king-move count too) is a win;
//! a longer one is a draw, and so is a loss the loser can drag out past
//! them.

use rayon::prelude::*;

use crate::egdb::{Egdb, Value};
use crate::rules::draw::{DrawClocks, DrawSettings};
use crate::rules::{Position, Rules, Side};

use super::distinct::Distinct;

/// The search score, hundredths of a man, that labels a won position:
/// large enough that the fit's target is the win itself (its sigmoid, at
/// the scales `K` of about 100 that the fits find, is 1 to four places).
pub const WON_SCORE: f32 = 1000.0;

/// How many positions took the tables' values, by the value for White.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Relabelled {
    /// Won for White.
    pub white_wins: usize,
    /// Drawn, by the tables or by the count rules.
    pub draws: usize,
    /// Won for Black.
    pub black_wins: usize,
}

impl Relabelled {
    /// All the positions relabelled.
    pub fn total(&self) -> usize {
        self.white_wins + self.draws + self.black_wins
    }
}

/// The value for the side to move, 0 (lost) to 1 (won), of a position the
/// tables call `value`, under the count rules of `settings` counted from
/// the position on.
fn mover_result<R: Rules>(pos: &Position<R>, value: Value, settings: &DrawSettings) -> f32 {
    let left = DrawClocks::start(pos).plies_for_a_win(pos, settings);
    let within = |plies: u32| left.is_none_or(|left| plies <= left);
    match value {
        Value::Win(plies) if within(plies) => 1.0,
        Value::Loss(plies) if within(plies) => 0.0,
        _ => 0.5,
    }
}

/// Gives every position of `positions` within `tables` the tables' value
/// as both its result and its score (White's view), and counts them; a
/// record that is not a position of `R` is an error.
pub fn relabel<R: Rules>(
    positions: &mut [Distinct],
    tables: &Egdb<R>,
) -> Result<Relabelled, String> {
    let settings = DrawSettings::for_variant(R::KIND);
    let results: Vec<Option<f32>> = positions
        .par_iter_mut()
        .map(|d| {
            let pos = d.record.position::<R>()?;
            let Some(value) = tables.probe(&pos) else {
                return Ok(None);
            };
            let mover = mover_result(&pos, value, &settings);
            let white = match pos.side_to_move() {
                Side::White => mover,
                Side::Black => 1.0 - mover,
            };
            d.result = white;
            d.score = (2.0 * white - 1.0) * WON_SCORE;
            Ok(Some(white))
        })
        .collect::<Result<_, String>>()?;
    let mut counts = Relabelled::default();
    for white in results.into_iter().flatten() {
        match white {
            w if w > 0.5 => counts.white_wins += 1,
            w if w < 0.5 => counts.black_wins += 1,
            _ => counts.draws += 1,
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egdb::build;
    use crate::rules::notation::parse_fen;
    use crate::rules::Brazilian;
    use crate::train::data::Record;

    /// The 8x8 tables of up to three pieces, built into a fresh folder.
    fn tables(name: &str) -> Egdb<Brazilian> {
        let dir = std::env::temp_dir().join(format!("tempo-exact-{name}-{}", std::process::id()));
        let tables = build::<Brazilian>(&dir, 3, &mut |_| {}).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        tables
    }

    fn position(fen: &str) -> Position<Brazilian> {
        parse_fen(fen).unwrap()
    }

    fn labelled(fen: &str, tables: &Egdb<Brazilian>) -> (Distinct, Relabelled) {
        let mut d = [Distinct::single(Record::of(&position(fen), 0, 37, 40))];
        let counts = relabel(&mut d, tables).unwrap();
        (d[0], counts)
    }

    #[test]
    fn positions_within_the_tables_take_their_value_for_white() {
        let tables = tables("within");
        // White to move takes the last black man: won for White.
        let (won, counts) = labelled("W:W14:B10", &tables);
        assert_eq!((won.result, won.score), (1.0, WON_SCORE));
        assert_eq!(
            counts,
            Relabelled {
                white_wins: 1,
                draws: 0,
                black_wins: 0
            }
        );
        // Black to move takes first: won for Black.
        let (lost, counts) = labelled("B:W14:B10", &tables);
        assert_eq!((lost.result, lost.score), (0.0, -WON_SCORE));
        assert_eq!(counts.black_wins, 1);
        // Two kings against a king on the long diagonal: drawn, not the two
        // men up the search saw.
        let fen = "W:WK5,K30:BK15";
        assert_eq!(tables.probe(&position(fen)), Some(Value::Draw));
        let (drawn, counts) = labelled(fen, &tables);
        assert_eq!((drawn.result, drawn.score), (0.5, 0.0));
        assert_eq!(counts.draws, 1);
    }

    #[test]
    fn positions_beyond_the_tables_keep_their_labels() {
        let tables = tables("beyond");
        let (kept, counts) = labelled("W:W21,22,23,24:B9,10,11,12", &tables);
        assert_eq!((kept.result, kept.score), (0.5, 37.0));
        assert_eq!(counts.total(), 0);
    }

    #[test]
    fn a_win_longer_than_the_count_allows_is_a_draw() {
        // Two kings against one: five moves each (10 plies) from here on.
        let pos = position("W:WK5,K30:BK15");
        let settings = DrawSettings::for_variant(Brazilian::KIND);
        assert_eq!(mover_result(&pos, Value::Win(9), &settings), 1.0);
        assert_eq!(mover_result(&pos, Value::Win(11), &settings), 0.5);
        assert_eq!(mover_result(&pos, Value::Loss(10), &settings), 0.0);
        assert_eq!(mover_result(&pos, Value::Loss(12), &settings), 0.5);
        assert_eq!(mover_result(&pos, Value::Draw, &settings), 0.5);
    }
}

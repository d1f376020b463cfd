//! The ending scale: a learned factor on the score of positions with a
//! king, one per material configuration.
//!
//! Once a king is on the board, how much of a lead the side ahead can turn
//! into a win depends mostly on the material: two men and a king against a
//! man and a king is nearly always drawn, three kings against one usually,
//! four almost never. The patterns (men only) do not see it, and fitted to
//! the engine's own search scores they cannot learn it: the search shares
//! the evaluation's optimism. So the factor is fitted to game results, by
//! `tempo train` (see `train::fit::fit_endings`).
//!
//! A configuration is the men and kings of the side the score favours and
//! of the other side, the men counted up to [`MEN_CAP`] and the kings up to
//! [`KINGS_CAP`] (more count as that many). The factor is stored in 64ths.
//! The table reads the same for either colour, so the evaluation stays
//! colour-symmetric.

use crate::rules::{Position, Rules, Side};

/// Men of one side beyond this count as this many.
pub const MEN_CAP: u32 = 7;
/// Kings of one side beyond this count as this many.
pub const KINGS_CAP: u32 = 4;
/// Configurations: men 0..=MEN_CAP and kings 0..=KINGS_CAP of each side.
pub const CELLS: usize = ((MEN_CAP + 1) * (KINGS_CAP + 1)).pow(2) as usize;
/// The factor that leaves a score as it is.
pub const ONE: u8 = 64;

/// A factor per material configuration; see the module comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndingScale {
    factors: Vec<u8>,
    /// Every factor is [`ONE`]: scores pass unchanged.
    identity: bool,
}

impl Default for EndingScale {
    fn default() -> EndingScale {
        EndingScale::identity()
    }
}

impl EndingScale {
    /// The scale that changes nothing.
    pub fn identity() -> EndingScale {
        EndingScale {
            factors: vec![ONE; CELLS],
            identity: true,
        }
    }

    /// A scale from its [`CELLS`] factors, in 64ths, ordered by [`cell`].
    pub fn from_factors(factors: Vec<u8>) -> Result<EndingScale, String> {
        if factors.len() != CELLS {
            return Err(format!(
                "{} ending factors given, {CELLS} expected",
                factors.len()
            ));
        }
        Ok(EndingScale {
            identity: factors.iter().all(|&f| f == ONE),
            factors,
        })
    }

    /// The factors, in 64ths, ordered by [`cell`].
    pub fn factors(&self) -> &[u8] {
        &self.factors
    }

    /// Whether every factor is [`ONE`].
    pub fn is_identity(&self) -> bool {
        self.identity
    }

    /// `white_score` (White's view) of `pos` scaled by the factor of its
    /// configuration, when a king is on the board.
    #[inline(always)]
    pub fn apply<R: Rules>(&self, pos: &Position<R>, white_score: i32) -> i32 {
        if self.identity || pos.all_kings() == 0 {
            return white_score;
        }
        let strong = if white_score >= 0 {
            Side::White
        } else {
            Side::Black
        };
        let factor = self.factors[cell_of(pos, strong)] as i32;
        white_score * factor / ONE as i32
    }
}

/// The configuration of `pos` with `strong` as the side ahead.
pub fn cell_of<R: Rules>(pos: &Position<R>, strong: Side) -> usize {
    let weak = strong.opponent();
    cell(
        pos.men(strong).count_ones(),
        pos.kings(strong).count_ones(),
        pos.men(weak).count_ones(),
        pos.kings(weak).count_ones(),
    )
}

/// The index of a configuration: the side ahead's men and kings, then the
/// other side's (each capped).
pub fn cell(strong_men: u32, strong_kings: u32, weak_men: u32, weak_kings: u32) -> usize {
    let side = |men: u32, kings: u32| men.min(MEN_CAP) * (KINGS_CAP + 1) + kings.min(KINGS_CAP);
    let per_side = (MEN_CAP + 1) * (KINGS_CAP + 1);
    (side(strong_men, strong_kings) * per_side + side(weak_men, weak_kings)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::notation::parse_fen;
    use crate::rules::International;

    #[test]
    fn cells_are_distinct_and_capped() {
        let mut seen = std::collections::HashSet::new();
        for sm in 0..=MEN_CAP {
            for sk in 0..=KINGS_CAP {
                for wm in 0..=MEN_CAP {
                    for wk in 0..=KINGS_CAP {
                        let c = cell(sm, sk, wm, wk);
                        assert!(c < CELLS);
                        assert!(seen.insert(c));
                    }
                }
            }
        }
        assert_eq!(seen.len(), CELLS);
        assert_eq!(
            cell(15, 9, 12, 4),
            cell(MEN_CAP, KINGS_CAP, MEN_CAP, KINGS_CAP)
        );
    }

    #[test]
    fn the_side_ahead_is_read_from_the_score_and_both_colours_agree() {
        let mut factors = vec![ONE; CELLS];
        factors[cell(2, 1, 1, 1)] = 16;
        let scale = EndingScale::from_factors(factors).unwrap();
        let white_ahead = parse_fen::<International>("W:W28,33,K45:B12,K6").unwrap();
        assert_eq!(scale.apply(&white_ahead, 200), 50);
        // With Black favoured the configuration is read the other way round.
        assert_eq!(scale.apply(&white_ahead, -200), -200);
        let black_ahead = parse_fen::<International>("B:B23,18,K6:W39,K45").unwrap();
        assert_eq!(scale.apply(&black_ahead, -200), -50);
        // No king: no scaling.
        let men = parse_fen::<International>("W:W28,33,34:B12,13").unwrap();
        assert_eq!(scale.apply(&men, 200), 200);
    }

    #[test]
    fn a_wrong_length_is_refused() {
        assert!(EndingScale::from_factors(vec![ONE; CELLS - 1]).is_err());
        assert!(EndingScale::identity().is_identity());
    }
}

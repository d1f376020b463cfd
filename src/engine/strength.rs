//! Strength levels: a weaker engine to play against, from beginner to full
//! strength, and the approximate Elo of each level.
//!
//! A level below the top plays from a small search (a node budget: deep
//! shots and long plans stay beyond it) that scores several candidate
//! moves, and picks among those within a margin of the best, at random,
//! the nearer the best the likelier. The margin grows as the level falls,
//! but stays under a man: a weak level misses what it cannot see and
//! prefers worse plans, it does not give pieces away for nothing.
//!
//! The Elo of a level is measured, not guessed: `LEVEL_ELO` comes from
//! matches of each level against the next (benches/RESULTS.md, "Strength
//! levels"), anchored at level 1 = 1000.

/// The top level: full strength, the search as configured.
pub const MAX_LEVEL: u32 = 7;

/// How a level below the top plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelPlan {
    /// Nodes a move (the search looks at the count every thousand nodes
    /// or so, so the lowest levels are set by depth instead).
    pub nodes: Option<u64>,
    /// Plies a move.
    pub depth: Option<u32>,
    /// Moves scored (multi-PV lines).
    pub candidates: usize,
    /// Moves this many hundredths of a man below the best may be played.
    pub margin: i32,
}

/// A level's budget: a depth or a node count.
#[derive(Clone, Copy)]
enum Budget {
    Depth(u32),
    Nodes(u64),
}

/// Levels 1 to `MAX_LEVEL - 1`: the budget a move and the margin of choice.
const PLANS: [(Budget, i32); MAX_LEVEL as usize - 1] = [
    (Budget::Depth(1), 80),
    (Budget::Depth(2), 60),
    (Budget::Nodes(1_000), 32),
    (Budget::Nodes(3_000), 22),
    (Budget::Nodes(10_000), 12),
    (Budget::Nodes(30_000), 5),
];

/// Candidate moves a weakened level scores.
const CANDIDATES: usize = 6;

/// The measured Elo of each level, 1 to `MAX_LEVEL`: level 1 = 1000, and
/// each next level the Elo difference its 100 games against the one below
/// gave (benches/RESULTS.md, "Strength levels", 2026-11-26).
pub const LEVEL_ELO: [u32; MAX_LEVEL as usize] = [1000, 1550, 1750, 2190, 2470, 2700, 3110];

/// The plan of `level` (1..=`MAX_LEVEL`), `None` at full strength.
pub fn plan(level: u32) -> Option<LevelPlan> {
    let index = level.checked_sub(1)? as usize;
    PLANS.get(index).map(|&(budget, margin)| LevelPlan {
        nodes: match budget {
            Budget::Nodes(n) => Some(n),
            Budget::Depth(_) => None,
        },
        depth: match budget {
            Budget::Depth(d) => Some(d),
            Budget::Nodes(_) => None,
        },
        candidates: CANDIDATES,
        margin,
    })
}

/// The highest level whose Elo is at most `elo` (level 1 below its Elo).
pub fn level_for_elo(elo: u32) -> u32 {
    LEVEL_ELO
        .iter()
        .rposition(|&e| e <= elo)
        .map_or(1, |i| i as u32 + 1)
}

/// The index among `scores` (of the candidate moves, best first) that a
/// level with `margin` plays, drawn with `random`: moves within `margin`
/// of the best, each weighted by how far inside the margin it is.
pub fn choose(scores: &[i32], margin: i32, random: u64) -> usize {
    let Some(&best) = scores.first() else {
        return 0;
    };
    let weights: Vec<u64> = scores
        .iter()
        .map(|&s| (margin + 1 - (best - s)).max(0) as u64)
        .collect();
    let total: u64 = weights.iter().sum();
    if total == 0 {
        return 0;
    }
    let mut pick = random % total;
    for (i, &w) in weights.iter().enumerate() {
        if pick < w {
            return i;
        }
        pick -= w;
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_weaken_monotonically_and_the_top_is_full_strength() {
        assert_eq!(plan(MAX_LEVEL), None);
        assert_eq!(plan(0), None);
        // A depth, then a node count, each growing, and the margin falling.
        let budget = |p: LevelPlan| {
            (
                p.nodes.is_some(),
                p.depth.unwrap_or(0),
                p.nodes.unwrap_or(0),
            )
        };
        for level in 1..MAX_LEVEL - 1 {
            let (this, next) = (plan(level).unwrap(), plan(level + 1).unwrap());
            assert!(budget(this) < budget(next), "level {level}");
            assert!(this.margin > next.margin, "level {level}");
            assert!(this.margin < 100, "never a man away on purpose");
            assert!(this.nodes.is_some() != this.depth.is_some());
        }
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn elo_maps_to_the_highest_level_at_or_below_it() {
        assert_eq!(level_for_elo(0), 1);
        assert_eq!(level_for_elo(LEVEL_ELO[0]), 1);
        assert_eq!(level_for_elo(LEVEL_ELO[3] + 1), 4);
        assert_eq!(level_for_elo(5000), MAX_LEVEL);
    }

    #[test]
    fn only_moves_within_the_margin_are_chosen_the_best_most_often() {
        let scores = [50, 45, 20, -300];
        let mut counts = [0; 4];
        for r in 0..10_000u64 {
            counts[choose(&scores, 10, r.wrapping_mul(0x9E37_79B9_7F4A_7C15))] += 1;
        }
        assert_eq!(counts[2] + counts[3], 0, "{counts:?}");
        assert!(counts[0] > counts[1] && counts[1] > 0, "{counts:?}");
        assert_eq!(choose(&[], 10, 3), 0);
        assert_eq!(choose(&[7], 0, 12345), 0);
    }
}

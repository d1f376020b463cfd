//! Strength levels: a weaker engine to play against, from beginner to full
//! strength, and the approximate Elo of each level.
//!
//! A level below the top plays from a small search (a depth or a node
//! budget: deep shots and long plans stay beyond it) that scores several candidate
//! moves, and picks among those within a margin of the best, at random,
//! the nearer the best the likelier. The margin grows as the level falls,
//! but stays under a man: a weak level misses what it cannot see and
//! prefers worse plans, it does not give pieces away for nothing.
//!
//! The Elo of a level is measured, not guessed: `LEVEL_ELO` comes from
//! matches of each level against the next (benches/tools.md, "Strength
//! levels"), anchored at level 1 = 1000.

/// The top level: full strength, the search as configured.
pub const MAX_LEVEL: u32 = 20;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Budget {
    Depth(u32),
    Nodes(u64),
}

/// Levels 1 to `MAX_LEVEL - 1`: the budget a move, the margin of choice
/// and the moves scored. Each was chosen by matches of candidates against
/// their neighbours so that the next level is at most 150 Elo stronger.
const PLANS: [(Budget, i32, usize); MAX_LEVEL as usize - 1] = [
    (Budget::Depth(1), 80, 6),
    (Budget::Depth(1), 0, 6),
    (Budget::Depth(2), 99, 20),
    (Budget::Depth(2), 75, 6),
    (Budget::Depth(2), 35, 6),
    (Budget::Nodes(1_000), 32, 6),
    (Budget::Nodes(1_000), 0, 6),
    (Budget::Depth(3), 20, 6),
    (Budget::Nodes(3_000), 22, 6),
    (Budget::Nodes(4_000), 15, 6),
    (Budget::Nodes(5_000), 10, 6),
    (Budget::Nodes(7_000), 6, 6),
    (Budget::Nodes(12_000), 5, 6),
    (Budget::Nodes(20_000), 3, 6),
    (Budget::Nodes(35_000), 0, 6),
    (Budget::Nodes(60_000), 0, 6),
    (Budget::Nodes(100_000), 0, 6),
    (Budget::Nodes(180_000), 0, 6),
    (Budget::Nodes(260_000), 0, 6),
];

/// The measured Elo of each level, 1 to `MAX_LEVEL`: level 1 = 1000, and
/// each next level the Elo difference its games against the one below
/// gave (benches/tools.md, "Strength levels", 2026-12-05).
pub const LEVEL_ELO: [u32; MAX_LEVEL as usize] = [
    1000, 1111, 1234, 1333, 1442, 1521, 1631, 1735, 1830, 1958, 2020, 2134, 2277, 2400, 2523, 2614,
    2702, 2778, 2795, 2934,
];

/// The plan of `level` (1..=`MAX_LEVEL`), `None` at full strength.
pub fn plan(level: u32) -> Option<LevelPlan> {
    let index = level.checked_sub(1)? as usize;
    PLANS
        .get(index)
        .map(|&(budget, margin, candidates)| LevelPlan {
            nodes: match budget {
                Budget::Nodes(n) => Some(n),
                Budget::Depth(_) => None,
            },
            depth: match budget {
                Budget::Depth(d) => Some(d),
                Budget::Nodes(_) => None,
            },
            candidates,
            margin,
        })
}

/// How `level` plays, in words: "depth 2, within 0.75 of the best",
/// "12,000 nodes, the best of 6" or "full strength".
pub fn describe(level: u32) -> String {
    let Some(plan) = plan(level) else {
        return "full strength".to_string();
    };
    let budget = match (plan.depth, plan.nodes) {
        (Some(depth), _) => format!("depth {depth}"),
        (None, Some(nodes)) => format!("{} nodes", thousands(nodes)),
        (None, None) => "unlimited".to_string(),
    };
    if plan.margin == 0 {
        format!("{budget}, the best move")
    } else {
        format!(
            "{budget}, one of {} moves within {}.{:02} of the best",
            plan.candidates,
            plan.margin / 100,
            plan.margin % 100
        )
    }
}

/// `n` with a comma every three digits.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
        for level in 1..MAX_LEVEL {
            let p = plan(level).unwrap();
            assert!(p.nodes.is_some() != p.depth.is_some(), "level {level}");
            assert!((0..100).contains(&p.margin), "never a man away on purpose");
            assert!(p.candidates >= 2, "level {level}");
        }
        // Within one kind of budget each level searches more than the one
        // below, or as much and chooses within a narrower margin or among
        // fewer moves (a depth and a node count are ordered by games only).
        for pair in PLANS.windows(2) {
            let ((budget, margin, _), (next_budget, next_margin, _)) = (pair[0], pair[1]);
            let deeper = match (budget, next_budget) {
                (Budget::Depth(a), Budget::Depth(b)) => b.cmp(&a),
                (Budget::Nodes(a), Budget::Nodes(b)) => b.cmp(&a),
                _ => continue,
            };
            assert!(
                deeper.is_gt()
                    || (deeper.is_eq() && (next_margin < margin || pair[0].2 > pair[1].2)),
                "{pair:?}"
            );
        }
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
        assert!(LEVEL_ELO.windows(2).all(|w| w[1] - w[0] <= 150));
    }

    #[test]
    fn a_level_is_described_in_words() {
        assert_eq!(
            describe(1),
            "depth 1, one of 6 moves within 0.80 of the best"
        );
        assert_eq!(describe(2), "depth 1, the best move");
        assert_eq!(
            describe(13),
            "12,000 nodes, one of 6 moves within 0.05 of the best"
        );
        assert_eq!(describe(MAX_LEVEL), "full strength");
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

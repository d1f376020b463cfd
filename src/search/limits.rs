//! Search limits and the time budget derived from them.
//!
//! The budget has two parts: a soft limit (do not start a new iteration
//! past it, scaled by how unsettled the search is) and a hard limit (stop
//! at once). The hard limit never exceeds what the clock allows minus a
//! safety margin for the protocol round trip.

use std::time::Duration;

/// How long a search may run. Every field left at its default means no
/// limit of that kind; a search with no limit at all runs until stopped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Stop after completing this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Use at most this much time for the move.
    pub move_time: Option<Duration>,
    /// Time left on the engine's clock (sudden death or period).
    pub time: Option<Duration>,
    /// Time added to the clock for every move.
    pub inc: Duration,
    /// Moves to play before the clock is refilled (`None`: the rest of the game).
    pub moves_to_go: Option<u32>,
    /// Search until stopped, whatever else is set.
    pub infinite: bool,
}

/// Time kept back from every clock for the protocol round trip and process
/// scheduling.
const SAFETY: Duration = Duration::from_millis(40);

/// Moves assumed left in a sudden-death game.
const MOVES_HORIZON: u32 = 30;

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Do not start a new iteration after this (before scaling).
    pub soft: Option<Duration>,
    /// Stop at once at this.
    pub hard: Option<Duration>,
}

impl Limits {
    /// Whether any limit other than a stop can end the search.
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.move_time.is_some()
                || self.time.is_some())
    }

    /// The time budget for one move.
    pub fn budget(&self) -> Budget {
        if self.infinite {
            return Budget {
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = self.move_time {
            // A fixed move time is meant to be used: no early stop.
            let t = mt.saturating_sub(SAFETY).max(Duration::from_millis(1));
            return Budget {
                soft: None,
                hard: Some(t),
            };
        }
        let Some(left) = self.time else {
            return Budget {
                soft: None,
                hard: None,
            };
        };
        // The increment is on the clock before the move (Hub: `inc` is
        // added before every move).
        let usable = left
            .saturating_add(self.inc)
            .saturating_sub(SAFETY)
            .max(Duration::from_millis(1));
        let moves = self
            .moves_to_go
            .unwrap_or(MOVES_HORIZON)
            .clamp(1, MOVES_HORIZON);
        let share = (left / moves).saturating_add(scale(self.inc, 0.8));
        let hard_cap = if moves == 1 {
            usable
        } else {
            scale(usable, 0.35)
        };
        let soft = share.min(hard_cap);
        let hard = share.saturating_mul(4).min(hard_cap);
        Budget {
            soft: Some(soft),
            hard: Some(hard),
        }
    }
}

/// `d * factor` (factor below 1), without overflow for any duration.
fn scale(d: Duration, factor: f64) -> Duration {
    Duration::try_from_secs_f64(d.as_secs_f64() * factor).unwrap_or(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_time_is_kept_with_a_margin() {
        let l = Limits {
            move_time: Some(Duration::from_millis(100)),
            ..Limits::default()
        };
        let b = l.budget();
        assert!(b.hard.unwrap() < Duration::from_millis(100));
        assert!(b.hard.unwrap() > Duration::from_millis(50));
        assert_eq!(b.soft, None);
    }

    #[test]
    fn sudden_death_never_spends_the_whole_clock() {
        let l = Limits {
            time: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        let b = l.budget();
        assert!(b.hard.unwrap() <= Duration::from_secs(4));
        assert!(b.soft.unwrap() <= b.hard.unwrap());
    }

    #[test]
    fn huge_clocks_do_not_overflow() {
        let l = Limits {
            time: Some(Duration::MAX),
            inc: Duration::MAX,
            ..Limits::default()
        };
        let b = l.budget();
        assert!(b.hard.unwrap() >= b.soft.unwrap());
    }

    #[test]
    fn a_tiny_clock_still_gives_a_positive_budget() {
        let l = Limits {
            time: Some(Duration::from_millis(5)),
            ..Limits::default()
        };
        assert!(l.budget().hard.unwrap() > Duration::ZERO);
    }
}

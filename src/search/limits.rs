//! Search limits and the time budget derived from them.
//!
//! The budget has two parts: a soft limit (do not start a new iteration
//! past it, scaled by how unsettled the search is) and a hard limit (stop
//! at once).
//!
//! A fixed move time is used to the end but for `MOVE_TIME_MARGIN`, the
//! time from the stop decision to the move read by the GUI. Under a clock
//! the hard limit never eats into `CLOCK_RESERVE`, which stays on the clock
//! for the GUI's own latency and the round trips of the moves to come.

use std::time::{Duration, Instant};

use crate::game::{Clock, TimeControl};

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
    /// When the clock of this move started (the `go` line's arrival, which
    /// may be before the search starts); `None`: when the search starts.
    pub since: Option<Instant>,
}

/// Time kept back from a fixed move time: from the moment the search
/// decides to stop to the move read by the GUI (the search checks the
/// clock every 1024 nodes, unwinds, the adapter writes `done`, the pipe
/// delivers it). Measured by `tempo match --movetime 0.2` on a 2-core
/// machine running two games at once: see `benches/time.md`.
pub const MOVE_TIME_MARGIN: Duration = Duration::from_millis(5);

/// Time that stays on a game clock whatever the budget: the GUI's own
/// latency and the protocol round trips of the moves still to come.
pub const CLOCK_RESERVE: Duration = Duration::from_millis(50);

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
    /// The limits of a side's next move under the refereed `clock`: its
    /// time left and increment, a fixed move time, or a fixed depth.
    pub fn for_clock(clock: &Clock) -> Limits {
        match clock.control() {
            TimeControl::Clock { inc, .. } => Limits {
                time: Some(clock.left().saturating_add(inc)),
                inc,
                moves_to_go: clock.moves_to_go(),
                ..Limits::default()
            },
            TimeControl::MoveTime(t) => Limits {
                move_time: Some(t),
                ..Limits::default()
            },
            TimeControl::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
            TimeControl::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
        }
    }

    /// Whether any limit other than a stop can end the search.
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.move_time.is_some()
                || self.time.is_some())
    }

    /// Whether only a depth or a node count ends the search (no clock, not
    /// infinite): then its result may not depend on how fast anything else
    /// ran.
    pub fn ends_on_count(&self) -> bool {
        !self.infinite
            && self.move_time.is_none()
            && self.time.is_none()
            && (self.depth.is_some() || self.nodes.is_some())
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
            let t = mt
                .saturating_sub(MOVE_TIME_MARGIN)
                .max(Duration::from_millis(1));
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
        // `time` holds this move's increment already (Hub: `inc` is added
        // before every move); the share of the clock without it is spread
        // over the moves to go, and most of the increment is spent now.
        let base = left.saturating_sub(self.inc);
        let usable = left
            .saturating_sub(CLOCK_RESERVE)
            .max(Duration::from_millis(1));
        let moves = self
            .moves_to_go
            .unwrap_or(MOVES_HORIZON)
            .clamp(1, MOVES_HORIZON);
        let share = (base / moves).saturating_add(scale(self.inc, 0.8));
        // The last move of a period may use what is left; any other keeps
        // most of the clock for the moves after it.
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

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_refereed_clock_gives_the_limits_of_the_next_move() {
        let mut game = Clock::new(TimeControl::parse_clock("10+0.1").unwrap());
        game.spend(Duration::from_secs(2));
        let limits = Limits::for_clock(&game);
        assert_eq!(limits.time, Some(ms(8200)));
        assert_eq!(limits.inc, ms(100));
        assert_eq!(limits.moves_to_go, None);
        let mut periods = Clock::new(TimeControl::dxp(2, 3, Duration::from_secs(1)));
        periods.spend(Duration::from_secs(50));
        assert_eq!(Limits::for_clock(&periods).moves_to_go, Some(2));
        let move_time = Clock::new(TimeControl::MoveTime(ms(200)));
        assert_eq!(Limits::for_clock(&move_time).move_time, Some(ms(200)));
        let depth = Clock::new(TimeControl::Depth(6));
        assert_eq!(Limits::for_clock(&depth).depth, Some(6));
        let dxp_no_clock = Clock::new(TimeControl::dxp(0, 0, ms(1500)));
        assert_eq!(Limits::for_clock(&dxp_no_clock).move_time, Some(ms(1500)));
    }

    #[test]
    fn only_a_depth_or_a_node_count_with_no_clock_ends_on_count() {
        let depth = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let nodes = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        assert!(depth.ends_on_count() && nodes.ends_on_count());
        let timed = Limits {
            move_time: Some(ms(100)),
            ..depth.clone()
        };
        let clocked = Limits {
            time: Some(ms(1000)),
            ..nodes.clone()
        };
        let infinite = Limits {
            infinite: true,
            ..depth
        };
        for limits in [timed, clocked, infinite, Limits::default()] {
            assert!(!limits.ends_on_count(), "{limits:?}");
        }
    }

    /// The budget under a clock of `time` (this move's increment included),
    /// `inc` and `moves` to go.
    fn clock(time: u64, inc: u64, moves: Option<u32>) -> Budget {
        Limits {
            time: Some(ms(time)),
            inc: ms(inc),
            moves_to_go: moves,
            ..Limits::default()
        }
        .budget()
    }

    #[test]
    fn a_fixed_move_time_is_used_but_for_the_measured_margin() {
        let b = Limits {
            move_time: Some(ms(200)),
            ..Limits::default()
        }
        .budget();
        assert_eq!(b.hard, Some(ms(200) - MOVE_TIME_MARGIN));
        assert_eq!(b.soft, None);
    }

    #[test]
    fn sudden_death_with_many_moves_left_spends_a_small_share() {
        let b = clock(10_000, 0, None);
        assert_eq!(b.soft, Some(ms(10_000) / MOVES_HORIZON));
        assert_eq!(b.hard, Some(ms(10_000) / MOVES_HORIZON * 4));
        // With an increment most of it is spent on top.
        let b = clock(10_100, 100, None);
        let extra = b.soft.unwrap() - ms(10_000) / MOVES_HORIZON;
        assert!(
            extra.abs_diff(ms(80)) < Duration::from_micros(1),
            "{extra:?}"
        );
    }

    #[test]
    fn few_moves_to_go_spend_more_and_the_last_may_use_the_clock() {
        let soft = |moves| clock(10_000, 0, Some(moves)).soft.unwrap();
        assert!(soft(5) > soft(20));
        assert_eq!(soft(5), ms(2_000));
        // Five moves left: the hard limit keeps 65% of the clock back.
        assert_eq!(
            clock(10_000, 0, Some(5)).hard,
            Some(scale(ms(10_000) - CLOCK_RESERVE, 0.35))
        );
        // The last move before the clock is refilled may take what is left
        // but the reserve.
        let last = clock(10_000, 0, Some(1));
        assert_eq!(last.hard, Some(ms(10_000) - CLOCK_RESERVE));
        assert_eq!(last.soft, last.hard);
    }

    #[test]
    fn an_increment_larger_than_the_clock_is_spent_but_never_the_reserve() {
        // 50 ms on the clock, 1 s increment: 1.05 s usable now.
        let b = clock(1_050, 1_000, None);
        let hard = b.hard.unwrap();
        assert!(hard <= ms(1_050) - CLOCK_RESERVE, "{hard:?}");
        assert!(b.soft.unwrap() >= ms(340), "{b:?}");
        assert!(b.soft.unwrap() <= hard);
    }

    #[test]
    fn sudden_death_never_spends_the_whole_clock() {
        for time in [20, 100, 1_000, 10_000, 100_000] {
            for inc in [0, 10, 100] {
                let b = clock(time + inc, inc, None);
                let hard = b.hard.unwrap();
                assert!(hard <= ms(time + inc).mul_f64(0.35), "{time}+{inc}: {b:?}");
                assert!(b.soft.unwrap() <= hard);
            }
        }
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

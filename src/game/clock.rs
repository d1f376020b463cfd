//! Time controls and the clock of one side, kept by whoever referees a
//! game: `tempo match` for both engines, a DXP connection for its own side.
//!
//! Every control tempo knows is one `TimeControl`:
//! - a game clock, `time` for the whole game plus `inc` a move (Fischer);
//! - moves in time, `time` for every `moves` moves, the unused time carried
//!   over (DXP's "minutes for N moves" is this with no increment);
//! - a fixed time a move;
//! - a fixed depth, no clock at all.
//!
//! The increment is on the clock before the move it is for (as the Hub
//! protocol counts it): a move may take `left + inc`, and a side whose move
//! takes longer has lost on time.

use std::fmt;
use std::time::Duration;

/// How much thinking time each move gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock: `time` for `moves` moves (or the whole game), plus `inc` per move.
    Clock {
        /// Moves per period, `None` for the whole game.
        moves: Option<u32>,
        /// Time per period.
        time: Duration,
        /// Increment per move.
        inc: Duration,
    },
    /// A fixed time per move.
    MoveTime(Duration),
    /// A fixed search depth (no clock).
    Depth(u32),
    /// A fixed number of nodes a move (no clock): a match that the load of
    /// the machine cannot sway.
    Nodes(u64),
}

impl TimeControl {
    /// Parses `[moves/]seconds[+increment]`, e.g. `10+0.1` or `40/60`.
    pub fn parse_clock(text: &str) -> Result<TimeControl, String> {
        let bad = || format!("'{text}' is not [moves/]seconds[+increment]");
        let (moves, rest) = match text.split_once('/') {
            Some((m, r)) => (Some(m.trim().parse::<u32>().map_err(|_| bad())?), r),
            None => (None, text),
        };
        let (time, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let secs = |s: &str| -> Result<Duration, String> {
            let v: f64 = s.trim().parse().map_err(|_| bad())?;
            if !v.is_finite() || v < 0.0 {
                return Err(bad());
            }
            Ok(Duration::from_secs_f64(v))
        };
        let time = secs(time)?;
        if time.is_zero() || moves == Some(0) {
            return Err(bad());
        }
        Ok(TimeControl::Clock {
            moves,
            time,
            inc: secs(inc)?,
        })
    }

    /// The same control with `factor` times the thinking time: the clock's
    /// time and increment, the move time or the nodes a move (time odds).
    /// A fixed depth cannot be scaled.
    pub fn scaled(self, factor: f64) -> Result<TimeControl, String> {
        if !factor.is_finite() || factor <= 0.0 {
            return Err(format!(
                "the time factor {factor} must be a positive number"
            ));
        }
        let scale = |d: Duration| Duration::from_secs_f64(d.as_secs_f64() * factor);
        Ok(match self {
            TimeControl::Clock { moves, time, inc } => TimeControl::Clock {
                moves,
                time: scale(time),
                inc: scale(inc),
            },
            TimeControl::MoveTime(t) => TimeControl::MoveTime(scale(t)),
            TimeControl::Nodes(n) => {
                TimeControl::Nodes(((n as f64 * factor).round() as u64).max(1))
            }
            TimeControl::Depth(_) if factor == 1.0 => self,
            TimeControl::Depth(d) => {
                return Err(format!(
                    "a fixed depth ({d}) has no time to scale by {factor}"
                ))
            }
        })
    }

    /// DXP's control: `minutes` for every `moves` moves (0: the whole game).
    /// A request with no time (0 minutes) gets `no_clock` a move.
    pub fn dxp(minutes: u16, moves: u16, no_clock: Duration) -> TimeControl {
        if minutes == 0 {
            return TimeControl::MoveTime(no_clock);
        }
        TimeControl::Clock {
            moves: (moves > 0).then_some(u32::from(moves)),
            time: Duration::from_secs(u64::from(minutes) * 60),
            inc: Duration::ZERO,
        }
    }
}

impl fmt::Display for TimeControl {
    /// As a PDN `TimeControl` tag says it: `40/60+0`, `10+0.1`,
    /// `0.2 s/move`, `depth 8`, `20000 nodes/move`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Clock { moves, time, inc } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}+{}", time.as_secs_f64(), inc.as_secs_f64())
            }
            TimeControl::MoveTime(t) => write!(f, "{} s/move", t.as_secs_f64()),
            TimeControl::Depth(d) => write!(f, "depth {d}"),
            TimeControl::Nodes(n) => write!(f, "{n} nodes/move"),
        }
    }
}

/// One side's clock under a `TimeControl`.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    control: TimeControl,
    /// Time on the clock before this move's increment (clock controls).
    left: Duration,
    /// Moves this side has made.
    made: u32,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(control: TimeControl) -> Clock {
        let left = match control {
            TimeControl::Clock { time, .. } => time,
            TimeControl::MoveTime(_) | TimeControl::Depth(_) | TimeControl::Nodes(_) => {
                Duration::ZERO
            }
        };
        Clock {
            control,
            left,
            made: 0,
        }
    }

    /// The control this clock runs under.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Time on the clock before this move's increment (zero without a clock).
    pub fn left(&self) -> Duration {
        self.left
    }

    /// Moves this side has made.
    pub fn moves_made(&self) -> u32 {
        self.made
    }

    /// Moves to make before the clock is refilled, counting this one
    /// (`None`: no periods).
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.control {
            TimeControl::Clock { moves: Some(m), .. } => Some(m - self.made % m),
            _ => None,
        }
    }

    /// The longest this move may take without losing on time (`None`: no
    /// clock, as under a fixed depth).
    pub fn allowed(&self) -> Option<Duration> {
        match self.control {
            TimeControl::Clock { inc, .. } => Some(self.left.saturating_add(inc)),
            TimeControl::MoveTime(t) => Some(t),
            TimeControl::Depth(_) | TimeControl::Nodes(_) => None,
        }
    }

    /// Whether a move that took `used` lost on time, `grace` past what was
    /// allowed being tolerated.
    pub fn overran(&self, used: Duration, grace: Duration) -> bool {
        self.allowed()
            .is_some_and(|allowed| used > allowed.saturating_add(grace))
    }

    /// A move took `used`: the increment comes, the time goes, and a new
    /// period starts after the last move of one.
    pub fn spend(&mut self, used: Duration) {
        self.made += 1;
        if let TimeControl::Clock { moves, time, inc } = self.control {
            self.left = self.left.saturating_add(inc).saturating_sub(used);
            if moves.is_some_and(|m| self.made.is_multiple_of(m)) {
                self.left = self.left.saturating_add(time);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn clocks_parse_and_print() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1").unwrap(),
            TimeControl::Clock {
                moves: None,
                time: secs(10.0),
                inc: secs(0.1)
            }
        );
        let forty = TimeControl::parse_clock("40/60").unwrap();
        assert_eq!(
            forty,
            TimeControl::Clock {
                moves: Some(40),
                time: secs(60.0),
                inc: Duration::ZERO
            }
        );
        assert_eq!(forty.to_string(), "40/60+0");
        assert_eq!(TimeControl::MoveTime(secs(0.2)).to_string(), "0.2 s/move");
        for bad in ["", "x", "0", "-1+0", "10+-1", "0/10", "10+"] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_control_scales_its_time_but_not_a_depth() {
        let clock = TimeControl::parse_clock("40/10+0.1").unwrap();
        assert_eq!(
            clock.scaled(2.0).unwrap(),
            TimeControl::Clock {
                moves: Some(40),
                time: secs(20.0),
                inc: secs(0.2)
            }
        );
        assert_eq!(
            TimeControl::MoveTime(secs(0.1)).scaled(0.5).unwrap(),
            TimeControl::MoveTime(secs(0.05))
        );
        assert_eq!(
            TimeControl::Nodes(1000).scaled(1.5).unwrap(),
            TimeControl::Nodes(1500)
        );
        assert_eq!(
            TimeControl::Nodes(1).scaled(0.1).unwrap(),
            TimeControl::Nodes(1)
        );
        assert_eq!(
            TimeControl::Depth(8).scaled(1.0).unwrap(),
            TimeControl::Depth(8)
        );
        assert!(TimeControl::Depth(8).scaled(2.0).is_err());
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(
                TimeControl::MoveTime(secs(0.1)).scaled(bad).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_game_clock_runs_down_with_its_increment() {
        let mut clock = Clock::new(TimeControl::parse_clock("10+0.1").unwrap());
        assert_eq!(clock.allowed(), Some(secs(10.1)));
        clock.spend(secs(2.0));
        assert_eq!(clock.left(), secs(8.1));
        assert_eq!(clock.moves_to_go(), None);
        assert!(!clock.overran(secs(8.2), Duration::ZERO));
        assert!(clock.overran(secs(8.3), Duration::ZERO));
        assert!(!clock.overran(secs(8.3), secs(0.1)));
    }

    #[test]
    fn a_period_refills_after_its_last_move() {
        let mut clock = Clock::new(TimeControl::dxp(2, 3, secs(1.0)));
        assert_eq!(clock.moves_to_go(), Some(3));
        clock.spend(secs(50.0));
        clock.spend(secs(50.0));
        assert_eq!(clock.left(), secs(20.0));
        assert_eq!(clock.moves_to_go(), Some(1));
        clock.spend(secs(15.0));
        assert_eq!(clock.left(), secs(125.0));
        assert_eq!(clock.moves_to_go(), Some(3));
        assert_eq!(clock.moves_made(), 3);
        // Past the clock it stays at zero, never negative.
        clock.spend(secs(500.0));
        assert_eq!(clock.left(), Duration::ZERO);
        assert_eq!(clock.moves_to_go(), Some(2));
    }

    #[test]
    fn fixed_controls_have_no_clock_to_run_down() {
        let mut clock = Clock::new(TimeControl::MoveTime(secs(0.2)));
        clock.spend(secs(0.19));
        assert_eq!(clock.allowed(), Some(secs(0.2)));
        let depth = Clock::new(TimeControl::Depth(6));
        assert_eq!(depth.allowed(), None);
        assert!(!depth.overran(secs(1e6), Duration::ZERO));
    }
}

//! The clock and limits the `level` lines give, and a `level` line
//! written from a referee's clock.

use std::time::Duration;

use super::command::LevelUpdate;
use super::DEFAULT_MOVE_TIME;
use crate::engine::{GoMode, Limits};
use crate::game::{Clock, TimeControl};

/// The search limits that `level` lines have set so far.
///
/// The limits are of five kinds: `depth`, `nodes`, `move-time`, the clock
/// (`moves`, `time`, `inc`) and `infinite`. A line sets the kinds it names
/// and clears the kinds it does not name, so each line says what the next
/// searches obey (pydraughts sends one complete line per search). Within
/// the clock, a line may name only some fields: the others keep their last
/// values (`level moves=40 time=300 inc=2`, then `level time=251.5`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelState {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<Duration>,
    moves: Option<u32>,
    time: Option<Duration>,
    inc: Duration,
    infinite: bool,
}

impl LevelState {
    /// Applies one `level` line.
    pub fn apply(&mut self, update: &LevelUpdate) {
        self.depth = update.depth;
        self.nodes = update.nodes;
        self.move_time = update.move_time;
        self.infinite = update.infinite.unwrap_or(false);
        if update.time.is_none() && update.moves.is_none() && update.inc.is_none() {
            self.time = None;
            self.moves = None;
            self.inc = Duration::ZERO;
            return;
        }
        if update.time.is_some() {
            self.time = update.time;
        }
        if let Some(moves) = update.moves {
            self.moves = (moves > 0).then_some(moves);
        }
        if let Some(inc) = update.inc {
            self.inc = inc;
        }
    }

    /// The limits of a search in `mode`. The Hub clock gets this move's
    /// increment before the move, so the time available now is
    /// `time + inc`. With no limit at all, `go analyze` runs until `stop`
    /// and the other modes think for `DEFAULT_MOVE_TIME`.
    pub fn limits(&self, mode: GoMode) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            nodes: self.nodes,
            move_time: self.move_time,
            time: self.time.map(|t| t.saturating_add(self.inc)),
            inc: self.inc,
            moves_to_go: self.moves,
            infinite: self.infinite,
            since: None,
        };
        if !limits.is_bounded() && !limits.infinite {
            match mode {
                GoMode::Analyze => limits.infinite = true,
                GoMode::Think | GoMode::Ponder => limits.move_time = Some(DEFAULT_MOVE_TIME),
            }
        }
        limits
    }
}

impl LevelUpdate {
    /// What a referee tells the side to move under its clock: the time on
    /// the clock before this move's increment, the increment and the moves
    /// to the next period; or the fixed move time; or the fixed depth.
    pub fn of_clock(clock: &Clock) -> LevelUpdate {
        match clock.control() {
            TimeControl::Clock { inc, .. } => LevelUpdate {
                moves: clock.moves_to_go(),
                time: Some(clock.left()),
                inc: Some(inc),
                ..LevelUpdate::default()
            },
            TimeControl::MoveTime(t) => LevelUpdate {
                move_time: Some(t),
                ..LevelUpdate::default()
            },
            TimeControl::Depth(d) => LevelUpdate {
                depth: Some(d),
                ..LevelUpdate::default()
            },
            TimeControl::Nodes(n) => LevelUpdate {
                nodes: Some(n),
                ..LevelUpdate::default()
            },
        }
    }
}

/// The `level` line that names exactly the fields `update` sets, times in
/// seconds to the millisecond; `parse_command` reads it back.
pub fn format_level(update: &LevelUpdate) -> String {
    let mut line = String::from("level");
    let seconds = |t: Duration| format!("{:.3}", t.as_secs_f64());
    if let Some(depth) = update.depth {
        line.push_str(&format!(" depth={depth}"));
    }
    if let Some(nodes) = update.nodes {
        line.push_str(&format!(" nodes={nodes}"));
    }
    if let Some(t) = update.move_time {
        line.push_str(&format!(" move-time={}", seconds(t)));
    }
    if let Some(moves) = update.moves {
        line.push_str(&format!(" moves={moves}"));
    }
    if let Some(t) = update.time {
        line.push_str(&format!(" time={}", seconds(t)));
    }
    if let Some(t) = update.inc {
        line.push_str(&format!(" inc={}", seconds(t)));
    }
    if let Some(infinite) = update.infinite {
        line.push_str(&format!(" infinite={infinite}"));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::super::{parse_command, HubCommand, MAX_SECONDS};
    use super::*;
    #[test]
    fn each_level_line_sets_the_limits_and_the_clock_accumulates() {
        let mut level = LevelState::default();
        let up = |l: &str| match parse_command(l).unwrap().unwrap() {
            HubCommand::Level(u) => u,
            other => panic!("{other:?}"),
        };
        // The limits of a search in `mode` once `line` is applied.
        let mut limits_after = |line: &str, mode| {
            level.apply(&up(line));
            level.limits(mode)
        };
        limits_after("level moves=40 time=300", GoMode::Think);
        let l = limits_after("level inc=2", GoMode::Think);
        assert_eq!(l.moves_to_go, Some(40));
        assert_eq!(l.time, Some(Duration::from_secs(302)));
        assert_eq!(l.inc, Duration::from_secs(2));
        let l = limits_after("level time=250", GoMode::Think);
        assert_eq!(
            (l.moves_to_go, l.time),
            (Some(40), Some(Duration::from_secs(252)))
        );
        let l = limits_after("level move-time=0.5", GoMode::Think);
        assert_eq!(l.move_time, Some(Duration::from_millis(500)));
        assert_eq!((l.time, l.moves_to_go), (None, None));
        let l = limits_after("level depth=6", GoMode::Think);
        assert_eq!((l.depth, l.move_time), (Some(6), None));
        let l = limits_after("level depth=8 move-time=2", GoMode::Think);
        assert_eq!(
            (l.depth, l.move_time),
            (Some(8), Some(Duration::from_secs(2)))
        );
        let l = limits_after("level infinite", GoMode::Analyze);
        assert!(l.infinite && l.depth.is_none());
        let l = limits_after("level time=60", GoMode::Think);
        assert!(!l.infinite);
        assert_eq!((l.time, l.move_time), (Some(Duration::from_secs(60)), None));
    }

    #[test]
    fn no_level_means_a_default_think_and_an_endless_analysis() {
        let level = LevelState::default();
        assert_eq!(
            level.limits(GoMode::Think).move_time,
            Some(DEFAULT_MOVE_TIME)
        );
        assert!(level.limits(GoMode::Analyze).infinite);
    }

    #[test]
    fn huge_times_are_capped() {
        let Ok(Some(HubCommand::Level(u))) = parse_command("level time=1e300 inc=1e300") else {
            panic!("not a level")
        };
        let mut level = LevelState::default();
        level.apply(&u);
        let l = level.limits(GoMode::Think);
        assert!(l.time.unwrap() <= Duration::from_secs_f64(2.0 * MAX_SECONDS));
    }

    #[test]
    fn a_referee_clock_writes_a_level_line_that_reads_back() {
        let secs = Duration::from_secs_f64;
        let mut clock = Clock::new(TimeControl::parse_clock("40/60+0.5").unwrap());
        clock.spend(secs(1.25));
        let update = LevelUpdate::of_clock(&clock);
        let line = format_level(&update);
        assert_eq!(line, "level moves=39 time=59.250 inc=0.500");
        assert_eq!(parse_command(&line), Ok(Some(HubCommand::Level(update))));
        for (control, text) in [
            (TimeControl::MoveTime(secs(0.2)), "level move-time=0.200"),
            (TimeControl::Depth(7), "level depth=7"),
            (
                TimeControl::parse_clock("10+0.1").unwrap(),
                "level time=10.000 inc=0.100",
            ),
        ] {
            assert_eq!(
                format_level(&LevelUpdate::of_clock(&Clock::new(control))),
                text
            );
        }
    }
}

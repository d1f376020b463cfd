//! Processor time the hypervisor took from this machine (the `steal` column
//! of Linux's `/proc/stat`), read around every move of a match so that a
//! loss on time says when the machine, not the engine, was stalled: on a
//! shared virtual machine an engine can be held off its processor for a
//! tenth of a second or more, which no time margin of a fast game absorbs.

use std::time::Duration;

/// Milliseconds of one `/proc/stat` tick: `USER_HZ` is 100 on every Linux
/// architecture (the kernel exports times in these units whatever its own
/// tick rate).
const TICK_MS: u64 = 10;

/// The steal time of all processors together since boot; `None` where
/// `/proc/stat` is missing or has no steal column (other systems, old
/// kernels).
pub fn stolen() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    steal_ticks(&stat).map(|ticks| Duration::from_millis(ticks.saturating_mul(TICK_MS)))
}

/// The steal ticks of the `cpu` summary line of a `/proc/stat` text: its
/// eighth number (user, nice, system, idle, iowait, irq, softirq, steal).
fn steal_ticks(stat: &str) -> Option<u64> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    line.split_whitespace().nth(8)?.parse().ok()
}

/// A clause for a loss on time: how much processor time the machine lost
/// between `before` and `after`, or nothing when it lost none or cannot
/// tell.
pub fn note(before: Option<Duration>, after: Option<Duration>) -> String {
    match (before, after) {
        (Some(b), Some(a)) if a > b => format!(
            "; the machine's processors were taken by the hypervisor for {} ms during the move",
            (a - b).as_millis()
        ),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_steal_column_is_the_eighth_number_of_the_cpu_line() {
        let stat = "cpu  6941631 8869 288094 2614557 44073 0 5858 20507 0 0\n\
                    cpu0 3470000 4000 144000 1300000 22000 0 2900 10250 0 0\n";
        assert_eq!(steal_ticks(stat), Some(20507));
    }

    #[test]
    fn a_cpu_line_without_a_steal_column_gives_nothing() {
        assert_eq!(steal_ticks("cpu  1 2 3 4 5 6 7\n"), None);
        assert_eq!(steal_ticks("intr 5 6\n"), None);
        assert_eq!(steal_ticks(""), None);
    }

    #[test]
    fn the_note_names_the_time_taken_only_when_there_was_some() {
        let ms = Duration::from_millis;
        assert_eq!(
            note(Some(ms(200)), Some(ms(350))),
            "; the machine's processors were taken by the hypervisor for 150 ms during the move"
        );
        assert_eq!(note(Some(ms(200)), Some(ms(200))), "");
        assert_eq!(note(None, Some(ms(200))), "");
        assert_eq!(note(Some(ms(200)), None), "");
    }
}

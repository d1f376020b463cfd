//! Shot sets: positions with a known winning first move, each searched for a
//! fixed time, and whether and when the search found the move.
//!
//! A shot file is tab separated, one position a line: the position (FEN or
//! Hub string), then the winning first moves in the rules' notation
//! separated by spaces (`27-22`, or `27-22 33-28` where either wins), then
//! any further columns (the set's own: gain, source, notes), of which the
//! fourth is shown as the position's source. Blank lines, lines starting
//! with `#` and a header line starting with `fen` are skipped. Every
//! position must parse and every listed move be legal in it, or the file is
//! refused with the line of the fault.
//!
//! A position is solved when the move the search answers at the end of its
//! time is a listed one. Its solution is the earliest completed iteration
//! from which every later iteration, and the answer, named a listed move:
//! its time, depth and nodes (time is the measure; depth and nodes do not
//! depend on the machine's load). Every position is searched from a cleared
//! table.

use std::time::{Duration, Instant};

use super::input::InputError;
use crate::rules::notation::{format_move, parse_move, parse_position};
use crate::rules::{Move, MoveStyle, Rules, VariantKind};
use crate::search::resources::{ResourceError, ResourceSettings};
use crate::search::tt::Table;
use crate::search::{search, solved_draws, Control, Limits, SearchResources, SearchSetup};
use crate::search::{Iteration, SearchParams};

/// The time within which a solution counts as fast.
pub const FAST: Duration = Duration::from_millis(100);

/// One position of a shot file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shot {
    /// The 1-based line of the file.
    pub line: usize,
    /// The position as written.
    pub position: String,
    /// The winning first moves as written.
    pub listed: Vec<String>,
    /// The fourth column (where the position comes from), empty if none.
    pub source: String,
}

/// Reads a shot file of variant `kind` (module docs); the first faulty line
/// refuses the file.
pub fn read_shots(kind: VariantKind, text: &str) -> Result<Vec<Shot>, InputError> {
    let mut shots = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with("fen\t") {
            continue;
        }
        let fault = |message: String| InputError {
            line,
            message,
            skipped: true,
        };
        let columns: Vec<&str> = raw.split('\t').map(str::trim).collect();
        let position = columns[0];
        let listed: Vec<String> = columns
            .get(1)
            .map(|c| c.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        if listed.is_empty() {
            return Err(fault(
                "no winning move listed (columns: position, tab, moves)".to_string(),
            ));
        }
        crate::rules::with_rules!(kind, R => listed_moves::<R>(position, &listed))
            .map_err(fault)?;
        shots.push(Shot {
            line,
            position: position.to_string(),
            listed,
            source: columns.get(3).map_or(String::new(), |s| s.to_string()),
        });
    }
    Ok(shots)
}

/// The listed moves of a shot in its position, or why they cannot be read.
fn listed_moves<R: Rules>(position: &str, listed: &[String]) -> Result<Vec<Move>, String> {
    let pos = parse_position::<R>(position).map_err(|e| format!("position: {e}"))?;
    listed
        .iter()
        .map(|text| parse_move(&pos, text).map_err(|e| format!("move '{text}': {e}")))
        .collect()
}

/// One answer of a search: a completed iteration, or the final answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    /// When it came, from the start of the search.
    pub time: Duration,
    /// The depth of its iteration (the final answer: the iteration it came
    /// from, completed or not).
    pub depth: u32,
    /// Nodes searched by then.
    pub nodes: u64,
    /// Whether its move is a listed one.
    pub listed: bool,
}

/// The first answer from which all of a search's answers, in order, named a
/// listed move: the solution, `None` when the last did not.
pub fn solution(answers: &[Answer]) -> Option<Answer> {
    let missed_at = answers.iter().rposition(|a| !a.listed);
    answers.get(missed_at.map_or(0, |i| i + 1)).copied()
}

/// How the search did on one shot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The move it answered, in the rules' short notation (`None`: no move).
    pub best: Option<String>,
    /// The answer from which it stayed on a listed move (its time, depth
    /// and nodes), `None` when unsolved.
    pub solved: Option<Answer>,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// The totals of a run over a shot set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Positions searched.
    pub positions: usize,
    /// Solved within the time of each search.
    pub solved: usize,
    /// Solved within [`FAST`].
    pub fast: usize,
    /// The mean time to solution, a position unsolved counting the full
    /// time of its search.
    pub mean: Duration,
    /// The mean depth of the solutions (0 when none).
    pub mean_depth: f64,
}

impl Summary {
    /// The totals of `attempts`, each searched for `movetime`.
    pub fn of(attempts: &[Attempt], movetime: Duration) -> Summary {
        let solutions: Vec<Answer> = attempts.iter().filter_map(|a| a.solved).collect();
        let total = attempts
            .iter()
            .map(|a| a.solved.map_or(movetime, |s| s.time))
            .sum::<Duration>();
        let depths: u32 = solutions.iter().map(|s| s.depth).sum();
        Summary {
            positions: attempts.len(),
            solved: solutions.len(),
            fast: solutions.iter().filter(|s| s.time <= FAST).count(),
            mean: total / (attempts.len().max(1) as u32),
            mean_depth: f64::from(depths) / solutions.len().max(1) as f64,
        }
    }
}

/// How every shot is searched.
#[derive(Clone, Debug)]
pub struct TacticsSettings {
    /// The time of each search.
    pub movetime: Duration,
    /// Search threads.
    pub threads: usize,
    /// The weights and endgame tables of the searches.
    pub resources: ResourceSettings,
    /// The search parameters.
    pub params: SearchParams,
}

/// Searches every shot of `shots` (read for variant `kind`) in order,
/// handing each with its attempt to `done`, on one table of `table`'s size
/// cleared before each search; fails only when the resources cannot be
/// loaded.
pub fn solve_all(
    kind: VariantKind,
    shots: &[Shot],
    settings: &TacticsSettings,
    table: &mut Table,
    done: &mut dyn FnMut(&Shot, &Attempt),
) -> Result<Vec<Attempt>, ResourceError> {
    crate::rules::with_rules!(kind, R => solve_run::<R>(shots, settings, table, done))
}

fn solve_run<R: Rules>(
    shots: &[Shot],
    settings: &TacticsSettings,
    table: &mut Table,
    done: &mut dyn FnMut(&Shot, &Attempt),
) -> Result<Vec<Attempt>, ResourceError> {
    let resources = SearchResources::<R>::load(&settings.resources)?;
    // Built before the clock of the first search runs.
    solved_draws::<R>();
    let mut attempts = Vec::with_capacity(shots.len());
    for shot in shots {
        let attempt = solve::<R>(shot, settings, &resources, table);
        done(shot, &attempt);
        attempts.push(attempt);
    }
    Ok(attempts)
}

/// Searches one shot.
fn solve<R: Rules>(
    shot: &Shot,
    settings: &TacticsSettings,
    resources: &SearchResources<R>,
    table: &mut Table,
) -> Attempt {
    let pos = parse_position::<R>(&shot.position).expect("checked when the file was read");
    let listed =
        listed_moves::<R>(&shot.position, &shot.listed).expect("checked when the file was read");
    table.clear();
    let mut setup = SearchSetup::new(
        pos,
        Limits {
            move_time: Some(settings.movetime),
            ..Limits::default()
        },
    );
    setup.threads = settings.threads.max(1);
    setup.search_single_move = true;
    setup.resources = resources.clone();
    setup.params = settings.params;
    let control = Control::new(false);
    let started = Instant::now();
    let mut answers = Vec::new();
    let result = search(&setup, table, &control, &mut |it: &Iteration| {
        if let (1, Some(&mv)) = (it.multipv, it.pv.first()) {
            answers.push(Answer {
                time: it.time,
                depth: it.depth,
                nodes: it.nodes,
                listed: listed.contains(&mv),
            });
        }
    });
    // The final answer may come from an iteration the time cut short.
    let last_depth = answers.last().map_or(0, |a| a.depth);
    answers.push(Answer {
        time: started.elapsed(),
        depth: if result.depth > last_depth {
            result.depth
        } else {
            last_depth + 1
        },
        nodes: result.nodes,
        listed: result.best.is_some_and(|mv| listed.contains(&mv)),
    });
    Attempt {
        best: result.best.map(|mv| format_move::<R>(mv, MoveStyle::Short)),
        solved: solution(&answers),
        depth: result.depth,
        nodes: result.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn answer(time: u64, listed: bool) -> Answer {
        Answer {
            time: ms(time),
            depth: time as u32,
            nodes: time * 100,
            listed,
        }
    }

    #[test]
    fn the_solution_is_the_first_answer_that_stayed() {
        let at = |answers: &[Answer]| solution(answers).map(|a| a.time);
        assert_eq!(at(&[]), None);
        assert_eq!(at(&[answer(5, true), answer(9, true)]), Some(ms(5)));
        let answers = [
            answer(1, true),
            answer(2, false),
            answer(4, true),
            answer(8, true),
        ];
        assert_eq!(solution(&answers), Some(answer(4, true)));
        assert_eq!(
            at(&[answer(1, true), answer(2, true), answer(9, false)]),
            None
        );
    }

    #[test]
    fn a_summary_counts_misses_at_the_full_time() {
        let attempt = |solved| Attempt {
            best: None,
            solved,
            depth: 0,
            nodes: 0,
        };
        let summary = Summary::of(
            &[
                attempt(Some(answer(50, true))),
                attempt(Some(answer(350, true))),
                attempt(None),
            ],
            ms(1000),
        );
        assert_eq!(summary.positions, 3);
        assert_eq!(summary.solved, 2);
        assert_eq!(summary.fast, 1);
        assert_eq!(summary.mean, ms(1400) / 3);
        assert_eq!(summary.mean_depth, 200.0);
    }

    #[test]
    fn a_faulty_line_is_refused_with_its_number() {
        let kind = VariantKind::International;
        let good = "W:W28:B3\t28-22\t1\tcomposed";
        let shots = read_shots(kind, &format!("# set\nfen\tbest\n{good}\n")).unwrap();
        assert_eq!(shots.len(), 1);
        assert_eq!(shots[0].line, 3);
        assert_eq!(shots[0].source, "composed");
        for (bad, why) in [
            ("W:W28:B3\t28-17", "move '28-17'"),
            ("W:W28:B3", "no winning move"),
            ("W:W99:B23\t28-22", "position"),
        ] {
            let e = read_shots(kind, &format!("{good}\n\n{bad}\n")).unwrap_err();
            assert_eq!(e.line, 3, "{bad}");
            assert!(e.message.contains(why), "{bad}: {}", e.message);
        }
    }
}

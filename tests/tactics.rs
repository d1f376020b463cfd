//! The shot runner (`tempo tactics`): a winning shot is found, a wrong
//! listed move counts unsolved, and the shot set of `tests/data/shots.tsv`
//! reads, each of its positions starting with a sacrifice.

use std::time::Duration;

use tempo::analyse::tactics::{read_shots, solve_all, Summary, TacticsSettings};
use tempo::rules::movegen::has_capture;
use tempo::rules::notation::{parse_move, parse_position};
use tempo::rules::{International, VariantKind};
use tempo::search::resources::ResourceSettings;
use tempo::search::tt::Table;
use tempo::search::SearchParams;

const SHOTS: &str = include_str!("data/shots.tsv");

/// A shot from tempo's own games (a level-5 game, ply 54): 39-34 gives a
/// man and wins two (found at depth 5; 29-23 first transposes into the
/// same shot); listed once right and once wrong.
const FEN: &str =
    "W:W26,28,29,31,33,35,38,39,41,43,44,45,48,49:B2,7,8,9,12,13,15,17,18,19,20,24,25,30";

fn settings(params: SearchParams) -> TacticsSettings {
    TacticsSettings {
        movetime: Duration::from_millis(1500),
        threads: 1,
        resources: ResourceSettings::default(),
        params,
    }
}

#[test]
fn a_shot_is_solved_and_a_wrong_move_is_not() {
    let text = format!("fen\tbest\n{FEN}\t39-34 29-23\t2\tl5\n{FEN}\t45-40\t0\twrong\n");
    let shots = read_shots(VariantKind::International, &text).unwrap();
    let mut table = Table::new(16);
    let settings = settings(SearchParams::default());
    let mut seen = 0;
    let attempts = solve_all(
        VariantKind::International,
        &shots,
        &settings,
        &mut table,
        &mut |_, _| seen += 1,
    )
    .unwrap();
    assert_eq!(seen, 2);
    let best = attempts[0].best.as_deref();
    assert!(matches!(best, Some("39-34" | "29-23")), "{best:?}");
    let solution = attempts[0].solved.expect("the shot is found");
    assert!(solution.depth <= attempts[0].depth + 1);
    assert!(solution.time <= settings.movetime + Duration::from_millis(500));
    assert_eq!(attempts[1].solved, None, "45-40 is not the shot");
    let summary = Summary::of(&attempts, settings.movetime);
    assert_eq!((summary.positions, summary.solved), (2, 1));
}

#[test]
fn the_shot_set_has_forty_sacrifices() {
    let shots = read_shots(VariantKind::International, SHOTS).unwrap();
    assert!(shots.len() >= 40, "{} shots", shots.len());
    for shot in &shots {
        let pos = parse_position::<International>(&shot.position).unwrap();
        let mv = parse_move(&pos, &shot.listed[0]).unwrap();
        assert!(
            !mv.is_capture() && has_capture(&pos.play(mv)),
            "line {}: {} gives no man",
            shot.line,
            shot.listed[0]
        );
        assert!(!shot.source.is_empty(), "line {}: no source", shot.line);
    }
}

//! Search behaviour: legal moves in every position, stop honoured, mate
//! scores, the bench signature, and the table's moves always legal.

use std::time::{Duration, Instant};

use tempo::cli::bench::{bench, BenchArgs};
use tempo::rules::notation::{parse_fen, parse_move};
use tempo::rules::{Brazilian, International, Position, Rules};
use tempo::search::tt::Table;
use tempo::search::{search, Control, Limits, SearchSetup, MATE, MATE_BOUND};

/// `tempo bench --depth 7` node count; update it (and quote `Bench: N` in
/// the commit) whenever the search or evaluation changes on purpose.
const BENCH_DEPTH_7: u64 = 170851;
/// The same with the built-in patterns alone (`--eval-network false`).
const PATTERNS_BENCH_DEPTH_7: u64 = 174398;

fn depth_search<R: Rules>(pos: Position<R>, depth: u32) -> tempo::search::SearchResult {
    depth_search_with(pos, depth, |_| {})
}

/// A search to `depth` with a fresh table, the setup changed by `adjust`.
fn depth_search_with<R: Rules>(
    pos: Position<R>,
    depth: u32,
    adjust: impl FnOnce(&mut SearchSetup<R>),
) -> tempo::search::SearchResult {
    depth_search_and_line(pos, depth, adjust).0
}

/// As `depth_search_with`, also giving the main worker's last line.
fn depth_search_and_line<R: Rules>(
    pos: Position<R>,
    depth: u32,
    adjust: impl FnOnce(&mut SearchSetup<R>),
) -> (tempo::search::SearchResult, Vec<tempo::rules::Move>) {
    let mut line = Vec::new();
    let result = depth_search_reporting(pos, depth, adjust, &mut |it| line = it.pv.clone());
    (result, line)
}

/// As `depth_search_with`, handing every iteration the main worker
/// reports to `report`.
fn depth_search_reporting<R: Rules>(
    pos: Position<R>,
    depth: u32,
    adjust: impl FnOnce(&mut SearchSetup<R>),
    report: &mut dyn FnMut(&tempo::search::Iteration),
) -> tempo::search::SearchResult {
    let table = Table::new(4);
    let control = Control::new(false);
    let mut setup = SearchSetup::new(
        pos,
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    );
    setup.search_single_move = true;
    adjust(&mut setup);
    search(&setup, &table, &control, report)
}

/// Plays a pseudo-random game, searching every position briefly: the move
/// returned is always one of the legal moves.
fn random_game_moves_are_legal<R: Rules>(seed: u64) {
    random_game_searches_are_legal::<R>(seed, 3, 1);
}

/// As `random_game_moves_are_legal`, searching to `depth` with `threads`;
/// the main worker's last line must be playable from the position, move
/// after move, and a ponder move named whenever the opponent has one.
fn random_game_searches_are_legal<R: Rules>(seed: u64, depth: u32, threads: usize) {
    random_game::<R>(seed, 120, |_, pos| {
        let legal = pos.legal_moves();
        let (result, line) = depth_search_and_line(pos, depth, |s| s.threads = threads);
        let best = result.best.expect("a move when moves exist");
        assert!(legal.contains(best), "illegal best move in {pos:?}");
        let replies = pos.play(best).legal_moves();
        match result.ponder {
            Some(p) => assert!(replies.contains(p), "illegal ponder move in {pos:?}"),
            None => assert!(replies.is_empty(), "no ponder move in {pos:?}"),
        }
        let mut along = pos;
        for &mv in &line {
            assert!(along.legal_moves().contains(mv), "illegal line in {pos:?}");
            along = along.play(mv);
        }
    });
}

/// Plays a pseudo-random game from the start of `R` for at most `plies`
/// plies (until a side has no move), handing `visit` each position that
/// has moves with its ply number.
fn random_game<R: Rules>(seed: u64, plies: usize, mut visit: impl FnMut(usize, Position<R>)) {
    let mut pos = Position::<R>::start();
    let mut state = seed;
    for ply in 0..plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        visit(ply, pos);
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        pos = pos.play(legal.as_slice()[(state >> 33) as usize % legal.len()]);
    }
}

#[test]
fn the_search_returns_a_legal_move_in_every_position_of_random_games() {
    for seed in 1..4 {
        random_game_moves_are_legal::<International>(seed);
        random_game_moves_are_legal::<Brazilian>(seed);
    }
}

#[test]
fn a_search_of_one_ply_still_names_the_expected_reply() {
    random_game_searches_are_legal::<International>(5, 1, 1);
    random_game_searches_are_legal::<Brazilian>(6, 1, 1);
}

#[test]
fn two_threads_putting_off_each_others_moves_give_legal_lines() {
    // Depth 7 gives nodes deep enough (5 plies left) for a thread to put off
    // a move the other is searching.
    for seed in 1..3 {
        random_game_searches_are_legal::<International>(seed, 7, 2);
        random_game_searches_are_legal::<Brazilian>(seed, 7, 2);
    }
}

#[test]
fn every_variant_searches_legal_moves_in_random_games() {
    use tempo::rules::{Breakthrough, English, Italian, Killer, Losing, LosingBrazilian, Russian};
    random_game_moves_are_legal::<Losing>(7);
    random_game_moves_are_legal::<LosingBrazilian>(7);
    random_game_moves_are_legal::<Russian>(7);
    random_game_moves_are_legal::<English>(7);
    random_game_moves_are_legal::<Italian>(7);
    random_game_moves_are_legal::<Killer>(7);
    random_game_moves_are_legal::<Breakthrough>(7);
}

/// Searches `fen` of `R` to `depth`, whose best move must be `best`.
fn best_move_is<R: Rules>(fen: &str, depth: u32, best: &str) -> tempo::search::SearchResult {
    let pos: Position<R> = parse_fen(fen).unwrap();
    let r = depth_search(pos, depth);
    assert_eq!(r.best, Some(parse_move(&pos, best).unwrap()), "{fen}");
    r
}

#[test]
fn losing_draughts_seeks_to_give_its_pieces_away() {
    use tempo::rules::Losing;
    // White f4 (33) v Black d6 (22): 33-28 offers the man, Black must take
    // it and White, with no piece left, wins. 33-29 keeps it.
    let r = best_move_is::<Losing>("W:W33:B22", 4, "33-28");
    assert_eq!(r.score, MATE - 2, "a win two plies away");
    // Having no move at the root is a win, not a loss.
    let blocked: Position<Losing> = parse_fen("W:W46:B37,41").unwrap();
    let r = depth_search(blocked, 3);
    assert_eq!(r.best, None);
    assert!(r.score >= MATE_BOUND, "{}", r.score);
}

#[test]
fn breakthrough_scores_the_first_king_as_the_win() {
    use tempo::rules::Breakthrough;
    // White a9 (6) crowns on b10 (1) at once; Black is far behind.
    let r = best_move_is::<Breakthrough>("W:W6,31:B45,44", 3, "6-1");
    assert_eq!(r.score, MATE - 1);
}

/// A multi-PV search of `lines` lines to `depth` from every 7th position of
/// a pseudo-random game: every iteration reports its lines once each, with
/// distinct first moves, best first, and the result's move is the last
/// iteration's first line.
fn multipv_lines_come_best_first<R: Rules>(seed: u64, lines: usize, depth: u32) {
    random_game::<R>(seed, 70, |ply, pos| {
        let legal = pos.legal_moves();
        if ply % 7 == 0 && legal.len() > 1 {
            let mut reports: Vec<(u32, usize, i32, tempo::rules::Move)> = Vec::new();
            let result = depth_search_reporting(pos, depth, |s| s.multipv = lines, &mut |it| {
                reports.push((it.depth, it.multipv, it.score, it.pv[0]))
            });
            let wanted = lines.min(legal.len());
            // Every iteration to the depth (a proven result may end it early).
            assert!(
                !reports.is_empty() && reports.len().is_multiple_of(wanted),
                "{pos:?}"
            );
            assert!(reports.len() <= wanted * depth as usize, "{pos:?}");
            for (d, iteration) in reports.chunks(wanted).enumerate() {
                let numbers: Vec<usize> = iteration.iter().map(|r| r.1).collect();
                assert_eq!(numbers, (1..=wanted).collect::<Vec<_>>(), "{pos:?}");
                assert!(iteration.iter().all(|r| r.0 == d as u32 + 1), "{pos:?}");
                let scores: Vec<i32> = iteration.iter().map(|r| r.2).collect();
                assert!(
                    scores.windows(2).all(|w| w[0] >= w[1]),
                    "depth {}: {scores:?} in {pos:?}",
                    d + 1
                );
                let mut moves: Vec<_> = iteration.iter().map(|r| format!("{:?}", r.3)).collect();
                moves.sort_unstable();
                moves.dedup();
                assert_eq!(moves.len(), wanted, "{pos:?}");
            }
            let last = &reports[reports.len() - wanted];
            assert_eq!(result.best, Some(last.3), "{pos:?}");
            assert_eq!(result.score, last.2, "{pos:?}");
        }
    });
}

#[test]
fn multipv_lines_are_reported_best_first() {
    multipv_lines_come_best_first::<International>(3, 3, 6);
    multipv_lines_come_best_first::<International>(17, 4, 5);
    multipv_lines_come_best_first::<Brazilian>(5, 3, 6);
}

#[test]
fn a_lost_position_has_no_move_and_a_loss_score() {
    let pos = parse_fen::<International>("W:W46:B41,37").unwrap();
    assert!(pos.is_lost());
    let r = depth_search(pos, 4);
    assert!(r.best.is_none());
    assert!(r.score <= -MATE_BOUND);
}

#[test]
fn contempt_makes_a_draw_worse_than_equal_for_the_side_searching() {
    // A lone king each, far apart: every move leads to a solved draw.
    for fen in ["W:WK1:BK50", "B:WK1:BK50"] {
        let pos = parse_fen::<International>(fen).unwrap();
        for contempt in [0, 25, 100] {
            let r = depth_search_with(pos, 6, |setup| setup.contempt = contempt);
            assert_eq!(r.score, -contempt, "{fen}, contempt {contempt}");
        }
    }
}

#[test]
fn a_forced_win_is_found_with_its_distance() {
    // White to move captures the last black piece: a win in one ply.
    let pos = parse_fen::<International>("W:W32:B27").unwrap();
    let r = depth_search(pos, 3);
    assert_eq!(r.score, MATE - 1);
    // With Black to move the same men make it Black's win in one ply.
    let pos = parse_fen::<International>("B:W32:B27").unwrap();
    let r = depth_search(pos, 3);
    assert_eq!(r.score, MATE - 1);
}

/// A search of the International start position under `limits` with a
/// fresh table, stopped by `control`.
fn start_search(limits: Limits, control: &Control) -> tempo::search::SearchResult {
    let setup = SearchSetup::new(Position::<International>::start(), limits);
    search(&setup, &Table::new(16), control, &mut |_| {})
}

#[test]
fn stop_ends_an_infinite_search_at_once() {
    let control = Control::new(false);
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    std::thread::scope(|s| {
        let handle = s.spawn(|| start_search(infinite, &control));
        std::thread::sleep(Duration::from_millis(200));
        let asked = Instant::now();
        control.stop();
        let result = handle.join().unwrap();
        assert!(asked.elapsed() < Duration::from_millis(200));
        assert!(result.best.is_some());
    });
}

#[test]
fn a_move_time_is_kept() {
    let limits = Limits {
        move_time: Some(Duration::from_millis(150)),
        ..Limits::default()
    };
    let started = Instant::now();
    let r = start_search(limits, &Control::new(false));
    assert!(r.best.is_some());
    assert!(
        started.elapsed() < Duration::from_millis(400),
        "{:?}",
        started.elapsed()
    );
}

/// Under a game clock a position with one legal move is answered at once,
/// without a search: the clock is kept for the moves that need it.
#[test]
fn a_single_legal_move_is_played_without_a_search_under_a_clock() {
    // White's man on 28 must take the man on 23.
    let pos = parse_fen::<International>("W:W28:B23,5").expect("a valid FEN");
    assert_eq!(pos.legal_moves().len(), 1);
    let setup = SearchSetup::new(
        pos,
        Limits {
            time: Some(Duration::from_secs(60)),
            ..Limits::default()
        },
    );
    let r = search(&setup, &Table::new(1), &Control::new(false), &mut |_| {});
    assert_eq!(r.best, pos.legal_moves().iter().next().copied());
    assert_eq!(r.nodes, 0, "a single legal move was searched");
}

#[test]
fn helper_threads_find_a_legal_move_at_the_depth_asked() {
    // One helper keeps a ply ahead of the main worker, a second goes with it:
    // whichever completes the limit first answers, never deeper than asked.
    for threads in [2, 3] {
        let table = Table::new(16);
        let control = Control::new(false);
        let mut setup = SearchSetup::new(
            Position::<Brazilian>::start(),
            Limits {
                depth: Some(8),
                ..Limits::default()
            },
        );
        setup.threads = threads;
        let r = search(&setup, &table, &control, &mut |_| {});
        assert!(Position::<Brazilian>::start()
            .legal_moves()
            .contains(r.best.unwrap()));
        assert_eq!(r.depth, 8, "{threads} threads");
    }
}

/// A quiet one-thread bench to `depth` with the search parameters `options`.
fn bench_args(depth: u32, options: &[&str]) -> BenchArgs {
    BenchArgs {
        depth,
        threads: 1,
        hash: 16,
        quiet: true,
        eval_files: Vec::new(),
        eval_network: true,
        options: options.iter().map(|o| o.to_string()).collect(),
    }
}

#[test]
fn the_bench_node_count_is_the_recorded_one() {
    let args = bench_args(7, &[]);
    let totals = bench(&args, &mut |_| {}).unwrap();
    let again = bench(&args, &mut |_| {}).unwrap();
    assert_eq!(
        totals.nodes, again.nodes,
        "one thread must be deterministic"
    );
    assert_eq!(
        totals.nodes, BENCH_DEPTH_7,
        "the search's behaviour changed"
    );
    let patterns_only = BenchArgs {
        eval_network: false,
        ..args
    };
    assert_eq!(
        bench(&patterns_only, &mut |_| {}).unwrap().nodes,
        PATTERNS_BENCH_DEPTH_7,
        "the search's behaviour with the patterns alone changed"
    );
}

#[test]
fn the_pruning_and_reduction_techniques_change_the_tree_as_they_say() {
    let nodes = |options: &[&str]| bench(&bench_args(7, options), &mut |_| {}).unwrap().nodes;
    // The defaults by name are the defaults.
    assert_eq!(nodes(&["futility-margin=60"]), BENCH_DEPTH_7);
    // No reverse futility, or a far wider margin, prunes less (a slightly
    // wider one may not: the tree is not monotone in the margin).
    assert!(nodes(&["futility-margin=0"]) > BENCH_DEPTH_7);
    assert!(nodes(&["futility-margin=200"]) > BENCH_DEPTH_7);
    // Reverse futility to a smaller depth prunes less; fewer moves before
    // late-move pruning, more.
    assert_eq!(
        nodes(&["futility-depth=5", "late-move-scale=100"]),
        BENCH_DEPTH_7
    );
    assert!(nodes(&["futility-depth=3"]) > BENCH_DEPTH_7);
    assert!(nodes(&["late-move-scale=50"]) < BENCH_DEPTH_7);
    // Without the extension a forced reply costs a ply: a smaller tree.
    assert!(nodes(&["forced-extension=0"]) < BENCH_DEPTH_7);
    // A value past a technique's range is refused by name.
    let err = bench(&bench_args(1, &["futility-margin=301"]), &mut |_| {}).unwrap_err();
    assert!(err.contains("futility-margin"), "{err}");
}

#[test]
fn the_bench_searches_with_the_weights_files_it_is_given() {
    use tempo::eval::patterns::Layout;
    use tempo::eval::weights_file::write_file;
    use tempo::eval::Patterns;
    use tempo::rules::{Board10, Board8, VariantKind};
    let dir = std::env::temp_dir().join(format!("tempo-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Weights that are all 0: the hand evaluation alone.
    let zero_file = |kind: VariantKind, layout: Layout| {
        let path = dir.join(format!("zero-{kind}.tpw"));
        write_file(kind, &Patterns::zero(layout), &path).unwrap();
        path
    };
    let zero_10 = zero_file(VariantKind::International, Layout::w4x4::<Board10>());
    let zero_8 = zero_file(VariantKind::Brazilian, Layout::w4x4::<Board8>());
    let args = |eval_files: Vec<std::path::PathBuf>| BenchArgs {
        depth: 5,
        threads: 1,
        hash: 16,
        quiet: true,
        eval_files,
        eval_network: true,
        options: Vec::new(),
    };
    let nodes = |files| bench(&args(files), &mut |_| {}).unwrap().nodes;
    let built_in = nodes(vec![]);
    // Without the built-in network: another tree.
    let patterns_only = BenchArgs {
        eval_network: false,
        ..args(vec![])
    };
    assert_ne!(bench(&patterns_only, &mut |_| {}).unwrap().nodes, built_in);
    let hand_10 = nodes(vec![zero_10.clone()]);
    let hand_both = nodes(vec![zero_10.clone(), zero_8.clone()]);
    // Other weights search another tree, variant by variant.
    assert_ne!(hand_10, built_in);
    assert_ne!(hand_both, hand_10);
    assert_eq!(nodes(vec![zero_8.clone(), zero_10.clone()]), hand_both);
    // A search thread keeps its static scores only for the same weights:
    // back on the built-in ones, the tree is theirs again.
    assert_eq!(nodes(vec![]), built_in);
    assert_eq!(nodes(vec![zero_10.clone()]), hand_10);
    // Two files for one variant, or a file that is not weights, are refused.
    let err = bench(&args(vec![zero_10.clone(), zero_10.clone()]), &mut |_| {}).unwrap_err();
    assert!(err.contains("two --eval-file for international"), "{err}");
    let bad = dir.join("bad.tpw");
    std::fs::write(&bad, b"not weights").unwrap();
    let err = bench(&args(vec![bad]), &mut |_| {}).unwrap_err();
    assert!(err.contains("not a tempo weights file"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn quiescence_sees_a_man_crown_at_the_horizon() {
    // White's king against two men looks like a win, but Black's man on 42
    // crowns on its next move whatever White plays: a one-ply search must
    // already see that the game is level (kings each, a man each).
    let pos = parse_fen::<International>("W:WK3,31:B42,15").unwrap();
    let r = depth_search(pos, 1);
    assert!(r.score.abs() < 50, "score {}", r.score);
}

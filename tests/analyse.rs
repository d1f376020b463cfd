//! `tempo analyse` end to end: the binary is run on small inputs at small
//! depths and its JSON Lines (the output when standard output is not a
//! terminal) are parsed and checked against the rules core (every move
//! printed is legal where it is printed, games are replayed move by move,
//! bad inputs are named by line and skipped).

use std::fs;
use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;
use tempo::rules::notation::{parse_fen, parse_move, to_fen};
use tempo::rules::{Brazilian, International, Rules};

#[path = "common/analyse_cli.rs"]
mod analyse_cli;
use analyse_cli::{analyse, file};

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is not a string in {v}"))
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|m| m.as_str().expect("move string").to_string())
        .collect()
}

/// Checks one record against the rules: its FEN parses, the best move and
/// every PV (main and multi-PV) are legal sequences; returns the FEN after
/// the played move, if there is one.
fn check_record<R: Rules>(r: &Value) -> Option<String> {
    let pos = parse_fen::<R>(text(r, "fen")).expect("record FEN");
    let side = if pos.side_to_move() == tempo::rules::Side::White {
        "white"
    } else {
        "black"
    };
    assert_eq!(text(r, "side"), side);
    let mut pvs = vec![strings(&r["pv"])];
    pvs.extend(
        r["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .map(|l| strings(&l["pv"])),
    );
    for pv in pvs {
        let mut p = pos;
        for mv in &pv {
            let m = parse_move(&p, mv).unwrap_or_else(|e| panic!("pv {pv:?}: {e}"));
            p = p.play(m);
        }
    }
    if pos.legal_moves().is_empty() {
        assert!(r["best"].is_null());
    } else {
        parse_move(&pos, text(r, "best")).expect("best move is legal");
        assert!(r["depth"].as_u64().expect("depth") >= 1);
    }
    assert!(r["nodes"].is_u64() && r["time"].is_f64() && r["score"].is_f64());
    let played = r.get("played")?.as_str()?;
    let mv = parse_move(&pos, played).expect("played move is legal");
    let loss = r["loss"].as_f64().expect("loss");
    assert!(loss >= 0.0, "negative loss in {r}");
    if played == text(r, "best") {
        assert_eq!(loss, 0.0, "the best move lost something: {r}");
    }
    Some(to_fen(&pos.play(mv)))
}

#[test]
fn a_positions_file_gives_results_for_good_lines_and_errors_for_bad() {
    let path = file(
        "positions.txt",
        "# opening and a middle game\n\
         W:W31-50:B1-20\n\
         \n\
         W:W31-50:B1-20:junk\n\
         B:W28,33:B19,22  # a comment after the position\n\
         Wbbbb\n\
         W:W60:B1\n",
    );
    let run = analyse(&["--positions", path.to_str().unwrap(), "--depth", "3"]);
    assert_eq!(run.code, 1, "some lines were skipped: {}", run.stderr);
    let lines = run.numbers("line");
    assert_eq!(lines, [2, 5]);
    for r in &run.records {
        assert_eq!(text(r, "source"), "line");
        assert_eq!(text(r, "variant"), "international");
        check_record::<International>(r);
    }
    for line in [4, 6, 7] {
        assert!(
            run.stderr.contains(&format!("positions.txt:{line}: ")),
            "line {line} not reported in:\n{}",
            run.stderr
        );
    }
    assert!(!run.stderr.contains("positions.txt:2:"));
    assert!(run.stderr.contains("skipped 3"), "{}", run.stderr);
}

/// An International and a Brazilian game, with comments, variations, NAGs
/// and, for 8x8, coordinate moves.
const TWO_GAMES: &str = r#"[Event "International test"]
[White "A \"the first\""]
[Black "B"]
[GameType "20"]
[Result "*"]

1. 34-30 {the main line} 17-21 2. 40-34 (2. 30-25 21-26 (2... 21-27 $2) 3. 31x22)
21-27 3. 31x22 18x27! 4. 32x21 16x27 5. 33-29 $1 *

[Event "Brazilian test"]
[GameType "26"]
; a line comment
1. c3-d4 f6-e5 2. d4xf6 (2. b2-c3 {also possible} e5xc3) g7xe5 3. g3-f4
e5xg3 4. h2xf4 1-0
"#;

#[test]
fn a_two_game_pdn_is_replayed_and_analysed_legally() {
    let path = file("two-games.pdn", TWO_GAMES);
    let run = analyse(&["--pdn", path.to_str().unwrap(), "--depth", "4"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let games = run.numbers("game");
    assert_eq!(games, [vec![1; 10], vec![2; 8]].concat());
    let mut expected_fen: Option<String> = None;
    for (i, r) in run.records.iter().enumerate() {
        assert_eq!(text(r, "source"), "game");
        let first_of_game = i == 0 || run.records[i - 1]["game"] != r["game"];
        let ply = r["ply"].as_u64().unwrap();
        if first_of_game {
            assert_eq!(ply, 0);
            expected_fen = None;
        } else {
            assert_eq!(ply, run.records[i - 1]["ply"].as_u64().unwrap() + 1);
        }
        if let Some(fen) = &expected_fen {
            assert_eq!(text(r, "fen"), fen, "the game is replayed move by move");
        }
        expected_fen = match text(r, "variant") {
            "international" => check_record::<International>(r),
            "brazilian" => check_record::<Brazilian>(r),
            other => panic!("variant {other}"),
        };
    }
    let played: Vec<&str> = run
        .records
        .iter()
        .filter_map(|r| r["played"].as_str())
        .collect();
    assert_eq!(
        played,
        [
            "34-30", "17-21", "40-34", "21-27", "31x22x27", "18x27x22", "32x21x27", "16x27x21",
            "33-29", "22-18", "11-15", "18x11x15", "8x15x11", "24-19", "15x24x19", "28x19x24"
        ]
    );
    let last = &run.records[17];
    assert_eq!(text(last, "variant"), "brazilian");
    assert!(last["played"].is_null() && last["loss"].is_null());
    assert_eq!(last["line"].as_u64(), Some(10));
}

#[test]
fn a_blunder_shows_as_a_loss() {
    let path = file(
        "blunder.pdn",
        "[FEN \"W:W27,32,37:B8,12,17,18\"]\n1. 27-22 *\n",
    );
    let run = analyse(&["--pdn", path.to_str().unwrap(), "--depth", "6"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.records[0];
    check_record::<International>(r);
    assert_eq!(text(r, "played"), "27-22");
    assert_ne!(text(r, "best"), "27-22");
    let loss = r["loss"].as_f64().unwrap();
    assert!(loss >= 1.0, "giving two men away loses {loss}: {r}");
    let (best, played) = (
        r["score"].as_f64().unwrap(),
        r["played_score"].as_f64().unwrap(),
    );
    assert!((best - played - loss).abs() < 1e-9);
}

#[test]
fn games_of_the_other_variants_are_read_by_their_tags() {
    let path = file(
        "variants.pdn",
        "[GameType \"25\"]\n1. c3-d4 f6-g5 *\n\
         [GameType \"20\"]\n[Variant \"losing\"]\n1. 32-28 *\n\
         [GameType \"21\"]\n1. 11-15 *\n",
    );
    let run = analyse(&["--pdn", path.to_str().unwrap(), "--depth", "3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let variants = run.texts("variant");
    assert_eq!(
        variants,
        ["russian", "russian", "russian", "losing", "losing", "english", "english"]
    );
}

#[test]
fn bad_games_are_skipped_with_their_lines_and_good_ones_analysed() {
    let path = file(
        "bad-games.pdn",
        "[Event \"illegal\"]\n1. 32-28 18-22 2. 28-22 *\n\
         [Event \"good\"]\n1. 32-28 *\n\
         [Event \"thai\"]\n[GameType \"31\"]\n1. c3-d4 *\n\
         [Event \"syntax\"]\n1. 32-28 hop *\n\
         [Event \"fen\"]\n[FEN \"W:W99:B1\"]\n*\n",
    );
    let run = analyse(&["--pdn", path.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(run.code, 1);
    let games = run.numbers("game");
    assert_eq!(games, [2, 2]);
    for (line, game) in [(2, 1), (5, 3), (9, 4), (10, 5)] {
        assert!(
            run.stderr
                .contains(&format!("bad-games.pdn:{line}: game {game}")),
            "game {game} at line {line} not reported in:\n{}",
            run.stderr
        );
    }
    assert!(run.stderr.contains("skipped 4"), "{}", run.stderr);
}

#[test]
fn multipv_gives_distinct_moves_ordered_by_score() {
    for (variant, fen) in [
        ("international", "W:W31-50:B1-20"),
        ("brazilian", "B:W21-32:B1-12"),
    ] {
        let run = analyse(&[
            "--variant",
            variant,
            "--fen",
            fen,
            "--depth",
            "4",
            "--multipv",
            "4",
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let [r] = run.records.as_slice() else {
            panic!("one record expected, got {:?}", run.records)
        };
        assert_eq!(text(r, "source"), "fen");
        assert!(r["line"].is_null());
        let lines = r["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 4);
        let moves: Vec<&str> = lines.iter().map(|l| text(l, "move")).collect();
        let mut distinct = moves.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 4, "{moves:?}");
        let scores: Vec<f64> = lines.iter().map(|l| l["score"].as_f64().unwrap()).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        assert_eq!(moves[0], text(r, "best"));
        assert_eq!(scores[0], r["score"].as_f64().unwrap());
        match variant {
            "international" => check_record::<International>(r),
            _ => check_record::<Brazilian>(r),
        };
    }
}

#[test]
fn node_and_time_limits() {
    let run = analyse(&["--fen", "W:W31-50:B1-20", "--nodes", "3000"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.records.len(), 1);
    check_record::<International>(&run.records[0]);
    let run = analyse(&["--fen", "W:W31-50:B1-20", "--movetime", "0.1"]);
    assert_eq!(run.records.len(), 1);
    assert!(run.records[0]["time"].as_f64().unwrap() < 1.0);
}

#[test]
fn text_output_shows_each_depth_then_the_best_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(["analyse", "--fen", "B:W28,33:B19,22", "--depth", "3"])
        .args(["--output", "text"])
        .output()
        .expect("run tempo");
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "B:W28,33:B19,22 (black to move)", "{stdout}");
    for (depth, line) in (1..=3).zip(&lines[1..4]) {
        assert!(
            line.starts_with(&format!("  depth  {depth}  ")) && line.contains(" M nodes/s "),
            "{stdout}"
        );
    }
    assert!(
        lines[4].starts_with("  best ") && lines[4].contains(" depth 3 "),
        "{stdout}"
    );
    assert!(lines[5].starts_with("  pv "), "{stdout}");
    assert!(lines.iter().all(|l| l.len() <= 80), "{stdout}");
}

#[test]
fn without_arguments_the_start_position_is_searched_for_three_seconds() {
    let run = analyse(&[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.records.len(), 1);
    let r = &run.records[0];
    check_record::<International>(r);
    assert_eq!(
        parse_fen::<International>(text(r, "fen")),
        parse_fen::<International>("W:W31-50:B1-20")
    );
    let time = r["time"].as_f64().unwrap();
    assert!((2.5..10.0).contains(&time), "searched {time} s");
    let run = analyse(&["--variant", "brazilian", "--nodes", "3000"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    check_record::<Brazilian>(&run.records[0]);
    assert_eq!(
        parse_fen::<Brazilian>(text(&run.records[0], "fen")),
        parse_fen::<Brazilian>("W:W21-32:B1-12")
    );
}

#[test]
fn a_bad_fen_argument_stops_the_run() {
    let run = analyse(&["--fen", "W:W99:B1", "--depth", "2"]);
    assert_eq!(run.code, 2);
    assert!(run.records.is_empty());
    assert!(run.stderr.contains("--fen"), "{}", run.stderr);
    let run = analyse(&["--fen", "W:W31-50:B1-20", "--depth", "2", "--nodes", "9"]);
    assert_eq!(run.code, 2, "one limit at most");
}

/// A mistaken position names both forms, and a position of another board
/// names the `--variant` it needs.
#[test]
fn a_position_of_no_form_or_of_another_board_is_said_with_the_fix() {
    let said = |fen: &str, variant: &str| {
        let run = analyse(&["--fen", fen, "--variant", variant, "--depth", "1"]);
        assert_eq!(run.code, 2, "{fen}: {}", run.stderr);
        run.stderr
    };
    let hello = said("hello world", "international");
    assert!(
        hello.contains("FEN") && hello.contains("51 characters"),
        "{hello}"
    );
    let start8 = format!("W{}{}{}", "b".repeat(12), "e".repeat(8), "w".repeat(12));
    let eight = said(&start8, "international");
    assert!(
        eight.contains("--variant") && eight.contains("brazilian"),
        "{eight}"
    );
    let ten = said("W:W31-50:B1-20", "brazilian");
    assert!(
        ten.contains("square 50") && ten.contains("--variant") && ten.contains("international"),
        "{ten}"
    );
}

/// A PDN file given as `--positions` is refused with `--pdn` named,
/// instead of an error for each of its lines.
#[test]
fn a_pdn_given_as_positions_is_said_to_need_pdn() {
    let pdn = file(
        "given-as-positions.pdn",
        "[Event \"x\"]\n[Result \"*\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n",
    );
    let run = analyse(&["--positions", pdn.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--pdn"), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

/// An input file with nothing in it is said so and is a skipped input
/// (exit 1); `--fen` with a file, or two files, is refused.
#[test]
fn empty_inputs_are_said_and_mixed_inputs_refused() {
    let empty = file("empty.pdn", "\n\n");
    for flag in ["--pdn", "--positions"] {
        let run = analyse(&[flag, empty.to_str().unwrap(), "--depth", "2"]);
        assert_eq!(run.code, 1, "{flag}: {}", run.stderr);
        assert!(run.records.is_empty());
        assert!(run.stderr.contains("holds no"), "{flag}: {}", run.stderr);
    }
    let path = empty.to_str().unwrap();
    for args in [
        &["--fen", "W:W31-50:B1-20", "--pdn", path][..],
        &["--positions", path, "--pdn", path],
    ] {
        let run = analyse(&[args, &["--depth", "2"]].concat());
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("cannot be used with"),
            "{args:?}: {}",
            run.stderr
        );
    }
    // A binary file is refused as such; control characters are never echoed.
    let binary = file("binary.pdn", "\u{7f}ELF\u{0}\u{1}\u{2}\n");
    let run = analyse(&["--pdn", binary.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not a text file"), "{}", run.stderr);
    let garbled = file("garbled.pdn", "1. 32-28 \u{1b}[31m 18-23 *\n");
    let run = analyse(&["--pdn", garbled.to_str().unwrap(), "--depth", "2"]);
    assert!(!run.stderr.contains('\u{1b}'), "{}", run.stderr);
    // An output that cannot be written is refused before any search.
    let long = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/long-game.pdn");
    for flag in ["--annotate", "--report"] {
        let started = std::time::Instant::now();
        let run = analyse(&["--pdn", long, "--depth", "30", flag, "/no/such/dir/out"]);
        assert_eq!(run.code, 2, "{flag}: {}", run.stderr);
        assert!(
            run.stderr.contains("/no/such/dir does not exist"),
            "{}",
            run.stderr
        );
        assert!(run.records.is_empty());
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }
    // A negative number is a value out of range, not an unknown flag.
    let run = analyse(&["--depth", "-1"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("-1 is not in 1..=120"),
        "{}",
        run.stderr
    );
}

/// A position searched in this process, as `tempo analyse` searches it
/// with `--depth 5`: its score under `resources`.
fn library_score<R: Rules>(fen: &str, resources: tempo::search::SearchResources<R>) -> i32 {
    use tempo::game::Game;
    use tempo::search::tt::Table;
    use tempo::search::{search, Control, Limits, SearchSetup};
    let game = Game::new(parse_fen::<R>(fen).unwrap());
    let mut setup = SearchSetup::for_game(
        &game,
        Limits {
            depth: Some(5),
            ..Limits::default()
        },
    );
    setup.search_single_move = true;
    setup.resources = resources;
    search(&setup, &Table::new(64), &Control::new(false), &mut |_| {}).score
}

#[test]
fn a_weights_file_is_searched_with_and_a_wrong_one_refused() {
    use std::sync::Arc;
    use tempo::eval::patterns::Layout;
    use tempo::eval::weights_file::write_file;
    use tempo::eval::{Evaluator, Patterns};
    use tempo::rules::{Board10, Board8, VariantKind};
    use tempo::search::SearchResources;
    let fen = "W:W27,30,33,35,36,37,38,39,40,41,42,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,10,11,13,14,15,16,17,19,20,24";
    // A weights file of `kind` with every weight zero.
    let zero_file = |kind, layout, name: &str| {
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        write_file(kind, &Patterns::zero(layout), &path).unwrap();
        path
    };
    let zero = zero_file(
        VariantKind::International,
        Layout::w4x4::<Board10>(),
        "analyse-zero-10x10.tpw",
    );
    let score = |args: &[&str]| {
        let run = analyse(&[&["--fen", fen, "--depth", "5"], args].concat());
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.records[0]["score"].as_f64().unwrap()
    };
    let hand_only = SearchResources::<International>::new(
        Evaluator::of_patterns(Arc::new(Patterns::zero(Layout::w4x4::<Board10>()))),
        None,
    );
    let men = |centimen: i32| f64::from(centimen) / 100.0;
    assert_eq!(
        score(&["--eval-file", zero.to_str().unwrap()]),
        men(library_score(fen, hand_only))
    );
    assert_eq!(
        score(&[]),
        men(library_score::<International>(
            fen,
            SearchResources::builtin()
        ))
    );
    // 8x8 weights for a 10x10 run, or no file at all: a clear refusal.
    let brazilian = zero_file(
        VariantKind::Brazilian,
        Layout::w4x4::<Board8>(),
        "analyse-zero-8x8.tpw",
    );
    for bad in [brazilian.to_str().unwrap(), "/nonexistent/weights.tpw"] {
        let run = analyse(&["--fen", fen, "--depth", "3", "--eval-file", bad]);
        assert_eq!(run.code, 2, "{bad}: {}", run.stderr);
        assert!(run.records.is_empty());
        assert!(run.stderr.contains(bad), "{bad}: {}", run.stderr);
    }
}

#[test]
fn endgame_tables_give_the_distance_to_the_win() {
    use tempo::egdb::{build, Egdb, Value};
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("analyse-egdb");
    let _ = fs::remove_dir_all(&dir);
    build::<International>(&dir, 3, &mut |_| {}).expect("build the tables");
    let fen = "W:WK1:B30";
    let db = Egdb::<International>::load(&dir, 3).unwrap();
    let Value::Win(plies) = db.probe(&parse_fen(fen).unwrap()).unwrap() else {
        panic!("a king against a man is won");
    };
    let dir_arg = dir.to_str().unwrap();
    let with = analyse(&[
        "--fen",
        fen,
        "--depth",
        "3",
        "--egdb-path",
        dir_arg,
        "--egdb-pieces",
        "3",
    ]);
    assert_eq!(with.code, 0, "{}", with.stderr);
    assert_eq!(with.records[0]["mate"].as_i64(), Some(i64::from(plies)));
    // Without the tables three plies see no forced win.
    let without = analyse(&["--fen", fen, "--depth", "3"]);
    assert_eq!(without.records[0]["mate"], serde_json::Value::Null);
    // A directory without tables stops the run and names it.
    let empty = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("analyse-no-egdb");
    fs::create_dir_all(&empty).unwrap();
    let run = analyse(&["--fen", fen, "--egdb-path", empty.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("analyse-no-egdb"), "{}", run.stderr);
    fs::remove_dir_all(&dir).unwrap();
}

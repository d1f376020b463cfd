//! `tempo tune` end to end: SPSA pairs of `tempo hub` against itself at a
//! few nodes a move, the state saved after every pair and resumed by the
//! same command; a parameter the engine does not know, a state of other
//! parameters or another schedule, and bad specifications are refused with
//! a message; an engine that loses game after game by failures stops the
//! run as it stops a match.

use std::path::PathBuf;
use std::process::{Command, Output};

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tempo-tune-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `tempo tune` at 1,000 nodes a move with `args` added.
fn tune(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
        .args(["tune", "--nodes", "1000", "--option", "book=false"])
        .args(args)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The value of `name` in a state file.
fn estimate(state: &str, name: &str) -> f64 {
    state
        .lines()
        .find_map(|l| l.strip_prefix(&format!("param {name} ")))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {name} in {state}"))
}

#[test]
fn pairs_are_played_saved_and_resumed() {
    let state = temp_path("resume.state");
    let _ = std::fs::remove_file(&state);
    let state_arg = state.to_str().unwrap();
    let params = [
        "--param",
        "lmr-divisor=150:100:250:10",
        "--param",
        "aspiration=10:4:30:2",
    ];
    let run = |pairs_run: &str| {
        let mut args = params.to_vec();
        args.extend(["--pairs", "3", "--state", state_arg, "--rate", "0.5"]);
        args.extend(["--concurrency", pairs_run]);
        tune(&args)
    };
    let out = run("2");
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("pair ")).count(),
        3,
        "{stdout}"
    );
    assert!(stdout.contains("finished 3 pairs"), "{stdout}");
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("schedule 3 0.5 1"), "{saved}");
    assert!(saved.contains("pairs 3"), "{saved}");
    let games: u64 = saved
        .lines()
        .find_map(|l| l.strip_prefix("games "))
        .unwrap()
        .split_whitespace()
        .map(|n| n.parse::<u64>().unwrap())
        .sum();
    assert_eq!(games, 6, "{saved}");
    let divisor = estimate(&saved, "lmr-divisor");
    assert!((100.0..=250.0).contains(&divisor), "{saved}");

    // Resumed: nothing is left to play, and the estimates are reported.
    let out = run("1");
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("the state has all 3 pairs"),
        "{}",
        text(&out)
    );

    // A state part-way: the run goes on from the next pair.
    let part = saved.replace("pairs 3", "pairs 2");
    std::fs::write(&state, part).unwrap();
    let out = run("1");
    assert!(out.status.success(), "{}", text(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("from pair 3 of 3"), "{stdout}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("pair ")).count(),
        1,
        "{stdout}"
    );

    // Another schedule or other parameters do not resume this state.
    for other in [
        vec!["--param", "lmr-divisor=150:100:250:10", "--pairs", "3"],
        [params.to_vec(), vec!["--pairs", "4"]].concat(),
    ] {
        let mut args = other;
        args.extend(["--state", state_arg, "--rate", "0.5"]);
        let out = tune(&args);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(text(&out).contains(state_arg), "{}", text(&out));
    }
}

#[test]
fn an_engine_that_fails_game_after_game_stops_the_run_after_its_pair() {
    let state = temp_path("failing.state");
    let _ = std::fs::remove_file(&state);
    let bad = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/illegal_engine.sh");
    let out = tune(&[
        "--engine",
        bad,
        "--param",
        "lmr-divisor=150:100:250:10",
        "--pairs",
        "10",
        "--max-failures-in-a-row",
        "3",
        "--state",
        state.to_str().unwrap(),
    ]);
    let text = text(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    // White moves first and forfeits: the sides lose in turn, and the third
    // game in a row ended by a failure is the first of pair 2.
    assert_eq!(text.matches("ended by a failure of").count(), 4, "{text}");
    assert!(
        text.contains("the run stopped after 2 pairs")
            && text.contains("3 games in a row ended by failures")
            && text.contains("--max-failures-in-a-row 0 plays on"),
        "{text}"
    );
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("pairs 2"), "{saved}");
}

#[test]
fn a_parameter_the_engine_does_not_know_stops_the_run() {
    let state = temp_path("unknown.state");
    let _ = std::fs::remove_file(&state);
    let out = tune(&[
        "--param",
        "no-such-setting=10:0:20:2",
        "--pairs",
        "2",
        "--state",
        state.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no-such-setting"), "{}", text(&out));
    assert!(!state.exists(), "nothing to resume is left behind");
}

#[test]
fn bad_specifications_are_refused_with_a_message() {
    let state = temp_path("bad.state");
    let state = state.to_str().unwrap();
    for (spec, said) in [
        ("x=5:0:2:1", "MIN ≤ START ≤ MAX"),
        ("x=1:0:2", "four numbers"),
        ("x=1:0:2:0", "STEP must be positive"),
    ] {
        let out = tune(&["--param", spec, "--pairs", "2", "--state", state]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(text(&out).contains(said), "{spec}: {}", text(&out));
    }
    let out = tune(&[
        "--param",
        "aspiration=10:4:30:2",
        "--param",
        "aspiration=12:4:30:2",
        "--pairs",
        "2",
        "--state",
        state,
    ]);
    assert!(text(&out).contains("given twice"), "{}", text(&out));
    let out = tune(&[
        "--param",
        "aspiration=10:4:30:2",
        "--option",
        "aspiration=12",
        "--pairs",
        "2",
        "--state",
        state,
    ]);
    assert!(text(&out).contains("also tuned"), "{}", text(&out));
}

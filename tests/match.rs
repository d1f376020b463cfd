//! `tempo match` end to end: two `tempo hub` processes play refereed games
//! written to PDN; an engine that plays an illegal move forfeits and the
//! failure is counted; bad arguments are refused with a message.

use std::process::Command;

fn tempo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
}

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tempo-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn two_tempo_engines_play_refereed_games_to_pdn() {
    let exe = env!("CARGO_BIN_EXE_tempo");
    let pdn = temp_path("games.pdn");
    let _ = std::fs::remove_file(&pdn);
    for variant in ["international", "brazilian"] {
        let out = tempo()
            .args([
                "match",
                "--variant",
                variant,
                "--games",
                "2",
                "--depth",
                "3",
            ])
            .args([
                "--engine",
                &format!("{exe} hub"),
                "--engine",
                &format!("{exe} hub"),
            ])
            .args(["--name", "a", "--name", "b", "--max-plies", "300"])
            .arg("--pdn")
            .arg(&pdn)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(games.len(), 2, "{stdout}");
        let last = stdout.lines().last().unwrap();
        assert!(last.starts_with("finished: a vs b"), "{last}");
        assert!(last.contains("0 games with an engine failure"), "{last}");
    }
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 4);
    assert_eq!(text.matches("[GameType \"20\"]").count(), 2);
    assert_eq!(text.matches("[GameType \"26\"]").count(), 2);
    assert!(text.contains("[White \"a\"]") && text.contains("[White \"b\"]"));
}

#[test]
fn an_illegal_move_forfeits_the_game_and_is_counted() {
    let exe = env!("CARGO_BIN_EXE_tempo");
    let bad = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/illegal_engine.sh");
    let out = tempo()
        .args(["match", "--games", "2", "--depth", "2"])
        .args(["--engine", &format!("{exe} hub"), "--engine", bad])
        .args(["--name", "tempo", "--name", "bad"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("illegal move '1-50'"), "{stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(last.contains("+2 =0 -0"), "{last}");
    assert!(last.contains("2 games with an engine failure"), "{last}");
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    for args in [
        vec!["match", "--engine", "x"],
        vec!["match", "--engine", "x", "--engine", "y"],
        vec!["match", "--engine", "x", "--engine", "y", "--tc", "abc"],
        vec![
            "match",
            "--engine",
            "x",
            "--engine",
            "y",
            "--depth",
            "2",
            "--sprt",
            "elo0=5,elo1=1",
        ],
        vec![
            "match",
            "--engine",
            "x",
            "--engine",
            "y",
            "--depth",
            "2",
            "--openings",
            "/no/such/file",
        ],
    ] {
        let out = tempo().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn an_engine_that_cannot_start_loses_its_games() {
    let exe = env!("CARGO_BIN_EXE_tempo");
    let out = tempo()
        .args(["match", "--games", "2", "--depth", "2"])
        .args([
            "--engine",
            &format!("{exe} hub"),
            "--engine",
            "/no/such/engine",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("cannot start"), "{stdout}");
    assert!(
        stdout.lines().last().unwrap().contains("+2 =0 -0"),
        "{stdout}"
    );
}

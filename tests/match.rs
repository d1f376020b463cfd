//! `tempo match` end to end: `tempo hub` plays refereed games against itself
//! and against a random mover (the `random_mover` example), written to PDN
//! that replays legally; in every variant it beats the random mover; an engine that plays an illegal move, crashes or
//! never answers forfeits and the failure is counted by kind; an engine
//! that cannot start or finish the handshake stops the match with an error,
//! and so does one that loses three games in a row by failures; time odds
//! send one engine a scaled control; bad arguments are refused with a message.

use std::process::Command;

use tempo::pdn::{game_type, needs_variant_tag};
use tempo::rules::VariantKind;

#[path = "common/random_mover.rs"]
mod random_mover;
use random_mover::random_mover;

fn tempo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
}

/// `tempo hub`, as the command line of an engine in a match.
fn hub() -> String {
    format!("{} hub", env!("CARGO_BIN_EXE_tempo"))
}

/// Runs `command` and fails, showing `context` and both outputs, unless it
/// succeeds; returns its standard output.
fn succeeds(command: &mut Command, context: &str) -> String {
    let out = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{context}{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Runs `command` and fails, showing `context`, unless it stops with the
/// exit status 2 of a refused match; returns its standard error.
fn refused(command: &mut Command, context: &str) -> String {
    let out = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{context}{stderr}");
    stderr
}

fn temp_path(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tempo-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// `temp_path(name)`, with no file left there by an earlier run.
fn fresh_file(name: &str) -> std::path::PathBuf {
    let path = temp_path(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn two_tempo_engines_play_refereed_games_to_pdn() {
    let pdn = fresh_file("games.pdn");
    // A fixed depth, and a fixed number of nodes a move.
    for (variant, limit, value) in [
        ("international", "--depth", "3"),
        ("brazilian", "--nodes", "3000"),
    ] {
        let stdout = succeeds(
            tempo()
                .args(["match", "--variant", variant, "--games", "2", limit, value])
                .args(["--engine", &hub(), "--engine", &hub()])
                .args(["--name", "a", "--name", "b", "--max-plies", "300"])
                .arg("--pdn")
                .arg(&pdn),
            "",
        );
        let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
        assert_eq!(games.len(), 2, "{stdout}");
        let last = stdout.lines().last().unwrap();
        assert!(last.starts_with("wins="), "{last}");
        assert!(last.ends_with("illegal=0 timeouts=0 crashes=0"), "{last}");
    }
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 4);
    assert_eq!(text.matches("[GameType \"20\"]").count(), 2);
    assert_eq!(text.matches("[GameType \"26\"]").count(), 2);
    assert!(text.contains("[White \"a\"]") && text.contains("[White \"b\"]"));
    assert_eq!(text.matches("[TimeControl \"3000 nodes/move\"]").count(), 2);
}

#[test]
fn an_sprt_match_says_the_log_likelihood_ratio_after_every_game() {
    let stdout = succeeds(
        tempo()
            .args(["match", "--games", "2", "--depth", "2"])
            .args(["--sprt", "elo0=0,elo1=10"])
            .args(["--engine", &hub(), "--engine", &hub()]),
        "",
    );
    let llr_of = |line: &str, marker: &str| -> f64 {
        let rest = &line[line.find(marker).unwrap_or_else(|| panic!("{line}")) + marker.len()..];
        rest.split_whitespace().next().unwrap().parse().unwrap()
    };
    let games: Vec<f64> = stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| llr_of(l, "| LLR "))
        .collect();
    assert_eq!(games.len(), 2, "{stdout}");
    let verdict = stdout.lines().find(|l| l.starts_with("SPRT ")).unwrap();
    assert_eq!(llr_of(verdict, "LLR "), games[1], "{stdout}");
}

#[test]
fn an_illegal_move_forfeits_the_game_and_is_counted() {
    let bad = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/illegal_engine.sh");
    let stdout = succeeds(
        tempo()
            .args(["match", "--games", "2", "--depth", "2"])
            .args(["--engine", &hub(), "--engine", bad])
            .args(["--name", "tempo", "--name", "bad"]),
        "",
    );
    assert!(stdout.contains("illegal move '1-50'"), "{stdout}");
    assert!(
        stdout.contains("bad illegal=2 timeouts=0 crashes=0"),
        "{stdout}"
    );
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with("wins=2 draws=0 losses=0 elo=inf"),
        "{last}"
    );
    assert!(last.ends_with("illegal=0 timeouts=0 crashes=0"), "{last}");
}

/// An engine that loses game after game by failures (here an illegal
/// move every time, as an engine told the wrong numbering does) stops the
/// match after three, with an error that names it and hints at the
/// numbering; `--max-failures-in-a-row 0` plays every game out.
#[test]
fn an_engine_that_fails_game_after_game_stops_the_match() {
    let bad = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/illegal_engine.sh");
    let command = |extra: &[&str]| {
        let mut command = tempo();
        command
            .args(["match", "--games", "8", "--depth", "2"])
            .args(["--engine", &hub(), "--engine", bad])
            .args(["--name", "tempo", "--name", "bad"])
            .args(extra);
        command
    };
    let out = command(&[]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stdout}{stderr}");
    // The worker waits for each game to be counted before the next.
    let played = stdout.matches("illegal move '1-50'").count();
    assert_eq!(played, 3, "{stdout}");
    assert!(!stdout.contains("wins="), "{stdout}");
    for needle in [
        "engine 2 lost 3 games in a row by failures",
        "illegal move '1-50'",
        "numbering=pdn",
        "engine 'bad'",
    ] {
        assert!(stderr.contains(needle), "{needle}: {stderr}");
    }
    let stdout = succeeds(&mut command(&["--max-failures-in-a-row", "0"]), "");
    assert!(stdout.contains("bad illegal=8"), "{stdout}");
    // Two failing engines lose in turn: three games in a row ended by
    // failures stop the match as well, naming both.
    let out = tempo()
        .args(["match", "--games", "8", "--depth", "2"])
        .args(["--engine", bad, "--engine", bad])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("3 games in a row ended by failures") && stderr.matches(bad).count() == 2,
        "{stderr}"
    );
}

#[test]
fn time_odds_scale_one_engines_control() {
    let engine = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/level_engine.sh");
    let [slow, fast, pdn] = ["slow.levels", "fast.levels", "odds.pdn"].map(fresh_file);
    succeeds(
        tempo()
            .args(["match", "--games", "2", "--movetime", "0.1"])
            .args(["--engine", &format!("{engine} {}", slow.display())])
            .args(["--engine", &format!("{engine} {}", fast.display())])
            .args(["--name", "slow", "--name", "fast"])
            .args(["--time-odds", "slow=2.5"])
            .arg("--pdn")
            .arg(&pdn),
        "",
    );
    let levels = |file| std::fs::read_to_string(file).unwrap();
    assert_eq!(levels(&slow).trim(), "level move-time=0.250");
    assert_eq!(levels(&fast).trim(), "level move-time=0.100");
    let text = std::fs::read_to_string(&pdn).unwrap();
    for tag in [
        "[TimeControl \"White 0.25 s/move, Black 0.1 s/move\"]",
        "[TimeControl \"White 0.1 s/move, Black 0.25 s/move\"]",
    ] {
        assert_eq!(text.matches(tag).count(), 1, "{tag}: {text}");
    }
}

/// Plays two games of `tempo` against the test engine `script` at 0.1 s a
/// move and returns the standard output.
fn against(script: &str) -> String {
    let path = format!("{}/tests/data/{script}", env!("CARGO_MANIFEST_DIR"));
    succeeds(
        tempo()
            .args(["match", "--games", "2", "--movetime", "0.1"])
            .args(["--margin-ms", "200"])
            .args(["--engine", &path, "--engine", &hub()])
            .args(["--name", "faulty", "--name", "tempo"]),
        "",
    )
}

/// Plays `against(script)` and checks that the faulty engine lost both
/// games, each failure reported with `said` and all counted as `failures`
/// (`illegal=… timeouts=… crashes=…`) on the last line; returns the
/// standard output.
fn faulty_loses_both(script: &str, said: &str, failures: &str) -> String {
    let stdout = against(script);
    assert_eq!(stdout.matches(said).count(), 2, "{script}: {stdout}");
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with("wins=0 draws=0 losses=2"),
        "{script}: {last}"
    );
    assert!(last.ends_with(failures), "{script}: {last}");
    stdout
}

#[test]
fn a_crashing_engine_loses_every_game_and_the_match_goes_on() {
    faulty_loses_both(
        "crash_engine.sh",
        "crashed",
        "illegal=0 timeouts=0 crashes=2",
    );
}

#[test]
fn an_engine_that_never_answers_loses_on_time() {
    faulty_loses_both(
        "silent_engine.sh",
        "timed out",
        "illegal=0 timeouts=2 crashes=0",
    );
}

/// The moves of every game of a PDN text written by `tempo match`.
fn pdn_games(text: &str) -> Vec<(Option<String>, String)> {
    text.split("[Event ")
        .skip(1)
        .map(|game| {
            let fen = game.lines().find_map(|l| {
                l.strip_prefix("[FEN \"")
                    .map(|v| v.trim_end_matches("\"]").to_string())
            });
            let body = game.split("\n\n").nth(1).unwrap_or("");
            let moves = body
                .split_whitespace()
                .filter(|t| !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
                .collect::<Vec<_>>()
                .join(" ");
            (fen, moves)
        })
        .collect()
}

#[test]
fn games_against_a_random_mover_replay_legally_from_the_pdn() {
    let mover = random_mover();
    for variant in ["international", "brazilian"] {
        let pdn = fresh_file(&format!("random-{variant}.pdn"));
        let stdout = succeeds(
            tempo()
                .args(["match", "--variant", variant])
                .args(["--games", "2", "--movetime", "0.02"])
                // These games test the records, not the clocks: a stall of a
                // loaded machine must not forfeit one.
                .args(["--margin-ms", "5000"])
                .args(["--engine", &hub()])
                .arg("--engine")
                .arg(format!("{} 7", mover.display()))
                .arg("--pdn")
                .arg(&pdn),
            "",
        );
        assert!(
            stdout
                .lines()
                .last()
                .unwrap()
                .ends_with("illegal=0 timeouts=0 crashes=0"),
            "{stdout}"
        );
        let text = std::fs::read_to_string(&pdn).unwrap();
        let games = pdn_games(&text);
        assert_eq!(games.len(), 2);
        for (fen, moves) in games {
            let result = replay(variant, fen, &moves);
            assert!(
                result.lines().last().unwrap().starts_with("result="),
                "{result}"
            );
        }
    }
}

#[test]
fn the_numbering_option_chooses_the_squares_the_referee_speaks() {
    let mover = random_mover();
    let command = |option: &str| {
        let mut command = tempo();
        command
            .args(["match", "--variant", "brazilian", "--games", "2"])
            .args(["--movetime", "0.02", "--option", option])
            .args(["--margin-ms", "5000"])
            .args(["--engine", &hub()])
            .arg("--engine")
            .arg(format!("{} 7", mover.display()));
        command
    };
    let run = |option: &str| command(option).output().unwrap();
    // The random mover speaks pydraughts' numbering: told it speaks PDN,
    // the referee reads each of its first moves as a move of the other side.
    let stdout = succeeds(&mut command("2:numbering=pdn"), "");
    assert!(stdout.contains("random_mover illegal=2"), "{stdout}");
    let out = run("2:numbering=pydraughts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("random_mover illegal=0"), "{stdout}");
    let out = run("1:numbering=dam");
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("pydraughts, pdn"), "{stderr}");
}

/// `tempo game` replaying `moves` of `variant` (from `fen` if given); fails
/// unless it accepts them. Returns its output.
fn replay(variant: &str, fen: Option<String>, moves: &str) -> String {
    let mut command = tempo();
    command.args(["game", "--variant", variant, "--moves", moves]);
    if let Some(fen) = fen {
        command.args(["--fen", &fen]);
    }
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{variant}: {moves}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The value of tag `name` in one game of `pdn_games`' input.
fn tag<'a>(game: &'a str, name: &str) -> Option<&'a str> {
    let start = format!("[{name} \"");
    game.lines()
        .find_map(|l| l.strip_prefix(start.as_str()))
        .map(|v| v.trim_end_matches("\"]"))
}

/// Every variant: tempo at depth 4 against the random mover, four games
/// (two openings, each with both colours). Tempo must win every game, the
/// PDN must carry the variant's tags, and `tempo game` must replay each
/// game's moves legally to the same result, reached at its last move.
#[test]
fn tempo_beats_the_random_mover_in_every_variant() {
    let mover = random_mover();
    for kind in VariantKind::ALL {
        let variant = kind.name();
        let pdn = fresh_file(&format!("beat-random-{variant}.pdn"));
        let stdout = succeeds(
            tempo()
                .args(["match", "--variant", variant])
                .args(["--games", "4", "--depth", "4"])
                .args(["--engine", &hub(), "--name", "tempo"])
                .arg("--engine")
                .arg(format!("{} 11", mover.display()))
                .args(["--name", "random", "--max-plies", "400"])
                .arg("--pdn")
                .arg(&pdn),
            &format!("{variant}: "),
        );
        let last = stdout.lines().last().unwrap_or_default();
        assert!(
            last.starts_with("wins=4 draws=0 losses=0")
                && last.ends_with("illegal=0 timeouts=0 crashes=0"),
            "{variant}: tempo did not win every game against the random mover:\n{stdout}"
        );
        let text = std::fs::read_to_string(&pdn).unwrap();
        let games: Vec<&str> = text.split("[Event ").skip(1).collect();
        assert_eq!(games.len(), 4, "{variant}: {text}");
        for (game, (fen, moves)) in games.iter().zip(pdn_games(&text)) {
            let game_type = game_type(kind).to_string();
            assert_eq!(tag(game, "GameType"), Some(game_type.as_str()), "{game}");
            let wanted_variant = needs_variant_tag(kind).then_some(variant);
            assert_eq!(tag(game, "Variant"), wanted_variant, "{game}");
            let white_is_tempo = tag(game, "White") == Some("tempo");
            let result = tag(game, "Result").unwrap();
            assert_eq!(
                result,
                if white_is_tempo { "1-0" } else { "0-1" },
                "{variant}: {game}"
            );
            let replayed = replay(variant, fen, &moves);
            let plies = moves
                .split_whitespace()
                .filter(|t| !t.ends_with('.'))
                .count();
            assert!(
                replayed.contains(&format!(" end-ply={plies}\n")),
                "{variant}: the game did not end at its last move:\n{replayed}"
            );
            let verdict = replayed.lines().last().unwrap();
            assert!(
                verdict.starts_with(&format!("result={result} ")),
                "{variant}: {verdict}\n{game}"
            );
        }
    }
}

#[test]
fn bad_arguments_are_refused_with_a_message() {
    let one_engine = ["match", "--engine", "x"];
    let two_engines = ["match", "--engine", "x", "--engine", "y"];
    let mut cases = vec![one_engine.to_vec(), two_engines.to_vec()];
    for extra in [
        &["--tc", "abc"][..],
        &["--nodes", "0"],
        &["--nodes", "9", "--depth", "2"],
        &["--depth", "2", "--sprt", "elo0=5,elo1=1"],
        &["--depth", "2", "--time-odds", "1=2"],
        &["--nodes", "9", "--time-odds", "z=2"],
        &["--nodes", "9", "--time-odds", "1=0"],
        &["--depth", "2", "--openings", "/no/such/file"],
    ] {
        cases.push([&two_engines[..], extra].concat());
    }
    for args in cases {
        let out = tempo().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}

/// `tempo match` against `tempo hub` and `other`: the exit status, standard
/// output and standard error, and how long it took.
fn match_against(other: &str) -> (Option<i32>, String, String, std::time::Duration) {
    let started = std::time::Instant::now();
    let out = tempo()
        .args(["match", "--games", "4", "--depth", "2"])
        .args(["--engine", &hub(), "--engine", other])
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed(),
    )
}

/// An engine that cannot start is no game: the match stops at once with an
/// error naming it and the command, exits non-zero and scores nothing (it
/// used to score every game as a crash win and exit 0).
#[test]
fn an_engine_that_cannot_start_stops_the_match() {
    let (code, stdout, stderr, _) = match_against("/no/such/engine hub");
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("engine 2 cannot start"), "{stderr}");
    assert!(stderr.contains("/no/such/engine hub"), "{stderr}");
    assert!(stderr.contains("no game was played"), "{stderr}");
    assert!(!stdout.contains("game "), "{stdout}");
    assert!(!stdout.contains("wins="), "{stdout}");
}

/// An engine that exits before the handshake: its standard error is shown.
#[test]
fn an_engine_that_exits_at_once_shows_its_standard_error() {
    let exe = env!("CARGO_BIN_EXE_tempo");
    // A typo in the engine's arguments: tempo refuses them and exits.
    let (code, stdout, stderr, _) = match_against(&format!("{exe} hubb"));
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(stderr.contains("its standard error"), "{stderr}");
    assert!(stderr.contains("hubb"), "{stderr}");
    assert!(!stdout.contains("wins="), "{stdout}");
}

/// Engines that never finish the handshake (one silent, one that echoes
/// what it is sent) stop the match within seconds, not 30 s a game.
#[test]
fn an_engine_that_never_answers_the_handshake_stops_the_match_in_seconds() {
    for other in ["sleep 100", "cat"] {
        let (code, stdout, stderr, took) = match_against(other);
        assert_eq!(code, Some(2), "{other}: {stdout}{stderr}");
        assert!(
            stderr.contains("sent no 'wait' in time"),
            "{other}: {stderr}"
        );
        assert!(!stdout.contains("wins="), "{other}: {stdout}");
        assert!(
            took < std::time::Duration::from_secs(12),
            "{other}: {took:?}"
        );
    }
}

#[test]
fn adjudication_ends_games_by_ply_count_and_by_quiet_plies() {
    let run = |extra: &[&str]| {
        succeeds(
            tempo()
                .args(["match", "--games", "2", "--depth", "2"])
                .args(["--engine", &hub(), "--engine", &hub()])
                .args(["--option", "*:book=false"])
                .args(extra),
            "",
        )
    };
    let capped = run(&["--max-plies", "6"]);
    assert_eq!(
        capped.matches("adjudicated draw after 6 plies").count(),
        2,
        "{capped}"
    );
    assert!(capped
        .lines()
        .last()
        .unwrap()
        .starts_with("wins=0 draws=2 losses=0"));
    let quiet = run(&["--draw-after-plies", "1"]);
    assert_eq!(
        quiet.matches("plies without a capture").count(),
        2,
        "{quiet}"
    );
}

/// A folder holding a `scan.ini` with a seed, as Scan 2.0 keeps its own.
fn scan_dir(name: &str) -> std::path::PathBuf {
    let dir = temp_path(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("scan.ini"), "book = false\nseed = 7\n").unwrap();
    dir
}

/// An engine speaking Scan 2.0's first Hub protocol (the random mover with
/// `--scan2`) is told apart by its answer to `hub` and plays refereed games
/// from its own working directory, the one whose `scan.ini` it reads; without
/// that directory it cannot start, and the match says why.
#[test]
fn a_scan2_engine_plays_from_its_own_directory() {
    let mover = format!("{} --scan2", random_mover().display());
    let dir = scan_dir("scan2-home");
    let pdn = fresh_file("scan2.pdn");
    let stdout = succeeds(
        tempo()
            .args(["match", "--games", "2", "--depth", "3"])
            .args(["--engine", &hub(), "--engine", &mover])
            .args(["--name", "tempo", "--name", "scan2"])
            .args(["--option", "scan2:book=false"])
            .arg("--dir")
            .arg(format!("scan2:{}", dir.display()))
            .arg("--pdn")
            .arg(&pdn),
        "",
    );
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with("wins=2 draws=0 losses=0"), "{stdout}");
    assert!(last.ends_with("illegal=0 timeouts=0 crashes=0"), "{last}");
    for (fen, moves) in pdn_games(&std::fs::read_to_string(&pdn).unwrap()) {
        assert!(fen.is_none());
        let replayed = replay("international", None, &moves);
        let last = replayed.lines().last().unwrap_or_default();
        assert!(last.starts_with("result="), "{replayed}");
    }
    let stderr = refused(
        tempo()
            .args(["match", "--games", "2", "--depth", "3"])
            .args(["--engine", &hub(), "--engine", &mover])
            .current_dir(temp_path("")),
        "",
    );
    assert!(stderr.contains("cannot read scan.ini"), "{stderr}");
}

/// What Scan 2.0's protocol cannot play stops the match before a game: a
/// variant other than International, a node limit, a working directory
/// that does not exist.
#[test]
fn what_a_scan2_engine_cannot_play_stops_the_match() {
    let mover = format!("{} --scan2", random_mover().display());
    let dir = scan_dir("scan2-refusals");
    let dir_arg = format!("2:{}", dir.display());
    let no_game = "no game was played";
    for (extra, needles) in [
        (
            &["--variant", "brazilian", "--depth", "2", "--dir", &dir_arg][..],
            &["International draughts only", no_game][..],
        ),
        (
            &["--nodes", "1000", "--dir", &dir_arg],
            &["no node limit", no_game],
        ),
        (&["--depth", "2", "--dir", "2:/no/such/dir"], &["--dir"]),
        (&["--depth", "2", "--dir", "3:/tmp"], &["--dir"]),
        (&["--depth", "2", "--dir", "2"], &["--dir"]),
    ] {
        let stderr = refused(
            tempo()
                .args(["match", "--games", "2"])
                .args(["--engine", &hub(), "--engine", &mover])
                .args(extra),
            &format!("{extra:?}: "),
        );
        for needle in needles {
            assert!(stderr.contains(needle), "{extra:?}: {needle}: {stderr}");
        }
    }
}

/// A Scan-protocol engine that plays an illegal move, never answers or
/// crashes loses each game, counted by kind, as a Hub v2 one does.
#[test]
fn a_misbehaving_scan2_engine_loses_its_games() {
    for (mode, kind, said) in [
        (
            "illegal",
            "illegal=2 timeouts=0 crashes=0",
            "illegal move '1-50'",
        ),
        (
            "silent",
            "illegal=0 timeouts=2 crashes=0",
            "sent no 'move' in time",
        ),
        ("crash", "illegal=0 timeouts=0 crashes=2", "crashed"),
    ] {
        let stdout = faulty_loses_both(&format!("scan2_engine.sh {mode}"), said, kind);
        let faulty = stdout
            .lines()
            .find(|l| l.starts_with("finished:"))
            .unwrap_or_default();
        assert!(
            faulty.contains(&format!("faulty {kind}")),
            "{mode}: {stdout}"
        );
    }
}

/// A parameter the engine refuses (an unknown name, a bad value) stops the
/// match before a game, with the engine's own words.
#[test]
fn a_parameter_the_engine_refuses_stops_the_match() {
    for (option, needle) in [
        ("1:hsh=2", "hsh"),
        ("*:level=99", "level"),
        ("2:book=maybe", "book"),
    ] {
        let stderr = refused(
            tempo()
                .args(["match", "--games", "2", "--depth", "1"])
                .args(["--engine", &hub(), "--engine", &hub()])
                .args(["--option", option]),
            &format!("{option}: "),
        );
        assert!(
            stderr.contains("refused what it was given before init"),
            "{option}: {stderr}"
        );
        assert!(stderr.contains(needle), "{option}: {stderr}");
        assert!(stderr.contains("no game was played"), "{option}: {stderr}");
    }
}

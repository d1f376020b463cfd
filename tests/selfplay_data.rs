//! The shard merge: a self-play run played as three shards by three
//! processes at once (stand-ins for the tasks of a job array) and merged by
//! `tempo data merge` is the same data file as the run played whole; a
//! file merged with itself keeps each batch once; two runs of other seeds
//! are refused; and `tempo data info` counts the merged file right. Played
//! games (a match PDN) become a data file with `tempo data from-pdn`, which
//! skips the games it cannot use, saying so, and resumes.

#![cfg(feature = "trainer")]

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use tempo::rules::VariantKind;
use tempo::train::data::{read_file, Chunk};

/// A fresh directory `name` of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("tempo-selfplay-data-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `tempo ARGS` run in `dir`.
fn tempo(dir: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tempo"));
    command.current_dir(dir).args(args);
    command
}

/// The output of a command that must succeed.
fn success(mut command: Command) -> Output {
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{command:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// A small self-play run: 24 games in batches of 4, one thread.
fn selfplay(dir: &Path, out: &str, games: &str, seed: &str, shard: &str) -> Command {
    tempo(
        dir,
        &[
            "selfplay",
            "--out",
            out,
            "--games",
            games,
            "--batch-games",
            "4",
            "--nodes",
            "300",
            "--threads",
            "1",
            "--seed",
            seed,
            "--shard",
            shard,
        ],
    )
}

/// The lines of `tempo data info` with counts (not the recipes).
fn counts(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| !l.starts_with("  made by: "))
        .collect()
}

fn chunks(path: &Path) -> Vec<Chunk> {
    read_file(path, VariantKind::International).unwrap()
}

#[test]
fn shards_played_at_once_merge_into_the_whole_run() {
    let dir = scratch("merge");
    success(selfplay(&dir, "whole.spd", "24", "4", "0/1"));
    // The three shards at once, as a job array's tasks would run.
    let children: Vec<_> = (0..3)
        .map(|i| {
            selfplay(
                &dir,
                &format!("shard-{i}.spd"),
                "24",
                "4",
                &format!("{i}/3"),
            )
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
        })
        .collect();
    for child in children {
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stderr}");
    }
    let merged = success(tempo(
        &dir,
        &[
            "data",
            "merge",
            "--out",
            "merged.spd",
            "shard-0.spd",
            "shard-1.spd",
            "shard-2.spd",
        ],
    ));
    let whole = chunks(&dir.join("whole.spd"));
    assert_eq!(whole.len(), 6);
    assert!(whole.windows(2).all(|w| w[0].batch < w[1].batch));
    assert_eq!(chunks(&dir.join("merged.spd")), whole);
    // One thread writes the batches in order, as the merge does: the very
    // same bytes.
    let bytes = |name: &str| std::fs::read(dir.join(name)).unwrap();
    assert_eq!(bytes("merged.spd"), bytes("whole.spd"));
    let positions: usize = whole.iter().map(|c| c.records.len()).sum();
    let stdout = String::from_utf8_lossy(&merged.stdout);
    assert!(
        stdout.contains(&format!(
            "3 files merged, 6 batches, 24 games, {positions} positions; 0 duplicate"
        )),
        "{stdout}"
    );

    // A file merged with itself: every batch once.
    let twice = success(tempo(
        &dir,
        &[
            "data",
            "merge",
            "--out",
            "twice.spd",
            "merged.spd",
            "merged.spd",
        ],
    ));
    assert!(String::from_utf8_lossy(&twice.stdout).contains("6 duplicate batches dropped"));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("6 batches also in merged.spd"));
    assert_eq!(bytes("twice.spd"), bytes("whole.spd"));

    // Another seed's games under the same batch numbers: refused, nothing
    // written.
    success(selfplay(&dir, "other.spd", "8", "5", "0/1"));
    let mixed = tempo(
        &dir,
        &[
            "data",
            "merge",
            "--out",
            "mixed.spd",
            "whole.spd",
            "other.spd",
        ],
    )
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&mixed.stderr);
    assert_eq!(mixed.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("batch 0 differs between whole.spd and other.spd"),
        "{stderr}"
    );
    assert!(!dir.join("mixed.spd").exists());
    // The output may not be an input.
    let onto = tempo(&dir, &["data", "merge", "--out", "whole.spd", "whole.spd"])
        .output()
        .unwrap();
    assert_eq!(onto.status.code(), Some(2));

    // `tempo data info` on the merged file and on a shard.
    let keys: HashSet<u64> = whole
        .iter()
        .flat_map(|c| c.records.iter().map(|r| r.key()))
        .collect();
    let wins = whole
        .iter()
        .flat_map(|c| &c.records)
        .filter(|r| r.result == 1)
        .count();
    let info = success(tempo(&dir, &["data", "info", "merged.spd", "shard-1.spd"]));
    let stdout = String::from_utf8_lossy(&info.stdout);
    // The merge of one run's shards keeps the run's recipe.
    let recipes: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("  made by: "))
        .collect();
    assert_eq!(recipes.len(), 2, "{stdout}");
    assert_eq!(recipes[0], recipes[1], "{stdout}");
    assert!(recipes[0].contains("seed=4"), "{stdout}");
    let lines = counts(&stdout);
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(
        lines[0].starts_with(&format!(
            "merged.spd: international, 24 games, {positions} positions ({} distinct, ",
            keys.len()
        )),
        "{stdout}"
    );
    let white_wins = format!(
        "White wins/draws/losses {:.1}%/",
        100.0 * wins as f64 / positions as f64
    );
    assert!(lines[0].contains(&white_wins), "{stdout}");
    assert!(
        lines[0].ends_with("6 batches 0-5, none missing"),
        "{stdout}"
    );
    assert!(
        lines[1].ends_with("2 batches 1-4 every 3, none missing"),
        "{stdout}"
    );
    assert!(lines[2].starts_with("all 2 files: 32 games"), "{stdout}");
    assert!(lines[2].contains("(2 held twice)"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn info_names_the_batches_an_unfinished_shard_lacks() {
    let dir = scratch("info");
    // Shard 1 of 2 has its batches 1 and 3; shard 0 stopped after batch 0
    // (8 games of batches of 4), without its batch 2.
    success(selfplay(&dir, "b.spd", "16", "6", "1/2"));
    success(selfplay(&dir, "a.spd", "8", "6", "0/2"));
    let info = success(tempo(&dir, &["data", "info", "b.spd", "a.spd"]));
    let stdout = String::from_utf8_lossy(&info.stdout);
    let lines = counts(&stdout);
    assert!(
        lines[0].ends_with("2 batches 1-3 every 2, none missing"),
        "{stdout}"
    );
    assert!(lines[1].ends_with("1 batch 0"), "{stdout}");
    assert!(
        lines[2].ends_with("3 batches 0-3, 1 missing: 2"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn played_games_become_data_and_a_second_run_resumes() {
    let dir = scratch("from-pdn");
    let pdn =
        "[Event \"a\"]\n[Result \"0-1\"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 0-1\n\n\
               [Event \"unfinished\"]\n\n1. 32-28 *\n\n\
               [Event \"b\"]\n[Result \"1/2-1/2\"]\n\n1. 33-28 18-22 2. 39-33 12-18 1/2-1/2\n";
    std::fs::write(dir.join("games.pdn"), pdn).unwrap();
    let run = || {
        tempo(
            &dir,
            &[
                "data",
                "from-pdn",
                "--out",
                "games.spd",
                "--depth",
                "3",
                "--threads",
                "1",
            ],
        )
        .args(["--batch-games", "1", "games.pdn"])
        .output()
        .unwrap()
    };
    let first = run();
    let stderr = String::from_utf8_lossy(&first.stderr);
    let stdout = String::from_utf8_lossy(&first.stdout);
    assert_eq!(first.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("skipped a game: line 6: no result (*)"),
        "{stderr}"
    );
    assert!(stdout.contains("2/2 games of this run"), "{stdout}");
    let written = chunks(&dir.join("games.spd"));
    assert_eq!(written.len(), 2);
    // Game "a": plies 0, 1, 4 and 5 are quiet (White, then Black, must
    // take at 2 and 3); game "b": 0, 1 and 3 (after 18-22, 22x33 threatens).
    let plies: Vec<Vec<u16>> = written
        .iter()
        .map(|c| c.records.iter().map(|r| r.ply).collect())
        .collect();
    assert_eq!(plies, [vec![0, 1, 4, 5], vec![0, 1, 3]]);
    assert!(written[0].records.iter().all(|r| r.result == -1));
    assert!(written[1].records.iter().all(|r| r.result == 0));
    let again = run();
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(
        stdout.contains("2/2 games of this run, 7 positions"),
        "{stdout}"
    );
    assert_eq!(chunks(&dir.join("games.spd")).len(), 2);
    std::fs::write(dir.join("unfinished.pdn"), "1. 32-28 *\n").unwrap();
    let out = tempo(
        &dir,
        &["data", "from-pdn", "--out", "x.spd", "unfinished.pdn"],
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no game to label"));
}

#[test]
fn no_command_writes_over_its_own_input() {
    let dir = scratch("own-input");
    success(selfplay(&dir, "t1.spd", "4", "1", "0/1"));
    let data = std::fs::read(dir.join("t1.spd")).unwrap();
    let refused = |args: &[&str], flag: &str| {
        let out = tempo(&dir, args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("--out") && stderr.contains(flag),
            "{args:?}: {stderr}"
        );
        assert_eq!(std::fs::read(dir.join("t1.spd")).unwrap(), data, "{args:?}");
    };
    refused(&["train", "--out", "t1.spd", "t1.spd"], "input");
    refused(
        &["train", "--out", "./t1.spd", "t1.spd", "--epochs", "1"],
        "input",
    );
    refused(&["data", "merge", "--out", "t1.spd", "t1.spd"], "input");
    refused(
        &[
            "selfplay",
            "--out",
            "t1.spd",
            "--eval-file",
            "t1.spd",
            "--games",
            "4",
        ],
        "--eval-file",
    );
    refused(&["data", "from-pdn", "--out", "t1.spd", "t1.spd"], "input");
    // A file that exists is replaced, and said so.
    std::fs::write(dir.join("w.txt"), "old").unwrap();
    let out = success(tempo(
        &dir,
        &[
            "train",
            "--out",
            "w.txt",
            "t1.spd",
            "--epochs",
            "1",
            "--hold-out",
            "2",
        ],
    ));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("replaced w.txt"), "{stderr}");
}

/// A resumed run must be the run that made the file: another seed or
/// other options are refused with what differs, and a run that adds games
/// cannot count a batch the file holds with fewer games as done.
#[test]
fn a_run_resumes_only_under_the_recipe_of_its_file() {
    let dir = scratch("recipe");
    let run = |extra: &[&str]| {
        tempo(
            &dir,
            &["selfplay", "--variant", "brazilian", "--out", "sp.spd"],
        )
        .args(["--threads", "1", "--egdb-builtin", "false"])
        .args(extra)
        .output()
        .unwrap()
    };
    let first = run(&["--games", "2", "--nodes", "200"]);
    assert!(first.status.success(), "{first:?}");
    for (extra, says) in [
        (
            &["--games", "2", "--nodes", "200", "--seed", "2"][..],
            "seed 1 in the file, 2 now",
        ),
        (
            &["--games", "2", "--nodes", "300"][..],
            "nodes 200 in the file, 300 now",
        ),
        (
            &["--games", "2", "--nodes", "200", "--batch-games", "2"][..],
            "batch-games 16 in the file, 2 now",
        ),
        // Batch 0 holds 2 games; a run of 4 in batches of 16 puts 4 in it.
        (
            &["--games", "4", "--nodes", "200"][..],
            "batch 0 in the file holds 2 games",
        ),
    ] {
        let out = run(extra);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
    }
    let info = success(tempo(&dir, &["data", "info", "sp.spd"]));
    let info = String::from_utf8_lossy(&info.stdout);
    assert!(info.contains("2 games"), "{info}");
    assert!(
        info.contains("made by: command=selfplay") && info.contains("seed=1"),
        "{info}"
    );
    // In batches of 2, a run of 4 adds one batch: 4 games, as info counts.
    let small = |games: &str| {
        tempo(
            &dir,
            &["selfplay", "--variant", "brazilian", "--out", "sp2.spd"],
        )
        .args([
            "--nodes",
            "200",
            "--threads",
            "1",
            "--egdb-builtin",
            "false",
        ])
        .args(["--batch-games", "2", "--games", games])
        .output()
        .unwrap()
    };
    assert!(small("2").status.success());
    let more = small("4");
    let stdout = String::from_utf8_lossy(&more.stdout);
    assert!(stdout.contains("4/4 games of this run"), "{stdout}");
    let info = success(tempo(&dir, &["data", "info", "sp2.spd"]));
    let info = String::from_utf8_lossy(&info.stdout);
    assert!(info.contains(": brazilian, 4 games"), "{info}");
}

/// Sends `signal` to `child` `later` after `ready` appears in its standard
/// error; returns that error and its output, after checking that it ended
/// with 130 within a second of the signal.
fn stop_when(
    mut child: std::process::Child,
    ready: &str,
    later: std::time::Duration,
    signal: &str,
) -> (String, Output) {
    use std::io::Read;
    let mut err = child.stderr.take().expect("stderr");
    let mut seen = Vec::new();
    let mut byte = [0u8; 256];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !String::from_utf8_lossy(&seen).contains(ready) {
        assert!(
            std::time::Instant::now() < deadline,
            "never ready: {seen:?}"
        );
        let n = err.read(&mut byte).expect("read stderr");
        assert!(
            n > 0,
            "ended before it was ready: {}",
            String::from_utf8_lossy(&seen)
        );
        seen.extend_from_slice(&byte[..n]);
    }
    std::thread::sleep(later);
    let sent = std::time::Instant::now();
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
    err.read_to_end(&mut seen).expect("read stderr");
    let out = child.wait_with_output().expect("wait");
    let took = sent.elapsed();
    let stderr = String::from_utf8_lossy(&seen).into_owned();
    assert_eq!(out.status.code(), Some(130), "{signal}: {stderr}");
    assert!(
        took < std::time::Duration::from_secs(1),
        "{signal} acted on after {took:?}"
    );
    (stderr, out)
}

/// Ctrl-C (here SIGINT and SIGTERM) stops self-play at once with its
/// finished batches whole in the file, and a fit with its best finished
/// epoch written.
#[test]
fn a_signal_stops_selfplay_and_train_with_their_finished_work_written() {
    let dir = scratch("signals");
    let selfplay = tempo(
        &dir,
        &["selfplay", "--variant", "brazilian", "--out", "sp.spd"],
    )
    .args(["--games", "20000", "--batch-games", "1", "--nodes", "1000"])
    .args(["--threads", "1", "--egdb-builtin", "false"])
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let second = std::time::Duration::from_secs(1);
    let (stderr, _) = stop_when(selfplay, "games 0/20000", 2 * second, "-INT");
    assert!(stderr.contains("interrupted: "), "{stderr}");
    assert!(stderr.contains("the same command goes on"), "{stderr}");
    let kept = read_file(&dir.join("sp.spd"), VariantKind::Brazilian).expect("whole chunks");
    assert!(!kept.is_empty(), "{stderr}");
    let said = format!("interrupted: {}/20000 games", kept.len());
    assert!(stderr.contains(&said), "{said} not in {stderr}");
    let train = tempo(&dir, &["train", "--variant", "brazilian", "--out", "w.tpw"])
        .args(["--epochs", "100000", "--hold-out", "20", "sp.spd"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (stderr, _) = stop_when(train, "epoch   2 ", second / 10, "-TERM");
    assert!(
        stderr.contains("interrupted before an epoch beat the start")
            || stderr.contains("with the best finished epoch"),
        "{stderr}"
    );
    if stderr.contains("with the best finished epoch") {
        let info = success(tempo(&dir, &["weights", "info", "w.tpw"]));
        assert!(!info.stdout.is_empty());
    } else {
        assert!(!dir.join("w.tpw").exists(), "{stderr}");
    }
}

//! Two `tempo dxp` processes on loopback: one listens (follower), one
//! connects as initiator; they play a whole game at a short time control.
//! Both PDN logs must agree on every move and on the result, and the game
//! must end by the rules.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const TEMPO: &str = env!("CARGO_BIN_EXE_tempo");

/// Kills the process if the test fails before it ends.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Guard {
    fn wait_ok(&mut self, limit: Duration, what: &str) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.0.try_wait().expect("wait") {
                assert!(status.success(), "{what} exited with {status}");
                return;
            }
            assert!(
                start.elapsed() < limit,
                "{what} still running after {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn pdn_path(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// The address in a server's first line, `listening on ADDR`.
fn listening_address(first: &str) -> String {
    first
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line '{first}'"))
        .to_string()
}

/// The value of a PDN tag.
fn tag<'a>(pdn: &'a str, name: &str) -> &'a str {
    let prefix = format!("[{name} \"");
    pdn.lines()
        .find_map(|l| l.strip_prefix(&prefix)?.strip_suffix("\"]"))
        .unwrap_or_else(|| panic!("no {name} tag in\n{pdn}"))
}

/// The moves of a PDN game, without numbers and result.
fn moves(pdn: &str) -> Vec<String> {
    pdn.lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
        .filter(|w| !w.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(w))
        .map(String::from)
        .collect()
}

#[test]
fn two_processes_play_a_game_over_loopback_and_their_logs_agree() {
    let started = Instant::now();
    let server_pdn = pdn_path("dxp-loopback-server.pdn");
    let client_pdn = pdn_path("dxp-loopback-client.pdn");
    let common = ["--max-move-time", "0.05", "--hash", "16"];
    let mut server = Guard(
        Command::new(TEMPO)
            .args(["dxp", "--listen", "127.0.0.1:0", "--connections", "1"])
            .args(["--name", "server", "--pdn"])
            .arg(&server_pdn)
            .args(common)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the server"),
    );
    let mut lines = BufReader::new(server.0.stdout.take().expect("stdout")).lines();
    let first = lines
        .next()
        .and_then(Result::ok)
        .expect("the server's first line");
    // Keep reading so the server never writes into a closed pipe.
    let rest = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
    let addr = listening_address(&first);
    let mut client = Guard(
        Command::new(TEMPO)
            .args(["dxp", "--connect", &addr, "--initiator", "--time", "1"])
            .args(["--colour", "black", "--name", "client", "--pdn"])
            .arg(&client_pdn)
            .args(common)
            .stdout(Stdio::null())
            .spawn()
            .expect("start the client"),
    );
    client.wait_ok(Duration::from_secs(60), "the client");
    server.wait_ok(Duration::from_secs(15), "the server");
    let server_out = rest.join().expect("server output");
    assert!(
        server_out.iter().any(|l| l.starts_with("game 1 over")),
        "{server_out:?}"
    );
    // The game is followed as it goes: a line for every move, ours and the
    // opponent's, between the start and the end.
    let move_lines: Vec<&String> = server_out
        .iter()
        .filter(|l| l.starts_with("  ply "))
        .collect();
    assert!(
        move_lines
            .first()
            .is_some_and(|l| l.starts_with("  ply 1, white (server): ")),
        "{server_out:?}"
    );
    assert!(
        move_lines.iter().any(|l| l.contains(", black (client): ")),
        "{server_out:?}"
    );

    let server_log = std::fs::read_to_string(&server_pdn).expect("server PDN");
    let client_log = std::fs::read_to_string(&client_pdn).expect("client PDN");
    assert_eq!(moves(&server_log), moves(&client_log));
    assert!(moves(&server_log).len() > 10, "{server_log}");
    assert_eq!(move_lines.len(), moves(&server_log).len(), "{server_out:?}");
    let result = tag(&server_log, "Result");
    assert_eq!(result, tag(&client_log, "Result"));
    assert_ne!(result, "*", "{server_log}");
    let termination = tag(&server_log, "Termination");
    assert_eq!(termination, tag(&client_log, "Termination"));
    assert!(
        termination.contains("no legal move") || termination.starts_with("draw by rule"),
        "{termination}"
    );
    // The client played Black: names agree across both logs.
    for log in [&server_log, &client_log] {
        assert_eq!((tag(log, "White"), tag(log, "Black")), ("server", "client"));
    }
    eprintln!(
        "{} plies, {result} ({termination}) in {:.1} s",
        moves(&server_log).len(),
        started.elapsed().as_secs_f64()
    );
}

/// SIGTERM (as Ctrl-C) in the middle of a game: the server exits within a
/// second with 130, its PDN holds the game as interrupted, and the
/// client, told by GAMEEND, ends too.
#[test]
fn a_signal_mid_game_writes_the_game_as_interrupted() {
    let server_pdn = pdn_path("dxp-signal-server.pdn");
    let mut server = Guard(
        Command::new(TEMPO)
            .args(["dxp", "--listen", "127.0.0.1:0", "--connections", "1"])
            .args(["--name", "server", "--hash", "16", "--pdn"])
            .arg(&server_pdn)
            .stdout(Stdio::piped())
            .spawn()
            .expect("start the server"),
    );
    let mut lines = BufReader::new(server.0.stdout.take().expect("stdout")).lines();
    let first = lines.next().and_then(Result::ok).expect("a first line");
    let addr = listening_address(&first);
    let mut client = Guard(
        Command::new(TEMPO)
            .args(["dxp", "--connect", &addr, "--initiator", "--time", "30"])
            .args(["--colour", "black", "--name", "client", "--hash", "16"])
            .stdout(Stdio::null())
            .spawn()
            .expect("start the client"),
    );
    // Wait for the game to start, then for a move or two.
    let started = lines
        .by_ref()
        .map_while(Result::ok)
        .find(|l| l.starts_with("game 1:"));
    assert!(started.is_some(), "the game never started");
    std::thread::sleep(Duration::from_millis(1500));
    let rest = std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>());
    let signalled = Instant::now();
    let sent = Command::new("kill")
        .args(["-TERM", &server.0.id().to_string()])
        .status()
        .expect("run kill");
    assert!(sent.success());
    let status = loop {
        if let Some(status) = server.0.try_wait().expect("wait") {
            break status;
        }
        assert!(
            signalled.elapsed() < Duration::from_secs(3),
            "the server still runs after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        signalled.elapsed() < Duration::from_millis(1500),
        "{:?}",
        signalled.elapsed()
    );
    assert_eq!(status.code(), Some(130), "{status}");
    let out = rest.join().expect("server output");
    assert!(out.iter().any(|l| l.contains("interrupted")), "{out:?}");
    let log = std::fs::read_to_string(&server_pdn).expect("server PDN");
    assert_eq!(tag(&log, "Result"), "*", "{log}");
    assert!(tag(&log, "Termination").contains("interrupted"), "{log}");
    client.wait_ok(Duration::from_secs(15), "the client");
}

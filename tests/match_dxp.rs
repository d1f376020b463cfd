//! `tempo match` with a DXP engine: the referee connects to an engine that
//! listens (`dxp:`) or waits for one that connects (`dxp-listen:`), starting
//! it itself when the spec names a command, and proposes every game. A
//! well-behaved engine (`tempo dxp`) plays games that replay legally; fake
//! engines that play an illegal move, drop the connection or resign lose
//! their games, counted by kind; what DXP cannot say (a move time, another
//! variant, parameters, several games at once) is refused before a game.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;

use tempo::protocol::dxp::codec::{DxpMessage, Framer};

fn tempo() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tempo"))
}

#[path = "common/random_mover.rs"]
mod mover;

/// The random mover: an opponent that answers at once.
fn random_mover() -> String {
    mover::random_mover().display().to_string()
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `tempo match` of the random mover against `engine`, two games on a
/// one-minute clock (all DXP can say), at most 80 plies each; returns the
/// exit status, standard output and standard error.
fn match_with(engine: &str, extra: &[&str]) -> (Option<i32>, String, String) {
    let out = tempo()
        .args(["match", "--games", "2", "--tc", "60", "--max-plies", "80"])
        .args(["--engine", &random_mover(), "--engine", engine])
        .args(["--name", "mover", "--name", "dxp"])
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn tempo_dxp_plays_refereed_games_reached_either_way() {
    let exe = env!("CARGO_BIN_EXE_tempo");
    let quick = "--max-move-time 0.02 --book false";
    let port = free_port();
    let listening = format!("dxp:127.0.0.1:{port} {exe} dxp --listen 127.0.0.1:{port} {quick}");
    let port = free_port();
    let connecting =
        format!("dxp-listen:127.0.0.1:{port} {exe} dxp --connect 127.0.0.1:{port} {quick}");
    for engine in [listening, connecting] {
        let pdn = std::env::temp_dir().join(format!("tempo-match-dxp-{}.pdn", std::process::id()));
        let _ = std::fs::remove_file(&pdn);
        let (code, stdout, stderr) = match_with(&engine, &["--pdn", pdn.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{engine}: {stdout}{stderr}");
        let games = stdout.lines().filter(|l| l.starts_with("game ")).count();
        assert_eq!(games, 2, "{stdout}");
        let last = stdout.lines().last().unwrap();
        assert!(last.ends_with("illegal=0 timeouts=0 crashes=0"), "{stdout}");
        assert!(
            stdout.contains("dxp illegal=0 timeouts=0 crashes=0"),
            "{stdout}"
        );
        // tempo beats a random mover within 80 plies, or at least never loses.
        assert!(last.contains("wins=0"), "{stdout}");
        let text = std::fs::read_to_string(&pdn).unwrap();
        assert_eq!(text.matches("[Event ").count(), 2, "{text}");
    }
}

/// How a fake DXP engine misbehaves when it is to move.
#[derive(Clone, Copy)]
enum Fault {
    Illegal,
    Drops,
    Resigns,
}

/// A fake DXP engine listening on a free port: it accepts every game and,
/// when it is to move, does what `fault` says. Serves connections until the
/// test ends.
fn fake_engine(fault: Fault) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            std::thread::spawn(move || serve(stream, fault));
        }
    });
    port
}

fn send(stream: &mut TcpStream, frame: &str) -> std::io::Result<()> {
    stream.write_all(frame.as_bytes())?;
    stream.write_all(&[0])
}

fn serve(mut stream: TcpStream, fault: Fault) {
    let mut framer = Framer::new();
    let mut buf = [0u8; 256];
    loop {
        let Ok(n) = stream.read(&mut buf) else { return };
        if n == 0 {
            return;
        }
        for frame in framer.push(&buf[..n]) {
            let Ok(Ok(message)) = frame.map(|f| DxpMessage::parse(&f)) else {
                return;
            };
            let proposed = matches!(message, DxpMessage::GameReq(_));
            if proposed && send(&mut stream, &format!("A{:<32}0", "fake")).is_err() {
                return;
            }
            let reply = match message {
                DxpMessage::GameReq(_) | DxpMessage::Move(_) => {
                    match fault {
                        // 1-50 from the start of any game is no move.
                        Fault::Illegal => Some("M0000015000".to_string()),
                        Fault::Drops => return,
                        Fault::Resigns => Some("E10".to_string()),
                    }
                }
                DxpMessage::GameEnd { .. } => Some("E00".to_string()),
                _ => None,
            };
            if let Some(reply) = reply {
                if send(&mut stream, &reply).is_err() {
                    return;
                }
            }
        }
    }
}

#[test]
fn a_misbehaving_dxp_engine_loses_its_games() {
    for (fault, kind, said) in [
        (
            Fault::Illegal,
            "dxp illegal=2 timeouts=0 crashes=0",
            "illegal move '1-50'",
        ),
        (
            Fault::Drops,
            "dxp illegal=0 timeouts=0 crashes=2",
            "dxp crashed: dxp closed",
        ),
    ] {
        let port = fake_engine(fault);
        let (code, stdout, stderr) = match_with(&format!("dxp:127.0.0.1:{port}"), &[]);
        assert_eq!(code, Some(0), "{stdout}{stderr}");
        assert_eq!(stdout.matches(said).count(), 2, "{stdout}");
        assert!(stdout.contains(kind), "{stdout}");
        assert!(
            stdout
                .lines()
                .last()
                .unwrap()
                .starts_with("wins=2 draws=0 losses=0"),
            "{stdout}"
        );
    }
}

#[test]
fn a_dxp_engine_that_resigns_loses_without_a_failure() {
    let port = fake_engine(Fault::Resigns);
    let (code, stdout, stderr) = match_with(&format!("dxp:127.0.0.1:{port}"), &[]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert_eq!(
        stdout
            .matches("dxp ended the game, claiming a loss (it resigns)")
            .count(),
        2,
        "{stdout}"
    );
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with("wins=2 draws=0 losses=0"), "{stdout}");
    assert!(
        stdout.contains("dxp illegal=0 timeouts=0 crashes=0"),
        "{stdout}"
    );
}

#[test]
fn what_dxp_cannot_say_is_refused_before_a_game() {
    let port = fake_engine(Fault::Resigns);
    let engine = format!("dxp:127.0.0.1:{port}");
    for (extra, needle) in [
        (&["--tc", "10+0.1"][..], "whole minutes"),
        (&["--variant", "brazilian"], "International draughts only"),
        (&["--option", "dxp:hash=16"], "no parameters"),
        (&["--concurrency", "2"], "one game at a time"),
    ] {
        let out = tempo()
            .args(["match", "--games", "2"])
            .args(["--engine", &random_mover(), "--engine", &engine])
            .args(["--name", "mover", "--name", "dxp"])
            .args(if extra[0] == "--tc" {
                &[][..]
            } else {
                &["--tc", "60"][..]
            })
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(needle), "{extra:?}: {stderr}");
    }
    // Nobody listens: the match stops at once, saying where it tried.
    let port = free_port();
    let (code, stdout, stderr) = match_with(&format!("dxp:127.0.0.1:{port}"), &[]);
    assert_eq!(code, Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!("cannot connect to 127.0.0.1:{port}")),
        "{stderr}"
    );
}
